"""Cases: one task × condition × sample × model, with readable ``-k``-friendly ids.

Building the conditions of a suite is deterministic (sorted tasks, seeded renaming), so every
pytest-xdist worker collects the same cases in the same order.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Sequence

from .cir.conditions import RenamedCondition, meaningful_condition, random_condition
from .tasks.model import CONDITION_KINDS, Condition, Task
from .tla.runner import TlaTools

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
        """``<task>-<condition>[-<model>]-s<k>``: the model part only when several models run."""
        parts = [id_component(self.task.id), self.condition.kind]
        if self.models > 1:
            parts.append(id_component(self.model))
        parts.append(f"s{self.sample}")
        return "-".join(parts)

    @property
    def key(self) -> tuple[str, str, int, str]:
        return (self.task.id, self.condition.kind, self.sample, self.model)


def parse_conditions(value: str) -> list[str]:
    """``original,random`` → ``["original", "random"]``; raises ValueError naming what is allowed."""
    kinds = [part.strip() for part in value.split(",") if part.strip()]
    unknown = [kind for kind in kinds if kind not in CONDITION_KINDS]
    if not kinds or unknown:
        raise ValueError(f"conditions must be a comma-separated subset of {', '.join(CONDITION_KINDS)}; got {value!r}")
    return list(dict.fromkeys(kinds))


def build_conditions(
    task: Task, kinds: Sequence[str], *, seed: int, tools: TlaTools | None, meaningful_maps: dict | None = None,
    verify: bool = True,
) -> list[tuple[Condition | None, str | None]]:
    """The requested conditions of one task, each with a skip reason when it cannot be graded."""
    built: list[tuple[Condition | None, str | None]] = []
    for kind in kinds:
        if kind == "original":
            built.append((task.original(), None))
            continue
        renamed: RenamedCondition
        if kind == "random":
            renamed = random_condition(task, seed, tools=tools, verify=verify)
        else:
            proposed = (meaningful_maps or {}).get(task.id)
            if proposed is None:
                built.append((None, "no meaningful name map for this task"))
                continue
            renamed = meaningful_condition(task, proposed, tools=tools, verify=verify)
        reason = None if renamed.valid else f"renamed copy not verified: {renamed.verification.failure}"  # type: ignore[union-attr]
        built.append((renamed.condition, reason))
    return built


def build_cases(
    tasks: Iterable[Task], kinds: Sequence[str], models: Sequence[str], samples: int, *, seed: int,
    tools: TlaTools | None, meaningful_maps: dict | None = None,
) -> list[Case]:
    """Every case, sorted by (task, condition order, model, sample): deterministic across workers."""
    cases: list[Case] = []
    for task in sorted(tasks, key=lambda t: t.id):
        for condition, reason in build_conditions(task, kinds, seed=seed, tools=tools, meaningful_maps=meaningful_maps):
            if condition is None:
                continue
            for model in models:
                for sample in range(samples):
                    cases.append(Case(task, condition, sample, model, samples, len(models), reason))
    duplicates = sorted(case_id for case_id, count in Counter(case.id for case in cases).items() if count > 1)
    if duplicates:
        raise ValueError(f"duplicate case ids (rename the tasks): {', '.join(duplicates[:5])}")
    return cases
