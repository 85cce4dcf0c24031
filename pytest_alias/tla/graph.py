"""TLC's reachable state graph, read from the file ``-dump dot`` writes.

``java ... tlc2.TLC -dump dot[,actionlabels][,colorize] states Spec.tla``
writes ``states.dot`` with one line per node and per edge::

    8796673948286488350 [label="/\\\\ hr = 1\\n/\\\\ msg = <<\\"a\\">>",style = filled]
    8796673948286488350 -> -1594878254348619331 [label="Next",color="black",fontcolor="black"];

Node ids are TLC fingerprints (signed 64-bit, and different from run to run:
they depend on TLC's randomly chosen fingerprint polynomial); a label is the
state as TLC prints it, escaped for DOT; ``style = filled`` marks initial
states; an edge label is the action name (empty without ``actionlabels``).
``colorize`` adds a legend cluster whose nodes have non-numeric ids; those
lines are ignored.  pydot cannot read these files, hence this small parser.
"""

from __future__ import annotations

import gc
import hashlib
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any

from .values import CONJUNCT_BREAK, Value, ValueParseError, parse_state, sort_key

__all__ = ["LabelGraph", "StateGraph", "StateKey", "parse_dot", "parse_dot_labels", "read_dot"]

StateKey = tuple[tuple[str, Value], ...]
"""A state as a hashable value: ``(variable, value)`` pairs sorted by variable."""


@dataclass(frozen=True, repr=False)
class StateGraph:
    """The states TLC found, the initial ones, and the steps between them.

    ``states`` maps a state id (a TLC fingerprint, or a canonical index after
    :meth:`project`) to the state's variable values.  ``actions`` maps an edge
    to the action names TLC labelled it with (only with ``-dump
    dot,actionlabels``; several actions can take the same step).  Self-loops
    appear only where the spec itself has a step that changes nothing.
    """

    variables: tuple[str, ...]
    states: Mapping[int, Mapping[str, Value]]
    initial: frozenset[int]
    edges: frozenset[tuple[int, int]]
    actions: Mapping[tuple[int, int], frozenset[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Freeze the mappings so the graph really is immutable.
        frozen = {
            sid: st if isinstance(st, MappingProxyType) else MappingProxyType(dict(st))
            for sid, st in self.states.items()
        }
        object.__setattr__(self, "states", MappingProxyType(frozen))
        object.__setattr__(self, "actions", MappingProxyType(dict(self.actions)))
        object.__setattr__(self, "variables", tuple(self.variables))
        object.__setattr__(self, "initial", frozenset(self.initial))
        object.__setattr__(self, "edges", frozenset(self.edges))
        names = set(self.variables)
        for sid, st in frozen.items():
            if set(st) != names:
                raise ValueError(f"state {sid} has variables {sorted(st)}, expected {sorted(names)}")
        unknown = {s for s in self.initial if s not in frozen}
        unknown.update(s for edge in self.edges for s in edge if s not in frozen)
        if unknown:
            raise ValueError(f"ids without a state: {sorted(unknown)[:5]}")
        if not set(self.actions) <= self.edges:
            raise ValueError("actions name edges that are not in the graph")

    def __reduce__(self) -> tuple[Any, ...]:
        # mappingproxy objects cannot be pickled; rebuild from plain dicts.
        states = {sid: dict(st) for sid, st in self.states.items()}
        return (StateGraph, (self.variables, states, self.initial, self.edges, dict(self.actions)))

    def __repr__(self) -> str:
        return (
            f"StateGraph(variables={self.variables!r}, states={len(self.states)}, "
            f"initial={len(self.initial)}, edges={len(self.edges)})"
        )

    def __len__(self) -> int:
        """The number of distinct states (TLC's "distinct states found")."""
        return len(self.states)

    def __contains__(self, state_id: object) -> bool:
        return state_id in self.states

    @cached_property
    def _successors(self) -> Mapping[int, frozenset[int]]:
        succ: dict[int, set[int]] = {sid: set() for sid in self.states}
        for src, dst in self.edges:
            succ[src].add(dst)
        return {sid: frozenset(s) for sid, s in succ.items()}

    @cached_property
    def _predecessors(self) -> Mapping[int, frozenset[int]]:
        pred: dict[int, set[int]] = {sid: set() for sid in self.states}
        for src, dst in self.edges:
            pred[dst].add(src)
        return {sid: frozenset(s) for sid, s in pred.items()}

    def successors(self, state_id: int) -> frozenset[int]:
        """Ids of the states one step after ``state_id``."""
        return self._successors[state_id]

    def predecessors(self, state_id: int) -> frozenset[int]:
        """Ids of the states one step before ``state_id``."""
        return self._predecessors[state_id]

    def terminal(self) -> frozenset[int]:
        """States with no successor at all (TLC reports these as deadlocks)."""
        return frozenset(sid for sid, succ in self._successors.items() if not succ)

    def state_key(self, state_id: int) -> StateKey:
        """The state ``state_id`` as a hashable, id-independent key."""
        st = self.states[state_id]
        return tuple((name, st[name]) for name in sorted(st))

    def canonical_states(self) -> frozenset[StateKey]:
        """All states as id-independent keys (comparable across TLC runs and specs)."""
        return frozenset(self.state_key(sid) for sid in self.states)

    def state_values(self, variable: str) -> frozenset[Value]:
        """Every value ``variable`` takes in some reachable state."""
        if variable not in self.variables:
            raise KeyError(variable)
        return frozenset(st[variable] for st in self.states.values())

    def project(self, variables: Iterable[str], *, stuttering: bool = True) -> StateGraph:
        """The graph as seen through ``variables`` only.

        States that agree on ``variables`` merge into one, edges follow, and
        the result gets canonical ids: 0, 1, ... in :func:`sort_key` order of
        the projected states, with ``variables`` sorted by name.  So two
        specs, or two TLC runs, with the same observable behaviour give
        *equal* graphs.  A step that changes none of ``variables`` becomes a
        self-loop, dropped when ``stuttering`` is false (TLA+ behaviours are
        insensitive to stuttering).
        """
        names = tuple(sorted(set(variables)))
        missing = set(names) - set(self.variables)
        if missing:
            raise KeyError(f"no such variables: {sorted(missing)}")
        keys = {sid: tuple((n, st[n]) for n in names) for sid, st in self.states.items()}
        value_keys: dict[Value, tuple[object, ...]] = {}  # values repeat across states

        def state_order(key: StateKey) -> tuple[object, ...]:
            out = []
            for _, v in key:
                if v not in value_keys:
                    value_keys[v] = sort_key(v)
                out.append(value_keys[v])
            return tuple(out)

        order = sorted(set(keys.values()), key=state_order)
        new_id = {key: i for i, key in enumerate(order)}
        remap = {sid: new_id[key] for sid, key in keys.items()}

        edges = {(remap[a], remap[b]) for a, b in self.edges}
        if not stuttering:
            edges = {(a, b) for a, b in edges if a != b}
        actions: dict[tuple[int, int], set[str]] = {}
        for (a, b), labels in self.actions.items():
            edge = (remap[a], remap[b])
            if edge in edges:
                actions.setdefault(edge, set()).update(labels)
        return StateGraph(
            variables=names,
            states={new_id[key]: MappingProxyType(dict(key)) for key in order},
            initial=frozenset(remap[s] for s in self.initial),
            edges=frozenset(edges),
            actions={e: frozenset(labels) for e, labels in actions.items()},
        )

    def canonical(self) -> StateGraph:
        """This graph with canonical ids (see :meth:`project`), nothing merged."""
        return self.project(self.variables)


# One node or edge per line; only numeric ids, since the legend that
# ``colorize`` adds has action names as node ids.
# The label's quantifiers are possessive: a label ends at its first unescaped quote however it is
# matched, so giving characters back never finds another match; not trying is 2.8x faster on
# GameOfLife's 65,536 long state labels.
_LINE = re.compile(r'[ \t]*(-?\d+)[ \t]*(?:->[ \t]*(-?\d+)[ \t]*)?\[[ \t]*label="((?:[^"\\]++|\\.)*+)"([^\]]*)\]')
_FILLED = re.compile(r'style\s*=\s*"?filled')


def _unescape(label: str) -> str:
    """Undo DOT string escaping as TLC applies it (``\\\\``, ``\\"`` and ``\\n``)."""
    if "\\" not in label:
        return label
    # Splitting at escaped backslashes (left to right, like a lexer) leaves
    # pieces in which every backslash starts a \" or \n escape, or no escape.
    pieces = label.split("\\\\")
    return "\\".join(p.replace('\\"', '"').replace("\\n", "\n") for p in pieces)


def parse_dot(text: str) -> StateGraph:
    """Parse the text of a ``states.dot`` written by TLC's ``-dump dot``.

    A partial file (TLC stopped or was killed mid-run) gives the graph
    written so far: a node line cut short is skipped, and so is an edge to or
    from a state whose node line is missing.  Variables are listed in the
    order TLC prints them, which is not the declaration order.
    """
    return _parse_lines(text.splitlines())


def _parse_lines(lines: Iterable[str]) -> StateGraph:
    # The parse allocates millions of small containers and frees none, so
    # the cyclic GC's passes are pure overhead (about a quarter of the time).
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _parse_graph(lines)
    finally:
        if was_enabled:
            gc.enable()


def _parse_graph(lines: Iterable[str]) -> StateGraph:
    states: dict[int, Mapping[str, Value]] = {}
    cache: dict[str, tuple[str, Value]] = {}
    initial: set[int] = set()
    raw_edges: list[tuple[int, int, str]] = []
    for line in lines:
        m = _LINE.match(line)
        if m is None:
            continue
        src, dst, label, attrs = m.groups()
        if dst is not None:
            raw_edges.append((int(src), int(dst), label))
            continue
        sid = int(src)
        try:
            state = parse_state(_unescape(label), cache=cache)
        except ValueParseError as exc:
            raise ValueParseError(f"in state {sid}: {exc.message}", exc.text, exc.pos) from None
        if sid in states and states[sid] != state:
            raise ValueError(f"state {sid} appears with two different labels")
        states[sid] = MappingProxyType(state)
        if _FILLED.search(attrs):
            initial.add(sid)

    edges: set[tuple[int, int]] = set()
    actions: dict[tuple[int, int], set[str]] = {}
    for src, dst, label in raw_edges:
        if src not in states or dst not in states:
            continue  # cut-off dump: a node line was never written
        edges.add((src, dst))
        if label:
            actions.setdefault((src, dst), set()).add(_unescape(label))

    variables: tuple[str, ...] = tuple(next(iter(states.values()), {}))
    return StateGraph(
        variables=variables,
        states=states,
        initial=frozenset(initial),
        edges=frozenset(edges),
        actions={e: frozenset(a) for e, a in actions.items()},
    )


def read_dot(path: str | os.PathLike[str]) -> StateGraph:
    """Read and parse a ``states.dot`` file written by TLC's ``-dump dot``."""
    with open(path, encoding="utf-8", errors="replace") as fh:
        return _parse_lines(fh)  # line by line: dumps can be gigabytes


#: A state as :func:`parse_dot_labels` keeps it: a digest of its label's conjuncts in sorted order.
LabelKey = bytes


@dataclass(frozen=True)
class LabelGraph:
    """A state graph kept for comparing with another by state, without reading any value.

    Each state is a 128-bit digest of its label's conjuncts (``/\\ x = 1``) in sorted order, so the
    order TLC prints the variables in does not matter. TLC prints a value one way, so two states with
    the same label text hold the same values; the converse is what a comparison by label assumes
    only where it finds a state missing, and a caller that falls back to TLC there loses nothing.
    Reading labels is ten times faster than :func:`parse_dot` (a 35 MB, 65,536-state dump: 1.6 s
    instead of 17 s), which is what makes large graphs worth keeping.
    """

    variables: frozenset[str]
    states: Mapping[int, LabelKey]
    initial: frozenset[int]
    edges: frozenset[tuple[int, int]]

    def forms(self) -> tuple[frozenset[LabelKey], frozenset[tuple[LabelKey, LabelKey]]]:
        """The initial states and the steps between distinct states, by label (ids differ run to run)."""
        keys = self.states
        return (frozenset(keys[sid] for sid in self.initial),
                frozenset((keys[a], keys[b]) for a, b in self.edges if keys[a] != keys[b]))


def _variable(conjunct: str) -> str:
    """The variable a label's conjunct (``/\\ x = 1``, or ``x = 1`` alone) gives a value."""
    name, equals, _ = conjunct.strip().removeprefix("/\\").partition(" = ")
    if not equals or not name.strip().isidentifier():
        raise ValueError(f"a state label's conjunct names no variable: {conjunct[:80]!r}")
    return name.strip()


def parse_dot_labels(text: str) -> LabelGraph:
    """Read a ``states.dot`` as a :class:`LabelGraph` (a cut-off dump as :func:`parse_dot` reads one);
    ValueError for a label whose conjuncts name no variable or a state id given two labels."""
    states: dict[int, LabelKey] = {}
    initial: set[int] = set()
    raw_edges: list[tuple[int, int]] = []
    variables: frozenset[str] | None = None
    digest = hashlib.blake2b
    for line in text.splitlines():
        m = _LINE.match(line)
        if m is None:
            continue
        src, dst, label, attrs = m.groups()
        if dst is not None:
            raw_edges.append((int(src), int(dst)))
            continue
        state = _unescape(label)
        conjuncts = CONJUNCT_BREAK.split(state) if state.lstrip().startswith("/\\") else [state] if state.strip() else []
        if variables is None:
            variables = frozenset(map(_variable, conjuncts))
            if len(variables) != len(conjuncts):
                raise ValueError("a state label gives a variable two values")
        conjuncts.sort()
        key = digest("\n".join(conjuncts).encode("utf-8", "surrogatepass"), digest_size=16).digest()
        sid = int(src)
        if states.setdefault(sid, key) != key:
            raise ValueError(f"state {sid} appears with two different labels")
        if _FILLED.search(attrs):
            initial.add(sid)
    edges = frozenset((a, b) for a, b in raw_edges if a in states and b in states)
    return LabelGraph(variables or frozenset(), states, frozenset(initial), edges)
