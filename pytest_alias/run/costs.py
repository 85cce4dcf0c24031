"""What each item is expected to cost, so that the scheduler sends the long poles first.

Only the order of work depends on it, never a verdict. An item grades one output: SANY, TLC with the
reference's cfg (the name grade), then the behavior search, whose checks explore the reference's and
the output's state spaces; the first item of a task whose self-check is not stored also makes it.
The best predictor known before grading is how long the reference's own TLC check took when its
condition was verified (cached then); without it, the reference's distinct states where the suite
records them (a tlaplus/Examples manifest, a TLA+-Bench release); an output whose every grade the
grade memo holds costs nothing.
The weights are rough multiples of that check (see ``benchmarks/RESULTS.md``, "Long poles first").
"""

from __future__ import annotations

from typing import Any, Sequence

from ..grading.extract import extract_module
from ..grading.memo import GradeMemo, memo_key
from ..tla.launcher import seconds_for_states

#: Multiples of the reference's own check time that each grade of an output costs.
GRADE_WEIGHT = {"parse": 0.0, "name": 1.0, "behavior": 2.0}
#: The self-check grades the reference against itself: a forward and a reverse check, and their probes.
SELF_CHECK_WEIGHT = 3.0
#: SANY and the grader's own work, whatever the reference.
BASE_SECONDS = 0.5
#: When the reference's check time is not cached: assume a small spec.
UNKNOWN_REFERENCE_SECONDS = 1.0


def reference_seconds(cached_s: float | None, expected_distinct: int | None) -> float | None:
    """How long the reference's own check runs: the cached time, else an estimate from its distinct states
    (at the rate the tool server's tier choice assumes, :func:`~..tla.launcher.seconds_for_states`)."""
    if cached_s is not None:
        return cached_s
    if expected_distinct is not None and expected_distinct > 0:
        return BASE_SECONDS + (seconds_for_states(expected_distinct) or 0.0)
    return None


#: A self-check expected to take at least this long is made in a thread beside the items (the
#: controller's), so that it and the grading of the task's outputs run at once, not one after the other.
BACKGROUND_SELF_CHECK_S = 10.0


def in_background(reference_s: float | None) -> bool:
    """Whether a self-check of a reference whose own check took ``reference_s`` is made beside the items."""
    return reference_s is not None and SELF_CHECK_WEIGHT * reference_s >= BACKGROUND_SELF_CHECK_S


def item_cost(reference_s: float | None, grades: Sequence[str], *, makes_self_check: bool,
              graded_before: bool) -> float:
    """The expected seconds of one item (see the module docstring)."""
    reference = UNKNOWN_REFERENCE_SECONDS if reference_s is None else reference_s
    cost = 0.0 if graded_before else BASE_SECONDS + reference * sum(GRADE_WEIGHT.get(g, 1.0) for g in grades)
    return cost + (SELF_CHECK_WEIGHT * reference if makes_self_check else 0.0)


def graded_before(text: str, condition: Any, grades: Sequence[str], ctx: Any) -> bool:
    """Whether the grade memo holds every one of ``grades`` for this output (a repeated sample, a rerun)."""
    tools = ctx.tools
    if not getattr(tools, "use_cache", False):
        return False
    extraction = extract_module(text)
    if not extraction.ok:
        return False
    memo = GradeMemo(tools.cache_dir)
    return all(memo.cache.get(memo_key(extraction, condition, grade, mode=ctx.mode, timeout=ctx.timeout,
                                       toolchain=tools.toolchain.identity, name_rule=ctx.name_rule,
                                       search_budget=ctx.search_budget)) is not None
               for grade in grades)
