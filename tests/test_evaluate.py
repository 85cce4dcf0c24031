"""One case's record: every grade through the guarded grader, so nothing an output does escapes."""

from __future__ import annotations

from pytest_alias.run.cases import Case
from pytest_alias.grading.context import grade_context
from pytest_alias.run.record import evaluate
from pytest_alias.tasks.suites import load_suite
from name_rule_outputs import HOUR_CLOCK_GOOD

WRITER = """---- MODULE HourClock ----
EXTENDS Naturals, IOUtils
VARIABLE hr
Init == hr = 1 /\\ IOExec(<<"touch", "/tmp/alias-should-not-exist">>).exitValue = 0
Next == hr' = IF hr = 12 THEN 1 ELSE hr + 1
Spec == Init /\\ [][Next]_hr
====
"""


def test_an_output_that_could_write_files_fails_every_grade_unrun(tools) -> None:
    task = next(t for t in load_suite("builtin") if t.id == "hour-clock")
    case = Case(task, task.original(), 0, "replay")
    before = sum(tools.launches.values())
    record = evaluate(case, WRITER, ["parse", "name", "behavior"], grade_context(tools, timeout=30, mode="extended"))
    assert sum(tools.launches.values()) == before  # no SANY, no TLC
    for grade in ("parse", "name", "behavior"):
        outcome = record["grades"][grade]
        assert outcome["passed"] is False
        assert "imports IOUtils" in outcome["reason"] and outcome["details"]["stage"] == "guard"


def test_a_reference_output_passes_every_grade(tools) -> None:
    task = next(t for t in load_suite("builtin") if t.id == "hour-clock")
    condition = task.original()
    record = evaluate(Case(task, condition, 0, "reference"), condition.module_map[condition.main],
                      ["parse", "name", "behavior"], grade_context(tools, timeout=60, mode="paper"))
    assert all(record["grades"][g]["passed"] for g in ("parse", "name", "behavior")), record["grades"]
    assert record["similarity"] == {"bleu4": 100.0, "rouge_l": 100.0}  # percent, as the paper reports them




def test_a_record_carries_the_name_rule_and_the_rules_never_share_a_stored_verdict(tools) -> None:
    task = next(t for t in load_suite("builtin") if t.id == "hour-clock")
    case = Case(task, task.original(), 0, "replay")
    graded = {rule: evaluate(case, HOUR_CLOCK_GOOD, ["name"], grade_context(tools, timeout=60, mode="paper", name_rule=rule))
              for rule in ("paper", "refined", "paper")}  # paper again: from the store, under its own key
    assert graded["paper"]["name_rule"] == "paper" and graded["refined"]["name_rule"] == "refined"
    assert graded["paper"]["outcome"] == "pass", graded["paper"]["grades"]
    assert "reused" in graded["paper"]["grades"]["name"]["details"]  # the store answered the second paper grade
    assert graded["refined"]["outcome"] == "config_error"
    assert graded["refined"]["grades"]["name"]["reason"] == "output does not define NoonRecurs, which the cfg requires"
    assert "search_budget_s" not in graded["paper"]  # no behavior grade, no search


def test_a_record_carries_the_search_budget(tools) -> None:
    task = next(t for t in load_suite("builtin") if t.id == "hour-clock")
    condition = task.original()
    record = evaluate(Case(task, condition, 0, "reference"), condition.module_map[condition.main], ["behavior"], grade_context(tools, timeout=60, mode="paper"))
    assert record["search_budget_s"] == 240.0  # 4 × the TLC limit
    assert record["grades"]["behavior"]["details"]["search_budget_s"] == 240.0
