"""TLC-printed values as immutable, hashable, totally ordered Python objects.

TLC prints the values in states, counterexamples and ``-dump dot`` labels in
one syntax; this module parses it and prints it back.  The mapping is:

==========================  ==============================================
TLC                         Python
==========================  ==============================================
``3``, ``-2``               ``int``
``"a\\"b"``                 ``str`` (escapes decoded)
``TRUE`` / ``FALSE``        :data:`TRUE` / :data:`FALSE` (:class:`Bool`)
``p1``                      ``ModelValue("p1")``
``{1, 2}``, ``1..3``        ``frozenset``
``<<"a", 1>>``              ``tuple``
``[a |-> 1]``               :class:`RecordValue`
``(p1 :> 1 @@ p2 :> 2)``    :class:`Function`
==========================  ==============================================

Booleans are *not* Python ``bool``: ``True == 1`` and ``hash(True) == hash(1)``
in Python, so ``{TRUE, 1}`` would collapse to one element and a function
``(1 :> "a" @@ TRUE :> "b")`` would lose a key.  :class:`Bool` is a separate
type that never equals an ``int``; Python ``bool`` is rejected wherever a
value is expected.

Every value has exactly one representation, as in TLA+ where records and
sequences *are* functions: a function whose domain is ``1..n`` is a ``tuple``
(the empty function is ``()``), one whose domain is a set of strings is a
:class:`RecordValue`, and only the rest are :class:`Function`.  Build functions
with :func:`make_function` to get this normal form.  So ``==`` on parsed
values is TLA+ equality.

:func:`sort_key` gives a total order across all values, used to print sets
canonically and to order states; it is not TLC's own (internal) order.
"""

from __future__ import annotations

from ..errors import BadInput

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Union

from .specfiles import IDENTIFIER

__all__ = [
    "FALSE",
    "TRUE",
    "Bool",
    "Function",
    "ModelValue",
    "RecordValue",
    "Value",
    "ValueParseError",
    "format_value",
    "make_function",
    "model_value_names",
    "parse_state",
    "parse_value",
    "sort_key",
]


class _Ordered:
    """Comparison operators from :func:`sort_key`, for this module's own classes."""

    __slots__ = ()

    def _cmp(self, other: object) -> tuple[Any, Any] | None:
        try:
            return sort_key(self), sort_key(other)  # type: ignore[arg-type]
        except TypeError:
            return None

    def __lt__(self, other: object) -> bool:
        keys = self._cmp(other)
        return NotImplemented if keys is None else keys[0] < keys[1]

    def __le__(self, other: object) -> bool:
        keys = self._cmp(other)
        return NotImplemented if keys is None else keys[0] <= keys[1]

    def __gt__(self, other: object) -> bool:
        keys = self._cmp(other)
        return NotImplemented if keys is None else keys[0] > keys[1]

    def __ge__(self, other: object) -> bool:
        keys = self._cmp(other)
        return NotImplemented if keys is None else keys[0] >= keys[1]


@dataclass(frozen=True, repr=False, eq=True)
class Bool(_Ordered):
    """A TLA+ boolean; never equal to an ``int`` (unlike Python's ``bool``)."""

    value: bool

    def __post_init__(self) -> None:
        if not isinstance(self.value, bool):
            raise TypeError(f"Bool needs a Python bool, got {self.value!r}")

    def __bool__(self) -> bool:
        return self.value

    def __hash__(self) -> int:
        # A tag keeps the hash apart from hash(1) / hash(0).
        return hash(("tla-bool", self.value))

    def __repr__(self) -> str:
        return "TRUE" if self.value else "FALSE"


TRUE = Bool(True)
FALSE = Bool(False)

_KEYWORDS = frozenset({"TRUE", "FALSE"})


@dataclass(frozen=True, eq=True)
class ModelValue(_Ordered):
    """A TLC model value (a constant that equals only itself), e.g. ``p1``."""

    name: str

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not IDENTIFIER.fullmatch(self.name) or self.name in _KEYWORDS:
            raise ValueError(f"not a model value name: {self.name!r}")

    def __str__(self) -> str:
        return self.name


def _check_value(v: object) -> None:
    """Shallow type check: catches Python ``bool`` and foreign types early."""
    if isinstance(v, bool):
        raise TypeError("Python bool is not a TLA+ value; use TRUE/FALSE")
    if not isinstance(v, (int, str, Bool, ModelValue, tuple, frozenset, RecordValue, Function)):
        raise TypeError(f"not a TLA+ value: {v!r} ({type(v).__name__})")


def _pairs(items: Mapping[Any, Any] | Iterable[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """Key/value pairs from a mapping or pair iterable; conflicting duplicates are an error."""
    pairs = list(items.items()) if isinstance(items, Mapping) else list(items)
    seen: dict[Any, Any] = {}
    for key, val in pairs:
        _check_value(key)
        _check_value(val)
        if key in seen and seen[key] != val:
            raise ValueError(f"key {format_value(key)} maps to two values")
        seen[key] = val
    return list(seen.items())


class _FrozenMap(_Ordered, Mapping[Any, Any]):
    """An immutable mapping with canonically ordered items (shared by RecordValue and Function)."""

    __slots__ = ("_map", "_items", "_hash")

    _map: dict[Any, Any]
    _items: tuple[tuple[Any, Any], ...]
    _hash: int

    def _init(self, pairs: list[tuple[Any, Any]], order: Any) -> None:
        items = tuple(sorted(pairs, key=lambda kv: order(kv[0])))
        object.__setattr__(self, "_items", items)
        object.__setattr__(self, "_map", dict(items))
        object.__setattr__(self, "_hash", hash((type(self).__name__, items)))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __getitem__(self, key: Any) -> Any:
        return self._map[key]

    def __iter__(self) -> Iterator[Any]:
        return (k for k, _ in self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __eq__(self, other: object) -> bool:
        # Same class only: a RecordValue never equals a dict or a Function.
        if type(other) is not type(self):
            return NotImplemented
        return self._hash == other._hash and self._map == other._map

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuild through __init__: the default slot restoring would hit __setattr__.
        return (type(self), (list(self._items),))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({format_value(self)})"  # type: ignore[arg-type]


class RecordValue(_FrozenMap):
    """A TLA+ record: a function from (non-empty) field names to values.

    Any function whose domain is a non-empty set of strings is a record in
    TLA+, so non-identifier fields (``"a b"``) are allowed too; TLC prints
    those in ``:>`` form, and so does :func:`format_value`.
    """

    __slots__ = ()

    def __init__(self, fields: Mapping[str, Value] | Iterable[tuple[str, Value]] = ()) -> None:
        pairs = _pairs(fields)
        if not pairs:
            raise ValueError("a record needs at least one field (the empty function is <<>>)")
        if not all(isinstance(k, str) for k, _ in pairs):
            raise TypeError("record fields must be strings")
        self._init(pairs, lambda k: k)


class Function(_FrozenMap):
    """A TLA+ function that is neither a sequence nor a record.

    The domain must be non-empty, not ``1..n`` and not all strings; use
    :func:`make_function` to build any function in normal form.
    """

    __slots__ = ()

    def __init__(self, mapping: Mapping[Any, Value] | Iterable[tuple[Value, Value]] = ()) -> None:
        pairs = _pairs(mapping)
        keys = [k for k, _ in pairs]
        if not keys or _is_seq_domain(keys) or all(isinstance(k, str) for k in keys):
            raise ValueError("this function is a sequence or record; build it with make_function()")
        self._init(pairs, sort_key)


Value = Union[Bool, int, str, ModelValue, "tuple[Value, ...]", "frozenset[Value]", RecordValue, Function]
"""Any TLA+ value TLC can print in a state."""


def _is_seq_domain(keys: list[Any]) -> bool:
    """Whether ``keys`` is exactly ``1..len(keys)``."""
    ints = {k for k in keys if type(k) is int}
    return len(ints) == len(keys) and ints == set(range(1, len(keys) + 1))


def make_function(mapping: Mapping[Any, Value] | Iterable[tuple[Value, Value]]) -> Value:
    """Build the function ``mapping`` in normal form: a tuple, a RecordValue or a Function."""
    pairs = _pairs(mapping)
    keys = [k for k, _ in pairs]
    if _is_seq_domain(keys):  # includes the empty function, which is <<>>
        return tuple(v for _, v in sorted(pairs, key=lambda kv: kv[0]))
    if all(isinstance(k, str) for k in keys):
        return RecordValue(pairs)
    return Function(pairs)


def model_value_names(value: Value) -> frozenset[str]:
    """The names of the model values anywhere in ``value`` (set elements, sequence items, record
    fields, function keys and values): a TLA+ expression can name none of them by itself."""
    if isinstance(value, ModelValue):
        return frozenset((value.name,))
    if isinstance(value, (tuple, frozenset)):
        return frozenset().union(*(model_value_names(item) for item in value))
    if isinstance(value, (RecordValue, Function)):
        return frozenset().union(*(model_value_names(key) | model_value_names(item) for key, item in value.items()))
    return frozenset()


# Rank of each kind in the total order; the payload after it is only ever
# compared with a payload of the same kind.
_BOOL, _INT, _STR, _MODEL, _SEQ, _REC, _FUN, _SET = range(8)


def sort_key(value: Value) -> tuple[Any, ...]:
    """A key giving a total order across all values, consistent with ``==``.

    Kinds order as booleans < integers < strings < model values < sequences
    < records < functions < sets; within a kind the order is the natural one
    (sets and functions compare by their sorted elements, lexicographically).
    """
    if isinstance(value, bool):
        raise TypeError("Python bool is not a TLA+ value; use TRUE/FALSE")
    if isinstance(value, int):
        return (_INT, value)
    if isinstance(value, str):
        return (_STR, value)
    if isinstance(value, Bool):
        return (_BOOL, value.value)
    if isinstance(value, ModelValue):
        return (_MODEL, value.name)
    if isinstance(value, tuple):
        return (_SEQ, tuple(sort_key(v) for v in value))
    if isinstance(value, frozenset):
        return (_SET, tuple(sorted(sort_key(v) for v in value)))
    if isinstance(value, RecordValue):
        return (_REC, tuple((k, sort_key(v)) for k, v in value.items()))
    if isinstance(value, Function):
        return (_FUN, tuple((sort_key(k), sort_key(v)) for k, v in value.items()))
    raise TypeError(f"not a TLA+ value: {value!r} ({type(value).__name__})")


_ESCAPE = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r", "\f": "\\f"}
_UNESCAPE = {v[1]: k for k, v in _ESCAPE.items()}


def _format_string(s: str) -> str:
    return '"' + "".join(_ESCAPE.get(c, c) for c in s) + '"'


def format_value(value: Value) -> str:
    """Render ``value`` in TLC's syntax; :func:`parse_value` reads it back to an equal value.

    Sets are printed in :func:`sort_key` order (TLC uses its own order), and
    sets are always enumerated (never ``a..b``).
    """
    if isinstance(value, bool):
        raise TypeError("Python bool is not a TLA+ value; use TRUE/FALSE")
    if isinstance(value, Bool):
        return repr(value)
    if isinstance(value, (int, ModelValue)):
        return str(value)
    if isinstance(value, str):
        return _format_string(value)
    if isinstance(value, tuple):
        return "<<" + ", ".join(format_value(v) for v in value) + ">>"
    if isinstance(value, frozenset):
        return "{" + ", ".join(format_value(v) for v in sorted(value, key=sort_key)) + "}"
    if isinstance(value, RecordValue) and all(IDENTIFIER.fullmatch(k) for k in value):
        return "[" + ", ".join(f"{k} |-> {format_value(v)}" for k, v in value.items()) + "]"
    if isinstance(value, (RecordValue, Function)):
        body = " @@ ".join(f"{format_value(k)} :> {format_value(v)}" for k, v in value.items())
        return "(" + body + ")"
    raise TypeError(f"not a TLA+ value: {value!r} ({type(value).__name__})")


class ValueParseError(BadInput):
    """Text that is not a TLC value (or state); ``pos`` is a 0-based offset into ``text``."""

    def __init__(self, message: str, text: str, pos: int) -> None:
        self.message = message
        self.text = text
        self.pos = pos
        self.line = text.count("\n", 0, pos) + 1
        self.column = pos - (text.rfind("\n", 0, pos) + 1) + 1
        snippet = text[pos : pos + 30]
        super().__init__(f"{message} at line {self.line}, column {self.column}: {snippet!r}")


_TOKEN = re.compile(
    r"""
      (?P<ws>\s+)
    | (?P<str>"(?:[^"\\]|\\.)*")
    | (?P<num>-?[0-9]+)(?![A-Za-z0-9_])
    | (?P<word>[A-Za-z0-9_]+)
    | (?P<op><<|>>|\|->|:>|@@|\.\.|/\\|[{}\[\](),=])
    """,
    re.VERBOSE | re.DOTALL,
)

_Token = tuple[str, str, int]  # kind, text, offset


def _tokenize(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            what = "unterminated string" if text[pos] == '"' else f"unexpected character {text[pos]!r}"
            raise ValueParseError(what, text, pos)
        kind = m.lastgroup
        assert kind is not None
        if kind != "ws":
            tokens.append((kind, m.group(), pos))
        pos = m.end()
    tokens.append(("eof", "", len(text)))
    return tokens


class _Parser:
    """Recursive descent over the tokens of one value or state."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = _tokenize(text)
        self.i = 0

    def error(self, message: str, token: _Token | None = None) -> ValueParseError:
        tok = token or self.tokens[self.i]
        found = "end of input" if tok[0] == "eof" else repr(tok[1])
        return ValueParseError(f"{message}, found {found}", self.text, tok[2])

    def peek(self) -> _Token:
        return self.tokens[self.i]

    def take(self) -> _Token:
        tok = self.tokens[self.i]
        self.i += 1
        return tok

    def accept(self, op: str) -> bool:
        if self.tokens[self.i][1] == op and self.tokens[self.i][0] == "op":
            self.i += 1
            return True
        return False

    def expect(self, op: str) -> None:
        if not self.accept(op):
            raise self.error(f"expected {op!r}")

    def expect_word(self) -> str:
        kind, text, _ = self.peek()
        if kind != "word":
            raise self.error("expected a name")
        self.i += 1
        return text

    def items(self, close: str, item: Any, sep: str = ",") -> list[Any]:
        """``item (sep item)*`` up to ``close``, or nothing."""
        out: list[Any] = []
        if self.accept(close):
            return out
        out.append(item())
        while self.accept(sep):
            out.append(item())
        self.expect(close)
        return out

    def value(self) -> Value:
        tok = self.take()
        kind, text, pos = tok
        if kind == "num":
            if self.accept(".."):
                hi = self.take()
                if hi[0] != "num":
                    raise self.error("expected an integer after '..'", hi)
                return frozenset(range(int(text), int(hi[1]) + 1))
            return int(text)
        if kind == "str":
            return self.string(text, pos)
        if kind == "word":
            if text in _KEYWORDS:
                return TRUE if text == "TRUE" else FALSE
            if not IDENTIFIER.fullmatch(text):
                raise self.error("expected a value", tok)
            return ModelValue(text)
        if kind == "op":
            if text == "{":
                return frozenset(self.items("}", self.value))
            if text == "<<":
                return tuple(self.items(">>", self.value))
            if text == "[":
                return self.record(tok)
            if text == "(":
                return self.function(tok)
        raise self.error("expected a value", tok)

    def string(self, text: str, pos: int) -> str:
        def unescape(m: re.Match[str]) -> str:
            if m.group(1) not in _UNESCAPE:
                raise ValueParseError(f"unknown escape {m.group()!r}", self.text, pos + m.start())
            return _UNESCAPE[m.group(1)]

        return re.sub(r"\\(.)", unescape, text, flags=re.DOTALL)[1:-1]

    def record(self, start: _Token) -> Value:
        def field() -> tuple[str, Value]:
            name = self.expect_word()
            self.expect("|->")
            return name, self.value()

        fields = self.items("]", field)
        if not fields:
            raise self.error("a record needs a field", start)
        if len({k for k, _ in fields}) != len(fields):
            raise ValueParseError("duplicate record field", self.text, start[2])
        return RecordValue(fields)

    def function(self, start: _Token) -> Value:
        def pair() -> tuple[Value, Value]:
            key = self.value()
            self.expect(":>")
            return key, self.value()

        pairs = self.items(")", pair, sep="@@")
        if not pairs:
            raise self.error("expected 'key :> value'", start)
        try:
            return make_function(pairs)
        except ValueError as exc:
            raise ValueParseError(str(exc), self.text, start[2]) from None

    def end(self) -> None:
        if self.peek()[0] != "eof":
            raise self.error("expected end of input")


def parse_value(text: str) -> Value:
    """Parse one value printed by TLC (or by :func:`format_value`)."""
    parser = _Parser(text)
    result = parser.value()
    parser.end()
    return result


#: Where a state's next conjunct starts: a line that starts with ``/\\`` (values never contain one).
CONJUNCT_BREAK = re.compile(r"\n(?=[ \t]*/\\)")


def _parse_binding(text: str, conjunct: bool) -> tuple[str, Value]:
    """Parse ``[/\\] name = value`` filling all of ``text``."""
    parser = _Parser(text)
    if conjunct:
        parser.expect("/\\")
    name = parser.expect_word()
    parser.expect("=")
    value = parser.value()
    parser.end()
    return name, value


def parse_state(text: str, *, cache: dict[str, tuple[str, Value]] | None = None) -> dict[str, Value]:
    """Parse a TLC state: ``/\\ x = 1`` conjuncts, one per variable, or ``x = 1``.

    TLC omits the ``/\\`` when the spec has a single variable, and wraps long
    values over several indented lines; both are accepted.  Empty text is the
    state of a spec without variables.  ``cache`` (any dict, kept by the
    caller) memoizes conjuncts, which repeat a lot across the states of one
    graph.
    """
    if not text.strip():
        return {}
    if text.lstrip().startswith("/\\"):
        # A conjunct starts wherever a line starts with /\; values never
        # contain /\ and TLC escapes newlines inside strings.
        pieces = CONJUNCT_BREAK.split(text)
        conjunct = True
    else:
        pieces = [text]
        conjunct = False
    state: dict[str, Value] = {}
    start = 0
    for chunk in pieces:
        binding = cache.get(chunk) if cache is not None else None
        if binding is None:
            try:
                binding = _parse_binding(chunk, conjunct)
            except ValueParseError as exc:  # report the offset in the whole text
                raise ValueParseError(exc.message, text, start + exc.pos) from None
            if cache is not None:
                cache[chunk] = binding
        name, value = binding
        if name in state:
            raise ValueParseError(f"variable {name!r} appears twice", text, start)
        state[name] = value
        start += len(chunk) + 1
    return state
