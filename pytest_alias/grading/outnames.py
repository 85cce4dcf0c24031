"""What names a staged output provides: what the cfg may point at and what the name grade may substitute."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping

from ..tla.specfiles import SpecFiles, strip_comments
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
    #: Each of ``operators``' level as far as its text tells (:func:`definition_level`).
    levels: Mapping[str, str] = field(default_factory=dict)

    def fits(self, name: str, section: str) -> bool:
        """Whether operator ``name`` may stand in for a missing ``section`` entry (appendix H's rule,
        restricted to the right level): a state predicate for an INVARIANT, a temporal formula for a
        PROPERTY; a definition whose level its text does not tell is given the benefit of the doubt."""
        level = self.levels.get(name, "unknown")
        wanted = {"INVARIANT": "predicate", "PROPERTY": "temporal"}.get(section)
        return level == "unknown" or wanted is None or level == wanted


_TEMPORAL = re.compile(r"\[\]|<>|~>|\bWF_|\bSF_|\\EE\b|\\AA\b")
_BOOLEAN = re.compile(r"=|#|\\in\b|\\notin\b|\\subseteq\b|\\subset\b|<|>|/\\|\\/|~|\\A\b|\\E\b|"
                      r"\bTRUE\b|\bFALSE\b|\bENABLED\b|\\neg\b|\\lnot\b|\\land\b|\\lor\b|\\leq\b|\\geq\b")
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_CLOSERS = {"<<": ">>", "{": "}", "[": "]", "(": ")"}


def definition_level(body: str) -> str:
    """``temporal``, ``action``, ``predicate`` (a Boolean state expression), ``value`` (a tuple,
    set, function, record, number or string) or ``unknown``, read from a definition's body text
    (comments already removed). A heuristic: the name grade only uses it to refuse a stand-in."""
    code = _STRING.sub('""', body).strip()
    if _TEMPORAL.search(code):
        return "temporal"
    if "'" in code:
        return "action"
    if re.fullmatch(r'-?\d+|""', code) or any(_enclosed(code, o, c) for o, c in _CLOSERS.items() if o != "("):
        return "value"
    return "predicate" if _BOOLEAN.search(code) else "unknown"


def _enclosed(code: str, opening: str, closing: str) -> bool:
    """Whether ``code`` is one bracketed term: its first ``opening`` is closed at its very end."""
    if not (code.startswith(opening) and code.endswith(closing)):
        return False
    depth, i = 0, 0
    while i < len(code):
        if code.startswith(opening, i):
            depth, i = depth + 1, i + len(opening)
        elif code.startswith(closing, i):
            depth, i = depth - 1, i + len(closing)
            if depth == 0:
                return i == len(code)
        else:
            i += 1
    return False


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
    own = [d for d in syntax.definitions
           if d.scope == "module" and d.kind in ("operator", "function") and d.name not in ENTRY_OPERATORS]
    levels: dict[str, str] = {}
    for d in own:
        start, end = d.extent
        text = strip_comments(syntax.source[start:end].decode("utf-8", "replace"))
        head, sep, body = text.partition("==")
        levels[d.name] = "action" if d.parameters else definition_level(body) if sep else "unknown"
        if d.kind == "function":
            levels[d.name] = "value"
    return OutputNames(defined, defined | _imported(spec, syntax), tuple(d.name for d in own), levels)
