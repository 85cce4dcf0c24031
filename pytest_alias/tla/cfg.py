"""Parse and render TLC model configuration (``.cfg``) files.

The grammar follows TLC's own config parser (``tlc2.tool.impl.ModelConfig``),
which tokenizes with the TLA+ lexer:

* ``CONSTANT``/``CONSTANTS`` followed by entries ``Name = value``,
  ``Name(v1, v2) = value``, ``Name = [Mod] value``, ``Name <- Def`` and
  ``Name <- [Mod] Def``; ``Name`` may be instance-qualified (``I!J!N``) and
  the left of ``<-`` may be an operator symbol (``+ <- MyPlus``).  Values
  are integers (a leading ``-`` is accepted, as in *Specifying Systems*),
  strings, ``TRUE``/``FALSE``, model values (bare identifiers) and sets
  ``{...}``; tuples ``<<...>>`` parse too, though no TLC we know accepts them.
* List sections ``INVARIANT(S)``, ``PROPERTY``/``PROPERTIES``,
  ``CONSTRAINT(S)``, ``ACTION_CONSTRAINT(S)`` take any number of names.
* Single-name sections ``INIT``, ``NEXT``, ``SPECIFICATION``, ``SYMMETRY``,
  ``VIEW``, ``ALIAS``, ``POSTCONDITION``, ``_PERIODIC`` and the legacy
  ``TYPE``/``TYPE_CONSTRAINT`` may each appear once.
* ``CHECK_DEADLOCK TRUE|FALSE``.

A section runs until the next keyword, so sections may span lines or share
one.  ``(* ... *)`` (nesting) and ``\\*`` comments are dropped by the parser;
:func:`render_cfg` writes a canonical layout, so the round trip is semantic,
not byte for byte.
"""
from __future__ import annotations

from ..errors import BadInput

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Literal, Union

from .specfiles import IDENTIFIER, block_comment_end

__all__ = [
    "ALL_KEYWORDS",
    "CHECK_ONLY_KINDS",
    "KEYWORDS_TLC_2_15",
    "KEYWORDS_TLC_MODERN",
    "Cfg",
    "CfgError",
    "CheckDeadlockSection",
    "ConstantEntry",
    "ConstantsSection",
    "CfgModelValue",
    "NamesSection",
    "Section",
    "SetValue",
    "TupleValue",
    "UnsupportedKeyword",
    "Value",
    "adapt_for_tlc",
    "parse_cfg",
    "parse_value",
    "render_cfg",
    "render_value",
    "without_unsupported_checks",
]


class CfgError(BadInput):
    """A malformed cfg, or one the TLC at hand cannot take; ``line`` is 1-based or None."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(f"line {line}: {message}" if line is not None else message)
        self.line = line


class UnsupportedKeyword(CfgError):
    """A well-formed cfg that uses a keyword the configured tla2tools.jar predates: a limit of the
    toolchain, not a fault of the cfg or of a spec checked with it."""

    def __init__(self, keyword: str) -> None:
        super().__init__(f"this tla2tools.jar does not support the {keyword} keyword; "
                         "set ALIAS_TLA2TOOLS to a newer tla2tools.jar")
        self.keyword = keyword


# --- keywords ---------------------------------------------------------------

# spelling -> canonical kind (the singular)
_KIND: dict[str, str] = {
    "CONSTANT": "CONSTANT", "CONSTANTS": "CONSTANT",
    "INVARIANT": "INVARIANT", "INVARIANTS": "INVARIANT",
    "PROPERTY": "PROPERTY", "PROPERTIES": "PROPERTY",
    "CONSTRAINT": "CONSTRAINT", "CONSTRAINTS": "CONSTRAINT",
    "ACTION_CONSTRAINT": "ACTION_CONSTRAINT", "ACTION_CONSTRAINTS": "ACTION_CONSTRAINT",
    "INIT": "INIT", "NEXT": "NEXT", "SPECIFICATION": "SPECIFICATION",
    "SYMMETRY": "SYMMETRY", "VIEW": "VIEW", "ALIAS": "ALIAS",
    "POSTCONDITION": "POSTCONDITION", "_PERIODIC": "_PERIODIC",
    "_POSSIBLE": "_POSSIBLE", "_RL_REWARD": "_RL_REWARD",
    "TYPE": "TYPE", "TYPE_CONSTRAINT": "TYPE_CONSTRAINT",
    "CHECK_DEADLOCK": "CHECK_DEADLOCK",
}
# _POSSIBLE (possibility properties) takes any number of names: a list, read leniently.
_LIST_KINDS = frozenset({"INVARIANT", "PROPERTY", "CONSTRAINT", "ACTION_CONSTRAINT", "_POSSIBLE"})
_SINGLE_KINDS = frozenset({
    "INIT", "NEXT", "SPECIFICATION", "SYMMETRY", "VIEW", "ALIAS",
    "POSTCONDITION", "_PERIODIC", "_RL_REWARD", "TYPE", "TYPE_CONSTRAINT",
})
_LEGACY = frozenset({"TYPE", "TYPE_CONSTRAINT"})

#: Sections that say what to check or print about a run, not which behaviors it explores: a grade
#: that runs its own checks on a cfg's model leaves them out (canonical kinds).
CHECK_ONLY_KINDS: tuple[str, ...] = ("INVARIANT", "PROPERTY", "CHECK_DEADLOCK", "ALIAS", "POSTCONDITION", "VIEW",
                                     "_PERIODIC", "_POSSIBLE", "_RL_REWARD")
#: Every keyword spelling this parser knows.
ALL_KEYWORDS: frozenset[str] = frozenset(_KIND)
#: What TLC 2.15 (tla2tools.jar of 2020-01-30, rev d5b5a7f) accepts, found by running it.
KEYWORDS_TLC_2_15: frozenset[str] = ALL_KEYWORDS - {
    "CHECK_DEADLOCK", "ALIAS", "POSTCONDITION", "_PERIODIC", "_POSSIBLE", "_RL_REWARD",
}
#: What current TLC accepts according to its source (not run here).
KEYWORDS_TLC_MODERN: frozenset[str] = ALL_KEYWORDS - _LEGACY


# --- values -----------------------------------------------------------------

@dataclass(frozen=True)
class CfgModelValue:
    """A TLC model value: a bare identifier on the right of ``=``."""

    name: str

    def __post_init__(self) -> None:
        if not _is_ident(self.name) or self.name in ("TRUE", "FALSE"):
            raise CfgError(f"bad model value name {self.name!r}")


@dataclass(frozen=True)
class SetValue:
    """An enumerated set ``{a, b}``; element order and repeats are kept as written."""

    elements: tuple[Value, ...] = ()


@dataclass(frozen=True)
class TupleValue:
    """A tuple ``<<a, b>>`` (parsed for completeness; TLC's cfg parser rejects it)."""

    elements: tuple[Value, ...] = ()


Value = Union[bool, int, str, CfgModelValue, SetValue, TupleValue]

_STR_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "t": "\t", "r": "\r", "f": "\f"}
_STR_UNESCAPES = {v: k for k, v in _STR_ESCAPES.items()}


def render_value(value: Value) -> str:
    """Render a cfg value as TLC reads it (strings are escaped)."""
    if isinstance(value, bool):  # before int: bool is an int subclass
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return '"' + "".join("\\" + _STR_UNESCAPES[c] if c in _STR_UNESCAPES else c
                             for c in value) + '"'
    if isinstance(value, CfgModelValue):
        return value.name
    if isinstance(value, SetValue):
        return "{" + ", ".join(render_value(v) for v in value.elements) + "}"
    if isinstance(value, TupleValue):
        return "<<" + ", ".join(render_value(v) for v in value.elements) + ">>"
    raise TypeError(f"not a cfg value: {value!r}")


def model_values_in(value: Value) -> Iterator[str]:
    """The names of the model values in ``value``, nested ones included."""
    if isinstance(value, CfgModelValue):
        yield value.name
    elif isinstance(value, (SetValue, TupleValue)):
        for v in value.elements:
            yield from model_values_in(v)


def _rename_value(value: Value, mapping: Mapping[str, str]) -> Value:
    if isinstance(value, CfgModelValue):
        return CfgModelValue(mapping.get(value.name, value.name))
    if isinstance(value, SetValue):
        return SetValue(tuple(_rename_value(v, mapping) for v in value.elements))
    if isinstance(value, TupleValue):
        return TupleValue(tuple(_rename_value(v, mapping) for v in value.elements))
    return value


# --- lexer ------------------------------------------------------------------

_WORD_RE = re.compile(r"[A-Za-z0-9_]+")
_BACKSLASH_WORD_RE = re.compile(r"\\[A-Za-z]+")  # \in, \cup, ...
# TLA+ symbols; longest match wins, as in the TLA+ lexer TLC uses.
_SYMBOLS = sorted({
    "<-", "<<", ">>", "=", "{", "}", "(", ")", "[", "]", ",", "!", "-",
    "!!", "#", "##", "$", "$$", "%", "%%", "&", "&&", "(+)", "(-)", "(.)", "(/)",
    "(\\X)", "*", "**", "+", "++", "-+->", "--", "-|", "..", "...", "/", "//",
    "/=", "/\\", "::=", ":=", ":>", "<", "<:", "<=>", "=<", "<=", "=>", "=|", ">",
    ">=", "??", "@@", "\\/", "^", "^^", "|", "|-", "|=", "||", "~>", "~", "^+",
    "^*", "^#", "'", "[]", "<>", "==", "->", "|->", ":", ".", "@", "?",
}, key=len, reverse=True)
# Symbols with a structural meaning in cfgs; the others may name an overridden operator.
_STRUCTURAL = frozenset({"<-", "<<", ">>", "=", "{", "}", "(", ")", "[", "]", ",", "!"})

_Kind = Literal["ident", "number", "string", "symbol"]


@dataclass(frozen=True)
class _Tok:
    kind: _Kind
    text: str
    line: int
    value: object = None  # the decoded string for "string" tokens


def _is_ident(text: str) -> bool:
    return IDENTIFIER.fullmatch(text) is not None


def _is_op_symbol(text: str) -> bool:
    return (text in _SYMBOLS and text not in _STRUCTURAL) or _BACKSLASH_WORD_RE.fullmatch(text) is not None


def _tokenize(text: str) -> list[_Tok]:
    toks: list[_Tok] = []
    i, line, n = 0, 1, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif text.startswith("\\*", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("(*", i):
            i, line = _skip_block_comment(text, i, line)
        elif c == '"':
            i = _lex_string(text, i, line, toks)
        elif (m := _WORD_RE.match(text, i)) is not None:
            word = m.group()
            if word.isdigit():
                toks.append(_Tok("number", word, line))
            elif _is_ident(word):
                toks.append(_Tok("ident", word, line))
            else:
                raise CfgError(f"bad token {word!r}", line)
            i = m.end()
        else:
            m = _BACKSLASH_WORD_RE.match(text, i)
            sym = m.group() if m else next((s for s in _SYMBOLS if text.startswith(s, i)), None)
            if sym is None:
                raise CfgError(f"bad token {c!r}", line)
            toks.append(_Tok("symbol", sym, line))
            i += len(sym)
    return toks


def _skip_block_comment(text: str, i: int, line: int) -> tuple[int, int]:
    end = block_comment_end(text, i)
    if end is None:
        raise CfgError("unterminated (* comment", line)
    return end, line + text.count("\n", i, end)


def _lex_string(text: str, i: int, line: int, toks: list[_Tok]) -> int:
    chars: list[str] = []
    j = i + 1
    while j < len(text):
        c = text[j]
        if c == '"':
            toks.append(_Tok("string", text[i:j + 1], line, "".join(chars)))
            return j + 1
        if c == "\n":
            break
        if c == "\\":
            esc = text[j + 1:j + 2]
            if esc not in _STR_ESCAPES:
                raise CfgError(f"bad escape '\\{esc}' in string", line)
            chars.append(_STR_ESCAPES[esc])
            j += 2
        else:
            chars.append(c)
            j += 1
    raise CfgError("unterminated string", line)


# --- data model -------------------------------------------------------------

@dataclass(frozen=True)
class ConstantEntry:
    """One entry of a ``CONSTANT(S)`` section.

    ``value`` is the canonical text of the right-hand side: a rendered literal
    for ``=`` (``parsed`` holds it as a :data:`Value`), a definition name for
    ``<-``.  ``module`` is the ``[Mod]`` qualifier, ``params`` the argument
    values of ``F(a, b) = v``.  Non-canonical literal text is normalized.
    """

    name: str
    op: Literal["=", "<-"]
    value: str
    params: tuple[Value, ...] = ()
    module: str | None = None
    parsed: Value | None = field(default=None, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        parts = self.name.split("!")
        if not (all(_is_ident(p) for p in parts) or (self.op == "<-" and _is_op_symbol(self.name))):
            raise CfgError(f"bad constant name {self.name!r}")
        if self.module is not None and not _is_ident(self.module):
            raise CfgError(f"bad module name {self.module!r}")
        if self.op == "<-":
            if self.params:
                raise CfgError(f"{self.name}: '<-' takes no parameters")
            if not _is_ident(self.value):
                raise CfgError(f"{self.name} <- needs a definition name, not {self.value!r}")
        elif self.op == "=":
            literal = parse_value(self.value)
            object.__setattr__(self, "value", render_value(literal))
            object.__setattr__(self, "parsed", literal)
        else:
            raise CfgError(f"bad constant operator {self.op!r}")

    def render(self) -> str:
        """The entry as a cfg line (without indentation)."""
        lhs = self.name
        if self.params:
            lhs += "(" + ", ".join(render_value(p) for p in self.params) + ")"
        mod = f"[{self.module}] " if self.module is not None else ""
        return f"{lhs} {self.op} {mod}{self.value}"


@dataclass(frozen=True)
class ConstantsSection:
    """A ``CONSTANT``/``CONSTANTS`` section."""

    entries: tuple[ConstantEntry, ...] = ()
    keyword: str = "CONSTANTS"

    def __post_init__(self) -> None:
        if _KIND.get(self.keyword) != "CONSTANT":
            raise CfgError(f"bad constants keyword {self.keyword!r}")

    @property
    def kind(self) -> str:
        return "CONSTANT"


@dataclass(frozen=True)
class NamesSection:
    """A section naming definitions: a list kind (``INVARIANTS a b``) or a single-name kind (``INIT i``)."""

    keyword: str
    names: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        kind = _KIND.get(self.keyword)
        if kind not in _LIST_KINDS and kind not in _SINGLE_KINDS:
            raise CfgError(f"not a names keyword: {self.keyword!r}")
        if kind in _SINGLE_KINDS and len(self.names) != 1:
            raise CfgError(f"{self.keyword} takes exactly one name, got {len(self.names)}")
        for name in self.names:
            # A keyword here would end the section when read back.
            if not _is_ident(name) or name in ALL_KEYWORDS:
                raise CfgError(f"{self.keyword}: bad name {name!r}")

    @property
    def kind(self) -> str:
        return _KIND[self.keyword]


@dataclass(frozen=True)
class CheckDeadlockSection:
    """``CHECK_DEADLOCK TRUE`` or ``CHECK_DEADLOCK FALSE``."""

    value: bool

    @property
    def keyword(self) -> str:
        return "CHECK_DEADLOCK"

    @property
    def kind(self) -> str:
        return "CHECK_DEADLOCK"


Section = Union[ConstantsSection, NamesSection, CheckDeadlockSection]


def _canonical_kind(keyword: str) -> str:
    try:
        return _KIND[keyword]
    except KeyError:
        raise CfgError(f"unknown keyword {keyword!r}") from None


@dataclass(frozen=True)
class Cfg:
    """A TLC model config: its sections in file order.

    Accessors merge sections of one kind (TLC does too); the ``with_*`` and
    ``without`` methods return modified copies.
    """

    sections: tuple[Section, ...] = ()

    def __post_init__(self) -> None:
        # TLC rejects a repeated single-name keyword ("The keyword ... appeared twice").
        seen: set[str] = set()
        for s in self.sections:
            if s.kind in _SINGLE_KINDS or s.kind == "CHECK_DEADLOCK":
                if s.kind in seen:
                    raise CfgError(f"{s.keyword} given twice")
                seen.add(s.kind)

    # -- accessors: None / () when absent --

    def _of(self, kind: str) -> Iterator[Section]:
        return (s for s in self.sections if s.kind == kind)

    def _names(self, kind: str) -> tuple[str, ...]:
        return tuple(n for s in self._of(kind) if isinstance(s, NamesSection) for n in s.names)

    def _single(self, kind: str) -> str | None:
        names = self._names(kind)
        return names[0] if names else None

    @property
    def constants(self) -> tuple[ConstantEntry, ...]:
        """Every constant entry, in file order across all ``CONSTANT(S)`` sections."""
        return tuple(e for s in self._of("CONSTANT") if isinstance(s, ConstantsSection) for e in s.entries)

    @property
    def init(self) -> str | None:
        return self._single("INIT")

    @property
    def next(self) -> str | None:
        return self._single("NEXT")

    @property
    def specification(self) -> str | None:
        return self._single("SPECIFICATION")

    @property
    def symmetry(self) -> str | None:
        return self._single("SYMMETRY")

    @property
    def view(self) -> str | None:
        return self._single("VIEW")

    @property
    def alias(self) -> str | None:
        return self._single("ALIAS")

    @property
    def postcondition(self) -> str | None:
        return self._single("POSTCONDITION")

    @property
    def invariants(self) -> tuple[str, ...]:
        return self._names("INVARIANT")

    @property
    def properties(self) -> tuple[str, ...]:
        return self._names("PROPERTY")

    @property
    def constraints(self) -> tuple[str, ...]:
        return self._names("CONSTRAINT")

    @property
    def action_constraints(self) -> tuple[str, ...]:
        return self._names("ACTION_CONSTRAINT")

    @property
    def check_deadlock(self) -> bool | None:
        """The ``CHECK_DEADLOCK`` setting, or None when the cfg leaves TLC's default (check)."""
        return next((s.value for s in self.sections if isinstance(s, CheckDeadlockSection)), None)

    def keywords(self) -> frozenset[str]:
        """The keyword spellings this cfg uses."""
        return frozenset(s.keyword for s in self.sections)

    def referenced_names(self) -> tuple[str, ...]:
        """Identifiers the spec must declare or define, in order of first mention.

        Constant names (each part of ``I!N``), ``<-`` right-hand sides and every
        name in the other sections; not model values, module qualifiers or
        operator symbols.
        """
        out: dict[str, None] = {}
        for s in self.sections:
            if isinstance(s, ConstantsSection):
                for e in s.entries:
                    out.update((p, None) for p in e.name.split("!") if _is_ident(p))
                    if e.op == "<-":
                        out[e.value] = None
            elif isinstance(s, NamesSection):
                out.update((n, None) for n in s.names)
        return tuple(out)

    def model_values(self) -> tuple[str, ...]:
        """Model-value names used in constant values and arguments, in order of first mention."""
        out: dict[str, None] = {}
        for e in self.constants:
            for v in (*e.params, e.parsed):
                if v is not None:
                    out.update((m, None) for m in model_values_in(v))
        return tuple(out)

    def module_names(self) -> tuple[str, ...]:
        """Module names from ``[Mod]`` qualifiers, in order of first mention."""
        return tuple(dict.fromkeys(e.module for e in self.constants if e.module is not None))

    # -- derived copies --

    def with_names(self, mapping: Mapping[str, str], *, model_values: bool = False,
                   modules: bool = False) -> Cfg:
        """Rename identifiers through ``mapping`` (unmapped ones stay).

        Renames what :meth:`referenced_names` lists; model values only when
        ``model_values`` is set, ``[Mod]`` qualifiers only when ``modules`` is.
        """
        def ren(name: str) -> str:
            return mapping.get(name, name)

        def ren_entry(e: ConstantEntry) -> ConstantEntry:
            name = e.name if _is_op_symbol(e.name) else "!".join(ren(p) for p in e.name.split("!"))
            module = ren(e.module) if modules and e.module is not None else e.module
            if e.op == "<-":
                return ConstantEntry(name, "<-", ren(e.value), (), module)
            params, value = e.params, e.value
            if model_values:
                params = tuple(_rename_value(p, mapping) for p in params)
                assert e.parsed is not None
                value = render_value(_rename_value(e.parsed, mapping))
            return ConstantEntry(name, "=", value, params, module)

        def ren_section(s: Section) -> Section:
            if isinstance(s, ConstantsSection):
                return replace(s, entries=tuple(ren_entry(e) for e in s.entries))
            if isinstance(s, NamesSection):
                return replace(s, names=tuple(ren(n) for n in s.names))
            return s

        return Cfg(tuple(ren_section(s) for s in self.sections))

    def without(self, *keywords: str) -> Cfg:
        """Drop every section of the given kinds (either spelling: ``INVARIANT`` drops ``INVARIANTS`` too)."""
        kinds = {_canonical_kind(k) for k in keywords}
        return Cfg(tuple(s for s in self.sections if s.kind not in kinds))

    def with_single(self, keyword: str, name: str | None) -> Cfg:
        """Set a single-name section (``INIT``, ``VIEW``...) in place, append it, or drop it when ``name`` is None."""
        kind = _canonical_kind(keyword)
        if kind not in _SINGLE_KINDS:
            raise CfgError(f"{keyword} is not a single-name section")
        if name is None:
            return self.without(kind)
        new = NamesSection(keyword, (name,))
        if any(s.kind == kind for s in self.sections):
            return Cfg(tuple(new if s.kind == kind else s for s in self.sections))
        return Cfg((*self.sections, new))

    def with_init_next(self, init: str, next: str) -> Cfg:
        """Use ``INIT``/``NEXT`` as the behaviour spec, dropping any ``SPECIFICATION``."""
        return self.without("SPECIFICATION").with_single("INIT", init).with_single("NEXT", next)

    def with_specification(self, spec: str) -> Cfg:
        """Use ``SPECIFICATION spec``, dropping any ``INIT``/``NEXT``."""
        return self.without("INIT", "NEXT").with_single("SPECIFICATION", spec)

    def with_added(self, keyword: str, *names: str) -> Cfg:
        """Append names to a list section (``INVARIANT``, ``PROPERTY``, ...): to its last section of that kind, or a new one."""
        kind = _canonical_kind(keyword)
        if kind not in _LIST_KINDS:
            raise CfgError(f"{keyword} is not a list section")
        idx = [i for i, s in enumerate(self.sections) if s.kind == kind]
        if not idx:
            return Cfg((*self.sections, NamesSection(keyword, names)))
        sections = list(self.sections)
        last = sections[idx[-1]]
        assert isinstance(last, NamesSection)
        sections[idx[-1]] = replace(last, names=last.names + names)
        return Cfg(tuple(sections))

    def with_check_deadlock(self, value: bool | None) -> Cfg:
        """Set ``CHECK_DEADLOCK`` (in place or appended), or drop it when ``value`` is None."""
        if value is None:
            return self.without("CHECK_DEADLOCK")
        new = CheckDeadlockSection(value)
        if self.check_deadlock is not None:
            return Cfg(tuple(new if s.kind == "CHECK_DEADLOCK" else s for s in self.sections))
        return Cfg((*self.sections, new))

    def with_constant(self, entry: ConstantEntry) -> Cfg:
        """Replace the entries named ``entry.name`` by ``entry`` (at the first), or append it."""
        sections: list[Section] = []
        placed = False
        for s in self.sections:
            if isinstance(s, ConstantsSection):
                kept: list[ConstantEntry] = []
                for e in s.entries:
                    if e.name != entry.name:
                        kept.append(e)
                    elif not placed:
                        kept.append(entry)
                        placed = True
                s = replace(s, entries=tuple(kept))
            sections.append(s)
        if not placed:
            last = next((i for i in reversed(range(len(sections)))
                         if isinstance(sections[i], ConstantsSection)), None)
            if last is None:
                sections.insert(0, ConstantsSection((entry,)))
            else:
                sec = sections[last]
                assert isinstance(sec, ConstantsSection)
                sections[last] = replace(sec, entries=sec.entries + (entry,))
        return Cfg(tuple(sections))


# --- parser -----------------------------------------------------------------

class _Parser:
    def __init__(self, text: str) -> None:
        self.toks = _tokenize(text)
        self.pos = 0
        self.last_line = text.count("\n") + 1

    def peek(self) -> _Tok | None:
        return self.toks[self.pos] if self.pos < len(self.toks) else None

    def take(self, what: str) -> _Tok:
        tok = self.peek()
        if tok is None:
            raise CfgError(f"expected {what}, found end of input", self.last_line)
        self.pos += 1
        return tok

    def expect(self, text: str) -> _Tok:
        tok = self.take(repr(text))
        if tok.text != text or tok.kind == "string":
            raise CfgError(f"expected {text!r}, found {tok.text!r}", tok.line)
        return tok

    def at_section_end(self) -> bool:
        tok = self.peek()
        return tok is None or (tok.kind == "ident" and tok.text in ALL_KEYWORDS)

    def ident(self, what: str) -> str:
        tok = self.take(what)
        if tok.kind != "ident":
            raise CfgError(f"expected {what}, found {tok.text!r}", tok.line)
        return tok.text

    def cfg(self) -> Cfg:
        sections: list[Section] = []
        first_line: dict[str, int] = {}
        while (tok := self.peek()) is not None:
            self.pos += 1
            if tok.kind != "ident":
                raise CfgError(f"expected a keyword, found {tok.text!r}", tok.line)
            if tok.text not in ALL_KEYWORDS:
                raise CfgError(f"unknown keyword {tok.text!r}", tok.line)
            kind = _KIND[tok.text]
            if kind in first_line and (kind in _SINGLE_KINDS or kind == "CHECK_DEADLOCK"):
                raise CfgError(f"{tok.text} given twice (first on line {first_line[kind]})", tok.line)
            first_line.setdefault(kind, tok.line)
            sections.append(self.section(tok))
        return Cfg(tuple(sections))

    def section(self, kw: _Tok) -> Section:
        kind = _KIND[kw.text]
        if kind == "CONSTANT":
            entries = []
            while not self.at_section_end():
                entries.append(self.constant_entry())
            return ConstantsSection(tuple(entries), kw.text)
        if kind == "CHECK_DEADLOCK":
            tok = self.take("TRUE or FALSE after CHECK_DEADLOCK")
            if tok.kind != "ident" or tok.text not in ("TRUE", "FALSE"):
                raise CfgError(f"CHECK_DEADLOCK takes TRUE or FALSE, found {tok.text!r}", tok.line)
            return CheckDeadlockSection(tok.text == "TRUE")
        names: list[str] = []
        while not self.at_section_end():
            names.append(self.ident(f"a name after {kw.text}"))
            if kind in _SINGLE_KINDS:
                break
        if kind in _SINGLE_KINDS and not names:
            nxt = self.peek()
            found = f"keyword {nxt.text!r}" if nxt else "end of input"
            raise CfgError(f"{kw.text} needs a name, found {found}", kw.line)
        return NamesSection(kw.text, tuple(names))

    def constant_entry(self) -> ConstantEntry:
        tok = self.take("a constant name")
        line = tok.line
        if tok.kind == "ident":
            name = tok.text
            while (t := self.peek()) is not None and t.kind == "symbol" and t.text == "!":
                self.pos += 1
                name += "!" + self.ident("a name after '!'")
        elif tok.kind == "symbol" and _is_op_symbol(tok.text):
            nxt = self.peek()
            if nxt is None or nxt.text != "<-":
                # Most often the tail of an expression such as ``N = 1..3``.
                raise CfgError(f"unexpected {tok.text!r}; cfg values are literals (numbers, strings, "
                               "TRUE/FALSE, model values, {sets}), not expressions", line)
            name = tok.text
        else:
            raise CfgError(f"expected a constant name, found {tok.text!r}", line)
        op = self.take(f"'=' or '<-' after {name}")
        try:
            if op.kind == "symbol" and op.text == "<-":
                module = self.module()
                return ConstantEntry(name, "<-", self.ident(f"a definition name after {name} <-"), (), module)
            params: list[Value] = []
            if op.kind == "symbol" and op.text == "(":
                params.append(self.value())
                while (sep := self.take("')'")).text == ",":
                    params.append(self.value())
                if sep.text != ")":
                    raise CfgError(f"expected ',' or ')', found {sep.text!r}", sep.line)
                op = self.take(f"'=' after {name}(...)")
            if op.kind != "symbol" or op.text != "=":
                raise CfgError(f"expected '=' or '<-' after {name}, found {op.text!r}", op.line)
            module = self.module()
            return ConstantEntry(name, "=", render_value(self.value()), tuple(params), module)
        except CfgError as err:
            if err.line is None:  # raised by the data model: give it a place
                raise CfgError(str(err), line) from None
            raise

    def module(self) -> str | None:
        tok = self.peek()
        if tok is None or tok.kind != "symbol" or tok.text != "[":
            return None
        self.pos += 1
        name = self.ident("a module name after '['")
        self.expect("]")
        return name

    def value(self) -> Value:
        tok = self.take("a value")
        if tok.kind == "number":
            return int(tok.text)
        if tok.kind == "string":
            assert isinstance(tok.value, str)
            return tok.value
        if tok.kind == "ident":
            if tok.text in ("TRUE", "FALSE"):
                return tok.text == "TRUE"
            return CfgModelValue(tok.text)
        if tok.text == "-":
            num = self.take("a number after '-'")
            if num.kind != "number":
                raise CfgError(f"expected a number after '-', found {num.text!r}", num.line)
            return -int(num.text)
        if tok.text in ("{", "<<"):
            close = "}" if tok.text == "{" else ">>"
            elems: list[Value] = []
            first = self.peek()
            if first is not None and first.kind == "symbol" and first.text == close:
                self.pos += 1
            else:
                elems.append(self.value())
                while (sep := self.take(repr(close))).text == "," and sep.kind == "symbol":
                    elems.append(self.value())
                if sep.text != close or sep.kind != "symbol":
                    raise CfgError(f"expected ',' or {close!r}, found {sep.text!r}", sep.line)
            return SetValue(tuple(elems)) if close == "}" else TupleValue(tuple(elems))
        raise CfgError(f"expected a value, found {tok.text!r}", tok.line)


def parse_cfg(text: str) -> Cfg:
    """Parse a TLC config; comments are dropped. Raises :class:`CfgError` with the line."""
    return _Parser(text).cfg()


def parse_value(text: str) -> Value:
    """Parse one cfg value (``3``, ``-1``, ``"s"``, ``TRUE``, ``p1``, ``{p1, p2}``, ``<<1>>``)."""
    p = _Parser(text)
    value = p.value()
    if (tok := p.peek()) is not None:
        raise CfgError(f"unexpected {tok.text!r} after value", tok.line)
    return value


def render_cfg(cfg: Cfg) -> str:
    """Render ``cfg`` in a canonical layout that :func:`parse_cfg` reads back equal."""
    lines: list[str] = []
    for s in cfg.sections:
        if isinstance(s, CheckDeadlockSection):
            lines.append(f"CHECK_DEADLOCK {'TRUE' if s.value else 'FALSE'}")
        elif isinstance(s, ConstantsSection):
            lines.append(s.keyword)
            lines.extend("    " + e.render() for e in s.entries)
        elif s.kind in _SINGLE_KINDS:
            lines.append(f"{s.keyword} {s.names[0]}")
        else:
            lines.append(s.keyword)
            lines.extend("    " + n for n in s.names)
    return "\n".join(lines) + "\n" if lines else ""


# --- old TLC ------------------------------------------------------------------

def without_unsupported_checks(cfg: Cfg, supported: Iterable[str]) -> Cfg:
    """``cfg`` without the check-only sections (:data:`CHECK_ONLY_KINDS`) a TLC that knows only the
    ``supported`` keywords cannot take (``CHECK_DEADLOCK`` stays: :func:`adapt_for_tlc` turns it into
    a flag): for a run that is about the state space, not about those checks."""
    ok = frozenset(supported)
    return Cfg(tuple(s for s in cfg.sections
                     if s.kind == "CHECK_DEADLOCK" or s.kind not in CHECK_ONLY_KINDS
                     or any(_KIND.get(k) == s.kind for k in ok)))


def adapt_for_tlc(cfg: Cfg, supported: Iterable[str]) -> tuple[Cfg, list[str]]:
    """Make ``cfg`` acceptable to a TLC that knows only the ``supported`` keywords.

    Returns the adapted cfg and extra TLC command-line flags: an unsupported
    ``CHECK_DEADLOCK FALSE`` becomes ``-deadlock``, ``CHECK_DEADLOCK TRUE`` is
    TLC's default and is dropped, a keyword spelled in an unsupported form is
    respelled (``INVARIANTS`` -> ``INVARIANT``).  Anything else unsupported
    raises :class:`CfgError`.
    """
    ok = frozenset(supported)
    flags: list[str] = []
    sections: list[Section] = []
    for s in cfg.sections:
        if s.keyword in ok:
            sections.append(s)
        elif isinstance(s, CheckDeadlockSection):
            if not s.value:
                flags.append("-deadlock")
        elif (alt := next((k for k in sorted(ok) if _KIND.get(k) == s.kind), None)) is not None:
            sections.append(replace(s, keyword=alt))
        elif s.kind in _LEGACY:
            raise CfgError(f"{s.keyword} is an obsolete keyword this TLC does not accept; remove it")
        else:
            raise UnsupportedKeyword(s.keyword)
    return Cfg(tuple(sections)), flags
