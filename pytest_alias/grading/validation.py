"""Grader validation (paper section 3, appendix J, Table J.1), and a guarded grade of one output.

:func:`guarded_grade` grades one raw output with the parse, name or behavior grade and never raises
for a bad output: an output that imports a module able to write files or run commands (IOUtils,
CSV, Json's serializers) fails before any tool runs, and an unexpected error inside a grader becomes
a failing verdict whose reason names it. Only :class:`ModeUnavailable` (a behavior mode this build
lacks) and ``ValueError`` for an unknown grade reach the caller, since those are the caller's errors.

:func:`validate_grader` builds Table J.1 for a list of tasks, in parallel over tasks (threads; the
TLC runs themselves are JVMs). Rows and what they count:

* ``self``: each eligible task (one with a cfg, no random values, not a test fixture of the TLA+ tools;
  appendix K's 102) grades its reference against itself (should pass);
* ``operator_renamed``: a copy of the reference with the main module's operators renamed to random
  names of the same width, the cfg renamed accordingly, graded against the original reference
  (should pass). It counts only when it passes strict SANY and TLC; operators the cfg names through
  ``<-``, names also declared or defined in the task's other modules (an ``INSTANCE`` substitutes
  those by name) and operators defined in more than one module keep their names;
* ``renamed``: the random condition's reference graded in the random condition (should pass);
* ``mutant``: each kept mutant (:mod:`.mutants`) graded against the original reference (should fail).

As in the paper, the three controls after ``self`` run only on tasks whose reference passes against
itself (the grade's coverage): a grader that rejects the reference rejects its mutants trivially.
"""

from __future__ import annotations

from .. import switches
from ..errors import UsageProblem

import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from ..cir.conditions import random_condition
from ..cir.names import random_names
from ..cir.rename import apply_renaming, collect_identifiers
from ..tasks.model import Condition, Task
from ..tasks.selection import behavior_exclusion
from ..tla.cfg import CfgError, parse_cfg
from ..tla.launcher import expected_seconds
from ..tla.runner import TlaTools, default_tools
from ..vocabulary import TLC_TIMEOUT_S
from ..tla.specfiles import SpecFiles
from . import behavior
from .behavior import UnknownModeError
from .endings import noting
from .guard import writer_use
from .extract import DEFAULT_MAX_BYTES, Extraction, extract_module
from .graders import GRADERS
from .mutants import check_mutant, generate_mutants, reference_distinct
from .context import GradeContext, grade_context
from .result import Evidence, GradeResult
from ..vocabulary import GRADES
from ..vocabulary import NAME_RULES, Side, Stage

__all__ = [
    "CONTROLS",
    "ControlCase",
    "ModeUnavailable",
    "TaskValidation",
    "ValidationRow",
    "ValidationTable",
    "available_modes",
    "guarded_grade",
    "reference_self_grade",
    "operator_renamed_copy",
    "validate_grader",
    "validate_task",
    "writer_use",
]

#: Table J.1's rows: control id → (label, whether a correct grader passes it).
CONTROLS: dict[str, tuple[str, bool]] = {
    "self": ("Reference against itself", True),
    "operator_renamed": ("Operator-renamed reference", True),
    "renamed": ("Renamed reference and modules", True),
    "mutant": ("Mutant with other reachable states", False),
}
class ModeUnavailable(UsageProblem):
    """The behavior grade of this build has no such mode (yet)."""


# --------------------------------------------------------------------------- one output


def available_modes() -> tuple[str, ...]:
    """The behavior-grade modes this build offers (``paper`` always)."""
    return tuple(getattr(behavior, "MODES", ("paper",)))


def guarded_grade(output_text: str | None, condition: Condition, grade: str, ctx: GradeContext | None = None, *,
                  max_bytes: int = DEFAULT_MAX_BYTES, extraction: Extraction | None = None,
                  tools: TlaTools | None = None, **settings: Any) -> GradeResult:
    """Grade one raw output with ``grade`` (parse, name or behavior) under ``condition``; never crash.

    ``ctx`` carries the grade's settings (a run builds it once per item); without it one is made from
    ``tools`` and ``settings`` (:class:`~.context.GradeContext` fields: ``timeout``, ``mode``,
    ``name_rule``, ``search_budget``, …). A behavior mode this build lacks raises
    :class:`ModeUnavailable`. An output that could write files fails without running
    (``details["stage"] == "guard"``); an exception inside a grader becomes a failing verdict
    (``details["stage"] == "error"``). Pass ``extraction`` (of ``output_text``) to reuse one already made.
    """
    ctx = ctx if ctx is not None else grade_context(tools, **settings)
    mode, name_rule = ctx.mode, ctx.name_rule
    if grade not in GRADES:
        raise ValueError(f"grade must be one of {', '.join(GRADES)}, not {grade!r}")
    if name_rule not in NAME_RULES:  # the caller's setting, not the output, is wrong: never a grader error
        raise ValueError(f"name rule must be one of {', '.join(NAME_RULES)}, not {name_rule!r}")
    if grade == "behavior" and mode not in available_modes():
        raise ModeUnavailable(f"behavior mode {mode!r} is not available yet "
                              f"(this build has {', '.join(available_modes())})")
    started = time.perf_counter()
    try:
        if extraction is None:
            extraction = extract_module(output_text, max_bytes=max_bytes)
        hazard = writer_use(extraction.texts) if extraction.ok else None
        if hazard is not None:
            return GradeResult(grade, False, f"{hazard}; not run", Evidence(stage=Stage.GUARD, mode=mode),
                               time.perf_counter() - started)
        tools, endings = noting(ctx.tools)  # which checks the machine ended: read from the results, not the reason
        return endings.marked(GRADERS[grade](extraction, condition, ctx.with_changes(tools=tools)))
    except ModeUnavailable:
        raise
    except UnknownModeError as exc:  # the caller's mode, not the output, is wrong
        raise ModeUnavailable(f"behavior mode {mode!r} is not available yet ({exc})") from None
    except Exception as exc:  # a grader bug must still give a verdict, never end a whole run
        return _crashed(grade, exc, started)


def _crashed(grade: str, exc: Exception, started: float) -> GradeResult:
    reason = f"grader error: {type(exc).__name__}: {exc}".splitlines()[0][:300]
    # The grader or its environment failed (a bug, a bad ALIAS_* setting, a full disk): not a verdict
    # on the output, and counted apart from the output's failures.
    details = Evidence(stage=Stage.ERROR, side=Side.GRADER, traceback=traceback.format_exc(limit=8))
    return GradeResult(grade, False, reason, details, time.perf_counter() - started)


# --------------------------------------------------------------------------- operator-renamed copy


def _kept_operator_names(task: Task) -> set[str]:
    """Operator names that must not change: named by a cfg ``<-`` or known to other modules."""
    kept: set[str] = set()
    if task.cfg is not None:
        try:
            for entry in parse_cfg(task.cfg).constants:
                if entry.op == "<-":
                    kept.add(entry.value)
                    kept.update(entry.name.split("!"))
        except CfgError:
            pass
    others = dict(task.modules[1:])
    if others:
        kept |= set(collect_identifiers(others).author)
    return kept


def operator_renamed_copy(task: Task, seed: int = 0) -> tuple[SpecFiles | None, dict[str, str], str | None]:
    """The reference with its main module's operators renamed (``(spec, map, None)``), or why not.

    Names are random, of the same width, drawn like CIR's; the cfg is renamed with the same map.
    """
    main_ids = collect_identifiers({task.main: task.module_map[task.main]})
    everything = collect_identifiers(task.module_map, task.cfg)
    kept = _kept_operator_names(task)
    operators = [name for name, kind in main_ids.author.items()
                 if kind in ("operator", "function") and name not in kept]
    if not operators:
        return None, {}, "no operator to rename"
    name_map, _ = random_names(operators, seed, set(everything.author) | everything.other)
    if not name_map:
        return None, {}, "no operator to rename"
    renaming = apply_renaming(task.module_map, task.cfg, name_map)
    return SpecFiles(renaming.main, renaming.modules, renaming.cfg), renaming.name_map, None


# --------------------------------------------------------------------------- one task


@dataclass(frozen=True)
class ControlCase:
    """One graded control: which row, what was graded (``label``), and the grader's verdict."""

    control: str
    label: str
    passed: bool
    reason: str | None
    seconds: float

    @property
    def expected(self) -> bool:
        """Whether a correct grader passes this case."""
        return CONTROLS[self.control][1]

    @property
    def correct(self) -> bool:
        return self.passed == self.expected

    def to_dict(self) -> dict[str, Any]:
        return {"control": self.control, "label": self.label, "passed": self.passed, "expected": self.expected,
                "reason": self.reason, "seconds": round(self.seconds, 3)}


@dataclass(frozen=True)
class TaskValidation:
    """Every control of one task, with notes on what was left out and why, and the tool launches."""

    task_id: str
    eligible: bool
    cases: tuple[ControlCase, ...] = ()
    notes: dict[str, Any] = field(default_factory=dict, hash=False)
    launches: dict[str, int] = field(default_factory=dict, hash=False)
    seconds: float = 0.0

    @property
    def covered(self) -> bool:
        """Whether the reference passes against itself."""
        return any(c.control == "self" and c.passed for c in self.cases)

    def to_dict(self) -> dict[str, Any]:
        return {"task": self.task_id, "eligible": self.eligible, "covered": self.covered,
                "cases": [c.to_dict() for c in self.cases], "notes": dict(self.notes),
                "launches": dict(self.launches), "seconds": round(self.seconds, 3)}


def _sibling(tools: TlaTools) -> TlaTools:
    """Tools sharing ``tools``' toolchain, cache and launcher, with their own launch counter."""
    return TlaTools(tools.toolchain, tools.cache_dir, use_cache=tools.use_cache)


def validate_task(task: Task, *, tools: TlaTools | None = None, mode: str = "paper", seed: int = 0,
                  mutant_limit: int = 40, timeout: float = TLC_TIMEOUT_S, mutant_timeout: float = 60.0,
                  max_states: int | None = None) -> TaskValidation:
    """Grade every control of ``task`` (see the module docstring); never raises for a task's content.

    ``timeout`` bounds each TLC run of a grade and of the operator-renamed copy's check;
    ``mutant_timeout`` bounds each TLC run that decides whether a mutant is kept (a mutant whose
    state space became infinite runs until then and is not kept). A task whose reference has more
    than ``max_states`` distinct states (or does not finish TLC within ``timeout``) is left out as not
    eligible, with the reason in its notes.
    """
    started = time.perf_counter()
    own = _sibling(tools or default_tools())
    notes: dict[str, Any] = {}
    cases: list[ControlCase] = []
    excluded = behavior_exclusion(task)  # no cfg, random values, or a fixture of the TLA+ tools
    if excluded is not None:
        return TaskValidation(task.id, False, (), {"eligible": excluded})
    assert task.cfg is not None  # behavior_exclusion excludes a task without one
    try:
        if max_states is not None:
            distinct = reference_distinct(task.module_map, task.main, task.cfg, own, timeout)
            if distinct is None or distinct > max_states:
                size = "does not finish TLC" if distinct is None else f"has {distinct} distinct states"
                notes["eligible"] = f"the reference {size}, over --max-states {max_states}"
                return TaskValidation(task.id, False, (), notes, dict(own.launches), time.perf_counter() - started)
        _run_controls(task, own, mode, seed, mutant_limit, timeout, mutant_timeout, cases, notes)
    except ModeUnavailable:
        raise
    except Exception as exc:  # one broken task must not end the table
        notes["error"] = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
    return TaskValidation(task.id, True, tuple(cases), notes, dict(own.launches), time.perf_counter() - started)


def reference_self_grade(condition: Condition, *, tools: TlaTools, mode: str, timeout: float,
                         shortcuts: bool | None = None) -> GradeResult:
    """The positive control of appendix J: ``condition``'s reference graded by behavior against itself.
    The one place it is made: a run's self-check (``run/coverage``, which caches it) and
    ``validate-grader``'s ``self`` row both call it. ``shortcuts``: None reads ``ALIAS_SHORTCUTS``."""
    # The reference's own check, cached by its verification, says whether these checks run long; else
    # what the caller expects (a state count the suite records: see run.coverage).
    cached = tools.cached_tlc_seconds(condition.spec(), timeout=timeout)
    with tools.expecting(cached if cached is not None else expected_seconds()):
        return guarded_grade(condition.module_map[condition.main], condition, "behavior", mode=mode, tools=tools,
                             timeout=timeout, shortcuts=switches.enabled() if shortcuts is None else shortcuts)


def _run_controls(task: Task, tools: TlaTools, mode: str, seed: int, mutant_limit: int, timeout: float,
                  mutant_timeout: float, cases: list[ControlCase], notes: dict[str, Any]) -> None:
    original = task.original()

    def grade(control: str, label: str, text: str, condition: Condition) -> ControlCase:
        result = guarded_grade(text, condition, "behavior", mode=mode, tools=tools, timeout=timeout)
        case = ControlCase(control, label, result.passed, result.reason, result.seconds)
        cases.append(case)
        return case

    own = reference_self_grade(original, tools=tools, mode=mode, timeout=timeout)
    cases.append(ControlCase("self", "reference", own.passed, own.reason, own.seconds))
    if not own.passed:
        notes["coverage"] = "the reference fails against itself: the other controls are not run"
        return

    copy, name_map, why = operator_renamed_copy(task, seed)
    if copy is None:
        notes["operator_renamed"] = why
    elif not tools.sany(copy).ok:
        notes["operator_renamed"] = "copy does not parse"
    elif not (tlc := tools.tlc(copy, timeout=timeout)).ok:
        notes["operator_renamed"] = f"copy fails TLC ({tlc.status})"
    else:
        grade("operator_renamed", f"{len(name_map)} operators renamed", copy.modules[copy.main], original)
        notes["operator_map"] = name_map

    renamed = random_condition(task, seed, verify=False).condition
    grade("renamed", f"random condition, seed {seed}", renamed.module_map[renamed.main], renamed)

    distinct = reference_distinct(task.module_map, task.main, task.cfg or "", tools, timeout)
    if distinct is None:
        notes["mutants"] = "the reference does not finish TLC under the mutants' cfg"
        return
    mutants = generate_mutants(task.module_map, task.main, task.cfg, limit=mutant_limit)
    kept = 0
    for mutant in mutants:
        if check_mutant(mutant, distinct, tools, mutant_timeout).kept:
            kept += 1
            where = f" of {mutant.module}" if mutant.module and mutant.module != mutant.main else ""
            grade("mutant", f"{mutant.kind} line {mutant.line}{where}: {mutant.description}",
                  mutant.output_text(), original)
    notes["mutants_generated"], notes["mutants_kept"] = len(mutants), kept


# --------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class ValidationRow:
    """One row of Table J.1: how many cases (``n``) and how many passed."""

    control: str
    n: int
    passed: int

    @property
    def label(self) -> str:
        return CONTROLS[self.control][0]

    @property
    def expected_pass(self) -> bool:
        return CONTROLS[self.control][1]

    def to_dict(self) -> dict[str, Any]:
        return {"control": self.control, "label": self.label, "n": self.n, "passed": self.passed,
                "should": "pass" if self.expected_pass else "fail"}


@dataclass(frozen=True)
class ValidationTable:
    """Table J.1 for a suite: per-task results, rows, and whether the grader behaved (data only:
    ``report/grader_validation.py`` lays it out as Markdown or text)."""

    mode: str
    tasks: tuple[TaskValidation, ...]
    seconds: float = 0.0

    def rows(self) -> list[ValidationRow]:
        """The four rows; ``self`` counts every eligible task, the others every graded case."""
        eligible = [t for t in self.tasks if t.eligible]
        rows = [ValidationRow("self", len(eligible), sum(t.covered for t in eligible))]
        for control in list(CONTROLS)[1:]:
            graded = [c for t in eligible for c in t.cases if c.control == control]
            rows.append(ValidationRow(control, len(graded), sum(c.passed for c in graded)))
        return rows

    @property
    def ok(self) -> bool:
        """No covered task's positive control failed and no mutant passed (self-failures are coverage)."""
        return not self.wrong()

    def wrong(self) -> list[tuple[str, ControlCase]]:
        """``(task, case)`` for every case past ``self`` whose verdict is not the expected one."""
        return [(t.task_id, c) for t in self.tasks for c in t.cases if c.control != "self" and not c.correct]

    def launches(self) -> dict[str, int]:
        total: dict[str, int] = {}
        for task in self.tasks:
            for tool, count in task.launches.items():
                total[tool] = total.get(tool, 0) + count
        return total

    def to_dict(self) -> dict[str, Any]:
        return {"mode": self.mode, "ok": self.ok, "rows": [r.to_dict() for r in self.rows()],
                "tasks": [t.to_dict() for t in self.tasks], "launches": self.launches(),
                "seconds": round(self.seconds, 3)}


def validate_grader(tasks: Sequence[Task], *, tools: TlaTools | None = None, mode: str = "paper",
                    workers: int = 2, seed: int = 0, mutant_limit: int = 40,
                    timeout: float = TLC_TIMEOUT_S, mutant_timeout: float = 60.0, max_states: int | None = None,
                    progress: Callable[[TaskValidation], None] | None = None) -> ValidationTable:
    """Table J.1 for ``tasks``: every task's controls, ``workers`` tasks at a time (threads).

    ``max_states`` leaves out tasks whose reference is larger (see :func:`validate_task`);
    ``progress`` is called with each task's result as soon as it is done. Raises :class:`ModeUnavailable` before any work when the behavior grade lacks ``mode``.
    """
    if mode not in available_modes():
        raise ModeUnavailable(f"behavior mode {mode!r} is not available yet "
                              f"(this build has {', '.join(available_modes())})")
    started = time.perf_counter()
    tools = tools or default_tools()

    def one(task: Task) -> TaskValidation:
        result = validate_task(task, tools=tools, mode=mode, seed=seed, mutant_limit=mutant_limit,
                               timeout=timeout, mutant_timeout=mutant_timeout, max_states=max_states)
        if progress is not None:
            progress(result)
        return result

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        results = tuple(pool.map(one, tasks))
    return ValidationTable(mode, results, time.perf_counter() - started)


def covered_tasks(validation: Mapping[str, Any]) -> set[str]:
    """The tasks whose reference passes the behavior grade against itself (``validate-grader --json``).

    Each entry must name its ``task`` and say ``covered`` as a JSON boolean: a string such as ``"no"``
    would otherwise count as covered, and an entry without a task cannot count at all."""
    tasks = validation.get("tasks") if isinstance(validation, Mapping) else None
    if not isinstance(tasks, list):
        raise ValueError("not the output of tla-alias validate-grader --json (no 'tasks' list)")
    covered: set[str] = set()
    for number, entry in enumerate(tasks, 1):
        if not isinstance(entry, dict) or not isinstance(entry.get("task"), str):
            raise ValueError(f"tasks entry {number}: no 'task' id (each entry is {{\"task\": ID, \"covered\": "
                             "true or false})")
        if not isinstance(entry.get("covered"), bool):
            raise ValueError(f"tasks entry {number} ({entry['task']}): 'covered' must be true or false, not "
                             f"{entry.get('covered')!r}")
        if entry["covered"]:
            covered.add(entry["task"])
    return covered
