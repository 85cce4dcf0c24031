"""The controller's role (or the only process's): prepare the conditions once, generate every
selected sample once and hand the texts to the xdist workers, send the costliest items first, and
gather the references' self-checks the items made (each task's first item makes its task's)."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from ..errors import AliasError, usage_message
from ..report.cost import estimate_lines
from ..run.generation import write_replay_file
from ..run.probe import start_probe
from ..switches import enabled
from .state import FLAG_PREFIX, GENERATIONS_KEY, RUN_STOPPERS, alias_case_of, live_progress, uncaptured
from .transport import (COVERAGE_OUTPUT, PREPARED_INPUT, RUN_INPUT, decode_coverage, encode_payload,
                        encode_prepared, send_payload)


#: What an item's expected seconds drop by while its task's self-check is still to come (see ``item_cost``).
LATER = 1e9


class AliasController:
    """The controller's (or the only process's) share of the work: prepare once, generate once, hand
    the texts to the workers, and gather their self-checks."""

    def __init__(self, config: pytest.Config, workspace: Any) -> None:
        self.config = config
        self.workspace = workspace
        self.payload: str | None = None  # what every xdist worker receives, built once
        self._costs: dict[str, float] = {}  # case id → the item's expected seconds, for the scheduler
        self._selected_tasks: list[str] = []  # the tasks whose self-checks the run's JSON reports
        self._background = False  # whether costly self-checks run in this process beside the items
        self._longest_first = False  # whether xdist sends items by self._costs (see .scheduling)
        self._sent: set[str] = set()  # case ids the scheduler has sent to a worker
        self._probe: Any = None  # the look ahead at the outputs' costs (run.probe), under xdist only
        self._task_of: dict[str, str] = {}  # case id → its task id

    def _prepare(self, cases: list[Any]) -> dict:
        """Generate the selected samples (a dry run prints what that would send and cost, and ends the
        session) and estimate each item's cost. No item waits for a self-check here: the costly ones
        start in a thread beside the items, and each task's first item makes the others."""
        selected = [case for case in cases if case is not None and not case.skip_reason]
        self._task_of = {case.id: case.task.id for case in selected}
        self._selected_tasks = sorted({case.task.id for case in selected})
        if self.workspace.config.dry_run:
            self._dry_run(selected)
        if not selected:
            return {}
        live = live_progress(self.config)
        config = self.workspace.config
        with uncaptured(self.config):
            # The costly self-checks start now, beside generation and the items (see Workspace.grade).
            self._background = bool(self.workspace.start_background_self_checks(selected))
            try:  # before generating: the run's JSON sets it beside the usage spent; never stops the run
                self.workspace.estimate(selected)
            except Exception as exc:
                print(f"alias: no cost estimate for the run's JSON: {type(exc).__name__}: {exc}", file=sys.stderr)
            generations = self.workspace.generate(selected, live=live)
            if config.save_outputs is not None:
                count = write_replay_file(config.save_outputs, selected, generations, config.seed)
                print(f"alias: wrote {count} outputs to {config.save_outputs} "
                      f"(--alias-model=replay:{config.save_outputs} grades them again)", file=sys.stderr)
            try:  # only the order of work depends on it: a failure sends items in collection order
                self._costs = self.workspace.expected_costs(selected, generations)
            except Exception as exc:
                print(f"alias: no cost estimate for the scheduler: {type(exc).__name__}: {exc}", file=sys.stderr)
            return generations

    def _dry_run(self, selected: list[Any]) -> None:
        """Print the cost estimate of generating ``selected`` and end the session with exit code 0:
        no model request is sent and no item runs."""
        try:
            lines = estimate_lines(self.workspace.estimate(selected))
        except RUN_STOPPERS as exc:
            pytest.exit(f"alias: {usage_message(exc, FLAG_PREFIX)}", returncode=pytest.ExitCode.USAGE_ERROR)
        terminal = self.config.pluginmanager.getplugin("terminalreporter")
        with uncaptured(self.config):
            for line in lines:
                terminal.write_line(line) if terminal is not None else print(line)
        pytest.exit("alias: dry run: no model request was sent and no item ran", returncode=pytest.ExitCode.OK)

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        """Prepare the conditions before any worker starts (xdist starts them after this hook)."""

        try:
            with uncaptured(self.config):
                self.workspace.cases(live=live_progress(self.config))
        except AliasError as exc:  # a usage problem, or a JVM that cannot start while preparing
            raise pytest.UsageError(usage_message(exc, FLAG_PREFIX)) from None

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: Any) -> None:
        """Give each worker the conditions prepared at session start and the run's identity (xdist carries them)."""
        node.workerinput[PREPARED_INPUT] = encode_prepared(self.workspace.prepared_conditions())
        node.workerinput[RUN_INPUT] = self.workspace.run_uid

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        """Take the self-checks a finished worker made (a crashed worker's are made again at the end)."""
        text = getattr(node, "workeroutput", {}).get(COVERAGE_OUTPUT)
        if text:
            self.workspace.merge_coverage(decode_coverage(text))

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """Before the summary: self-check the selected tasks no item checked (a worker that crashed, a
        run that grades no behavior but restricts its rates to covered tasks). Not after an interrupt."""
        stopped = bool(session.shouldstop or session.shouldfail) or session.exitstatus == pytest.ExitCode.INTERRUPTED
        if self._probe is not None:
            self._probe.stop()
            self.workspace.probe_report = self._probe.report.to_dict()
        self.workspace.stop_background_self_checks(wait=not stopped)
        if not self._selected_tasks or stopped:
            return
        try:
            with uncaptured(self.config):
                self.workspace.check_references(self._selected_tasks, live=live_progress(self.config))
        except AliasError as exc:
            print(f"alias: self-checks not completed: {usage_message(exc, FLAG_PREFIX)}", file=sys.stderr)

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        """Without xdist: generate what survived ``-k``/``-m`` before the first test runs."""
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
        if config.getvalue("dist") != "load" or not enabled():
            return None
        from .scheduling import longest_first_scheduler  # start-up: it loads xdist's scheduler (~70 ms), used only under -n

        scheduler = longest_first_scheduler(config, log, self.item_cost, self.item_sent)
        self._longest_first = scheduler is not None
        return scheduler

    def item_cost(self, nodeid: str) -> float:
        """An item's expected seconds (:meth:`~pytest_alias.run.Workspace.expected_costs`, raised by the
        look ahead at its output; 0 when unknown), less :data:`LATER` while its task's self-check is still
        to be made beside the items: the item would grade, then hold its worker idle until that
        self-check is made, so the other items go first (ties among such items keep their costs' order)."""
        case_id = _case_id(nodeid)
        cost = self._costs.get(case_id, 0.0)
        task_id = self._task_of.get(case_id)
        return cost - LATER if task_id is not None and self.workspace.self_check_coming(task_id) else cost

    def item_sent(self, nodeid: str) -> None:
        """The scheduler sent this item to a worker: the look ahead has nothing more to learn of it."""
        self._sent.add(_case_id(nodeid))

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        """Under xdist: on the first worker's collection (every worker selects the same), generate
        before the scheduler sends a test; then send each worker the payload."""
        if self.payload is None:
            by_id = {case.id: case for case in self.workspace.cases()}
            chosen = [by_id.get(nodeid.rpartition("[")[2].rstrip("]")) for nodeid in ids if "[" in nodeid]
            try:
                generations = self._prepare(chosen)
            except RUN_STOPPERS as exc:
                pytest.exit(f"alias: {usage_message(exc, FLAG_PREFIX)}", returncode=pytest.ExitCode.USAGE_ERROR)
            self.payload = encode_payload(generations, yield_cpu=self._background)
            if self._longest_first:
                self._probe = start_probe(self.workspace, [c for c in chosen if c is not None], generations,
                                          self._costs, self._sent.__contains__)
        send_payload(node, self.payload)  # a restarted worker collects again and gets it again


def _case_id(nodeid: str) -> str:
    """The case id in an item's node id (``test_tla.py::test_tla[CASE]``)."""
    return nodeid.rpartition("[")[2].rstrip("]")
