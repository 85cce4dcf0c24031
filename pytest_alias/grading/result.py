"""``GradeResult``: one grade's verdict on one output, with the evidence behind it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..vocabulary import GRADES  # noqa: F401 - the grades this package hands out, re-exported here


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
    details: dict[str, Any] = field(default_factory=dict, hash=False)
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
