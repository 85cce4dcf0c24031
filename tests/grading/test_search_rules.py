"""The mapping search's rules (grading/search_rules.py): none with the shortcuts off, and each fires.

The rules are tried on made-up outcomes here (no TLC); that each keeps the plain verdict and reason on
real SANY and TLC runs is shown by the tests their docstrings name.
"""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace
from typing import Any

import pytest

from pytest_alias import switches
from pytest_alias.grading import behavior, search_rules
from pytest_alias.grading.behavior import grade_behavior
from pytest_alias.grading.search_state import FailureReasons
from pytest_alias.grading.mapping import NameMapping
from pytest_alias.grading.search_state import MappingOutcome
from pytest_alias.grading.refinement import Check
from pytest_alias.grading.result import Evidence
from pytest_alias.grading.search_rules import (FILTERED, STOPPED, ArityClashes, BrokenParts, CopyOfReference,
                                               DoomedAssumptions, GraphFiltering, GraphPass, SafetyFirst,
                                               SelfCheckCopy, StoppedParts, UndefinedSubstitutes, early_stop_details,
                                               record_skips)
from pytest_alias.tasks.model import Task
from pytest_alias.tla.runner import TlaTools
from pytest_alias.tla.specfiles import SpecFiles
from pytest_alias.tla.tlc import TlcResult

COUNTER = """---- MODULE Counter ----
EXTENDS Naturals
VARIABLES x, y
Init == x = 0 /\\ y = 0
Next == x < 2 /\\ x' = x + 1 /\\ y' = y
Spec == Init /\\ [][Next]_<<x, y>>
====
"""

IDENTITY = NameMapping((("x", "x"), ("y", "y")), (("N", "N"), ("M", "M")))
SWAPPED_VARIABLES = NameMapping((("x", "y"), ("y", "x")), (("N", "N"), ("M", "M")))
SWAPPED_CONSTANTS = NameMapping((("x", "x"), ("y", "y")), (("N", "M"), ("M", "N")))


def tlc(status: str, output: str = "", states: int | None = None) -> TlcResult:
    return TlcResult(status, None, (), states, None, None, 0.0, output)  # type: ignore[arg-type]


def failed(mapping: NameMapping, direction: str, result: TlcResult, **more: Any) -> MappingOutcome:
    attempt = {"mapping": mapping.to_dict(), direction: result.status}
    return MappingOutcome(mapping, attempt, failure=f"{direction} check failed", direction=direction, result=result,
                          **more)


def settled(*, first: bool = True, violation: bool = False) -> FailureReasons:
    reasons = FailureReasons()
    reasons.first = "first failure" if first else None
    reasons.violation = "a violation" if violation else None
    return reasons


def test_the_reasons_rank_as_the_paper_search_has_them() -> None:
    reasons = FailureReasons()
    assert reasons.best() is None and not reasons.violation_or_better()
    reasons.add({"forward": "semantic_error"}, "type error")
    reasons.add({"forward": "invariant_violation"}, "violation")
    assert reasons.best() == "violation" and reasons.violation_or_better()
    reasons.add({"forward": "ok", "reverse": "invariant_violation"}, "reverse failure")
    assert (reasons.first, reasons.best()) == ("type error", "reverse failure")
    own = FailureReasons()
    own.add({"forward": "crash", "reason": "Successor state is not completely specified"}, "own error")
    own.add({"forward": "invariant_violation"}, "violation")
    assert own.best() == "own error"


@pytest.mark.parametrize("way", ["off", "on"])
def test_the_rules_are_none_with_the_shortcuts_off(way: str, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """``ALIAS_SHORTCUTS=off``: the search asks no rule, so it is the paper's procedure as written."""
    made: list[list[Any]] = []
    real = behavior._search_rules

    def spy(*args: Any, **kwargs: Any) -> list[Any]:
        made.append(real(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(behavior, "_search_rules", spy)
    monkeypatch.setenv(switches.ENV, way)
    condition = Task("counter", "d", (("Counter", COUNTER),), "SPECIFICATION Spec\n").original()
    result = grade_behavior(COUNTER.replace("x < 2", "x < 3"), condition, TlaTools(cache_dir=tmp_path), timeout=60)
    assert not result.passed and len(made) == 1
    if way == "off":
        assert made[0] == []
    else:  # two mappings: too few for the graph filter; not a copy of the reference
        assert [type(rule) for rule in made[0]] == [StoppedParts, ArityClashes, UndefinedSubstitutes,
                                                    DoomedAssumptions, BrokenParts, SafetyFirst, GraphPass]
    assert behavior._search_rules(None, None, [], 60.0, 0.0, fairness=False, shortcuts_on=False) == []  # type: ignore[arg-type]


def test_stopped_parts() -> None:
    rule = StoppedParts()
    rule.learn(failed(IDENTITY, "forward", tlc("config_error", "The constant parameter N is not assigned")))
    assert rule.skip(SWAPPED_VARIABLES, 2, settled(first=False)) == STOPPED
    assert rule.skip(SWAPPED_CONSTANTS, 3, settled()) is None
    # A run that evaluated states is no start-up failure.
    later = StoppedParts()
    later.learn(failed(IDENTITY, "forward", tlc("crash", "@!@!@STARTMSG 2189:", states=3)))
    assert later.skip(SWAPPED_VARIABLES, 2, settled()) is None


ARITY = "---- MODULE R ----\nCONSTANTS F(_), N, M\nVARIABLES x, y\n====\n"


def test_arity_clashes() -> None:
    modules = SimpleNamespace(module_map={"R": ARITY}, main="R")
    gen = SimpleNamespace(modules={"R": ARITY}, main="R")
    rule = ArityClashes(SimpleNamespace(condition=modules, gen_spec=gen))  # type: ignore[arg-type]
    clash = NameMapping((("x", "x"), ("y", "y")), (("F", "N"), ("N", "F"), ("M", "M")))
    same = NameMapping((("x", "x"), ("y", "y")), (("F", "F"), ("N", "M"), ("M", "N")))
    assert rule.skip(clash, 2, settled()) == "arity"
    assert rule.skip(clash, 2, settled(first=False)) is None  # the first failure is not settled yet
    assert rule.skip(same, 2, settled()) is None


def test_undefined_substitutes(monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = "CONSTANTS Step <- MCStep\n  N = 3\nSPECIFICATION Spec\n"
    check = Check("forward", SpecFiles("G", {"G": "---- MODULE G ----\n====\n"}, cfg), {})
    monkeypatch.setattr(search_rules, "forward_check", lambda *args, **kwargs: check)
    rule = UndefinedSubstitutes(SimpleNamespace(staged=None, formula=None, ref_module="R", ref_decl=None,
                                                ref_cfg=None, prefix="Alias", bindings=None))  # type: ignore[arg-type]
    assert rule.skip(SWAPPED_CONSTANTS, 2, settled()) is None  # nothing learnt yet
    message = "The configuration file substitutes for Step with the undefined identifier MCStep.\n"
    rule.learn(failed(IDENTITY, "forward", tlc("config_error", message), check=check))
    assert rule.undefined == {"MCStep"}
    assert rule.skip(SWAPPED_CONSTANTS, 2, settled()) == "undefined_substitute"
    assert rule.skip(SWAPPED_CONSTANTS, 2, settled(first=False)) is None


def test_doomed_assumptions() -> None:
    asked: list[tuple[Any, list[Any]]] = []

    class Probe:
        def doomed(self, part: Any, upcoming: list[Any]) -> bool:
            asked.append((part, upcoming))
            return part == SWAPPED_CONSTANTS.constants

    mappings = [IDENTITY, SWAPPED_VARIABLES, SWAPPED_CONSTANTS]
    rule = DoomedAssumptions(Probe(), mappings)  # type: ignore[arg-type]
    rule.learn(failed(IDENTITY, "forward", tlc("invariant_violation", states=4)))
    assert rule.skip(SWAPPED_VARIABLES, 2, settled(violation=True)) is None  # a part tried already: not asked
    assert rule.skip(SWAPPED_CONSTANTS, 3, settled()) is None  # no violation settled yet: not asked
    assert asked == []
    assert rule.skip(SWAPPED_CONSTANTS, 3, settled(violation=True)) == "assumption"
    assert asked == [(SWAPPED_CONSTANTS.constants, [])]


def test_broken_parts() -> None:
    inputs = SimpleNamespace(prefix="Alias", condition=SimpleNamespace(module_map={"R": ""}, main="R"),
                             gen_spec=SimpleNamespace(modules={"G": ""}))
    rule = BrokenParts(inputs)  # type: ignore[arg-type]
    rule.learn(failed(IDENTITY, "forward", tlc("crash", "Successor state is not completely specified", states=3)))
    assert rule.skip(SWAPPED_VARIABLES, 2, settled()) is None  # only once a violation has settled the reason
    assert rule.skip(SWAPPED_VARIABLES, 2, settled(violation=True)) == "own_error"
    empty = BrokenParts(inputs)  # type: ignore[arg-type]
    empty.learn(failed(SWAPPED_CONSTANTS, "reverse", tlc("invariant_violation", states=1), forward_states=0))
    assert empty.skip(SWAPPED_CONSTANTS, 3, settled(violation=True)) == "no_initial_state"
    assert empty.skip(IDENTITY, 3, settled(violation=True)) is None


class Graphs:
    """A graph filter that says every mapping's forward check stops on G's own error."""

    off = None
    dumps = 1

    def dumped(self, constants: Any) -> bool:
        return constants == IDENTITY.constants

    def agrees(self, checked: Any) -> bool:
        return True

    def failing(self, mapping: NameMapping) -> str:
        return "forward_error"


def test_graph_filtering() -> None:
    rule = GraphFiltering(Graphs(), [IDENTITY, SWAPPED_VARIABLES, SWAPPED_CONSTANTS])  # type: ignore[arg-type]
    assert rule.skip(SWAPPED_VARIABLES, 2, settled(first=False)) is None  # no failure yet
    assert rule.skip(SWAPPED_VARIABLES, 2, settled()) == FILTERED
    assert rule.skip(SWAPPED_CONSTANTS, 3, settled()) is None  # no graph under these constants, none worth dumping
    details = Evidence()
    rule.record(details, Counter({FILTERED: 1}))
    assert details == {"graph_filter": {"skipped": 1, "graph_dumps": 1}}


def test_safety_first() -> None:
    rule = SafetyFirst()
    assert rule.safety_first("forward", settled(violation=True)) is None
    rule.learn(failed(IDENTITY, "forward", tlc("invariant_violation"), forward_fallback="R's fairness"))
    assert rule.safety_first("forward", settled()) is None  # the reason is not settled at a violation yet
    assert rule.safety_first("reverse", settled(violation=True)) is None
    assert rule.safety_first("forward", settled(violation=True)) == "R's fairness"
    rule.learn(failed(SWAPPED_VARIABLES, "forward", tlc("invariant_violation"), checked_first=True))
    details = Evidence()
    rule.record(details, Counter())
    assert details["safety_first"]["checks"] == 1 and rule.fallback == "R's fairness"


def test_self_check_copy() -> None:
    outcome = MappingOutcome(IDENTITY, {"mapping": IDENTITY.to_dict()})
    rule = SelfCheckCopy()
    assert rule.decides("forward", outcome, 1) and rule.decides("reverse", outcome, 1)
    assert outcome.attempt == {"mapping": IDENTITY.to_dict(), "forward": "ok",
                               "by_copy": search_rules.SELF_CHECKED, "reverse": "ok"}
    assert not rule.decides("forward", MappingOutcome(SWAPPED_VARIABLES, {}), 2)


def test_graph_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[NameMapping] = []

    class Known:
        output_states = 7

        def draw(self, tools: Any, timeout: float) -> None:
            pass

        def decides(self, direction: str) -> bool:
            return direction == "forward"

    def open_graphs(tools: Any, inputs: Any, first: NameMapping, timeout: float, *, fairness: bool,
                    reference_checked: bool) -> Known:
        assert reference_checked
        opened.append(first)
        return Known()

    monkeypatch.setattr(search_rules.IdentityGraphs, "open", open_graphs)
    rule = GraphPass(None, None, 60.0, 1e12, fairness=False, reference_checked=True)  # type: ignore[arg-type]
    outcome = MappingOutcome(IDENTITY, {"mapping": IDENTITY.to_dict()})
    assert rule.decides("forward", outcome, 1) and not rule.decides("reverse", outcome, 1)
    assert outcome.attempt["by_graphs"] == ["forward"] and outcome.forward_states == 7
    assert not rule.decides("forward", MappingOutcome(SWAPPED_VARIABLES, {}), 2)  # the first mapping only
    assert opened == [IDENTITY]


def test_copy_of_reference() -> None:
    rule = CopyOfReference()
    outcome = MappingOutcome(IDENTITY, {"mapping": IDENTITY.to_dict()})
    assert not rule.decides("forward", outcome, 1)  # the forward check runs
    outcome.attempt["forward"] = "ok"
    assert rule.decides("reverse", outcome, 1) and outcome.attempt["by_copy"] == search_rules.COVERED
    assert rule.knows_behaviors()
    assert not rule.decides("reverse", MappingOutcome(SWAPPED_VARIABLES, {"forward": "ok"}), 2)


def test_the_skips_are_recorded_as_records_have_them() -> None:
    skips = Counter({STOPPED: 2, "own_error": 3, "arity": 1, FILTERED: 4})
    assert early_stop_details(skips) == {
        "skipped": 6,
        "why": "TLC stopped before evaluating any state under the same constant values; TLC stopped on an error "
               "of the output's own formulas under the same constant values; a constant stands for one of another "
               "arity, which SANY rejects (the check cannot be parsed)",
        "arity_skipped": 1, "own_error_skipped": 3}
    assert early_stop_details(Counter({FILTERED: 2})) is None
    details = Evidence()
    rules = [StoppedParts(), GraphFiltering(Graphs(), []), SafetyFirst()]  # type: ignore[arg-type]
    rules[2].checks = 1  # type: ignore[attr-defined]
    record_skips(details, rules, skips)  # type: ignore[arg-type]
    assert list(details) == ["graph_filter", "early_stop", "safety_first"]
