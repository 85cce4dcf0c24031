"""Files and folders ALIAS writes: the user's umask, and no leftovers of killed builds (issue #26)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_alias.atomic import atomic_write, current_umask
from pytest_alias.cir.build import remove_leftovers, staging_dir


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_atomic_files_and_build_folders_follow_the_umask(tmp_path: Path, umask_022: None) -> None:
    assert current_umask() == 0o022
    atomic_write(tmp_path / "run.json", lambda handle: handle.write("{}"))
    assert _mode(tmp_path / "run.json") == 0o644
    staging = staging_dir(tmp_path / "OUT")
    assert _mode(staging) == 0o755
    os.umask(0o077)
    atomic_write(tmp_path / "private.json", lambda handle: handle.write("{}"))
    assert _mode(tmp_path / "private.json") == 0o600


def test_a_killed_builds_temporaries_are_removed_by_the_next_build(tmp_path: Path) -> None:
    out = tmp_path / "OUT"
    # A build killed mid-way: its process is gone, its staging folder stays.
    code = (f"import os, sys; sys.path.insert(0, {str(Path(__file__).parents[1])!r}); "
            f"from pathlib import Path; from pytest_alias.cir.build import staging_dir; "
            f"d = staging_dir(Path({str(out)!r})); (d / 'half.json').write_text('{{'); os._exit(9)")
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 9
    legacy = tmp_path / ".OUT.tmp-abc123"  # named by an older version: no process id
    legacy.mkdir()
    unrelated = tmp_path / ".OTHER.tmp-1-x"
    unrelated.mkdir()
    left = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".OUT."))
    assert len(left) == 2
    mine = staging_dir(out)  # the next build cleans up first
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".OUT.")) == [mine.name]
    assert unrelated.is_dir()
    assert remove_leftovers(out) == [], "a running build's own staging folder is kept"
