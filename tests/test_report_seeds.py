"""Several renamings per task: per-seed rates, the seed-averaged rate and decrease, worst case, spread."""

from __future__ import annotations

import statistics
from typing import Any

import pytest

from pytest_alias.report.aggregate import aggregate, task_rates
from pytest_alias.report.seeds import seed_analysis, seed_rows, seed_table
from pytest_alias.report.tables import summary_lines

# Task → passes out of 4 samples: the original, then random under renaming seeds 0, 1, 2.
DESIGN = {
    "t0": (4, (4, 4, 4)),  # no seed hurts
    "t1": (4, (4, 0, 2)),
    "t2": (2, (2, 0, 1)),
    "t3": (4, (0, 4, 4)),  # only seed 0 hurts
}


def _records(design: dict[str, tuple[int, tuple[int, ...]]] = DESIGN, *, seeds_field: bool = True) -> list[dict]:
    rows: list[dict[str, Any]] = []

    def add(task: str, condition: str, passes: int, rename_seed: int | None) -> None:
        for sample in range(4):
            row = {"task": task, "condition": condition, "sample": sample, "model": "m", "has_hidden_names": False,
                   "similarity": None, "grades": {"name": {"passed": sample < passes, "reason": None}}}
            if rename_seed is not None:
                row["rename_seed"] = rename_seed
            rows.append(row)

    for task, (original, per_seed) in design.items():
        add(task, "original", original, None)
        for index, passes in enumerate(per_seed):
            add(task, "random", passes, index if seeds_field else None)
    return rows


def test_per_seed_rates_average_worst_case_and_spread_match_the_design() -> None:
    entry = aggregate(_records(), resamples=2_000, seed=1)["models"]["m"]["grades"]["name"]
    found = entry["seeds"]
    assert found["seeds"] == [0, 1, 2] and found["tasks"] == 4
    rates = {row["rename_seed"]: row["rate"] for row in found["per_seed"]}
    assert rates == pytest.approx({0: 10 / 16, 1: 8 / 16, 2: 11 / 16})
    original = (4 + 4 + 2 + 4) / 16
    decreases = {row["rename_seed"]: row["decrease"] for row in found["per_seed"]}
    assert decreases == pytest.approx({k: 100 * (original - r) for k, r in rates.items()})
    # Averaged: each task's mean over its three seeds, then the mean over tasks.
    averaged = statistics.mean(statistics.mean(p / 4 for p in seeds) for _, seeds in DESIGN.values())
    assert found["rate"]["mean"] == pytest.approx(averaged)
    assert found["decrease"]["mean"] == pytest.approx(100 * (original - averaged))
    assert found["decrease"]["ci_low"] <= found["decrease"]["mean"] <= found["decrease"]["ci_high"]
    # The main table's random rate is the same seed average (not seed 0's rate).
    assert entry["rates"]["random"]["mean"] == pytest.approx(averaged)
    assert entry["decreases"]["random"]["mean"] == pytest.approx(found["decrease"]["mean"])
    # Worst case per task: t0 0, t1 100 (seed 1), t2 50 (seed 1), t3 100 (seed 0).
    worst = found["worst_case"]
    assert {t: (w["decrease"], w["rename_seed"]) for t, w in worst["by_task"].items()} == {
        "t0": (0.0, 0), "t1": (100.0, 1), "t2": (50.0, 1), "t3": (100.0, 0)}
    assert worst["mean"] == pytest.approx(62.5) and worst["tasks_fell"] == 3
    spread = found["spread"]["decrease"]
    assert spread["min"] == pytest.approx(min(decreases.values()))
    assert spread["max"] == pytest.approx(max(decreases.values()))
    assert spread["sd"] == pytest.approx(statistics.stdev(decreases.values()))


def test_rows_table_and_summary_carry_the_numbers() -> None:
    result = aggregate(_records(), resamples=1_000, seed=0, covered={"t1", "t2"})
    rows = seed_rows(result)
    assert [(r["grade"], r["tasks_scope"], r["tasks"], r["seeds"]) for r in rows] == [
        ("name", "all", 4, 3), ("name", "covered", 2, 3)]
    assert rows[0]["worst_case"] == pytest.approx(62.5) and rows[0]["per_seed"][1]["rate"] == pytest.approx(0.5)
    # Covered t1, t2: original (1 + 0.5) / 2, random ((4 + 0 + 2) / 12 + (2 + 0 + 1) / 12) / 2.
    assert rows[1]["decrease"] == pytest.approx(100 * (0.75 - 0.375))
    header, table = seed_table(result["models"]["m"])
    assert len(table) == 2 and table[0][0] == "name" and table[1][0] == "name (covered tasks)"
    assert "r1 50.0% /" in table[0][5] and "fell on 3 tasks" in table[0][7]
    text = "\n".join(summary_lines(result))
    assert "Several renamings per task" in text and "worst case per task" in text


def test_one_seed_runs_have_no_seed_analysis_and_unchanged_rates() -> None:
    one = {task: (original, seeds[:1]) for task, (original, seeds) in DESIGN.items()}
    entry = aggregate(_records(one, seeds_field=False), resamples=500)["models"]["m"]["grades"]["name"]
    assert "seeds" not in entry and seed_table({"grades": {"name": entry}})[1] == []
    assert entry["rates"]["random"]["mean"] == pytest.approx(10 / 16)


def test_a_seed_with_fewer_verdicts_weighs_as_much_as_the_others() -> None:
    records = _records({"t0": (4, (4, 0))})
    # Seed 1 keeps one verdict (its other samples were model errors, no verdict): its rate is 0, and
    # the task's rate is the mean of 1.0 and 0.0, not 4 passes out of 5 pooled samples.
    records = [r for r in records if not (r.get("rename_seed") == 1 and r["sample"] > 0)]
    assert task_rates(records, "m", "name", "random") == {"t0": pytest.approx(0.5)}


def test_seed_analysis_degenerate_cases() -> None:
    assert seed_analysis({"a": 1.0}, {0: {"b": 0.0}, 1: {"b": 1.0}}, resamples=200, seed=0) is None
    # A seed whose renaming did not verify for a task lacks it: its row says over how many tasks.
    found = seed_analysis({"a": 1.0, "b": 1.0}, {0: {"a": 1.0, "b": 0.0}, 1: {"a": 0.0}}, resamples=200, seed=0)
    assert [(r["rename_seed"], r["tasks"]) for r in found["per_seed"]] == [(0, 2), (1, 1)]
    assert found["rate"]["mean"] == pytest.approx((0.5 + 0.0) / 2)
    single = seed_analysis({"a": 1.0}, {0: {"a": 0.5}}, resamples=200, seed=0)
    assert single["spread"]["decrease"]["sd"] is None and single["decrease"]["mean"] == pytest.approx(50.0)


def test_sample_positions_average_a_tasks_renamings() -> None:
    from pytest_alias.report.positions import position_passes

    # t1's first sample passes under renamings 0 and 2 (4 and 2 passes) and fails under 1 (0 passes).
    first = position_passes(_records(), "m", "name", "random")[0]
    assert first == pytest.approx({"t0": 1.0, "t1": 2 / 3, "t2": 2 / 3, "t3": 2 / 3})


def test_gates_read_the_seed_averaged_decrease_and_the_worst_case() -> None:
    from pytest_alias.report.gates import parse_gate

    result = aggregate(_records(), resamples=500, seed=0)
    passed, value, message = parse_gate("name.seeds.worst_case.mean<=50").check(result)
    assert not passed and value == pytest.approx(62.5) and "points" in message
    passed, value, _ = parse_gate("name.seeds.decrease.mean<=40pt").check(result)
    assert passed and value == pytest.approx(result["models"]["m"]["grades"]["name"]["seeds"]["decrease"]["mean"])


def test_the_verdict_cites_the_seed_averaged_decrease_and_flags_a_sign_that_depends_on_the_draw() -> None:
    from pytest_alias.report.paper import build_paper_report

    # Seed 0 loses 2 tasks, seed 1 gains them back on two others: the per-seed decreases differ in sign.
    design = {f"t{i}": (2, (0, 4, 2)) if i < 2 else (2, (2, 2, 2)) for i in range(6)}
    report = build_paper_report(_records(design), resamples=500, seed=0)
    [verdict] = [s for s in report.sections if s.title.endswith("(verdict)")]
    [row] = [r for r in verdict.data if r["evidence"].startswith("name-grade decrease over 3 renamings")]
    found = seed_rows(report.aggregate)[0]
    assert row["value"].startswith(f"{found['decrease']:.1f} [") and row["n"] == "6"
    assert found["decrease_min"] < 0 < found["decrease_max"]
    assert "Its sign depends on which random names were drawn" in row["reading"]
    assert row["table"] == "Several renamings: m" and row["table"] in {s.title for s in report.sections}
