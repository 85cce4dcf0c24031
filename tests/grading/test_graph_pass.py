"""Refinement checks decided by the state graphs that the plain checks kept: the plain verdicts, fewer
TLC runs (real SANY and TLC)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from pytest_alias.run.cases import Case
from pytest_alias.grading.context import grade_context
from pytest_alias.run.record import evaluate
from pytest_alias import switches
from pytest_alias.grading.graphpass import within
from pytest_alias.tasks.suites import load_suite
from pytest_alias.tla.cfg import parse_cfg
from pytest_alias.tla.graph import LabelGraph, parse_dot_labels
from pytest_alias.tla.runner import TlaTools
from pytest_alias.tla.sidegraph import GRAPH_CAP, graphs_decide, keeps_graph, plain_check
from pytest_alias.tla.specfiles import SpecFiles

GRADES = ["parse", "name", "behavior"]


def _before_footer(text: str, addition: str) -> str:
    at = list(re.finditer(r"^=+\s*$", text, re.M))[-1].start()
    return text[:at] + addition + text[at:]


def _task(task_id: str) -> Any:
    return next(t for t in load_suite("builtin") if t.id == task_id)


def outputs(task_id: str, reference: str) -> dict[str, str]:
    """Outputs whose graphs equal, lie within, or contain the reference's (die-hard; phases is fair and
    checks a temporal property)."""
    if task_id == "phases":
        return {"rewrite": _before_footer(reference, "Unused == 42\n")}
    refill = "Refill ==\n    /\\ small' = SmallCap\n    /\\ big' = BigCap\n    /\\ last' = \"FillBig\"\n\n"
    return {
        "rewrite": _before_footer(reference, "\\* written again\nUnused == 42\n"),
        # Never empties the small jug: every step is one of the reference's, not every step of it is one.
        "fewer_steps": reference.replace("    \\/ EmptySmall \\/ EmptyBig\n", "    \\/ EmptyBig\n"),
        # Fills both jugs at once: the reference's steps and one more.
        "more_steps": reference.replace("Next ==\n", refill + "Next ==\n    \\/ Refill\n"),
        "missing_cfg_name": re.sub(r"\bEvenTotal\b", "EvenTotalHolds", reference),
        # Lacks the cfg's name and takes a step the reference never does.
        "missing_cfg_name_more_steps": re.sub(r"\bEvenTotal\b", "EvenTotalHolds",
                                              reference.replace("Next ==\n", refill + "Next ==\n    \\/ Refill\n")),
        # The formula writes its Init out: the reverse check takes that text, not a top-level operator.
        "inline_init": reference.replace("Spec == Init /\\ [][Next]_vars",
                                         "Spec == (small = 0 /\\ big = 0 /\\ last = \"none\") /\\ [][Next]_vars"),
    }


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[tuple[str, str], dict[str, Any]]]:
    """Each output graded the plain way, then with the shortcuts, each from its own cache, after the
    reference's own check (as the condition's verification runs it) and with its self-check passed."""
    found: dict[str, dict[tuple[str, str], dict[str, Any]]] = {"off": {}, "on": {}}
    with pytest.MonkeyPatch.context() as patch:
        for way in ("off", "on"):
            patch.setenv(switches.ENV, way)
            tools = TlaTools(cache_dir=tmp_path_factory.mktemp(f"cache-{way}"))
            for task_id in ("die-hard", "phases"):
                task = _task(task_id)
                condition = task.original()
                assert plain_check(tools, condition.spec(), timeout=60, keep_graph=keeps_graph(condition.cfg, tools)).ok
                case = Case(task, condition, 0, "replay")
                for kind, text in outputs(task_id, condition.module_map[condition.main]).items():
                    before = tools.launches["tlc"]
                    record = evaluate(case, text, GRADES, grade_context(tools, timeout=60, mode="paper",
                                                                        reference_passed=("paper", 60)))
                    record["tlc_launches"] = tools.launches["tlc"] - before
                    found[way][(task_id, kind)] = record
    return found


def verdicts(record: dict[str, Any]) -> dict[str, tuple[bool, str | None]]:
    return {grade: (entry["passed"], entry["reason"]) for grade, entry in record["grades"].items()}


def first_attempt(record: dict[str, Any]) -> dict[str, Any]:
    return record["grades"]["behavior"]["details"]["attempts"][0]


@pytest.mark.parametrize("key", [("die-hard", "rewrite"), ("die-hard", "fewer_steps"), ("die-hard", "more_steps"),
                                 ("die-hard", "missing_cfg_name"), ("die-hard", "missing_cfg_name_more_steps"),
                                 ("die-hard", "inline_init"),
                                 ("phases", "rewrite")])
def test_the_graphs_give_the_plain_verdicts(graded: dict[str, Any], key: tuple[str, str]) -> None:
    assert verdicts(graded["on"][key]) == verdicts(graded["off"][key])
    assert "by_graphs" not in first_attempt(graded["off"][key])


def test_an_output_with_the_references_graph_needs_no_refinement_run(graded: dict[str, Any]) -> None:
    plain, fast = graded["off"][("die-hard", "rewrite")], graded["on"][("die-hard", "rewrite")]
    assert fast["grades"]["behavior"]["passed"]
    assert first_attempt(fast)["by_graphs"] == ["forward", "reverse"]
    # The name check only (its graph kept on the side); the plain way adds a forward and a reverse check.
    assert fast["tlc_launches"] == 1 and plain["tlc_launches"] == 3


def test_each_direction_is_read_off_only_where_it_holds(graded: dict[str, Any]) -> None:
    fewer = graded["on"][("die-hard", "fewer_steps")]
    assert first_attempt(fewer)["by_graphs"] == ["forward"]
    assert not fewer["grades"]["behavior"]["passed"] and "reverse check failed" in fewer["grades"]["behavior"]["reason"]
    more = graded["on"][("die-hard", "more_steps")]
    assert "by_graphs" not in first_attempt(more)  # its forward check fails first, by TLC
    assert not more["grades"]["behavior"]["passed"] and first_attempt(more)["forward"] == "property_violation"
    # Missing cfg names: the name check stops at the cfg and keeps no graph; a plain run of G without
    # the cfg's checks draws one, and both directions are read off it (the reference is not fair).
    missing = graded["on"][("die-hard", "missing_cfg_name")]
    assert missing["grades"]["behavior"]["passed"] and first_attempt(missing)["by_graphs"] == ["forward", "reverse"]
    assert missing["tlc_launches"] == 2 and graded["off"][("die-hard", "missing_cfg_name")]["tlc_launches"] == 3
    # Where G's graph is not within R's, TLC runs the forward check after the plain run, and fails it
    # (the other mappings' checks follow, most of them skipped by the graph filter and the early stops).
    wrong = graded["on"][("die-hard", "missing_cfg_name_more_steps")]
    assert "by_graphs" not in first_attempt(wrong) and first_attempt(wrong)["forward"] == "property_violation"
    assert wrong["tlc_launches"] < graded["off"][("die-hard", "missing_cfg_name_more_steps")]["tlc_launches"]


def test_an_init_written_out_leaves_the_reverse_check_to_tlc(graded: dict[str, Any]) -> None:
    fast = graded["on"][("die-hard", "inline_init")]
    assert fast["grades"]["behavior"]["passed"] and first_attempt(fast)["by_graphs"] == ["forward"]


def test_a_fair_reference_leaves_the_forward_check_to_tlc(graded: dict[str, Any]) -> None:
    """phases is fair and checks a liveness property: its graphs are kept (the liveness graph TLC would
    write beside them is not, see server_classes), the reverse check is read off them, and TLC runs the
    forward check, which tests R's fairness on G's behaviors."""
    fast, plain = graded["on"][("phases", "rewrite")], graded["off"][("phases", "rewrite")]
    assert fast["grades"]["behavior"]["passed"] and first_attempt(fast)["by_graphs"] == ["reverse"]
    # Each grade's pass of a fair formula also runs its vacuity probe (grading/integrity): the name
    # check's and the forward check's.
    assert fast["tlc_launches"] == 4 and plain["tlc_launches"] == 5


def test_a_temporal_property_keeps_no_graph_where_its_dump_would_be_dear(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where TLC would write the liveness graph beside the dump (a jar the override was not checked
    against, or a fresh JVM per run), a cfg with PROPERTY entries keeps no graph."""
    monkeypatch.setenv(switches.ENV, "on")
    tools = TlaTools(use_cache=False)
    phases, die_hard = _task("phases").original().cfg, _task("die-hard").original().cfg
    assert tools.launcher.quiet_liveness_dump and keeps_graph(phases, tools) and keeps_graph(die_hard, tools)
    monkeypatch.setattr(type(tools.launcher), "quiet_liveness_dump", property(lambda self: False))
    assert not keeps_graph(phases, tools) and keeps_graph(die_hard, tools)


def test_nothing_is_read_off_without_the_self_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(switches.ENV, "on")
    tools = TlaTools(cache_dir=tmp_path)
    task = _task("die-hard")
    condition = task.original()
    plain_check(tools, condition.spec(), timeout=60, keep_graph=True)
    text = _before_footer(condition.module_map[condition.main], "Unused == 42\n")
    record = evaluate(Case(task, condition, 0, "replay"), text, GRADES, grade_context(tools, timeout=60, mode="paper"))
    assert record["grades"]["behavior"]["passed"] and "by_graphs" not in first_attempt(record)


def test_a_capped_dump_never_changes_the_verdict(tmp_path: Path) -> None:
    tools = TlaTools(cache_dir=tmp_path)
    spec = _task("die-hard").original().spec()
    capped = tools.check_keeping_graph(spec, timeout=60, cap=200)  # far below die-hard's graph
    plain = tools.tlc(spec, timeout=60)
    assert capped.ok and plain.ok and capped.distinct_states == plain.distinct_states
    assert tools.kept_graph(spec, timeout=60, cap=200) is None
    tools.check_keeping_graph(spec, timeout=60, cap=GRAPH_CAP)
    kept = tools.kept_graph(spec, timeout=60, cap=GRAPH_CAP)
    assert kept is not None and len(kept[1].states) == plain.distinct_states


def test_a_dump_past_the_cap_runs_again_only_for_a_verdict(tmp_path: Path) -> None:
    """A caller that wants the graph alone (the hidden-names plain run) gets none from a dump the cap
    stopped, and TLC does not run again for the verdict it does not need."""
    tools = TlaTools(cache_dir=tmp_path)
    spec = _task("die-hard").original().spec()
    result, graph = tools.tlc_keeping_graph(spec, timeout=60, cap=200, deadlock=False, rerun=False)
    assert result.status == "too_large" and graph is None and tools.launches["tlc"] == 1
    result, graph = tools.tlc_keeping_graph(spec, timeout=60, cap=200, deadlock=False)
    assert result.ok and graph is None and tools.launches["tlc"] == 2  # the capped run is cached; the plain one runs


def _recording_tlc(tools: TlaTools, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bool, float, float | None]]:
    """Every TLC run ``tools`` makes from now on: (main module's first line, dumped, seconds, expected seconds)."""
    from pytest_alias.tla.launcher import expected_seconds

    seen: list[tuple[str, bool, float, float | None]] = []
    real = tools._tlc

    def recording(spec: SpecFiles, **options: Any) -> Any:
        result, dot = real(spec, **options)
        seen.append((spec.modules[spec.main].splitlines()[0], options["dump_graph"], result.seconds,
                     expected_seconds()))
        return result, dot

    monkeypatch.setattr(tools, "_tlc", recording)
    return seen


def test_a_check_that_kept_its_graph_says_how_long_its_tasks_checks_take(tmp_path: Path) -> None:
    """The quick tier is skipped by the reference check's seconds, also when that check kept its graph
    (a reference's verification does): no cached plain check is needed beside it."""
    tools = TlaTools(cache_dir=tmp_path)
    spec = _task("die-hard").original().spec()
    assert tools.cached_tlc_seconds(spec, timeout=60) is None and not tools.graph_kept(spec, timeout=60, cap=GRAPH_CAP)
    kept = tools.check_keeping_graph(spec, timeout=60, cap=GRAPH_CAP)
    assert tools.graph_kept(spec, timeout=60, cap=GRAPH_CAP) and not tools.graph_kept(spec, timeout=60, cap=200)
    assert tools.cached_tlc_seconds(spec, timeout=60) == pytest.approx(kept.seconds)
    assert tools.launches["tlc"] == 1


def test_the_plain_run_after_a_capped_dump_expects_at_least_its_seconds(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    tools = TlaTools(cache_dir=tmp_path)
    spec = _task("die-hard").original().spec()
    seen = _recording_tlc(tools, monkeypatch)
    result = tools.check_keeping_graph(spec, timeout=60, cap=200)  # far below die-hard's graph
    assert result.ok and [dumped for _, dumped, _, _ in seen] == [True, False]
    (_, _, capped_seconds, _), (_, _, _, expected) = seen
    assert expected == capped_seconds and not tools.graph_kept(spec, timeout=60, cap=200)


@pytest.mark.parametrize("cap", [GRAPH_CAP, 200])
def test_a_renamed_copy_keeps_its_graph_only_where_the_original_did(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                     cap: int) -> None:
    """The copy has the original's state space (and names of the same lengths): where the cap stopped the
    original's dump, the copy runs without one; either way its check expects the original's seconds."""
    from pytest_alias.cir import verify
    from pytest_alias.cir.rename import random_renaming
    from pytest_alias.tla import sidegraph

    monkeypatch.setenv(switches.ENV, "on")
    monkeypatch.setattr(verify, "GRAPH_CAP", cap)
    monkeypatch.setattr(sidegraph, "GRAPH_CAP", cap)
    tools = TlaTools(cache_dir=tmp_path)
    task = _task("die-hard")
    renaming = random_renaming(task.module_map, task.cfg, 2026)
    seen = _recording_tlc(tools, monkeypatch)
    result = verify.verify_renaming(task.module_map, task.cfg, renaming.modules, renaming.cfg, tools=tools, timeout=60)
    assert result.verified, result.failure
    original = [run for run in seen if run[0] == task.module_map[task.main].splitlines()[0]]
    renamed = seen[len(original):]
    assert [dumped for _, dumped, _, _ in original] == ([True] if cap == GRAPH_CAP else [True, False])
    assert [dumped for _, dumped, _, _ in renamed] == [cap == GRAPH_CAP]
    assert renamed[0][3] == pytest.approx(original[-1][2])


def test_a_check_without_a_dump_reads_the_verdict_of_the_same_check_that_kept_its_graph(tmp_path: Path) -> None:
    """A reference's verification keeps its graph; the name check of a copy of it runs no TLC."""
    tools = TlaTools(cache_dir=tmp_path)
    spec = _task("die-hard").original().spec()
    module = _before_footer(spec.modules[spec.main], "BigNotFour == big /= 4\n")
    violated = SpecFiles(spec.main, {**spec.modules, spec.main: module}, spec.cfg + "INVARIANT BigNotFour\n")
    kept = [tools.check_keeping_graph(s, timeout=60, cap=GRAPH_CAP) for s in (spec, violated)]
    launches = tools.launches["tlc"]
    read = [tools.tlc(s, timeout=60) for s in (spec, violated)]
    assert tools.launches["tlc"] == launches and all(r.cached for r in read) and read[1].status == "invariant_violation"
    assert [(r.status, r.message, r.counterexample, r.distinct_states) for r in read] == \
        [(k.status, k.message, k.counterexample, k.distinct_states) for k in kept]


@pytest.mark.parametrize(("cfg", "decides"), [
    ("CONSTANTS N = 3 S = {a, b}\nSPECIFICATION Spec\nINVARIANT TypeOK\nPROPERTY Live\n", True),
    ("CONSTANT N = 3\nSPECIFICATION Spec\nCONSTRAINT Bound\n", False),
    ("CONSTANT N = 3\nSPECIFICATION Spec\nACTION_CONSTRAINT Step\n", False),
    ("CONSTANT S = {a, b}\nSPECIFICATION Spec\nSYMMETRY Perms\n", False),
    ("CONSTANT N <- MCN\nSPECIFICATION Spec\n", False),
    ("CONSTANT N = 3\nSPECIFICATION Spec\nVIEW Shown\n", False),
])
def test_which_cfgs_let_the_graphs_decide(cfg: str, decides: bool) -> None:
    assert graphs_decide(parse_cfg(cfg)) is decides


def _graph(states: dict[int, int], initial: set[int], edges: set[tuple[int, int]]) -> LabelGraph:
    """A dump as TLC writes it, of a spec with variables x and y (y always 0), read by label."""
    nodes = [f'{sid} [label="/\\\\ x = {value}\\n/\\\\ y = 0"{",style = filled" if sid in initial else ""}]'
             for sid, value in states.items()]
    return parse_dot_labels("\n".join(nodes + [f'{a} -> {b} [label=""];' for a, b in edges]) + "\n")


def test_within_compares_values_not_ids_and_ignores_steps_that_change_nothing() -> None:
    ref = _graph({1: 0, 2: 1, 3: 2}, {1}, {(1, 2), (2, 3), (3, 1)})
    same = _graph({7: 0, 8: 1, 9: 2}, {7}, {(7, 8), (8, 9), (9, 7), (8, 8)})  # other ids, one self-loop
    assert within(same, ref) and within(ref, same)
    fewer = _graph({7: 0, 8: 1}, {7}, {(7, 8)})
    assert within(fewer, ref) and not within(ref, fewer)
    other_start = _graph({7: 0, 8: 1, 9: 2}, {8}, {(7, 8), (8, 9), (9, 7)})
    assert not within(other_start, ref) and not within(ref, other_start)


def test_a_dump_this_reader_cannot_parse_is_no_graph_not_an_error(tmp_path: Path) -> None:
    tools = TlaTools(cache_dir=tmp_path)
    good = '1 [label="/\\\\ x = 1",style = filled]\n1 -> 1 [label="",color="black",fontcolor="black"];\n'
    assert tools._parsed(good) is not None  # noqa: SLF001 - the reader every kept graph goes through
    assert tools._parsed('1 [label="/\\\\ x 1",style = filled]\n') is None  # noqa: SLF001 - no variable named
    assert tools._parsed('1 [label="/\\\\ x = 1\\n/\\\\ x = 2",style = filled]\n') is None  # noqa: SLF001


def test_labels_compare_states_whatever_order_tlc_prints_the_variables_in() -> None:
    ref = parse_dot_labels('1 [label="/\\\\ x = 1\\n/\\\\ y = <<1,\\n  2>>",style = filled]\n'
                           '2 [label="/\\\\ x = 2\\n/\\\\ y = <<>>"]\n1 -> 2 [label=""];\n')
    reordered = parse_dot_labels('7 [label="/\\\\ y = <<1,\\n  2>>\\n/\\\\ x = 1",style = filled]\n'
                                 '8 [label="/\\\\ y = <<>>\\n/\\\\ x = 2"]\n7 -> 8 [label=""];\n')
    other = parse_dot_labels('7 [label="/\\\\ y = <<1, 2>>\\n/\\\\ x = 1",style = filled]\n')
    assert ref.variables == reordered.variables == frozenset({"x", "y"})
    assert within(reordered, ref) and within(ref, reordered) and not within(other, ref)


def test_a_large_dump_is_stored_compressed_and_read_back_whole(tmp_path: Path) -> None:
    from pytest_alias.tla import runner

    big = "".join(f'{i} [label="/\\\\ x = {i}"]\n' for i in range(120_000))
    assert len(big) > runner.COMPRESS_DOT_BYTES
    stored = runner._stored_dot(big)  # noqa: SLF001
    assert stored["dot"] is None and len(stored["dot_zlib"] or "") < len(big) // 3
    assert runner._entry_dot(stored) == big and runner._stored_dot("small") == {"dot": "small"}  # noqa: SLF001
    assert runner._entry_dot({"dot_zlib": "not base64 of zlib"}) is None  # noqa: SLF001 - a damaged entry: no graph
