"""Candidate name mappings for the behavior grade: which of G's variables and constants stand for R's.

The paper's search (section 3, appendix H) maps R's variables and constants one-to-one onto G's,
identical names first, then other permutations, at most :data:`PAPER_LIMIT` mappings in all.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Mapping, Sequence

from ..tla.syntax import ModuleSyntax, parse_module

#: How many mappings the paper's search tries at most.
PAPER_LIMIT = 60
# Permutations looked at per kind before ranking: enough for every small spec, bounded for big ones.
_PER_KIND = 5000


@dataclass(frozen=True)
class Declared:
    """The variables and constants a module declares, its EXTENDed (non-standard) modules' included."""

    variables: tuple[str, ...]
    constants: tuple[str, ...]


@dataclass(frozen=True)
class NameMapping:
    """R's name → G's name, for variables and for constants."""

    variables: tuple[tuple[str, str], ...]
    constants: tuple[tuple[str, str], ...]

    @property
    def as_dict(self) -> dict[str, str]:
        """Every pair, variables and constants together."""
        return dict(self.variables + self.constants)

    @property
    def inverse(self) -> dict[str, str]:
        """G's name → R's name."""
        return {g: r for r, g in self.variables + self.constants}

    @property
    def identical(self) -> int:
        """How many names map to themselves."""
        return sum(r == g for r, g in self.variables + self.constants)

    def to_dict(self) -> dict[str, dict[str, str]]:
        return {"variables": dict(self.variables), "constants": dict(self.constants)}

    def describe(self) -> str:
        """``{a->b, c->c}`` for a reason line."""
        pairs = [f"{r}->{g}" for r, g in self.variables + self.constants]
        return "{" + ", ".join(pairs) + "}"


def extended_syntaxes(modules: Mapping[str, str], main: str) -> list[ModuleSyntax]:
    """``main`` then the staged ``modules`` it EXTENDS, transitively, breadth first (standard modules,
    which are not staged, are skipped): the modules whose declarations and definitions ``main`` sees."""
    found: list[ModuleSyntax] = []
    seen: set[str] = set()
    pending = [main]
    while pending:
        name = pending.pop(0)
        if name in seen or name not in modules:
            continue
        seen.add(name)
        syntax = parse_module(modules[name], name)
        found.append(syntax)
        pending.extend(syntax.extends)
    return found


def declared(modules: Mapping[str, str], main: str) -> Declared:
    """What ``main`` declares, following EXTENDS into the other staged ``modules`` (not standard ones)."""
    variables: dict[str, None] = {}
    constants: dict[str, None] = {}
    for syntax in extended_syntaxes(modules, main):
        variables.update((d.name, None) for d in syntax.variables)
        constants.update((d.name, None) for d in syntax.constants)
    return Declared(tuple(variables), tuple(constants))


def constant_arities(modules: Mapping[str, str], main: str) -> dict[str, int]:
    """Each constant ``main`` declares (EXTENDed staged modules included) → its arity (``F(_, _)``: 2)."""
    arities: dict[str, int] = {}
    for syntax in extended_syntaxes(modules, main):
        for constant in syntax.constants:
            arities.setdefault(constant.name, constant.arity)
    return arities


def arity_clash(mapping: NameMapping, ref_arities: Mapping[str, int], gen_arities: Mapping[str, int]) -> bool:
    """Whether ``mapping`` has one of R's constants stand for a constant of G of another arity (an
    operator for a value, or operators of different arities): SANY rejects the substitution, so each
    of the mapping's checks stops before TLC starts (a semantic error)."""
    return any(r in ref_arities and g in gen_arities and ref_arities[r] != gen_arities[g]
               for r, g in mapping.constants)


def ranked_bijections(ref: Sequence[str], gen: Sequence[str]) -> list[tuple[tuple[str, str], ...]]:
    """Bijections ref → gen, those keeping more identical names first (stable otherwise)."""
    # Start from the identity-first arrangement, so ties fall to the closest mapping.
    same = [r for r in ref if r in gen]
    rest = [g for g in gen if g not in same]
    start = [r if r in gen else rest.pop(0) for r in ref]
    perms = itertools.islice(itertools.permutations(start), _PER_KIND)
    pairs = [tuple(zip(ref, p)) for p in perms]
    pairs.sort(key=lambda ps: -sum(r == g for r, g in ps))
    return pairs


def paper_mappings(ref: Declared, gen: Declared, limit: int = PAPER_LIMIT) -> tuple[list[NameMapping], str | None]:
    """The paper's candidates: one-to-one mappings, identical names first, at most ``limit``.

    Returns the mappings and, when there are none, why (the counts differ).
    """
    if len(ref.variables) != len(gen.variables):
        return [], (f"output declares {len(gen.variables)} variable(s), the reference {len(ref.variables)}: "
                    "no one-to-one mapping")
    if len(ref.constants) != len(gen.constants):
        return [], (f"output declares {len(gen.constants)} constant(s), the reference {len(ref.constants)}: "
                    "no one-to-one mapping")
    var_perms = ranked_bijections(ref.variables, gen.variables)[:limit]
    const_perms = ranked_bijections(ref.constants, gen.constants)[:limit]
    combined = [NameMapping(v, c) for v, c in itertools.product(var_perms, const_perms)]
    combined.sort(key=lambda m: -m.identical)
    return combined[:limit], None

