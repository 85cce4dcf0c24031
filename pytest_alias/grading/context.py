"""What a grade depends on besides the output and the condition, in one frozen value.

Every grader is a function ``(extraction, condition, ctx) -> GradeResult`` (see :mod:`.graders`):
no module-level state and no ContextVar decides a verdict, so a grade is reproduced from its
arguments. The run layer builds the context once per item from the run's settings (``RunConfig``,
``ALIAS_SHORTCUTS`` included, read once) and from what the run already knows about the reference.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..switches import enabled
from ..tla.runner import default_tools
from ..vocabulary import TLC_TIMEOUT_S


@dataclass(frozen=True)
class GradeContext:
    """The settings of one grade and the facts about its reference that the run established."""

    tools: Any  # a tla.runner.TlaTools: SANY and TLC with the run's toolchain, cache and launcher
    timeout: float = TLC_TIMEOUT_S  # each TLC run's limit, in seconds
    mode: str = "paper"  # the behavior grade's procedure: the paper's search or the extended grader
    name_rule: str = "paper"  # the name grade's cfg binding (see .bind)
    search_budget: float | None = None  # the behavior search's whole budget (None: vocabulary.search_budget's)
    #: The verdict-preserving speed-ups (``grading.shortcuts``) are in force.
    shortcuts: bool = True
    #: The (mode, TLC limit) under which the run's self-check found that this condition's reference
    #: passes its own behavior grade (None: not known). A renamed condition is the original under
    #: other names, verified when it was prepared, so the original's self-check stands for it.
    reference_passed: tuple[str, float] | None = None

    def reference_known_to_pass(self, mode: str, timeout: float | None = None) -> bool:
        """Whether the run's self-check showed the reference passing with ``mode`` (and at ``timeout``
        when given). A shortcut: with the shortcuts off, a grade that needs to know grades the
        reference against itself again."""
        return (self.shortcuts and self.reference_passed is not None and self.reference_passed[0] == mode
                and (timeout is None or self.reference_passed[1] == timeout))

    def with_changes(self, **fields: Any) -> GradeContext:
        return replace(self, **fields)


def grade_context(tools: Any = None, **fields: Any) -> GradeContext:
    """A context for a grade outside a run (the library's convenience functions and tests): the
    default toolchain unless ``tools`` is given, and ``ALIAS_SHORTCUTS`` read now unless set."""
    fields.setdefault("shortcuts", enabled())
    return GradeContext(tools if tools is not None else default_tools(), **fields)
