"""Fixtures shared by the tests and benchmarks."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent
SHARED = REPO.parent / "shared"
CORPUS = SHARED / "corpus" / "tlaplus-examples"
BUILTIN_TASKS = REPO / "pytest_alias" / "data" / "tasks"


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    """The tlaplus/Examples corpus beside the project; tests that need it skip when it is absent."""
    if not (CORPUS / "models.json").is_file():
        pytest.skip("../shared/corpus/tlaplus-examples is not present")
    return CORPUS


@pytest.fixture(scope="session")
def tools(tmp_path_factory: pytest.TempPathFactory):
    """SANY and TLC with a run cache private to this test session (so every run is real)."""
    from pytest_alias.tla.runner import TlaTools

    return TlaTools(cache_dir=tmp_path_factory.mktemp("alias-cache"))
