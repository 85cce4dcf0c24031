"""A look ahead at what each output costs, so that an output whose own check runs long starts early.

Before grading, an item's expected cost comes from its reference (:mod:`.costs`): an output whose own
TLC check runs for minutes on a task with a small reference is sent among the last items, and the run
ends with one worker on it while the others idle (measured on real outputs: a name check that ran to
the 300-s limit ended a run alone). Under xdist, a thread of the controller looks ahead: for the items
the scheduler would send last, it runs the output's name grade with every TLC run stopped after
:data:`PROBE_SECONDS`. A grade whose check ends sooner has cached it under the run's own limit, and
the item's grade reads it, so nothing is done twice; one whose check the cap stopped marks its item as
long, and the scheduler sends it next. The probe's own verdicts are thrown away: only the order of
work depends on them. It stops when it meets the items already sent.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, Callable, MutableMapping, Sequence

from ..grading.validation import guarded_grade
from .costs import item_cost
from .coverage import SelfCheckPending

#: How long the probe lets an output's TLC run go before it calls the output long: a few times what
#: most outputs' checks take (their name checks took 0.2 s on average on the real-output workload),
#: short beside the run it saves from ending alone.
PROBE_SECONDS = 5.0


@dataclass
class ProbeReport:
    """What the probe did: outputs it looked at, those it found long (case ids), its TLC seconds."""

    probed: int = 0
    long: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"probed": self.probed, "long": list(self.long), "seconds": round(self.seconds, 3),
                "cap_seconds": PROBE_SECONDS}


def long_output_cost(timeout: float, grades: Sequence[str]) -> float:
    """The expected seconds of an item whose output's check outlasted the probe: it may run to the limit
    in each of its TLC grades (an order, never a verdict: such items go first)."""
    return measured_cost(timeout, grades)


def measured_cost(tlc_seconds: float, grades: Sequence[str]) -> float:
    """The expected seconds of an item whose output's name check the probe saw end in ``tlc_seconds``: as
    :func:`~.costs.item_cost` counts a reference's check of that length."""
    return item_cost(tlc_seconds, grades, makes_self_check=False, graded_before=False)


def probe_order(cases: Sequence[Any], costs: MutableMapping[str, float]) -> list[Any]:
    """The cases in the order the probe looks at them: the reverse of the scheduler's (cheapest first,
    later in collection order first among equals), which sends the costliest first."""
    indexed = list(enumerate(cases))
    indexed.sort(key=lambda pair: (costs.get(pair[1].id, 0.0), -pair[0]))
    return [case for _, case in indexed]


class OutputProbe:
    """The look-ahead thread (see the module docstring). ``costs`` is the scheduler's case id → expected
    seconds, raised in place; ``sent`` says whether a case id has been sent to a worker."""

    def __init__(self, workspace: Any, cases: Sequence[Any], texts: MutableMapping[str, str],
                 costs: MutableMapping[str, float], sent: Callable[[str], bool]) -> None:
        self.workspace = workspace
        self.cases = probe_order(cases, costs)
        self.texts = texts
        self.costs = costs
        self.sent = sent
        self.report = ProbeReport()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="alias-output-probe", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop after the output being probed (its run is capped, so within :data:`PROBE_SECONDS`)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=PROBE_SECONDS + 30.0)

    def _run(self) -> None:
        for case in self.cases:
            if self._stop.is_set() or self.sent(case.id):
                return  # the workers have reached the items the probe would look at: nothing left to gain
            try:
                self._probe(case)
            except Exception:  # noqa: BLE001 - a look ahead that fails only leaves the order as it was
                continue

    def _probe(self, case: Any) -> None:
        workspace, tools = self.workspace, self.workspace.tools
        timeout = workspace.tlc_limit(case.task)
        ctx = workspace.grade_context(case, timeout, _coverage_for(workspace, case.task.id))
        with tools.expecting(workspace.expected_check_seconds(case, timeout)), tools.probing(PROBE_SECONDS):
            result = guarded_grade(self.texts[case.id], case.condition, "name", ctx)
        self.report.probed += 1
        status, seconds = result.details.get("tlc_status"), result.details.get("tlc_seconds")
        if isinstance(seconds, (int, float)) and not result.details.get("tlc_cached"):
            self.report.seconds += float(seconds)
        grades = workspace.config.grades
        if status == "timeout" and timeout > PROBE_SECONDS:
            self.report.long.append(case.id)
            self.costs[case.id] = max(self.costs.get(case.id, 0.0), long_output_cost(timeout, grades))
        elif isinstance(seconds, (int, float)):
            self.costs[case.id] = max(self.costs.get(case.id, 0.0), measured_cost(float(seconds), grades))


def _coverage_for(workspace: Any, task_id: str) -> Any:
    """The coverage an item of ``task_id`` would grade with now: with the task's stored self-check, else
    what the run knows so far (so the probe's check is the one the item will ask for)."""
    try:
        return workspace.check_references([task_id], wait=False, make=False)
    except SelfCheckPending:
        return workspace.coverage()


def start_probe(workspace: Any, cases: Sequence[Any], generations: MutableMapping[Any, Any],
                costs: MutableMapping[str, float], sent: Callable[[str], bool]) -> OutputProbe | None:
    """Start the look ahead over ``cases`` (None where it has nothing to do): only with the shortcuts and
    the run cache on (the items read what it cached) and a name grade to run, and only for outputs that
    will be graded (a text, a cfg, not every grade in the grade memo: their cost is above zero)."""
    config = workspace.config
    if not (config.shortcuts and config.use_cache and "name" in config.grades):
        return None
    texts: dict[str, str] = {}
    for case in cases:
        generation = generations.get(case.key)
        text = getattr(generation, "text", None)
        if (text and not getattr(generation, "error", None) and not case.skip_reason
                and case.condition.cfg is not None and costs.get(case.id, 0.0) > 0.0):
            texts[case.id] = text
    if not texts:
        return None
    probe = OutputProbe(workspace, [case for case in cases if case.id in texts], texts, costs, sent)
    probe.start()
    return probe
