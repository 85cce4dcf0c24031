"""Cases: one task × condition × sample × model, with readable ``-k``-friendly ids.

Cases are built from prepared conditions (``cir.prepared``): deterministic (sorted tasks, seeded
renaming), so every pytest-xdist worker collects the same cases in the same order.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Sequence

from ..cir.prepared import Prepared
from ..errors import UsageProblem
from ..tasks.model import Condition, Task

_ID_UNSAFE = re.compile(r"[^a-z0-9_.]+")


def id_component(text: str) -> str:
    """A lowercase id part of ``[a-z0-9_.]`` (``-`` is the separator between parts)."""
    return _ID_UNSAFE.sub("_", text.lower()).strip("_") or "x"


@dataclass(frozen=True)
class Case:
    """One benchmark item: a condition of a task, a sample index and a model alias."""

    task: Task
    condition: Condition
    sample: int
    model: str
    samples: int = 1
    models: int = 1
    skip_reason: str | None = None  # e.g. the renamed condition did not verify

    @property
    def id(self) -> str:
        """``<task>-<condition>[-<model>]-s<k>``: the model part only when several models run; the
        condition is ``random-r<j>`` for the run's extra renaming seeds (``--alias-rename-seeds``)."""
        parts = [id_component(self.task.id), self.condition.label]
        if self.models > 1:
            parts.append(id_component(self.model))
        parts.append(f"s{self.sample}")
        return "-".join(parts)

    @property
    def key(self) -> tuple[str, str, int, str]:
        """(task, condition label, sample, model): one generation per key, one per renaming seed."""
        return (self.task.id, self.condition.label, self.sample, self.model)


def build_cases(
    prepared: Iterable[tuple[Task, Sequence[Prepared]]], models: Sequence[str], samples: int,
) -> list[Case]:
    """Every case of the prepared conditions, sorted by (task, condition order, model, sample).

    The order is deterministic, so every pytest-xdist worker collects the same cases.
    """
    cases: list[Case] = []
    for task, conditions in sorted(prepared, key=lambda pair: pair[0].id):
        for condition, reason in conditions:
            if condition is None:
                continue
            for model in models:
                for sample in range(samples):
                    cases.append(Case(task, condition, sample, model, samples, len(models), reason))
    duplicates = sorted(case_id for case_id, count in Counter(case.id for case in cases).items() if count > 1)
    if duplicates:
        raise UsageProblem(f"duplicate case ids (rename the tasks): {', '.join(duplicates[:5])}")
    return cases
