"""Point a condition's cfg at an output's names, following the paper's appendix H.

The paper's rule (``rule="paper"``, the default), as appendix H states it:

* ``INIT``, ``NEXT`` and ``SPECIFICATION`` name the output's ``Init``, ``Next`` and ``Spec`` whenever
  the output defines them: the prompt asks for those names, while a renamed cfg names the
  reference's operators by their random names.
* An ``INVARIANT``/``PROPERTY`` entry keeps its name. When the output does not define that name
  and defines exactly one operator other than Init, Next and Spec, the entry names that operator.
* Constants and every other section keep their names.

``rule="refined"`` adds two refinements beyond the paper (a deviation the run names):

* a stand-in operator must fit the section's level (a state predicate for an INVARIANT, a temporal
  formula for a PROPERTY), where the paper would put ``vars == <<x, y>>`` in place of every missing check;
* a cfg's own ``INIT``/``NEXT``/``SPECIFICATION`` name is kept when the output defines it: an output
  that defines ``LiveSpec``, as the cfg says, means ``LiveSpec`` even if it also defines a (fairness-free)
  ``Spec``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..tla.cfg import Cfg, ConstantsSection, NamesSection, Section, parse_cfg, render_cfg
from ..vocabulary import NAME_RULES
from .outnames import OutputNames

_ENTRY_TARGETS = {"INIT": "Init", "NEXT": "Next", "SPECIFICATION": "Spec"}
_CHECKED_KINDS = ("INVARIANT", "PROPERTY")


@dataclass(frozen=True)
class CfgBinding:
    """The cfg TLC runs with, what changed, and the names it needs that the output lacks.

    ``changes`` holds ``(keyword, name in the cfg, name used)``. ``missing`` lists names the bound
    cfg requires (sections and ``<-`` targets) that the output does not define; ``undeclared``
    lists cfg constants the output does not declare (TLC 2.15 ignores those silently).
    """

    text: str
    changes: tuple[tuple[str, str, str], ...] = ()
    missing: tuple[str, ...] = ()
    undeclared: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "cfg": self.text,
            "changes": [{"keyword": k, "cfg_name": old, "used": new} for k, old, new in self.changes],
            "missing": list(self.missing),
            "undeclared_constants": list(self.undeclared),
        }


def _points_at_target(current: str, target: str, names: OutputNames, refined: bool) -> bool:
    """Whether an INIT/NEXT/SPECIFICATION entry naming ``current`` is pointed at the output's ``target``."""
    if target not in names.visible or current == target:
        return False
    # The refinement keeps the cfg's own name where the output defines it (LiveSpec beside a bare Spec).
    return not (refined and current in names.visible)


def _stand_in(name: str, section: NamesSection, names: OutputNames, substitute: str | None,
              refined: bool) -> str | None:
    """The operator that takes the place of entry ``name`` (the one other operator, ``substitute``), or None."""
    if name in names.visible or substitute is None:
        return None
    # The refinement asks the stand-in to be of the section's level; the paper takes any operator.
    return substitute if not refined or names.fits(substitute, section.kind) else None


def _bound_section(section: Section, names: OutputNames, substitute: str | None, refined: bool,
                   used: dict[str, set[str]], changes: list[tuple[str, str, str]]) -> Section:
    if not isinstance(section, NamesSection):
        return section
    target = _ENTRY_TARGETS.get(section.kind)
    if target is not None:
        if _points_at_target(section.names[0], target, names, refined):
            changes.append((section.keyword, section.names[0], target))
            return replace(section, names=(target,))
        return section
    if section.kind not in _CHECKED_KINDS:
        return section
    kept: list[str] = []
    for name in section.names:
        used_instead = _stand_in(name, section, names, substitute, refined)
        if used_instead is not None:
            changes.append((section.keyword, name, used_instead))
            name = used_instead
        # Two missing entries may both fall to the one operator: check it once.
        if name not in used.setdefault(section.kind, set()):
            used[section.kind].add(name)
            kept.append(name)
    return replace(section, names=tuple(kept))


def _lacking(cfg: Cfg, names: OutputNames) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(required names the output lacks, cfg constants it does not declare)."""
    missing: dict[str, None] = {}
    undeclared: dict[str, None] = {}
    for section in cfg.sections:
        if isinstance(section, NamesSection):
            missing.update((n, None) for n in section.names if n not in names.visible)
        elif isinstance(section, ConstantsSection):
            for entry in section.entries:
                if entry.op == "<-" and entry.value not in names.visible:
                    missing[entry.value] = None
                # An instance path (I!N) or an operator symbol is not a plain declaration to look up.
                if entry.name.isidentifier() and entry.name not in names.visible:
                    undeclared[entry.name] = None
    return tuple(missing), tuple(undeclared)


def bind_cfg(cfg_text: str, names: OutputNames, *, rule: str = "paper") -> CfgBinding:
    """Bind ``cfg_text`` to an output with ``names`` under ``rule`` (``paper``: appendix H as written;
    ``refined``: with the level check and the cfg's own entry names kept). Raises ``CfgError`` on a
    bad cfg and ``ValueError`` on an unknown rule."""
    if rule not in NAME_RULES:
        raise ValueError(f"name rule must be one of {', '.join(NAME_RULES)}, not {rule!r}")
    cfg = parse_cfg(cfg_text)
    # A cfg names identifiers only: an output whose one other operator is an infix one (``a - b == …``)
    # has nothing a cfg entry could name.
    substitute = names.operators[0] if len(names.operators) == 1 and names.operators[0].isidentifier() else None
    changes: list[tuple[str, str, str]] = []
    used: dict[str, set[str]] = {}
    refined = rule == "refined"
    bound = Cfg(tuple(_bound_section(s, names, substitute, refined, used, changes) for s in cfg.sections))
    # Keep the author's text when nothing changed: TLC then reads exactly the task's cfg.
    text = render_cfg(bound) if bound != cfg else cfg_text
    missing, undeclared = _lacking(bound, names)
    return CfgBinding(text, tuple(changes), missing, undeclared)
