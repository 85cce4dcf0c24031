"""Per-task TLC limits that follow the reference (``--alias-timeout-from-reference K``; not the paper's).

The paper gives every TLC run one fixed limit (300 s), so an output that never finishes costs the full
limit on a task whose reference finishes in a second. With K, a task's limit is K times the time its
reference's own TLC check took, at least :data:`MIN_LIMIT` and at most the fixed limit. The reference's
check runs under the fixed limit and is cached by content, so every worker and a later run read the same
time and set the same limit. It can change verdicts (an output slower than K × the reference now fails
on the limit), so every record names its limit and the summary header names the deviation.
"""

from __future__ import annotations

from typing import Any

from ..tasks.model import Task

#: The smallest per-task limit (JVM start-up and a slow moment must not decide a verdict).
MIN_LIMIT = 10.0


def reference_limit(task: Task, tools: Any, *, scale: float, ceiling: float) -> float:
    """The TLC limit for ``task``'s outputs: ``scale`` × its reference's own check time, clamped to
    [:data:`MIN_LIMIT`, ``ceiling``]; the ceiling when the task has no cfg or its reference fails TLC."""
    condition = task.original()
    if condition.cfg is None:
        return ceiling
    result = tools.tlc(condition.spec(), timeout=ceiling)
    if not result.ok:
        return ceiling
    return round(min(ceiling, max(MIN_LIMIT, scale * result.seconds)), 1)
