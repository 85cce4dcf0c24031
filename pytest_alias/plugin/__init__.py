"""The pytest plugin: ``pytest --alias-model=reference --alias-grade=behavior -k barrier -n auto``.

Hook implementations and thin fixtures only. At load time this module imports nothing but pytest,
the standard library and the option table (``run.options``): a project where pytest-alias is installed but not asked for
(no ``--alias-model``) pays nothing for it. With ``--alias-model``:

1. ``pytest_configure`` resolves the options (command line > ini > default) and checks every model
   once; a bad value or an unusable model is one usage error (exit code 4).
2. The controller (or the only process) prepares the conditions at session start, before xdist
   starts its workers: renaming and SANY/TLC verification go to the condition cache, and workers
   only read it at collection.
3. After collection and ``-k``/``-m`` selection the controller self-checks the selected tasks'
   references (behavior grade) and generates every selected sample once, with a progress line
   (under xdist: when the first worker reports its collection, before any test is scheduled), and
   sends the texts and self-checks to each worker over xdist's own channel (``transport``): a
   worker needs no file of the controller's.
4. Each item grades its sample through the run's ``Workspace``; records travel to the controller on
   the reports; the controller prints the summary, writes reports and applies gates.

The run itself (settings, cases, generation, coverage, grading) lives in :mod:`pytest_alias.run`;
this package only adapts it to pytest, one role per module: ``controller`` (prepare, self-check,
generate, schedule), ``worker`` (receive), ``session`` (records → summary, reports, gates),
``transport`` (what crosses xdist's channel), ``scheduling`` (longest first), ``state`` (what the
roles share) and ``test_tla`` (the parametrized benchmark module).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ..errors import AliasError, usage_message
from ..run.options import OPTIONS, OptionError, resolve
from .state import FLAG_PREFIX, GENERATIONS_KEY, SESSION_KEY, WORKSPACE_KEY, alias_case_of, record_item
from .transport import PREPARED_INPUT, RUN_INPUT, decode_prepared

__all__ = ["alias_case_of", "record_item"]  # for the benchmark module and plugins that extend ALIAS

BENCHMARK_MODULE = Path(__file__).with_name("test_tla.py")



def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("alias", "ALIAS: LLM-written TLA+ specs and memorization")
    for option in OPTIONS:
        group.addoption(f"--alias-{option.name}", **option.argparse_kwargs())
        parser.addini(option.dest, help=option.help, type=option.ini_type, default=None)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "alias(task, condition, sample, model): an ALIAS benchmark item")
    try:
        values = resolve(config.getoption, config.getini)
    except OptionError as exc:
        raise pytest.UsageError(str(exc)) from None
    if not values["model"]:
        return
    from ..run import RunConfig, Workspace  # start-up: only a run with --alias-model loads the run layer
    from .controller import AliasController
    from .session import AliasSession
    from .worker import AliasWorker

    worker = hasattr(config, "workerinput")
    from ..tla.launcher import check_environment

    try:
        check_environment()  # ALIAS_LAUNCHER, ALIAS_JAVA_HEAP: one usage error, not a grader error per item
        workspace = Workspace(RunConfig.from_options(values))
        if not worker:  # one check at start-up, not one error per item
            workspace.check_models()
            if workspace.config.save_outputs is not None:  # before any model is paid for
                from ..run.generation import check_writable_file

                check_writable_file(workspace.config.save_outputs)
            workspace.tools.check_drivable()  # a jar the launcher cannot drive (or no JVM starts): one line
    except AliasError as exc:  # the project's own errors only: anything else is a bug, shown as one
        raise pytest.UsageError(usage_message(exc, FLAG_PREFIX)) from None
    config.stash[WORKSPACE_KEY] = workspace
    # Collect the bundled benchmark module (from any folder, once the package is installed).
    # With no paths on the command line (testpaths or the current folder), run only the benchmark.
    if config.args_source != pytest.Config.ArgsSource.ARGS:
        config.args[:] = [str(BENCHMARK_MODULE)]
    elif str(BENCHMARK_MODULE) not in config.args:
        config.args.append(str(BENCHMARK_MODULE))
    if worker:  # receives the conditions at start-up, the texts over xdist's channel
        prepared = config.workerinput.get(PREPARED_INPUT)  # type: ignore[attr-defined]
        if prepared is not None:
            workspace.adopt_prepared(decode_prepared(prepared))
        workspace.run_uid = config.workerinput.get(RUN_INPUT, workspace.run_uid)  # type: ignore[attr-defined]
        config.pluginmanager.register(AliasWorker(config, workspace), "alias-worker")
    else:  # the controller (or the only process) prepares, generates and aggregates
        session = AliasSession(workspace)
        config.stash[SESSION_KEY] = session
        config.pluginmanager.register(AliasController(config, workspace), "alias-controller")
        config.pluginmanager.register(session, "alias-session")


def pytest_report_header(config: pytest.Config) -> list[str] | None:
    from ..run.deviations import deviation_line  # start-up: not loaded by importing the plugin

    workspace = config.stash.get(WORKSPACE_KEY, None)
    if workspace is None:
        return None
    settings = workspace.config
    return [f"alias: models {', '.join(settings.models)}; grade {settings.grade}; suite {settings.suite}; "
            f"conditions {','.join(settings.conditions)}; samples {settings.samples}; seed {settings.seed}; "
            f"mode {settings.mode}; name rule {settings.name_rule}; store {settings.store_mode}; "
            f"prefill {settings.prefill}"
            + (f"; search budget {settings.search_budget_s():g} s" if "behavior" in settings.grades else "")
            + (f"; renamed names from {settings.rename_map_source}" if settings.rename_map_source else "")
            + (f"; renaming seeds {', '.join(map(str, settings.renaming_seeds()))}" if settings.rename_seeds > 1 else ""),
            deviation_line(settings)]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "alias_case" not in metafunc.fixturenames:
        return
    workspace = metafunc.config.stash.get(WORKSPACE_KEY, None)
    if workspace is None:
        metafunc.parametrize("alias_case", [pytest.param(None, marks=pytest.mark.skip(reason="no --alias-model given"))])
        return

    try:
        cases = workspace.cases()
    except AliasError as exc:  # a usage problem, or a JVM that cannot start while conditions are prepared
        raise pytest.UsageError(usage_message(exc, FLAG_PREFIX)) from None
    params = []
    for case in cases:
        renaming = ({"rename_seed": case.condition.rename_seed}  # -m "alias(rename_seed=2)" in multi-seed runs
                    if workspace.config.rename_seeds > 1 and case.condition.kind == "random" else {})
        marks = [pytest.mark.alias(task=case.task.id, condition=case.condition.kind, sample=case.sample, model=case.model,
                                   **renaming)]
        if case.skip_reason:
            marks.append(pytest.mark.skip(reason=case.skip_reason))
        params.append(pytest.param(case, id=case.id, marks=marks))
    metafunc.parametrize("alias_case", params)


@pytest.hookimpl(tryfirst=True)  # before -k/-m deselection reads the keywords
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """``-k die-hard`` selects task ``die-hard`` (ids spell it ``die_hard``): add task, condition and model."""
    for item in items:
        case = alias_case_of(item)
        if case is not None:
            item.extra_keyword_matches.update({case.task.id, case.condition.kind, case.condition.label, case.model})





def _workspace(request: pytest.FixtureRequest) -> Any:
    workspace = request.config.stash.get(WORKSPACE_KEY, None)
    if workspace is None:
        pytest.skip("no --alias-model given")
    return workspace


@pytest.fixture(scope="session")
def alias_workspace(request: pytest.FixtureRequest) -> Any:
    """The run's :class:`~pytest_alias.run.Workspace` (toolchain, models, store, coverage, grading)."""
    return _workspace(request)


@pytest.fixture(scope="session")
def alias_settings(request: pytest.FixtureRequest) -> Any:
    """The run's settings (a :class:`~pytest_alias.run.RunConfig`: models, grade, suite, conditions, …)."""
    return _workspace(request).config


@pytest.fixture
def alias_output(request: pytest.FixtureRequest, alias_case: Any, alias_workspace: Any) -> Any:
    """This case's generation (text, finish reason, truncation, usage), generated once per run."""
    generation = request.config.stash.get(GENERATIONS_KEY, {}).get(alias_case.key)
    if generation is None:  # a worker that got no payload: generate (or read) through its own store
        generation = alias_workspace.generate([alias_case], live=False)[alias_case.key]
    return generation


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    alias_session = session.config.stash.get(SESSION_KEY, None)
    if alias_session is not None:
        alias_session.finish(session)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    alias_session = config.stash.get(SESSION_KEY, None)
    if alias_session is not None:
        alias_session.print_summary(terminalreporter)
