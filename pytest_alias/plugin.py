"""The pytest plugin: ``pytest --alias-model=reference --alias-grade=behavior -k barrier -n auto``.

Hook implementations and thin fixtures only. At load time this module imports nothing but pytest,
the standard library and ``options``: a project where pytest-alias is installed but not asked for
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
this module only adapts it to pytest.
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Any, Iterator, Mapping

import pytest

from .errors import RunStopped, usage_message
from .options import OPTIONS, OptionError, resolve
from .transport import (PREPARED_INPUT, RECORD_PROPERTY, decode_payload, decode_prepared, encode_payload,
                        encode_prepared, install_receiver, send_payload)

BENCHMARK_MODULE = Path(__file__).with_name("benchmark") / "test_tla.py"
FLAG_PREFIX = "--alias-"
WORKSPACE_KEY = pytest.StashKey[Any]()
SESSION_KEY = pytest.StashKey[Any]()
GENERATIONS_KEY = pytest.StashKey[dict]()


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
    from .run import RunConfig, Workspace
    from .session import AliasSession

    worker = hasattr(config, "workerinput")
    from .tla.launcher import check_environment
    from .tla.toolchain import ToolchainError

    try:
        check_environment()  # ALIAS_LAUNCHER, ALIAS_JAVA_HEAP: one usage error, not a grader error per item
        workspace = Workspace(RunConfig.from_options(values))
        if not worker:  # one check at start-up, not one error per item
            workspace.check_models()
            if workspace.config.save_outputs is not None:  # before any model is paid for
                from .generation import check_writable_file

                check_writable_file(workspace.config.save_outputs)
            workspace.tools.check_drivable()  # a jar the launcher cannot drive (or no JVM starts): one line
    except (ValueError, ToolchainError) as exc:
        raise pytest.UsageError(usage_message(exc, FLAG_PREFIX)) from None
    config.stash[WORKSPACE_KEY] = workspace
    # Collect the bundled benchmark module (from any folder, once the package is installed).
    # With no paths on the command line (testpaths or the current folder), run only the benchmark.
    if config.args_source != pytest.Config.ArgsSource.ARGS:
        config.args[:] = [str(BENCHMARK_MODULE)]
    elif str(BENCHMARK_MODULE) not in config.args:
        config.args.append(str(BENCHMARK_MODULE))
    if worker:  # receives the conditions at start-up, the texts and self-checks over xdist's channel
        prepared = config.workerinput.get(PREPARED_INPUT)  # type: ignore[attr-defined]
        if prepared is not None:
            workspace.adopt_prepared(decode_prepared(prepared))
        config.pluginmanager.register(AliasWorker(config, workspace), "alias-worker")
    else:  # the controller (or the only process) prepares, generates and aggregates
        session = AliasSession(workspace)
        config.stash[SESSION_KEY] = session
        config.pluginmanager.register(AliasController(config, workspace), "alias-controller")
        config.pluginmanager.register(session, "alias-session")


def pytest_report_header(config: pytest.Config) -> list[str] | None:
    from .deviations import deviation_line

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
    from .tla.toolchain import ToolchainError

    try:
        cases = workspace.cases()
    except (ValueError, ToolchainError) as exc:  # ToolchainError: a JVM that cannot start while conditions are prepared
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


def alias_case_of(item: pytest.Item) -> Any:
    """The case an item grades, or None for any other item."""
    callspec = getattr(item, "callspec", None)
    return callspec.params.get("alias_case") if callspec is not None else None


@pytest.hookimpl(tryfirst=True)  # before -k/-m deselection reads the keywords
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """``-k die-hard`` selects task ``die-hard`` (ids spell it ``die_hard``): add task, condition and model."""
    for item in items:
        case = alias_case_of(item)
        if case is not None:
            item.extra_keyword_matches.update({case.task.id, case.condition.kind, case.condition.label, case.model})


@contextlib.contextmanager
def _uncaptured(config: pytest.Config) -> Iterator[None]:
    """Let a progress line reach the terminal even while pytest captures output."""
    capman = config.pluginmanager.getplugin("capturemanager")
    with capman.global_and_fixture_disabled() if capman is not None else contextlib.nullcontext():
        yield


#: Generation errors that stop the whole run with one message (any other fails only its item).
RUN_STOPPERS: tuple[type[BaseException], ...] = (ValueError, LookupError, ImportError, OSError, RunStopped)


def live_progress(config: pytest.Config) -> bool:
    """A live progress line on an interactive terminal; plain lines under ``-q`` or without a TTY."""
    return config.get_verbosity() >= 0 and sys.stderr.isatty()


class AliasController:
    """The controller's (or the only process's) share of the work: prepare once, self-check and
    generate once, and hand both to the workers."""

    def __init__(self, config: pytest.Config, workspace: Any) -> None:
        self.config = config
        self.workspace = workspace
        self.payload: str | None = None  # what every xdist worker receives, built once
        self._task_of: dict[str, str] | None = None  # case id → task id, for the scheduler's costs

    def _prepare(self, cases: list[Any]) -> dict:
        """Self-check the selected tasks' references, then generate the selected samples (a dry run
        prints what that would send and cost, and ends the session)."""
        selected = [case for case in cases if case is not None and not case.skip_reason]
        if self.workspace.config.dry_run:
            self._dry_run(selected)
        if not selected:
            return {}
        live = live_progress(self.config)
        config = self.workspace.config
        with _uncaptured(self.config):
            self.workspace.check_references(sorted({case.task.id for case in selected}), live=live)
            try:  # before generating: the run's JSON sets it beside the usage spent; never stops the run
                self.workspace.estimate(selected)
            except Exception as exc:
                print(f"alias: no cost estimate for the run's JSON: {type(exc).__name__}: {exc}", file=sys.stderr)
            generations = self.workspace.generate(selected, live=live)
            if config.save_outputs is not None:
                from .generation import write_replay_file

                count = write_replay_file(config.save_outputs, selected, generations, config.seed)
                print(f"alias: wrote {count} outputs to {config.save_outputs} "
                      f"(--alias-model=replay:{config.save_outputs} grades them again)", file=sys.stderr)
            return generations

    def _dry_run(self, selected: list[Any]) -> None:
        """Print the cost estimate of generating ``selected`` and end the session with exit code 0:
        no model request is sent and no item runs."""
        from .report.cost import estimate_lines

        try:
            lines = estimate_lines(self.workspace.estimate(selected))
        except RUN_STOPPERS as exc:
            pytest.exit(f"alias: {usage_message(exc, FLAG_PREFIX)}", returncode=pytest.ExitCode.USAGE_ERROR)
        terminal = self.config.pluginmanager.getplugin("terminalreporter")
        with _uncaptured(self.config):
            for line in lines:
                terminal.write_line(line) if terminal is not None else print(line)
        pytest.exit("alias: dry run: no model request was sent and no item ran", returncode=pytest.ExitCode.OK)

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        """Prepare the conditions before any worker starts (xdist starts them after this hook)."""
        from .tla.toolchain import ToolchainError

        try:
            with _uncaptured(self.config):
                self.workspace.cases(live=live_progress(self.config))
        except (ValueError, ToolchainError) as exc:  # ToolchainError: a JVM that cannot start while preparing
            raise pytest.UsageError(usage_message(exc, FLAG_PREFIX)) from None

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: Any) -> None:
        """Give each worker the conditions prepared at session start (xdist carries them)."""
        node.workerinput[PREPARED_INPUT] = encode_prepared(self.workspace.prepared_conditions())

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        """Without xdist: self-check and generate what survived ``-k``/``-m`` before the first test runs."""
        if self.config.option.collectonly or GENERATIONS_KEY in self.config.stash:
            return
        try:
            self.config.stash[GENERATIONS_KEY] = self._prepare([alias_case_of(item) for item in session.items])
        except RUN_STOPPERS as exc:  # a replay for other conditions, an ro store miss, no connection…
            raise pytest.UsageError(f"alias: {usage_message(exc, FLAG_PREFIX)}") from None

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_make_scheduler(self, config: pytest.Config, log: Any) -> Any:
        """Under ``--dist load`` (what ``-n`` uses): slow tasks' items first (a grading shortcut, see
        :mod:`.scheduling`); None leaves xdist's own scheduler (other modes, ``ALIAS_SHORTCUTS=off``)."""
        from .switches import enabled

        if config.getvalue("dist") != "load" or not enabled():
            return None
        from .scheduling import longest_first_scheduler

        return longest_first_scheduler(config, log, self.item_cost)

    def item_cost(self, nodeid: str) -> float:
        """An item's estimated cost: its task's reference self-check seconds (0 when unknown)."""
        coverage = self.workspace.coverage()
        if coverage is None or not coverage.seconds:
            return 0.0
        if self._task_of is None:
            self._task_of = {case.id: case.task.id for case in self.workspace.cases()}
        task = self._task_of.get(nodeid.rpartition("[")[2].rstrip("]"))
        return float(coverage.seconds.get(task, 0.0)) if task is not None else 0.0

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        """Under xdist: on the first worker's collection (every worker selects the same), self-check
        and generate before the scheduler sends a test; then send each worker the payload."""
        if self.payload is None:
            by_id = {case.id: case for case in self.workspace.cases()}
            chosen = [by_id.get(nodeid.rpartition("[")[2].rstrip("]")) for nodeid in ids if "[" in nodeid]
            try:
                generations = self._prepare(chosen)
            except RUN_STOPPERS as exc:
                pytest.exit(f"alias: {usage_message(exc, FLAG_PREFIX)}", returncode=pytest.ExitCode.USAGE_ERROR)
            self.payload = encode_payload(generations, self.workspace.coverage())
        send_payload(node, self.payload)  # a restarted worker collects again and gets it again


class AliasWorker:
    """An xdist worker's share: take the controller's payload off xdist's channel."""

    def __init__(self, config: pytest.Config, workspace: Any) -> None:
        self.config = config
        self.workspace = workspace

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        install_receiver(list(self.config.pluginmanager.get_plugins()), self.receive)

    def receive(self, text: str) -> None:
        generations, coverage = decode_payload(text)
        self.config.stash[GENERATIONS_KEY] = generations
        if coverage is not None:
            self.workspace.adopt_coverage(coverage)


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


def record_item(item: pytest.Item, record: Mapping[str, Any]) -> None:
    """Attach the record to the test report (it reaches the xdist controller with it)."""
    import json

    item.user_properties.append((RECORD_PROPERTY, json.dumps(record)))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    alias_session = session.config.stash.get(SESSION_KEY, None)
    if alias_session is not None:
        alias_session.finish(session)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    alias_session = config.stash.get(SESSION_KEY, None)
    if alias_session is not None:
        alias_session.print_summary(terminalreporter)
