"""Appendix R: every rate on the meaningful-valid tasks, random − meaningful with 95% and 90% CIs and TOST."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_alias.cli import main
from pytest_alias.report.aggregate import aggregate
from pytest_alias.report.meaningful import meaningful_comparison
from pytest_alias.report.tables import decrease_rows

# Task → condition → passes per sample (4 samples). Meaningful is valid on t0–t3 only; t4 and t5,
# where random names pass everything, must not lift the random rate of the comparison.
DESIGN = {
    "t0": {"original": 4, "random": 2, "meaningful": 2},
    "t1": {"original": 4, "random": 1, "meaningful": 3},
    "t2": {"original": 2, "random": 0, "meaningful": 2},
    "t3": {"original": 3, "random": 1, "meaningful": 1},
    "t4": {"original": 4, "random": 4},
    "t5": {"original": 4, "random": 4},
}


def _records() -> list[dict[str, Any]]:
    rows = []
    for task, counts in DESIGN.items():
        for condition, passes in counts.items():
            for sample in range(4):
                ok = sample < passes
                rows.append({"task": task, "condition": condition, "sample": sample, "model": "m",
                             "has_hidden_names": False, "similarity": None,
                             "grades": {"name": {"passed": ok, "reason": None},
                                        "behavior": {"passed": ok, "reason": None}}})
    return rows


def test_rates_and_the_difference_stay_on_the_meaningful_valid_tasks() -> None:
    entry = aggregate(_records(), resamples=2000, covered={"t0", "t1", "t2", "t5"})["models"]["m"]["grades"]["name"]
    found = entry["meaningful"]
    assert found["n"] == 4 and found["tasks"] == ["t0", "t1", "t2", "t3"]
    assert found["original"] == pytest.approx(100 * (4 + 4 + 2 + 3) / 16)
    assert found["random"] == pytest.approx(100 * 4 / 16)  # not the 50% over all six tasks
    assert entry["rates"]["random"]["mean"] == pytest.approx(12 / 24)
    assert found["meaningful"] == pytest.approx(100 * 8 / 16)
    d = found["random_minus_meaningful"]
    assert d["mean"] == pytest.approx(-25.0)  # (0 − 50 − 50 + 0) / 4 points
    assert d["ci_low"] <= d["ci90_low"] <= d["mean"] <= d["ci90_high"] <= d["ci_high"]
    assert d["ci90_low"] < -5 and d["equivalent"] is False and d["margin"] == pytest.approx(5.0)
    assert (d["random_higher"], d["meaningful_higher"]) == (0, 2)
    # Covered ∩ meaningful-valid: t0, t1, t2 (t5 has no meaningful rate, t3 is not covered).
    covered = entry["meaningful_covered"]
    assert covered["tasks"] == ["t0", "t1", "t2"] and covered["random"] == pytest.approx(100 * 3 / 12)
    assert covered["random_minus_meaningful"]["mean"] == pytest.approx(-100 / 3)


def test_equal_renamings_are_equivalent_and_the_row_shows_both_intervals() -> None:
    rates = {"original": {"a": 1.0, "b": 0.5, "c": 0.5}, "random": {"a": 0.5, "b": 0.25, "c": 0.0},
             "meaningful": {"a": 0.5, "b": 0.25, "c": 0.0}}
    found = meaningful_comparison(rates, resamples=500)
    assert found is not None and found["random_minus_meaningful"]["equivalent"] is True
    assert meaningful_comparison({"original": {"a": 1.0}, "random": {"a": 1.0}}) is None
    assert meaningful_comparison(rates, ["zzz"]) is None
    rows = decrease_rows(aggregate(_records(), resamples=500)["models"]["m"])[1]
    [row] = [r for r in rows if r[0] == "name" and r[1] == "random − meaningful"]
    assert row[2] == "meaningful-valid" and "-25.0 [" in row[3] and "90% [" in row[3]
    assert "n=4 tasks; original 81.2%, random 25.0%, meaningful 50.0%" in row[3]


def test_the_report_has_an_appendix_r_section(tmp_path: Path) -> None:
    saved, validation = tmp_path / "run.json", tmp_path / "validation.json"
    saved.write_text(json.dumps({"records": _records()}))
    validation.write_text(json.dumps({"tasks": [{"task": t, "covered": t != "t3"} for t in DESIGN]}))
    assert main(["report", str(saved), "--validation", str(validation), "--out", str(tmp_path / "out"),
                 "--resamples", "200"]) == 0
    text = (tmp_path / "out" / "report.md").read_text()
    assert "## Meaningful names (appendix R)" in text
    assert "| m | behavior, meaningful-valid and covered | 3 |" in text
