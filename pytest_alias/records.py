"""The shapes of a run's data: the record of one graded sample and the aggregate over records.

Both stay plain JSON (a record crosses from an xdist worker to the controller, and both are written
to reports and read back by ``tla-alias report``), so they are ``TypedDict``s: type-checked where
they are built and read, identical to the JSON on disk. Numbers follow one rule: a **rate** is a
fraction in [0, 1] in the data and a percentage wherever a person reads it; a **decrease** (and its
intervals and margin) is in percentage points everywhere.
"""

from __future__ import annotations

from typing import Any, NotRequired, Optional, TypedDict


__all__ = ["Aggregate", "Decrease", "GradeAggregate", "GradeEntry", "ModelAggregate", "Rate", "Record"]


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
    outcome: NotRequired[str]
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
