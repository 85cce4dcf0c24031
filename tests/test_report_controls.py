"""The paper's controls from saved records: appendix M, appendix P, Table U.1, 90% CIs and TOST, `tla-alias report`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_alias.cli import main
from pytest_alias.report.aggregate import aggregate
from pytest_alias.cir.known_names import mark_known_names
from pytest_alias.report.controls import disagreements, known_name_comparison, marked_tasks
from pytest_alias.grading.validation import covered_tasks
from pytest_alias.report.paper import build_paper_report


def record(task: str, condition: str, sample: int, *, name: bool, behavior: bool, model: str = "m",
           hidden: tuple[str, ...] = (), known: tuple[str, ...] = (), lenient: bool = True) -> dict[str, Any]:
    return {"id": f"{task}-{condition}-{model}-s{sample}", "task": task, "condition": condition, "sample": sample,
            "model": model, "has_hidden_names": bool(hidden), "hidden_names": list(hidden),
            "known_names": {"fixed": list(known), "broader": list(known)},
            "grades": {"parse": {"passed": True, "reason": None, "details": {"lenient_ok": lenient}},
                       "name": {"passed": name, "reason": None if name else "TLC: Init not defined"},
                       "behavior": {"passed": behavior, "reason": None if behavior else "behavior differs"}},
            "similarity": None}


def test_known_names_are_marked_as_words_and_proper_nouns_keep_their_capitals() -> None:
    marks = mark_known_names("Lamport's Bakery algorithm for mutual exclusion, as in the dining-philosophers problem")
    assert marks["fixed"] == ["Bakery", "dining philosophers", "Lamport"]
    assert "mutual exclusion" in marks["broader"] and "mutual exclusion" not in marks["fixed"]
    assert mark_known_names("A bakery sells bread; a raft floats.") == {"fixed": [], "broader": []}
    assert mark_known_names("Two phase commit") ["fixed"] == ["two-phase commit"]


def test_appendix_m_compares_marked_and_other_tasks() -> None:
    rows = []
    # Marked tasks k1, k2 lose 50 points; others o1, o2 lose nothing.
    for task, known in (("k1", ("Paxos",)), ("k2", ("Raft",)), ("o1", ()), ("o2", ())):
        for sample in (0, 1):
            rows.append(record(task, "original", sample, name=True, behavior=True, known=known))
            rows.append(record(task, "random", sample, name=not known or sample == 0, behavior=True, known=known))
    assert marked_tasks(rows) == {"k1", "k2"}
    found = known_name_comparison(rows, "m", "name", resamples=500)
    assert found is not None
    assert found["marked"]["n"] == 2 and found["marked"]["decrease"]["mean"] == pytest.approx(50.0)
    assert found["other"]["decrease"]["mean"] == pytest.approx(0.0) and found["marked"]["original"] == 100.0
    assert 0 < found["permutation"]["p_value"] <= 1 and found["permutation"]["difference"] == pytest.approx(50.0)


def test_appendix_p_counts_one_grade_passes_and_the_upper_bound() -> None:
    rows = [record("t1", "original", 0, name=True, behavior=True),
            record("t1", "random", 0, name=False, behavior=True, hidden=("Init",)),  # behavior only, hidden name
            record("t2", "original", 0, name=True, behavior=False),                  # name only
            record("t2", "random", 0, name=False, behavior=False)]
    found = disagreements(rows, "m", resamples=200)
    assert found is not None
    original, renamed = found["conditions"]["original"], found["conditions"]["random"]
    assert (original["both"], original["behavior_only"], original["name_only"]) == (1, 0, 1)
    assert (renamed["behavior_only"], renamed["behavior_only_hidden_name"]) == (1, 1)
    assert renamed["behavior_only_items"][0]["hidden_names"] == ["Init"]
    # Either grade passing counts: original 1, 1; renamed 1, 0 → decrease (0 + 100) / 2 = 50 points.
    assert found["upper_bound"]["decrease"]["mean"] == pytest.approx(50.0)


def test_decreases_carry_a_90_percent_interval_tost_and_the_lenient_parse_rate() -> None:
    rows = [record(f"t{i}", c, 0, name=True, behavior=True, lenient=(c == "original" or i % 2 == 0))
            for i in range(6) for c in ("original", "random")]
    summary = aggregate(rows, resamples=500)
    decrease = summary["models"]["m"]["grades"]["name"]["decreases"]["random"]
    assert decrease["mean"] == 0 and decrease["ci90_low"] == 0 == decrease["ci90_high"]
    assert decrease["equivalent"] is True and decrease["margin"] == pytest.approx(5.0)
    lenient = summary["models"]["m"]["grades"]["parse"]["lenient_rates"]
    assert lenient["original"]["mean"] == 1.0 and lenient["random"]["mean"] == pytest.approx(0.5)


def test_the_covered_tasks_restrict_table_u1() -> None:
    rows = [record(t, c, 0, name=(c == "original"), behavior=True) for t in ("a", "b", "c") for c in ("original", "random")]
    validation = {"tasks": [{"task": "a", "covered": True}, {"task": "b", "covered": True}, {"task": "c", "covered": False}]}
    assert covered_tasks(validation) == {"a", "b"}
    report = build_paper_report(rows, validation=validation, resamples=200)
    [u1] = [s for s in report.sections if "Table U.1" in s.title]
    assert {(d["grade"], d["n"], d["mean"]) for d in u1.data} == {("name", 2, 100.0), ("behavior", 2, 0.0)}
    with pytest.raises(ValueError, match="validate-grader"):
        covered_tasks({"rows": []})


def test_the_report_command_writes_every_table_it_can(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = [record(t, c, s, name=(c == "original"), behavior=True, known=("Paxos",) if t == "a" else ())
            for t in ("a", "b") for c in ("original", "random") for s in (0, 1)]
    saved = tmp_path / "run.json"
    saved.write_text(json.dumps({"metadata": {}, "aggregate": {}, "records": rows}))
    assert main(["report", str(saved), "--out", str(tmp_path / "out"), "--resamples", "200"]) == 0
    shown = capsys.readouterr().out
    assert "## Grade disagreements (appendix P)" in shown and "## Known algorithm names (appendix M)" in shown
    assert "parse (lenient)" in shown and "pass --covered" in shown
    page = (tmp_path / "out" / "report.html").read_text()
    assert "<caption>" in page and "appendix P" in page
    assert json.loads((tmp_path / "out" / "report.json").read_text())["sections"]
    (tmp_path / "empty.json").write_text("[]")
    assert main(["report", str(tmp_path / "empty.json"), "--out", str(tmp_path / "o2")]) == 2


def test_a_task_without_cfg_is_left_out_and_counted_failing_under_the_paper_rule() -> None:
    from pytest_alias.run.record import not_applicable_result
    from pytest_alias.report.tables import rate_rows

    rows = [record(t, c, 0, name=True, behavior=True) for t in ("a", "b", "c") for c in ("original", "random")]
    for condition in ("original", "random"):
        no_cfg = record("d", condition, 0, name=False, behavior=False)
        no_cfg["grades"]["name"] = no_cfg["grades"]["behavior"] = not_applicable_result()
        rows.append(no_cfg)
    entry = aggregate(rows, resamples=200)["models"]["m"]["grades"]["name"]
    assert entry["rates"]["original"] == {"mean": 1.0, "tasks": 3, "task_ids": ["a", "b", "c"]}  # tasks with a cfg
    assert entry["paper_rule_rates"]["original"] == {"mean": 0.75, "tasks": 4, "task_ids": ["a", "b", "c", "d"]}
    assert entry["decreases"]["random"]["n"] == 3
    header, table = rate_rows(aggregate(rows, resamples=200)["models"]["m"])
    assert ["name (paper rule: no-cfg tasks fail)", "75.0%", "75.0%"] in table


def test_random_and_meaningful_names_get_a_tost_row_in_points() -> None:
    from pytest_alias.report.tables import decrease_rows

    rows = [record(t, c, 0, name=True, behavior=True) for t in ("a", "b", "c") for c in ("original", "random", "meaningful")]
    entry = aggregate(rows, resamples=200)["models"]["m"]
    tost = entry["grades"]["name"]["equivalence_random_meaningful"]
    assert tost["margin"] == pytest.approx(5.0) and tost["equivalent"] is True
    assert ["name", "random − meaningful", "meaningful-valid",
            "+0.0 [0.0, 0.0] 90% [0.0, 0.0] equivalent ±5 n=3 tasks; original 100.0%, random 100.0%, "
            "meaningful 100.0% on these tasks"] in decrease_rows(entry)[1]
