"""``GradeResult``: one grade's verdict on one output, with the evidence behind it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypedDict

from ..vocabulary import GRADES, Side, Stage


class Evidence(TypedDict, total=False):
    """What a grade found on its way to the verdict (``GradeResult.details``; plain JSON in records).

    Every grade sets ``stage`` (how far it got) and, when it failed for a reason that is not the
    output's, ``side``; the other keys belong to the stage that wrote them.
    """

    stage: Stage
    side: Side
    mode: str  # the behavior grade's mode
    name_rule: str  # the name grade's cfg binding: paper (appendix H as written) or refined (grading.bind)
    # extraction and staging (every grade)
    module: str | None
    extraction: dict[str, Any]
    staged_modules: list[str]
    staging_notes: list[str]
    staged_as: str
    # SANY
    lenient_ok: bool
    sany_exit_code: int | None
    sany_cached: bool
    errors: list[dict[str, Any]]
    sany_error_kinds: list[str]
    # the name grade's cfg binding (``CfgBinding.to_dict``)
    cfg: str
    changes: list[Any]
    missing: list[str]
    undeclared_constants: list[str]
    # TLC
    tlc_status: str
    violated: str | None
    tlc_message: str | None
    distinct_states: int | None
    tlc_seconds: float
    tlc_cached: bool
    unsupported_keyword: str  # the cfg keyword the configured jar predates (stage "toolchain")
    # the behavior grade: the spec formula, the mapping search and its checks
    spec_formula: str
    mapping: dict[str, Any] | None
    mappings_available: int
    mappings_total: int
    mappings_tried: int
    search_budget_s: float  # the whole search's time budget (the behavior grade)
    search_budget_spent: bool  # the budget cut the search off: no verdict on the output (side grader)
    attempts: list[dict[str, Any]]
    constant_mappings: Any
    derived_constants: Any
    bindings: Any
    variables: Any
    data_variables: Any
    control_labels: Any
    graphs: Any
    fallback: Any
    leniency: list[str]
    leniency_notes: list[str]
    early_stop: dict[str, Any]  # the mappings the search skipped and why (shortcut: early_stop)
    safety_first: dict[str, Any]  # forward checks run on R's safety part only (shortcut: early_stop)
    integrity: str  # why a check TLC passed is no evidence (grading/integrity: no initial state, no behavior)
    graph_filter: dict[str, Any]  # mappings the state graphs showed must fail, skipped (shortcut: graph_filter)
    reused: str  # the verdict was stored for the same module earlier (shortcut: dedupe)
    decided_by: str  # the parse grade's failure decided this grade (shortcut: cascade)
    fairness_unchecked: list[str]  # a fairness TLC cannot evaluate as a property: its safety part was checked
    launches_after_sany: int
    encodings: Any
    output_reason: str | None
    # the machine's limits that ended a check of this failing grade (see .endings): never stored
    machine_limit: list[str]
    # a grader failure
    traceback: str


@dataclass(frozen=True)
class GradeResult:
    """A grade's verdict: ``passed``, a one-line ``reason`` when it failed, and JSON-ready ``details``.

    ``details`` holds what a reader needs to check the verdict (the module graded, SANY's lenient
    verdict, TLC's status, the cfg actually used, missing names...); ``seconds`` is wall time.
    """

    grade: str
    passed: bool
    reason: str | None = None
    # A dict cannot be hashed; leaving it out of the hash keeps the dataclass frozen and hashable.
    details: Evidence = field(default_factory=lambda: Evidence(), hash=False)
    seconds: float = 0.0

    def __post_init__(self) -> None:
        if self.grade not in GRADES:
            raise ValueError(f"grade must be one of {', '.join(GRADES)}, not {self.grade!r}")
        if not self.passed and not self.reason:
            raise ValueError("a failing grade needs a reason")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (a copy: changing it does not change the result)."""
        return {
            "grade": self.grade,
            "passed": self.passed,
            "reason": self.reason,
            "details": dict(self.details),
            "seconds": round(self.seconds, 3),
        }
