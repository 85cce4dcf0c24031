"""Point a condition's cfg at an output's names, following the paper's appendix H.

* ``INIT``, ``NEXT`` and ``SPECIFICATION`` name the output's ``Init``, ``Next`` and ``Spec`` when
  the output defines them and not the cfg's own name: the prompt asks for those names, while a
  renamed cfg names the reference's operators by their random names.
* An ``INVARIANT``/``PROPERTY`` entry keeps its name. When the output does not define that name
  and defines exactly one operator other than Init, Next and Spec, the entry names that operator,
  provided its level fits (a state predicate for an INVARIANT, a temporal formula for a PROPERTY;
  beyond the paper, which would put ``vars == <<x, y>>`` in place of every missing check).
* Constants and every other section keep their names.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..tla.cfg import Cfg, ConstantsSection, NamesSection, Section, parse_cfg, render_cfg
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


def _bound_section(section: Section, names: OutputNames, substitute: str | None,
                   used: dict[str, set[str]], changes: list[tuple[str, str, str]]) -> Section:
    if not isinstance(section, NamesSection):
        return section
    target = _ENTRY_TARGETS.get(section.kind)
    if target is not None:
        # Only when the output lacks the cfg's own name: an output that defines LiveSpec, as the cfg
        # says, means LiveSpec even if it also defines a (fairness-free) Spec.
        current = section.names[0]
        if target in names.visible and current != target and current not in names.visible:
            changes.append((section.keyword, section.names[0], target))
            return replace(section, names=(target,))
        return section
    if section.kind not in _CHECKED_KINDS:
        return section
    kept: list[str] = []
    for name in section.names:
        if name not in names.visible and substitute is not None and names.fits(substitute, section.kind):
            changes.append((section.keyword, name, substitute))
            name = substitute
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


def bind_cfg(cfg_text: str, names: OutputNames) -> CfgBinding:
    """Bind ``cfg_text`` to an output with ``names`` (appendix H). Raises ``CfgError`` on a bad cfg."""
    cfg = parse_cfg(cfg_text)
    substitute = names.operators[0] if len(names.operators) == 1 else None
    changes: list[tuple[str, str, str]] = []
    used: dict[str, set[str]] = {}
    bound = Cfg(tuple(_bound_section(s, names, substitute, used, changes) for s in cfg.sections))
    # Keep the author's text when nothing changed: TLC then reads exactly the task's cfg.
    text = render_cfg(bound) if bound != cfg else cfg_text
    missing, undeclared = _lacking(bound, names)
    return CfgBinding(text, tuple(changes), missing, undeclared)
