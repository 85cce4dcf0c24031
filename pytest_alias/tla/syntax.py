"""TLA+ syntax facts on tree-sitter-tlaplus.

This module answers "what is where" questions about a TLA+ module without
running SANY: the module's name, what it EXTENDS and INSTANCEs, its constants,
variables and definitions, and above all *every identifier occurrence* with its
exact byte span, its role (definition site, bound variable, use, module name,
record field, label) and, for uses, the definition or binder it resolves to.
Consistent identifier renaming and the graders are built on these facts.

Conventions
-----------
* Spans are ``(start_byte, end_byte)`` into the UTF-8 encoding of the *whole*
  input given to :func:`parse_module` (not of the module alone), so
  ``source_bytes[start:end].decode() == occurrence.text``.
* Lines and columns are 1-based; columns count characters (code points), as
  SANY does.
* Nothing here raises on bad input: broken text yields ``has_errors`` and
  ``errors`` plus whatever facts the error-recovering parse still supports.

How tree-sitter-tlaplus 1.5 shows the tricky cases (and what we do):

* ``WF_vars(A)`` / ``SF_<<x, y>>(A)`` lex as the token ``WF_`` followed by an
  ordinary identifier (or tuple), so ``vars`` already has its own span; the same
  holds for ``[A]_vars`` (token ``]_``) and ``<<A>>_vars`` (token ``>>_``).
  Those occurrences get ``context="subscript"``.
* ``M!N!Op(x)`` is a ``prefixed_op`` whose ``subexpr_prefix`` holds one
  ``subexpr_component`` per ``M!`` step; a component may be ``I(3)`` (a
  parameterised instance).  We report ``M`` as a reference resolved in scope
  and every later name with ``via="M"`` / ``via="M!N"`` and no target.
* PlusCal is parsed *inside* the ``(* ... *)`` comment that holds it
  (``pcal_algorithm``); its identifiers are reported with ``in_pluscal=True``.
  Known grammar gaps: the P-syntax form ``process (P \\in S)`` (parentheses)
  yields ERROR nodes around the parentheses, and PlusCal with elided braces
  (tree-sitter-tlaplus issue #92) is not parsed at all; :func:`pluscal_block`
  then falls back to a textual search.
* A module whose ``====`` footer is missing makes tree-sitter give up on the
  module; we reparse the module's text with a footer appended (offsets are
  unchanged) and report a ``missing_footer`` issue.
* Record fields (``r.f``, ``[f |-> 1]``, ``[f : S]``, ``!.f``) are not operator
  names: they are reported with ``role="field"``.

The reserved words and standard-module tables live in :mod:`.keywords`, the textual splitting of a
text into modules in :mod:`.modsplit`, the result types in :mod:`.syntax_facts` and the textual
PlusCal search in :mod:`.pluscal`; what callers use is re-exported here.
"""

from __future__ import annotations

import functools

import bisect
import dataclasses
import re
import warnings
from functools import lru_cache
from typing import Callable, Iterator, Literal, NamedTuple, Optional, cast

import tree_sitter
import tree_sitter_tlaplus

from .keywords import (PLUSCAL_KEYWORDS, PROOF_LIBRARY_MODULES, STANDARD_MODULES, STANDARD_NAMES,
                       STANDARD_OPERATORS, TLA_KEYWORDS, is_identifier)
from .modsplit import (_PCAL_START, ModuleSpan, _as_bytes, _byte_to_char_offsets,
                       _scan_modules, split_modules)
from .specfiles import comment_spans
from .pluscal import textual_pluscal_span, tag_pluscal_issues, unparsed_pluscal

__all__ = [
    "Span",
    "Role",
    "Occurrence",
    "Declaration",
    "Definition",
    "Substitution",
    "Instance",
    "Name",
    "PlusCalBlock",
    "SyntaxIssue",
    "ModuleSyntax",
    "ModuleSpan",
    "parse_module",
    "parse_modules",
    "parse_tree",
    "split_modules",
    "pluscal_block",
    "is_identifier",
    "TLA_KEYWORDS",
    "PLUSCAL_KEYWORDS",
    "STANDARD_MODULES",
    "STANDARD_OPERATORS",
    "STANDARD_NAMES",
    "PROOF_LIBRARY_MODULES",
]

from .syntax_facts import (DefinitionKind, Declaration, Definition, Instance, ModuleSyntax, Name, Occurrence,
                           PlusCalBlock, Role, ScopeKind, Span, Substitution, SyntaxIssue)

# --------------------------------------------------------------------------
# Parsing plumbing
# --------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _language() -> tree_sitter.Language:
    # tree-sitter-tlaplus 1.5 hands out an int pointer, which tree-sitter
    # 0.2x still accepts with a DeprecationWarning.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return tree_sitter.Language(tree_sitter_tlaplus.language())


def parse_tree(data: bytes) -> tree_sitter.Tree:
    """The raw tree-sitter-tlaplus tree of ``data`` (for edits on node spans, as mutants make)."""
    # A parser per call: parsers are cheap and not thread-safe.
    return tree_sitter.Parser(_language()).parse(data)


class _Lines:
    """Byte offset -> (1-based line, 1-based character column)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.starts = [0]
        self.starts.extend(m.end() for m in re.finditer(rb"\n", data))
        self.ascii = data.isascii()

    def __call__(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, offset)
        start = self.starts[line - 1]
        if self.ascii:
            return line, offset - start + 1
        return line, len(self.data[start:offset].decode("utf-8", errors="replace")) + 1


# --------------------------------------------------------------------------
# The builder
# --------------------------------------------------------------------------


class _Raw:
    """A mutable occurrence record, frozen into :class:`Occurrence` at the end."""

    __slots__ = ("text", "start", "end", "role", "context", "target", "via",
                 "foreign", "owner", "module", "pluscal")

    def __init__(self, text: str, start: int, end: int, role: str, context: str,
                 target: Optional[_Raw], via: Optional[str], foreign: Optional[str],
                 owner: Optional[str], module: Optional[str], pluscal: bool) -> None:
        self.text = text
        self.start = start
        self.end = end
        self.role = role
        self.context = context
        self.target = target
        self.via = via
        self.foreign = foreign
        self.owner = owner
        self.module = module
        self.pluscal = pluscal


class _Scope:
    __slots__ = ("names", "parent")

    def __init__(self, parent: Optional[_Scope] = None) -> None:
        self.names: dict[str, _Raw] = {}
        self.parent = parent

    def lookup(self, name: str) -> Optional[_Raw]:
        scope: Optional[_Scope] = self
        while scope is not None:
            hit = scope.names.get(name)
            if hit is not None:
                return hit
            scope = scope.parent
        return None


class _ModuleAcc:
    """What one (possibly nested) module accumulates while walking."""

    def __init__(self, name: Optional[str], name_span: Optional[Span], span: Span,
                 complete: bool) -> None:
        self.name = name
        self.name_span = name_span
        self.span = span
        self.complete = complete
        self.extends: list[str] = []
        self.instances: list[Instance] = []
        self.constants: list[Declaration] = []
        self.variables: list[Declaration] = []
        self.definitions: list[Definition] = []
        self.recursive: set[tuple[int, str]] = set()  # (id(scope), name)
        self.pluscal: Optional[PlusCalBlock] = None
        self.submodules: list[_ModuleAcc] = []


class _Ctx(NamedTuple):
    owner: Optional[str]
    def_index: Optional[int]
    pluscal: bool
    module: _ModuleAcc
    error: bool


_Node = tree_sitter.Node
_Task = tuple[Callable[..., None], _Node, _Scope, _Ctx]

# Binding constructs handled by one generic routine, with the context their
# bound names get.
_BINDERS = {
    "bounded_quantification": "quantifier",
    "unbounded_quantification": "quantifier",
    "choose": "choose",
    "set_filter": "set_filter",
    "set_map": "set_map",
    "function_literal": "function_literal",
    "lambda": "lambda",
}

_UNIT_TYPES = frozenset(
    {"constant_declaration", "variable_declaration", "recursive_declaration",
     "operator_definition", "function_definition", "module_definition",
     "local_definition", "instance", "theorem", "assumption", "extends"}
)

# Nat, Int and Real get node types of their own, but they are ordinary
# operator names (which a module such as Peano may define itself).
_NUMBER_SETS = frozenset({"nat_number_set", "int_number_set", "real_number_set"})
_NUMBER_SET_NAMES = frozenset({"Nat", "Int", "Real"})


def _fields(node: _Node) -> Iterator[tuple[Optional[str], _Node]]:
    """Named children of ``node`` with their field names."""
    for i, child in enumerate(node.children):
        if child.is_named:
            yield node.field_name_for_child(i), child


class _Builder:
    """Walks one parse tree and collects the facts of the modules in it."""

    def __init__(self, data: bytes, lines: _Lines) -> None:
        self.data = data
        self.lines = lines
        self.raws: list[_Raw] = []
        self.comments: list[Span] = []
        self.strings: list[Span] = []
        self.stack: list[_Task] = []
        self.handled: set[Span] = set()  # identifiers already reported (labels)
        self.instance_targets: dict[int, str] = {}  # id(define raw) -> module
        self.pcal_labels: dict[str, _Raw] = {}
        self.handlers: dict[str, Callable[[_Node, _Scope, _Ctx], None]] = {
            "module": self._nested_module,
            "identifier_ref": self._identifier_ref,
            "identifier": self._identifier,
            "comment": self._comment,
            "block_comment": self._block_comment,
            "string": self._string,
            "let_in": self._let_in,
            "quantifier_bound": self._stray_quantifier_bound,
            "step_expr_or_stutter": self._step_expr,
            "step_expr_no_stutter": self._step_expr,
            "fairness": self._fairness,
            "bound_postfix_op": self._postfix,
            "bound_op": self._bound_op,
            "record_literal": self._record_fields,
            "set_of_records": self._record_fields,
            "record_value": self._record_value,
            "except_update_record_field": self._except_field,
            "prefixed_op": self._qualified,
            "subexpression": self._qualified,
            "label": self._label,
            "non_terminal_proof": self._proof,
            "assume_prove": self._nested_assume_prove,
            "new": self._new_stray,
            "pcal_algorithm": self._pcal,
            "pcal_lhs": self._pcal_lhs,
            "pcal_with": self._pcal_with,
            "pcal_macro_call": self._pcal_call,
            "pcal_proc_call": self._pcal_call,
            "pcal_goto": self._pcal_goto,
        }
        for kind in _BINDERS:
            self.handlers[kind] = self._binder
        for kind in _NUMBER_SETS:
            self.handlers[kind] = self._number_set
        for kind in _UNIT_TYPES:
            self.handlers[kind] = self._stray_unit

    # ---- small helpers ---------------------------------------------------

    def _text(self, node: _Node) -> str:
        return self.data[node.start_byte : node.end_byte].decode("utf-8", errors="replace")

    def _push(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        self.stack.append((self._visit, node, scope, ctx))

    def _push_children(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        for child in node.named_children:
            self._push(child, scope, ctx)

    def _occ(self, node: _Node, role: str, context: str, ctx: _Ctx, *,
             scope: Optional[_Scope] = None, target: Optional[_Raw] = None,
             via: Optional[str] = None, foreign: Optional[str] = None) -> Optional[_Raw]:
        """Record an occurrence; define/bind/label ones are entered in ``scope``."""
        span = (node.start_byte, node.end_byte)
        if span in self.handled:
            return None
        text = self._text(node)
        # Error recovery can turn a keyword (LAMBDA out of place) into an
        # identifier node: never report keywords.
        if text in TLA_KEYWORDS or not text:
            return None
        self.handled.add(span)
        raw = _Raw(text, span[0], span[1], role, context, target, via, foreign,
                   ctx.owner, ctx.module.name, ctx.pluscal)
        self.raws.append(raw)
        if scope is not None:
            scope.names[text] = raw
        return raw

    def _ref(self, node: _Node, scope: _Scope, ctx: _Ctx, context: str) -> Optional[_Raw]:
        return self._occ(node, "reference", context, ctx,
                         target=scope.lookup(self._text(node)))

    def _bind_intro(self, node: _Node, inner: _Scope, ctx: _Ctx, context: str) -> list[str]:
        """Bind an identifier or each identifier of ``<<a, b>>``; return the names."""
        if node.type == "identifier":
            self._occ(node, "bind", context, ctx, scope=inner)
            return [self._text(node)]
        if node.type == "tuple_of_identifiers":
            names = []
            for child in node.named_children:
                if child.type == "identifier":
                    self._occ(child, "bind", context, ctx, scope=inner)
                    names.append(self._text(child))
            return names
        return []

    def _quantifier_bound(self, qb: _Node, outer: _Scope, inner: _Scope, ctx: _Ctx,
                          context: str) -> list[str]:
        """``x, y \\in S`` / ``<<a, b>> \\in S``: names bind in ``inner``, S is in ``outer``."""
        names: list[str] = []
        for child in qb.named_children:
            if child.type in ("identifier", "tuple_of_identifiers"):
                names.extend(self._bind_intro(child, inner, ctx, context))
            elif child.type != "set_in":
                self._push(child, outer, ctx)
        return names

    # ---- the walk --------------------------------------------------------

    def run(self) -> None:
        stack = self.stack
        while stack:
            fn, node, scope, ctx = stack.pop()
            fn(node, scope, ctx)

    def _visit(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        handler = self.handlers.get(node.type)
        if handler is not None:
            handler(node, scope, ctx)
        elif node.type == "ERROR":
            # Keep going inside broken regions: their identifiers still need renaming.
            self._push_children(node, scope, ctx._replace(error=True))
        else:
            self._push_children(node, scope, ctx)

    def _identifier_ref(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        self._ref(node, scope, ctx, "error" if ctx.error else "expression")

    def _identifier(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        # A plain identifier that no construct claimed: only in broken trees.
        self._ref(node, scope, ctx, "error" if ctx.error else "unknown")

    def _number_set(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        if self._text(node) in _NUMBER_SET_NAMES:  # not the Unicode forms
            self._ref(node, scope, ctx, "expression")

    def _comment(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        self.comments.append((node.start_byte, node.end_byte))

    def _block_comment(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        self.comments.append((node.start_byte, node.end_byte))
        # Only a PlusCal algorithm inside a comment holds identifiers.
        for child in node.named_children:
            if child.type == "pcal_algorithm":
                self._push(child, scope, ctx)

    def _string(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        self.strings.append((node.start_byte, node.end_byte))

    # ---- modules and units -----------------------------------------------

    def module(self, node: _Node, parent: Optional[_Scope], acc: _ModuleAcc,
               ctx: Optional[_Ctx] = None) -> None:
        """Walk a ``module`` node (or, for broken input, any container) into ``acc``."""
        base = _Ctx(None, None, False, acc, False) if ctx is None else ctx._replace(
            owner=None, def_index=None, module=acc)
        scope = _Scope(parent)
        name_node = node.child_by_field_name("name") if node.type == "module" else None
        for child in node.named_children:
            if name_node is not None and child.id == name_node.id:
                self._occ(child, "module", "module", base)
            elif child.type not in ("header_line", "single_line", "double_line"):
                self._unit(child, scope, base, "module")

    def _nested_module(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        name_node = node.child_by_field_name("name")
        acc = _ModuleAcc(
            self._text(name_node) if name_node is not None else None,
            (name_node.start_byte, name_node.end_byte) if name_node is not None else None,
            (node.start_byte, node.end_byte),
            any(c.type == "double_line" and not c.is_missing for c in node.children),
        )
        ctx.module.submodules.append(acc)
        self.module(node, scope, acc, ctx)

    def _stray_unit(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        # A unit outside its usual place (inside an ERROR node, say).
        self._unit(node, scope, ctx, "let" if ctx.def_index is not None else "module")

    def _new_definition(self, ctx: _Ctx, name_node: Optional[_Node], node: _Node, kind: str,
                        scope_kind: str, is_local: bool, params: tuple[str, ...] = ()) -> int:
        if name_node is not None:
            name, span = self._text(name_node), (name_node.start_byte, name_node.end_byte)
        else:
            name, span = "", (node.start_byte, node.start_byte)
        line, col = self.lines(span[0])
        defs = ctx.module.definitions
        defs.append(Definition(name, span, line, col, cast(DefinitionKind, kind), params, is_local, False,
                               cast(ScopeKind, scope_kind), ctx.def_index if scope_kind != "module" else None,
                               (node.start_byte, node.end_byte)))
        return len(defs) - 1

    def _unit(self, node: _Node, scope: _Scope, ctx: _Ctx, scope_kind: str,
              is_local: bool = False) -> None:
        """Register the names a unit defines in ``scope`` and queue its body."""
        t = node.type
        if t == "local_definition":
            for child in node.named_children:
                self._unit(child, scope, ctx, scope_kind, is_local=True)
        elif t in ("constant_declaration", "variable_declaration"):
            self._declaration(node, scope, ctx)
        elif t == "recursive_declaration":
            self._recursive_declaration(node, scope, ctx)
        elif t == "operator_definition":
            self._operator_definition(node, scope, ctx, scope_kind, is_local)
        elif t == "function_definition":
            self._function_definition(node, scope, ctx, scope_kind, is_local)
        elif t == "module_definition":
            self._module_definition(node, scope, ctx, scope_kind, is_local)
        elif t == "instance":
            self._instance(node, scope, ctx, scope_kind, is_local)
        elif t in ("theorem", "assumption"):
            self._theorem(node, scope, ctx, scope_kind, is_local)
        elif t == "extends":
            self._extends(node, scope, ctx)
        else:  # nested modules, comments, USE/HIDE, ERROR nodes, ...
            self._push(node, scope, ctx)

    def _declaration(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        """CONSTANT(S) or VARIABLE(S): each declared name (with its arity) and its occurrence."""
        kind: Literal["constant", "variable"] = "constant" if node.type == "constant_declaration" else "variable"
        target = ctx.module.constants if kind == "constant" else ctx.module.variables
        for child in node.named_children:
            name_node, arity = child, 0
            if child.type == "operator_declaration":
                found = child.child_by_field_name("name")
                if found is None:
                    continue
                name_node = found
                arity = sum(1 for c in child.named_children if c.type == "placeholder")
            elif child.type != "identifier":
                self._push(child, scope, ctx)  # comments between names
                continue
            if name_node.type == "identifier":
                self._occ(name_node, "define", kind, ctx, scope=scope)
            line, col = self.lines(name_node.start_byte)
            target.append(Declaration(self._text(name_node),
                                      (name_node.start_byte, name_node.end_byte),
                                      line, col, kind, arity,
                                      (child.start_byte, child.end_byte)))

    def _recursive_declaration(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        """RECURSIVE: the names are marked recursive and defined here until their definition comes."""
        for child in node.named_children:
            if child.type != "operator_declaration":
                continue
            name_node = child.child_by_field_name("name")
            if name_node is None or name_node.type != "identifier":
                continue
            name = self._text(name_node)
            ctx.module.recursive.add((id(scope), name))
            # The definition proper, registered later, takes over the name.
            self._occ(name_node, "define", "recursive", ctx,
                      scope=scope if name not in scope.names else None)

    def _theorem(self, node: _Node, scope: _Scope, ctx: _Ctx, scope_kind: str, is_local: bool) -> None:
        """THEOREM or ASSUME: its name (if any) is a definition; its body is queued."""
        t = node.type
        name_node = node.child_by_field_name("name")
        idx = None
        if name_node is not None:
            self._occ(name_node, "define", t, ctx, scope=scope)
            idx = self._new_definition(ctx, name_node, node, t, scope_kind, is_local)
        owner = ctx.owner
        if name_node is not None and scope_kind == "module":
            owner = self._text(name_node)
        inner = ctx._replace(owner=owner,
                             def_index=idx if idx is not None else ctx.def_index)
        self.stack.append((self._theorem_body, node, scope, inner))

    def _extends(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        """EXTENDS: each module named (an occurrence and an entry of the module's extends)."""
        for child in node.named_children:
            if child.type == "identifier_ref":
                self._occ(child, "module", "extends", ctx)
                ctx.module.extends.append(self._text(child))
            else:
                self._push(child, scope, ctx)

    def _mark_recursive(self, ctx: _Ctx, scope: _Scope, idx: int) -> None:
        d = ctx.module.definitions[idx]
        if (id(scope), d.name) in ctx.module.recursive:
            ctx.module.definitions[idx] = _replace(d, is_recursive=True)

    def _operator_definition(self, node: _Node, scope: _Scope, ctx: _Ctx,
                             scope_kind: str, is_local: bool) -> None:
        name_node = node.child_by_field_name("name")
        params: list[str] = []
        for fname, child in _fields(node):
            if fname == "parameter":
                if child.type == "identifier":
                    params.append(self._text(child))
                elif child.type == "operator_declaration":
                    pn = child.child_by_field_name("name")
                    if pn is not None:
                        params.append(self._text(pn))
        if name_node is not None and (name_node.type == "identifier" or (
                name_node.type in _NUMBER_SETS and self._text(name_node) in _NUMBER_SET_NAMES)):
            self._occ(name_node, "define", "operator", ctx, scope=scope)
        idx = self._new_definition(ctx, name_node, node, "operator", scope_kind, is_local,
                                   tuple(params))
        self._mark_recursive(ctx, scope, idx)
        owner = ctx.module.definitions[idx].name if scope_kind in ("module", "pluscal") \
            else ctx.owner
        self.stack.append((self._operator_body, node, scope,
                           ctx._replace(owner=owner, def_index=idx)))

    def _operator_body(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        inner = _Scope(scope)
        for fname, child in _fields(node):
            if fname == "parameter":
                if child.type == "identifier":
                    self._occ(child, "bind", "parameter", ctx, scope=inner)
                elif child.type == "operator_declaration":
                    pn = child.child_by_field_name("name")
                    if pn is not None and pn.type == "identifier":
                        self._occ(pn, "bind", "parameter", ctx, scope=inner)
            elif fname == "name" or child.type == "def_eq":
                continue
            else:
                self._push(child, inner, ctx)

    def _function_definition(self, node: _Node, scope: _Scope, ctx: _Ctx,
                             scope_kind: str, is_local: bool) -> None:
        name_node = node.child_by_field_name("name")
        params: list[str] = []
        for child in node.named_children:
            if child.type == "quantifier_bound":
                for c in child.named_children:
                    if c.type == "identifier":
                        params.append(self._text(c))
                    elif c.type == "tuple_of_identifiers":
                        params.extend(self._text(i) for i in c.named_children
                                      if i.type == "identifier")
        if name_node is not None:
            self._occ(name_node, "define", "function", ctx, scope=scope)
        idx = self._new_definition(ctx, name_node, node, "function", scope_kind, is_local,
                                   tuple(params))
        owner = ctx.module.definitions[idx].name if scope_kind == "module" else ctx.owner
        self.stack.append((self._function_body, node, scope,
                           ctx._replace(owner=owner, def_index=idx)))

    def _function_body(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        inner = _Scope(scope)
        name_node = node.child_by_field_name("name")
        for child in node.named_children:
            if child.type == "quantifier_bound":
                self._quantifier_bound(child, scope, inner, ctx, "function_parameter")
            elif child.type == "def_eq" or (name_node is not None and child.id == name_node.id):
                continue
            else:
                self._push(child, inner, ctx)

    def _module_definition(self, node: _Node, scope: _Scope, ctx: _Ctx,
                           scope_kind: str, is_local: bool) -> None:
        name_node = node.child_by_field_name("name")
        params: list[str] = []
        for fname, child in _fields(node):
            if fname == "parameter":
                pn: _Node | None = child
                if child.type == "operator_declaration":
                    pn = child.child_by_field_name("name")
                if pn is not None:
                    params.append(self._text(pn))
        raw = None
        if name_node is not None:
            raw = self._occ(name_node, "define", "instance", ctx, scope=scope)
        idx = self._new_definition(ctx, name_node, node, "instance", scope_kind, is_local,
                                   tuple(params))
        inner_ctx = ctx._replace(
            owner=ctx.module.definitions[idx].name if scope_kind == "module" else ctx.owner,
            def_index=idx)
        inner = _Scope(scope)
        for fname, child in _fields(node):
            if fname == "parameter":
                if child.type == "identifier":
                    self._occ(child, "bind", "parameter", inner_ctx, scope=inner)
                elif child.type == "operator_declaration":
                    pn = child.child_by_field_name("name")
                    if pn is not None and pn.type == "identifier":
                        self._occ(pn, "bind", "parameter", inner_ctx, scope=inner)
            elif child.type == "instance":
                target = self._instance(child, inner, inner_ctx, scope_kind, is_local,
                                        name_node=name_node, params=tuple(params))
                if raw is not None and target:
                    self.instance_targets[id(raw)] = target
            elif fname != "name" and child.type != "def_eq":
                self._push(child, inner, inner_ctx)

    def _instance(self, node: _Node, scope: _Scope, ctx: _Ctx, scope_kind: str,
                  is_local: bool, name_node: Optional[_Node] = None,
                  params: tuple[str, ...] = ()) -> Optional[str]:
        module_node = None
        subs: list[Substitution] = []
        for child in node.named_children:
            if child.type == "identifier_ref" and module_node is None:
                module_node = child
                self._occ(child, "module", "instance", ctx)
            elif child.type == "substitution":
                parts = child.named_children
                if not parts:
                    continue
                lhs = parts[0]
                rhs = [p for p in parts[1:] if p.type != "gets"]
                target_module = self._text(module_node) if module_node is not None else None
                if lhs.type == "identifier_ref":
                    self._occ(lhs, "reference", "substitution", ctx, foreign=target_module)
                for p in rhs:
                    self._push(p, scope, ctx)
                if rhs:
                    expr_span = (rhs[0].start_byte, rhs[-1].end_byte)
                else:
                    expr_span = (child.end_byte, child.end_byte)
                expression = self.data[expr_span[0] : expr_span[1]].decode("utf-8", "replace")
                subs.append(Substitution(self._text(lhs), (lhs.start_byte, lhs.end_byte),
                                         expression, expr_span))
            else:
                self._push(child, scope, ctx)
        if module_node is None:
            return None
        module = self._text(module_node)
        ctx.module.instances.append(Instance(
            module, (module_node.start_byte, module_node.end_byte),
            self._text(name_node) if name_node is not None else None,
            (name_node.start_byte, name_node.end_byte) if name_node is not None else None,
            params, tuple(subs), is_local, cast(ScopeKind, scope_kind), (node.start_byte, node.end_byte)))
        return module

    # ---- expressions -----------------------------------------------------

    def _let_in(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        inner = _Scope(scope)
        body: list[_Node] = []
        for fname, child in _fields(node):
            if fname == "expression":
                body.append(child)
            else:
                self._unit(child, inner, ctx, "let")
        for child in body:
            self._push(child, inner, ctx)

    def _binder(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        context = _BINDERS[node.type]
        inner = _Scope(scope)
        for fname, child in _fields(node):
            if child.type == "quantifier_bound":
                self._quantifier_bound(child, scope, inner, ctx, context)
            elif child.type in ("identifier", "tuple_of_identifiers"):
                self._bind_intro(child, inner, ctx, context)
            elif fname == "set":  # CHOOSE x \in S : P -- S is outside x's scope
                self._push(child, scope, ctx)
            elif child.type != "set_in":
                self._push(child, inner, ctx)

    def _stray_quantifier_bound(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        self._quantifier_bound(node, scope, _Scope(scope), ctx, "quantifier")

    def _subscript(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        if node.type == "identifier_ref":
            self._ref(node, scope, ctx, "subscript")
        elif node.type == "tuple_literal":
            for child in node.named_children:
                if child.type == "identifier_ref":
                    self._ref(child, scope, ctx, "subscript")
                else:
                    self._push(child, scope, ctx)
        else:
            self._push(node, scope, ctx)

    def _step_expr(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        # [A]_v and <<A>>_v: the subscript is the last named child.
        named = [c for c in node.named_children
                 if c.type not in ("langle_bracket", "rangle_bracket_sub")]
        if not named:
            return
        for child in named[:-1]:
            self._push(child, scope, ctx)
        self._subscript(named[-1], scope, ctx)

    def _fairness(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        # WF_v(A): the subscript is the first named child (after the WF_ token).
        named = node.named_children
        if not named:
            return
        self._subscript(named[0], scope, ctx)
        for child in named[1:]:
            self._push(child, scope, ctx)

    def _postfix(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        lhs = node.child_by_field_name("lhs")
        symbol = node.child_by_field_name("symbol")
        if lhs is not None and lhs.type == "identifier_ref" and symbol is not None \
                and symbol.type == "prime":
            self._ref(lhs, scope, ctx, "prime")
            return
        self._push_children(node, scope, ctx)

    def _bound_op(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        for fname, child in _fields(node):
            if fname == "name" and child.type == "identifier_ref":
                self._ref(child, scope, ctx, "call")
            else:
                self._push(child, scope, ctx)

    def _record_fields(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        # [f |-> e] and [f : S]: plain identifiers are field names.
        for child in node.named_children:
            if child.type == "identifier":
                self._occ(child, "field", "record", ctx)
            else:
                self._push(child, scope, ctx)

    def _record_value(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        # r.f : the name after the '.' token is a field.
        after_dot = False
        for child in node.children:
            if not child.is_named:
                after_dot = after_dot or child.type == "."
                continue
            if after_dot and child.type in ("identifier_ref", "identifier"):
                self._occ(child, "field", "record", ctx)
                after_dot = False
            else:
                self._push(child, scope, ctx)

    def _except_field(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        for child in node.named_children:
            if child.type in ("identifier_ref", "identifier"):
                self._occ(child, "field", "except", ctx)
            else:
                self._push(child, scope, ctx)

    def _qualified(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        """``M!N!Op(x)``, ``I(3)!Op``, ``Def!1``: M resolves here, the rest via the path."""
        path: list[str] = []
        foreign: Optional[str] = None

        def component(part: _Node, last: bool) -> None:
            nonlocal foreign
            ident = self._component_name(part, scope, ctx)
            if ident is None:
                if part.type != "bound_op":
                    self._push(part, scope, ctx)
                path.append(self._text(part))
                return
            if not path:
                raw = self._ref(ident, scope, ctx, "qualifier")
                if raw is not None and raw.target is not None:
                    foreign = self.instance_targets.get(id(raw.target))
            else:
                self._occ(ident, "reference", "qualified", ctx, via="!".join(path),
                          foreign=foreign if len(path) == 1 else None)
            path.append(self._text(ident))

        for fname, child in _fields(node):
            if child.type == "subexpr_prefix":
                for comp in child.named_children:
                    inner = comp.named_children
                    if comp.type == "subexpr_component" and inner:
                        component(inner[0], False)
                    else:
                        self._push(comp, scope, ctx)
            elif fname == "op" and path:
                component(child, True)
            else:
                self._push(child, scope, ctx)

    def _component_name(self, part: _Node, scope: _Scope, ctx: _Ctx) -> Optional[_Node]:
        """The name a component of ``M!N!Op`` refers by (None for ``1``, ``<<``, ...); a ``bound_op``'s
        arguments are queued as ordinary expressions."""
        if part.type == "identifier_ref" or (
                part.type in _NUMBER_SETS and self._text(part) in _NUMBER_SET_NAMES):
            return part
        if part.type == "bound_op":
            name = part.child_by_field_name("name")
            for fname, child in _fields(part):
                if fname != "name":
                    self._push(child, scope, ctx)
            if name is not None and name.type == "identifier_ref":
                return name
        return None

    def _label(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        for fname, child in _fields(node):
            if fname == "name" and child.type == "identifier":
                self._occ(child, "label", "label", ctx)
            else:
                self._push(child, scope, ctx)

    # ---- theorems and proofs ---------------------------------------------

    def _theorem_body(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        inner = _Scope(scope)
        name_node = node.child_by_field_name("name")
        for fname, child in _fields(node):
            if name_node is not None and child.id == name_node.id or child.type == "def_eq":
                continue
            if child.type == "assume_prove":
                # NEW names of the statement are visible in the proof.
                self._assume_prove(child, inner, ctx)
            else:
                self._push(child, inner, ctx)

    def _assume_prove(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        for child in node.named_children:
            if child.type == "new":
                self._new(child, scope, ctx)
            else:
                self._push(child, scope, ctx)

    def _nested_assume_prove(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        self._assume_prove(node, _Scope(scope), ctx)

    def _new(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        for child in node.named_children:
            if child.type == "identifier":
                self._occ(child, "bind", "new", ctx, scope=scope)
            elif child.type == "operator_declaration":
                pn = child.child_by_field_name("name")
                if pn is not None and pn.type == "identifier":
                    self._occ(pn, "bind", "new", ctx, scope=scope)
            elif child.type not in ("set_in", "statement_level"):
                self._push(child, scope, ctx)

    def _new_stray(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        self._new(node, scope, ctx)

    def _proof(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        # Names a step introduces (PICK, TAKE, DEFINE, SUFFICES ASSUME NEW)
        # are visible in its own proof and in the later steps.
        current = scope
        for child in node.named_children:
            if child.type in ("proof_step", "qed_step"):
                current = _Scope(current)
                self._proof_step(child, current, ctx)
            else:
                self._push(child, current, ctx)

    def _proof_step(self, step: _Node, scope: _Scope, ctx: _Ctx) -> None:
        for child in step.named_children:
            t = child.type
            if t == "proof_step_id":
                continue
            if t in ("pick_proof_step", "take_proof_step"):
                context = "pick" if t == "pick_proof_step" else "take"
                for c in child.named_children:
                    if c.type == "quantifier_bound":
                        self._quantifier_bound(c, scope, scope, ctx, context)
                    elif c.type in ("identifier", "tuple_of_identifiers"):
                        self._bind_intro(c, scope, ctx, context)
                    else:
                        self._push(c, scope, ctx)
            elif t == "definition_proof_step":
                for c in child.named_children:
                    self._unit(c, scope, ctx, "proof")
            else:
                for c in child.named_children:
                    if c.type == "assume_prove":
                        self._assume_prove(c, scope, ctx)
                    else:
                        self._push(c, scope, ctx)

    # ---- PlusCal -----------------------------------------------------------

    def _pcal(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        ctx = ctx._replace(pluscal=True)
        acc = ctx.module
        alg = _Scope(scope)
        labels = self._pcal_labels(node, ctx)  # labels first: a goto may jump forward
        name_node = node.child_by_field_name("name")
        if name_node is not None:
            self._occ(name_node, "define", "algorithm", ctx)
        start = node.children[0] if node.children else node
        fair = self._text(start).lstrip().startswith("--fair")
        variables: list[Name] = []
        macros: list[Name] = []
        procedures: list[Name] = []
        processes: list[Name] = []
        definitions: list[Name] = []
        for child in node.named_children:
            t = child.type
            if t == "pcal_var_decls":
                variables.extend(self._pcal_var_decls(child, alg, alg, ctx))
            elif t == "pcal_definitions":
                for c in child.named_children:
                    before = len(acc.definitions)
                    self._unit(c, alg, ctx, "pluscal")
                    definitions.extend(Name(d.name, d.span, d.line, d.column)
                                       for d in acc.definitions[before:])
            elif t == "pcal_macro":
                macros.extend(self._pcal_macro(child, alg, ctx))
            elif t == "pcal_procedure":
                procedures.extend(self._pcal_procedure(child, alg, ctx))
            elif t == "pcal_process":
                processes.extend(self._pcal_process(child, alg, ctx))
            elif t == "pcal_algorithm_start" or (
                    name_node is not None and child.id == name_node.id):
                continue
            else:
                self._push(child, alg, ctx)
        # The span starts at "--" (the node may include leading blanks).
        text = self.data[node.start_byte:node.end_byte]
        lead = len(text) - len(text.lstrip())
        after = b""
        if name_node is not None:
            after = self.data[name_node.end_byte : node.end_byte].lstrip()
        if acc.pluscal is None:
            acc.pluscal = PlusCalBlock(
                (node.start_byte + lead, node.end_byte),
                self._text(name_node) if name_node is not None else None,
                (name_node.start_byte, name_node.end_byte) if name_node is not None else None,
                fair, "c" if after.startswith(b"{") else "p", True,
                tuple(variables), tuple(labels), tuple(macros), tuple(procedures),
                tuple(processes), tuple(definitions), node.has_error)

    def _pcal_labels(self, node: _Node, ctx: _Ctx) -> list[Name]:
        """Every label of the algorithm, registered in ``pcal_labels`` (the first of a name wins), in
        source order."""
        self.pcal_labels = {}
        labels: list[Name] = []
        walk = [node]
        while walk:
            n = walk.pop()
            for fname, child in _fields(n):
                if fname == "label" and child.type == "identifier":
                    raw = self._occ(child, "label", "pluscal_label", ctx)
                    if raw is not None:
                        self.pcal_labels.setdefault(raw.text, raw)
                        labels.append(self._name(child))
                elif child.child_count:
                    walk.append(child)
        labels.sort(key=lambda n: n.span)
        return labels

    def _name(self, node: _Node) -> Name:
        line, col = self.lines(node.start_byte)
        return Name(self._text(node), (node.start_byte, node.end_byte), line, col)

    def _pcal_var_decls(self, node: _Node, into: _Scope, outer: _Scope, ctx: _Ctx,
                        context: str = "pluscal_variable") -> list[Name]:
        names: list[Name] = []
        single = node.type in ("pcal_var_decl", "pcal_proc_var_decl")
        decls = [node] if single else node.named_children
        for decl in decls:
            if decl.type not in ("pcal_var_decl", "pcal_proc_var_decl"):
                self._push(decl, outer, ctx)
                continue
            first = True
            for child in decl.named_children:
                if first and child.type == "identifier":
                    self._occ(child, "define", context, ctx, scope=into)
                    names.append(self._name(child))
                elif child.type != "set_in":
                    self._push(child, outer, ctx)
                first = False
        return names

    def _pcal_macro(self, node: _Node, alg: _Scope, ctx: _Ctx) -> list[Name]:
        inner = _Scope(alg)
        names: list[Name] = []
        for child in node.named_children:
            if child.type == "pcal_macro_decl":
                for fname, c in _fields(child):
                    if fname == "name":
                        self._occ(c, "define", "macro", ctx, scope=alg)
                        names.append(self._name(c))
                    elif c.type == "identifier":
                        self._occ(c, "bind", "parameter", ctx, scope=inner)
        owner = names[0].name if names else ctx.owner
        for child in node.named_children:
            if child.type != "pcal_macro_decl":
                self._push(child, inner, ctx._replace(owner=owner))
        return names

    def _pcal_procedure(self, node: _Node, alg: _Scope, ctx: _Ctx) -> list[Name]:
        inner = _Scope(alg)
        names: list[Name] = []
        for child in node.named_children:
            if child.type == "pcal_proc_decl":
                for fname, c in _fields(child):
                    if fname == "name":
                        self._occ(c, "define", "procedure", ctx, scope=alg)
                        names.append(self._name(c))
                    elif c.type == "pcal_proc_var_decl":
                        self._pcal_var_decls(c, inner, alg, ctx, "pluscal_parameter")
                    elif c.type == "pcal_proc_var_decls":
                        self._pcal_var_decls(c, inner, alg, ctx)
                    else:
                        self._push(c, alg, ctx)
        owner = names[0].name if names else ctx.owner
        for child in node.named_children:
            if child.type != "pcal_proc_decl":
                self._push(child, inner, ctx._replace(owner=owner))
        return names

    def _pcal_process(self, node: _Node, alg: _Scope, ctx: _Ctx) -> list[Name]:
        inner = _Scope(alg)
        names: list[Name] = []
        name_node = node.child_by_field_name("name")
        if name_node is not None:
            self._occ(name_node, "define", "process", ctx, scope=alg)
            names.append(self._name(name_node))
        owner = names[0].name if names else ctx.owner
        for child in node.named_children:
            if name_node is not None and child.id == name_node.id or child.type == "set_in":
                continue
            if child.type == "pcal_var_decls":
                self._pcal_var_decls(child, inner, inner, ctx)
            elif child.type == "pcal_algorithm_body":
                self._push(child, inner, ctx._replace(owner=owner))
            else:
                self._push(child, alg, ctx)
        return names

    def _pcal_lhs(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        # x[i].f := ... : x is the variable, plain identifiers are fields.
        first = True
        for child in node.named_children:
            if first and child.type == "identifier_ref":
                self._ref(child, scope, ctx, "assign")
            elif child.type == "identifier":
                self._occ(child, "field", "record", ctx)
            else:
                self._push(child, scope, ctx)
            first = False

    def _pcal_with(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        inner = _Scope(scope)
        for child in node.named_children:
            if child.type == "identifier":
                self._occ(child, "bind", "with", ctx, scope=inner)
            elif child.type != "set_in":
                self._push(child, inner, ctx)

    def _pcal_call(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        for fname, child in _fields(node):
            if fname == "name" and child.type in ("identifier", "identifier_ref"):
                self._ref(child, scope, ctx, "call")
            else:
                self._push(child, scope, ctx)

    def _pcal_goto(self, node: _Node, scope: _Scope, ctx: _Ctx) -> None:
        for child in node.named_children:
            if child.type in ("identifier", "identifier_ref"):
                self._occ(child, "reference", "goto", ctx,
                          target=self.pcal_labels.get(self._text(child)))
            else:
                self._push(child, scope, ctx)


def _replace(d: Definition, **changes: object) -> Definition:
    return dataclasses.replace(d, **changes)  # type: ignore[arg-type]


# --------------------------------------------------------------------------
# Assembling results
# --------------------------------------------------------------------------


def _collect_issues(root: _Node, lines: _Lines, lo: int, hi: int) -> list[SyntaxIssue]:
    issues: list[SyntaxIssue] = []
    if not root.has_error:
        return issues
    walk = [root]
    while walk:
        node = walk.pop()
        if node.start_byte >= hi or node.end_byte < lo:
            continue
        # Clamp to the module: a footer we appended is not the author's text.
        span = (min(node.start_byte, hi), min(node.end_byte, hi))
        if node.is_missing:
            line, col = lines(span[0])
            issues.append(SyntaxIssue("missing", span, line, col, f"missing {node.type!r}"))
        elif node.is_error:
            line, col = lines(span[0])
            issues.append(SyntaxIssue("error", span, line, col, "syntax error"))
            # inner errors add nothing a reader needs
        if node.has_error and not node.is_error:
            walk.extend(reversed(node.children))
    issues.sort(key=lambda i: i.span)
    return issues


def _outermost(spans: list[Span]) -> tuple[Span, ...]:
    out: list[Span] = []
    for span in sorted(set(spans), key=lambda s: (s[0], -s[1])):
        if out and span[0] >= out[-1][0] and span[1] <= out[-1][1]:
            continue
        out.append(span)
    return tuple(out)


def _freeze_occurrences(raws: list[_Raw], lines: _Lines) -> dict[int, Occurrence]:
    frozen: dict[int, Occurrence] = {}

    def make(raw: _Raw, target: Optional[Occurrence]) -> Occurrence:
        line, col = lines(raw.start)
        return Occurrence(raw.text, (raw.start, raw.end), line, col,
                          raw.role,  # type: ignore[arg-type]
                          raw.context, target, raw.via, raw.foreign, raw.owner,
                          raw.module, raw.pluscal)

    # Targets are define/bind/label occurrences, which never have targets.
    for raw in raws:
        if raw.target is None:
            frozen[id(raw)] = make(raw, None)
    for raw in raws:
        if raw.target is not None:
            target = frozen.get(id(raw.target))
            if target is None:  # defensive: a target outside what was frozen
                target = frozen[id(raw.target)] = make(raw.target, None)
            frozen[id(raw)] = make(raw, target)
    return frozen


def _assemble(acc: _ModuleAcc, builder: _Builder, frozen: dict[int, Occurrence],
              issues: list[SyntaxIssue], data: bytes) -> ModuleSyntax:
    lo, hi = acc.span

    def inside(span: Span) -> bool:
        return lo <= span[0] and span[1] <= hi

    occs = tuple(sorted((frozen[id(r)] for r in builder.raws if lo <= r.start and r.end <= hi),
                        key=lambda o: o.span))
    # Definitions were collected in walk order (LET bodies late): sort them
    # by position and renumber the parent links.
    order = sorted(range(len(acc.definitions)), key=lambda i: acc.definitions[i].span)
    new_index = {old: new for new, old in enumerate(order)}
    definitions = tuple(
        _replace(acc.definitions[i],
                 parent=None if (parent := acc.definitions[i].parent) is None
                 else new_index[parent])
        for i in order)
    return ModuleSyntax(
        name=acc.name,
        name_span=acc.name_span,
        span=acc.span,
        complete=acc.complete,
        extends=tuple(acc.extends),
        instances=tuple(acc.instances),
        constants=tuple(acc.constants),
        variables=tuple(acc.variables),
        definitions=definitions,
        occurrences=occs,
        comments=_outermost([s for s in builder.comments if inside(s)]),
        strings=tuple(sorted(s for s in set(builder.strings) if inside(s))),
        pluscal=acc.pluscal,
        errors=tuple(i for i in issues if lo <= i.span[0] <= hi or i.kind == "no_module"),
        submodules=tuple(
            _assemble(sub, builder, frozen,
                      [i for i in issues if sub.span[0] <= i.span[0] < sub.span[1]], data)
            for sub in acc.submodules),
        source=data,
    )


def _empty(data: bytes, name: Optional[str], message: str) -> ModuleSyntax:
    return ModuleSyntax(name, None, (0, len(data)), False, (), (), (), (), (), (), (), (),
                        None, (SyntaxIssue("no_module", (0, 0), 1, 1, message),), (), data)


def _tree_past_broken_comments(buf: bytes) -> tuple[tree_sitter.Tree, tree_sitter.Tree | None, list[Span]]:
    """``buf``'s tree, and where it has errors, the tree of ``buf`` with the inside of its block comments
    blanked (offsets kept) when that one has none: ``(tree to read, the original tree, the blanked
    spans)``; the original is None when it is the one to read. tree-sitter-tlaplus parses a PlusCal
    algorithm inside a comment, and a malformed one (C and P syntax mixed) can swallow every definition
    after it, which SANY, reading the comment as a comment, accepts."""
    tree = parse_tree(buf)
    if not tree.root_node.has_error or b"(*" not in buf:
        return tree, None, []
    text = buf.decode("latin-1")  # one character per byte: the spans are byte offsets
    pieces, pos, blanked_spans = [], 0, []
    for start, end in comment_spans(text):
        if text.startswith("(*", start) and text.endswith("*)", start, end) and end - start >= 4:
            # The comment stays a comment where it was (its text is read from the source: PlusCal
            # found by text, comments listed); only what is inside it is not parsed.
            pieces += [text[pos:start + 2], re.sub(r"[^\n]", " ", text[start + 2:end - 2])]
            pos = end - 2
            blanked_spans.append((start, end))
    blanked = parse_tree(("".join(pieces) + text[pos:]).encode("latin-1"))
    return (tree, None, []) if blanked.root_node.has_error else (blanked, tree, blanked_spans)


def _parse_region(data: bytes, lines: _Lines, region: Optional[ModuleSpan]) -> ModuleSyntax:
    """Parse one module region (or, with ``region=None``, headerless text)."""
    if region is None:
        buf = data
        lo, hi = 0, len(data)
    else:
        lo, hi = region.start, region.end
        # Blank out text before the module (keeping offsets and newlines) and
        # drop what follows it, so nothing else can disturb the parse.
        head = re.sub(rb"[^\n]", b" ", data[:lo])
        buf = head + data[lo:hi]
        if not region.complete:
            buf += b"\n====\n"
    tree, original, blanked = _tree_past_broken_comments(buf)
    root = tree.root_node
    module_node = next((c for c in root.named_children
                        if c.type == "module" and c.start_byte >= lo), None)
    issues: list[SyntaxIssue] = []
    if region is None:
        issues.append(SyntaxIssue("no_module", (0, 0), 1, 1,
                                  "no '---- MODULE Name ----' header"))
    elif not region.complete:
        line, col = lines(hi)
        issues.append(SyntaxIssue("missing_footer", (hi, hi), line, col,
                                  f"module {region.name} has no '====' footer"))
    issues.extend(_collect_issues(root, lines, lo, hi))
    if original is not None:  # the errors inside the comments the tree read past (PlusCal's, tagged below)
        issues.extend(issue for issue in _collect_issues(original.root_node, lines, lo, hi)
                      if any(start <= issue.span[0] and issue.span[1] <= end for start, end in blanked))

    builder = _Builder(data, lines)
    if module_node is not None:
        name_node = module_node.child_by_field_name("name")
        acc = _ModuleAcc(
            data[name_node.start_byte:name_node.end_byte].decode("utf-8", "replace")
            if name_node is not None else (region.name if region else None),
            (name_node.start_byte, name_node.end_byte) if name_node is not None else None,
            (lo, hi) if region is not None else (module_node.start_byte, module_node.end_byte),
            region.complete if region is not None else False,
        )
        builder.module(module_node, None, acc)
    else:
        # No module node (badly broken text, or a headerless snippet): walk
        # whatever the parser recovered as if it were the module body.
        acc = _ModuleAcc(region.name if region else None, None, (lo, hi),
                         region.complete if region is not None else False)
        if region is not None:
            m = re.compile(rb"MODULE[ \t\r\n]+([A-Za-z0-9_]+)").search(data, lo, hi)
            if m is not None:
                acc.name_span = (m.start(1), m.end(1))
        builder.module(root, None, acc, _Ctx(None, None, False, acc, root.has_error))
    builder.run()
    if acc.pluscal is None:
        acc.pluscal = unparsed_pluscal(data, lo, hi, builder.comments)
    if acc.pluscal is not None:
        issues = tag_pluscal_issues(issues, data, acc.pluscal.span)
    frozen = _freeze_occurrences(builder.raws, lines)
    return _assemble(acc, builder, frozen, issues, data)


#: Texts whose parses a process keeps: a grade reads the same output and reference modules many
#: times (staging, names, mappings, the guard), and every result is frozen, so it can be shared.
PARSE_CACHE_SIZE = 256


def parse_modules(source: str | bytes) -> list[ModuleSyntax]:
    """Every top-level module of ``source``, in order (text around them is skipped).

    Text with no module header at all is parsed as one headerless module
    (``name=None``) with a ``no_module`` issue.
    """
    return list(_parse_modules(source))


@functools.lru_cache(maxsize=PARSE_CACHE_SIZE)
def _parse_modules(source: str | bytes) -> tuple[ModuleSyntax, ...]:
    data = _as_bytes(source)
    lines = _Lines(data)
    regions = _scan_modules(data)
    if not regions:
        return (_parse_region(data, lines, None),)
    return tuple(_parse_region(data, lines, r) for r in regions)


@functools.lru_cache(maxsize=PARSE_CACHE_SIZE)
def parse_module(source: str | bytes, name: Optional[str] = None) -> ModuleSyntax:
    """Syntax facts of one module of ``source`` (a file or an LLM's output).

    With ``name``, the top-level module of that name (or, failing that, a
    nested one); otherwise the first module.  Never raises: text without the
    requested module gives a ``ModuleSyntax`` with ``name=None`` and a
    ``no_module`` issue.
    """
    data = _as_bytes(source)
    lines = _Lines(data)
    regions = _scan_modules(data)
    if not regions:
        return _parse_region(data, lines, None)
    if name is None:
        return _parse_region(data, lines, regions[0])
    for region in regions:
        if region.name == name:
            return _parse_region(data, lines, region)
    for region in regions:
        found = _find_submodule(_parse_region(data, lines, region), name)
        if found is not None:
            return found
    return _empty(data, None, f"no module named {name!r}")


def _find_submodule(mod: ModuleSyntax, name: str) -> Optional[ModuleSyntax]:
    for sub in mod.submodules:
        if sub.name == name:
            return sub
        found = _find_submodule(sub, name)
        if found is not None:
            return found
    return None


# --------------------------------------------------------------------------
# PlusCal location
# --------------------------------------------------------------------------



def pluscal_block(text: str | bytes) -> Optional[Span]:
    """Where the PlusCal algorithm of ``text`` lies, or None.

    The span runs from ``--algorithm`` (or ``--fair algorithm``) to the end
    of ``end algorithm`` (P-syntax) or the closing brace (C-syntax), in the
    units of ``text`` (characters for ``str``, bytes for ``bytes``).  Uses the
    tree-sitter parse when it recognises the algorithm and a textual search
    otherwise.
    """
    data = _as_bytes(text)
    if not _PCAL_START.search(data):
        return None
    span: Optional[Span] = None
    for mod in parse_modules(data):
        if mod.pluscal is not None:
            span = mod.pluscal.span
            break
    if span is None:
        span = textual_pluscal_span(data)
    if span is None or isinstance(text, bytes):
        return span
    a, b = _byte_to_char_offsets(data, [span[0], span[1]])
    return (a, b)
