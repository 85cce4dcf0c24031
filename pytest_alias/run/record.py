"""Grade one case's output and build its record (the unit the reports and statistics aggregate).

A record is plain JSON data, so it crosses from a pytest-xdist worker to the controller unchanged.
"""

from __future__ import annotations

import time
from typing import Any, Mapping, Sequence

from .. import __version__
from .cases import Case
from ..cir.analysis import hidden_names
from ..grading.cascade import grade_all
from ..grading.extract import extract_module
from ..records import record_outcome
from ..switches import NAMES as SHORTCUT_NAMES
from ..grading.context import GradeContext
from ..vocabulary import search_budget as search_budget_for
from ..tla.streams import budgets
from ..tla.toolchain import find_jar

from ..records import GradeEntry, Record
from ..cir.known_names import mark_known_names
from ..tla.cfg import CfgError
from ..vocabulary import Side, Stage

RECORD_SCHEMA = 1


NO_CFG_REASON = "task has no TLC configuration"


def applicable_grades(case: Case, grades: Sequence[str]) -> list[str]:
    """The grades that can judge this case: TLC-based grades need a cfg."""
    return [grade for grade in grades if grade == "parse" or case.condition.cfg is not None]


def not_applicable_result() -> GradeEntry:
    """A TLC-based grade of a task without a cfg: not run, and named so both views can be computed —
    rates over the tasks with a cfg leave it out; the paper's rule (n = 111) counts it as failing."""
    return {"passed": False, "reason": NO_CFG_REASON, "seconds": 0.0, "not_applicable": True,
            "details": {"stage": Stage.NO_CFG}}


def _similarity(output: str, reference: str) -> dict[str, float] | None:
    """BLEU-4/ROUGE-L of the module the graders see (fences and prose dropped, as appendix V scores
    modules), or of the raw output when no module can be extracted."""
    try:
        from ..grading.similarity import similarity  # heavy: sacrebleu, rapidfuzz (only a process that grades)
    except ImportError:  # pragma: no cover - optional until the similarity module lands
        return None
    try:
        extraction = extract_module(output)
        result = similarity(extraction.text if extraction.ok and extraction.text else output, reference)
    except Exception:  # similarity is descriptive: a tokenizer hiccup must not fail a grade
        return None
    return {"bleu4": round(result.bleu4, 3), "rouge_l": round(result.rouge_l, 3)}


def not_gradeable_result(reason: str) -> GradeEntry:
    """A grade the task's reference fails against itself: not run on the output (it could say nothing
    about it), skipped by the item and left out of every rate, with the self-check's reason."""
    return {"passed": False, "reason": f"not gradeable: the reference fails this grade against itself: {reason}",
            "seconds": 0.0, "not_gradeable": True, "details": {"stage": Stage.SELF_CHECK, "side": Side.REFERENCE}}


def settle_not_gradeable(record: Record, grade: str, reason: str) -> None:
    """Apply a self-check that became known only after ``record``'s grades ran (another process was
    computing it): the grade becomes what :func:`evaluate` records had it been known before — not
    gradeable, unless it was not applicable or the model gave no answer."""
    entry = record["grades"].get(grade)
    if entry is None or entry.get("not_applicable") or entry.get("details", {}).get("stage") == Stage.MODEL:
        return
    record["grades"][grade] = not_gradeable_result(reason)
    record["outcome"] = record_outcome(record)


def evaluate(case: Case, output: str, grades: Sequence[str], ctx: GradeContext, *,
             generation: dict[str, Any] | None = None, not_gradeable: Mapping[str, str] | None = None,
             output_bytes: int | None = None) -> Record:
    """Run the chosen grades on ``output`` under ``ctx`` and return the case's record; a grade in
    ``not_gradeable`` (grade → the reference self-check's reason) is recorded as not gradeable
    without running."""
    tools, timeout, mode = ctx.tools, ctx.timeout, ctx.mode
    start = time.perf_counter()
    launched, tool_seconds = dict(tools.launches), dict(tools.tool_seconds)
    results: dict[str, GradeEntry] = {}
    model_error = (generation or {}).get("error")
    to_grade: list[str] = []
    for grade in grades:
        if model_error:  # no answer to grade: recorded, never counted against the model
            results[grade] = {"passed": False, "reason": f"model error: {model_error}", "seconds": 0.0,
                              "details": {"stage": Stage.MODEL, "side": Side.MODEL}}
        elif grade not in applicable_grades(case, [grade]):
            results[grade] = not_applicable_result()
        elif grade in (not_gradeable or {}):
            results[grade] = not_gradeable_result((not_gradeable or {})[grade])
        else:
            to_grade.append(grade)
    # guarded: an output that could write files fails unrun, and a grader error is a failing grade
    graded = grade_all(output, case.condition, to_grade, ctx, output_bytes=output_bytes) if to_grade else {}
    for grade, result in graded.items():
        results[grade] = {"passed": result.passed, "reason": result.reason, "seconds": round(result.seconds, 3),
                          "details": _small(result.details)}
    results = {grade: results[grade] for grade in grades}  # the run's order of grades
    try:
        hidden = [h.name for h in hidden_names(case.condition.description, case.condition.cfg)]
    except CfgError:  # a cfg that cannot be read hides nothing: each TLC grade fails on it with its reason
        hidden = []

    record: Record = {
        "schema": RECORD_SCHEMA,
        "id": case.id,
        "task": case.task.id,
        "condition": case.condition.kind,
        "sample": case.sample,
        "model": case.model,
        "grades": results,
        "similarity": _similarity(output, case.condition.module_map[case.condition.main]),
        "hidden_names": hidden,
        "has_hidden_names": bool(hidden),
        "known_names": mark_known_names(case.condition.description),  # appendix M
        "mode": mode,
        "name_rule": ctx.name_rule,  # the name grade's cfg binding: paper (appendix H as written) or refined
        "shortcuts": list(SHORTCUT_NAMES) if ctx.shortcuts else [],  # verdict-preserving shortcuts used
        "generation": generation or {},
        # Where the grading time went: SANY and TLC runs launched for this record (cache hits cost none).
        "timings": {"grading_s": round(time.perf_counter() - start, 3),
                    **{f"{tool}_s": round(tools.tool_seconds[tool] - tool_seconds.get(tool, 0.0), 3) for tool in ("sany", "tlc")},
                    **{f"{tool}_runs": tools.launches[tool] - launched.get(tool, 0) for tool in ("sany", "tlc")},
                    # TLC runs waiting for a core of their own (tla.slots): the machine was busy, not the grade.
                    "tlc_slot_wait_s": round(tools.tool_seconds["tlc_slot_wait"] - tool_seconds.get("tlc_slot_wait", 0.0), 3)},
        "versions": {"alias": __version__, "tlc": find_jar().tlc_version, "task": case.task.version,
                     "condition": case.condition.version},
        # The byte budgets the tools ran under (a verdict "too large" depends on them).
        "limits": budgets().to_record(),
    }
    if "behavior" in grades:  # the behavior search's whole budget (a search it cut is no verdict)
        record["search_budget_s"] = search_budget_for(ctx.search_budget, timeout)
    record["outcome"] = record_outcome(record)
    return record


def _small(details: Mapping[str, Any]) -> dict[str, Any]:
    """Details without bulky fields (full cfgs, outputs), so records stay small."""
    keep: dict[str, Any] = {}
    for key, value in details.items():
        if isinstance(value, str) and len(value) > 500:
            continue
        keep[key] = value
    return keep


def failure_summary(record: Record) -> str | None:
    """The reasons of the failing grades in one line, or None when every grade that ran passed."""
    failed = [f"{grade}: {result['reason']}" for grade, result in record["grades"].items()
              if not result["passed"] and not result.get("not_applicable") and not result.get("not_gradeable")]
    return "; ".join(failed) if failed else None
