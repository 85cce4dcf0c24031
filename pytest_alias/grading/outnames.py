"""What names a staged output provides: what the cfg may point at and what the name grade may substitute."""

from __future__ import annotations

from dataclasses import dataclass

from ..tla.specfiles import SpecFiles
from ..tla.syntax import STANDARD_OPERATORS, ModuleSyntax, parse_module

#: Operators the prompt asks for by name; the name grade treats them apart from checked properties.
ENTRY_OPERATORS = ("Init", "Next", "Spec")


@dataclass(frozen=True)
class OutputNames:
    """Names of the graded module.

    ``defined``: what the module itself declares or defines at top level. ``visible``: those plus
    what the modules it EXTENDS (or INSTANCEs without a name) export, so a cfg name defined in a
    task's imported module counts as defined. ``operators``: the module's own top-level operator
    and function definitions other than Init, Next and Spec, in source order.
    """

    defined: frozenset[str]
    visible: frozenset[str]
    operators: tuple[str, ...]


def _definitions(syntax: ModuleSyntax) -> frozenset[str]:
    return frozenset(d.name for d in syntax.definitions if d.scope == "module" and not d.is_local)


def _imported(spec: SpecFiles, syntax: ModuleSyntax) -> frozenset[str]:
    """Names that EXTENDS (transitively) and unnamed INSTANCE bring into ``syntax``'s scope."""
    names: set[str] = set()
    seen: set[str] = set()
    pending: list[tuple[str, bool]] = [(m, True) for m in syntax.extends]
    pending += [(i.module, False) for i in syntax.instances if i.name is None and i.scope == "module"]
    while pending:
        module, extended = pending.pop()
        if module in seen:
            continue
        seen.add(module)
        if module in spec.modules:
            imported = parse_module(spec.modules[module], module)
            # An instance substitutes the module's constants and variables; only definitions come through.
            names |= imported.exported_names if extended else _definitions(imported)
            pending += [(m, extended) for m in imported.extends]
        else:
            names |= STANDARD_OPERATORS.get(module, frozenset())
    return frozenset(names)


def output_names(spec: SpecFiles) -> OutputNames:
    """The names ``spec.main`` (the staged output) provides."""
    syntax = parse_module(spec.modules[spec.main], spec.main)
    defined = syntax.defined_names
    operators = tuple(
        d.name for d in syntax.definitions
        if d.scope == "module" and d.kind in ("operator", "function") and d.name not in ENTRY_OPERATORS
    )
    return OutputNames(defined, defined | _imported(spec, syntax), operators)
