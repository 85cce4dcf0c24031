"""The behavior-based grade on real TLC runs: positive controls pass, mutants and frozen outputs fail."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from pytest_alias.cir.conditions import random_condition
from pytest_alias.grading.behavior import grade_behavior
from pytest_alias.grading.mapping import Declared, paper_mappings
from pytest_alias.grading.name_grade import grade_name
from pytest_alias.grading.refinement import spec_formula
from pytest_alias.tasks.model import Condition, Task
from pytest_alias.tasks.suites import load_suite

SEED = 7
SMALL_TASKS = ["hour-clock", "barrier", "traffic-light", "die-hard", "bounded-fifo"]


@pytest.fixture(scope="module")
def tasks() -> dict[str, Task]:
    return {task.id: task for task in load_suite("builtin")}


def reference(condition: Condition) -> str:
    return condition.module_map[condition.main]


def wall_clock(var: str = "hour") -> str:
    """HourClock written from its description with other names and no ``Spec`` operator."""
    return f"""---- MODULE WallClock ----
EXTENDS Naturals
VARIABLE {var}
Start == {var} \\in 1..12
Advance == {var}' = ({var} % 12) + 1
ClockSpec == Start /\\ [][Advance]_{var} /\\ WF_{var}(Advance)
====
"""


# ---------------------------------------------------------------- positive controls


@pytest.mark.parametrize("task_id", SMALL_TASKS)
def test_reference_passes_against_itself(tasks: dict[str, Task], task_id: str) -> None:
    condition = tasks[task_id].original()
    result = grade_behavior(reference(condition), condition, timeout=60)
    assert result.passed, result.reason
    assert result.grade == "behavior"
    assert result.details["mode"] == "paper"
    assert result.details["mapping"]["variables"]  # the winning mapping is recorded


def test_a_copy_without_the_modification_history_reuses_the_self_checks_runs(tasks: dict[str, Task],
                                                                             tmp_path: Path) -> None:
    """The self-check grades the reference's own text; a model's copy of it is cut at the footer, so
    it lacks the Toolbox's modification history. Its refinement checks are the self-check's, named
    alike, and come from the run cache: no TLC run of its own."""
    from pytest_alias.grading.extract import extract_module
    from pytest_alias.tla.runner import TlaTools

    task = tasks["bounded-fifo"]
    original = task.original()
    text = reference(original).rstrip("\n") + "\n\\* Modification History\n\\* Created by someone\n"
    condition = dataclasses.replace(original, modules=tuple((name, text if name == original.main else body)
                                                            for name, body in original.modules))
    tools = TlaTools(cache_dir=tmp_path)
    own = grade_behavior(text, condition, tools, timeout=60)  # what the self-check runs
    runs = tools.launches["tlc"]
    copy = extract_module(f"Here it is:\n```tla\n{text}```\n").text
    # One run: the output is the reference, so its reverse check is read off the forward one (self_check).
    assert copy is not None and copy != text and own.passed and runs == 1
    again = grade_behavior(f"```tla\n{copy}```", condition, tools, timeout=60)
    assert again.passed and again.details["mapping"] == own.details["mapping"]
    assert tools.launches["tlc"] == runs


@pytest.mark.parametrize("task_id", ["hour-clock", "bounded-fifo"])
def test_renamed_reference_passes_in_random_condition(tasks: dict[str, Task], task_id: str) -> None:
    condition = random_condition(tasks[task_id], SEED, verify=False).condition
    result = grade_behavior(reference(condition), condition, timeout=60)
    assert result.passed, result.reason


def test_rewrite_with_other_names_passes_behavior_but_not_name(tasks: dict[str, Task]) -> None:
    condition = random_condition(tasks["hour-clock"], SEED, verify=False).condition
    result = grade_behavior(wall_clock(), condition, timeout=60)
    assert result.passed, result.reason
    assert result.details["spec_formula"] == "ClockSpec"
    assert not grade_name(wall_clock(), condition, timeout=60).passed


def test_swapped_variable_names_need_a_permutation(tasks: dict[str, Task]) -> None:
    condition = tasks["die-hard"].original()
    # The output's "small" holds the big jug and vice versa: only the swapped mapping matches.
    swapped = re.sub(r"\b(small|big)\b", lambda m: {"small": "big", "big": "small"}[m.group(1)], reference(condition))
    result = grade_behavior(swapped, condition, timeout=60)
    assert result.passed, result.reason
    assert result.details["mappings_tried"] > 1
    assert result.details["mapping"]["variables"] == {"small": "big", "big": "small", "last": "last"}
    assert "forward" in result.details["attempts"][0]["reason"]


# ---------------------------------------------------------------- negative controls


def test_mutant_initial_value_fails_forward(tasks: dict[str, Task]) -> None:
    condition = tasks["die-hard"].original()
    mutant = reference(condition).replace("/\\ big = 0", "/\\ big = 1", 1)
    assert mutant != reference(condition)
    result = grade_behavior(mutant, condition, timeout=60)
    assert not result.passed
    assert "forward check failed" in result.reason


def test_mutant_without_guard_fails_forward(tasks: dict[str, Task]) -> None:
    condition = tasks["bounded-fifo"].original()
    mutant = reference(condition).replace("/\\ Len(q) < Cap\n", "", 1)
    assert mutant != reference(condition)
    # The unbounded queue has infinitely many states: a short per-run timeout is enough to see it fail.
    result = grade_behavior(mutant, condition, timeout=20)
    assert not result.passed
    assert "forward check failed" in result.reason
    assert "BoundedLength" in result.reason or "specification" in result.reason


def test_mutants_of_renamed_reference_fail(tasks: dict[str, Task]) -> None:
    condition = random_condition(tasks["hour-clock"], SEED, verify=False).condition
    # The tick wraps from 12 to 2: a step the reference never takes.
    wrong_step = reference(condition).replace("THEN 1 ELSE", "THEN 2 ELSE", 1)
    assert wrong_step != reference(condition)
    result = grade_behavior(wrong_step, condition, timeout=60)
    assert not result.passed
    assert result.reason.startswith("forward check failed")
    # Init allows fewer hours (the first 1..12 is TypeOK's): G's behaviors are R's, but not all of them.
    parts = reference(condition).split("1..12")
    fewer_starts = "1..12".join(parts[:2]) + "1..11" + "1..12".join(parts[2:])
    result = grade_behavior(fewer_starts, condition, timeout=60)
    assert not result.passed
    assert result.reason.startswith("reverse check failed")


def test_output_that_never_moves_fails_reverse(tasks: dict[str, Task]) -> None:
    condition = tasks["barrier"].original()
    frozen = re.sub(r"Next ==.*?\n\nSpec", "Next == UNCHANGED vars\n\nSpec", reference(condition), flags=re.S)
    assert "Next == UNCHANGED vars" in frozen
    result = grade_behavior(frozen, condition, timeout=60)
    assert not result.passed
    assert "reverse check failed" in result.reason  # under every mapping
    assert "safety formula" in result.reason
    assert result.details["attempts"][0]["forward"] == "ok"


def test_other_variable_count_fails_with_reason(tasks: dict[str, Task]) -> None:
    condition = tasks["hour-clock"].original()
    extra = reference(condition).replace("VARIABLE hr", "VARIABLES hr, spare")
    result = grade_behavior(extra, condition, timeout=60)
    assert not result.passed
    assert "variable" in result.reason and "mapping" in result.reason


def test_unparsable_output_fails_before_tlc(tasks: dict[str, Task]) -> None:
    condition = tasks["hour-clock"].original()
    result = grade_behavior("---- MODULE Broken ----\nInit == \n====\n", condition, timeout=60)
    assert not result.passed
    assert result.details["stage"] == "sany"


# ---------------------------------------------------------------- pieces


def test_paper_mappings_put_identical_names_first() -> None:
    ref = Declared(("a", "b", "c"), ("N",))
    gen = Declared(("c", "b", "x"), ("M",))
    mappings, why = paper_mappings(ref, gen)
    assert why is None and len(mappings) == 6
    assert dict(mappings[0].variables) == {"a": "x", "b": "b", "c": "c"}
    assert mappings[0].constants == (("N", "M"),)
    assert len({m.variables for m in mappings}) == 6


def test_paper_mappings_cap_at_sixty() -> None:
    names = tuple(f"v{i}" for i in range(6))
    mappings, _ = paper_mappings(Declared(names, ()), Declared(names, ()))
    assert len(mappings) == 60 and mappings[0].identical == 6


def test_spec_formula_keeps_junction_alignment() -> None:
    text = """---- MODULE M ----
VARIABLES x, y
Go == x' = x /\\ y' = y
Behaviors ==
    /\\ x = 0
    /\\ y = 0
    /\\ [][Go]_<<x, y>>
====
"""
    formula = spec_formula({"M": text}, "M", None)
    assert formula is not None and formula.name == "Behaviors"
    assert formula.next.strip() == "Go"
    lines = [line for line in formula.init.splitlines() if line.strip()]
    assert [line.index("/\\") for line in lines] == [4, 4]


def test_unknown_mode_is_rejected(tasks: dict[str, Task]) -> None:
    with pytest.raises(ValueError):
        grade_behavior("", tasks["hour-clock"].original(), mode="fancy")


def test_inline_bullet_formula_passes(tasks: dict[str, Task]) -> None:
    condition = tasks["hour-clock"].original()
    output = """---- MODULE Clock ----
EXTENDS Naturals
VARIABLE h
Spec ==
    /\\ h \\in 1..12
    /\\ h > 0
    /\\ [][h' = IF h = 12 THEN 1 ELSE h + 1]_h
    /\\ WF_h(h' = IF h = 12 THEN 1 ELSE h + 1)
====
"""
    result = grade_behavior(output, condition, timeout=60)
    assert result.passed, result.reason


def test_spec_formula_is_found_in_an_extended_module() -> None:
    base = """---- MODULE Base ----
VARIABLE x
Start == x = 0
Step == x' = 1 - x
Behaviors == Start /\\ [][Step]_x
====
"""
    main = "---- MODULE Top ----\nEXTENDS Base\nTwice == x' = x\n====\n"
    formula = spec_formula({"Top": main, "Base": base}, "Top", "Behaviors")
    assert formula is not None and (formula.name, formula.init.strip(), formula.next.strip()) == (
        "Behaviors", "Start", "Step")
    assert spec_formula({"Top": main}, "Top", "Behaviors") is None  # Base not staged: nothing to find


FAIR_REWRITES = {
    # Spec == HC /\ WF_hr(Tick) with HC == Init /\ [][Next]_hr, as in Specifying Systems' LiveHourClock:
    # TLC must run Spec (NoonRecurs needs the fairness), the reverse check uses HC's parts.
    "named-safety-part": ("HC == Init /\\ [][Next]_hr\n\nSpec == HC /\\ WF_hr(Tick)", "Spec"),
    # No Spec: Safety has the shape I /\ [][N]_v, but Fair adds the fairness NoonRecurs needs.
    "fair-extension": ("Safety == Init /\\ [][Next]_hr\n\nFair == Safety /\\ WF_hr(Tick)\n\n"
                       "Claim == Safety => []TypeOK", "Fair"),
}


@pytest.mark.parametrize("mode", ["paper", "extended"])
@pytest.mark.parametrize("rewrite", sorted(FAIR_REWRITES))
def test_the_formula_with_the_fairness_is_the_one_run(tasks: dict[str, Task], rewrite: str, mode: str) -> None:
    condition = tasks["hour-clock"].original()
    text = condition.module_map[condition.main]
    replacement, expected = FAIR_REWRITES[rewrite]
    output = text.replace("Spec == Init /\\ [][Next]_hr /\\ WF_hr(Tick)", replacement)
    assert output != text
    formula = spec_formula({condition.main: output}, condition.main, "Spec")
    assert formula is not None and (formula.name, formula.init.strip(), formula.next.strip()) == (
        expected, "Init", "Next")
    result = grade_behavior(output, condition, timeout=60, mode=mode)
    assert result.passed, result.reason


def test_fairness_through_a_definition_counts_but_an_implication_does_not() -> None:
    text = """---- MODULE M ----
VARIABLE x
Init == x = 0
Next == x' = 1 - x
Spec == Init /\\ [][Next]_x
Liveness == WF_x(Next)
LiveSpec == Spec /\\ Liveness
Claim == LiveSpec => [](x \\in {0, 1})
Weird == LiveSpec /\\ Init
====
"""
    formula = spec_formula({"M": text}, "M", None)
    assert formula is not None and formula.name == "LiveSpec" and formula.next.strip() == "Next"


# ---------------------------------------------------------------- the whole search's budget


def test_a_search_cut_off_by_its_budget_is_no_verdict_on_the_output(tasks: dict[str, Task]) -> None:
    """Issue 50: never "behavior differs"; its own outcome, the grader's side, left out of the rates."""
    from pytest_alias.report.aggregate import not_graded
    from pytest_alias.report.outcomes import outcome_lines
    from pytest_alias.records import NOT_VERDICTS, graded_verdict, record_outcome

    condition = tasks["die-hard"].original()
    # Only the swapped mapping passes (see test_swapped_variable_names_need_a_permutation): several to try.
    swapped = re.sub(r"\b(small|big)\b", lambda m: {"small": "big", "big": "small"}[m.group(1)], reference(condition))
    result = grade_behavior(swapped, condition, timeout=60, budget=0.5)
    assert not result.passed and result.reason is not None
    assert result.reason.startswith("search ran out of its time budget (0.5 s) after 0 of ")
    assert result.details["side"] == "grader" and result.details["search_budget_spent"] is True
    assert result.details["search_budget_s"] == 0.5
    record = {"model": "m", "task": "die-hard", "condition": "original", "sample": 0, "generation": {},
              "grades": {"behavior": {"passed": False, "reason": result.reason, "details": dict(result.details)}}}
    assert record_outcome(record) == "search_budget_spent" and record_outcome(record) in NOT_VERDICTS
    assert graded_verdict(record, "behavior") is None  # not counted in the rate
    assert not_graded([record], "behavior", "original") == 1  # counted as a sample without a verdict
    assert "search budget spent" in outcome_lines([record])[1]  # a column of the summary's outcome table
