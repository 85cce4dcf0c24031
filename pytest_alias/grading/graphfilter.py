"""Tell from two reachable state graphs which name mappings must fail a refinement check.

The paper's mapping search (:func:`.behavior._search`) runs two TLC checks per mapping, and on an
output with other behaviors every one of up to 60 mappings fails: most of a paper-scale run's grading
time. With one-to-one variables, both checks pass only where the graphs agree:

* forward (G's behaviors are R's): by induction over G's steps, a passing check means every initial
  state of G, read under the mapping, is an initial state of R and every step of G is a step of R or
  a stutter. TLC enumerates *every* initial state and successor of R under R's constants, so R's
  dumped graph holds all of them; a G state or step outside it makes the TLC check fail.
* reverse (R's behaviors satisfy G's safety formula): the same argument with the roles swapped.

A third case: when G's own graph dump under a constant mapping stops on an error of G (a successor
state not completely specified, an evaluation error), TLC explores G the same way under every mapping
with those constants, so each forward check stops on that error or on a violation before it: every
such mapping fails, and one under which the states G reached before its error are all R's fails on
that error (``forward_error``), not on a violation.

So a mapping under which G's graph (dumped once per constant mapping, with the constant values the
checks give G) is not inside R's graph, or R's not inside G's, fails its TLC check: the search can
skip it when its failure could not become the search's reason (see :func:`.behavior._search`). A
filter only ever rejects, never passes a mapping: every pass is still TLC's. Where the graphs cannot
stand for the checks (R's cfg has a CONSTRAINT, SYMMETRY or VIEW, which change what TLC explores; a
graph that cannot be dumped within its limit; R over the graph limit), it says nothing.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Literal

from ..tla.cache import content_key, files_digest
from ..tla.graph import StateGraph
from ..tla.runner import TlaTools
from .extended import ExtendedInputs, fallback_reason, gen_graph_spec, reference_dump_spec, reference_graph
from .mapping import NameMapping
from .refinement import subscript_covers

#: Which check a mapping must fail: ``forward`` (so it also cannot reach the reverse check), ``forward_error``
#: (forward: G's own run under these constants stops on an error, whatever the mapping) or ``reverse``.
Failing = Literal["forward", "forward_error", "reverse"]
#: Statuses of G's own graph dump that come from G's exploration (an evaluation error, a successor
#: state not completely specified) rather than from its set-up, its limits or the machine.
OWN_ERRORS = frozenset({"crash"})
#: A state read in R's variable order.
Row = tuple[object, ...]
#: A G graph dump may take this many times R's own TLC check (at least MIN_DUMP_SECONDS): a G whose
#: graph is far larger than R's cannot refine R anyway, and its dump must not cost the limit.
DUMP_TIME_FACTOR = 5.0
MIN_DUMP_SECONDS = 5.0
#: References whose graphs a process keeps read (a dump is parsed once, not once per output).
KEPT_REFERENCES = 4
#: Below this many mappings the search runs plainly: the dumps would cost more than they save.
MIN_MAPPINGS = 3


@dataclass
class _Graphs:
    """One graph's states as rows, for quick inclusion tests under a variable order."""

    graph: StateGraph
    #: The run stopped on an error of G itself after exploring this much (TLC explores G the same way
    #: under every mapping, so each check stops on the same error unless it finds a violation first).
    partial: bool = False
    rows: dict[tuple[str, ...], tuple[frozenset[Row], frozenset[tuple[Row, Row]]]] = field(default_factory=dict)

    def under(self, order: tuple[str, ...]) -> tuple[frozenset[Row], frozenset[tuple[Row, Row]]]:
        """Initial states and steps (stutters left out) with each state read as ``order``'s values."""
        if order not in self.rows:
            states = self.graph.states
            row = {sid: tuple(state[v] for v in order) for sid, state in states.items()}
            initial = frozenset(row[s] for s in self.graph.initial)
            steps = frozenset((row[a], row[b]) for a, b in self.graph.edges if row[a] != row[b])
            self.rows[order] = (initial, steps)
        return self.rows[order]


_REFERENCES: OrderedDict[str, tuple[_Graphs | None, str | None, float]] = OrderedDict()


def _reference_graphs(tools: TlaTools, inputs: ExtendedInputs, timeout: float) -> tuple[_Graphs | None, str | None, float]:
    """R's graph (or why none), and the seconds R's own TLC run took; the last few kept in the process."""
    spec = reference_dump_spec(inputs.condition, inputs.ref_cfg)
    key = content_key("graph-filter", jar=tools.toolchain.identity, main=spec.main, files=files_digest(spec.modules),
                      cfg=spec.cfg, timeout=timeout)
    if key in _REFERENCES:
        _REFERENCES.move_to_end(key)
        return _REFERENCES[key]
    graph, why = reference_graph(tools, inputs.condition, inputs.ref_cfg, timeout)
    seconds = tools.tlc(spec, deadlock=False, timeout=timeout).seconds if graph is not None else 0.0  # cached run
    _REFERENCES[key] = (_Graphs(graph) if graph is not None else None, why, seconds)
    while len(_REFERENCES) > KEPT_REFERENCES:
        _REFERENCES.popitem(last=False)
    return _REFERENCES[key]


class GraphFilter:
    """Predicts, per name mapping, a refinement check that TLC must fail (or None: no prediction)."""

    def __init__(self, tools: TlaTools, inputs: ExtendedInputs, timeout: float) -> None:
        self.tools, self.inputs, self.timeout = tools, inputs, timeout
        self._ref: _Graphs | None = None
        self._ref_loaded = False
        self._dump_limit = timeout
        self._gen: dict[tuple[tuple[str, str], ...], _Graphs | None] = {}
        #: Why the filter says nothing (None while it may): kept in the grade's details.
        self.off: str | None = unusable(inputs)
        self.dumps = 0
        self._checked = 0
        # A step that keeps a formula's subscript is a stutter for its [][N]_v, whatever else it
        # changes, and TLC never explores such steps: G's graph stands for the forward check only
        # where R's checked formula has every variable in its subscript. (The reverse check's
        # subscript is every variable: see refinement.reverse_check.)
        condition = inputs.condition
        ref_checked = inputs.ref_formula if inputs.ref_cfg.specification is not None else None
        self._forward = inputs.ref_cfg.specification is None or subscript_covers(
            condition.module_map, condition.main, ref_checked, inputs.ref_decl.variables)

    def _reference(self) -> _Graphs | None:
        if not self._ref_loaded:
            self._ref_loaded = True
            self._ref, why, own = _reference_graphs(self.tools, self.inputs, self.timeout)
            if self._ref is None:
                self.off = f"no graph of the reference: {why}"
                return None
            self._dump_limit = min(self.timeout, max(MIN_DUMP_SECONDS, DUMP_TIME_FACTOR * own))
        return self._ref

    def _output(self, constants: tuple[tuple[str, str], ...]) -> _Graphs | None:
        if constants not in self._gen:
            self.dumps += 1
            result, graph = self.tools.state_graph(gen_graph_spec(self.inputs, constants, ()), deadlock=False,
                                                   timeout=self._dump_limit)
            usable = graph is not None and (result.ok or result.status in OWN_ERRORS)
            self._gen[constants] = _Graphs(graph, partial=not result.ok) if usable and graph is not None else None
        return self._gen[constants]

    def dumped(self, constants: tuple[tuple[str, str], ...]) -> bool:
        """Whether G's graph under ``constants`` was dumped already (a prediction then costs no TLC run)."""
        return constants in self._gen

    def agrees(self, checked: list[tuple[NameMapping, dict[str, object]]]) -> bool:
        """Whether the graphs' predictions hold for every mapping TLC has checked (``checked``: each
        mapping with its attempt's statuses). A check TLC passed where the graphs say it must fail
        shows they do not stand for the checks here: the filter turns itself off for the search."""
        for mapping, attempt in checked[self._checked:]:
            failing = self.failing(mapping)
            direction = "reverse" if failing == "reverse" else "forward"
            if failing is not None and attempt.get(direction) == "ok":
                self.off = (f"TLC passed the {direction} check under {mapping.describe()}, which the state graphs "
                            "said must fail")
        self._checked = len(checked)
        return self.off is None

    def failing(self, mapping: NameMapping) -> Failing | None:
        """The check that must fail under ``mapping``, or None when the graphs do not show one."""
        if self.off is not None:
            return None
        ref = self._reference()
        if ref is None:
            return None
        gen = self._output(mapping.constants)
        if gen is None:
            return None
        ref_order = tuple(r for r, _ in mapping.variables)
        gen_order = tuple(g for _, g in mapping.variables)
        if set(ref_order) != set(ref.graph.variables) or set(gen_order) != set(gen.graph.variables):
            # The graphs carry variables the mapping does not cover: no comparison, but G's own error
            # still stops every check.
            return "forward" if gen.partial else None
        if len(gen.graph.states) > len(ref.graph.states) and not gen.partial and self._forward:
            return "forward"  # one-to-one variables read distinct G states as distinct R states
        ref_initial, ref_steps = ref.under(ref_order)
        gen_initial, gen_steps = gen.under(gen_order)
        outside = not (gen_initial <= ref_initial and gen_steps <= ref_steps)
        if gen.partial:  # G's error stops the check: at a violation before it, or at that error
            return "forward" if outside else "forward_error"
        if outside and self._forward:
            return "forward"
        if not (ref_initial <= gen_initial and ref_steps <= gen_steps):
            return "reverse"
        return None


def unusable(inputs: ExtendedInputs) -> str | None:
    """Why the graphs cannot stand for the TLC checks on this reference (None: they can)."""
    cfg = inputs.ref_cfg
    why = fallback_reason(cfg)
    if why is not None:
        return why
    if cfg.symmetry is not None or cfg.view is not None:
        return "the reference's cfg uses SYMMETRY or VIEW (TLC explores fewer states than the graph has)"
    return None
