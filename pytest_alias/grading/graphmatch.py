"""Match two reachable state graphs: which output variable stands for which reference variable.

The extended behavior grade dumps the reachable state graph of the reference R and of the output G
once each, then looks here, in pure Python, for a variable mapping (plus per-variable value
encodings) under which G's graph *is* R's graph: states onto states, initial states onto initial
states, steps onto steps, self-loops (stuttering) ignored. With one-to-one variables and one-to-one
value encodings, both refinement checks can pass only under such a mapping, so a graph mismatch is a
sound rejection and a graph match needs only the two confirming TLC runs.

The search never walks all permutations: each variable gets a profile that no renaming or value
encoding changes (number of values, value shapes, how many states hold each value, how many steps
change it, how many initial values), only variables with equal profiles may pair, and each pair's
value encodings must first map the variable's own projected graph onto its partner's.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Iterator, Mapping, Sequence

from ..tla.graph import StateGraph
from ..tla.values import FALSE, TRUE, Bool, Function, ModelValue, RecordValue, Value, make_function

#: Encodings tried per variable pair before giving up on it (ties between labels multiply them).
MAX_ENCODINGS_PER_PAIR = 64
#: Joint candidates (variable mapping x encodings) checked on the whole graph.
MAX_JOINT_CANDIDATES = 2000


# ---------------------------------------------------------------- value helpers


def value_shape(value: Value) -> str:
    """A type signature that a label renaming or a TRUE/FALSE <-> 1/0 encoding leaves unchanged."""
    if isinstance(value, Bool) or (isinstance(value, int) and value in (0, 1)):
        return "b"  # booleans and 0/1 look alike: either may encode the other
    if isinstance(value, int):
        return "i"
    if isinstance(value, str):
        return "s"
    if isinstance(value, ModelValue):
        return "m"
    if isinstance(value, tuple):
        return "<" + ",".join(value_shape(v) for v in value) + ">"
    if isinstance(value, frozenset):
        return "{" + ",".join(sorted({value_shape(v) for v in value})) + "}"
    if isinstance(value, (RecordValue, Function)):
        pairs = sorted(f"{value_shape(k)}:{value_shape(v)}" for k, v in value.items())
        return ("[" if isinstance(value, RecordValue) else "(") + ",".join(pairs) + ")"
    return "?"


def atoms(value: Value) -> Iterator[Value]:
    """The renamable atoms inside ``value``: strings (record fields and function keys included),
    booleans and integers (not as function keys: a process id 0 is not FALSE)."""
    if isinstance(value, (str, Bool, int)):
        yield value
    elif isinstance(value, (tuple, frozenset)):
        for v in value:
            yield from atoms(v)
    elif isinstance(value, (RecordValue, Function)):
        for k, v in value.items():
            yield from (a for a in atoms(k) if isinstance(a, str))
            yield from atoms(v)


def translate(value: Value, atom_map: Mapping[Value, Value]) -> Value:
    """``value`` with every atom in ``atom_map`` replaced (records and functions renormalized)."""
    if not atom_map:
        return value
    if isinstance(value, (str, Bool, int)):
        return atom_map.get(value, value)
    if isinstance(value, tuple):
        return tuple(translate(v, atom_map) for v in value)
    if isinstance(value, frozenset):
        return frozenset(translate(v, atom_map) for v in value)
    if isinstance(value, (RecordValue, Function)):
        # Keys are renamed as labels only: the TRUE/FALSE <-> 1/0 encoding is about stored values.
        key_map: dict[Value, Value] = {a: b for a, b in atom_map.items() if isinstance(a, str)}
        return make_function({translate(k, key_map): translate(v, atom_map) for k, v in value.items()})
    return value


# ---------------------------------------------------------------- per-variable views


@dataclass(frozen=True)
class VarView:
    """One variable seen alone: its values, its initial values and the value changes of its steps."""

    name: str
    counts: Mapping[Value, int]  # value -> number of states holding it
    initial: frozenset[Value]
    steps: frozenset[tuple[Value, Value]]  # value changes along edges (projected, no self-loops)
    changing_edges: int  # edges of the full graph that change this variable

    @property
    def values(self) -> frozenset[Value]:
        return frozenset(self.counts)

    def profile(self) -> tuple[object, ...]:
        """What any variable standing for this one must share with it."""
        return (len(self.counts), self.changing_edges, len(self.initial), len(self.steps),
                tuple(sorted(Counter(value_shape(v) for v in self.counts).items())),
                tuple(sorted(self.counts.values())))


def var_view(graph: StateGraph, name: str) -> VarView:
    """The view of ``name`` in ``graph``."""
    states = graph.states
    counts = Counter(st[name] for st in states.values())
    initial = frozenset(states[s][name] for s in graph.initial)
    steps = set()
    changing = 0
    for a, b in graph.edges:
        va, vb = states[a][name], states[b][name]
        if va != vb:
            steps.add((va, vb))
            changing += 1
    return VarView(name, dict(counts), initial, frozenset(steps), changing)


def describe_profile_gap(ref: VarView, gens: Sequence[VarView]) -> str:
    """Why no output variable can stand for ``ref``: the first profile feature none of them shares."""
    features = [
        (lambda v: len(v.counts), lambda n: f"takes {n} values"),
        (lambda v: v.changing_edges, lambda n: f"changes on {n} steps"),
        (lambda v: len(v.initial), lambda n: f"has {n} initial values"),
        (lambda v: len(v.steps), lambda n: f"has {n} distinct value changes"),
        (lambda v: sorted(Counter(value_shape(x) for x in v.counts).items()),
         lambda n: "has values of shapes " + ", ".join(f"{k}x{c}" for k, c in n)),
        (lambda v: sorted(v.counts.values()), lambda n: "spreads its values over the states the same way"),
    ]
    pool = list(gens)
    for feature, words in features:
        wanted = feature(ref)
        matching = [g for g in pool if feature(g) == wanted]
        if not matching:
            return f"no output variable {words(wanted)} like {ref.name}"
        pool = matching
    return f"no output variable behaves like {ref.name}"


# ---------------------------------------------------------------- encodings of one variable


@dataclass(frozen=True)
class Encoding:
    """How an output variable's values stand for a reference variable's: an atom renaming (G → R).

    ``atoms`` holds only the atoms that change; ``table`` maps every value G's variable takes to the
    value R's variable takes then (the identity when ``atoms`` is empty).
    """

    ref_var: str
    gen_var: str
    atoms: tuple[tuple[Value, Value], ...] = ()
    table: Mapping[Value, Value] = field(default_factory=dict, compare=False, hash=False)

    @property
    def identity(self) -> bool:
        return not self.atoms


def _bool_int_maps(gen_atoms: set[Value], ref_atoms: set[Value]) -> list[dict[Value, Value]]:
    """Atom maps between TRUE/FALSE on one side and 1/0 on the other (identity first)."""
    maps: list[dict[Value, Value]] = [{}]
    g_bools = {a for a in gen_atoms if isinstance(a, Bool)}
    r_bools = {a for a in ref_atoms if isinstance(a, Bool)}
    if g_bools and not r_bools:
        maps += [{TRUE: 1, FALSE: 0}, {TRUE: 0, FALSE: 1}]
    elif r_bools and not g_bools:
        maps += [{1: TRUE, 0: FALSE}, {0: TRUE, 1: FALSE}]
    return maps


def _string_maps(gen: VarView, ref: VarView, limit: int) -> Iterator[dict[Value, Value]]:
    """Bijections between the two variables' string atoms, identity first, atoms paired only with
    atoms of equal signature (how many values and states contain them)."""
    def signatures(view: VarView) -> dict[str, tuple[int, int, int]]:
        sig: dict[str, list[int]] = {}
        for value, n in view.counts.items():
            for a in {x for x in atoms(value) if isinstance(x, str)}:
                s = sig.setdefault(a, [0, 0, 0])
                s[0] += 1
                s[1] += n
                s[2] += value in view.initial
        return {a: (s[0], s[1], s[2]) for a, s in sig.items()}

    g_sig, r_sig = signatures(gen), signatures(ref)
    if sorted(g_sig.values()) != sorted(r_sig.values()):
        return
    g_atoms = sorted(g_sig, key=lambda a: (g_sig[a], a))
    produced = 0

    def extend(i: int, used: set[str], acc: dict[Value, Value]) -> Iterator[dict[Value, Value]]:
        nonlocal produced
        if produced >= limit:
            return
        if i == len(g_atoms):
            produced += 1
            yield {g: r for g, r in acc.items() if g != r}
            return
        g = g_atoms[i]
        # The same name first: an output that kept a label keeps it.
        options = sorted((r for r in r_sig if r not in used and r_sig[r] == g_sig[g]), key=lambda r: (r != g, r))
        for r in options:
            acc[g] = r
            used.add(r)
            yield from extend(i + 1, used, acc)
            used.discard(r)
            del acc[g]

    yield from extend(0, set(), {})


def encodings(ref: VarView, gen: VarView, limit: int = MAX_ENCODINGS_PER_PAIR,
              fixed: frozenset[Value] = frozenset()) -> list[Encoding]:
    """Encodings under which ``gen``'s projected graph is ``ref``'s, identity first.

    Atoms in ``fixed`` (the strings of the model's constant values, which the cfg gives both specs)
    stand for themselves: an output that starts from node "b" where the reference starts from "a"
    differs, whatever permutation of node names would make the graphs alike.
    """
    found: list[Encoding] = []
    gen_atoms = {a for v in gen.counts for a in atoms(v)}
    ref_atoms = {a for v in ref.counts for a in atoms(v)}
    tried = 0
    for bool_map in _bool_int_maps(gen_atoms, ref_atoms):
        for str_map in _string_maps(gen, ref, limit):
            tried += 1
            if tried > limit:
                return found
            if any(k != v and (k in fixed or v in fixed) for k, v in str_map.items()):
                continue
            atom_map = {**bool_map, **str_map}
            table = {v: translate(v, atom_map) for v in gen.counts}
            if _projects_onto(table, gen, ref):
                pairs = tuple(sorted(atom_map.items(), key=lambda p: repr(p)))
                found.append(Encoding(ref.name, gen.name, pairs, table))
    return found


def _projects_onto(table: Mapping[Value, Value], gen: VarView, ref: VarView) -> bool:
    """Whether ``table`` maps ``gen``'s values, counts, initial values and value changes onto ``ref``'s."""
    if len(set(table.values())) != len(table):
        return False  # not one-to-one
    if any(ref.counts.get(table[v]) != n for v, n in gen.counts.items()):
        return False
    if {table[v] for v in gen.initial} != ref.initial:
        return False
    return {(table[a], table[b]) for a, b in gen.steps} == ref.steps


# ---------------------------------------------------------------- whole-graph matching


@dataclass(frozen=True)
class GraphMatch:
    """A variable mapping (R → G) with one encoding per variable under which the graphs coincide."""

    encodings: tuple[Encoding, ...]

    @property
    def variables(self) -> tuple[tuple[str, str], ...]:
        return tuple((e.ref_var, e.gen_var) for e in self.encodings)

    def encoded(self) -> tuple[Encoding, ...]:
        """The encodings that are not the identity."""
        return tuple(e for e in self.encodings if not e.identity)


@dataclass(frozen=True)
class MatchOutcome:
    """The matches found (identity-like first) or, when there are none, why."""

    matches: tuple[GraphMatch, ...]
    why: str | None = None
    candidates: int = 0  # joint candidates checked on the whole graph


def _moving_edges(graph: StateGraph) -> frozenset[tuple[int, int]]:
    return frozenset((a, b) for a, b in graph.edges if a != b)


def _size_gap(ref: StateGraph, gen: StateGraph) -> str | None:
    """A count the two graphs disagree on, as a reason line."""
    pairs = [("variable counts", len(ref.variables), len(gen.variables)),
             ("state counts", len(ref.states), len(gen.states)),
             ("initial state counts", len(ref.initial), len(gen.initial)),
             ("step counts (stuttering excluded)", len(_moving_edges(ref)), len(_moving_edges(gen)))]
    for what, r, g in pairs:
        if r != g:
            return f"{what} differ: reference {r}, output {g}"
    return None


class _Keyed:
    """R's graph with states as value tuples (in R's variable order), for quick comparisons."""

    def __init__(self, graph: StateGraph, order: Sequence[str]) -> None:
        key = {sid: tuple(st[v] for v in order) for sid, st in graph.states.items()}
        self.states = frozenset(key.values())
        self.initial = frozenset(key[s] for s in graph.initial)
        self.edges = frozenset((key[a], key[b]) for a, b in graph.edges if a != b)


def _joint_ok(ref: _Keyed, gen: StateGraph, choice: Sequence[Encoding]) -> bool:
    """Whether mapping every G state through ``choice`` gives exactly R's states, initial states and steps."""
    key = {sid: tuple(e.table[st[e.gen_var]] for e in choice) for sid, st in gen.states.items()}
    if len(set(key.values())) != len(key) or frozenset(key.values()) != ref.states:
        return False
    if frozenset(key[s] for s in gen.initial) != ref.initial:
        return False
    return frozenset((key[a], key[b]) for a, b in gen.edges if a != b) == ref.edges


def match_graphs(ref: StateGraph, gen: StateGraph, *, max_matches: int = 2,
                 max_candidates: int = MAX_JOINT_CANDIDATES, fixed: frozenset[Value] = frozenset()) -> MatchOutcome:
    """Variable mappings with encodings under which ``gen`` is ``ref`` up to stuttering; strings in
    ``fixed`` are never renamed (see :func:`encodings`).

    Returns at most ``max_matches`` matches, those with the fewest non-identity encodings and the
    most identical names first; with none, ``why`` says what differs.
    """
    gap = _size_gap(ref, gen)
    if gap is not None:
        return MatchOutcome((), gap)
    order = tuple(sorted(ref.variables))
    ref_views = {v: var_view(ref, v) for v in order}
    gen_views = {v: var_view(gen, v) for v in sorted(gen.variables)}

    # Per pair, the encodings that already work on the pair's own projected graphs.
    options: dict[str, list[Encoding]] = {}
    for r in order:
        rv = ref_views[r]
        profile = rv.profile()
        pair_options = [enc for g, gv in gen_views.items() if gv.profile() == profile
                        for enc in encodings(rv, gv, fixed=fixed)]
        if not pair_options:
            same_profile = [g for g, gv in gen_views.items() if gv.profile() == profile]
            if same_profile:
                return MatchOutcome((), f"no encoding of {', '.join(same_profile)} has the value changes of {r}")
            return MatchOutcome((), describe_profile_gap(rv, list(gen_views.values())))
        # Identity encodings and identical names first: the closest reading of the output.
        pair_options.sort(key=lambda e: (len(e.atoms), e.gen_var != r))
        options[r] = pair_options

    keyed = _Keyed(ref, order)
    # Most constrained variables first, so clashes prune early.
    search_order = sorted(order, key=lambda r: len(options[r]))
    matches: list[GraphMatch] = []
    checked = 0
    for combo in _injective_products([options[r] for r in search_order]):
        checked += 1
        if checked > max_candidates:
            break
        by_ref = {e.ref_var: e for e in combo}
        choice = [by_ref[r] for r in order]
        if _joint_ok(keyed, gen, choice):
            matches.append(GraphMatch(tuple(choice)))
            if len(matches) >= max_matches:
                break
    if not matches:
        why = ("every variable has a partner, but no joint mapping maps the output's state graph onto "
               f"the reference's ({checked} candidate(s) checked)")
        return MatchOutcome((), why, checked)
    matches.sort(key=lambda m: (sum(len(e.atoms) for e in m.encodings),
                                -sum(r == g for r, g in m.variables)))
    return MatchOutcome(tuple(matches), None, checked)


def _injective_products(lists: Sequence[Sequence[Encoding]]) -> Iterator[tuple[Encoding, ...]]:
    """Combinations taking one encoding per list, no output variable used twice (lazy, in order)."""
    def extend(i: int, used: frozenset[str], acc: tuple[Encoding, ...]) -> Iterator[tuple[Encoding, ...]]:
        if i == len(lists):
            yield acc
            return
        for enc in lists[i]:
            if enc.gen_var not in used:
                yield from extend(i + 1, used | {enc.gen_var}, acc + (enc,))

    yield from extend(0, frozenset(), ())


__all__ = ["Encoding", "GraphMatch", "MatchOutcome", "VarView", "atoms", "describe_profile_gap", "encodings",
           "match_graphs", "translate", "value_shape", "var_view"]
