"""The pytest plugin: ``pytest --alias-model=reference --alias-grade=behavior -k barrier -n auto``.

Hook implementations and thin fixtures only. At load time this module imports nothing but pytest,
the standard library and ``options``: a project where pytest-alias is installed but not asked for
(no ``--alias-model``) pays nothing for it. With ``--alias-model``:

1. ``pytest_configure`` resolves the options (command line > ini > default) and checks every model
   once; a bad value or an unusable model is one usage error (exit code 4).
2. The controller (or the only process) prepares the conditions at session start, before xdist
   starts its workers: renaming and SANY/TLC verification go to the condition cache, and workers
   only read it at collection.
3. After collection and ``-k``/``-m`` selection the controller generates every selected sample once,
   with a progress line (under xdist: when the first worker reports its collection, before any
   test is scheduled) and hands the texts to the workers in a run file.
4. Each item grades its sample; records travel to the controller on the reports; the controller
   prints the summary, writes reports and applies gates.
"""

from __future__ import annotations

import contextlib
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterator, Mapping

import pytest

from .models.base import StopRunError
from .options import OPTIONS, OptionError, resolve

BENCHMARK_MODULE = Path(__file__).with_name("benchmark") / "test_tla.py"
RECORD_PROPERTY = "alias_record"
RUN_FILE_INPUT = "alias_run_file"
SETTINGS_KEY = pytest.StashKey[Any]()
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
    from .session import AliasSession, Settings

    worker = hasattr(config, "workerinput")
    from .tla.launcher import check_environment
    from .tla.toolchain import ToolchainError

    try:
        check_environment()  # ALIAS_LAUNCHER, ALIAS_JAVA_HEAP: one usage error, not a grader error per item
        settings = Settings.from_options(values)
        if not worker:  # one check at start-up, not one error per item
            settings.check_models()
    except (ValueError, ToolchainError) as exc:
        raise pytest.UsageError(str(exc)) from None
    config.stash[SETTINGS_KEY] = settings
    # Collect the bundled benchmark module (from any folder, once the package is installed).
    # With no paths on the command line (testpaths or the current folder), run only the benchmark.
    if config.args_source != pytest.Config.ArgsSource.ARGS:
        config.args[:] = [str(BENCHMARK_MODULE)]
    elif str(BENCHMARK_MODULE) not in config.args:
        config.args.append(str(BENCHMARK_MODULE))
    if not worker:  # the controller (or the only process) prepares, generates and aggregates
        session = AliasSession(settings)
        config.stash[SESSION_KEY] = session
        config.pluginmanager.register(AliasController(config, settings), "alias-controller")
        config.pluginmanager.register(session, "alias-session")


def pytest_report_header(config: pytest.Config) -> list[str] | None:
    from .deviations import deviation_line

    settings = config.stash.get(SETTINGS_KEY, None)
    if settings is None:
        return None
    return [f"alias: models {', '.join(settings.models)}; grade {settings.grade}; suite {settings.suite}; "
            f"conditions {','.join(settings.conditions)}; samples {settings.samples}; seed {settings.seed}; "
            f"mode {settings.mode}; store {settings.store_mode}; prefill {settings.prefill}", deviation_line(settings)]


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
            item.extra_keyword_matches.update({case.task.id, case.condition.kind, case.model})


@contextlib.contextmanager
def _uncaptured(config: pytest.Config) -> Iterator[None]:
    """Let a progress line reach the terminal even while pytest captures output."""
    capman = config.pluginmanager.getplugin("capturemanager")
    with capman.global_and_fixture_disabled() if capman is not None else contextlib.nullcontext():
        yield


#: Generation errors that stop the whole run with one message (any other fails only its item).
RUN_STOPPERS: tuple[type[BaseException], ...] = (ValueError, LookupError, ImportError, OSError, StopRunError)


def live_progress(config: pytest.Config) -> bool:
    """A live progress line on an interactive terminal; plain lines under ``-q`` or without a TTY."""
    return config.get_verbosity() >= 0 and sys.stderr.isatty()


class AliasController:
    """The controller's (or the only process's) share of the work: prepare once, generate once."""

    def __init__(self, config: pytest.Config, settings: Any) -> None:
        self.config = config
        self.settings = settings
        self.run_dir = Path(tempfile.mkdtemp(prefix="alias-session-"))
        from .tla.janitor import janitor

        janitor().hold_folder(self.run_dir)  # removed even when the whole run is killed
        self.run_file = self.run_dir / "generations.json"
        self.generated = False

    def _generate(self, cases: list[Any]) -> dict:
        selected = [case for case in cases if case is not None and not case.skip_reason]
        self.generated = True
        if not selected:
            return {}
        with _uncaptured(self.config):
            generations = self.settings.generate(selected, live=live_progress(self.config))
            if self.settings.save_outputs is not None:
                from .generation import write_replay_file

                count = write_replay_file(self.settings.save_outputs, selected, generations, self.settings.seed)
                print(f"alias: wrote {count} outputs to {self.settings.save_outputs} "
                      f"(--alias-model=replay:{self.settings.save_outputs} grades them again)", file=sys.stderr)
            return generations

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        """Prepare the conditions before any worker starts (xdist starts them after this hook)."""
        try:
            with _uncaptured(self.config):
                self.settings.cases(live=live_progress(self.config))
        except ValueError as exc:
            raise pytest.UsageError(str(exc)) from None

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: Any) -> None:
        node.workerinput[RUN_FILE_INPUT] = str(self.run_file)

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        """Without xdist: generate what survived ``-k``/``-m`` before the first test runs."""
        if self.config.option.collectonly or self.generated:
            return
        try:
            self.config.stash[GENERATIONS_KEY] = self._generate([alias_case_of(item) for item in session.items])
        except RUN_STOPPERS as exc:  # a replay for other conditions, an ro store miss, no connection…
            raise pytest.UsageError(f"alias: {exc}") from None

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        """Under xdist: generate the first worker's selection (every worker selects the same) before
        the scheduler sends a test, and hand the texts to the workers."""
        if self.generated:
            return
        by_id = {case.id: case for case in self.settings.cases()}
        chosen = [by_id.get(nodeid.rpartition("[")[2].rstrip("]")) for nodeid in ids if "[" in nodeid]
        try:
            generations = self._generate(chosen)
        except RUN_STOPPERS as exc:
            pytest.exit(f"alias: {exc}", returncode=pytest.ExitCode.USAGE_ERROR)
        from .generation import write_run_file

        write_run_file(self.run_file, generations)

    def pytest_unconfigure(self) -> None:
        from .tla.janitor import janitor

        shutil.rmtree(self.run_dir, ignore_errors=True)
        janitor().release_folder(self.run_dir)


@pytest.fixture(scope="session")
def alias_settings(request: pytest.FixtureRequest) -> Any:
    """The run's settings (models, grade, suite, conditions, samples, seed, mode)."""
    settings = request.config.stash.get(SETTINGS_KEY, None)
    if settings is None:
        pytest.skip("no --alias-model given")
    return settings


def _run_generations(config: pytest.Config) -> dict:
    if GENERATIONS_KEY not in config.stash:
        from .generation import read_run_file

        path = getattr(config, "workerinput", {}).get(RUN_FILE_INPUT)
        config.stash[GENERATIONS_KEY] = (read_run_file(Path(path)) if path else None) or {}
    return config.stash[GENERATIONS_KEY]


@pytest.fixture
def alias_output(request: pytest.FixtureRequest, alias_case: Any, alias_settings: Any) -> Any:
    """This case's generation (text, finish reason, truncation, usage), generated once per run."""
    generation = _run_generations(request.config).get(alias_case.key)
    if generation is None:  # a remote worker without the run file: generate through the store
        generation = alias_settings.generate([alias_case], live=False)[alias_case.key]
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
