"""One covered set everywhere the paper uses it: appendices M, P, R and U, each table with its n.

The design: tasks a and b are covered; c and d are not (a random-valued spec, say). c and d are built
so that counting them changes every number, so each assertion below fails if a table ignores the
covered set, and each table's n is checked.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_alias.cli import main
from pytest_alias.report.aggregate import aggregate
from pytest_alias.report.paper import build_paper_report

COVERED = {"a", "b"}
# task → condition → [(name, behavior) per sample]; hidden names and known names per task.
DESIGN: dict[str, dict[str, list[tuple[bool, bool]]]] = {
    "a": {"original": [(True, True)] * 2, "random": [(False, True)] * 2, "meaningful": [(False, True)] * 2},
    "b": {"original": [(True, True)] * 2, "random": [(True, False), (True, True)],
          "meaningful": [(True, True)] * 2},
    "c": {"original": [(True, False), (False, False)], "random": [(False, False)] * 2,
          "meaningful": [(False, False)] * 2},
    "d": {"original": [(True, True)] * 2, "random": [(False, False)] * 2},
}
HIDDEN = {"a": ("Inv",), "c": ("TypeOK",)}
KNOWN = {"a": ("Paxos",), "c": ("Raft",)}


def _records() -> list[dict[str, Any]]:
    rows = []
    for task, conditions in DESIGN.items():
        for condition, samples in conditions.items():
            for sample, (name, behavior) in enumerate(samples):
                rows.append({"id": f"{task}-{condition}-s{sample}", "task": task, "condition": condition,
                             "sample": sample, "model": "m", "has_hidden_names": task in HIDDEN,
                             "hidden_names": list(HIDDEN.get(task, ())), "similarity": None,
                             "known_names": {"fixed": list(KNOWN.get(task, ())), "broader": list(KNOWN.get(task, ()))},
                             "grades": {"name": {"passed": name, "reason": None if name else "TLC failed"},
                                        "behavior": {"passed": behavior, "reason": None if behavior else "differs"}}})
    return rows


def _section(report: Any, title: str) -> Any:
    [found] = [s for s in report.sections if title in s.title]
    return found


def test_appendix_p_counts_only_the_covered_tasks_samples() -> None:
    report = build_paper_report(_records(), validation={"tasks": [{"task": t, "covered": True} for t in COVERED]},
                                resamples=500)
    section = _section(report, "appendix P")
    [data] = section.data
    assert data["tasks"] == 2 and data["restricted"] is True
    original, renamed = data["conditions"]["original"], data["conditions"]["random"]
    assert (original["samples"], original["both"], original["name_only"]) == (4, 4, 0)  # c's name-only pass left out
    assert (renamed["samples"], renamed["both"], renamed["behavior_only"], renamed["behavior_only_hidden_name"],
            renamed["name_only"]) == (4, 1, 2, 2, 1)
    # Either grade: a 1 → 1, b 1 → 1: no decrease (with c and d it would be (50 + 100) / 4 = 37.5 points).
    assert data["upper_bound"]["decrease"]["mean"] == pytest.approx(0.0) and data["upper_bound"]["n"] == 2
    assert section.rows[0][2] == "2" and "on the 2 covered tasks" in section.caption
    unrestricted = _section(build_paper_report(_records(), resamples=500), "appendix P")
    assert unrestricted.data[0]["tasks"] == 4 and unrestricted.data[0]["upper_bound"]["decrease"]["mean"] == \
        pytest.approx(37.5)
    assert "no covered set known" in unrestricted.caption


def test_appendix_m_compares_the_behavior_grade_on_covered_tasks_and_the_name_grade_on_all() -> None:
    report = build_paper_report(_records(), run={"coverage": {"source": "self-check", "mode": "paper",
                                                              "covered": sorted(COVERED)},
                                                 "covered_restricts_rates": True}, resamples=500)
    data = {(d["grade"], d["list"]): d for d in _section(report, "appendix M").data}
    behavior, name = data[("behavior", "fixed")], data[("name", "fixed")]
    assert (behavior["marked"]["tasks"], behavior["other"]["tasks"]) == (["a"], ["b"])
    assert behavior["marked"]["decrease"]["mean"] == pytest.approx(0.0)
    assert behavior["other"]["decrease"]["mean"] == pytest.approx(50.0)
    assert (name["marked"]["n"], name["other"]["n"]) == (2, 2)
    assert "Covered tasks: 2, from the run's self-check" in " ".join(report.notes)


def test_appendix_r_compares_the_behavior_grade_only_on_covered_meaningful_valid_tasks() -> None:
    covered = build_paper_report(_records(), validation={"tasks": [{"task": t, "covered": True} for t in COVERED]},
                                 resamples=500)
    kinds = {(d["grade"], d["tasks_kind"]): d for d in _section(covered, "appendix R").data}
    assert set(kinds) == {("name", "meaningful-valid"), ("name", "meaningful-valid and covered"),
                          ("behavior", "meaningful-valid and covered")}
    assert kinds[("behavior", "meaningful-valid and covered")]["tasks"] == ["a", "b"]
    assert kinds[("behavior", "meaningful-valid and covered")]["random"] == pytest.approx(75.0)
    assert kinds[("name", "meaningful-valid")]["n"] == 3
    plain = _section(build_paper_report(_records(), resamples=500), "appendix R")
    assert {(d["grade"], d["tasks_kind"]) for d in plain.data} == {("name", "meaningful-valid"),
                                                                     ("behavior", "meaningful-valid")}


def test_appendix_u_splits_the_covered_tasks_by_hidden_names() -> None:
    report = build_paper_report(_records(), validation={"tasks": [{"task": t, "covered": True} for t in COVERED]},
                                resamples=500)
    rows = {(d["grade"], d["tasks_kind"]): (d["n"], d["mean"]) for d in _section(report, "Table U.1").data}
    assert rows == {("name", "covered"): (2, pytest.approx(50.0)),
                    ("name", "covered, hidden names"): (1, pytest.approx(100.0)),
                    ("name", "covered, every name stated"): (1, pytest.approx(0.0)),
                    ("behavior", "covered"): (2, pytest.approx(25.0)),
                    ("behavior", "covered, hidden names"): (1, pytest.approx(0.0)),
                    ("behavior", "covered, every name stated"): (1, pytest.approx(50.0))}
    split = aggregate(_records(), resamples=500, covered=COVERED)["models"]["m"]["grades"]["behavior"]["covered"]
    assert split["split"]["random"]["hidden_names"]["task_ids"] == ["a"]
    assert split["split"]["random"]["every_name_stated"]["mean"] == pytest.approx(50.0)


def test_the_report_command_takes_covered_from_a_file_or_from_the_run(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    validation = tmp_path / "validation.json"
    validation.write_text(json.dumps({"tasks": [{"task": t, "covered": t in COVERED} for t in DESIGN]}))
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps({"metadata": {}, "aggregate": {}, "records": _records()}))
    assert main(["report", str(bare), "--covered", str(validation), "--out", str(tmp_path / "o1"),
                 "--resamples", "200"]) == 0
    first = json.loads((tmp_path / "o1" / "report.json").read_text())
    run = tmp_path / "run.json"
    run.write_text(json.dumps({"metadata": {"coverage": {"source": "self-check", "mode": "paper",
                                                         "covered": sorted(COVERED)},
                                            "covered_restricts_rates": True}, "aggregate": {}, "records": _records()}))
    assert main(["report", str(run), "--out", str(tmp_path / "o2"), "--resamples", "200"]) == 0
    second = json.loads((tmp_path / "o2" / "report.json").read_text())
    for document in (first, second):
        [p] = [s for s in document["sections"] if "appendix P" in s["title"]]
        assert p["data"][0]["tasks"] == 2
    capsys.readouterr()
    (tmp_path / "list.json").write_text("[]")
    assert main(["report", str(bare), "--covered", str(tmp_path / "list.json"), "--out", str(tmp_path / "o3")]) == 2
    assert "validate-grader" in capsys.readouterr().err
