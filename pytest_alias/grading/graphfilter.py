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
skip it when its failure could not become the search's reason (see :class:`.search_rules.GraphFiltering`). A
filter only ever rejects, never passes a mapping: every pass is still TLC's. Where the graphs cannot
be had (a graph that cannot be dumped within its limit; R over the graph limit), it says nothing.

Where R's cfg has a CONSTRAINT, SYMMETRY or VIEW, TLC does not explore the whole graph, so only the
*initial states* are compared, from dumps of the initial states alone (no constraint, symmetry or
view: every one of them). TLC checks an initial state against the invariants and R's Init (the
implied-init part of R's formula) whether or not the constraint holds there (measured with TLC
2.15; current TLC's source does the same), so under a CONSTRAINT alone every initial state is
checked and the inclusions above decide.
Under SYMMETRY or VIEW, TLC checks only the first initial state of each class it cannot tell apart,
and the first one it generates is always new: so a forward check fails when *no* initial state of
G, read under the mapping, is one of R's, and nothing is said when some are. When G has no initial
state at all, the forward check passes vacuously and the reverse check fails on R's first state.
Nothing is said from G's dump cut short by G's own error there, since TLC may never reach that error.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Literal

from ..tla.cache import content_key, files_digest
from ..tla.cfg import Cfg, parse_cfg, render_cfg
from ..tla.graph import StateGraph
from ..tla.runner import TlaTools
from ..tla.specfiles import SpecFiles
from .extended import ExtendedInputs, gen_graph_spec, reference_dump_spec, reference_graph, reference_seconds
from .mapping import NameMapping
from .refinement import subscript_covers, with_definitions

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


def _reference_graphs(tools: TlaTools, inputs: ExtendedInputs, timeout: float,
                      initial_only: bool) -> tuple[_Graphs | None, str | None, float]:
    """R's graph, or its initial states alone (or why none), and the seconds R's own TLC run took;
    the last few kept in the process."""
    spec = reference_dump_spec(inputs.condition, inputs.ref_cfg)
    if initial_only:
        init = _reference_init(inputs)
        if init is None:
            return None, "the reference's Init could not be read from its cfg", 0.0
        spec = initial_states_spec(spec, inputs.condition.main, init, inputs.ref_decl.variables, inputs.prefix)
    key = content_key("graph-filter", jar=tools.toolchain.identity, main=spec.main, files=files_digest(spec.modules),
                      cfg=spec.cfg, timeout=timeout)
    if key in _REFERENCES:
        _REFERENCES.move_to_end(key)
        return _REFERENCES[key]
    if initial_only:
        result, dumped = tools.state_graph(spec, deadlock=False, timeout=timeout)
        graph, why = (dumped, None) if result.ok and dumped is not None else (
            None, f"the reference's initial states could not be dumped ({result.status})")
        seconds = result.seconds
    else:
        graph, why = reference_graph(tools, inputs.condition, inputs.ref_cfg, timeout)
        seconds = reference_seconds(tools, inputs.condition, inputs.ref_cfg, timeout) if graph is not None else 0.0
    _REFERENCES[key] = (_Graphs(graph) if graph is not None else None, why, seconds)
    while len(_REFERENCES) > KEPT_REFERENCES:
        _REFERENCES.popitem(last=False)
    return _REFERENCES[key]


def _reference_init(inputs: ExtendedInputs) -> str | None:
    """R's Init as a text of R's main module: from its spec formula, or the cfg's INIT name."""
    if inputs.ref_cfg.specification is not None:
        return inputs.ref_formula.init if inputs.ref_formula is not None else None
    return inputs.ref_cfg.init


def initial_states_spec(spec: SpecFiles, home: str, init: str, variables: tuple[str, ...], prefix: str) -> SpecFiles:
    """``spec`` run for its initial states alone: ``init`` (a text of module ``home``) as INIT and a NEXT
    that takes no step, without constraints, symmetry or view (so every initial state is dumped)."""
    init_name, next_name = f"{prefix}InitOnly", f"{prefix}NoStep"
    # A NEXT must be an action: FALSE alone is a constant, and TLC rejects it.
    definitions = f"{init_name} =={init}\n{next_name} == FALSE /\\ UNCHANGED {variables[0]}\n"
    modules = {**spec.modules, home: with_definitions(spec.modules[home], definitions)}
    cfg = parse_cfg(spec.cfg or "").without("CONSTRAINT", "ACTION_CONSTRAINT", "SYMMETRY", "VIEW")
    return SpecFiles(spec.main, modules, render_cfg(cfg.with_init_next(init_name, next_name)))


class GraphFilter:
    """Predicts, per name mapping, a refinement check that TLC must fail (or None: no prediction)."""

    def __init__(self, tools: TlaTools, inputs: ExtendedInputs, timeout: float) -> None:
        self.tools, self.inputs, self.timeout = tools, inputs, timeout
        self._ref: _Graphs | None = None
        self._ref_loaded = False
        self._dump_limit = timeout
        self._gen: dict[tuple[tuple[str, str], ...], _Graphs | None] = {}
        #: Why the filter says nothing (None while it may): kept in the grade's details.
        self.off: str | None = None if inputs.ref_decl.variables else "the reference has no variables"
        #: The cfg sections under which TLC explores one state per class (SYMMETRY, VIEW), or None.
        self.reduced: str | None = reduction(inputs.ref_cfg)
        #: Whether only initial states are compared (R's cfg has a CONSTRAINT, SYMMETRY or VIEW: TLC
        #: does not explore the whole graph; see the module's docstring).
        self.initial_only = (self.reduced is not None
                             or bool(inputs.ref_cfg.constraints or inputs.ref_cfg.action_constraints))
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
            self._ref, why, own = _reference_graphs(self.tools, self.inputs, self.timeout, self.initial_only)
            if self._ref is None:
                self.off = f"no graph of the reference: {why}"
                return None
            self._dump_limit = min(self.timeout, max(MIN_DUMP_SECONDS, DUMP_TIME_FACTOR * own))
        return self._ref

    def _output(self, constants: tuple[tuple[str, str], ...]) -> _Graphs | None:
        if constants not in self._gen:
            self.dumps += 1
            inputs = self.inputs
            spec = gen_graph_spec(inputs, constants, ())
            if self.initial_only and inputs.gen_decl.variables:
                spec = initial_states_spec(spec, inputs.gen_spec.main, inputs.formula.init, inputs.gen_decl.variables,
                                           inputs.prefix)
            result, graph = self.tools.state_graph(spec, deadlock=False, timeout=self._dump_limit)
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
        if self.initial_only:
            return by_initial_states(ref, gen, ref_order, gen_order, every=self.reduced is None)
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
        # TLC checks every distinct initial state against R's Init, whatever R's subscript leaves free.
        if (outside and self._forward) or not gen_initial <= ref_initial:
            return "forward"
        if not (ref_initial <= gen_initial and ref_steps <= gen_steps):
            return "reverse"
        return None


def reduction(cfg: Cfg) -> str | None:
    """The cfg sections that make TLC explore one state per class (SYMMETRY, VIEW), or None."""
    used = [name for name, value in (("SYMMETRY", cfg.symmetry), ("VIEW", cfg.view)) if value is not None]
    return " and ".join(used) or None


def by_initial_states(ref: _Graphs, gen: _Graphs, ref_order: tuple[str, ...], gen_order: tuple[str, ...], *,
                      every: bool) -> Failing | None:
    """The check that the initial states alone show must fail (see the module's docstring). ``every``:
    TLC checks every initial state (no SYMMETRY or VIEW), else only the first of each class."""
    if gen.partial or set(ref_order) != set(ref.graph.variables) or set(gen_order) != set(gen.graph.variables):
        return None
    ref_initial, _ = ref.under(ref_order)
    gen_initial, _ = gen.under(gen_order)
    if not gen_initial:
        return "reverse" if ref_initial else None
    if every:
        return "forward" if not gen_initial <= ref_initial else "reverse" if not ref_initial <= gen_initial else None
    return "forward" if gen_initial.isdisjoint(ref_initial) else None
