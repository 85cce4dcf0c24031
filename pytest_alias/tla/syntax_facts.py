"""The facts :mod:`.syntax` reports about a TLA+ module, as frozen data: identifier occurrences with
their spans and roles, declarations, definitions, instances, the PlusCal block, parse issues, and
the module as a whole (:class:`ModuleSyntax`). No parsing happens here."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Optional

from .specfiles import IDENTIFIER

Span = tuple[int, int]
Role = Literal["define", "bind", "reference", "module", "field", "label"]
DefinitionKind = Literal["operator", "function", "instance", "theorem", "assumption"]
ScopeKind = Literal["module", "let", "proof", "pluscal"]

# --------------------------------------------------------------------------
# Result types
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Occurrence:
    """One identifier occurrence.

    ``role`` is ``"define"`` (definition or declaration site: operator,
    function, instance, theorem and LET names, CONSTANT/VARIABLE, RECURSIVE,
    PlusCal variables/procedures/processes/macros/algorithm name),
    ``"bind"`` (a bound variable or parameter: quantifiers, CHOOSE, set
    comprehensions, function literals and definitions, operator parameters,
    LAMBDA, NEW/PICK/TAKE, PlusCal ``with`` and macro parameters),
    ``"reference"`` (a use), ``"module"`` (a module name: header, EXTENDS,
    INSTANCE), ``"field"`` (a record field) or ``"label"`` (an expression or
    PlusCal label).

    ``target`` is the define/bind/label occurrence a reference resolves to, or
    ``None`` for names from other modules (standard or not) and unknown names.
    ``via`` is the instance path for ``M!Op`` (``"M"``; ``"M!N"`` for
    ``M!N!Op``); ``foreign_module`` names the module a reference belongs to
    when it is known (the instanced module of ``M`` in ``M!Op``, the target of
    ``INSTANCE X WITH p <- e`` for ``p``).  ``context`` is a short hint about
    the syntactic position (``"prime"``, ``"subscript"``, ``"parameter"``, ...).
    ``owner`` is the enclosing module-level definition (or PlusCal
    procedure/process/macro) and ``module`` the innermost module's name.
    """

    text: str
    span: Span
    line: int
    column: int
    role: Role
    context: str
    target: Optional[Occurrence] = None
    via: Optional[str] = None
    foreign_module: Optional[str] = None
    owner: Optional[str] = None
    module: Optional[str] = None
    in_pluscal: bool = False

    @property
    def start(self) -> int:
        """Start byte."""
        return self.span[0]

    @property
    def end(self) -> int:
        """End byte (exclusive)."""
        return self.span[1]


@dataclass(frozen=True)
class Declaration:
    """A CONSTANT or VARIABLE declaration of one name.

    ``arity`` is the number of ``_`` of an operator constant (``F(_, _)`` has
    2, ``_ ** _`` is named ``**`` and has 2); plain names have 0.
    """

    name: str
    span: Span
    line: int
    column: int
    kind: Literal["constant", "variable"]
    arity: int = 0
    extent: Span = (0, 0)


@dataclass(frozen=True)
class Definition:
    """A definition: operator, function, named instance, theorem, assumption.

    ``span`` is the span of the name (a symbol such as ``++`` for a user
    infix operator); ``extent`` the whole definition.  ``scope`` says where it
    lives (``"module"``, ``"let"``, ``"proof"`` for DEFINE steps, ``"pluscal"``
    for a PlusCal ``define`` block); ``parent`` is the index in
    :attr:`ModuleSyntax.definitions` of the innermost enclosing definition
    (for LET and proof definitions).
    """

    name: str
    span: Span
    line: int
    column: int
    kind: DefinitionKind
    parameters: tuple[str, ...] = ()
    is_local: bool = False
    is_recursive: bool = False
    scope: ScopeKind = "module"
    parent: Optional[int] = None
    extent: Span = (0, 0)

    @property
    def is_symbolic(self) -> bool:
        """Whether the name is an operator symbol (``++``) rather than an identifier."""
        return not bool(IDENTIFIER.fullmatch(self.name))


@dataclass(frozen=True)
class Substitution:
    """``name <- expression`` in ``INSTANCE X WITH ...``."""

    name: str
    span: Span
    expression: str
    expression_span: Span


@dataclass(frozen=True)
class Instance:
    """``INSTANCE X``, ``LOCAL INSTANCE X`` or ``M(p) == INSTANCE X WITH ...``."""

    module: str
    module_span: Span
    name: Optional[str] = None
    name_span: Optional[Span] = None
    parameters: tuple[str, ...] = ()
    substitutions: tuple[Substitution, ...] = ()
    is_local: bool = False
    scope: ScopeKind = "module"
    extent: Span = (0, 0)


@dataclass(frozen=True)
class Name:
    """A name with its span and position (PlusCal variables, labels, ...)."""

    name: str
    span: Span
    line: int
    column: int


@dataclass(frozen=True)
class PlusCalBlock:
    """A PlusCal algorithm found inside a comment.

    ``span`` runs from ``--algorithm``/``--fair`` to the end of the algorithm
    (``end algorithm`` or the closing brace).  ``parsed`` is False when only
    the text was located (tree-sitter did not parse the algorithm); then the
    name lists are empty.
    """

    span: Span
    name: Optional[str]
    name_span: Optional[Span]
    fair: bool
    syntax: Literal["p", "c"]
    parsed: bool = True
    variables: tuple[Name, ...] = ()
    labels: tuple[Name, ...] = ()
    macros: tuple[Name, ...] = ()
    procedures: tuple[Name, ...] = ()
    processes: tuple[Name, ...] = ()
    definitions: tuple[Name, ...] = ()
    has_errors: bool = False


@dataclass(frozen=True)
class SyntaxIssue:
    """A syntax problem: ``kind`` is ``"error"`` (an ERROR node), ``"missing"``
    (a token the parser had to invent), ``"missing_footer"``, ``"no_module"``,
    or ``"pluscal"`` (an ERROR/MISSING node inside the comment that holds the
    PlusCal algorithm: SANY ignores it, but the PlusCal facts are partial)."""

    kind: Literal["error", "missing", "missing_footer", "no_module", "pluscal"]
    span: Span
    line: int
    column: int
    message: str


@dataclass(frozen=True)
class ModuleSyntax:
    """Syntax facts of one module (see the module docstring for conventions).

    ``occurrences`` holds every identifier occurrence in the module's text,
    sorted by position, including those of nested modules and of a PlusCal
    algorithm; ``definitions``, ``constants``, ``variables`` and
    ``instances`` hold only this module's own (nested modules are in
    ``submodules``).  ``comments`` are the outermost comment spans (the
    PlusCal algorithm lies inside one) and ``strings`` the string literals.
    """

    name: Optional[str]
    name_span: Optional[Span]
    span: Span
    complete: bool
    extends: tuple[str, ...]
    instances: tuple[Instance, ...]
    constants: tuple[Declaration, ...]
    variables: tuple[Declaration, ...]
    definitions: tuple[Definition, ...]
    occurrences: tuple[Occurrence, ...]
    comments: tuple[Span, ...]
    strings: tuple[Span, ...]
    pluscal: Optional[PlusCalBlock]
    errors: tuple[SyntaxIssue, ...]
    submodules: tuple[ModuleSyntax, ...] = ()
    source: bytes = field(default=b"", repr=False, compare=False)

    @property
    def has_errors(self) -> bool:
        """Whether the parse found any syntax problem."""
        return bool(self.errors)

    @property
    def has_tla_errors(self) -> bool:
        """Whether there is a problem outside the PlusCal algorithm's comment."""
        return any(i.kind != "pluscal" for i in self.errors)

    def text(self, span: Span) -> str:
        """The source text of ``span``."""
        return self.source[span[0] : span[1]].decode("utf-8", errors="replace")

    def definition(self, name: str) -> Optional[Definition]:
        """The module-level definition called ``name``, if any."""
        for d in self.definitions:
            if d.scope == "module" and d.name == name:
                return d
        return None

    @property
    def defined_names(self) -> frozenset[str]:
        """Names this module itself declares or defines at module level."""
        names = {d.name for d in self.constants}
        names.update(d.name for d in self.variables)
        names.update(d.name for d in self.definitions if d.scope == "module")
        return frozenset(names)

    @property
    def exported_names(self) -> frozenset[str]:
        """Module-level names visible to a module that EXTENDS this one (non-LOCAL)."""
        names = {d.name for d in self.constants}
        names.update(d.name for d in self.variables)
        names.update(
            d.name
            for d in self.definitions
            if d.scope == "module" and not d.is_local
        )
        return frozenset(names)

    def occurrences_of(self, name: str) -> tuple[Occurrence, ...]:
        """All occurrences whose text is ``name``."""
        return tuple(o for o in self.occurrences if o.text == name)

    def references_to(self, occurrence: Occurrence) -> tuple[Occurrence, ...]:
        """The references that resolve to ``occurrence``."""
        return tuple(o for o in self.occurrences if o.target is occurrence)

    def unresolved_references(self) -> tuple[Occurrence, ...]:
        """References with no target and no ``via`` (standard, imported or unknown names)."""
        return tuple(
            o
            for o in self.occurrences
            if o.role == "reference" and o.target is None and o.via is None
        )
