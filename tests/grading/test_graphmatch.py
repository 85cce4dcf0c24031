"""State-graph matching and encoding expressions, in pure Python (no TLC)."""

from __future__ import annotations

from typing import Mapping, Sequence

from pytest_alias.grading.encoding import forward_expression, reverse_expression, table_expression, tla_literal
from pytest_alias.grading.graphmatch import Encoding, match_graphs, translate, value_shape
from pytest_alias.tla.graph import StateGraph
from pytest_alias.tla.values import FALSE, TRUE, Function, ModelValue, Value, make_function


def graph(states: Sequence[Mapping[str, Value]], initial: Sequence[int], edges: Sequence[tuple[int, int]]) -> StateGraph:
    return StateGraph(tuple(states[0]), dict(enumerate(states)), frozenset(initial), frozenset(edges))


def clock(var: str, hours: int = 3) -> StateGraph:
    states = [{var: h} for h in range(1, hours + 1)]
    return graph(states, range(hours), [(i, (i + 1) % hours) for i in range(hours)])


def toggler(names: tuple[str, str], bits: tuple[Value, Value], labels: tuple[str, str, str]) -> StateGraph:
    """A flag that flips while a label walks a three-step cycle, declared in the order of ``names``."""
    flag, pc = names
    states = [{flag: bits[i % 2], pc: labels[i]} for i in range(3)] + [{flag: bits[1], pc: labels[0]}]
    return graph(states, [0], [(0, 1), (1, 2), (2, 3), (3, 1), (0, 0)])


def test_identical_graphs_match_under_the_identity() -> None:
    outcome = match_graphs(clock("hr"), clock("hr"))
    assert outcome.why is None
    assert outcome.matches[0].variables == (("hr", "hr"),)
    assert not outcome.matches[0].encoded()


def test_renamed_variables_match_without_trying_permutations() -> None:
    ref = toggler(("flag", "pc"), (0, 1), ("a", "b", "c"))
    gen = toggler(("x", "y"), (0, 1), ("a", "b", "c"))
    outcome = match_graphs(ref, gen)
    assert dict(outcome.matches[0].variables) == {"flag": "x", "pc": "y"}
    assert outcome.candidates == 1  # the profiles alone paired the variables


def test_booleans_for_bits_and_renamed_labels_are_encodings() -> None:
    ref = toggler(("flag", "pc"), (0, 1), ("Lbl_1", "b", "c"))
    gen = toggler(("f", "where"), (FALSE, TRUE), ("start", "b", "c"))
    outcome = match_graphs(ref, gen)
    assert outcome.why is None
    encoded = {e.ref_var: dict(e.atoms) for e in outcome.matches[0].encoded()}
    assert encoded == {"flag": {FALSE: 0, TRUE: 1}, "pc": {"start": "Lbl_1"}}


def test_self_loops_are_stuttering() -> None:
    ref = clock("hr")
    gen = graph([{"h": 1}, {"h": 2}, {"h": 3}], [0, 1, 2], [(0, 1), (1, 2), (2, 0), (1, 1)])
    assert match_graphs(ref, gen).matches


def test_mismatches_say_why() -> None:
    assert match_graphs(clock("hr", 12), clock("h", 11)).why == "state counts differ: reference 12, output 11"
    two_vars = graph([{"a": 1, "b": 1}, {"a": 2, "b": 1}, {"a": 3, "b": 1}], [0, 1, 2], [(0, 1), (1, 2), (2, 0)])
    one_value = graph([{"a": 1, "b": 1}, {"a": 1, "b": 2}, {"a": 1, "b": 3}], [0, 1, 2], [(0, 1), (1, 2), (2, 0)])
    assert match_graphs(two_vars, one_value).why is None  # a and b simply swap
    flat = graph([{"a": 1, "b": 1}, {"a": 2, "b": 2}, {"a": 3, "b": 3}], [0, 1, 2], [(0, 1), (1, 2), (2, 0)])
    assert match_graphs(two_vars, flat).why == "no output variable takes 1 values like b"
    wrong_step = graph([{"hr": 1}, {"hr": 2}, {"hr": 3}], [0, 1, 2], [(0, 2), (2, 1), (1, 0)])
    assert "no encoding of hr" in (match_graphs(clock("hr"), wrong_step).why or "")


def test_translate_keeps_numeric_keys() -> None:
    flags = make_function({0: FALSE, 1: TRUE})
    assert translate(flags, {FALSE: 0, TRUE: 1}) == make_function({0: 0, 1: 1})
    assert value_shape(flags) == value_shape(make_function({0: 0, 1: 1}))


def test_encoding_expressions() -> None:
    assert table_expression("g", {TRUE: 1, FALSE: 0}, "B") == "(IF g THEN 1 ELSE 0)"
    assert table_expression("g", {"x": "x"}, "B") == "g"
    assert table_expression("g", {"start": "Lbl_1", "b": "b"}, "B") == '(CASE g = "b" -> "b" [] g = "start" -> "Lbl_1")'
    fn = make_function({0: "ncs", 1: "cs"})
    assert isinstance(fn, Function)
    assert tla_literal(fn, "B") == '[B0 \\in {0, 1} |-> (CASE B0 = 0 -> "ncs" [] B0 = 1 -> "cs")]'
    assert tla_literal(ModelValue("m1"), "B") is None
    enc = Encoding("flag", "f", ((0, FALSE), (1, TRUE)), {0: FALSE, 1: TRUE})
    assert forward_expression(enc, "B") == "(CASE f = 0 -> FALSE [] f = 1 -> TRUE)"
    assert reverse_expression(enc, "B") == "(IF flag THEN 1 ELSE 0)"
