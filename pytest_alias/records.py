"""The shapes of a run's data: the record of one graded sample and the aggregate over records.

Both stay plain JSON (a record crosses from an xdist worker to the controller, and both are written
to reports and read back by ``tla-alias report``), so they are ``TypedDict``s: type-checked where
they are built and read, identical to the JSON on disk. Numbers follow one rule: a **rate** is a
fraction in [0, 1] in the data and a percentage wherever a person reads it; a **decrease** (and its
intervals and margin) is in percentage points everywhere.
"""

from __future__ import annotations

from collections import Counter
from enum import StrEnum
from typing import Any, Iterable, Mapping, NotRequired, Optional, TypedDict

from .vocabulary import CONDITIONS, GRADES, Side, Stage


__all__ = ["Aggregate", "Decrease", "GradeAggregate", "GradeEntry", "ModelAggregate", "Outcome", "Rate", "Record"]


class GradeEntry(TypedDict):
    """One grade's verdict on one sample."""

    passed: bool
    reason: Optional[str]
    seconds: NotRequired[float]
    #: The evidence: ``stage`` (a ``vocabulary.Stage``), ``side`` (a ``vocabulary.Side``) and what that
    #: stage found (SANY errors, the cfg used, TLC's status, the mapping tried…).
    details: NotRequired[dict[str, Any]]
    #: The grade cannot apply to this task (a TLC grade without a cfg); not a failure of the output.
    not_applicable: NotRequired[bool]
    not_gradeable: NotRequired[bool]  # the reference fails this grade against itself


class Record(TypedDict):
    """One sample of one case (task × condition × sample × model), graded (``RECORD_SCHEMA``)."""

    schema: int
    id: str
    task: str
    condition: str
    sample: int
    model: str
    grades: dict[str, GradeEntry]
    similarity: Optional[dict[str, float]]
    hidden_names: list[str]
    has_hidden_names: bool
    known_names: dict[str, list[str]]
    mode: str
    #: The name grade's cfg binding: ``paper`` (appendix H as written) or ``refined`` (a record
    #: without it was graded before the option existed, under what is now ``refined``).
    name_rule: NotRequired[str]
    #: The behavior search's whole time budget in seconds (runs that grade by behavior).
    search_budget_s: NotRequired[float]
    generation: dict[str, Any]
    timings: dict[str, float]
    versions: dict[str, Any]
    outcome: NotRequired[str]  # an ``Outcome`` code
    seed: NotRequired[int]
    #: Which of the run's renamings a random-condition sample answered (runs with --alias-rename-seeds > 1).
    rename_seed: NotRequired[int]
    #: The byte budgets SANY and TLC ran under: ``output_mb`` (printed), ``graph_mb`` (state-graph dump).
    limits: NotRequired[dict[str, int]]
    #: The verdict-preserving grading shortcuts used (``grading.shortcuts``; ``ALIAS_SHORTCUTS=off``: none).
    shortcuts: NotRequired[list[str]]
    #: Under ``--alias-timeout-from-reference K``: the task's TLC limit (``seconds``) and K (``from_reference``).
    tlc_limit: NotRequired[dict[str, float]]


class Rate(TypedDict):
    """A pass rate over tasks: the mean of task rates (a fraction) and how many tasks it averages."""

    mean: Optional[float]
    tasks: int
    task_ids: NotRequired[list[str]]  # the tasks it averages


class Decrease(TypedDict):
    """Original − renamed, paired over tasks, in percentage points (appendix P's test included)."""

    mean: float
    ci_low: float
    ci_high: float
    n: int
    ci90_low: float
    ci90_high: float
    margin: float
    equivalent: bool
    now_fail: int  # tasks whose rate fell
    now_pass: int  # tasks whose rate rose
    sign_p: float
    original: float  # the rates over the paired tasks, in percent
    renamed: float
    task_ids: NotRequired[list[str]]  # the paired tasks


class GradeAggregate(TypedDict):
    """One grade of one model: rates per condition, decreases per renamed condition, and the views
    beside them (the hidden-name split, covered tasks, the paper's no-cfg rule, lenient SANY)."""

    rates: dict[str, Rate]
    decreases: dict[str, Optional[Decrease]]
    split: dict[str, dict[str, Optional[Decrease]]]
    not_graded: NotRequired[dict[str, int]]
    not_gradeable: NotRequired[dict[str, int]]  # task → samples skipped: its reference fails the grade itself
    paper_rule_rates: NotRequired[dict[str, Rate]]
    lenient_rates: NotRequired[dict[str, Rate]]
    covered: NotRequired[dict[str, Any]]
    equivalence_random_meaningful: NotRequired[dict[str, Any]]
    meaningful: NotRequired[dict[str, Any]]  # appendix R on the meaningful-valid tasks
    meaningful_covered: NotRequired[dict[str, Any]]  # … that the behavior grade also covers
    seeds: NotRequired[dict[str, Any]]  # several renamings per task (report.seeds.seed_analysis)


class ModelAggregate(TypedDict):
    grades: dict[str, GradeAggregate]
    similarity: dict[str, dict[str, float]]
    tasks: int
    hidden_name_tasks: int
    every_name_stated_tasks: int


class Aggregate(TypedDict):
    """The aggregate of a run (``AGGREGATE_SCHEMA``), as written into the JSON report."""

    schema: int
    seed: int
    resamples: int
    margin: float
    records: int
    models: dict[str, ModelAggregate]


# --- what a record's grades mean -------------------------------------------------------------------
# What a record's grades mean: each sample's outcome and whether it is a verdict on the output.
#
# Domain facts the statistics, the reports and the exposure analysis all read (standard library and
# the shared vocabulary only): the outcome of a grade and of a record (the first failing grade
# decides), the outcomes that are no verdict on the output (a model error, a reference that is not
# gradeable, a behavior search cut off by its budget, a grader error) and the per-condition outcome counts.

class Outcome(StrEnum):
    """Why a sample failed, or ``pass``: a code (what records store and code compares) with the
    words a reader sees apart (:attr:`label`). In pipeline order."""

    MODEL_ERROR = "model_error"
    NO_MODULE = "no_module"
    CUT_AT_TOKEN_LIMIT = "cut_at_token_limit"
    PARSE_ERROR = "parse_error"
    SEMANTIC_ERROR = "semantic_error"
    CONFIG_ERROR = "config_error"
    TLC_ERROR = "tlc_error"
    VIOLATION = "violation"
    DEADLOCK = "deadlock"
    TIMEOUT = "timeout"
    OUT_OF_MEMORY = "out_of_memory"
    TOO_LARGE = "too_large"
    BEHAVIOR_DIFFERS = "behavior_differs"
    SEARCH_BUDGET_SPENT = "search_budget_spent"
    REFERENCE_NOT_GRADEABLE = "reference_not_gradeable"
    TOOLCHAIN_LIMIT = "toolchain_limit"
    GRADER_ERROR = "grader_error"
    PASS = "pass"

    @property
    def label(self) -> str:
        """The outcome in a reader's words (tables, the terminal summary, the docs)."""
        return OUTCOME_LABELS[self]

    @classmethod
    def read(cls, text: Any) -> Outcome | None:
        """The outcome a record names: its code, or its label (records written before the codes)."""
        if not isinstance(text, str):
            return None
        try:
            return cls(text)
        except ValueError:
            return _BY_LABEL.get(text)


OUTCOME_LABELS: dict[Outcome, str] = {
    Outcome.MODEL_ERROR: "model error", Outcome.NO_MODULE: "no module found",
    Outcome.CUT_AT_TOKEN_LIMIT: "cut at token limit", Outcome.PARSE_ERROR: "parse error",
    Outcome.SEMANTIC_ERROR: "semantic error", Outcome.CONFIG_ERROR: "TLC config error", Outcome.TLC_ERROR: "TLC error",
    Outcome.VIOLATION: "invariant or property violation", Outcome.DEADLOCK: "deadlock", Outcome.TIMEOUT: "timeout",
    Outcome.OUT_OF_MEMORY: "out of memory", Outcome.TOO_LARGE: "too large",
    Outcome.BEHAVIOR_DIFFERS: "behavior differs", Outcome.SEARCH_BUDGET_SPENT: "search budget spent",
    Outcome.REFERENCE_NOT_GRADEABLE: "reference not gradeable", Outcome.TOOLCHAIN_LIMIT: "toolchain limit",
    Outcome.GRADER_ERROR: "grader error", Outcome.PASS: "pass",
}
_BY_LABEL = {label: outcome for outcome, label in OUTCOME_LABELS.items()}

#: Every outcome, in pipeline order.
OUTCOMES: tuple[Outcome, ...] = tuple(Outcome)

#: Outcomes that are no verdict on the model's output: the model call failed, the reference cannot be
#: graded, the configured tla2tools.jar predates the task's cfg, the behavior search ran out of its
#: whole-search budget (the grader's limit ended it, and a mapping not yet tried might have passed), or
#: the grader or its machine failed. Rates leave them out (they never count against a model).
NOT_VERDICTS = frozenset({Outcome.MODEL_ERROR, Outcome.REFERENCE_NOT_GRADEABLE, Outcome.TOOLCHAIN_LIMIT,
                          Outcome.SEARCH_BUDGET_SPENT, Outcome.GRADER_ERROR})

_TLC_OUTCOMES = {
    "config_error": Outcome.CONFIG_ERROR, "parse_error": Outcome.CONFIG_ERROR, "semantic_error": Outcome.CONFIG_ERROR,
    "invariant_violation": Outcome.VIOLATION, "property_violation": Outcome.VIOLATION,
    "assumption_failure": Outcome.VIOLATION, "deadlock": Outcome.DEADLOCK, "timeout": Outcome.TIMEOUT,
    "out_of_memory": Outcome.OUT_OF_MEMORY, "too_large": Outcome.TOO_LARGE,
    "stopped_early": Outcome.TLC_ERROR, "crash": Outcome.TLC_ERROR,
}


def grade_outcome(grade: str, result: Mapping[str, Any]) -> Outcome:
    """The outcome one grade's result stands for (``pass`` when it passed)."""
    if result.get("passed"):
        return Outcome.PASS
    details = result.get("details") or {}
    stage = details.get("stage")
    # Failures that are not the output's: a reference that fails against itself, a grader crash or
    # a broken environment. Counted apart, so they never read as the model's mistakes.
    if details.get("side") == Side.REFERENCE:
        return Outcome.REFERENCE_NOT_GRADEABLE
    if details.get("side") == Side.GRADER and stage == Stage.TOOLCHAIN:
        return Outcome.TOOLCHAIN_LIMIT  # the configured tla2tools.jar predates a keyword of the task's cfg
    if details.get("side") == Side.GRADER and stage == Stage.ERROR:
        return Outcome.GRADER_ERROR
    if details.get("side") == Side.GRADER and details.get("search_budget_spent"):
        return Outcome.SEARCH_BUDGET_SPENT  # never "behavior differs": the budget, not the output, ended the search
    if stage in (Stage.EXTRACT, Stage.STAGE):
        return Outcome.NO_MODULE
    if stage == Stage.SANY:
        kinds = {error.get("kind") for error in details.get("errors") or []} | set(details.get("sany_error_kinds") or [])
        return Outcome.SEMANTIC_ERROR if kinds == {"semantic"} else Outcome.PARSE_ERROR
    if stage == Stage.CFG or stage == Stage.SPEC:
        return Outcome.CONFIG_ERROR
    if stage == Stage.TLC and details.get("tlc_status") in _TLC_OUTCOMES and grade != "behavior":
        return _TLC_OUTCOMES[details["tlc_status"]]
    return Outcome.BEHAVIOR_DIFFERS if grade == "behavior" else Outcome.TLC_ERROR


def record_outcome(record: Mapping[str, Any]) -> Outcome:
    """The outcome of a record: its first failing grade's (parse, then name, then behavior), else pass.

    An output that does not parse because generation stopped at the token limit before the module's
    closing ``====`` is ``cut at token limit`` (appendix N's truncation), not a parse error.
    """
    if (record.get("generation") or {}).get("error"):
        return Outcome.MODEL_ERROR
    grades = record.get("grades") or {}
    for grade in GRADES:
        if grade in grades and not grades[grade].get("passed") and not grades[grade].get("not_applicable"):
            outcome = grade_outcome(grade, grades[grade])
            if outcome in (Outcome.PARSE_ERROR, Outcome.NO_MODULE) and (record.get("generation") or {}).get("truncated"):
                return Outcome.CUT_AT_TOKEN_LIMIT
            return outcome
    return Outcome.PASS


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


def outcome_counts(records: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, dict[Outcome, int]]]:
    """``{model: {condition: {outcome: count}}}`` with outcomes in pipeline order (zeros left out)."""
    counts: dict[str, dict[str, Counter[Outcome]]] = {}
    for record in records:
        by_condition = counts.setdefault(str(record.get("model")), {})
        by_condition.setdefault(str(record.get("condition")), Counter())[record_outcome(record)] += 1
    def order(condition: str) -> int:  # original, random, meaningful: as every other table
        return CONDITIONS.index(condition) if condition in CONDITIONS else len(CONDITIONS)

    return {model: {condition: {o: conditions[condition][o] for o in OUTCOMES if conditions[condition][o]}
                    for condition in sorted(conditions, key=order)}
            for model, conditions in counts.items()}
