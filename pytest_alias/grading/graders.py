"""The table of grades: each grade's name → one function of one signature.

Every grader takes the module extracted from an output, the condition it answers and the grade's
context (:class:`~.context.GradeContext`: tools, limit, mode, rule, budget, shortcuts, what the run
knows about the reference), and returns a :class:`GradeResult`. ``guarded_grade`` (the one entry
point that never crashes) looks graders up here, so a new grade is one function and one table entry.
"""

from __future__ import annotations

from typing import Callable

from ..tasks.model import Condition
from .behavior import behavior_grader
from .context import GradeContext
from .extract import Extraction
from .name_grade import name_grader
from .parse_grade import parse_grader
from .result import GradeResult

Grader = Callable[[Extraction, Condition, GradeContext], GradeResult]


def _parse(extraction: Extraction, condition: Condition, ctx: GradeContext) -> GradeResult:
    return parse_grader(extraction, condition, ctx)


def _name(extraction: Extraction, condition: Condition, ctx: GradeContext) -> GradeResult:
    return name_grader(extraction, condition, ctx)


def _behavior(extraction: Extraction, condition: Condition, ctx: GradeContext) -> GradeResult:
    return behavior_grader(extraction, condition, ctx)


#: Grade name → grader, in pipeline order (``vocabulary.GRADES``).
GRADERS: dict[str, Grader] = {"parse": _parse, "name": _name, "behavior": _behavior}
