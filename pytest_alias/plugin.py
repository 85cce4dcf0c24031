"""The pytest plugin: ``pytest --alias-model=reference --alias-grade=behavior -k barrier -n auto``.

Hook implementations and thin fixtures only; the work is done by ``cases``, ``models``,
``evaluate`` and ``report``. The benchmark runs only when ``--alias-model`` is given: then the
bundled test module ``pytest_alias/benchmark/test_tla.py`` is collected, with one item per
task × condition × sample (× model), and a plain ``pytest`` in a project runs only its own tests.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .session import RECORD_PROPERTY, AliasSession, Settings

BENCHMARK_MODULE = Path(__file__).with_name("benchmark") / "test_tla.py"
SETTINGS_KEY = pytest.StashKey[Settings]()
SESSION_KEY = pytest.StashKey[AliasSession]()
GENERATIONS_KEY = pytest.StashKey[dict]()
SELECTED_KEY = pytest.StashKey[list]()

OPTIONS: list[tuple[str, dict[str, Any]]] = [
    ("model", {"action": "append", "default": None, "help": "model to benchmark (repeatable): reference, replay:FILE.jsonl, …"}),
    ("grade", {"default": "name", "help": "grade to assert: parse, name, behavior or all (default name)"}),
    ("suite", {"default": "builtin", "help": "task suite: builtin, a folder of tasks, examples:PATH, tlabench:PATH"}),
    ("conditions", {"default": "original,random", "help": "conditions to run (default original,random)"}),
    ("samples", {"default": "5", "help": "samples per task and condition (default 5)"}),
    ("seed", {"default": "0", "help": "seed for renaming, sampling and bootstrap (default 0)"}),
    ("timeout", {"default": "300", "help": "TLC time limit per run in seconds (default 300)"}),
    ("mode", {"default": "paper", "help": "behavior grade: paper (the paper's procedure) or extended"}),
    ("cache-dir", {"default": None, "help": "folder for the run cache and generation store"}),
    ("store", {"default": "rw", "help": "generation store mode: rw, ro, refresh or off (default rw)"}),
    ("report", {"action": "append", "default": None, "help": "write a report; format by suffix .json .csv .md .html (repeatable)"}),
    ("gate", {"action": "append", "default": None, "help": "fail the session unless EXPR holds, e.g. behavior.decrease.ci_low<=5"}),
    ("no-fail", {"action": "store_true", "default": False, "help": "grade failures are xfail: only the gates decide the outcome"}),
    ("lora", {"default": None, "help": "a PEFT LoRA adapter folder applied to hf: models"}),
    ("meaningful-maps", {"default": None, "help": "JSON {task id: {old name: new name}} for the meaningful condition"}),
    ("resamples", {"default": "10000", "help": "bootstrap resamples for the summary CIs (default 10000)"}),
]


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("alias", "ALIAS: LLM-written TLA+ specs and memorization")
    for name, spec in OPTIONS:
        ini = "alias_" + name.replace("-", "_")
        kwargs = dict(spec)
        group.addoption(f"--alias-{name}", dest=ini, **kwargs)
        ini_type = "linelist" if kwargs.get("action") == "append" else ("bool" if kwargs.get("action") == "store_true" else "string")
        parser.addini(ini, help=kwargs["help"], type=ini_type, default=None)


def _option(config: pytest.Config, name: str) -> Any:
    """A command-line value, else the ini value, else the option's default."""
    dest = "alias_" + name.replace("-", "_")
    value = config.getoption(dest)
    default = dict(OPTIONS)[name].get("default")
    if value is None or value == default or value is False:
        ini = config.getini(dest)
        if ini not in (None, [], ""):
            return ini
    return value


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "alias(task, condition, sample, model): an ALIAS benchmark item")
    models = _option(config, "model")
    if not models:
        return
    try:
        settings = Settings.from_options({name.replace("-", "_"): _option(config, name) for name, _ in OPTIONS})
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from None
    config.stash[SETTINGS_KEY] = settings
    # Collect the bundled benchmark module (from any folder, once the package is installed).
    # With no paths on the command line (testpaths or the current folder), run only the benchmark.
    if config.args_source != pytest.Config.ArgsSource.ARGS:
        config.args[:] = [str(BENCHMARK_MODULE)]
    elif str(BENCHMARK_MODULE) not in config.args:
        config.args.append(str(BENCHMARK_MODULE))
    if not hasattr(config, "workerinput"):  # the controller (or the only process) aggregates
        session = AliasSession(settings)
        config.stash[SESSION_KEY] = session
        config.pluginmanager.register(session, "alias-session")


def pytest_report_header(config: pytest.Config) -> list[str] | None:
    settings = config.stash.get(SETTINGS_KEY, None)
    if settings is None:
        return None
    return [f"alias: models {', '.join(settings.models)}; grade {settings.grade}; suite {settings.suite}; "
            f"conditions {','.join(settings.conditions)}; samples {settings.samples}; seed {settings.seed}; "
            f"mode {settings.mode}; store {settings.store_mode}"]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "alias_case" not in metafunc.fixturenames:
        return
    settings = metafunc.config.stash.get(SETTINGS_KEY, None)
    if settings is None:
        metafunc.parametrize("alias_case", [pytest.param(None, marks=pytest.mark.skip(reason="no --alias-model given"))])
        return
    try:
        cases = settings.cases()
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from None
    params = []
    for case in cases:
        marks = [pytest.mark.alias(task=case.task.id, condition=case.condition.kind, sample=case.sample, model=case.model)]
        if case.skip_reason:
            marks.append(pytest.mark.skip(reason=case.skip_reason))
        params.append(pytest.param(case, id=case.id, marks=marks))
    metafunc.parametrize("alias_case", params)


@pytest.hookimpl(trylast=True)  # after -k/-m deselection: generate only what will run
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Remember the selected cases: their samples are generated together, in one batch per model."""
    if config.stash.get(SETTINGS_KEY, None) is None:
        return
    cases = [item.callspec.params["alias_case"] for item in items
             if hasattr(item, "callspec") and "alias_case" in item.callspec.params]
    config.stash[SELECTED_KEY] = [case for case in cases if case is not None and not case.skip_reason]


@pytest.fixture(scope="session")
def alias_settings(request: pytest.FixtureRequest) -> Settings:
    """The run's settings (models, grade, suite, conditions, samples, seed, mode)."""
    settings = request.config.stash.get(SETTINGS_KEY, None)
    if settings is None:
        pytest.skip("no --alias-model given")
    return settings


@pytest.fixture
def alias_output(request: pytest.FixtureRequest, alias_case: Any, alias_settings: Settings) -> Any:
    """This case's generation (text, finish reason, truncation, usage)."""
    config = request.config
    if GENERATIONS_KEY not in config.stash:  # the first item generates every selected sample
        config.stash[GENERATIONS_KEY] = alias_settings.generations_for(config.stash.get(SELECTED_KEY, []))
    generation = config.stash[GENERATIONS_KEY].get(alias_case.key)
    if generation is None:  # a case not known at collection: generate it alone
        generation = alias_settings.generations_for([alias_case])[alias_case.key]
    return generation


def record_item(item: pytest.Item, record: dict[str, Any]) -> None:
    """Attach the record to the test report (it reaches the xdist controller with it)."""
    item.user_properties.append((RECORD_PROPERTY, json.dumps(record)))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    alias_session = session.config.stash.get(SESSION_KEY, None)
    if alias_session is not None:
        alias_session.finish(session)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    alias_session = config.stash.get(SESSION_KEY, None)
    if alias_session is not None:
        alias_session.print_summary(terminalreporter)

