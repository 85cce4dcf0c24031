"""What a record's grades mean: each sample's outcome and whether it is a verdict on the output.

Domain facts the statistics, the reports and the exposure analysis all read (standard library and
the shared vocabulary only): the outcome of a grade and of a record (the first failing grade
decides), the outcomes that are no verdict on the output (a model error, a reference that is not
gradeable, a behavior search cut off by its budget, a grader error) and the per-condition outcome counts.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable, Mapping

from .vocabulary import CONDITIONS, GRADES, Side, Stage

OUTCOMES = ("model error", "no module found", "cut at token limit", "parse error", "semantic error", "TLC config error",
            "TLC error", "invariant or property violation", "deadlock", "timeout", "out of memory", "too large",
            "behavior differs", "search budget spent",
            "reference not gradeable", "toolchain limit", "grader error", "pass")

#: Outcomes that are no verdict on the model's output: the model call failed, the reference cannot be
#: graded, the configured tla2tools.jar predates the task's cfg, the behavior search ran out of its
#: whole-search budget (the grader's limit ended it, and a mapping not yet tried might have passed), or
#: the grader or its machine failed. Rates leave them out (they never count against a model).
NOT_VERDICTS = ("model error", "reference not gradeable", "toolchain limit", "search budget spent", "grader error")

_TLC_OUTCOMES = {
    "config_error": "TLC config error", "parse_error": "TLC config error", "semantic_error": "TLC config error",
    "invariant_violation": "invariant or property violation", "property_violation": "invariant or property violation",
    "assumption_failure": "invariant or property violation", "deadlock": "deadlock", "timeout": "timeout",
    "out_of_memory": "out of memory", "too_large": "too large",
    "stopped_early": "TLC error", "crash": "TLC error",
}


def grade_outcome(grade: str, result: Mapping[str, Any]) -> str:
    """The outcome one grade's result stands for (``pass`` when it passed)."""
    if result.get("passed"):
        return "pass"
    details = result.get("details") or {}
    stage = details.get("stage")
    # Failures that are not the output's: a reference that fails against itself, a grader crash or
    # a broken environment. Counted apart, so they never read as the model's mistakes.
    if details.get("side") == Side.REFERENCE:
        return "reference not gradeable"
    if details.get("side") == Side.GRADER and stage == Stage.TOOLCHAIN:
        return "toolchain limit"  # the configured tla2tools.jar predates a keyword of the task's cfg
    if details.get("side") == Side.GRADER and stage == Stage.ERROR:
        return "grader error"
    if details.get("side") == Side.GRADER and details.get("search_budget_spent"):
        return "search budget spent"  # never "behavior differs": the budget, not the output, ended the search
    if stage in (Stage.EXTRACT, Stage.STAGE):
        return "no module found"
    if stage == Stage.SANY:
        kinds = {error.get("kind") for error in details.get("errors") or []} | set(details.get("sany_error_kinds") or [])
        return "semantic error" if kinds == {"semantic"} else "parse error"
    if stage == Stage.CFG or stage == Stage.SPEC:
        return "TLC config error"
    if stage == Stage.TLC and details.get("tlc_status") in _TLC_OUTCOMES and grade != "behavior":
        return _TLC_OUTCOMES[details["tlc_status"]]
    return "behavior differs" if grade == "behavior" else "TLC error"


def record_outcome(record: Mapping[str, Any]) -> str:
    """The outcome of a record: its first failing grade's (parse, then name, then behavior), else pass.

    An output that does not parse because generation stopped at the token limit before the module's
    closing ``====`` is ``cut at token limit`` (appendix N's truncation), not a parse error.
    """
    if (record.get("generation") or {}).get("error"):
        return "model error"
    grades = record.get("grades") or {}
    for grade in GRADES:
        if grade in grades and not grades[grade].get("passed") and not grades[grade].get("not_applicable"):
            outcome = grade_outcome(grade, grades[grade])
            if outcome in ("parse error", "no module found") and (record.get("generation") or {}).get("truncated"):
                return "cut at token limit"
            return outcome
    return "pass"


def graded_verdict(record: Mapping[str, Any], grade: str) -> bool | None:
    """Whether ``record`` passed ``grade``, or None when there is no verdict on the output to count: the
    grade did not run or cannot apply (no cfg), or the failure is not the output's (``NOT_VERDICTS``)."""
    if (record.get("generation") or {}).get("error"):
        return None
    result = (record.get("grades") or {}).get(grade)
    if result is None or result.get("passed") is None or result.get("not_applicable"):
        return None
    if not result["passed"] and grade_outcome(grade, result) in NOT_VERDICTS:
        return None
    return bool(result["passed"])


def outcome_counts(records: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, dict[str, int]]]:
    """``{model: {condition: {outcome: count}}}`` with outcomes in pipeline order (zeros left out)."""
    counts: dict[str, dict[str, Counter[str]]] = {}
    for record in records:
        by_condition = counts.setdefault(str(record.get("model")), {})
        by_condition.setdefault(str(record.get("condition")), Counter())[record_outcome(record)] += 1
    def order(condition: str) -> int:  # original, random, meaningful: as every other table
        return CONDITIONS.index(condition) if condition in CONDITIONS else len(CONDITIONS)

    return {model: {condition: {o: conditions[condition][o] for o in OUTCOMES if conditions[condition][o]}
                    for condition in sorted(conditions, key=order)}
            for model, conditions in counts.items()}
