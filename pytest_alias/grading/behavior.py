"""The behavior-based grade (paper section 3, appendices H and J): compare behaviors, not names.

An output G passes when, under one one-to-one mapping of the reference R's variables and
constants onto G's, both refinement checks pass (see :mod:`.refinement`):

* forward: every behavior of G is a behavior of R and satisfies R's cfg invariants and properties;
* reverse: every behavior of R satisfies G's safety formula, so an output that never moves fails.

Mappings come from :func:`.mapping.paper_mappings` (identical names first, at most 60). Deadlock is
not checked: refinement is about behaviors. R's cfg constant values apply to both runs.

Control labels (appendix I): when R has control-label variables (PlusCal's ``pc``, see
:mod:`.labels`) and no mapping passes, both modes compare the two reachable state graphs projected
on R's data variables, which must accept the same sequences of observable states. (The paper first
tries bijections between label strings; paper mode skips them, since any output that passes under
such a bijection has R's data projection and so passes the comparison anyway: the verdict is the
same.) ``mode="extended"`` (see :mod:`.extended`) replaces the mapping search by an
exact match of the two reachable state graphs, with value encodings (PlusCal labels renamed,
TRUE/FALSE for 1/0) confirmed through the INSTANCE substitutions, at a fixed number of TLC launches.
"""

from __future__ import annotations

from ..errors import UsageProblem
from ..vocabulary import search_budget

import math
import time
from collections import Counter
from typing import Any, Callable, Mapping

from ..tasks.model import Condition
from ..tla.cfg import CfgError, parse_cfg
from ..tla.runner import TlaTools, default_tools
from ..vocabulary import TLC_TIMEOUT_S
from ..tla.sidegraph import GRAPH_CAP
from ..tla.modsplit import significant_text
from ..tla.specfiles import SpecFiles
from ..tla.tlc import TlcResult
from .bindings import reference_bindings
from .extended import (ExtendedInputs, extended_search, fallback_reason, on_data_variables, output_graph,
                       reference_graph, run_limit)
from .labels import label_variables
from .extract import DEFAULT_MAX_BYTES, Extraction
from .mapping import NameMapping, arity_clash, constant_arities, declared, paper_mappings
from .outnames import output_names
from ..vocabulary import MODES, Side, Stage
from .assume_probe import AssumptionProbe
from .graphfilter import MIN_MAPPINGS, GraphFilter
from .graphpass import IdentityGraphs, identity
from .integrity import vacuous_behaviors
from .guard import loaded_writer
from . import shortcuts
from .parse_grade import sany_reason, staged_output
from .refinement import (Check, SpecFormula, explain_check, fairness_fallback, forward_check, renamed_module, reverse_check,
                         short_hash, spec_formula, unconstrained_variables)
from .result import Evidence, GradeResult

#: TLC statuses that say the behaviors differ (rather than that a mapping did not type-check).
_VIOLATIONS = frozenset({"invariant_violation", "property_violation", "deadlock", "assumption_failure"})
#: How many attempts a result's details keep.
MAX_ATTEMPTS_KEPT = 10



class UnknownModeError(UsageProblem):
    """A behavior-grade mode this build does not know (by type, so no message text is parsed)."""

def add_leniency(details: Evidence, kind: str, note: str) -> None:
    """Record that one of paper mode's known leniencies (or caps) may have decided a verdict."""
    details.setdefault("leniency", [])
    if kind not in details["leniency"]:
        details["leniency"].append(kind)
        details.setdefault("leniency_notes", []).append(note)


def _prefix(names: set[str]) -> str:
    """A prefix for generated names that no name of G or R starts with."""
    prefix = "Alias"
    while any(n.startswith(prefix) for n in names):
        prefix += "X"
    return prefix


def _run(tools: TlaTools, check: Check, timeout: float) -> tuple[TlcResult, str | None]:
    result = tools.tlc(check.spec, timeout=timeout, deadlock=False)
    return result, (None if result.ok else explain_check(result, check, timeout))


def _substituted(check: Check) -> frozenset[str]:
    """The definitions ``check``'s cfg substitutes for constants without a module qualifier (``X <- D``):
    where G lacks one, TLC rejects the cfg (see :func:`.shortcuts.undefined_substitute`)."""
    if check.spec.cfg is None:
        return frozenset()
    return frozenset(entry.value for entry in parse_cfg(check.spec.cfg).constants
                     if entry.op == "<-" and entry.module is None)


#: Statuses of a check or dump that say something went wrong rather than that behaviors differ.
_ERRORS_NOT_VERDICTS = frozenset({"error", "config_error", "semantic_error", "parse_error", "out_of_memory", "crash"})
#: Whether each reference passes against itself, by (reference, mode, limit, toolchain): None or why not.
_SELF_CHECKS: dict[tuple[str, str, float, str], str | None] = {}


def grade_behavior(output_text: str | None, condition: Condition, tools: TlaTools | None = None, *,
                   timeout: float = TLC_TIMEOUT_S, mode: str = "paper", budget: float | None = None,
                   extraction: Extraction | None = None, max_bytes: int = DEFAULT_MAX_BYTES) -> GradeResult:
    """Grade ``output_text`` (a model's raw output) by behavior against ``condition``'s reference.

    ``mode`` is ``"paper"`` (the paper's search, at most 60 mappings) or ``"extended"`` (state-graph
    matching with value encodings, see :mod:`.extended`). ``timeout`` bounds each TLC run; ``budget``
    (default :data:`~pytest_alias.options.SEARCH_BUDGET_LIMITS` × ``timeout``) bounds the whole mapping
    search, and a search it cuts off fails with ``details["search_budget_spent"]`` (side grader).
    ``details`` record the mode, the budget, the spec formula used, every mapping tried (first
    :data:`MAX_ATTEMPTS_KEPT`) with each check's TLC status, and the winning mapping; a failing
    verdict's ``details["side"]`` says who failed:
    ``output``, ``reference`` (it fails against itself too: not gradeable this way) or ``grader``
    (a limit of this grader, not a verdict on the output).
    """
    tools = tools or default_tools()
    result = _grade_behavior(output_text, condition, tools, timeout=timeout, mode=mode, budget=budget,
                             extraction=extraction, max_bytes=max_bytes)
    if result.passed:
        return result
    details = result.details
    if details.get("stage") == Stage.SPEC and spec_formula(condition.module_map, condition.main, None) is None:
        # A constant-only reference (ASSUMEs checked, no Init/Next): there are no behaviors to compare.
        details["side"] = Side.REFERENCE
        return GradeResult("behavior", False, "the reference cannot be graded this way: it has no spec formula nor "
                                              "Init and Next (a constant-only model), so there are no behaviors to "
                                              "compare", details, result.seconds)
    if details.get("side", Side.OUTPUT) == Side.OUTPUT and _tlc_went_wrong(details):
        why = reference_self_failure(condition, tools, mode=mode, timeout=timeout)
        if why is not None:
            details["side"] = Side.REFERENCE
            details["output_reason"] = result.reason
            reason = (f"the reference cannot be graded this way: graded against itself it fails too ({why}); "
                      "the verdict says nothing about the output")
            return GradeResult("behavior", False, reason, details, result.seconds)
    details.setdefault("side", Side.OUTPUT)
    return result


#: TLC's words for a step of the spec it runs that leaves a variable unassigned: in a forward check
#: that spec is G, so the error is G's whatever the mapping.
_OWN_ERROR = "is not completely specified"


def own_error(reason: str) -> bool:
    """Whether a forward check's failure ``reason`` is an error of G's own next-state relation."""
    return _OWN_ERROR in reason


def _tlc_went_wrong(details: Evidence) -> bool:
    """Whether a TLC run of the grade ended in an error rather than a verdict on behaviors."""
    attempts = details.get("attempts") or []
    statuses = {a.get(key) for a in attempts for key in ("forward", "reverse", "graph")}
    return bool(statuses & _ERRORS_NOT_VERDICTS) or "does not finish TLC (error" in str(details.get("fallback", ""))


def _self_check_key(condition: Condition, tools: TlaTools, mode: str, timeout: float) -> tuple[str, str, float, str]:
    return (short_hash(*condition.module_map.values(), condition.cfg or ""), mode, timeout, tools.toolchain.identity)


def reference_self_failure(condition: Condition, tools: TlaTools, *, mode: str = "paper",
                           timeout: float = TLC_TIMEOUT_S) -> str | None:
    """Why ``condition``'s reference fails the behavior grade against itself (None: it passes), once
    per reference, mode, limit and toolchain in a process (each TLC run is cached across processes)."""
    key = _self_check_key(condition, tools, mode, timeout)
    if key not in _SELF_CHECKS:
        own = _grade_behavior(condition.module_map[condition.main], condition, tools, timeout=timeout, mode=mode)
        _SELF_CHECKS[key] = None if own.passed else (own.reason or "no reason given")
    return _SELF_CHECKS[key]


def reference_passed_self_check(condition: Condition, tools: TlaTools, *, mode: str, timeout: float) -> None:
    """Record that the run's self-check of ``condition``'s task (its original condition, with this
    mode and limit) passed, so :func:`reference_self_failure` need not grade the reference again.

    A renamed condition is the original under other names (verified with SANY and TLC when it was
    prepared), so its reference passes too: the self-check the run's coverage made stands for every
    condition of the task, as its ``not_gradeable`` verdict already does. Part of the ``self_check``
    shortcut: with ``ALIAS_SHORTCUTS=off`` each condition's reference is graded against itself again."""
    if shortcuts.enabled():
        _SELF_CHECKS.setdefault(_self_check_key(condition, tools, mode, timeout), None)


def _grade_behavior(output_text: str | None, condition: Condition, tools: TlaTools, *, timeout: float, mode: str,
                    budget: float | None = None, extraction: Extraction | None = None,
                    max_bytes: int = DEFAULT_MAX_BYTES) -> GradeResult:
    if mode not in MODES:
        raise UnknownModeError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    started = time.perf_counter()
    budget = search_budget(budget, timeout)
    deadline = started + budget
    details: Evidence = {"mode": mode, "search_budget_s": budget}

    def verdict(passed: bool, reason: str | None) -> GradeResult:
        return GradeResult("behavior", passed, reason, details, time.perf_counter() - started)

    if condition.cfg is None:
        details.update({"stage": Stage.CFG, "side": Side.REFERENCE})
        return verdict(False, "task has no TLC configuration")
    staging, failure = staged_output(output_text, condition, details, extraction=extraction, max_bytes=max_bytes)
    if staging.spec is None:
        return verdict(False, failure)
    try:
        ref_cfg = parse_cfg(condition.cfg)
    except CfgError as exc:
        details.update({"stage": Stage.CFG, "side": Side.REFERENCE})
        return verdict(False, f"the task's cfg does not parse: {exc}")

    details["stage"] = Stage.SANY
    sany = tools.sany(staging.spec)
    if not sany.ok:
        details["sany_error_kinds"] = sorted({e.kind for e in sany.errors})
        return verdict(False, f"output does not parse: {sany_reason(sany)}")
    hazard = loaded_writer(sany.output, staging.spec.modules.values())  # what SANY read, before TLC runs
    if hazard is not None:
        details["stage"] = Stage.GUARD
        return verdict(False, f"{hazard} (SANY loaded it); not run")

    gen_main = staging.spec.main
    gen_text = staging.spec.modules[gen_main]
    details["stage"] = Stage.SPEC
    # The formula TLC would run with the cfg: an output's extra FairSpec beside the named Spec is not it.
    formula = spec_formula(staging.spec.modules, gen_main, ref_cfg.specification, as_named=True)
    if formula is None:
        return verdict(False, "output has no spec formula (Init /\\ [][Next]_v) nor Init and Next operators")
    details["spec_formula"] = formula.name or "INIT Init NEXT Next"

    ref_names = output_names(condition.spec()).visible
    prefix = _prefix(set(output_names(staging.spec).visible) | set(ref_names))
    ref_module = f"{prefix}Ref_{short_hash(*condition.module_map.values())}"
    gen_module = f"{prefix}Gen_{short_hash(gen_text)}"
    modules = {**staging.spec.modules, ref_module: renamed_module(condition.module_map[condition.main], ref_module)}
    staged = SpecFiles(gen_main, modules)

    ref_decl = declared(condition.module_map, condition.main)
    gen_decl = declared(staging.spec.modules, gen_main)
    labels = label_variables(condition.module_map, condition.main)
    if labels:
        details["control_labels"] = list(labels)
    bindings = reference_bindings(tools, condition, ref_cfg, ref_decl, timeout)
    if bindings.evidence() is not None:
        details["bindings"] = bindings.evidence()
    # R's own formula, read as G's is: its safety part stands in where TLC cannot evaluate its fairness.
    ref_formula = (spec_formula(condition.module_map, condition.main, ref_cfg.specification, as_named=True)
                   if ref_cfg.specification is not None else None)
    inputs = ExtendedInputs(condition, staging.spec, staged, gen_module, formula, ref_module, ref_decl, gen_decl,
                            ref_cfg, prefix, labels, bindings, ref_formula)
    if mode == "extended":
        free = unconstrained_variables(staging.spec.modules, gen_main, formula, gen_decl.variables)
        if free:
            details["stage"] = Stage.SPEC
            assert formula.subscript is not None  # unconstrained_variables finds none without a subscript
            return verdict(False, f"the output's spec formula {formula.name} has subscript {formula.subscript.strip()}, "
                                  f"which leaves {', '.join(free)} free: a step that keeps the subscript may change "
                                  f"{'it' if len(free) == 1 else 'them'} arbitrarily (TLC, which runs only Next, "
                                  "never explores such steps)")
        # Extended mode needs R's state graph; where it cannot have it, the paper search runs instead.
        fallback = fallback_reason(ref_cfg)
        ref_graph = None
        if fallback is None:
            ref_graph, fallback = reference_graph(tools, condition, ref_cfg, timeout)
        if ref_graph is not None:
            return extended_search(tools, inputs, ref_graph, timeout, deadline, details, verdict)
        details["fallback"] = f"paper search: {fallback}"
    mappings, why_none = paper_mappings(ref_decl, gen_decl)
    details["stage"] = Stage.MAPPING
    if mappings:
        details["mappings_available"] = len(mappings)
        details["mappings_total"] = math.factorial(len(ref_decl.variables)) * math.factorial(len(ref_decl.constants))
        result = _search(tools, inputs, mappings, timeout, deadline, details, verdict, fairness=mode == "extended")
    else:
        result = verdict(False, why_none or "no mapping to try")
    if result.passed or not labels:
        return result
    return _labels_last_resort(tools, inputs, result.reason or "no mapping passed", timeout, details, verdict)


def _as_read(modules: Mapping[str, str]) -> dict[str, str]:
    """Module texts as SANY and TLC read them (a copy's trailing modification history left out)."""
    return {name: significant_text(text) for name, text in modules.items()}


def _fairness_unchecked(details: Evidence, formula: SpecFormula) -> None:
    """Say that a pass left the output's fairness unchecked (the paper's reverse check tests safety only)."""
    add_leniency(details, "fairness", f"the output's fairness in {formula.name} was not checked "
                                      "(the paper's reverse check tests its safety formula only)")


def _labels_last_resort(tools: TlaTools, inputs: ExtendedInputs, failure: str, timeout: float,
                        details: Evidence, verdict: Callable[[bool, str | None], GradeResult]) -> GradeResult:
    """Appendix I after the paper search failed on a reference with control labels: compare the two
    state graphs on the data variables (see :func:`.extended.on_data_variables`)."""
    ref_graph, why = reference_graph(tools, inputs.condition, inputs.ref_cfg, timeout)
    constants: tuple[tuple[str, str], ...]
    gen_graph, constants = None, ()
    if ref_graph is not None:
        gen_graph, constants, why = output_graph(tools, inputs, timeout)
    if ref_graph is None or gen_graph is None:
        details["data_variables"] = {"labels": list(inputs.labels), "skipped": why}
        return verdict(False, f"{failure}; not compared on the data variables: {why}")
    passed, reason = on_data_variables(inputs, ref_graph, gen_graph, constants, failure, details)
    if passed:
        add_leniency(details, "labels", "no mapping passed; the output passed appendix I's comparison on the data "
                                        f"variables, control labels {', '.join(inputs.labels)} left out")
    return verdict(passed, reason)


def _budget_spent(details: Evidence, verdict: Callable[[bool, str | None], GradeResult], tried: int, total: int,
                  failure: str | None) -> GradeResult:
    """The search cut off by its time budget: the grader's limit, not the output, ended it (a mapping not
    yet tried might have passed), so it is no verdict on the output: outcome "search budget spent", left
    out of the rates, and never stored as the output's verdict (side grader)."""
    details.update({"mappings_tried": tried, "side": Side.GRADER, "search_budget_spent": True})
    budget = details.get("search_budget_s", 0.0)
    reason = (f"search ran out of its time budget ({budget:g} s) after {tried} of {total} mapping(s), "
              "no verdict on the output")
    return verdict(False, f"{reason}; {failure}" if failure else reason)


def _search(tools: TlaTools, inputs: ExtendedInputs, mappings: list[NameMapping], timeout: float, deadline: float,
            details: Evidence, verdict: Callable[[bool, str | None], GradeResult], *,
            fairness: bool = False) -> GradeResult:
    """Try each mapping in turn: forward, then reverse; pass at the first mapping where both pass.

    ``fairness`` (extended mode) has the reverse check test G's fairness too; without it (the paper's
    procedure) a pass of an output with fairness says, in ``details["leniency"]``, that it went unchecked.
    """
    staged, formula, ref_module, ref_decl, ref_cfg, prefix = (inputs.staged, inputs.formula, inputs.ref_module,
                                                               inputs.ref_decl, inputs.ref_cfg, inputs.prefix)
    attempts: list[dict[str, Any]] = []
    details.update({"stage": Stage.TLC, "attempts": attempts})
    first_failure: str | None = None
    reverse_failure: str | None = None  # a mapping whose forward check passed explains best
    # Next best: a mapping under which TLC found a violation, rather than an evaluation error that an
    # ill-typed mapping (a set variable standing for a number) causes.
    violation_failure: str | None = None
    # Best of all: the first mapping's forward check stopped on G's own error (a successor state G does
    # not completely specify): G is broken under every mapping, and a later mapping's violation would
    # only be a symptom of reading G's variables as the wrong ones.
    own_failure: str | None = None
    # Constant parts whose forward check stopped before TLC evaluated a state (early stop: see shortcuts).
    stopped: set[tuple[tuple[str, str], ...]] = set() if shortcuts.enabled() else None  # type: ignore[assignment]
    # Constant parts under which G's own formulas failed (early stop too, see shortcuts.own_state_error):
    # G explores the same states in the same order under every mapping with those constants, so each
    # such forward check stops on that error or on a violation before it. None can pass; once the reason
    # is settled by an earlier mapping (own error, violation or forward pass), none can change it either.
    # The same holds where G's Init has no state under the constants: every forward check with them
    # passes vacuously and every reverse check fails (see shortcuts). Each constant part maps to which
    # of the two showed it ("own_error", "no_initial_state"). Not where R's cfg constrains the states:
    # its constraint reaches G through the variable mapping, so which states G explores depends on it.
    broken: dict[tuple[tuple[str, str], ...], str] | None = (
        {} if stopped is not None and not (ref_cfg.constraints or ref_cfg.action_constraints) else None)
    # R's modules other than its main one may be staged under their own names: never G's.
    ref_helpers = frozenset(inputs.condition.module_map) - {inputs.condition.main}
    gen_modules = frozenset(inputs.gen_spec.modules) - ref_helpers
    skipped = 0
    broken_skipped: Counter[str] = Counter()  # mappings skipped per kind of ``broken``
    # Mappings whose check the state graphs show must fail (see graphfilter): skipped once their
    # failure can no longer be the search's reason, so the verdict and reason stay those of TLC.
    graphs = GraphFilter(tools, inputs, timeout) if shortcuts.enabled() and len(mappings) >= MIN_MAPPINGS else None
    run: list[tuple[NameMapping, dict[str, Any]]] = []  # the mappings TLC checked, to test the graphs against
    filtered = 0
    # A graph of G is dumped per constant part, and only where it can save TLC runs: after TLC has
    # checked one mapping with those constants (a start-up failure ends them all, see early stop)
    # and while at least two mappings with them remain.
    remaining = Counter(m.constants for m in mappings)
    # Constant parts under which one of G's own assumptions is not TRUE (see assume_probe): their forward
    # checks stop at start-up on an assumption failure, which can add to the reason only as its first
    # violation; so once a violation, or a reason ranked above one, is settled, they are skipped.
    # Probed when first needed, for the parts not yet tried.
    probe = AssumptionProbe(tools, inputs, timeout, deadline) if stopped is not None else None
    tried_parts: set[tuple[tuple[str, str], ...]] = set()
    # Constants' arities (early stop): a mapping that has a constant stand for one of another arity
    # cannot be parsed, so it fails whatever else it maps; once a failure has settled the first-failure
    # reason, such a failure can never become the search's reason.
    arities = ((constant_arities(inputs.condition.module_map, inputs.condition.main),
                constant_arities(inputs.gen_spec.modules, inputs.gen_spec.main)) if stopped is not None else None)
    # Definitions G lacks that a forward cfg substituted for a constant (early stop): TLC rejects every
    # cfg that substitutes with one of them, before any state, whatever the rest of the mapping; once a
    # failure has settled the first-failure reason, such a failure can never become the search's reason.
    undefined: set[str] = set()
    # Why an earlier mapping's forward check fell back to R's safety part (TLC could not evaluate R's
    # fairness), once one did (early stop). A forward check that fails on the safety part fails on the
    # whole formula too, so once the reason is settled, later mappings check the safety part first and
    # the whole formula only where that passes: one TLC run instead of two for each failing mapping
    # whose whole-formula check would have stopped on that fairness too.
    forward_fallback: str | None = None
    safety_first = 0
    # An output that is R itself (the same modules: the self-check, a verbatim copy): under the identity
    # mapping the reverse check runs R and checks R's own safety formula, which the forward check, on
    # the same states, has already checked (with R's fairness and invariants too).
    copy_of_reference = shortcuts.enabled() and _as_read(inputs.gen_spec.modules) == _as_read(inputs.condition.module_map)
    # Where R also passed its own grade with this mode and limit (the run's self-check, see
    # reference_passed_self_check), the identity mapping's two checks are that grade's: not run again.
    self_key = _self_check_key(inputs.condition, tools, "extended" if fairness else "paper", timeout)
    self_passed = copy_of_reference and self_key in _SELF_CHECKS and _SELF_CHECKS[self_key] is None
    for tried, mapping in enumerate(mappings, 1):
        remaining[mapping.constants] -= 1
        if stopped is not None and mapping.constants in stopped:
            skipped += 1
            continue
        if arities is not None and first_failure is not None and arity_clash(mapping, *arities):
            skipped += 1
            broken_skipped["arity"] += 1
            continue
        if undefined and first_failure is not None and undefined & _substituted(
                forward_check(staged, formula, ref_module, ref_decl, ref_cfg, mapping, prefix, bindings=inputs.bindings)):
            skipped += 1
            broken_skipped["undefined_substitute"] += 1
            continue
        if (probe is not None and (reverse_failure or own_failure or violation_failure) is not None
                and mapping.constants not in tried_parts):
            upcoming = list(dict.fromkeys(m.constants for m in mappings[tried:] if m.constants not in tried_parts))
            if probe.doomed(mapping.constants, upcoming):
                skipped += 1
                broken_skipped["assumption"] += 1
                continue
        if (broken is not None and mapping.constants in broken
                and (reverse_failure or own_failure or violation_failure) is not None):
            skipped += 1
            broken_skipped[broken[mapping.constants]] += 1
            continue
        if (graphs is not None and first_failure is not None
                and (graphs.dumped(mapping.constants) or (remaining[mapping.constants] >= 1
                                                          and any(m.constants == mapping.constants for m, _ in run)))):
            failing = graphs.failing(mapping) if graphs.agrees(run) else None
            # Skipped only where TLC's failure could not be the reason: the reason is the first
            # mapping whose forward check passed, else the first violation, else the first failure.
            settled = reverse_failure is not None or own_failure is not None
            if (failing == "forward_error" or (failing == "forward" and violation_failure is not None)
                    or (failing is not None and settled)):
                filtered += 1
                continue
        left = deadline - time.perf_counter()
        if left <= 1:
            return _budget_spent(details, verdict, tried - 1 - skipped - filtered, len(mappings),
                                 reverse_failure or own_failure or violation_failure or first_failure)
        tried_parts.add(mapping.constants)
        attempt: dict[str, Any] = {"mapping": mapping.to_dict()}
        forward_states: int | None = None
        if len(attempts) < MAX_ATTEMPTS_KEPT:
            attempts.append(attempt)
        run.append((mapping, attempt))
        failure: str | None = None
        # The identity mapping's checks that the state graphs already decide (see graphpass).
        as_self_check = self_passed and identity(mapping)
        known = (IdentityGraphs.open(tools, inputs, mapping, timeout, fairness=fairness)
                 if tried == 1 and not as_self_check else None)
        if known is not None:
            known.draw(tools, run_limit(timeout, deadline))
        for direction in ("forward", "reverse"):
            if known is not None and known.decides(direction):
                attempt[direction] = "ok"
                attempt.setdefault("by_graphs", []).append(direction)
                if direction == "forward":
                    forward_states = known.output_states
                continue
            if as_self_check:
                attempt[direction] = "ok"
                attempt["by_copy"] = "the output is the reference, which passed its own grade (the run's self-check)"
                continue
            if (direction == "reverse" and copy_of_reference and attempt.get("forward") == "ok"
                    and identity(mapping)):
                attempt["reverse"] = "ok"
                attempt["by_copy"] = "the output is the reference: its forward check covers the reverse one"
                continue
            def build(safety: bool = False) -> Check:
                if direction == "forward":
                    return forward_check(staged, formula, ref_module, ref_decl, ref_cfg, mapping, prefix,
                                         bindings=inputs.bindings, ref_safety=inputs.ref_formula if safety else None)
                return reverse_check(staged, inputs.gen_module, formula, ref_module, ref_decl, ref_cfg, mapping,
                                     prefix, fairness=fairness and not safety)

            check = build()
            limit = run_limit(timeout, deadline)
            # R's safety part first (see forward_fallback); where it fails, that is the check's result.
            first = (_run(tools, build(safety=True), limit)
                     if direction == "forward" and forward_fallback is not None
                     and (reverse_failure or own_failure or violation_failure) is not None else None)
            failed_first = first if first is not None and first[1] is not None else None
            if direction == "forward" and known is not None and known.wants_forward_graph():
                # G's graph from this check may decide the reverse check (see graphpass).
                result, gen_graph = tools.tlc_keeping_graph(check.spec, timeout=limit, cap=GRAPH_CAP, deadlock=False)
                why = None if result.ok else explain_check(result, check, limit)
                known.adopt(gen_graph)
            elif failed_first is not None:
                result, why = failed_first
                attempt.setdefault("fairness_unchecked", []).append(f"{forward_fallback} (checked first)")
                safety_first += 1
            else:
                result, why = _run(tools, check, limit)
            fallback = (None if failed_first is not None
                        else fairness_fallback(direction, result, inputs.ref_formula, formula, fairness))
            if fallback is not None:  # TLC cannot evaluate the fairness as a property: its safety part instead
                attempt.setdefault("fairness_unchecked", []).append(fallback)
                check = build(safety=True)
                # The safety part was checked first under this limit (and passed): that is its result.
                result, why = first or _run(tools, check, run_limit(timeout, deadline))
                if direction == "forward" and stopped is not None:
                    forward_fallback = fallback
            if (direction == "forward" and why is None and result.ok and result.distinct_states != 0
                    and not copy_of_reference):
                # A forward pass on no behavior at all (fairness never met) says nothing. Without an
                # initial state the reverse check fails, as the paper's procedure has it (and early stop);
                # an output that is the reference has the reference's behaviors.
                why = vacuous_behaviors(tools, check.spec, run_limit(timeout, deadline), inputs.gen_spec)
                if why is not None:
                    attempt["integrity"] = why
            attempt[direction] = "vacuous" if direction == "forward" and "integrity" in attempt else result.status
            if direction == "forward":
                forward_states = result.distinct_states
            if why is not None:
                failure = f"{direction} check failed under mapping {mapping.describe()}: {why}"
                attempt["reason"] = failure
                if stopped is not None and direction == "forward":
                    missing = shortcuts.undefined_substitute(result.status, result.output)
                    if missing is not None and missing in _substituted(check):
                        undefined.add(missing)
                    if shortcuts.startup_failure(result.status, result.output, result.distinct_states):
                        stopped.add(mapping.constants)
                    elif (broken is not None and result.status == "crash"
                          and shortcuts.own_state_error(result.output, prefix, ref_helpers, gen_modules)):
                        broken[mapping.constants] = "own_error"
                elif direction == "reverse" and broken is not None and forward_states == 0:
                    broken[mapping.constants] = "no_initial_state"
                break
        if failure is None:
            details.update({"mappings_tried": tried - skipped - filtered, "mapping": mapping.to_dict()})
            if attempt.get("fairness_unchecked"):  # a fairness TLC cannot evaluate as a property
                details["fairness_unchecked"] = attempt["fairness_unchecked"]
            if formula.fair and not fairness:
                _fairness_unchecked(details, formula)
            return verdict(True, None)
        if first_failure is None and attempt.get("forward") == "crash" and own_error(attempt.get("reason", "")):
            own_failure = failure
        first_failure = first_failure or failure
        if attempt.get("forward") in ("ok", "vacuous"):  # the forward check ran to its end: it explains best
            reverse_failure = reverse_failure or failure
        if any(attempt.get(d) in _VIOLATIONS for d in ("forward", "reverse")):
            violation_failure = violation_failure or failure
    details["mappings_tried"] = len(mappings) - skipped - filtered
    if graphs is not None and (filtered or graphs.off or graphs.dumps):
        details["graph_filter"] = {"skipped": filtered, "graph_dumps": graphs.dumps, **({"off": graphs.off} if graphs.off else {})}
    if skipped:  # the verdict and reason are those of the whole search (see shortcuts.startup_failure)
        counts = {"TLC stopped before evaluating any state": skipped - sum(broken_skipped.values()),
                  "TLC stopped on an error of the output's own formulas": broken_skipped["own_error"],
                  "the output has no initial state": broken_skipped["no_initial_state"]}
        whys = [f"{why} under the same constant values" for why, count in counts.items() if count]
        if broken_skipped["arity"]:
            whys.append("a constant stands for one of another arity, which SANY rejects (the check cannot be parsed)")
        if broken_skipped["undefined_substitute"]:
            whys.append("the cfg substitutes a constant with a definition the output lacks, which TLC rejects")
        if broken_skipped["assumption"]:
            whys.append("an ASSUME of the output is not TRUE under the constant values (one TLC run evaluated "
                        "them for every constant mapping)")
        details["early_stop"] = {"skipped": skipped, "why": "; ".join(whys)}
        for kind, count in sorted(broken_skipped.items()):
            details["early_stop"][f"{kind}_skipped"] = count
    if safety_first:  # the verdict and reason are those of the whole search
        details["safety_first"] = {
            "checks": safety_first,
            "why": "TLC could not evaluate the reference's fairness under an earlier mapping; once the reason was "
                   "settled, later forward checks that failed on its safety part were not run on the whole formula"}
    reason = reverse_failure or own_failure or violation_failure or first_failure or "no mapping passed"
    if len(mappings) > 1:
        reason = f"none of {len(mappings)} mappings passed; {reason}"
    total = details.get("mappings_total", len(mappings))
    if total > len(mappings):
        # The paper's cap of 60 is shared by variable and constant permutations (30 variable
        # mappings with two constants, 10 with three).
        add_leniency(details, "cap", f"the paper's search tries {len(mappings)} of {total} mappings")
        reason += f" (the paper's cap: {len(mappings)} of {total} mappings tried)"
    return verdict(False, reason)
