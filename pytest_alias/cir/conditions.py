"""Build the renamed conditions of a task (random or meaningful names) and verify them."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Iterable, Mapping

from ..vocabulary import MAX_RENAME_SEEDS, TLC_TIMEOUT_S
from ..tasks.model import Condition, Task
from ..tla.launcher import seconds_for_states
from ..tla.runner import TlaTools
from ..tla.specfiles import IDENTIFIER, strip_comments
from .describe import description_rule_names, rename_description
from .names import check_map
from .rename import Renaming, apply_renaming, collect_identifiers, random_renaming
from .verify import Verification, verify_renaming


@dataclass(frozen=True)
class RenamedCondition:
    """A renamed condition with its verification (``condition`` is built even when it fails)."""

    condition: Condition
    verification: Verification | None
    renaming: Renaming

    @property
    def valid(self) -> bool:
        """Verified by SANY and TLC (or not checked, when verification was skipped)."""
        return self.verification is None or self.verification.verified


_STRING_LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def string_values(texts: Iterable[str]) -> frozenset[str]:
    """The string literals written in the specification's modules (comments aside)."""
    return frozenset(m.group(1) for text in texts for m in _STRING_LITERAL.finditer(strip_comments(text)))


def _condition(task: Task, kind: str, renaming: Renaming, seed: int | None) -> Condition:
    # The paper's three-part rule over every module of the task: a provided module's lowercase words and
    # module names stay, like the main module's (describe.description_rule_names).
    cfg_names, module_names = description_rule_names(task)
    description = rename_description(
        task.description, renaming.name_map, cfg_names, module_names,
        kept_strings=string_values(text for _, text in task.modules),
    )
    return Condition(task.id, kind, description, tuple(renaming.modules.items()), renaming.cfg,
                     tuple(sorted(renaming.name_map.items())), seed)


def _verified(task: Task, renaming: Renaming, tools: TlaTools | None, timeout: float) -> Verification:
    # The original's check is the first of the task's: its recorded state count is all there is to go by.
    with TlaTools.expecting(seconds_for_states(task.expected_distinct)):
        return verify_renaming(task.module_map, task.cfg, renaming.modules, renaming.cfg, tools=tools,
                               timeout=timeout)


def rename_seeds(seed: int, count: int) -> list[int]:
    """The run's ``count`` renaming seeds: the run's own ``seed`` first (so a one-seed run is the
    paper's, and a subset of any multi-seed run), then seeds derived from it by hashing, so they are
    the same on every machine and do not collide with the small seeds people pass by hand."""
    if count < 1:
        raise ValueError(f"the number of renaming seeds must be at least 1, not {count}")
    if count > MAX_RENAME_SEEDS:  # each is a renamed copy verified by SANY and TLC: never unbounded
        raise ValueError(f"the number of renaming seeds must be at most {MAX_RENAME_SEEDS} (the limit), not {count:,}")
    derived = (int.from_bytes(hashlib.sha256(f"alias-rename-seed:{seed}:{index}".encode()).digest()[:4], "big")
               for index in range(1, count))
    return [seed, *derived]


def random_condition(task: Task, seed: int, *, tools: TlaTools | None = None, verify: bool = True,
                     timeout: float = TLC_TIMEOUT_S) -> RenamedCondition:
    """The ``random`` condition: every author identifier gets a seeded random name of the same length."""
    renaming = random_renaming(task.module_map, task.cfg, seed)
    verification = _verified(task, renaming, tools, timeout) if verify else None
    return RenamedCondition(_condition(task, "random", renaming, seed), verification, renaming)


def _mapped(task: Task, kind: str, usable: Mapping[str, str], problems: list[str], tools: TlaTools | None,
            verify: bool, timeout: float) -> RenamedCondition:
    """``usable`` applied to ``task`` as condition ``kind``; refused with ``problems`` when there are any,
    else verified by SANY and TLC like a generated renaming."""
    # A new name that is no identifier is among the problems; it is never applied, so a refused map's
    # condition cannot carry a module name such as ``../x`` to whatever writes its files.
    renaming = apply_renaming(task.module_map, task.cfg,
                              {old: new for old, new in usable.items() if isinstance(new, str) and IDENTIFIER.fullmatch(new)})
    condition = _condition(task, kind, renaming, None)
    if problems:
        return RenamedCondition(condition, Verification(False, "map: " + "; ".join(problems[:5]), None, None), renaming)
    verification = _verified(task, renaming, tools, timeout) if verify else None
    return RenamedCondition(condition, verification, renaming)


def meaningful_condition(task: Task, proposed: Mapping[str, str], *, tools: TlaTools | None = None,
                         verify: bool = True, timeout: float = TLC_TIMEOUT_S) -> RenamedCondition:
    """The ``meaningful`` condition from a proposed map (old → new), applied and verified like CIR.

    Names the map proposes for identifiers that are not author-defined are ignored; a map that is not
    a bijection onto fresh identifiers fails verification with the problems listed.
    """
    identifiers = collect_identifiers(task.module_map, task.cfg)
    usable = {old: new for old, new in proposed.items() if old in identifiers.author}
    problems = check_map(usable, identifiers.other | set(identifiers.author) - set(usable))
    return _mapped(task, "meaningful", usable, problems, tools, verify, timeout)


def published_condition(task: Task, name_map: Mapping[str, str] | None, *, tools: TlaTools | None = None,
                        verify: bool = True, timeout: float = TLC_TIMEOUT_S) -> RenamedCondition:
    """The renamed (``random``) condition from a published name map (old → new) instead of the seeded
    generator, so a released test set can be rebuilt exactly.

    Stricter than a proposal of meaningful names, since a map made for another version of the spec
    must not be applied in part: every old name must be an identifier CIR renames in this spec, the
    map must rename something, and the new names must be TLA+ identifiers, pairwise distinct, neither
    keywords nor standard module or operator names, and no identifier that stays in the spec. Then
    SANY and TLC verify the copy exactly as they verify a generated renaming. The paper's generator
    keeps each name's length; a published map need not, and is not refused for it. ``None``: the
    published maps have no entry for this task.
    """
    identifiers = collect_identifiers(task.module_map, task.cfg)
    problems = [f"{old}: not an identifier of this spec that CIR renames" for old in name_map or {}
                if old not in identifiers.author]
    usable = {old: new for old, new in (name_map or {}).items() if old in identifiers.author and old != new}
    if name_map is None:
        problems.append("the rename map has no entry for this task")
    elif not usable and not problems:
        problems.append("the map renames no identifier of this spec")
    problems += check_map(usable, identifiers.other | set(identifiers.author) - set(usable))
    return _mapped(task, "random", usable, problems, tools, verify, timeout)
