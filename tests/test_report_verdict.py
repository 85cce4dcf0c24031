"""The verdict section: designed record sets whose right reading is known, through `tla-alias report`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_alias.cli import main
from pytest_alias.report.paper import build_paper_report, render_html_report, render_markdown_report
from pytest_alias.report.verdict import anchor, read_decrease

TASKS = 20
RESAMPLES = 400


def record(task: str, condition: str, sample: int, *, name: bool, behavior: bool, hidden: bool,
           model: str = "m", known: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"id": f"{task}-{condition}-{model}-s{sample}", "task": task, "condition": condition, "sample": sample,
            "model": model, "has_hidden_names": hidden, "hidden_names": ["Inv"] if hidden else [],
            "known_names": {"fixed": list(known), "broader": list(known)},
            "grades": {"parse": {"passed": True, "reason": None, "details": {"lenient_ok": True}},
                       "name": {"passed": name, "reason": None if name else "TLC: Inv not defined"},
                       "behavior": {"passed": behavior, "reason": None if behavior else "behavior differs"}},
            "similarity": None}


def hidden_names_run() -> list[dict[str, Any]]:
    """The paper's Experiment 3 in miniature: every task passes both grades in the original condition;
    renamed, the 10 hidden-name tasks fail the name grade only (their cfg asks for a name the
    description never gave) and the behavior grade still passes everywhere."""
    rows = []
    for i in range(TASKS):
        hidden = i < TASKS // 2
        for sample in range(2):
            rows.append(record(f"t{i:02d}", "original", sample, name=True, behavior=True, hidden=hidden))
            rows.append(record(f"t{i:02d}", "random", sample, name=not hidden, behavior=True, hidden=hidden))
    return rows


def behavior_drop_run() -> list[dict[str, Any]]:
    """Renaming breaks what 12 of 20 tasks' outputs do: both grades fall, no names involved."""
    rows = []
    for i in range(TASKS):
        broken = i < 12
        for sample in range(2):
            rows.append(record(f"t{i:02d}", "original", sample, name=True, behavior=True, hidden=i % 2 == 0))
            rows.append(record(f"t{i:02d}", "random", sample, name=not broken, behavior=not broken,
                               hidden=i % 2 == 0))
    return rows


def verdict(report: Any) -> Any:
    [section] = [s for s in report.sections if s.title.endswith("(verdict)")]
    assert report.sections[0] is section  # the first thing a reader sees
    return section


def rows_by_evidence(section: Any) -> dict[str, dict[str, Any]]:
    return {row["evidence"]: row for row in section.data}


def test_hidden_names_explain_the_name_grade_decrease_and_behavior_is_equivalent_to_zero() -> None:
    covered = {"tasks": [{"task": f"t{i:02d}", "covered": True} for i in range(TASKS)]}
    section = verdict(build_paper_report(hidden_names_run(), validation=covered, resamples=RESAMPLES))
    rows = rows_by_evidence(section)
    name, behavior = rows["name-grade decrease (covered tasks)"], rows["behavior-grade decrease (covered tasks)"]
    assert name["value"].startswith("50.0 [") and name["n"] == str(TASKS)
    assert "renamed tasks pass less often" in name["reading"]
    assert "equivalent to 0 within ±5.0 points" in behavior["reading"]
    assert behavior["table"].startswith("Both grades on the covered tasks")
    comparison = rows["name grade vs behavior grade"]["reading"]
    assert "explained by hidden names" in comparison and "the 10 tasks with a hidden name lose 100.0" in comparison
    stated = rows["name-grade decrease, tasks stating every name"]
    assert stated["value"].startswith("0.0 [") and "equivalent to 0" in stated["reading"]
    # Appendix P's counts: 20 renamed samples pass only the behavior grade, all on hidden-name tasks.
    assert "20 renamed samples pass only the behavior grade (20 of them" in rows["grade disagreements (renamed)"]["reading"]
    assert not any("memorization" in row["reading"] for row in section.data)  # nothing here supports that word
    assert section.text[0].startswith("m: ") and "explained by hidden names" in section.text[0]
    assert "On the tasks with hidden names" not in section.text[0]  # the comparison row sums the split up


def test_a_behavior_decrease_is_not_called_memorization_or_blamed_on_names() -> None:
    section = verdict(build_paper_report(behavior_drop_run(), resamples=RESAMPLES))
    rows = rows_by_evidence(section)
    behavior = rows["behavior-grade decrease (every task with a verdict)"]
    assert behavior["value"].startswith("60.0 [") and "renamed tasks pass less often" in behavior["reading"]
    assert "mixes memorization with the cost of new names" in behavior["reading"]
    assert behavior["table"].startswith("Decreases: m")  # no covered set: the decrease table of the model
    comparison = rows["name grade vs behavior grade"]["reading"]
    assert "not an artifact of grading by name" in comparison and "hidden names" not in comparison


def test_an_inconclusive_interval_says_neither_and_a_low_base_rate_is_flagged() -> None:
    # 2 of 20 tasks fall from 1 to 0 and 1 rises: the CI includes 0, the 90% CI is not inside ±5 points.
    rows = []
    for i in range(TASKS):
        original = i < 4
        renamed = (i in (2, 3)) or i == 10
        rows.append(record(f"t{i:02d}", "original", 0, name=original, behavior=original, hidden=False))
        rows.append(record(f"t{i:02d}", "random", 0, name=renamed, behavior=renamed, hidden=False))
    found = rows_by_evidence(verdict(build_paper_report(rows, resamples=RESAMPLES)))
    reading = found["behavior-grade decrease (every task with a verdict)"]["reading"]
    assert "neither a decrease nor its absence is shown" in reading
    assert "At an original rate of 20.0%" not in reading  # 20% is not below the threshold
    assert "name grade shows no decrease" in found["name grade vs behavior grade"]["reading"]


def test_read_decrease_covers_an_increase_and_the_low_base_rate_rule() -> None:
    increase = {"mean": -12.0, "ci_low": -20.0, "ci_high": -4.0, "n": 30, "margin": 5.0, "equivalent": False}
    assert "renamed tasks pass more often" in read_decrease(increase, "The decrease")
    rows = []
    for i in range(TASKS):  # 1 of 20 tasks passes originally (5%): a ±5-point margin is all of it
        rows.append(record(f"t{i:02d}", "original", 0, name=i == 0, behavior=i == 0, hidden=False))
        rows.append(record(f"t{i:02d}", "random", 0, name=i == 0, behavior=i == 0, hidden=False))
    found = rows_by_evidence(verdict(build_paper_report(rows, resamples=RESAMPLES)))
    assert "At an original rate of 5.0%" in found["behavior-grade decrease (every task with a verdict)"]["reading"]


def test_known_names_that_lose_more_are_read_as_possible_recall() -> None:
    rows = []
    for i in range(TASKS):
        known = ("Paxos",) if i < 6 else ()
        for sample in range(2):
            rows.append(record(f"t{i:02d}", "original", sample, name=True, behavior=True, hidden=False, known=known))
            rows.append(record(f"t{i:02d}", "random", sample, name=not known, behavior=not known, hidden=False,
                               known=known))
    found = rows_by_evidence(verdict(build_paper_report(rows, resamples=RESAMPLES)))
    row = found["known algorithm names (behavior grade)"]
    assert row["n"] == "6 / 14" and "recall from the algorithm's name is possible" in row["reading"]
    assert row["table"].startswith("Known algorithm names")


def test_every_row_links_to_a_section_of_the_page(tmp_path: Path) -> None:
    report = build_paper_report(hidden_names_run(), resamples=RESAMPLES)
    markdown, page = render_markdown_report(report), render_html_report(report, hidden_names_run())
    section = verdict(report)
    titles = {s.title for s in report.sections}
    for row in section.data:
        assert row["table"] in titles, row["table"]
        assert f"(#{anchor(row['table'])})" in markdown
        assert f'id="{anchor(row["table"])}"' in page and f'href="#{anchor(row["table"])}"' in page
    assert anchor("Both grades on the covered tasks (Table U.1)") == "both-grades-on-the-covered-tasks-table-u1"


def test_the_report_command_prints_the_verdict_and_saves_it_as_data(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "run.json"
    saved.write_text(json.dumps({"metadata": {}, "aggregate": {}, "records": hidden_names_run()}))
    assert main(["report", str(saved), "--out", str(tmp_path / "out"), "--resamples", "200"]) == 0
    shown = capsys.readouterr().out
    assert "## What this run shows about memorization (verdict)" in shown
    saved_report = json.loads((tmp_path / "out" / "report.json").read_text())
    first = saved_report["sections"][0]
    assert first["title"].endswith("(verdict)") and first["text"] and first["data"][0]["model"] == "m"


def test_sample_agreement_is_cited_as_weak_evidence() -> None:
    from pytest_alias.report.agreement import agreement

    texts = [("m", f"t{i:02d}", condition, text) for i in range(3)
             for condition, text in (("original", "same"), ("original", "same"),
                                     ("random", f"first {i}"), ("random", f"other text {i}"))]
    report = build_paper_report(hidden_names_run(), resamples=RESAMPLES, run={"agreement": agreement(texts)})
    row = rows_by_evidence(verdict(report))["sample agreement (original vs renamed)"]
    assert row["value"].startswith("0.000 / 100% vs ") and row["test"] == "–"
    assert "more alike" in row["reading"] and "weak evidence" in row["reading"]
    assert row["table"] == "Sample agreement: m" and row["table"] in {s.title for s in report.sections}
