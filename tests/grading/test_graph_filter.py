"""The state-graph filter of the mapping search: the plain search's verdicts and reasons, fewer TLC runs.

Real SANY and TLC throughout: each output is graded with the shortcuts off, then on, each from its
own cache, and both must give the same verdict and the same reason.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from pytest_alias import switches
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
            patch.setenv(switches.ENV, way)
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
    monkeypatch.setenv(switches.ENV, "on")
    result = grade_behavior(output, task.original(), TlaTools(cache_dir=tmp_path), timeout=60)
    assert result.details["attempts"][0]["forward"] == "ok"  # TLC: G's d steps are stutters for R
    identity = NameMapping(tuple((v, v) for v in "abcd"), (("N", "N"),))
    graphs = made[0]
    assert graphs.failing(identity) != "forward"
    # The graphs do differ: with R's subscript read as covering d, they would have said "forward".
    graphs._forward = True
    assert graphs.failing(identity) == "forward"


def _both_ways(output: str, task: Task, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, int]]:
    """``output`` graded by behavior the plain way, then with the shortcuts, each from its own cache:
    each grade with the TLC runs it launched."""
    graded = []
    for way in ("off", "on"):
        monkeypatch.setenv(switches.ENV, way)
        tools = TlaTools(cache_dir=tmp_path / way)
        result = grade_behavior(output, task.original(), tools, timeout=60)
        graded.append((result, tools.launches["tlc"]))
    return graded


#: Four variables of four kinds over a symmetric set of processes: TLC explores one state per
#: permutation class of P, so only the initial states can show that a mapping fails.
SYM = """---- MODULE Sym ----
EXTENDS Naturals, FiniteSets, TLC
CONSTANT P
VARIABLES held, count, flag, mode
TypeOK == held \\subseteq P /\\ count \\in 0..2 /\\ flag \\in BOOLEAN /\\ mode \\in {"idle", "busy"}
Init == held = {} /\\ count = 0 /\\ flag = FALSE /\\ mode = "idle"
Take(p) == p \\notin held /\\ held' = held \\cup {p} /\\ count' = count + 1 /\\ UNCHANGED <<flag, mode>>
Flip == count = 2 /\\ flag' = ~flag /\\ UNCHANGED <<held, count, mode>>
Work == mode' = (IF mode = "idle" THEN "busy" ELSE "idle") /\\ UNCHANGED <<held, count, flag>>
Next == (\\E p \\in P : Take(p)) \\/ Flip \\/ Work
Spec == Init /\\ [][Next]_<<held, count, flag, mode>>
Perms == Permutations(P)
====
"""
SYM_TASK = Task("sym", "a symmetric set", {"Sym": SYM},
                cfg="CONSTANT P = {p1, p2}\nSPECIFICATION Spec\nINVARIANT TypeOK\nSYMMETRY Perms\n")
SYM_OUTPUTS = {
    # Takes one process twice over: states R never reaches (the forward check finds a violation).
    "wrong_behavior": SYM.replace("count' = count + 1", "count' = count + 2"),
    # Never flips: every behavior of G is R's, but not the other way (the reverse check fails).
    "fewer_behaviors": SYM.replace("Next == (\\E p \\in P : Take(p)) \\/ Flip \\/ Work",
                                   "Next == (\\E p \\in P : Take(p)) \\/ Work"),
}


@pytest.mark.parametrize("kind", list(SYM_OUTPUTS))
def test_under_symmetry_the_initial_states_skip_mappings_with_the_plain_verdict(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    """TLC explores fewer states under SYMMETRY than the graph has, but checks its first initial
    state: a mapping under which no initial state of G is one of R's fails all the same."""
    (plain, plain_runs), (fast, fast_runs) = _both_ways(SYM_OUTPUTS[kind], SYM_TASK, tmp_path, monkeypatch)
    assert not plain.passed and (fast.passed, fast.reason) == (plain.passed, plain.reason)
    assert plain.details["mappings_tried"] == 24
    # Every other variable mapping reads a value of another kind (a set as a number, ...) at once.
    assert "off" not in fast.details["graph_filter"] and fast.details["graph_filter"]["skipped"] == 23
    assert fast_runs <= plain_runs // 4


def _graph(variables: tuple[str, ...], initial: list[tuple[int, ...]]) -> Any:
    """A graph of initial states only (one per row of values), as the filter reads a dump."""
    from pytest_alias.grading.graphfilter import _Graphs
    from pytest_alias.tla.graph import StateGraph

    states = {i: dict(zip(variables, values)) for i, values in enumerate(initial)}
    return _Graphs(StateGraph(variables, states, frozenset(states), frozenset()))


def test_the_initial_state_rules() -> None:
    from pytest_alias.grading.graphfilter import by_initial_states

    ref = _graph(("x", "y"), [(0, 1), (0, 2)])
    order = ("x", "y")
    for every in (True, False):
        assert by_initial_states(ref, _graph(order, [(1, 0)]), order, order, every=every) == "forward"
        # Read under another variable order, (1, 0) is R's (0, 1).
        assert by_initial_states(ref, _graph(order, [(1, 0)]), order, ("y", "x"), every=every) != "forward"
        # No initial state: the forward check passes vacuously, the reverse one fails.
        assert by_initial_states(ref, _graph(order, []), order, order, every=every) == "reverse"
    # One initial state of G is R's: TLC checks every one where nothing reduces the states...
    assert by_initial_states(ref, _graph(order, [(1, 0), (0, 1)]), order, order, every=True) == "forward"
    assert by_initial_states(ref, _graph(order, [(0, 1)]), order, order, every=True) == "reverse"
    # ... but under SYMMETRY or VIEW it may check that one first and skip the others as seen.
    assert by_initial_states(ref, _graph(order, [(1, 0), (0, 1)]), order, order, every=False) is None
    assert by_initial_states(ref, _graph(order, [(0, 1)]), order, order, every=False) is None


#: A bank with a state constraint: TLC explores part of the graph, but checks every initial state.
BANK = """---- MODULE Bank ----
EXTENDS Naturals, Sequences
CONSTANT Accts, Initial
VARIABLES bal, log, txn
Init == bal = [a \\in Accts |-> Initial] /\\ log = <<>> /\\ txn = 0
Move(a, b) == a # b /\\ bal[a] > 0 /\\ bal' = [bal EXCEPT ![a] = @ - 1, ![b] = @ + 1]
              /\\ log' = Append(log, <<a, b>>) /\\ txn' = txn + 1
Next == \\E a, b \\in Accts : Move(a, b)
Spec == Init /\\ [][Next]_<<bal, log, txn>>
Total == LET S[s \\in SUBSET Accts] == IF s = {} THEN 0 ELSE LET a == CHOOSE x \\in s : TRUE IN bal[a] + S[s \\ {a}]
         IN S[Accts]
Conserved == Total = 2 * Initial
Bounded == txn < 3
====
"""
BANK_TASK = Task("bank", "a constrained bank", {"Bank": BANK},
                 cfg="CONSTANTS Accts = {a1, a2}\n          Initial = 1\nSPECIFICATION Spec\nINVARIANT Conserved\n"
                     "CONSTRAINT Bounded\n")


@pytest.mark.parametrize("kind", ["wrong_behavior", "fewer_behaviors"])
def test_under_a_constraint_the_initial_states_skip_mappings_with_the_plain_verdict(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    output = {"wrong_behavior": BANK.replace("![b] = @ + 1", "![b] = @ + 2"),  # money appears
              "fewer_behaviors": BANK.replace("bal[a] > 0", "bal[a] > 1")}[kind]
    (plain, plain_runs), (fast, fast_runs) = _both_ways(output, BANK_TASK, tmp_path, monkeypatch)
    assert not plain.passed and (fast.passed, fast.reason) == (plain.passed, plain.reason)
    assert fast.details.get("mapping") == plain.details.get("mapping")
    assert "off" not in fast.details["graph_filter"] and fast.details["graph_filter"]["skipped"] >= 4
    assert fast_runs < plain_runs


def test_a_prediction_that_tlc_contradicts_turns_the_filter_off() -> None:
    graphs = GraphFilter.__new__(GraphFilter)
    graphs.off, graphs._checked = None, 0
    graphs.failing = lambda mapping: "forward"  # type: ignore[method-assign]
    mapping = NameMapping((("a", "a"),), ())
    assert graphs.agrees([(mapping, {"forward": "property_violation"})])
    assert not graphs.agrees([(mapping, {"forward": "property_violation"}), (mapping, {"forward": "ok"})])
    assert graphs.off is not None and "TLC passed the forward check" in graphs.off
