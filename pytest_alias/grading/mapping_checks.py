"""One name mapping's refinement checks in the paper's search: forward, then reverse (see :mod:`.behavior`).

Each check is one TLC run of :func:`.refinement.forward_check` or :func:`.refinement.reverse_check`,
as the paper has it, with two steps that belong to the grade itself (on with the shortcuts off too):

* fairness fallback: where TLC cannot evaluate a fairness as a property, the check runs again on the
  formula's safety part (:func:`.refinement.fairness_fallback`);
* vacuity probe: a forward pass on no behavior at all (a fairness never met) says nothing, so a passing
  forward check is asked whether its formula admits a behavior (:func:`.integrity.vacuous_behaviors`).

The search's rules (:mod:`.search_rules`) may decide a check without running it (the graph pass, a copy
of the reference), run the forward check their own way (keeping G's graph), or run R's safety part first
(safety-first); with no rules, every check runs as above.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..tla.runner import TlaTools
from ..tla.tlc import TlcResult
from .extended import ExtendedInputs, run_limit
from .integrity import vacuous_behaviors
from .mapping import NameMapping
from .search_state import FailureReasons, MappingOutcome
from .refinement import Check, explain_check, fairness_fallback, forward_check, reverse_check

if TYPE_CHECKING:
    from .search_rules import SearchRule

#: The two checks of a mapping, in the order the paper runs them.
DIRECTIONS = ("forward", "reverse")


def run_check(tools: TlaTools, check: Check, timeout: float) -> tuple[TlcResult, str | None]:
    """TLC's run of ``check`` and why it failed (None: it passed)."""
    result = tools.tlc(check.spec, timeout=timeout, deadlock=False)
    return result, (None if result.ok else explain_check(result, check, timeout))


@dataclass
class MappingChecks:
    """Runs mappings' checks for one search. ``fairness`` (extended mode's fallback to this search) has
    the reverse check test G's fairness too."""

    tools: TlaTools
    inputs: ExtendedInputs
    timeout: float
    deadline: float
    fairness: bool
    rules: list[SearchRule] = field(default_factory=list)

    def run(self, mapping: NameMapping, position: int, attempt: dict[str, Any],
            reasons: FailureReasons) -> MappingOutcome:
        """The forward check, then, where it passed, the reverse one, of ``mapping`` (the search's
        ``position``-th); ``reasons``: the search's failures so far (which safety-first reads)."""
        outcome = MappingOutcome(mapping, attempt)
        for direction in DIRECTIONS:
            if any(rule.decides(direction, outcome, position) for rule in self.rules):
                continue
            result, why, check = self._checked(direction, outcome, position, reasons)
            if direction == "forward":
                outcome.forward_states = result.distinct_states
            if why is not None:
                outcome.failure = f"{direction} check failed under mapping {mapping.describe()}: {why}"
                outcome.direction, outcome.result, outcome.check = direction, result, check
                attempt["reason"] = outcome.failure
                break
        return outcome

    def _build(self, direction: str, mapping: NameMapping, safety: bool = False) -> Check:
        """``direction``'s check under ``mapping``; ``safety``: on the safety part of the formula whose
        fairness TLC cannot evaluate (R's for the forward check, G's for the reverse one)."""
        i = self.inputs
        if direction == "forward":
            return forward_check(i.staged, i.formula, i.ref_module, i.ref_decl, i.ref_cfg, mapping, i.prefix,
                                 bindings=i.bindings, ref_safety=i.ref_formula if safety else None)
        return reverse_check(i.staged, i.gen_module, i.formula, i.ref_module, i.ref_decl, i.ref_cfg, mapping,
                             i.prefix, fairness=self.fairness and not safety)

    def _checked(self, direction: str, outcome: MappingOutcome, position: int,
                 reasons: FailureReasons) -> tuple[TlcResult, str | None, Check]:
        """Run ``direction``'s check (falling back to a safety part where TLC cannot evaluate a fairness),
        record its status in the attempt, and return TLC's result, why it failed, and the check run."""
        attempt, mapping = outcome.attempt, outcome.mapping
        check = self._build(direction, mapping)
        limit = run_limit(self.timeout, self.deadline)
        # R's safety part first (safety-first); where it fails, that is the check's result.
        first_why = next((why for rule in self.rules if (why := rule.safety_first(direction, reasons))), None)
        first = run_check(self.tools, self._build(direction, mapping, safety=True), limit) if first_why else None
        failed_first = first if first is not None and first[1] is not None else None
        kept = (next((run for rule in self.rules if (run := rule.run_forward(self.tools, check, limit, position))),
                     None) if direction == "forward" else None)
        if kept is not None:
            result, why = kept
        elif failed_first is not None:
            result, why = failed_first
            attempt.setdefault("fairness_unchecked", []).append(f"{first_why} (checked first)")
            outcome.checked_first = True
        else:
            result, why = run_check(self.tools, check, limit)
        fallback = (None if failed_first is not None
                    else fairness_fallback(direction, result, self.inputs.ref_formula, self.inputs.formula,
                                           self.fairness))
        if fallback is not None:  # TLC cannot evaluate the fairness as a property: its safety part instead
            attempt.setdefault("fairness_unchecked", []).append(fallback)
            check = self._build(direction, mapping, safety=True)
            # The safety part was checked first under this limit (and passed): that is its result.
            result, why = first or run_check(self.tools, check, run_limit(self.timeout, self.deadline))
            if direction == "forward":
                outcome.forward_fallback = fallback
        if direction == "forward" and why is None:
            why = self._vacuous(result, check, attempt)
        attempt[direction] = "vacuous" if direction == "forward" and "integrity" in attempt else result.status
        return result, why, check

    def _vacuous(self, result: TlcResult, check: Check, attempt: dict[str, Any]) -> str | None:
        """Why a passing forward check's pass is on no behavior at all (fairness never met), or None.

        Without an initial state the reverse check fails, as the paper's procedure has it (and early
        stop); an output the rules know to be the reference has the reference's behaviors."""
        if not result.ok or result.distinct_states == 0 or any(rule.knows_behaviors() for rule in self.rules):
            return None
        why = vacuous_behaviors(self.tools, check.spec, run_limit(self.timeout, self.deadline), self.inputs.gen_spec)
        if why is not None:
            attempt["integrity"] = why
        return why
