"""Consistent identifier renaming (CIR) of a spec: its modules and its cfg, through one name map.

What is renamed: every author-defined module name, constant, variable and operator — module-level,
LOCAL, RECURSIVE and LET-defined operators, function definitions, named instances and theorem
names — in every module of the spec, through ``M!Op`` paths, ``INSTANCE … WITH x <- e`` and the
subscripts of ``[A]_v``, ``<<A>>_v``, ``WF_v``/``SF_v``; and the same names in the cfg.

What stays: keywords; standard modules and the operators of those the spec imports; bound
variables and operator parameters (they are local to one formula, never named by a cfg or a
description, and renaming them would inflate the count of renamed identifiers without testing
recall); record fields (they are data: TLC prints them in states); string literals, comments and
so the PlusCal algorithm inside its comment; cfg model values.

Spans come from the tree-sitter syntax (``pytest_alias.tla.syntax``), so text is replaced exactly
where an identifier occurs and nowhere else.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping

from ..tla.cfg import parse_cfg, render_cfg
from ..tla.syntax import STANDARD_OPERATORS, TLA_KEYWORDS, ModuleSyntax, Occurrence, is_identifier, parse_module
from .names import random_names

#: Kinds reported for each renamed identifier (used by the identifier-kind analysis).
IdentifierKinds = dict[str, str]


@dataclass(frozen=True)
class SpecIdentifiers:
    """The identifiers of a spec, split into those CIR renames and those that stay."""

    author: dict[str, str]  # name → what it is: module, constant, variable, operator, function, instance, theorem
    other: frozenset[str]  # every other identifier in the modules and cfg (bound names, fields, model values…)


@dataclass(frozen=True)
class Renaming:
    """A renamed spec: module texts by new name (main first), the renamed cfg, and the map applied."""

    main: str
    modules: dict[str, str]
    cfg: str | None
    name_map: dict[str, str]
    kept: tuple[str, ...] = ()
    kinds: dict[str, str] = field(default_factory=dict)


def _syntaxes(modules: Mapping[str, str]) -> dict[str, ModuleSyntax]:
    return {name: parse_module(text, name=name) for name, text in modules.items()}


def collect_identifiers(modules: Mapping[str, str], cfg_text: str | None = None) -> SpecIdentifiers:
    """Which identifiers of a spec are author-defined (renamed) and which stay."""
    syntaxes = _syntaxes(modules)
    imported_standard: set[str] = set()
    for syntax in syntaxes.values():
        for imported in (*syntax.extends, *(instance.module for instance in syntax.instances)):
            imported_standard |= STANDARD_OPERATORS.get(imported, frozenset())
    protected = imported_standard | TLA_KEYWORDS
    author: dict[str, str] = {}
    for name in modules:
        author[name] = "module"
    for syntax in syntaxes.values():
        for declaration in (*syntax.constants, *syntax.variables):
            if is_identifier(declaration.name):
                author.setdefault(declaration.name, declaration.kind)
        for definition in syntax.definitions:
            if not definition.is_symbolic and definition.scope != "pluscal":
                author.setdefault(definition.name, definition.kind)
    for name in list(author):
        if name in protected and author[name] != "module":
            del author[name]
    other = {o.text for syntax in syntaxes.values() for o in syntax.occurrences} - set(author)
    if cfg_text is not None:
        cfg = parse_cfg(cfg_text)
        other |= {value for value in cfg.model_values()}
        other |= set(cfg.referenced_names()) - set(author)
    return SpecIdentifiers(author, frozenset(other))


def _renameable(occurrence: Occurrence) -> bool:
    """Whether this occurrence names an author identifier (not a bound name, field, label or comment)."""
    if occurrence.in_pluscal or occurrence.role in ("field", "label", "bind"):
        return False
    if occurrence.role == "reference" and occurrence.target is not None and occurrence.target.role == "bind":
        return False
    return True


def rename_module_text(text: str, name_map: Mapping[str, str], syntax: ModuleSyntax | None = None) -> str:
    """``text`` with every author-identifier occurrence in ``name_map`` replaced."""
    syntax = syntax or parse_module(text)
    data = text.encode("utf-8")
    edits = sorted(
        (o.span, name_map[o.text]) for o in syntax.occurrences if o.text in name_map and _renameable(o)
    )
    pieces: list[bytes] = []
    position = 0
    for (start, end), new in edits:
        if start < position:  # nested-module occurrences are listed twice; apply each span once
            continue
        pieces += [data[position:start], new.encode("utf-8")]
        position = end
    pieces.append(data[position:])
    return b"".join(pieces).decode("utf-8")


def identifier_spans(text: str, names: Iterable[str], syntax: ModuleSyntax | None = None) -> list[tuple[int, int]]:
    """Half-open character spans of every occurrence in ``text`` that renaming with a map over
    ``names`` would replace (the same occurrences ``rename_module_text`` edits), sorted.

    In an original module pass the map's old names; in its renamed copy, the new ones.
    """
    wanted = set(names)
    syntax = syntax or parse_module(text)
    data = text.encode("utf-8")
    spans: set[tuple[int, int]] = set()
    for occurrence in syntax.occurrences:
        if occurrence.text in wanted and _renameable(occurrence):
            start, end = occurrence.span  # byte offsets into the UTF-8 text
            char_start = len(data[:start].decode("utf-8", errors="ignore"))
            spans.add((char_start, char_start + len(data[start:end].decode("utf-8", errors="ignore"))))
    return sorted(spans)


def rename_cfg_text(cfg_text: str, name_map: Mapping[str, str]) -> str:
    """The cfg with its names (not its model values) renamed."""
    return render_cfg(parse_cfg(cfg_text).with_names(name_map, model_values=False, modules=True))


def apply_renaming(modules: Mapping[str, str], cfg_text: str | None, name_map: Mapping[str, str],
                   kept: tuple[str, ...] = ()) -> Renaming:
    """Rename every module and the cfg with ``name_map`` (old → new)."""
    identifiers = collect_identifiers(modules, cfg_text)
    applied = {old: new for old, new in name_map.items() if old in identifiers.author and old != new}
    syntaxes = _syntaxes(modules)
    renamed = {applied.get(name, name): rename_module_text(text, applied, syntaxes[name]) for name, text in modules.items()}
    main = next(iter(modules))
    cfg = rename_cfg_text(cfg_text, applied) if cfg_text is not None else None
    kinds = {old: identifiers.author[old] for old in applied}
    return Renaming(applied.get(main, main), renamed, cfg, applied, kept, kinds)


def random_renaming(modules: Mapping[str, str], cfg_text: str | None, seed: int) -> Renaming:
    """CIR with random same-length names drawn from ``seed``."""
    identifiers = collect_identifiers(modules, cfg_text)
    name_map, kept = random_names(identifiers.author, seed, identifiers.other)
    return apply_renaming(modules, cfg_text, name_map, tuple(kept))
