"""TLC verdicts from real runs: every status, statistics, counterexamples, cfg adaptation, timeouts."""

from __future__ import annotations

import time

import pytest

from pytest_alias.switches import enabled as shortcuts_enabled
from pytest_alias.tla.values import ModelValue
from specs import COUNTER, counter, module

BASE = "CONSTANT Max = 3\nSPECIFICATION Spec\n"


def test_ok_with_statistics(tools) -> None:
    result = tools.tlc(counter(BASE + "INVARIANT TypeOK\nPROPERTY Reaches\n"), deadlock=False)
    assert result.status == "ok", result.explain()
    assert (result.distinct_states, result.states_generated, result.depth) == (4, 4, 4)
    assert result.violated is None and result.counterexample == ()


def test_invariant_violation_names_invariant_and_parses_trace(tools) -> None:
    result = tools.tlc(counter(BASE + "INVARIANT Small\n"), deadlock=False)
    assert result.status == "invariant_violation"
    assert result.violated == "Small"
    assert [state.values["n"] for state in result.counterexample] == [0, 1, 2]
    assert result.counterexample[0].action.startswith("<Initial predicate>")


def test_deadlock_on_by_default_and_switchable(tools) -> None:
    spec = counter(BASE + "INVARIANT TypeOK\n")
    assert tools.tlc(spec).status == "deadlock"
    assert tools.tlc(spec, deadlock=False).status == "ok"


def test_check_deadlock_false_becomes_flag_on_old_jar(tools) -> None:
    result = tools.tlc(counter(BASE + "INVARIANT TypeOK\nCHECK_DEADLOCK FALSE\n"))
    assert result.status == "ok", result.explain()
    if "CHECK_DEADLOCK" not in tools.toolchain.jar.cfg_keywords:
        assert "-deadlock" in result.flags


def test_alias_keyword_on_old_jar_names_keyword_and_override(tools) -> None:
    if "ALIAS" in tools.toolchain.jar.cfg_keywords:
        pytest.skip("this jar supports ALIAS")
    result = tools.tlc(counter(BASE + "ALIAS Small\n"))
    assert result.status == "config_error"
    assert "ALIAS" in result.message and "ALIAS_TLA2TOOLS" in result.message


def test_temporal_property_violation_without_fairness(tools) -> None:
    unfair = COUNTER.replace(" /\\ WF_n(Next)", "")
    result = tools.tlc(counter(BASE + "PROPERTY Reaches\n", unfair), deadlock=False)
    assert result.status == "property_violation"
    assert result.counterexample and result.stutters


#: A chain whose every step is slow (TLC counts 2^15 sets per state) and whose liveness property is
#: first violated 600 steps in: several seconds of exploring, on a behavior graph small enough that
#: TLC's liveness checks are cheap.
SLOW_CHAIN = """EXTENDS Naturals, FiniteSets
VARIABLE n
Init == n = 0
Busy == Cardinality({s \\in SUBSET (1..15) : n \\notin s}) > 0
Next == Busy /\\ n' = n + 1
Spec == Init /\\ [][Next]_n
Answers == (n >= 600) ~> (n = 0)"""


def test_a_liveness_violation_is_reported_soon_after_the_graph_holds_it(tools) -> None:
    """TLC checks liveness 3 s into exploring and then once a minute; the tool server wakes it in between
    (``launcher.LIVENESS_TICK_MILLIS``), so a violation reached some seconds in is reported well inside a
    limit that ends before TLC's own second check. (A machine several times faster than this project's
    reaches it before TLC's first check, and the test passes either way there.)"""
    if not shortcuts_enabled() or tools.launcher.kind != "server":
        pytest.skip("the early liveness checks are the tool server's, a shortcut")
    with tools.expecting(60.0):  # the full tier at once (the quick tier would give up at 10 s first)
        result = tools.tlc(module("Chain", SLOW_CHAIN, "SPECIFICATION Spec\nPROPERTY Answers\n"), timeout=45)
    assert result.status == "property_violation", result.explain()
    assert result.counterexample[-1].values["n"] >= 600 and result.stutters


def test_action_property_violation_is_named(tools) -> None:
    text = COUNTER.replace("Reaches ==", "Shrinks == [][n' < n]_n\nReaches ==")
    result = tools.tlc(counter(BASE + "PROPERTY Shrinks\n", text), deadlock=False)
    assert result.status == "property_violation"


def test_assumption_failure(tools) -> None:
    result = tools.tlc(counter(BASE, COUNTER.replace("VARIABLE n", "ASSUME Max > 5\nVARIABLE n")), deadlock=False)
    assert result.status == "assumption_failure"


def test_undefined_invariant_is_config_error(tools) -> None:
    result = tools.tlc(counter(BASE + "INVARIANT Missing\n"), deadlock=False)
    assert result.status == "config_error"
    assert "Missing" in result.output


def test_unknown_cfg_keyword_is_config_error_without_running(tools) -> None:
    result = tools.tlc(counter(BASE + "INVARIANTZ TypeOK\n"))
    assert result.status == "config_error" and result.output == ""


def test_parse_and_semantic_errors(tools) -> None:
    broken = module("Broken", "VARIABLE x\nInit == x =\nNext == x' = x", "INIT Init\nNEXT Next\n")
    assert tools.tlc(broken).status == "parse_error"
    undefined = module("Undef", "VARIABLE x\nInit == x = Foo\nNext == x' = x", "INIT Init\nNEXT Next\n")
    assert tools.tlc(undefined).status == "semantic_error"


def test_runtime_error_is_crash_with_message(tools) -> None:
    spec = module("Bad", "EXTENDS Naturals\nVARIABLE x\nInit == x = 1\nNext == x' = (x /\\ TRUE)", "INIT Init\nNEXT Next\n")
    result = tools.tlc(spec)
    assert result.status == "crash"
    assert "integer" in (result.message or "") or "boolean" in (result.message or "").lower()


def test_model_values_in_counterexample(tools) -> None:
    body = "CONSTANT Procs\nVARIABLE owner\nInit == owner \\in Procs\nNext == owner' \\in Procs\nInv == owner /= owner"
    spec = module("Own", body, "CONSTANT Procs = {p1, p2}\nINIT Init\nNEXT Next\nINVARIANT Inv\n")
    result = tools.tlc(spec)
    assert result.status == "invariant_violation" and result.violated == "Inv"
    assert result.counterexample[0].values["owner"] in {ModelValue("p1"), ModelValue("p2")}


def test_timeout_kills_and_reports(tools) -> None:
    body = "EXTENDS Naturals\nVARIABLE x\nInit == x = 0\nNext == x' = x + 1"
    spec = module("Forever", body, "INIT Init\nNEXT Next\n")
    start = time.perf_counter()
    result = tools.tlc(spec, timeout=3)
    assert result.status == "timeout"
    assert time.perf_counter() - start < 30
    # The launcher recovers: the next check runs normally.
    assert tools.tlc(counter(BASE + "INVARIANT TypeOK\n"), deadlock=False).status == "ok"


def test_imported_module_is_staged(tools) -> None:
    base = "---- MODULE Base ----\nEXTENDS Naturals\nInc(v) == v + 1\n====\n"
    spec = module("Top", "EXTENDS Base\nVARIABLE x\nInit == x = 0\nNext == x < 2 /\\ x' = Inc(x)",
                  "INIT Init\nNEXT Next\n", Base=base)
    result = tools.tlc(spec, deadlock=False)
    assert result.status == "ok" and result.distinct_states == 3


def test_state_graph_matches_tlc_count(tools) -> None:
    result, graph = tools.state_graph(counter(BASE + "INVARIANT TypeOK\n"), deadlock=False)
    assert result.status == "ok" and graph is not None
    assert len(graph) == result.distinct_states == 4
    assert len(graph.initial) == 1
    assert sorted(state["n"] for state in graph.states.values()) == [0, 1, 2, 3]


def test_no_cfg_is_config_error(tools) -> None:
    assert tools.tlc(counter(None)).status == "config_error"  # type: ignore[arg-type]
