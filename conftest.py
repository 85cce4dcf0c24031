"""Fixtures shared by the tests and benchmarks."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent
SHARED = REPO.parent / "shared"
CORPUS = SHARED / "corpus" / "tlaplus-examples"
BUILTIN_TASKS = REPO / "pytest_alias" / "data" / "tasks"
#: Four built-in tasks (hour-clock has no cfg) for the plugin tests.
SMALL = ("barrier", "die-hard", "hour-clock", "ticket-dispenser")


@pytest.fixture(scope="module")
def small_suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``SMALL`` built-in tasks copied into a task folder."""
    root = tmp_path_factory.mktemp("suite")
    for name in SMALL:
        shutil.copytree(BUILTIN_TASKS / name, root / name)
    return root


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    """The tlaplus/Examples corpus beside the project; tests that need it skip when it is absent."""
    if not (CORPUS / "models.json").is_file():
        pytest.skip("../shared/corpus/tlaplus-examples is not present")
    return CORPUS


@pytest.fixture(scope="session", autouse=True)
def private_default_cache(tmp_path_factory: pytest.TempPathFactory):
    """Point ``ALIAS_CACHE_DIR`` at this test session's temporary folder, so a test that grades
    without ``tools=`` (or a pytester run without ``--alias-cache-dir``) never writes into the
    developer's own cache folder. xdist workers share one folder, as they share ``tools``."""
    base = tmp_path_factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    previous = os.environ.get("ALIAS_CACHE_DIR")
    os.environ["ALIAS_CACHE_DIR"] = str(root / "alias-default-cache")
    yield
    if previous is None:
        os.environ.pop("ALIAS_CACHE_DIR", None)
    else:
        os.environ["ALIAS_CACHE_DIR"] = previous


@pytest.fixture(scope="session")
def tools(tmp_path_factory: pytest.TempPathFactory):
    """SANY and TLC with a run cache private to this test session (so every verdict comes from a real run).

    Under pytest-xdist the workers share one cache (it is safe under parallel processes), so a spec
    checked by two tests runs TLC once.
    """
    from pytest_alias.tla.runner import TlaTools

    base = tmp_path_factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    return TlaTools(cache_dir=root / "alias-run-cache")
