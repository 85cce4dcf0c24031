"""The table of grades: each grade's name → one function of one signature.

Every grader takes the module extracted from an output, the condition it answers and the run's
grading settings, and returns a :class:`GradeResult`. ``guarded_grade`` (the one entry point that
never crashes) looks graders up here, so a new grade is one function and one table entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..tasks.model import Condition
from .extract import Extraction
from .result import GradeResult


@dataclass(frozen=True)
class GradeSettings:
    """What a grader needs besides the output and the condition."""

    tools: Any  # a tla.runner.TlaTools
    timeout: float
    mode: str = "paper"  # the behavior grade's procedure
    name_rule: str = "paper"  # the name grade's cfg binding (grading.bind)
    search_budget: float | None = None  # the behavior search's whole budget (None: options.search_budget's default)


Grader = Callable[[Extraction, Condition, GradeSettings], GradeResult]


def _parse(extraction: Extraction, condition: Condition, settings: GradeSettings) -> GradeResult:
    from .parse_grade import grade_parse

    return grade_parse(None, condition, settings.tools, extraction=extraction)


def _name(extraction: Extraction, condition: Condition, settings: GradeSettings) -> GradeResult:
    from .name_grade import grade_name

    return grade_name(None, condition, settings.tools, settings.timeout, extraction=extraction, rule=settings.name_rule)


def _behavior(extraction: Extraction, condition: Condition, settings: GradeSettings) -> GradeResult:
    from .behavior import grade_behavior

    return grade_behavior(None, condition, settings.tools, timeout=settings.timeout, mode=settings.mode,
                          budget=settings.search_budget, extraction=extraction)


#: Grade name → grader, in pipeline order (``vocabulary.GRADES``).
GRADERS: dict[str, Grader] = {"parse": _parse, "name": _name, "behavior": _behavior}
