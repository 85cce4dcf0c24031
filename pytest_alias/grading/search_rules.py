"""The behavior grade's verdict-preserving speed-ups, as rules beside the paper's mapping search.

The paper's search (:func:`.behavior._search`, section 3 and appendix H) tries each name mapping in order, the
forward check then the reverse one, and passes at the first mapping where both pass; otherwise its
reason is, by rank, the first mapping whose forward check passed, the first whose forward check
stopped on the output's own error, the first with a violation, the first failure
(:class:`.search_state.FailureReasons`). Each rule here saves TLC runs without changing that verdict or
that reason:

============================= ================ ==============================================================
rule                          shortcut         what it saves
============================= ================ ==============================================================
:class:`StoppedParts`         ``early_stop``   mappings whose constants stopped a forward check at start-up
:class:`ArityClashes`         ``early_stop``   mappings that have a constant stand for one of another arity
:class:`UndefinedSubstitutes` ``early_stop``   mappings whose cfg substitutes a definition G lacks
:class:`DoomedAssumptions`    ``early_stop``   mappings whose constants make one of G's ASSUMEs not TRUE
:class:`BrokenParts`          ``early_stop``   mappings whose constants showed G's own error or no Init state
:class:`GraphFiltering`       ``graph_filter`` mappings the two state graphs show must fail
:class:`SafetyFirst`          ``early_stop``   a second run of a forward check that fails on R's safety part
:class:`SelfCheckCopy`        ``self_check``   both checks of a copy of R that passed its own grade
:class:`GraphPass`            ``graph_pass``   the identity mapping's checks the kept state graphs decide
:class:`CopyOfReference`      ``self_check``   a copy of R's reverse check, and its vacuity probe
============================= ================ ==============================================================

The search asks the rules, in this order, whether to skip a mapping (:meth:`SearchRule.skip`: the
first that says yes names the kind of skip the details count), lets them decide or run a check of the
mapping it does try (:mod:`.mapping_checks`), and tells them what each failing attempt showed
(:meth:`SearchRule.learn`). With ``ALIAS_SHORTCUTS=off`` there are no rules, and the search is
exactly the paper's procedure. :func:`record_skips` writes what they saved into a failing grade's
details (``graph_filter``, ``early_stop``, ``safety_first``), as records have always had them.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from ..tla.cfg import parse_cfg
from ..tla.runner import TlaTools
from ..tla.sidegraph import GRAPH_CAP
from ..tla.tlc import TlcResult
from . import shortcuts
from .assume_probe import AssumptionProbe, Part
from .extended import ExtendedInputs, run_limit
from .graphfilter import GraphFilter
from .graphpass import IdentityGraphs, identity
from .mapping import NameMapping, arity_clash, constant_arities
from .refinement import Check, explain_check, forward_check
from .result import Evidence

if TYPE_CHECKING:
    from .search_state import FailureReasons, MappingOutcome

#: The kind of skip of :class:`StoppedParts`: only ``details["early_stop"]["skipped"]`` counts it (each
#: other early-stop kind also has its own ``<kind>_skipped`` count there).
STOPPED = "stopped"
#: The kind of skip the graph filter counts (``details["graph_filter"]["skipped"]``).
FILTERED = "graph_filter"


class SearchRule:
    """One speed-up of the mapping search. Every hook's default leaves the paper's procedure as it is."""

    def skip(self, mapping: NameMapping, position: int, reasons: FailureReasons) -> str | None:
        """The kind of skip (as the details count it) when ``mapping``, the ``position``-th of the
        search (from 1), need not be tried given the ``reasons`` so far; None: try it."""
        return None

    def decides(self, direction: str, outcome: MappingOutcome, position: int) -> bool:
        """Whether this rule reads the ``direction`` check of ``outcome.mapping`` as passed without
        running it (recorded in ``outcome.attempt``)."""
        return False

    def run_forward(self, tools: TlaTools, check: Check, limit: float,
                    position: int) -> tuple[TlcResult, str | None] | None:
        """The forward check's TLC result and failure (None: passed), where this rule runs it its own
        way; None where it does not."""
        return None

    def safety_first(self, direction: str, reasons: FailureReasons) -> str | None:
        """Why R's safety part should be checked before the whole formula (the fallback it repeats)."""
        return None

    def knows_behaviors(self) -> bool:
        """Whether G's behaviors are known to be R's, so a passing forward check needs no vacuity probe."""
        return False

    def learn(self, outcome: MappingOutcome) -> None:
        """What a mapping's checks showed (called after each mapping that failed)."""

    def record(self, details: Evidence, skips: Counter[str]) -> None:
        """What this rule saved, into a failing search's ``details`` (see :func:`record_skips`)."""


def _substituted(check: Check) -> frozenset[str]:
    """The definitions ``check``'s cfg substitutes for constants without a module qualifier (``X <- D``):
    where G lacks one, TLC rejects the cfg (see :func:`.shortcuts.undefined_substitute`)."""
    if check.spec.cfg is None:
        return frozenset()
    return frozenset(entry.value for entry in parse_cfg(check.spec.cfg).constants
                     if entry.op == "<-" and entry.module is None)


def _forward_failure(outcome: MappingOutcome) -> TlcResult | None:
    """The TLC result of ``outcome``'s forward check where that is the check that failed, else None."""
    return outcome.result if outcome.direction == "forward" else None


class StoppedParts(SearchRule):
    """Early stop: skips every mapping with the constants of a forward check that stopped before TLC
    evaluated any state (a cfg error, a failing ASSUME or constant definition: see
    :func:`.shortcuts.startup_failure`).

    Mappings that agree on the constants give TLC the same constant values and differ only in the
    variable substitution, which TLC evaluates on states alone: each stops the same way, so it can
    neither pass nor find a violation, and the search's verdict and reason are the same without it.
    Covered by ``tests/grading/test_shortcuts.py::test_a_failure_before_any_state_ends_the_mapping_search``
    and ``tests/grading/test_search_rules.py``.
    """

    def __init__(self) -> None:
        self.parts: set[Part] = set()

    def skip(self, mapping: NameMapping, position: int, reasons: FailureReasons) -> str | None:
        return STOPPED if mapping.constants in self.parts else None

    def learn(self, outcome: MappingOutcome) -> None:
        result = _forward_failure(outcome)
        if result is not None and shortcuts.startup_failure(result.status, result.output, result.distinct_states):
            self.parts.add(outcome.mapping.constants)


class ArityClashes(SearchRule):
    """Early stop: once any failure has settled the first-failure reason, skips the mappings that have
    one of R's constants stand for a constant of G of another arity (:func:`.mapping.arity_clash`).

    SANY rejects such a substitution, so the mapping fails whatever else it maps and never finds a
    violation; the first failure being settled, its failure can never become the search's reason.
    Covered by ``tests/grading/test_shortcuts.py::test_mappings_with_a_constant_of_another_arity_are_skipped_once_a_failure_settled_the_reason``
    and ``tests/grading/test_search_rules.py``.
    """

    def __init__(self, inputs: ExtendedInputs) -> None:
        self.arities = (constant_arities(inputs.condition.module_map, inputs.condition.main),
                        constant_arities(inputs.gen_spec.modules, inputs.gen_spec.main))

    def skip(self, mapping: NameMapping, position: int, reasons: FailureReasons) -> str | None:
        return "arity" if reasons.first is not None and arity_clash(mapping, *self.arities) else None


class UndefinedSubstitutes(SearchRule):
    """Early stop: once any failure has settled the first-failure reason, skips the mappings whose
    forward cfg substitutes a constant with a definition that TLC found G lacks
    (:func:`.shortcuts.undefined_substitute`).

    Whether the definition exists is G's alone, the same under every mapping, so TLC rejects every such
    cfg before any state: the mapping can neither pass nor find a violation.
    Covered by ``tests/grading/test_shortcuts.py::test_mappings_whose_cfg_substitutes_a_definition_the_output_lacks_are_skipped``
    and ``tests/grading/test_search_rules.py``.
    """

    def __init__(self, inputs: ExtendedInputs) -> None:
        self.inputs = inputs
        self.undefined: set[str] = set()

    def skip(self, mapping: NameMapping, position: int, reasons: FailureReasons) -> str | None:
        if not self.undefined or reasons.first is None:
            return None
        i = self.inputs
        check = forward_check(i.staged, i.formula, i.ref_module, i.ref_decl, i.ref_cfg, mapping, i.prefix,
                              bindings=i.bindings)
        return "undefined_substitute" if self.undefined & _substituted(check) else None

    def learn(self, outcome: MappingOutcome) -> None:
        result = _forward_failure(outcome)
        if result is None or outcome.check is None:
            return
        missing = shortcuts.undefined_substitute(result.status, result.output)
        if missing is not None and missing in _substituted(outcome.check):
            self.undefined.add(missing)


class DoomedAssumptions(SearchRule):
    """Early stop: once a violation (or a reason ranked above one) has settled the reason, skips the
    mappings of a constant part not tried yet under which one of G's own ASSUMEs is not TRUE, as
    :class:`.assume_probe.AssumptionProbe` finds in a few TLC runs for every part.

    Their forward checks stop at start-up on that assumption, whatever the variable mapping: such a
    failure could add to the reason only as its first violation, which is settled already.
    Covered by ``tests/grading/test_assume_probe.py::test_doomed_parts_are_skipped_with_the_plain_verdict``
    and ``tests/grading/test_search_rules.py``.
    """

    def __init__(self, probe: AssumptionProbe, mappings: list[NameMapping]) -> None:
        self.probe, self.mappings = probe, mappings
        self.tried_parts: set[Part] = set()

    def skip(self, mapping: NameMapping, position: int, reasons: FailureReasons) -> str | None:
        if not reasons.violation_or_better() or mapping.constants in self.tried_parts:
            return None
        upcoming = list(dict.fromkeys(m.constants for m in self.mappings[position:]
                                      if m.constants not in self.tried_parts))
        return "assumption" if self.probe.doomed(mapping.constants, upcoming) else None

    def learn(self, outcome: MappingOutcome) -> None:
        self.tried_parts.add(outcome.mapping.constants)


class BrokenParts(SearchRule):
    """Early stop: once a violation (or a reason ranked above one) has settled the reason, skips every
    mapping with the constants under which G's own formulas failed (``own_error``, see
    :func:`.shortcuts.own_state_error`) or G's Init has no state (``no_initial_state``: the forward
    check found no state and the reverse check failed).

    G explores the same states in the same order under every mapping with those constants (G's own
    formulas see the constants, not the variable mapping), so each such forward check stops on that
    error or on a violation before it; without an initial state each forward check passes vacuously
    and each reverse check fails. None can pass, and none can change a reason already settled. Not
    made where R's cfg constrains the states: the constraint reaches G through the variable mapping.
    Covered by ``tests/grading/test_shortcuts.py::test_an_own_error_ends_the_search_under_those_constants``,
    ``::test_an_output_with_no_initial_state_ends_the_search_under_those_constants`` and
    ``tests/grading/test_search_rules.py``.
    """

    def __init__(self, inputs: ExtendedInputs) -> None:
        self.prefix = inputs.prefix
        # R's modules other than its main one may be staged under their own names: never G's.
        self.ref_helpers = frozenset(inputs.condition.module_map) - {inputs.condition.main}
        self.gen_modules = frozenset(inputs.gen_spec.modules) - self.ref_helpers
        self.parts: dict[Part, str] = {}  # each part → which of the two showed it

    def skip(self, mapping: NameMapping, position: int, reasons: FailureReasons) -> str | None:
        if mapping.constants in self.parts and reasons.violation_or_better():
            return self.parts[mapping.constants]
        return None

    def learn(self, outcome: MappingOutcome) -> None:
        result = outcome.result
        if outcome.direction == "forward" and result is not None:
            if (not shortcuts.startup_failure(result.status, result.output, result.distinct_states)
                    and result.status == "crash"
                    and shortcuts.own_state_error(result.output, self.prefix, self.ref_helpers, self.gen_modules)):
                self.parts[outcome.mapping.constants] = "own_error"
        elif outcome.direction == "reverse" and outcome.forward_states == 0:
            self.parts[outcome.mapping.constants] = "no_initial_state"


class GraphFiltering(SearchRule):
    """Graph filter: once a failure is known, skips a mapping under which the reachable state graphs of
    R and G (:class:`.graphfilter.GraphFilter`) show that a check must fail, where that failure could
    no longer be the search's reason: a forward failure on G's own error (it is no violation), a
    forward failure once a violation is known, any failure once a forward check has passed or stopped
    on G's own error. G's graph is dumped per constant part, and only where it can save TLC runs: after
    TLC has checked a mapping with those constants and while at least one more with them follows.

    The filter only ever rejects, and turns itself off for the search where TLC contradicts it, so
    every pass and every reason is still TLC's. Covered by ``tests/grading/test_graph_filter.py`` and
    ``tests/grading/test_search_rules.py``.
    """

    def __init__(self, graphs: GraphFilter, mappings: list[NameMapping]) -> None:
        self.graphs, self.mappings = graphs, mappings
        self.checked: list[tuple[NameMapping, dict[str, Any]]] = []  # what TLC checked, to test the graphs

    def _worth_asking(self, mapping: NameMapping, position: int) -> bool:
        """G's graph under the constants is dumped already, or TLC checked a mapping with them and one
        more with them follows this one."""
        constants = mapping.constants
        if self.graphs.dumped(constants):
            return True
        remaining = sum(1 for later in self.mappings[position:] if later.constants == constants)
        return remaining >= 1 and any(m.constants == constants for m, _ in self.checked)

    def skip(self, mapping: NameMapping, position: int, reasons: FailureReasons) -> str | None:
        if reasons.first is None or not self._worth_asking(mapping, position):
            return None
        failing = self.graphs.failing(mapping) if self.graphs.agrees(self.checked) else None
        # Skipped only where TLC's failure could not be the reason: the reason is the first mapping
        # whose forward check passed, else the first violation, else the first failure.
        settled = reasons.reverse is not None or reasons.own is not None
        if (failing == "forward_error" or (failing == "forward" and reasons.violation is not None)
                or (failing is not None and settled)):
            return FILTERED
        return None

    def learn(self, outcome: MappingOutcome) -> None:
        self.checked.append((outcome.mapping, outcome.attempt))

    def record(self, details: Evidence, skips: Counter[str]) -> None:
        graphs, filtered = self.graphs, skips[FILTERED]
        if filtered or graphs.off or graphs.dumps:
            details["graph_filter"] = {"skipped": filtered, "graph_dumps": graphs.dumps,
                                       **({"off": graphs.off} if graphs.off else {})}


class SafetyFirst(SearchRule):
    """Early stop: once an earlier mapping's forward check fell back to R's safety part (TLC could not
    evaluate R's fairness as a property: :func:`.refinement.fairness_fallback`) and a violation (or a
    reason ranked above one) has settled the reason, a forward check runs the safety part first and
    the whole formula only where that passes.

    A forward check that fails on the safety part fails on the whole formula too, and its reason is
    the one the plain search gives after its own fallback: one TLC run instead of two for each such
    mapping. Covered by ``tests/grading/test_shortcuts.py::test_once_the_reference_fairness_fell_back_failing_mappings_run_its_safety_part_only``
    and ``tests/grading/test_search_rules.py``.
    """

    def __init__(self) -> None:
        self.fallback: str | None = None  # why the last forward check that fell back did
        self.checks = 0  # forward checks decided by the safety part alone

    def safety_first(self, direction: str, reasons: FailureReasons) -> str | None:
        if direction == "forward" and self.fallback is not None and reasons.violation_or_better():
            return self.fallback
        return None

    def learn(self, outcome: MappingOutcome) -> None:
        if outcome.forward_fallback is not None:
            self.fallback = outcome.forward_fallback
        if outcome.checked_first:
            self.checks += 1

    def record(self, details: Evidence, skips: Counter[str]) -> None:
        if self.checks:  # the verdict and reason are those of the whole search
            details["safety_first"] = {
                "checks": self.checks,
                "why": "TLC could not evaluate the reference's fairness under an earlier mapping; once the reason "
                       "was settled, later forward checks that failed on its safety part were not run on the "
                       "whole formula"}


#: What the identity mapping's checks of a copy of R record when R passed its own grade.
SELF_CHECKED = "the output is the reference, which passed its own grade (the run's self-check)"
#: What a copy of R's reverse check records when its forward check covered it.
COVERED = "the output is the reference: its forward check covers the reverse one"


class SelfCheckCopy(SearchRule):
    """Self-check: an output that is R itself (the same modules as SANY and TLC read them: the
    references' self-checks, verbatim copies), where R passed its own grade with this mode and limit
    (the run's self-check, :attr:`.context.GradeContext.reference_passed`): the identity mapping's
    forward and reverse checks are that grade's, so neither runs again.

    The same spec under the same mapping gives the same checks, which passed. Made only for such an
    output. Covered by ``tests/grading/test_shortcuts.py::test_a_copy_of_a_reference_that_passed_its_self_check_runs_no_refinement_check``
    and ``tests/grading/test_search_rules.py``.
    """

    def decides(self, direction: str, outcome: MappingOutcome, position: int) -> bool:
        if not identity(outcome.mapping):
            return False
        outcome.attempt[direction] = "ok"
        outcome.attempt["by_copy"] = SELF_CHECKED
        return True


class GraphPass(SearchRule):
    """Graph pass: the search's first mapping, where it is the identity, has the checks that the state
    graphs TLC already drew (R's verification, the name grade's check of G, or its own forward check)
    decide read off them (see :mod:`.graphpass`).

    The graphs decide only a check that would pass (G's states and steps are R's, or R's are G's);
    every other check runs as before, so a failure's reason is always TLC's. Covered by
    ``tests/grading/test_graph_pass.py`` and ``tests/grading/test_search_rules.py``.
    """

    def __init__(self, tools: TlaTools, inputs: ExtendedInputs, timeout: float, deadline: float, *,
                 fairness: bool, reference_checked: bool) -> None:
        self.tools, self.inputs, self.timeout, self.deadline, self.fairness = tools, inputs, timeout, deadline, fairness
        self.reference_checked = reference_checked  # R passed its paper-mode self-check (the graphs need it)
        self._opened = False
        self.graphs: IdentityGraphs | None = None

    def _graphs(self, mapping: NameMapping, position: int) -> IdentityGraphs | None:
        """The graphs for the search's first mapping (opened, and G's drawn, when first asked)."""
        if position != 1:
            return None
        if not self._opened:
            self._opened = True
            self.graphs = IdentityGraphs.open(self.tools, self.inputs, mapping, self.timeout, fairness=self.fairness,
                                              reference_checked=self.reference_checked)
            if self.graphs is not None:
                self.graphs.draw(self.tools, run_limit(self.timeout, self.deadline))
        return self.graphs

    def decides(self, direction: str, outcome: MappingOutcome, position: int) -> bool:
        known = self._graphs(outcome.mapping, position)
        if known is None or not known.decides(direction):
            return False
        outcome.attempt[direction] = "ok"
        outcome.attempt.setdefault("by_graphs", []).append(direction)
        if direction == "forward":
            outcome.forward_states = known.output_states
        return True

    def run_forward(self, tools: TlaTools, check: Check, limit: float,
                    position: int) -> tuple[TlcResult, str | None] | None:
        # G's graph from the forward check may decide the reverse check.
        known = self.graphs if position == 1 else None
        if known is None or not known.wants_forward_graph():
            return None
        result, gen_graph = tools.tlc_keeping_graph(check.spec, timeout=limit, cap=GRAPH_CAP, deadlock=False)
        known.adopt(gen_graph)
        return result, None if result.ok else explain_check(result, check, limit)


class CopyOfReference(SearchRule):
    """Self-check: an output that is R itself (the same modules as SANY and TLC read them) has the
    identity mapping's reverse check read off its forward check, which ran R's states against R's whole
    formula (R's own safety formula, with R's fairness and invariants), and needs no vacuity probe
    after a forward pass (G's behaviors are R's, which R's self-check found).

    The reverse check runs R and checks R's own safety formula: what the forward check, on the same
    states, has checked already. Made only for such an output. Covered by
    ``tests/grading/test_shortcuts.py::test_a_copy_of_the_reference_has_its_reverse_check_read_off_the_forward_one``
    and ``tests/grading/test_search_rules.py``.
    """

    def decides(self, direction: str, outcome: MappingOutcome, position: int) -> bool:
        attempt = outcome.attempt
        if direction != "reverse" or attempt.get("forward") != "ok" or not identity(outcome.mapping):
            return False
        attempt["reverse"] = "ok"
        attempt["by_copy"] = COVERED
        return True

    def knows_behaviors(self) -> bool:
        return True


def record_skips(details: Evidence, rules: list[SearchRule], skips: Counter[str]) -> None:
    """Say in a failing search's ``details`` what the rules saved (``skips``: the mappings skipped per
    kind), in the order records have always had: ``graph_filter``, ``early_stop``, ``safety_first``.
    The verdict and reason are those of the whole search."""
    for rule in rules:
        if isinstance(rule, GraphFiltering):
            rule.record(details, skips)
    early = early_stop_details(skips)
    if early is not None:
        details["early_stop"] = early
    for rule in rules:
        if not isinstance(rule, GraphFiltering):
            rule.record(details, skips)


def early_stop_details(skips: Counter[str]) -> dict[str, Any] | None:
    """``details["early_stop"]`` for the skips of the early-stop rules (None: they skipped nothing)."""
    kinds = Counter({kind: count for kind, count in skips.items() if kind != FILTERED})
    skipped = sum(kinds.values())
    if not skipped:
        return None
    counts = {"TLC stopped before evaluating any state": kinds[STOPPED],
              "TLC stopped on an error of the output's own formulas": kinds["own_error"],
              "the output has no initial state": kinds["no_initial_state"]}
    whys = [f"{why} under the same constant values" for why, count in counts.items() if count]
    if kinds["arity"]:
        whys.append("a constant stands for one of another arity, which SANY rejects (the check cannot be parsed)")
    if kinds["undefined_substitute"]:
        whys.append("the cfg substitutes a constant with a definition the output lacks, which TLC rejects")
    if kinds["assumption"]:
        whys.append("an ASSUME of the output is not TRUE under the constant values (one TLC run evaluated "
                    "them for every constant mapping)")
    early: dict[str, Any] = {"skipped": skipped, "why": "; ".join(whys)}
    for kind, count in sorted(kinds.items()):
        if kind != STOPPED:
            early[f"{kind}_skipped"] = count
    return early
