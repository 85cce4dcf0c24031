"""Appendix S: the decrease at each sample position, and the first sample's rate on a list of ids."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_alias.cli import main
from pytest_alias.report.positions import first_sample_rate, position_decreases, read_ids

TASKS = [f"t{i}" for i in range(8)]


def _record(task: str, condition: str, sample: int, ok: bool | None) -> dict[str, Any]:
    result = {"passed": ok, "reason": None}  # passed None: no verdict on the output (a model or grader error)
    return {"task": task, "condition": condition, "sample": sample, "model": "m", "has_hidden_names": False,
            "similarity": None, "grades": {"name": result, "behavior": {"passed": bool(ok), "reason": None}}}


def _records() -> list[dict[str, Any]]:
    rows = []
    for index, task in enumerate(TASKS):
        # Sample 0 passes in the original and fails renamed on every task; sample 1 passes in both on
        # even tasks only; sample 2 passes renamed only on t0 (a rise).
        rows += [_record(task, "original", 0, True), _record(task, "random", 0, False),
                 _record(task, "original", 1, index % 2 == 0), _record(task, "random", 1, index % 2 == 0),
                 _record(task, "original", 2, False), _record(task, "random", 2, task == "t0")]
    return rows


def test_each_position_gets_its_own_decrease() -> None:
    rows = position_decreases(_records(), "m", "name", resamples=2000)
    by = {row["sample"]: row for row in rows}
    assert sorted(by) == [0, 1, 2] and all(row["n"] == 8 for row in rows)
    assert by[0]["mean"] == pytest.approx(100.0) and by[0]["ci_low"] == pytest.approx(100.0)
    assert by[0]["now_fail"] == 8 and by[0]["sign_p"] == pytest.approx(2 / 2 ** 8)  # exact binomial, two-sided
    assert by[1]["mean"] == 0.0 and (by[1]["ci_low"], by[1]["ci_high"]) == (0.0, 0.0) and by[1]["sign_p"] == 1.0
    assert by[1]["original"] == by[1]["renamed_rate"] == 50.0
    assert by[2]["mean"] == pytest.approx(-12.5) and by[2]["now_pass"] == 1


def test_the_first_sample_rate_on_a_list_and_what_it_lacks() -> None:
    records = _records()
    records = [r for r in records if not (r["task"] == "t7" and r["sample"] == 0)]
    records.append(_record("t7", "original", 0, None))  # a grader error: no verdict, not a failure
    found = first_sample_rate(records, "m", "name", ids=["t0", "t1", "t7", "zz"])
    assert found is not None and found["n"] == 2 and found["rate"] == 100.0
    assert found["missing"] == ["t7", "zz"] and found["restricted"] is True
    assert first_sample_rate(records, "m", "name", condition="random")["rate"] == 0.0
    assert first_sample_rate(records, "m", "name", ids=["nothing"]) is None


def test_ids_files_and_the_report_section(tmp_path: Path) -> None:
    (tmp_path / "ids.json").write_text(json.dumps(["t0", "t1", "t2"]))
    (tmp_path / "ids.txt").write_text("# tasks TLA+-Bench reports\nt0\n\nt1\n")
    assert read_ids(tmp_path / "ids.json") == ["t0", "t1", "t2"] and read_ids(tmp_path / "ids.txt") == ["t0", "t1"]
    (tmp_path / "bad.json").write_text("[1, {}]")
    with pytest.raises(ValueError, match="must hold strings"):
        read_ids(tmp_path / "bad.json")
    saved = tmp_path / "run.json"
    saved.write_text(json.dumps({"records": _records()}))
    assert main(["report", str(saved), "--ids", str(tmp_path / "ids.json"), "--out", str(tmp_path / "out"),
                 "--resamples", "200"]) == 0
    text = (tmp_path / "out" / "report.md").read_text()
    assert "## Per sample position (appendix S)" in text
    assert "| m | name | first, original | 3 listed tasks | 100.0% |" in text
    assert main(["report", str(saved), "--ids", str(tmp_path / "missing.txt"), "--out", str(tmp_path / "o")]) == 2
