"""What the paper's mapping search learns as it goes: one mapping's outcome, and the ranked reason a
search in which no mapping passed gives (kept apart from the loop, the checks and the rules, which
all read them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from ..tla.tlc import TlcResult
from .mapping import NameMapping
from .refinement import Check

#: TLC statuses that say the behaviors differ (rather than that a mapping did not type-check).
_VIOLATIONS = frozenset({"invariant_violation", "property_violation", "deadlock", "assumption_failure"})

#: TLC's words for a step of the spec it runs that leaves a variable unassigned: in a forward check
#: that spec is G, so the error is G's whatever the mapping.
_OWN_ERROR = "is not completely specified"


def own_error(reason: str) -> bool:
    """Whether a forward check's failure ``reason`` is an error of G's own next-state relation."""
    return _OWN_ERROR in reason


@dataclass
class MappingOutcome:
    """What one mapping's checks showed: its attempt (as the details keep it) and, where one failed,
    which, why, and TLC's run of it."""

    mapping: NameMapping
    attempt: dict[str, Any]
    failure: str | None = None  # "<direction> check failed under mapping …: why" (None: both passed)
    direction: str | None = None  # the check that failed
    result: TlcResult | None = None  # TLC's run of it
    check: Check | None = None  # the check that run checked (R's safety part, where it fell back to it)
    forward_states: int | None = None  # G's distinct states, as the forward check counted them
    forward_fallback: str | None = None  # why the forward check fell back to R's safety part
    checked_first: bool = False  # the forward check failed on R's safety part, checked first (safety-first)


class FailureReasons:
    """The reason a search in which no mapping passed gives, by rank: the first mapping whose forward
    check passed (its reverse check failed: the forward check ran to its end, so it explains best);
    else the first mapping's forward check stopping on G's own error (a successor state G does not
    completely specify: G is broken under every mapping, and a later violation would only be a symptom
    of reading G's variables as the wrong ones); else the first mapping under which TLC found a
    violation (rather than an evaluation error that an ill-typed mapping causes); else the first failure."""

    def __init__(self) -> None:
        self.reverse: str | None = None
        self.own: str | None = None
        self.violation: str | None = None
        self.first: str | None = None

    def add(self, attempt: Mapping[str, Any], failure: str) -> None:
        """Count a mapping's ``failure``; ``attempt`` holds its checks' TLC statuses."""
        if self.first is None and attempt.get("forward") == "crash" and own_error(attempt.get("reason", "")):
            self.own = failure
        self.first = self.first or failure
        if attempt.get("forward") in ("ok", "vacuous"):
            self.reverse = self.reverse or failure
        if any(attempt.get(direction) in _VIOLATIONS for direction in ("forward", "reverse")):
            self.violation = self.violation or failure

    def violation_or_better(self) -> bool:
        """Whether the reason is settled at a violation or at a reason ranked above one."""
        return (self.reverse or self.own or self.violation) is not None

    def best(self) -> str | None:
        """The search's reason so far (None: no mapping failed yet)."""
        return self.reverse or self.own or self.violation or self.first
