"""A user's benchmark run from any folder is not watched by this project's test fixtures (issue #49).

With an editable install the plugin's test module lies under the project's root ``conftest.py``,
whose autouse fixtures once failed a user's run ("wrote into the developer's cache folder") and
redirected its cache to a temporary folder.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_a_benchmark_run_from_another_folder_with_a_cold_cache_has_no_errors(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = {key: value for key, value in os.environ.items()
           if key not in ("ALIAS_CACHE_DIR", "XDG_CACHE_HOME", "PYTEST_XDIST_WORKER", "PYTEST_ADDOPTS")}
    env["HOME"] = str(home)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--alias-model=reference",
                           "--alias-grade=parse", "-k", "hour_clock", "-q"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    assert "error" not in output.splitlines()[-1], output
    assert "developer's cache folder" not in output
    # The run used the user's own cache (under their HOME), not a test session's temporary one.
    assert any((home / ".cache" / "alias").iterdir())
