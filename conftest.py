"""Fixtures shared by the tests and benchmarks."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent
SHARED = REPO.parent / "shared"
CORPUS = SHARED / "corpus" / "tlaplus-examples"
BUILTIN_TASKS = REPO / "pytest_alias" / "data" / "tasks"
#: Four built-in tasks (hour-clock has no cfg) for the plugin tests.
SMALL = ("barrier", "die-hard", "hour-clock", "ticket-dispenser")
#: ``ALIAS_SLOW_TESTS=1`` runs the corpus models whose TLC check is large (see ``LARGE_MODEL_SECONDS``).
SLOW_TESTS = os.environ.get("ALIAS_SLOW_TESTS", "").strip() not in ("", "0")
#: A corpus model whose one TLC run took longer than this (``seconds`` in models.json) is large: the
#: tests that model-check it run only with ``ALIAS_SLOW_TESTS=1``. Under CI's ``-n 2`` on 2 cores the
#: renaming test took 4-9 times that figure (two TLC runs, one TLC worker each), so every default
#: case stays under about 40 s; the large ones took 45-300 s each (CoffeeCan1000Beans, FastPaxos,
#: btree, MCNanoMedium, MCLamportMutex, AllocatorImplementation, GameOfLife, SingleLaneBridge,
#: SchedulingAllocator), and their specs' smaller models or modules stay in the default set.
LARGE_MODEL_SECONDS = 5.0


def corpus_models() -> list[dict[str, Any]]:
    """The models of models.json (empty when the corpus is absent: the tests then skip)."""
    path = CORPUS / "models.json"
    return list(json.loads(path.read_text())) if path.is_file() else []


def corpus_model_id(model: dict[str, Any]) -> str:
    """``CoffeeCan/CoffeeCan.tla::CoffeeCan100Beans``: the spec's path under specifications/ and the cfg's name."""
    return model["tla_path"].split("/", 1)[1] + "::" + Path(model["cfg_path"]).stem


def is_large_model(model: dict[str, Any]) -> bool:
    """Whether TLC takes long on this model (``LARGE_MODEL_SECONDS``)."""
    return float(model.get("seconds") or 0.0) > LARGE_MODEL_SECONDS


def corpus_params(models: list[dict[str, Any]]) -> list[Any]:
    """``models`` as parameters: a large one is skipped, with the reason in the summary, unless
    ``ALIAS_SLOW_TESTS=1``."""
    skip_large = pytest.mark.skipif(
        not SLOW_TESTS, reason=f"large corpus model (TLC over {LARGE_MODEL_SECONDS:g} s in models.json): "
                               "set ALIAS_SLOW_TESTS=1 to run it")
    return [pytest.param(m, id=corpus_model_id(m), marks=[skip_large] if is_large_model(m) else [])
            for m in models]


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
def private_default_cache(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    """Point ``ALIAS_CACHE_DIR`` at this test session's temporary folder, so a test that grades
    without ``tools=`` (or a pytester run without ``--alias-cache-dir``) never writes into the
    developer's own cache folder. xdist workers share one folder, as they share ``tools``."""
    if _benchmark_run(request.config):  # a user's run of the plugin, not this project's tests: hands off
        yield
        return
    base = tmp_path_factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    previous = os.environ.get("ALIAS_CACHE_DIR")
    os.environ["ALIAS_CACHE_DIR"] = str(root / "alias-default-cache")
    yield
    if previous is None:
        os.environ.pop("ALIAS_CACHE_DIR", None)
    else:
        os.environ["ALIAS_CACHE_DIR"] = previous


def _benchmark_run(config: pytest.Config) -> bool:
    """Whether this session is a benchmark run of the plugin (``--alias-model``), which an editable install
    puts under this file: then the test suite's cache fixtures stand aside (issue #49: a user's run from
    any folder, cold cache, ended in "wrote into the developer's cache folder" errors). The suite's own
    pytester runs inherit its ``ALIAS_CACHE_DIR`` and are watched by the test that starts them."""
    try:
        return bool(config.getoption("alias_model"))
    except ValueError:  # the plugin is not loaded
        return False


def _developer_cache_dir() -> Path:
    """The folder ALIAS would write to without ``ALIAS_CACHE_DIR`` (the developer's own cache)."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("alias", appauthor=False))


_DEVELOPER_CACHE = _developer_cache_dir()


def _folder_state(root: Path) -> dict[str, int] | None:
    """Modification times of ``root`` and the folders two levels under it: a file created or removed
    anywhere in the cache's layout (``runs/ab/KEY.json``, ``store/ab/KEY.json``…) changes one."""
    if not root.is_dir():
        return None
    state: dict[str, int] = {}
    for folder in [root, *(p for p in root.iterdir() if p.is_dir())]:
        state[str(folder)] = folder.stat().st_mtime_ns
        if folder != root:
            for child in folder.iterdir():
                if child.is_dir():
                    state[str(child)] = child.stat().st_mtime_ns
    return state


@pytest.fixture(autouse=True)
def no_writes_to_the_developers_cache(request: pytest.FixtureRequest):
    """Fail a test that writes into the developer's own cache folder: every test must use a
    temporary one (``tools``, ``tmp_path`` or the session's ``ALIAS_CACHE_DIR``)."""
    if _benchmark_run(request.config):  # the plugin's own items in a user's run may fill the user's cache
        yield
        return
    before = _folder_state(_DEVELOPER_CACHE)
    yield
    if _folder_state(_DEVELOPER_CACHE) != before:
        pytest.fail(f"{request.node.nodeid} wrote into the developer's cache folder {_DEVELOPER_CACHE}; "
                    f"give it a temporary cache instead", pytrace=False)


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


@pytest.fixture(scope="session")
def tokenizer() -> Any:
    """SmolLM2's tokenizer (the exposure tests build tiny models on its vocabulary); skipped without it.

    Session-wide: reading it from the GGUF file takes about 15 s, and no test changes it."""
    from pytest_alias.models.local import LocalBackendMissing, create_smollm2

    pytest.importorskip("gguf")
    try:
        return create_smollm2().tokenizer
    except LocalBackendMissing as exc:
        pytest.skip(str(exc))
