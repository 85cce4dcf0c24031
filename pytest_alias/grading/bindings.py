"""The values a reference's cfg binds constants to through its own definitions (``Node <- N1``).

An MC-style reference module defines the model (``N1 == {"a", "b", "c"}``) and its cfg binds a
constant to it (``Node <- N1``). Run on an output G, that line would resolve ``N1`` in G: an output
that defines a smaller ``N1`` (or none) would be checked on another model, or fail for a name the
description never states. So R's definitions are evaluated once in R (one TLC run whose ASSUME
prints them, cached like every run of the same reference) and G gets the values themselves.

A model value no constant is bound to (``Procs = {p1, p2}``) is written through a constant of the
wrapper module that the cfg binds to it (``<prefix>MV_p1 = p1``): the same model value, whatever
function or record holds it. An operator constant bound to an operator (``Op <- MCOp``, with
``MCOp(a, b) == a + b``) has no value to print: G's constant is bound to a wrapper definition that
applies R's operator through an INSTANCE of R (``<prefix>Bind_Op(x, y) == Ref!MCOp(x, y)``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping, cast

from ..tasks.model import Condition
from ..tla.cfg import Cfg, ConstantEntry, ConstantsSection, render_cfg
from ..tla.cfg import CfgModelValue
from ..tla.runner import TlaTools
from ..tla.specfiles import IDENTIFIER, SpecFiles
from ..tla.values import (Bool, Function, ModelValue, format_value, make_function, model_value_names, parse_value,
                          sort_key)
from .mapping import Declared, constant_arities, extended_syntaxes

_TAG = "AliasEvalBindings"


@dataclass(frozen=True)
class Bindings:
    """R's constant → the TLA+ text of the value R's cfg binds it to; ``needs_tlc`` when a value is
    written with TLC's ``:>``/``@@``; ``skipped``: constants left bound by name, with why.

    A value may hold model values (``MCNode == {n1, n2}`` with ``n1 = n1`` in the cfg): no TLA+
    expression names a model value, but the constant the cfg binds to it does. ``model_values``
    maps each such model value to that constant of R; :meth:`definitions` writes G's constant
    (under the mapping) in its place, so G runs on the very model R's cfg describes."""

    values: Mapping[str, str] = field(default_factory=dict)
    needs_tlc: bool = False
    skipped: Mapping[str, str] = field(default_factory=dict)
    model_values: Mapping[str, str] = field(default_factory=dict)
    #: R's constant → a cfg literal of its value (``{n1, n2}``), for a value holding a model value no
    #: constant is bound to: the cfg itself names model values, so G's model gets ``C = {n1, n2}``.
    literals: Mapping[str, str] = field(default_factory=dict)
    #: Model values no constant is bound to, held in a value no cfg literal writes (a function, a
    #: record): the wrapper declares a constant for each (:func:`fresh_name`) and the cfg binds it.
    fresh: tuple[str, ...] = ()
    #: R's operator constant → (the operator of R its cfg binds it to, its arity).
    operators: Mapping[str, tuple[str, int]] = field(default_factory=dict)

    def definitions(self, prefix: str, constants: Mapping[str, str] | None = None) -> list[str]:
        """The wrapper definitions that stand for the values; ``constants`` maps R's constants to
        G's (the names that stand for the model values in G's model). The wrapper must declare the
        constants of :attr:`fresh` first (:func:`model_value_declaration`)."""
        names = {m: (constants or {}).get(c, c) for m, c in self.model_values.items()}
        names.update((m, fresh_name(prefix, m)) for m in self.fresh)
        return [f"{bound_name(prefix, c)} == {_with_names(text, names)}" for c, text in self.values.items()]

    def operator_definitions(self, prefix: str, instance: str) -> list[str]:
        """The wrapper definitions that apply R's bound operators through ``instance`` (an INSTANCE of
        R defined before them): ``<prefix>Bind_Op(<prefix>A1, <prefix>A2) == instance!MCOp(...)``."""
        lines = []
        for constant, (operator, arity) in self.operators.items():
            params = ", ".join(f"{prefix}A{i}" for i in range(1, arity + 1))
            lines.append(f"{bound_name(prefix, constant)}({params}) == {instance}!{operator}({params})")
        return lines

    def evidence(self) -> dict[str, Any] | None:
        """What a grade's details record of the bindings (None: there are none)."""
        if not (self.values or self.skipped or self.literals or self.operators):
            return None
        found: dict[str, Any] = {"values": {**self.values, **self.literals}, "skipped": dict(self.skipped)}
        if self.operators:
            found["operators"] = {c: op for c, (op, _) in self.operators.items()}
        if self.fresh:
            found["model_values"] = list(self.fresh)
        return found


def bound_name(prefix: str, constant: str) -> str:
    """The wrapper definition that holds the value of R's ``constant``."""
    return f"{prefix}Bind_{constant}"


def fresh_name(prefix: str, model_value: str) -> str:
    """The wrapper constant that the cfg binds to ``model_value`` (see :attr:`Bindings.fresh`)."""
    return f"{prefix}MV_{model_value}"


def fresh_names(prefix: str, model_values: tuple[str, ...]) -> dict[str, str]:
    """Each model value → the wrapper constant that stands for it."""
    return {m: fresh_name(prefix, m) for m in model_values}


def model_value_declaration(prefix: str, model_values: tuple[str, ...]) -> list[str]:
    """The wrapper's declaration of a constant per model value (none when there are none)."""
    return [f"CONSTANTS {', '.join(fresh_names(prefix, model_values).values())}"] if model_values else []


def with_model_values(cfg: Cfg, prefix: str, model_values: tuple[str, ...]) -> Cfg:
    """``cfg`` binding each wrapper constant of :func:`model_value_declaration` to its model value
    (``<prefix>MV_p1 = p1``): a model value is the same whichever constant the cfg binds to it, so the
    wrapper's expressions name the very values R's model holds."""
    if not model_values:
        return cfg
    entries = tuple(ConstantEntry(name, "=", m) for m, name in fresh_names(prefix, model_values).items())
    at = next((i for i, s in enumerate(cfg.sections) if isinstance(s, ConstantsSection)), None)
    if at is None:
        return Cfg((ConstantsSection(entries), *cfg.sections))
    section = cfg.sections[at]
    assert isinstance(section, ConstantsSection)
    sections = list(cfg.sections)
    sections[at] = ConstantsSection(section.entries + entries, section.keyword)
    return Cfg(tuple(sections))


def _bound_entries(cfg: Cfg, ref_decl: Declared) -> dict[str, str]:
    """R's constants that the cfg binds to a definition by name (``C <- D``, no ``[Mod]``) → D."""
    return {e.name: e.value for section in cfg.sections if isinstance(section, ConstantsSection)
            for e in section.entries
            if e.op == "<-" and e.module is None and e.name in ref_decl.constants}


def definition_bindings(cfg: Cfg, condition: Condition, ref_decl: Declared) -> dict[str, str]:
    """R's constants that the cfg binds to a parameterless definition of R's modules (``C <- D``)."""
    syntaxes = extended_syntaxes(condition.module_map, condition.main)
    defined = {d.name for s in syntaxes for d in s.definitions if d.scope == "module" and not d.parameters}
    return {c: d for c, d in _bound_entries(cfg, ref_decl).items() if d in defined}


def operator_bindings(cfg: Cfg, condition: Condition, ref_decl: Declared) -> dict[str, tuple[str, int]]:
    """R's operator constants that the cfg binds to an operator of R's modules with as many plain
    parameters (``Op <- MCOp``, ``MCOp(a, b) == ...``) → (that operator, the arity). A LOCAL operator,
    which an INSTANCE cannot reach, or an operator symbol (no wrapper name) is left bound by name."""
    arities = constant_arities(condition.module_map, condition.main)
    operators: dict[str, int] = {}
    for syntax in reversed(extended_syntaxes(condition.module_map, condition.main)):  # main's own win
        for d in syntax.definitions:
            if (d.scope == "module" and d.kind == "operator" and d.parameters and not d.is_local
                    and all(IDENTIFIER.fullmatch(p) for p in d.parameters)):
                operators[d.name] = len(d.parameters)
    return {c: (d, arities[c]) for c, d in _bound_entries(cfg, ref_decl).items()
            if arities.get(c, 0) > 0 and operators.get(d) == arities[c] and IDENTIFIER.fullmatch(c)}


def reference_bindings(tools: TlaTools, condition: Condition, cfg: Cfg, ref_decl: Declared,
                       timeout: float) -> Bindings:
    """Evaluate, in R, the definitions R's cfg binds constants to (empty when it binds none)."""
    operators = operator_bindings(cfg, condition, ref_decl)
    wanted = definition_bindings(cfg, condition, ref_decl)
    if not wanted or not ref_decl.variables:
        return Bindings(operators=operators)
    first = ref_decl.variables[0]
    names = list(wanted)
    module = f"{_TAG}_{hashlib.sha256(repr(sorted(wanted.items())).encode()).hexdigest()[:10]}"
    text = (f"---- MODULE {module} ----\nEXTENDS {condition.main}, TLC\n"
            f"{_TAG}Init == FALSE /\\ {first} = {first}\n{_TAG}Next == FALSE /\\ {first}' = {first}\n"
            f"ASSUME PrintT(<<\"{_TAG}\", <<{', '.join(wanted[n] for n in names)}>>>>)\n====\n")
    constants = Cfg(tuple(s for s in cfg.sections if isinstance(s, ConstantsSection)))
    spec = SpecFiles(module, {**condition.module_map, module: text},
                     render_cfg(constants.with_init_next(f"{_TAG}Init", f"{_TAG}Next")))
    result = tools.tlc(spec, timeout=timeout, deadlock=False)
    printed = next((line for line in result.output.splitlines() if line.startswith(f'<<"{_TAG}"')), None)
    if not result.ok or printed is None:
        why = f"the reference's definitions could not be evaluated ({result.status})"
        return Bindings(skipped={n: why for n in names}, operators=operators)
    try:
        parsed = parse_value(printed)
    except ValueError:
        return Bindings(skipped={n: "TLC printed a value this grader cannot read" for n in names}, operators=operators)
    values: dict[str, str] = {}
    skipped: dict[str, str] = {}
    needs_tlc = False
    named = model_value_constants(cfg, ref_decl)
    used: dict[str, str] = {}
    literals: dict[str, str] = {}
    fresh: dict[str, None] = {}
    for name, value in zip(names, cast(tuple, parsed)[1]):  # TLC printed <<tag, <<values>>>>
        held = model_value_names(value)
        unnamed = sorted(held - set(named))
        literal = cfg_literal(value) if unnamed else None
        if literal is not None:  # the cfg names model values itself: G's model gets ``C = {n1, n2}``
            literals[name] = literal
            continue
        # Inside a function or record, each model value no constant names gets a wrapper constant.
        fresh.update((m, None) for m in unnamed)
        used.update((m, named[m]) for m in held if m in named)
        values[name] = format_value(value)
        needs_tlc = needs_tlc or any(isinstance(part, Function) for part in _parts(value))
    return Bindings(values, needs_tlc, skipped, used, literals, tuple(sorted(fresh)), operators)


def model_value_constants(cfg: Cfg, ref_decl: Declared) -> dict[str, str]:
    """Model value → the first of R's declared constants that the cfg binds to it (``n1 = n1``)."""
    found: dict[str, str] = {}
    for entry in cfg.constants:
        if (entry.op == "=" and not entry.params and entry.module is None and entry.name in ref_decl.constants
                and isinstance(entry.parsed, CfgModelValue)):
            found.setdefault(entry.parsed.name, entry.name)
    return found


def cfg_literal(value: Any) -> str | None:
    """``value`` as a cfg literal (numbers, strings, booleans, model values and sets of them), or None."""
    if isinstance(value, Bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, str, ModelValue)):
        return format_value(value)
    if isinstance(value, frozenset):
        parts = [cfg_literal(item) for item in sorted(value, key=sort_key)]
        return None if None in parts else "{" + ", ".join(parts) + "}"  # type: ignore[arg-type]
    return None


def _with_names(text: str, names: Mapping[str, str]) -> str:
    """A formatted value with each model value written as the name ``names`` gives it."""
    if not any(model != name for model, name in names.items()):
        return text
    return format_value(_renamed(parse_value(text), names))


def _renamed(value: Any, names: Mapping[str, str]) -> Any:
    """``value`` with each model value replaced by one spelled as ``names`` says (printed as that name)."""
    if isinstance(value, ModelValue):
        return ModelValue(names.get(value.name, value.name))
    if isinstance(value, tuple):
        return tuple(_renamed(item, names) for item in value)
    if isinstance(value, frozenset):
        return frozenset(_renamed(item, names) for item in value)
    if isinstance(value, Mapping):
        return make_function((_renamed(key, names), _renamed(item, names)) for key, item in value.items())
    return value


def model_strings(cfg: Cfg, bindings: Bindings) -> frozenset[str]:
    """The strings in the model's constant values (cfg literals and bound values): both specs are
    given them, so a value encoding must leave them alone."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, str):
            found.add(value)
        for item in getattr(value, "elements", ()) or ():
            walk(item)

    for section in cfg.sections:
        if isinstance(section, ConstantsSection):
            for entry in section.entries:
                if entry.op == "=" and entry.parsed is not None:
                    walk(entry.parsed)
    for text in (*bindings.values.values(), *bindings.literals.values()):
        found.update(part for part in _parts(parse_value(text)) if isinstance(part, str))
    return frozenset(found)


def bound_cfg(cfg: Cfg, bindings: Bindings, prefix: str) -> Cfg:
    """``cfg`` with each bound constant's ``C <- D`` replaced by ``C <- <prefix>Bind_C`` (or by
    ``C = literal`` for a value only a cfg can write). The wrapper constants of
    :attr:`Bindings.fresh` are the wrapper's to bind (:func:`with_model_values`)."""
    if not bindings.values and not bindings.literals and not bindings.operators:
        return cfg

    def entry(e: ConstantEntry) -> ConstantEntry:
        if e.op == "<-" and e.module is None and (e.name in bindings.values or e.name in bindings.operators):
            return ConstantEntry(e.name, "<-", bound_name(prefix, e.name))
        if e.op == "<-" and e.module is None and e.name in bindings.literals:
            return ConstantEntry(e.name, "=", bindings.literals[e.name])
        return e

    return Cfg(tuple(ConstantsSection(tuple(entry(e) for e in s.entries), s.keyword)
                     if isinstance(s, ConstantsSection) else s for s in cfg.sections))


def _parts(value: Any) -> Iterator[Any]:
    """``value`` and every value nested in it (set elements, tuple items, record fields, function
    domain and range)."""
    yield value
    if isinstance(value, (frozenset, tuple)):
        for item in value:
            yield from _parts(item)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from _parts(key)
            yield from _parts(item)
