"""Control-label variables (paper appendix I): find them, and compare two specs on their data variables.

A PlusCal translation keeps its control state in ``pc``, whose values are the algorithm's label
names ("Lbl_1", "start", "Done"). No description fixes those names, and an output written by hand
may not even have such a variable, or may take more or fewer control steps for the same data
changes. When no mapping passes the refinement checks, the grader compares the two modules on their
*data* variables: both reachable state graphs are projected onto them, and the projected graphs must
accept the same sequences of observable states, steps that change no data variable (control steps)
being invisible.

The comparison is trace equivalence of the two projected graphs, decided on the fly on their
determinized forms (subset construction over observations, closed under invisible steps); a
difference comes with the shortest sequence of observable states that one spec allows and the other
does not. Both languages are prefix-closed (every prefix of a behavior is a behavior), so equivalence
is: same initial observations, and after every common sequence, the same possible next observations.
"""

from __future__ import annotations

import itertools
import re
from collections import deque
from dataclasses import dataclass
from typing import Hashable, Iterator, Mapping, Sequence

from ..tla.graph import StateGraph
from ..tla.specfiles import strip_comments
from ..tla.values import Value, format_value
from .mapping import extended_syntaxes

#: Pairs of macro-states the equivalence check explores before it gives up (inconclusive: fail).
MAX_PAIRS = 200_000
#: Data-variable mappings compared at most.
MAX_DATA_MAPPINGS = 60

_STRING_LITERAL = r'"(\w+)"'


def label_variables(modules: Mapping[str, str], main: str) -> tuple[str, ...]:
    """The control-label variables ``main`` sees: in ``main`` or a staged module it EXTENDS that
    holds a PlusCal algorithm (an MC module extending the algorithm's module is common), each
    variable that the translation compares with or sets to a label name (or "Done").

    A variable renamed by CIR is still found: the test is on how it is used, not on its name.
    """
    syntaxes = extended_syntaxes(modules, main)
    with_pluscal = [syntax for syntax in syntaxes if syntax.pluscal is not None]
    if not with_pluscal:
        return ()
    labels = {label.name for syntax in with_pluscal for label in syntax.pluscal.labels} | {"Done"}  # type: ignore[union-attr]
    code = "\n".join(strip_comments(syntax.source.decode("utf-8", "replace")) for syntax in with_pluscal)
    found: list[str] = []
    for variable in (v for syntax in syntaxes for v in syntax.variables):
        name = re.escape(variable.name)
        # pc = "L", pc[self] = "L", pc' = "L", [pc EXCEPT ![self] = "L"]
        uses = re.finditer(rf"\b{name}\b\s*(?:\[[^\]\n]*\])?\s*'?\s*=\s*{_STRING_LITERAL}"
                           rf"|\[\s*{name}\s+EXCEPT\s*!\[[^\]\n]*\]\s*=\s*{_STRING_LITERAL}", code)
        if any((m.group(1) or m.group(2)) in labels for m in uses) and variable.name not in found:
            found.append(variable.name)
    return tuple(found)


# ---------------------------------------------------------------- projected trace equivalence


Observation = tuple[Value, ...]


class _Projected:
    """A state graph seen through some variables: observations, and macro-states closed under
    the steps that keep the observation (invisible steps)."""

    def __init__(self, graph: StateGraph, variables: Sequence[str]) -> None:
        self.obs: dict[int, Observation] = {sid: tuple(st[v] for v in variables) for sid, st in graph.states.items()}
        self.succ: dict[int, list[int]] = {}
        for a, b in graph.edges:
            if a != b:
                self.succ.setdefault(a, []).append(b)
        self.initial = frozenset(graph.initial)

    def closure(self, states: set[int]) -> frozenset[int]:
        seen = set(states)
        todo = list(states)
        while todo:
            s = todo.pop()
            for t in self.succ.get(s, ()):
                if t not in seen and self.obs[t] == self.obs[s]:
                    seen.add(t)
                    todo.append(t)
        return frozenset(seen)

    def group(self, states: Iterator[int] | Sequence[int] | frozenset[int]) -> dict[Observation, frozenset[int]]:
        """The states split by observation, each part closed under invisible steps."""
        parts: dict[Observation, set[int]] = {}
        for s in states:
            parts.setdefault(self.obs[s], set()).add(s)
        return {o: self.closure(p) for o, p in parts.items()}

    def next_observations(self, macro: frozenset[int]) -> dict[Observation, frozenset[int]]:
        here = self.obs[next(iter(macro))]
        return self.group(t for s in macro for t in self.succ.get(s, ()) if self.obs[t] != here)


@dataclass(frozen=True)
class LabelEquivalence:
    """The outcome: ``equivalent``, or the witness (a common prefix, then the observation that only
    ``only_in`` allows), or ``inconclusive`` when the exploration bound was reached."""

    equivalent: bool
    reason: str | None = None
    pairs: int = 0


def _words(variables: Sequence[str], obs: Observation) -> str:
    return "[" + ", ".join(f"{v} = {format_value(x)}" for v, x in zip(variables, obs)) + "]"


def trace_equivalent(ref: StateGraph, gen: StateGraph, ref_vars: Sequence[str], gen_vars: Sequence[str],
                     max_pairs: int = MAX_PAIRS) -> LabelEquivalence:
    """Whether R projected on ``ref_vars`` and G projected on ``gen_vars`` (the i-th standing for
    the i-th) accept the same sequences of observable states."""
    r, g = _Projected(ref, ref_vars), _Projected(gen, gen_vars)

    def differ(r_next: Mapping[Observation, object], g_next: Mapping[Observation, object],
               path: tuple[Observation, ...], pairs: int) -> LabelEquivalence | None:
        extra_r = sorted(set(r_next) - set(g_next), key=repr)
        extra_g = sorted(set(g_next) - set(r_next), key=repr)
        if not extra_r and not extra_g:
            return None
        side, obs = ("reference", extra_r[0]) if extra_r else ("output", extra_g[0])
        where = ("as an initial state" if not path else
                 "after " + " -> ".join(_words(ref_vars, o) for o in path))
        return LabelEquivalence(False, f"on the data variables, only the {side} reaches "
                                  f"{_words(ref_vars, obs)} {where}", pairs)

    r_init, g_init = r.group(r.initial), g.group(g.initial)
    failed = differ(r_init, g_init, (), 0)
    if failed:
        return failed
    start = [(r_init[o], g_init[o], (o,)) for o in r_init]
    seen: set[tuple[frozenset[int], frozenset[int]]] = {(a, b) for a, b, _ in start}
    queue: deque[tuple[frozenset[int], frozenset[int], tuple[Observation, ...]]] = deque(start)
    while queue:
        if len(seen) > max_pairs:
            return LabelEquivalence(False, f"the data-variable comparison was stopped after {max_pairs} state pairs "
                                      "(inconclusive)", len(seen))
        r_macro, g_macro, path = queue.popleft()
        r_next, g_next = r.next_observations(r_macro), g.next_observations(g_macro)
        failed = differ(r_next, g_next, path, len(seen))
        if failed:
            return failed
        for o, r_to in r_next.items():
            pair = (r_to, g_next[o])
            if pair not in seen:
                seen.add(pair)
                queue.append((r_to, g_next[o], path + (o,)))
    return LabelEquivalence(True, None, len(seen))


def data_mappings(ref: StateGraph, gen: StateGraph, ref_data: Sequence[str],
                  limit: int = MAX_DATA_MAPPINGS) -> Iterator[tuple[str, ...]]:
    """Output variables (one per reference data variable, in order) that may stand for them: each
    takes exactly the values its reference variable takes, identical names first; a variable of the
    same name is kept even when its values differ, so that the comparison can say where."""
    def values(graph: StateGraph, variable: str) -> frozenset[Hashable]:
        return frozenset(st[variable] for st in graph.states.values())

    options: list[list[str]] = []
    for rv in ref_data:
        wanted = values(ref, rv)
        fitting = [gv for gv in gen.variables if values(gen, gv) == wanted]
        fitting.sort(key=lambda gv: gv != rv)
        if not fitting and rv in gen.variables:
            fitting = [rv]  # compared anyway: the comparison then says where the two differ
        if not fitting:
            return
        options.append(fitting)
    produced = 0
    for choice in itertools.product(*options):
        if len(set(choice)) == len(choice):
            yield choice
            produced += 1
            if produced >= limit:
                return
