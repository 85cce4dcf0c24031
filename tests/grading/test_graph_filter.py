"""The state-graph filter of the mapping search: the plain search's verdicts and reasons, fewer TLC runs.

Real SANY and TLC throughout: each output is graded with the shortcuts off, then on, each from its
own cache, and both must give the same verdict and the same reason.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from pytest_alias.grading import shortcuts
from pytest_alias.grading.behavior import grade_behavior
from pytest_alias.grading.graphfilter import GraphFilter
from pytest_alias.grading.mapping import NameMapping
from pytest_alias.tasks.model import Task
from pytest_alias.tla.runner import TlaTools

#: Four variables (24 variable mappings), one constant: a plain search of a wrong output runs 24 checks.
QUAD = """---- MODULE Quad ----
EXTENDS Naturals
CONSTANT N
VARIABLES a, b, c, d
TypeOK == a \\in 0..N /\\ b \\in 0..N /\\ c \\in BOOLEAN /\\ d \\in {"idle", "busy"}
Init == a = 0 /\\ b = 0 /\\ c = FALSE /\\ d = "idle"
IncA == a < N /\\ a' = a + 1 /\\ UNCHANGED <<b, c, d>>
IncB == b < a /\\ b' = b + 1 /\\ UNCHANGED <<a, c, d>>
Flip == a = N /\\ c' = ~c /\\ UNCHANGED <<a, b, d>>
Work == d' = (IF d = "idle" THEN "busy" ELSE "idle") /\\ UNCHANGED <<a, b, c>>
Next == IncA \\/ IncB \\/ Flip \\/ Work
Spec == Init /\\ [][Next]_<<a, b, c, d>>
====
"""
QUAD_TASK = Task("quad", "four variables", {"Quad": QUAD}, cfg="CONSTANT N = 2\nSPECIFICATION Spec\nINVARIANT TypeOK\n")

OUTPUTS = {
    # b may overtake a: states R never reaches (the forward check finds a violation).
    "wrong_behavior": QUAD.replace("IncB == b < a", "IncB == b < N"),
    # Flip leaves b unassigned: G's own run stops on that error, whatever the mapping.
    "own_error": QUAD.replace("Flip == a = N /\\ c' = ~c /\\ UNCHANGED <<a, b, d>>",
                              "Flip == a = N /\\ c' = ~c /\\ UNCHANGED <<a, d>>"),
    # Never flips c: every behavior of G is R's, but not the other way (the reverse check fails).
    "fewer_behaviors": QUAD.replace("Next == IncA \\/ IncB \\/ Flip \\/ Work", "Next == IncA \\/ IncB \\/ Work"),
    # The same spec with every variable renamed and declared in another order: passes under a mapping
    # that is not the first one tried.
    "renamed": re.sub(r"\b[abcd]\b", lambda m: {"a": "p", "b": "q", "c": "r", "d": "s"}[m.group()], QUAD)
    .replace("VARIABLES p, q, r, s", "VARIABLES s, r, q, p"),
}


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """Each output graded by behavior (paper mode), the plain way and with the shortcuts."""
    found: dict[str, dict[str, Any]] = {"off": {}, "on": {}}
    with pytest.MonkeyPatch.context() as patch:
        for way in ("off", "on"):
            patch.setenv(shortcuts.ENV, way)
            tools = TlaTools(cache_dir=tmp_path_factory.mktemp(f"cache-{way}"))
            grade_behavior(QUAD, QUAD_TASK.original(), tools, timeout=60)  # R's own work, not counted below
            for kind, text in OUTPUTS.items():
                before = tools.launches["tlc"]
                result = grade_behavior(text, QUAD_TASK.original(), tools, timeout=60, mode="paper")
                found[way][kind] = {"result": result, "tlc": tools.launches["tlc"] - before}
    return found


@pytest.mark.parametrize("kind", list(OUTPUTS))
def test_the_filter_keeps_the_plain_verdict_and_reason(graded: dict[str, dict[str, Any]], kind: str) -> None:
    plain, fast = graded["off"][kind]["result"], graded["on"][kind]["result"]
    assert (fast.passed, fast.reason) == (plain.passed, plain.reason)
    assert fast.details.get("mapping") == plain.details.get("mapping")
    assert "graph_filter" not in plain.details


@pytest.mark.parametrize("kind, check", [("wrong_behavior", "forward check"), ("own_error", "not completely specified"),
                                         ("fewer_behaviors", "reverse check")])
def test_failing_outputs_skip_most_mappings(graded: dict[str, dict[str, Any]], kind: str, check: str) -> None:
    plain, fast = graded["off"][kind], graded["on"][kind]
    assert not plain["result"].passed and check in plain["result"].reason
    assert plain["result"].details["mappings_tried"] == 24
    # G's own error ends the search before any graph is needed (early stop under the same constants).
    skipped = sum(fast["result"].details.get(way, {}).get("skipped", 0) for way in ("graph_filter", "early_stop"))
    assert skipped >= 20 and fast["result"].details["mappings_tried"] == 24 - skipped
    assert fast["tlc"] <= plain["tlc"] // 4


def test_the_passing_mapping_is_still_found(graded: dict[str, dict[str, Any]]) -> None:
    plain, fast = graded["off"]["renamed"]["result"], graded["on"]["renamed"]["result"]
    assert plain.passed and fast.passed
    assert plain.details["mappings_tried"] > 1  # the first mapping tried was not the one
    assert plain.details["mapping"]["variables"] == {"a": "p", "b": "q", "c": "r", "d": "s"}


def test_a_subscript_that_leaves_a_variable_free_is_respected(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """R's [][Next]_<<a, b, c>> lets any step change d alone (TLC never explores such steps): a G state
    outside R's graph is then no violation, and the filter must not say that the check fails."""
    free = QUAD.replace("_<<a, b, c, d>>", "_<<a, b, c>>").replace(' /\\ d \\in {"idle", "busy"}', "")
    task = Task("quad-free", "four variables", {"Quad": free}, cfg=QUAD_TASK.cfg)
    # d goes to a value R never gives it: G's graph is not inside R's, yet the forward check passes.
    output = free.replace('d\' = (IF d = "idle" THEN "busy" ELSE "idle")', 'd\' = "done"')
    made: list[GraphFilter] = []
    original_init = GraphFilter.__init__

    def keep(self: GraphFilter, *args: Any) -> None:
        original_init(self, *args)
        made.append(self)

    monkeypatch.setattr(GraphFilter, "__init__", keep)
    monkeypatch.setenv(shortcuts.ENV, "on")
    result = grade_behavior(output, task.original(), TlaTools(cache_dir=tmp_path), timeout=60)
    assert result.details["attempts"][0]["forward"] == "ok"  # TLC: G's d steps are stutters for R
    identity = NameMapping(tuple((v, v) for v in "abcd"), (("N", "N"),))
    graphs = made[0]
    assert graphs.failing(identity) != "forward"
    # The graphs do differ: with R's subscript read as covering d, they would have said "forward".
    graphs._forward = True
    assert graphs.failing(identity) == "forward"


def test_a_reference_with_symmetry_is_not_filtered(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """TLC explores fewer states under SYMMETRY than the graph has: the filter says nothing there."""
    monkeypatch.setenv(shortcuts.ENV, "on")
    task = Task("quad-sym", "four variables", {"Quad": QUAD.replace("====", "Sym == {}\n====")},
                cfg="CONSTANT N = 2\nSPECIFICATION Spec\nINVARIANT TypeOK\nSYMMETRY Sym\n")
    result = grade_behavior(OUTPUTS["wrong_behavior"], task.original(), TlaTools(cache_dir=tmp_path), timeout=60)
    assert not result.passed
    assert "SYMMETRY" in result.details["graph_filter"]["off"] and result.details["graph_filter"]["skipped"] == 0


def test_a_prediction_that_tlc_contradicts_turns_the_filter_off() -> None:
    graphs = GraphFilter.__new__(GraphFilter)
    graphs.off, graphs._checked = None, 0
    graphs.failing = lambda mapping: "forward"  # type: ignore[method-assign]
    mapping = NameMapping((("a", "a"),), ())
    assert graphs.agrees([(mapping, {"forward": "property_violation"})])
    assert not graphs.agrees([(mapping, {"forward": "property_violation"}), (mapping, {"forward": "ok"})])
    assert graphs.off is not None and "TLC passed the forward check" in graphs.off
