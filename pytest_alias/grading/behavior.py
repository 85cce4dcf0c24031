"""The behavior-based grade (paper section 3, appendices H and J): compare behaviors, not names.

An output G passes when, under one one-to-one mapping of the reference R's variables and
constants onto G's, both refinement checks pass (see :mod:`.refinement`):

* forward: every behavior of G is a behavior of R and satisfies R's cfg invariants and properties;
* reverse: every behavior of R satisfies G's safety formula, so an output that never moves fails.

Mappings come from :func:`.mapping.paper_mappings` (identical names first, at most 60). Deadlock is
not checked: refinement is about behaviors. R's cfg constant values apply to both runs.

The paper's procedure is :func:`_search` (read it beside section 3's behavior-based grade and
appendix H; appendix I's control labels are :func:`_labels_last_resort`): each mapping in order, the
forward check then the reverse one (:mod:`.mapping_checks`), the first mapping where both pass wins;
otherwise the ranked reason of :class:`FailureReasons`; a search past its time budget is no verdict.
The verdict-preserving speed-ups are rules beside it (:mod:`.search_rules`, built by
:func:`_search_rules`; none with ``ALIAS_SHORTCUTS=off``, when the search is exactly the paper's):

* early stop: :class:`~.search_rules.StoppedParts`, :class:`~.search_rules.ArityClashes`,
  :class:`~.search_rules.UndefinedSubstitutes`, :class:`~.search_rules.DoomedAssumptions`,
  :class:`~.search_rules.BrokenParts` skip mappings that must fail without changing the reason, and
  :class:`~.search_rules.SafetyFirst` checks R's safety part first after a fairness fallback;
* graph filter: :class:`~.search_rules.GraphFiltering` skips mappings the state graphs show must fail;
* graph pass: :class:`~.search_rules.GraphPass` reads the identity mapping's checks off kept graphs;
* self-check: :class:`~.search_rules.SelfCheckCopy` and :class:`~.search_rules.CopyOfReference` spare
  a copy of R the checks R's own grade (or its forward check) already made. What R's self-check found
  is read in one place, :func:`_self_check_passed`.

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

import math
import time
from collections import Counter
from typing import Any, Callable, Mapping

from ..errors import UsageProblem
from ..tasks.model import Condition
from ..tla.cfg import Cfg, CfgError, parse_cfg
from ..tla.modsplit import significant_text
from ..tla.runner import TlaTools
from ..tla.specfiles import SpecFiles
from ..vocabulary import MODES, TLC_TIMEOUT_S, Side, Stage, search_budget
from .assume_probe import AssumptionProbe
from .bindings import reference_bindings
from .extended import ExtendedInputs, extended_search, fallback_reason, on_data_variables, output_graph, reference_graph
from .extract import DEFAULT_MAX_BYTES, Extraction, extract_module
from .graphfilter import MIN_MAPPINGS, GraphFilter
from .guard import loaded_writer
from .integrity import unless_self_stopping
from .labels import label_variables
from .mapping import NameMapping, declared, paper_mappings
from .mapping_checks import MappingChecks
from .search_state import FailureReasons, MappingOutcome
from .outnames import output_names
from .parse_grade import sany_reason, staged_output
from .refinement import SpecFormula, renamed_module, short_hash, spec_formula, unconstrained_variables
from .context import GradeContext, grade_context
from .result import Evidence, GradeResult
from .search_rules import (ArityClashes, BrokenParts, CopyOfReference, DoomedAssumptions, GraphFiltering, GraphPass,
                           SafetyFirst, SearchRule, SelfCheckCopy, StoppedParts, UndefinedSubstitutes, record_skips)

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


#: Statuses of a check or dump that say something went wrong rather than that behaviors differ.
_ERRORS_NOT_VERDICTS = frozenset({"error", "config_error", "semantic_error", "parse_error", "out_of_memory", "crash"})


def grade_behavior(output_text: str | None, condition: Condition, tools: TlaTools | None = None, *,
                   timeout: float = TLC_TIMEOUT_S, mode: str = "paper", budget: float | None = None,
                   extraction: Extraction | None = None, max_bytes: int = DEFAULT_MAX_BYTES,
                   reference_passed: tuple[str, float] | None = None) -> GradeResult:
    """Grade ``output_text`` (a model's raw output) by behavior against ``condition``'s reference (see
    :func:`behavior_grader`); ``reference_passed``: the (mode, limit) of a self-check the reference
    passed (:attr:`.context.GradeContext.reference_passed`)."""
    if extraction is None:
        extraction = extract_module(output_text, max_bytes=max_bytes)
    ctx = grade_context(tools, timeout=timeout, mode=mode, search_budget=budget, reference_passed=reference_passed)
    return behavior_grader(extraction, condition, ctx)


def behavior_grader(extraction: Extraction, condition: Condition, ctx: GradeContext) -> GradeResult:
    """The behavior grade of ``extraction`` against ``condition``'s reference.

    ``ctx.mode`` is ``"paper"`` (the paper's search, at most 60 mappings) or ``"extended"`` (state-graph
    matching with value encodings, see :mod:`.extended`). ``ctx.timeout`` bounds each TLC run;
    ``ctx.search_budget`` (default :data:`~pytest_alias.vocabulary.SEARCH_BUDGET_LIMITS` × the limit)
    bounds the whole mapping search, and a search it cuts off fails with ``details["search_budget_spent"]``
    (side grader). ``details`` record the mode, the budget, the spec formula used, every mapping tried
    (first :data:`MAX_ATTEMPTS_KEPT`) with each check's TLC status, and the winning mapping; a failing
    verdict's ``details["side"]`` says who failed: ``output``, ``reference`` (it fails against itself
    too: not gradeable this way) or ``grader`` (a limit of this grader, not a verdict on the output).
    """
    result = _grade_behavior(extraction, condition, ctx)
    if result.passed:
        return unless_self_stopping(result, extraction)
    details = result.details
    if details.get("stage") == Stage.SPEC and spec_formula(condition.module_map, condition.main, None) is None:
        # A constant-only reference (ASSUMEs checked, no Init/Next): there are no behaviors to compare.
        details["side"] = Side.REFERENCE
        return GradeResult("behavior", False, "the reference cannot be graded this way: it has no spec formula nor "
                                              "Init and Next (a constant-only model), so there are no behaviors to "
                                              "compare", details, result.seconds)
    if details.get("side", Side.OUTPUT) == Side.OUTPUT and _tlc_went_wrong(details):
        why = reference_self_failure(condition, ctx)
        if why is not None:
            details["side"] = Side.REFERENCE
            details["output_reason"] = result.reason
            reason = (f"the reference cannot be graded this way: graded against itself it fails too ({why}); "
                      "the verdict says nothing about the output")
            return GradeResult("behavior", False, reason, details, result.seconds)
    details.setdefault("side", Side.OUTPUT)
    return result


def _tlc_went_wrong(details: Evidence) -> bool:
    """Whether a TLC run of the grade ended in an error rather than a verdict on behaviors."""
    attempts = details.get("attempts") or []
    statuses = {a.get(key) for a in attempts for key in ("forward", "reverse", "graph")}
    return bool(statuses & _ERRORS_NOT_VERDICTS)


def reference_self_failure(condition: Condition, ctx: GradeContext) -> str | None:
    """Why ``condition``'s reference fails the behavior grade against itself (None: it passes). Where the
    run's self-check showed it passing with this mode and limit (``ctx``; the ``self_check`` shortcut)
    it is not graded again; otherwise it is (each TLC run is cached by content)."""
    if ctx.reference_known_to_pass(ctx.mode, ctx.timeout):
        return None
    own = _grade_behavior(extract_module(condition.module_map[condition.main]), condition,
                          ctx.with_changes(search_budget=None, reference_passed=None))
    return None if own.passed else (own.reason or "no reason given")


def _grade_behavior(extraction: Extraction, condition: Condition, ctx: GradeContext) -> GradeResult:
    tools, timeout, mode, budget = ctx.tools, ctx.timeout, ctx.mode, ctx.search_budget
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
    staging, failure = staged_output(None, condition, details, extraction=extraction)
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

    details["stage"] = Stage.SPEC
    # The formula TLC would run with the cfg: an output's extra FairSpec beside the named Spec is not it.
    formula = spec_formula(staging.spec.modules, staging.spec.main, ref_cfg.specification, as_named=True)
    if formula is None:
        return verdict(False, "output has no spec formula (Init /\\ [][Next]_v) nor Init and Next operators")
    details["spec_formula"] = formula.name or "INIT Init NEXT Next"

    inputs = _search_inputs(tools, condition, staging.spec, formula, ref_cfg, timeout, details)
    if mode == "extended":
        extended = _extended_mode(tools, inputs, timeout, deadline, details, verdict)
        if extended is not None:
            return extended
    mappings, why_none = paper_mappings(inputs.ref_decl, inputs.gen_decl)
    details["stage"] = Stage.MAPPING
    if mappings:
        details["mappings_available"] = len(mappings)
        details["mappings_total"] = (math.factorial(len(inputs.ref_decl.variables))
                                     * math.factorial(len(inputs.ref_decl.constants)))
        result = _search(tools, inputs, mappings, timeout, deadline, details, verdict, fairness=mode == "extended",
                         ctx=ctx)
    else:
        result = verdict(False, why_none or "no mapping to try")
    if result.passed or not inputs.labels:
        return result
    return _labels_last_resort(tools, inputs, result.reason or "no mapping passed", timeout, details, verdict)


def _search_inputs(tools: TlaTools, condition: Condition, gen_spec: SpecFiles, formula: SpecFormula, ref_cfg: Cfg,
                   timeout: float, details: Evidence) -> ExtendedInputs:
    """What either search needs: G staged beside a renamed copy of R, both modules' declarations, R's
    control labels and cfg bindings (recorded in ``details``), and R's own spec formula."""
    ref_names = output_names(condition.spec()).visible
    prefix = _prefix(set(output_names(gen_spec).visible) | set(ref_names))
    ref_module = f"{prefix}Ref_{short_hash(*condition.module_map.values())}"
    gen_module = f"{prefix}Gen_{short_hash(gen_spec.modules[gen_spec.main])}"
    modules = {**gen_spec.modules, ref_module: renamed_module(condition.module_map[condition.main], ref_module)}
    staged = SpecFiles(gen_spec.main, modules)

    ref_decl = declared(condition.module_map, condition.main)
    gen_decl = declared(gen_spec.modules, gen_spec.main)
    labels = label_variables(condition.module_map, condition.main)
    if labels:
        details["control_labels"] = list(labels)
    bindings = reference_bindings(tools, condition, ref_cfg, ref_decl, timeout)
    if bindings.evidence() is not None:
        details["bindings"] = bindings.evidence()
    # R's own formula, read as G's is: its safety part stands in where TLC cannot evaluate its fairness.
    ref_formula = (spec_formula(condition.module_map, condition.main, ref_cfg.specification, as_named=True)
                   if ref_cfg.specification is not None else None)
    return ExtendedInputs(condition, gen_spec, staged, gen_module, formula, ref_module, ref_decl, gen_decl,
                          ref_cfg, prefix, labels, bindings, ref_formula)


def _extended_mode(tools: TlaTools, inputs: ExtendedInputs, timeout: float, deadline: float, details: Evidence,
                   verdict: Callable[[bool, str | None], GradeResult]) -> GradeResult | None:
    """Extended mode's grade (see :mod:`.extended`), or None where it needs R's state graph and cannot
    have it: then ``details["fallback"]`` says why, and the paper search runs instead."""
    gen_spec, formula = inputs.gen_spec, inputs.formula
    free = unconstrained_variables(gen_spec.modules, gen_spec.main, formula, inputs.gen_decl.variables)
    if free:
        details["stage"] = Stage.SPEC
        assert formula.subscript is not None  # unconstrained_variables finds none without a subscript
        return verdict(False, f"the output's spec formula {formula.name} has subscript {formula.subscript.strip()}, "
                              f"which leaves {', '.join(free)} free: a step that keeps the subscript may change "
                              f"{'it' if len(free) == 1 else 'them'} arbitrarily (TLC, which runs only Next, "
                              "never explores such steps)")
    fallback = fallback_reason(inputs.ref_cfg)
    ref_graph = None
    if fallback is None:
        ref_graph, fallback = reference_graph(tools, inputs.condition, inputs.ref_cfg, timeout)
    if ref_graph is not None:
        return extended_search(tools, inputs, ref_graph, timeout, deadline, details, verdict)
    details["fallback"] = f"paper search: {fallback}"
    return None


def copies_reference(output_text: str, condition: Condition) -> bool:
    """Whether the output stages as ``condition``'s reference itself (the modules SANY and TLC would
    read), the outputs whose behavior grade the self-check decides (:class:`.search_rules.SelfCheckCopy`)."""
    staging, failure = staged_output(output_text, condition, {})
    return failure is None and staging.spec is not None and \
        _as_read(staging.spec.modules) == _as_read(condition.module_map)


def _as_read(modules: Mapping[str, str]) -> dict[str, str]:
    """Module texts as SANY and TLC read them (what follows a module's footer left out: see significant_text)."""
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
            fairness: bool = False, ctx: GradeContext) -> GradeResult:
    """The paper's search (section 3, appendix H): each mapping in order, the forward check then the
    reverse one (:class:`.mapping_checks.MappingChecks`); the first mapping where both pass wins, else
    the ranked reason of :class:`FailureReasons`. ``deadline`` ends a search past its budget.

    With ``ctx.shortcuts`` the rules of :mod:`.search_rules` may skip mappings and checks that cannot
    change the verdict or reason (none with the shortcuts off). ``fairness`` (extended mode) has the reverse
    check test G's fairness too; without it (the paper's procedure) a pass of an output with fairness
    says, in ``details["leniency"]``, that it went unchecked.
    """
    rules = _search_rules(tools, inputs, mappings, timeout, deadline, fairness=fairness, shortcuts_on=ctx.shortcuts,
                          self_check_passed=ctx.reference_known_to_pass("extended" if fairness else "paper", timeout),
                          reference_checked=ctx.reference_known_to_pass("paper"))
    checks = MappingChecks(tools, inputs, timeout, deadline, fairness, rules)
    attempts: list[dict[str, Any]] = []
    details.update({"stage": Stage.TLC, "attempts": attempts})
    reasons, skips, tried = FailureReasons(), Counter[str](), 0
    for position, mapping in enumerate(mappings, 1):
        skipped = next((kind for rule in rules if (kind := rule.skip(mapping, position, reasons))), None)
        if skipped is not None:  # it must fail, and its failure cannot change the reason
            skips[skipped] += 1
            continue
        if deadline - time.perf_counter() <= 1:  # the budget, not the output, ends the search
            return _budget_spent(details, verdict, tried, len(mappings), reasons.best())
        tried += 1
        attempt: dict[str, Any] = {"mapping": mapping.to_dict()}
        if len(attempts) < MAX_ATTEMPTS_KEPT:
            attempts.append(attempt)
        outcome = checks.run(mapping, position, attempt, reasons)
        if outcome.failure is None:
            return _passed(details, verdict, outcome, tried, inputs.formula, fairness)
        reasons.add(attempt, outcome.failure)
        for rule in rules:
            rule.learn(outcome)
    details["mappings_tried"] = tried
    record_skips(details, rules, skips)
    return verdict(False, _none_passed(details, len(mappings), reasons))


def _passed(details: Evidence, verdict: Callable[[bool, str | None], GradeResult], outcome: MappingOutcome,
            tried: int, formula: SpecFormula, fairness: bool) -> GradeResult:
    """The search's pass at ``outcome``'s mapping, the ``tried``-th that TLC checked."""
    details.update({"mappings_tried": tried, "mapping": outcome.mapping.to_dict()})
    if outcome.attempt.get("fairness_unchecked"):  # a fairness TLC cannot evaluate as a property
        details["fairness_unchecked"] = outcome.attempt["fairness_unchecked"]
    if formula.fair and not fairness:
        _fairness_unchecked(details, formula)
    return verdict(True, None)


def _none_passed(details: Evidence, count: int, reasons: FailureReasons) -> str:
    """The reason of a search of ``count`` mappings none of which passed (the paper's cap noted)."""
    reason = reasons.best() or "no mapping passed"
    if count > 1:
        reason = f"none of {count} mappings passed; {reason}"
    total = details.get("mappings_total", count)
    if total > count:
        # The paper's cap of 60 is shared by variable and constant permutations (30 variable
        # mappings with two constants, 10 with three).
        add_leniency(details, "cap", f"the paper's search tries {count} of {total} mappings")
        reason += f" (the paper's cap: {count} of {total} mappings tried)"
    return reason


def _search_rules(tools: TlaTools, inputs: ExtendedInputs, mappings: list[NameMapping], timeout: float,
                  deadline: float, *, fairness: bool, shortcuts_on: bool, self_check_passed: bool = False,
                  reference_checked: bool = False) -> list[SearchRule]:
    """The rules the search asks, in its order (see :mod:`.search_rules`); none with the shortcuts off,
    so that the search is then exactly the paper's procedure. ``self_check_passed``: the run's self-check
    showed R passing with this search's mode and limit; ``reference_checked``: with the paper's mode at
    any limit (what the identity graphs need)."""
    if not shortcuts_on:
        return []
    rules: list[SearchRule] = [StoppedParts(), ArityClashes(inputs), UndefinedSubstitutes(inputs),
                               DoomedAssumptions(AssumptionProbe(tools, inputs, timeout, deadline), mappings)]
    if not (inputs.ref_cfg.constraints or inputs.ref_cfg.action_constraints):
        # R's constraint reaches G through the variable mapping: which states G explores depends on it.
        rules.append(BrokenParts(inputs))
    if len(mappings) >= MIN_MAPPINGS:  # below, the graph dumps would cost more than they save
        rules.append(GraphFiltering(GraphFilter(tools, inputs, timeout), mappings))
    rules.append(SafetyFirst())
    copy = _as_read(inputs.gen_spec.modules) == _as_read(inputs.condition.module_map)
    if copy and self_check_passed:
        rules.append(SelfCheckCopy())
    rules.append(GraphPass(tools, inputs, timeout, deadline, fairness=fairness, reference_checked=reference_checked))
    if copy:
        rules.append(CopyOfReference())
    return rules

