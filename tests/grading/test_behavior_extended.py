"""The extended behavior grade on real TLC runs: graph matching, value encodings, launch counts."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Mapping

import pytest

from pytest_alias.cir.conditions import random_condition
from pytest_alias.grading.behavior import grade_behavior
from pytest_alias.grading.extended import MAX_LAUNCHES, reference_graph
from pytest_alias.grading.result import GradeResult
from pytest_alias.tasks.model import Condition, Task
from pytest_alias.tasks.suites import load_suite
from pytest_alias.tla.cfg import parse_cfg
from pytest_alias.tla.runner import TlaTools, default_tools

SEED = 7
#: Tasks whose renamed condition is graded too (a plain spec, a PlusCal one, one with model values).
RANDOM_TOO = ["hour-clock", "racy-counter", "bounded-fifo"]
TASKS = ["hour-clock", "die-hard", "barrier", "racy-counter", "peterson-mutex", "bounded-fifo", "traffic-light"]


@pytest.fixture(scope="module")
def tasks() -> dict[str, Task]:
    return {task.id: task for task in load_suite("builtin")}


def reference(condition: Condition) -> str:
    return condition.module_map[condition.main]


def renamed(text: str, names: Mapping[str, str]) -> str:
    """``text`` with whole identifiers replaced through ``names``."""
    pattern = r"\b(" + "|".join(map(re.escape, names)) + r")\b"
    return re.sub(pattern, lambda m: names[m.group(1)], text)


def fresh_tools(cache: Path) -> TlaTools:
    """Tools with an empty run cache, so every launch counts; the JVM server is shared, not rebuilt."""
    tools = TlaTools(cache_dir=cache)
    tools.__dict__["launcher"] = default_tools().launcher  # overrides the cached_property
    return tools


def measured(output: str, condition: Condition, cache: Path, mode: str) -> tuple[GradeResult, int]:
    """Grade with fresh tools, the reference side warmed first; launches the output alone cost."""
    tools = fresh_tools(cache)
    if mode == "extended":  # R's graph is the only reference-side launch, shared by every output
        assert reference_graph(tools, condition, parse_cfg(condition.cfg or ""), 60)[0] is not None
    before = sum(tools.launches.values())
    result = grade_behavior(output, condition, tools, timeout=60, mode=mode)
    return result, sum(tools.launches.values()) - before


# ---------------------------------------------------------------- positive controls


@pytest.mark.parametrize("task_id", TASKS)
def test_reference_passes_against_itself(tasks: dict[str, Task], task_id: str) -> None:
    conditions = [tasks[task_id].original()]
    if task_id in RANDOM_TOO:
        conditions.append(random_condition(tasks[task_id], SEED, verify=False).condition)
    for condition in conditions:
        result = grade_behavior(reference(condition), condition, timeout=60, mode="extended")
        assert result.passed, result.reason
        assert result.details["mode"] == "extended"
        assert "fallback" not in result.details
        assert result.details["mapping"]["variables"]


def test_renamed_reordered_variables_cost_few_launches(tasks: dict[str, Task], tmp_path: Path) -> None:
    condition = tasks["racy-counter"].original()
    output = renamed(reference(condition), {"count": "total", "pc": "where", "tmp": "reg", "k": "steps"})
    output = output.replace("VARIABLES total, where, reg, steps", "VARIABLES steps, reg, where, total")
    extended, ext_launches = measured(output, condition, tmp_path / "ext", "extended")
    assert extended.passed, extended.reason
    assert extended.details["mapping"]["variables"] == {"count": "total", "pc": "where", "tmp": "reg", "k": "steps"}
    paper, paper_launches = measured(output, condition, tmp_path / "paper", "paper")
    assert paper.passed, paper.reason  # the paper's search finds it too, at a cost
    assert ext_launches <= MAX_LAUNCHES
    assert paper_launches >= 5 * ext_launches, (paper_launches, ext_launches)


def test_renamed_constants_are_searched_on_graphs(tasks: dict[str, Task], tmp_path: Path) -> None:
    condition = tasks["die-hard"].original()
    output = renamed(reference(condition), {"small": "jugA", "big": "jugB", "last": "move",
                                             "SmallCap": "CapA", "BigCap": "CapB"})
    # Declared in the other order: the first constant mapping guessed breaks the ASSUME.
    output = output.replace("CONSTANTS CapA, CapB", "CONSTANTS CapB, CapA")
    result, launches = measured(output, condition, tmp_path, "extended")
    assert result.passed, result.reason
    assert result.details["mapping"]["constants"] == {"SmallCap": "CapA", "BigCap": "CapB"}
    assert launches <= MAX_LAUNCHES


def test_bits_for_booleans_and_renamed_labels_pass_extended_only(tasks: dict[str, Task], tmp_path: Path) -> None:
    condition = tasks["peterson-mutex"].original()
    output = (reference(condition)
              .replace("[i \\in {0, 1} |-> FALSE]", "[i \\in {0, 1} |-> 0]")
              .replace("![self] = TRUE]", "![self] = 1]").replace("![self] = FALSE]", "![self] = 0]")
              .replace("~flag[Other(self)]", "flag[Other(self)] = 0")
              .replace('"ncs"', '"idle"').replace('"cs"', '"critical"'))
    result, launches = measured(output, condition, tmp_path, "extended")
    assert result.passed, result.reason
    assert launches <= MAX_LAUNCHES
    described = " ".join(e["description"] for e in result.details["encodings"])
    assert "0->FALSE" in described and '"idle"->"ncs"' in described
    paper = grade_behavior(output, condition, fresh_tools(tmp_path), timeout=60, mode="paper")
    assert not paper.passed
    assert paper.details["mode"] == "paper"


def test_renamed_pluscal_labels_pass_extended(tasks: dict[str, Task], tmp_path: Path) -> None:
    condition = tasks["racy-counter"].original()
    output = reference(condition).replace('"loop"', '"Lbl_1"').replace('"read"', '"fetch"')
    result, launches = measured(output, condition, tmp_path, "extended")
    assert result.passed, result.reason
    assert launches <= MAX_LAUNCHES
    assert '"Lbl_1"->"loop"' in result.details["encodings"][0]["description"]


def test_derived_constant_passes_extended(tasks: dict[str, Task]) -> None:
    condition = tasks["barrier"].original()
    output = reference(condition).replace("CONSTANT N\n", "N == 3\n")
    assert not grade_behavior(output, condition, timeout=60, mode="paper").passed
    result = grade_behavior(output, condition, timeout=60, mode="extended")
    assert result.passed, result.reason
    assert result.details["derived_constants"] == ["N"]


# ---------------------------------------------------------------- negative controls


def both_modes(output: str, condition: Condition) -> tuple[GradeResult, GradeResult]:
    return (grade_behavior(output, condition, timeout=60, mode="paper"),
            grade_behavior(output, condition, timeout=60, mode="extended"))


def test_changed_number_fails_in_both_modes(tasks: dict[str, Task]) -> None:
    condition = tasks["hour-clock"].original()
    mutant = reference(condition).replace("THEN 1 ELSE", "THEN 2 ELSE", 1)
    paper, extended = both_modes(mutant, condition)
    assert not paper.passed and "forward check failed" in paper.reason
    assert not extended.passed
    assert (extended.reason or "").startswith("state graphs differ: no encoding of hr has the value changes of hr; e.g. ")
    assert extended.details["mode"] == "extended"


def test_dropped_guard_fails_in_both_modes(tasks: dict[str, Task]) -> None:
    condition = tasks["barrier"].original()
    mutant = reference(condition).replace("    /\\ arrived = N\n", "", 1)
    assert mutant != reference(condition)
    paper, extended = both_modes(mutant, condition)
    assert not paper.passed and not extended.passed
    assert extended.reason.startswith("state graphs differ: ")
    assert "differ: reference" in extended.reason  # which count, with both numbers


def test_same_graph_without_fairness_fails_forward_with_counterexample(tasks: dict[str, Task]) -> None:
    condition = tasks["hour-clock"].original()
    unfair = reference(condition).replace(" /\\ WF_hr(Tick)", "")
    paper, extended = both_modes(unfair, condition)
    assert not paper.passed and not extended.passed
    assert extended.reason.startswith("forward check failed under mapping {hr->hr}: ")
    assert "counterexample" in extended.reason or "violated" in extended.reason


def test_extra_variable_fails_before_any_dump(tasks: dict[str, Task]) -> None:
    condition = tasks["hour-clock"].original()
    extra = reference(condition).replace("VARIABLE hr", "VARIABLES hr, spare").replace("[][Next]_hr",
                                                                                   "[][Next]_<<hr, spare>>")
    result = grade_behavior(extra, condition, timeout=60, mode="extended")
    assert not result.passed
    assert "variable" in result.reason and "mapping" in result.reason


def test_reference_over_the_graph_limit_falls_back_to_the_paper_search(tasks: dict[str, Task],
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import pytest_alias.grading.extended as extended

    monkeypatch.setattr(extended, "MAX_GRAPH_STATES", 5)  # die-hard has 27 reachable states
    condition = tasks["die-hard"].original()
    graph, why = reference_graph(default_tools(), condition, parse_cfg(condition.cfg or ""), 60)
    assert graph is None and why is not None and "27 distinct states" in why and "limit of 5" in why
    result = grade_behavior(reference(condition), condition, timeout=60, mode="extended")
    assert result.passed, result.reason
    assert result.details["mode"] == "extended"
    assert "graph limit" in result.details["fallback"]


def test_a_subscript_that_leaves_a_variable_free_fails_extended_only(tasks: dict[str, Task]) -> None:
    condition = tasks["barrier"].original()
    text = reference(condition)
    spec_line = next(line for line in text.splitlines() if line.startswith("Spec =="))
    variables = re.search(r"VARIABLES? ([\w, ]+)", text).group(1).replace(" ", "").split(",")  # type: ignore[union-attr]
    assert len(variables) >= 2, variables
    kept = "<<" + ", ".join(variables[:-1]) + ">>"
    output = text.replace(spec_line, re.sub(r"\]_\w+", "]_" + kept, spec_line))
    assert output != text
    extended = grade_behavior(output, condition, timeout=60, mode="extended")
    assert not extended.passed and f"which leaves {variables[-1]} free" in (extended.reason or "")
    assert grade_behavior(output, condition, timeout=60, mode="paper").passed  # the paper's grader misses it


def test_an_output_dump_that_times_out_is_tried_once(tasks: dict[str, Task]) -> None:
    condition = tasks["hour-clock"].original()
    text = reference(condition)
    output = re.sub(r"(?m)^Next ==.*$", "Next == hr' = hr + 1", text)
    assert output != text, "hour-clock's Next is one line"
    result = grade_behavior(output, condition, timeout=3, mode="extended")
    assert not result.passed
    assert len(result.details.get("attempts", [])) <= 1


@pytest.mark.parametrize("task_id", ["cache-coherence", "two-phase-commit"])
def test_a_reference_with_symmetry_is_matched_on_whole_graphs(tasks: dict[str, Task], task_id: str,
                                                              tmp_path: Path) -> None:
    # SYMMETRY is left out of both dumps (whole graphs compare exactly) and kept in the TLC checks.
    task = tasks[task_id]
    assert "SYMMETRY" in (task.cfg or "")
    renamed_condition = random_condition(task, SEED, verify=False).condition
    result, launches = measured(reference(renamed_condition), task.original(), tmp_path, "extended")
    assert result.passed, result.reason
    assert "fallback" not in result.details and launches <= MAX_LAUNCHES


@pytest.mark.parametrize("task_id", ["die-hard", "two-phase-commit"])
def test_the_references_verification_counts_its_states_for_its_graph(tasks: dict[str, Task], task_id: str,
                                                                      tmp_path: Path) -> None:
    """R's graph is dumped after a run that counts its states; the check that verified R with its cfg
    (cached) counted them already, so only the dump runs, and the graph is the same. Not where the cfg
    has a SYMMETRY (two-phase-commit), which the dump leaves out: there the count runs as before."""
    condition = tasks[task_id].original()
    ref_cfg = parse_cfg(condition.cfg or "")
    counted = fresh_tools(tmp_path / "counted")
    graph, _ = reference_graph(counted, condition, ref_cfg, 60)
    verified = fresh_tools(tmp_path / "verified")
    assert verified.tlc(condition.spec(), timeout=60).ok and verified.cached_check(condition.spec(), timeout=60)
    before = verified.launches["tlc"]
    again, _ = reference_graph(verified, condition, ref_cfg, 60)
    assert graph is not None and again is not None and again.states == graph.states and again.edges == graph.edges
    # Under a SYMMETRY, R's check with its cfg runs first (its count of orbits, 45 here, is under the limit).
    assert counted.launches["tlc"] == (3 if ref_cfg.symmetry else 2)
    assert verified.launches["tlc"] - before == (2 if ref_cfg.symmetry else 1)


def test_a_count_under_symmetry_over_the_limit_needs_no_count_without_it(tasks: dict[str, Task], tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """two-phase-commit: 45 states under its SYMMETRY, 163 without. Over a limit of 40 the check with its cfg
    shows it, and the count without the SYMMETRY never runs; over a limit of 100 that count decides."""
    import pytest_alias.grading.extended as extended

    condition = tasks["two-phase-commit"].original()
    ref_cfg = parse_cfg(condition.cfg or "")
    monkeypatch.setattr(extended, "MAX_GRAPH_STATES", 40)
    tools = fresh_tools(tmp_path / "forty")
    graph, why = reference_graph(tools, condition, ref_cfg, 60)
    assert graph is None and why == ("the reference has more than 40 distinct states (45 under its cfg's SYMMETRY), "
                                     "over the graph limit of 40")
    assert tools.launches["tlc"] == 1
    monkeypatch.setattr(extended, "MAX_GRAPH_STATES", 100)
    tools = fresh_tools(tmp_path / "hundred")
    graph, why = reference_graph(tools, condition, ref_cfg, 60)
    assert graph is None and why == "the reference has 163 distinct states, over the graph limit of 100"
    assert tools.launches["tlc"] == 2
