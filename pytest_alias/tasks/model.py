"""``Task`` and ``Condition``: frozen, hashable, versioned, so caches can key on them."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Mapping

from ..vocabulary import CONDITIONS
from ..vocabulary import condition_label
from ..tla.specfiles import SpecFiles

#: Bump when the meaning of a Task/Condition field changes: cache keys include it.
TASK_SCHEMA_VERSION = 1


def _frozen_items(mapping: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple(mapping.items())


class _ModuleTexts:
    """Accessors shared by ``Task`` and ``Condition``: both hold ``modules`` (main first) and ``cfg``."""

    modules: tuple[tuple[str, str], ...]
    cfg: str | None

    @property
    def main(self) -> str:
        """The main module's name (the first module)."""
        return self.modules[0][0]

    @property
    def module_map(self) -> dict[str, str]:
        """Module name → text, main first."""
        return dict(self.modules)

    def spec(self) -> SpecFiles:
        """The modules and cfg as ``SpecFiles`` (for SANY/TLC)."""
        return SpecFiles(self.main, self.module_map, self.cfg)


@dataclass(frozen=True)
class Task(_ModuleTexts):
    """A benchmark task: what the model sees (``description``) and what grades it (modules and cfg).

    ``modules`` maps module name → text with the main module first; ``cfg`` is None for a task
    without a TLC configuration (such a task can only be parse-graded).
    """

    id: str
    description: str
    modules: tuple[tuple[str, str], ...]
    cfg: str | None = None
    source: str = ""
    license: str = ""
    tags: tuple[str, ...] = ()
    title: str = ""
    expected_distinct: int | None = None
    expected_generated: int | None = None
    extra: tuple[tuple[str, Any], ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.modules, Mapping):
            object.__setattr__(self, "modules", _frozen_items(self.modules))
        object.__setattr__(self, "tags", tuple(self.tags))
        if not self.modules:
            raise ValueError(f"task {self.id}: no modules")

    def original(self) -> Condition:
        """The original condition: the task as written, identity name map."""
        return Condition(self.id, "original", self.description, self.modules, self.cfg, ())

    @property
    def version(self) -> str:
        """A content hash: changes whenever anything graded or shown to a model changes."""
        return _digest(TASK_SCHEMA_VERSION, self.id, self.description, self.modules, self.cfg)


@dataclass(frozen=True)
class Condition(_ModuleTexts):
    """One condition of a task (original, random or meaningful names): its own texts and name map."""

    task_id: str
    kind: str
    description: str
    modules: tuple[tuple[str, str], ...]
    cfg: str | None
    name_map: tuple[tuple[str, str], ...]  # old name → new name; empty for the original
    seed: int | None = None
    #: Which of the run's renaming seeds built it (``--alias-rename-seeds``): 0 is the run's own seed.
    #: Not part of ``version`` (the seed itself is): the same renaming is the same condition.
    rename_seed: int = 0

    def __post_init__(self) -> None:
        if self.kind not in CONDITIONS:
            raise ValueError(f"condition kind must be one of {', '.join(CONDITIONS)}, not {self.kind!r}")
        if isinstance(self.modules, Mapping):
            object.__setattr__(self, "modules", _frozen_items(self.modules))
        if isinstance(self.name_map, Mapping):
            object.__setattr__(self, "name_map", _frozen_items(self.name_map))

    @property
    def names(self) -> dict[str, str]:
        """The name map as a dict (old → new)."""
        return dict(self.name_map)

    @property
    def label(self) -> str:
        """The condition as item ids and generation keys name it (:func:`condition_label`)."""
        return condition_label(self.kind, self.rename_seed)

    @property
    def version(self) -> str:
        return _digest(TASK_SCHEMA_VERSION, self.task_id, self.kind, self.description, self.modules, self.cfg,
                       self.name_map, self.seed)

    def to_dict(self) -> dict[str, Any]:
        return {"task": self.task_id, "condition": self.kind, "description": self.description,
                "modules": dict(self.modules), "cfg": self.cfg, "map": dict(self.name_map), "seed": self.seed,
                **({"rename_seed": self.rename_seed} if self.rename_seed else {})}  # today's shape for seed 0


def _digest(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode()).hexdigest()[:16]
