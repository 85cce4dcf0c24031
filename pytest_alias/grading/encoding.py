"""TLA+ expressions for value encodings: what an INSTANCE substitutes when a variable is encoded.

A :class:`~.graphmatch.Encoding` maps every value an output variable takes to the value the
reference variable takes. The forward check substitutes ``r_var <- Enc(g_var)`` when it instantiates
R; the reverse check substitutes ``g_var <- Dec(r_var)`` when it instantiates G. Both are finite
tables over the values the state graphs showed (every value either run can meet), written as
``IF g THEN 1 ELSE 0`` for a boolean scalar and as a ``CASE`` otherwise. Values are written as plain
TLA+ literals (no TLC module needed); a model value is written as the name the caller gives it (a
constant of the check's wrapper that its cfg binds to that model value). A value with a model value
no name is given for, or with a negative number, cannot be written, and then there is no expression.
"""

from __future__ import annotations

import re
from typing import Iterable, Mapping

from ..tla.values import Bool, Function, ModelValue, RecordValue, Value, format_value, model_value_names, sort_key
from .graphmatch import Encoding

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
#: Values a table may hold before the expression is judged too large for TLC to be worth it.
MAX_TABLE = 2000


def tla_literal(value: Value, bound: str, depth: int = 0, names: Mapping[str, str] | None = None) -> str | None:
    """``value`` as a TLA+ expression using only core syntax; None when it cannot be written.

    ``bound`` is a fresh identifier prefix for the bound variables of function literals; ``names``
    gives the expression that stands for each model value (none: a model value cannot be written).
    """
    names = names or {}
    if isinstance(value, Bool):
        return repr(value)
    if isinstance(value, int):
        # Unary minus needs Integers, which the modules may not extend.
        return str(value) if value >= 0 else None
    if isinstance(value, str):
        return format_value(value)
    if isinstance(value, ModelValue):
        return names.get(value.name)  # only the cfg can name a model value: a constant it binds to it
    if isinstance(value, tuple):
        parts = [tla_literal(v, bound, depth, names) for v in value]
        return None if None in parts else "<<" + ", ".join(parts) + ">>"  # type: ignore[arg-type]
    if isinstance(value, frozenset):
        parts = [tla_literal(v, bound, depth, names) for v in sorted(value, key=sort_key)]
        return None if None in parts else "{" + ", ".join(parts) + "}"  # type: ignore[arg-type]
    if isinstance(value, RecordValue) and all(_IDENT.match(k) for k in value):
        parts = [tla_literal(v, bound, depth, names) for v in value.values()]
        if None in parts:
            return None
        return "[" + ", ".join(f"{k} |-> {p}" for k, p in zip(value, parts)) + "]"
    if isinstance(value, (RecordValue, Function)):
        keys = [tla_literal(k, bound, depth + 1, names) for k in value]
        vals = [tla_literal(v, bound, depth + 1, names) for v in value.values()]
        if None in keys or None in vals:
            return None
        x = f"{bound}{depth}"
        arms = " [] ".join(f"{x} = {k} -> {v}" for k, v in zip(keys, vals))
        return f"[{x} \\in {{{', '.join(keys)}}} |-> (CASE {arms})]"  # type: ignore[arg-type]
    return None


def table_expression(var: str, table: Mapping[Value, Value], bound: str,
                     names: Mapping[str, str] | None = None) -> str | None:
    """An expression over ``var`` equal to ``table[var]`` for every value in the table (model values
    written as ``names`` says, see :func:`tla_literal`).

    None when the table is too big or holds a value that cannot be written as a literal.
    """
    if all(k == v for k, v in table.items()):
        return var
    if len(table) > MAX_TABLE:
        return None
    if set(table) <= {Bool(True), Bool(False)}:
        then = tla_literal(table.get(Bool(True), Bool(True)), bound, names=names)
        other = tla_literal(table.get(Bool(False), Bool(False)), bound, names=names)
        return None if then is None or other is None else f"(IF {var} THEN {then} ELSE {other})"
    arms = []
    for key in sorted(table, key=sort_key):
        k, v = tla_literal(key, bound, names=names), tla_literal(table[key], bound, names=names)
        if k is None or v is None:
            return None
        arms.append(f"{var} = {k} -> {v}")
    return "(CASE " + " [] ".join(arms) + ")"


def encoded_model_values(encodings: Iterable[Encoding]) -> tuple[str, ...]:
    """The model values the tables of ``encodings`` hold (identity tables, written as the variable
    itself, hold none that need a name), sorted."""
    found: set[str] = set()
    for encoding in encodings:
        if not all(k == v for k, v in encoding.table.items()):
            for key, value in encoding.table.items():
                found |= model_value_names(key) | model_value_names(value)
    return tuple(sorted(found))


def forward_expression(encoding: Encoding, bound: str, names: Mapping[str, str] | None = None) -> str | None:
    """What R's variable becomes when R is instantiated over G (``r <- this``)."""
    return table_expression(encoding.gen_var, encoding.table, bound, names)


def reverse_expression(encoding: Encoding, bound: str, names: Mapping[str, str] | None = None) -> str | None:
    """What G's variable becomes when G is instantiated over R (``g <- this``): the inverse table."""
    inverse = {r: g for g, r in encoding.table.items()}
    return table_expression(encoding.ref_var, inverse, bound, names)


def describe(encoding: Encoding) -> str:
    """``pc: "Lbl_1"->"start", ...`` (G's atom, then R's) for reason lines and details."""
    pairs = ", ".join(f"{format_value(g)}->{format_value(r)}" for g, r in encoding.atoms)
    return f"{encoding.gen_var} as {encoding.ref_var}: {pairs}" if pairs else f"{encoding.gen_var} as {encoding.ref_var}"
