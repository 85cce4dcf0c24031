"""Refinement checks of the identity mapping read off state graphs TLC has already drawn (a shortcut).

An output G that declares exactly the reference R's variables and constants meets the paper's
search with the identity mapping first. The check that verified R with its cfg and the name grade's
check of G with the same cfg keep their reachable state graphs on the side (see
:mod:`~pytest_alias.tla.sidegraph`). When both checks passed, the graphs decide a check that would
pass, so TLC need not run it:

* forward, when every initial state of G is one of R and every step of G between distinct states is
  one of R: G's behaviors are behaviors of R, so R's spec formula holds on them, and so do R's cfg
  invariants and properties, which R's own check found true on every behavior of R's graph. This
  needs behaviors shaped by Init and Next alone: R's formula has no fairness (else the forward check
  tests it on G's behaviors, which a graph cannot tell);
* reverse, when every initial state and every step between distinct states of R is one of G: R's
  behaviors satisfy G's safety formula (what the paper's reverse check tests; not where the search
  also tests G's fairness, nor where G's formula names its Init or Next other than as top-level
  operators, which the reverse check takes from the formula's text), and where G uses none of TLC's
  stateful operators (``TLCGet``, ``RandomElement``…), whose values TLC's check need not find again.

Where the name check kept no graph of G because the cfg names an invariant or property G lacks (the
paper's "hidden names"; or one G has under another name, see :mod:`.bind`), and the graphs may decide
the forward check, a plain run of G with the cfg less its INVARIANT and PROPERTY entries draws G's
graph under the same constants (a dump past the cap draws none and is not run again): both checks
are then read off it where they hold (GameOfLife's 65,536 states: its behavior grade took 14.9 s
instead of 23.0 s under ``-n 2``). Otherwise, the forward check of the identity mapping keeps G's
graph instead: when it passes, that is G's whole graph under the same constants, and the reverse
check is read off it as above.

States are compared by their labels (see :class:`~pytest_alias.tla.graph.LabelGraph`): two states
with the same label hold the same values, and a state whose label R's graph lacks leaves the check to
TLC, so reading labels can only leave a check undecided, never decide one wrongly.

Either way R's cfg must pass :func:`~pytest_alias.tla.sidegraph.graphs_decide` (no constraint,
symmetry, view or alias, ordinary constant values: with ``<-`` the name check would use G's
definition where the refinement checks use R's value), and the workspace must say that R passed its
self-check (the grade's context says so: the refinement checks can be built for R at all). A check
the graphs do not decide runs as before, so a failure's reason is always TLC's; the attempt records
which checks the graphs decided.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..tla.cfg import parse_cfg, render_cfg
from ..tla.graph import LabelGraph, LabelKey
from ..tla.sidegraph import GRAPH_CAP, dump_is_cheap, graphs_decide, keeps_graph
from .bind import CfgBinding, bind_cfg
from .mapping import NameMapping
from .outnames import output_names

if TYPE_CHECKING:
    from ..tasks.model import Condition
    from ..tla.runner import TlaTools
    from ..tla.specfiles import SpecFiles
    from .extended import ExtendedInputs

#: TLC's operators whose value depends on more than their arguments (its registers, chance, the clock).
_STATEFUL = re.compile(r"\b(?:TLCGet|TLCSet|RandomElement|RandomSubset|RandomSetOfSubsets|RandomSubsetSet|JavaTime)\b")


def reference_graph_kept(tools: TlaTools, condition: Condition, timeout: float) -> LabelGraph | None:
    """R's graph from the check that verified it, when that check kept one (never runs TLC)."""
    kept = tools.kept_graph(condition.spec(), timeout=timeout, cap=GRAPH_CAP)
    return kept[1] if kept is not None else None


def name_check_keeps_graph(tools: TlaTools, condition: Condition, binding: CfgBinding, timeout: float, *,
                           reference_checked: bool) -> bool:
    """Whether the name grade's check of an output (its cfg bound by ``binding``) should keep its graph:
    the shortcuts are on and R passed its paper-mode self-check (``reference_checked``), R kept a graph,
    and the cfg binds to G's names as is."""
    return (reference_checked and not (binding.missing or binding.changes)
            and keeps_graph(condition.cfg, tools) and reference_graph_kept(tools, condition, timeout) is not None)


def _bare_name(part: str) -> str:
    """A formula part as the name it is when it is one: ``Init``, also written as the one item of a
    conjunction list (``/\\ Init``, the form of ``Spec == /\\ Init /\\ [][Next]_vars``)."""
    text = part.strip()
    return text[2:].strip() if text.startswith("/\\") else text


#: A graph's initial states and its steps between distinct states, by label.
Forms = tuple[frozenset[LabelKey], frozenset[tuple[LabelKey, LabelKey]]]


def within(inner: LabelGraph, outer: LabelGraph, *, forms: Callable[[LabelGraph], Forms] = LabelGraph.forms) -> bool:
    """Whether every initial state and every step between distinct states of ``inner`` is one of ``outer``
    (both over the same variable names), states compared by label. ``forms`` gives a graph's initial
    states and steps."""
    if inner.variables != outer.variables or len(inner.states) > len(outer.states):
        return False
    inner_initial, inner_steps = forms(inner)
    outer_initial, outer_steps = forms(outer)
    return inner_initial <= outer_initial and inner_steps <= outer_steps


def identity(mapping: NameMapping) -> bool:
    """Whether ``mapping`` maps every name to itself."""
    return all(r == g for r, g in mapping.variables + mapping.constants)


class IdentityGraphs:
    """The state graphs that may decide the identity mapping's refinement checks (see the module's docs).

    R's graph comes from its verification, G's from the name grade's check or, when that kept none,
    from the forward check itself (:meth:`adopt`), which can then decide the reverse check."""

    def __init__(self, ref_graph: LabelGraph, gen_graph: LabelGraph | None, *, forward_allowed: bool,
                 reverse_allowed: bool, forward_dump_cheap: bool, plain_spec: SpecFiles | None = None) -> None:
        self.ref_graph, self.gen_graph = ref_graph, gen_graph
        self.forward_allowed, self.reverse_allowed = forward_allowed, reverse_allowed
        #: Whether the forward check dumps its graph for little (see :meth:`wants_forward_graph`).
        self.forward_dump_cheap = forward_dump_cheap
        #: G with the cfg less the checks it lacks, whose plain run draws G's graph (see :meth:`draw`).
        self.plain_spec = plain_spec
        # Each graph's initial states and steps, computed once for both directions.
        self._forms: dict[int, Forms] = {}

    def _canonical(self, graph: LabelGraph) -> Forms:
        if id(graph) not in self._forms:
            self._forms[id(graph)] = graph.forms()
        return self._forms[id(graph)]

    @classmethod
    def open(cls, tools: TlaTools, inputs: ExtendedInputs, first: NameMapping, timeout: float, *,
             fairness: bool, reference_checked: bool) -> IdentityGraphs | None:
        """The graphs for the search's first mapping ``first``, or None where they can decide nothing.
        ``fairness`` is the search's: a reverse check that tests G's fairness is never decided here;
        ``reference_checked``: the shortcuts are on and R passed its paper-mode self-check."""
        if not (reference_checked and identity(first)):
            return None
        ref_decl, gen_decl = inputs.ref_decl, inputs.gen_decl
        if set(ref_decl.variables) != set(gen_decl.variables) or set(ref_decl.constants) != set(gen_decl.constants):
            return None
        condition = inputs.condition
        if condition.cfg is None or not graphs_decide(inputs.ref_cfg):
            return None
        if any(_STATEFUL.search(text) for text in inputs.gen_spec.modules.values()):
            return None  # TLC's stateful operators may not give the same values when it checks as when it explores
        ref_graph = reference_graph_kept(tools, condition, timeout)
        if ref_graph is None:
            return None
        names = output_names(inputs.gen_spec)
        binding = bind_cfg(condition.cfg, names)
        kept = (tools.kept_graph(inputs.gen_spec.with_cfg(binding.text), timeout=timeout, cap=GRAPH_CAP)
                if not (binding.missing or binding.changes) else None)
        # R's fairness (or a formula not read) would be tested on G's behaviors by the forward check.
        ref_fair = inputs.ref_cfg.specification is not None and (inputs.ref_formula is None or inputs.ref_formula.fair)
        # The reverse check names G's Init and Next as read from its formula: only top-level operators
        # are sure to mean there what they meant in the check that drew G's graph.
        named = all(_bare_name(part) in names.visible for part in (inputs.formula.init, inputs.formula.next))
        plain_spec = None
        if kept is None and (binding.missing or binding.changes) and not ref_fair:
            # The name check stopped at a name G lacks (or checked another in its place, appendix H, and
            # kept no graph): G's graph from a run without the cfg's checks, where the rest of the cfg
            # (constants, formula) binds to G as is.
            unchecked = bind_cfg(render_cfg(parse_cfg(condition.cfg).without("INVARIANT", "PROPERTY")), names)
            if not (unchecked.missing or unchecked.changes):
                plain_spec = inputs.gen_spec.with_cfg(unchecked.text)
        # The forward check has temporal properties to check where R is fair or the cfg lists any.
        return cls(ref_graph, kept[1] if kept is not None else None, forward_allowed=not ref_fair,
                   reverse_allowed=named and not (fairness and inputs.formula.fair),
                   forward_dump_cheap=dump_is_cheap(tools, temporal=ref_fair or bool(inputs.ref_cfg.properties)),
                   plain_spec=plain_spec)

    @property
    def output_states(self) -> int | None:
        """G's distinct states, as the forward check would count them (None: no graph of G)."""
        return len(self.gen_graph.states) if self.gen_graph is not None else None

    def decides(self, direction: str) -> bool:
        """Whether the ``direction`` ("forward"/"reverse") check passes by the graphs."""
        if self.gen_graph is None:
            return False
        if direction == "forward":
            return self.forward_allowed and within(self.gen_graph, self.ref_graph, forms=self._canonical)
        return self.reverse_allowed and within(self.ref_graph, self.gen_graph, forms=self._canonical)

    def wants_forward_graph(self) -> bool:
        """Whether the forward check should keep its graph: G has none yet, it may decide the reverse,
        and its dump is cheap (no temporal property to check, or no liveness graph written beside it:
        see :func:`~pytest_alias.tla.sidegraph.cheap_to_keep`)."""
        return self.gen_graph is None and self.reverse_allowed and self.forward_dump_cheap

    def draw(self, tools: TlaTools, timeout: float) -> None:
        """Draw G's graph with a plain run of :attr:`plain_spec` (no checks, deadlock ignored), once,
        where there is one to draw; a run that errs, is stopped or dumps past the cap draws none."""
        if self.plain_spec is None or self.gen_graph is not None:
            return
        spec, self.plain_spec = self.plain_spec, None
        # Only the graph is wanted: a dump past the cap is not run again for a verdict.
        _, self.gen_graph = tools.tlc_keeping_graph(spec, timeout=timeout, cap=GRAPH_CAP, deadlock=False, rerun=False)

    def adopt(self, gen_graph: LabelGraph | None) -> None:
        """Take G's complete graph from a forward check that passed (same constants, same G)."""
        if self.gen_graph is None:
            self.gen_graph = gen_graph
