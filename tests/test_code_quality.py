"""Lint and types as part of the suite, so CI (which runs README's test command) checks them too."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (it comes with the 'test' extra)")
    return found


def test_ruff_finds_nothing() -> None:
    """pyflakes and pycodestyle rules ([tool.ruff] in pyproject.toml) over the package, tests and benchmarks."""
    proc = subprocess.run([_tool("ruff"), "check", "pytest_alias", "tests", "benchmarks"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.slow
def test_mypy_finds_nothing() -> None:
    """The package type-checks ([tool.mypy] in pyproject.toml)."""
    proc = subprocess.run([_tool("mypy"), "pytest_alias"], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
