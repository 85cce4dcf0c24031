"""Mutants of a reference spec: negative controls for the behavior-based grade (paper, Appendix J).

A mutation makes one small change to the *behavior* part of the main module:

* ``number``      a numeric literal changed by +1 or -1 (never below 0);
* ``comparison``  ``<`` <-> ``<=``, ``>`` <-> ``>=``, and ``=`` <-> ``#`` where both sides are unprimed
                  and the comparison is not in ``Init`` (there ``x = v`` *defines* the initial value, so
                  ``x # v`` only asks TLC to enumerate an infinite set);
* ``init_string`` a string literal in ``Init`` replaced by another string of the module (or a fresh one);
* ``conjunct``    a conjunct that mentions primed variables (or ``UNCHANGED``) deleted from an action;
* ``guard``       a conjunct without primes (an enabling condition) deleted from an action;
* ``disjunct``    a disjunct deleted from the next-state relation.

Where mutations happen: only in ``Init``, in ``Next`` and in the *actions* reachable from ``Next``
(module-level definitions whose body is action-level: it holds a prime or ``UNCHANGED``).  State
predicates shared with invariants (``Procs == 1..N``), the definitions the cfg checks (invariants,
properties, constraints, ...), the temporal formula and ``ASSUME`` are never touched, nor are
imported modules, except that an MC-style main module without actions has the first module of its
EXTENDS chain that has them mutated instead (:meth:`Mutant.output_text` then writes the mutant as
one module).  Edits are made on byte spans of tree-sitter nodes that are code: comments are
never edited, and strings only by ``init_string``.  A deletion that would also delete a comment is
skipped.

Which mutants count (:func:`keep_mutant`): the paper keeps a mutant "only if TLC reports a
different number of distinct reachable states".  We follow that literally: SANY must accept the
mutant, and TLC runs with the reference cfg *minus* its INVARIANT, PROPERTY and POSTCONDITION
sections and with deadlock checking off (:func:`behavior_cfg`), so that an invariant violation or a
deadlock does not stop the search early; the mutant is kept when that run finishes (status ``ok``)
with a distinct-state count other than the reference's under the same settings.  As in the paper, a
reference with control-label variables (PlusCal's ``pc``, :func:`.labels.label_variables`) has its
states and its mutants' counted on the data variables only: a mutant that only renames or reorders
control steps is not kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator, Mapping

import tree_sitter

from ..tla.cfg import CfgError, parse_cfg, render_cfg
from ..tla.runner import TlaTools
from ..tla.specfiles import SpecFiles
from ..tla.syntax import parse_module, parse_tree
from .labels import label_variables
from .mapping import extended_syntaxes
from .refinement import renamed_module, with_definitions

__all__ = [
    "Mutant",
    "MutantCheck",
    "MUTANT_KINDS",
    "generate_mutants",
    "behavior_cfg",
    "reference_distinct",
    "check_mutant",
    "keep_mutant",
]

MUTANT_KINDS = ("number", "comparison", "init_string", "conjunct", "guard", "disjunct")

Node = tree_sitter.Node

# Comparison flips: operator node type -> replacement text.
_FLIP = {"lt": "<=", "leq": "<", "gt": ">=", "geq": ">", "eq": "#", "neq": "="}
# cfg sections that hold what TLC checks (rather than what it explores).
# (What TLC prints or checks at the end too: a jar that predates them could not run the mutants.)
_CHECK_SECTIONS = ("INVARIANT", "PROPERTY", "POSTCONDITION", "ALIAS", "_PERIODIC", "_POSSIBLE", "_RL_REWARD")
# cfg sections whose definitions must never be mutated.
_PROTECTED_SECTIONS = ("invariants", "properties", "constraints", "action_constraints")


@dataclass(frozen=True)
class Mutant:
    """One mutant: what changed (``kind``, ``description``), the spec's modules, the 1-based line.

    ``main`` and ``cfg`` are the reference's, carried along so the mutant can be model-checked.
    """

    kind: str
    description: str
    modules: Mapping[str, str] = field(hash=False)
    line: int
    main: str = ""
    cfg: str | None = None
    module: str = ""  # the module the mutation changed (``main``, or a module main EXTENDS)

    def output_text(self) -> str:
        """The mutant as one module named like ``main``, as an output would be written: when the
        mutation is in a module ``main`` EXTENDS, that module (renamed) with ``main``'s own
        definitions added, so grading cannot pick up the unmutated module staged beside it."""
        if not self.module or self.module == self.main:
            return self.modules[self.main]
        outer = parse_module(self.modules[self.main], self.main)
        source = outer.source
        own = "\n".join(source[d.extent[0]:d.extent[1]].decode("utf-8", "replace")
                        for d in outer.definitions if d.scope == "module")
        extra = [m for m in outer.extends if m != self.module]
        text = renamed_module(self.modules[self.module], self.main)
        if extra:
            inner = parse_module(text, self.main)
            if inner.extends:
                text = re.sub(r"\bEXTENDS\b", "EXTENDS " + ", ".join(extra) + ",", text, count=1)
            else:
                text = re.sub(r"(-{4,}[^\n]*MODULE[^\n]*\n)", lambda m: m.group(1) + "EXTENDS " + ", ".join(extra)
                              + "\n", text, count=1)
        return with_definitions(text, own + "\n") if own else text


@dataclass(frozen=True)
class _Edit:
    kind: str
    start: int
    end: int
    replacement: bytes
    description: str


# --------------------------------------------------------------------------- tree helpers


def _walk(node: Node) -> Iterator[Node]:
    """Every node below ``node`` (pre-order), not descending into comments."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        if "comment" not in current.type:
            stack.extend(reversed(current.children))


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def _has_prime(node: Node) -> bool:
    """Whether ``node`` is action-level: it holds a prime or ``UNCHANGED``."""
    return any(n.type in ("prime", "unchanged") for n in _walk(node))


def _has_comment(node: Node) -> bool:
    return any("comment" in n.type for n in _walk(node))


def _definitions(module: Node) -> dict[str, Node]:
    """Module-level operator definitions by name (body is the last named child)."""
    defs: dict[str, Node] = {}
    for child in module.named_children:
        if child.type == "operator_definition":
            name = child.child_by_field_name("name")
            if name is not None:
                defs.setdefault(_text(name), child)
    return defs


def _body(definition: Node) -> Node:
    return definition.named_children[-1]


def _refs(node: Node) -> set[str]:
    return {_text(n) for n in _walk(node) if n.type == "identifier_ref"}


def _chain(node: Node, op: str) -> list[Node]:
    """Operands of a maximal left/right chain of infix ``op`` (``land``/``lor``) rooted at ``node``."""
    if node.type == "bound_infix_op" and len(node.named_children) == 3 and node.named_children[1].type == op:
        left, _, right = node.named_children
        return _chain(left, op) + _chain(right, op)
    return [node]


def _is_chain_root(node: Node, op: str) -> bool:
    if node.type != "bound_infix_op" or len(node.named_children) != 3 or node.named_children[1].type != op:
        return False
    parent = node.parent
    return not (parent is not None and parent.type == "bound_infix_op"
                and len(parent.named_children) == 3 and parent.named_children[1].type == op)


# --------------------------------------------------------------------------- which definitions


def _init_next(cfg_text: str | None, defs: dict[str, Node]) -> tuple[str | None, str | None]:
    """Names of the initial predicate and next-state relation, from the cfg or its SPECIFICATION."""
    init = nxt = spec = None
    if cfg_text is not None:
        try:
            cfg = parse_cfg(cfg_text)
            init, nxt, spec = cfg.init, cfg.next, cfg.specification
        except CfgError:
            pass
    if spec is not None and spec in defs and (init is None or nxt is None):
        body = _body(defs[spec])
        for node in _walk(body):
            # [][Next]_vars: the step expression's first operand names Next.
            if node.type == "step_expr_or_stutter" and nxt is None:
                inner = node.named_children[0] if node.named_children else None
                if inner is not None and inner.type == "identifier_ref":
                    nxt = _text(inner)
        if init is None:
            # Init /\ [][Next]_v /\ ...: the first conjunct that names a definition is Init.
            if body.type == "conj_list":
                operands = [c.named_children[-1] for c in body.named_children if c.type == "conj_item"]
            else:
                operands = _chain(body, "land")
            init = next((_text(o) for o in operands if o.type == "identifier_ref" and _text(o) in defs), None)
    # Conventional names as a fallback (a cfg without SPECIFICATION/INIT/NEXT is unusual).
    return init or ("Init" if "Init" in defs else None), nxt or ("Next" if "Next" in defs else None)


def _protected(cfg_text: str | None) -> set[str]:
    names: set[str] = set()
    if cfg_text is None:
        return names
    try:
        cfg = parse_cfg(cfg_text)
    except CfgError:
        return names
    for section in _PROTECTED_SECTIONS:
        names.update(getattr(cfg, section))
    for single in (cfg.specification, cfg.symmetry, cfg.view, cfg.alias, cfg.postcondition):
        if single is not None:
            names.add(single)
    return names


def _actions(nxt: str, defs: dict[str, Node], protected: set[str]) -> list[str]:
    """``nxt`` and the action-level definitions reachable from it, in source order."""
    seen = {nxt}
    pending = [nxt]
    while pending:
        for ref in sorted(_refs(_body(defs[pending.pop()]))):
            if ref in defs and ref not in seen and ref not in protected:
                seen.add(ref)
                pending.append(ref)
    found = [n for n in seen if n == nxt or _has_prime(_body(defs[n]))]
    return sorted(found, key=lambda n: defs[n].start_byte)


# --------------------------------------------------------------------------- edits


def _numbers(name: str, body: Node) -> Iterator[_Edit]:
    for node in _walk(body):
        if node.type == "nat_number":
            value = int(_text(node))
            for new in (value + 1, value - 1):
                if new >= 0:
                    yield _Edit("number", node.start_byte, node.end_byte, str(new).encode(),
                                f"{name}: {value} -> {new} at byte {node.start_byte}")


def _comparisons(name: str, body: Node, is_init: bool) -> Iterator[_Edit]:
    for node in _walk(body):
        if node.type != "bound_infix_op" or len(node.named_children) != 3:
            continue
        left, op, right = node.named_children
        if op.type not in _FLIP:
            continue
        if op.type in ("eq", "neq") and (is_init or _has_prime(left) or _has_prime(right)):
            continue  # x' = e assigns and Init's x = v initializes: # there only makes TLC fail
        new = _FLIP[op.type]
        yield _Edit("comparison", op.start_byte, op.end_byte, new.encode(),
                    f"{name}: {_text(op)} -> {new} in {_text(node)}")


def _init_strings(name: str, body: Node, strings: list[str]) -> Iterator[_Edit]:
    for node in _walk(body):
        if node.type == "string":
            old = _text(node)
            others = [s for s in strings if s != old]
            # The next string of the module in sorted order, so the choice is deterministic.
            new = next((s for s in others if s > old), others[0] if others else old[:-1] + '_x"')
            yield _Edit("init_string", node.start_byte, node.end_byte, new.encode(),
                        f"{name}: {old} -> {new}")


def _deletion(data: bytes, node: Node) -> tuple[int, int]:
    """Bytes to delete to remove ``node``: its whole line(s) when nothing else shares them."""
    start, end = node.start_byte, node.end_byte
    line_start = data.rfind(b"\n", 0, start) + 1
    line_end = data.find(b"\n", end)
    line_end = len(data) if line_end < 0 else line_end
    if not data[line_start:start].strip() and not data[end:line_end].strip():
        return line_start, min(line_end + 1, len(data))
    return start, end


def _bullet_items(body: Node, list_type: str, item_type: str) -> Iterator[Node]:
    """Items of every bullet list of ``list_type`` with at least two items."""
    for node in _walk(body):
        if node.type == list_type:
            items = [c for c in node.named_children if c.type == item_type]
            if len(items) >= 2:
                yield from items


def _junct_edits(data: bytes, name: str, body: Node, list_type: str, item_type: str, op: str,
                 classify: bool) -> Iterator[_Edit]:
    """Deletions of one item of each bullet list and one operand of each infix chain."""
    word = "conjunct" if op == "land" else "disjunct"
    symbol = " /\\ " if op == "land" else " \\/ "

    def kind(node: Node) -> str:
        if not classify:
            return word
        return "conjunct" if _has_prime(node) else "guard"

    for item in _bullet_items(body, list_type, item_type):
        if _has_comment(item):
            continue
        start, end = _deletion(data, item)
        expr = item.named_children[-1]
        yield _Edit(kind(expr), start, end, b"", f"{name}: delete {word} {_text(expr)}")
    for node in _walk(body):
        if not _is_chain_root(node, op):
            continue
        if _has_comment(node):
            continue  # rebuilding the chain from its operands would drop the comment
        operands = _chain(node, op)
        for i, operand in enumerate(operands):
            rest = operands[:i] + operands[i + 1:]
            new = symbol.join(_text(o) for o in rest)
            yield _Edit(kind(operand), node.start_byte, node.end_byte, new.encode(),
                        f"{name}: delete {word} {_text(operand)}")


def _line(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


# --------------------------------------------------------------------------- public API


def generate_mutants(modules: Mapping[str, str], main: str, cfg_text: str | None,
                     limit: int = 40) -> list[Mutant]:
    """Mutants of ``modules[main]`` (see the module docstring), deterministic and sorted by position.

    An MC-style main module that only binds the model (``MCNode == {...}``) and EXTENDS the module
    with the actions has nothing to mutate: the first module of its EXTENDS chain that has gives
    the mutants instead. With more than ``limit`` candidates, kinds take turns (each in source
    order), so the kept ``limit`` mutants still cover every kind that has any.
    """
    names = [main] + [s.name for s in extended_syntaxes(modules, main)[1:] if s.name is not None and s.name in modules]
    for name in names:
        data = modules[name].encode("utf-8")
        edits = _edits(data, cfg_text)
        if not edits:
            continue
        candidates: list[Mutant] = []
        seen: set[bytes] = set()
        for edit in sorted(edits, key=lambda e: (e.start, e.end, e.kind, e.description)):
            new = data[:edit.start] + edit.replacement + data[edit.end:]
            if new == data or new in seen:
                continue
            seen.add(new)
            texts = dict(modules)
            texts[name] = new.decode("utf-8")
            candidates.append(Mutant(edit.kind, edit.description, texts, _line(data, edit.start), main, cfg_text,
                                     name))
        return _select(candidates, limit)
    return []


def _edits(data: bytes, cfg_text: str | None) -> list[_Edit]:
    """The mutations of one module's Init and Next actions."""
    tree = parse_tree(data)
    module = next((c for c in tree.root_node.named_children if c.type == "module"), None)
    if module is None:
        return []
    defs = _definitions(module)
    protected = _protected(cfg_text)
    init, nxt = _init_next(cfg_text, defs)
    strings = sorted({_text(n) for n in _walk(module) if n.type == "string"})

    edits: list[_Edit] = []
    if init is not None and init in defs and init not in protected:
        body = _body(defs[init])
        edits += _numbers(init, body)
        edits += _comparisons(init, body, True)
        edits += _init_strings(init, body, strings)
    if nxt is not None and nxt in defs and nxt not in protected:
        for action in _actions(nxt, defs, protected):
            if action == init:
                continue
            body = _body(defs[action])
            edits += _numbers(action, body)
            edits += _comparisons(action, body, False)
            if action == nxt:
                edits += _junct_edits(data, action, body, "disj_list", "disj_item", "lor", False)
            edits += _junct_edits(data, action, body, "conj_list", "conj_item", "land", True)
    return edits


def _select(candidates: list[Mutant], limit: int) -> list[Mutant]:
    """At most ``limit`` mutants, kinds taking turns; the result sorted by (line, kind, description)."""
    by_kind: dict[str, list[Mutant]] = {}
    for m in candidates:
        by_kind.setdefault(m.kind, []).append(m)
    chosen: list[Mutant] = []
    queues = [by_kind[k] for k in sorted(by_kind)]
    while len(chosen) < limit and any(queues):
        for queue in queues:
            if queue and len(chosen) < limit:
                chosen.append(queue.pop(0))
    return sorted(chosen, key=lambda m: (m.line, m.kind, m.description))


def behavior_cfg(cfg_text: str) -> str:
    """The cfg TLC explores mutants with: none of :data:`_CHECK_SECTIONS`, no CHECK_DEADLOCK."""
    cfg = parse_cfg(cfg_text).without(*_CHECK_SECTIONS).with_check_deadlock(None)
    return render_cfg(cfg)


def _distinct(modules: Mapping[str, str], main: str, cfg_text: str, tools: TlaTools,
              timeout: float) -> tuple[str, int | None]:
    """TLC's status and distinct-state count; for a spec with control-label variables, the count of
    distinct states projected on the data variables (the state graph is dumped for that)."""
    spec = SpecFiles(main, dict(modules), behavior_cfg(cfg_text))
    labels = label_variables(modules, main)
    if not labels:
        result = tools.tlc(spec, deadlock=False, timeout=timeout)
        return result.status, result.distinct_states
    result, graph = tools.state_graph(spec, deadlock=False, timeout=timeout)
    if not result.ok or graph is None:
        return result.status, None
    data = [v for v in graph.variables if v not in labels]
    return result.status, len({tuple(state[v] for v in data) for state in graph.states.values()})


def reference_distinct(modules: Mapping[str, str], main: str, cfg_text: str, tools: TlaTools,
                       timeout: float = 60.0) -> int | None:
    """Distinct states of the reference under :func:`behavior_cfg` (None unless TLC finishes cleanly)."""
    status, distinct = _distinct(modules, main, cfg_text, tools, timeout)
    return distinct if status == "ok" else None


@dataclass(frozen=True)
class MutantCheck:
    """Why a mutant was kept or not: ``reason`` is ``kept``, ``sany``, ``tlc:<status>`` or ``same_states``."""

    kept: bool
    reason: str
    distinct: int | None = None


def check_mutant(mutant: Mutant, reference_distinct: int, tools: TlaTools, timeout: float = 60.0) -> MutantCheck:
    """Run SANY, then TLC (see :func:`behavior_cfg`, deadlock off) on ``mutant``, and say whether it is kept."""
    if mutant.cfg is None:
        return MutantCheck(False, "tlc:config_error")
    spec = SpecFiles(mutant.main, dict(mutant.modules), mutant.cfg)
    if not tools.sany(spec).ok:
        return MutantCheck(False, "sany")
    status, distinct = _distinct(mutant.modules, mutant.main, mutant.cfg, tools, timeout)
    if status != "ok" or distinct is None:
        return MutantCheck(False, f"tlc:{status}", distinct)
    if distinct == reference_distinct:
        return MutantCheck(False, "same_states", distinct)
    return MutantCheck(True, "kept", distinct)


def keep_mutant(mutant: Mutant, reference_distinct: int, tools: TlaTools, timeout: float = 60.0) -> bool:
    """Whether ``mutant`` passes SANY and TLC reaches a different number of distinct states than the reference."""
    return check_mutant(mutant, reference_distinct, tools, timeout).kept
