"""Detection of known exposure: each signal's AUROC and flag counts against hand computations."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_alias.exposure.analysis import analyse
from pytest_alias.exposure.detection import BASE_RULE, DROP_RULE, flag_counts, rate_signal
from pytest_alias.exposure.signals import agreement_rows, agreement_values, continuation_values
from pytest_alias.exposure.split import ExposureSplit

SPLIT = ExposureSplit(seed=1, suite="builtin", halves={"A": ("t1", "t2"), "B": ("t3", "t4")},
                      versions={"t1": "v1", "t2": "v2", "t3": "v3", "t4": "v4"})
SLOTS = {"A": "mA", "B": "mB"}


def seen_of(task: str) -> tuple[str, str]:
    """(the model that saw ``task``, the one that did not)."""
    return ("mA", "mB") if task in SPLIT.halves["A"] else ("mB", "mA")


def cells(table: dict[str, tuple[float, float, float, float]]) -> dict[tuple[str, str, str], float]:
    """task → (seen original, seen renamed, unseen original, unseen renamed) as (model, task, condition) values."""
    values = {}
    for task, (cs, rs, cu, ru) in table.items():
        seen, unseen = seen_of(task)
        values |= {(seen, task, "original"): cs, (seen, task, "random"): rs,
                   (unseen, task, "original"): cu, (unseen, task, "random"): ru}
    return values


def test_flag_counts_count_strictly_above_and_skip_tasks_without_a_threshold() -> None:
    assert flag_counts([1.0, 0.0, 2.0, 5.0], [0.5, 0.0, 3.0, 9.0], [0.0, 0.0, 2.5, None]) == (1, 2, 3)
    assert flag_counts([], [], []) == (0, 0, 0)


# Seen drops 0.5, 0.0, 1.0, 0.2; unseen drops 0.1, 0.0, −0.2, 0.2.
TABLE = {"t1": (-1.0, -1.5, -1.2, -1.3), "t2": (-2.0, -2.0, -1.5, -1.5),
         "t3": (-0.5, -1.5, -3.0, -2.8), "t4": (-1.0, -1.2, -1.4, -1.6)}


def test_value_and_drop_rows_match_a_hand_computation() -> None:
    base = {("t1", "original"): -1.1, ("t2", "original"): -2.5, ("t3", "original"): -0.4,
            ("t1", "random"): -1.6, ("t2", "random"): -1.0, ("t3", "random"): -2.0, ("t4", "random"): -1.3}
    rows = {(r.form, r.condition): r for r in rate_signal(cells(TABLE), SPLIT, SLOTS, signal="mean", baseline=base,
                                                         family="f", dose="strong", resamples=2000)}
    assert set(rows) == {("value", "original"), ("value", "random"), ("drop", "original − random")}
    original = rows[("value", "original")]
    # Seen −1.0, −2.0, −0.5, −1.0 against unseen −1.2, −1.5, −3.0, −1.4: 4 + 1 + 4 + 4 = 13 of 16.
    assert original.auroc == pytest.approx(13 / 16) and original.n_seen == original.n_unseen == 4
    assert original.ci_low <= original.auroc <= original.ci_high
    # Above the base on t1 (−1.0 > −1.1), t2 (−2.0 > −2.5), not t3 (−0.5 < −0.4); t4 has no base value.
    assert (original.rule, original.flagged_seen, original.flagged_unseen, original.flag_tasks) == (BASE_RULE, 2, 1, 3)
    drop = rows[("drop", "original − random")]
    # Seen drops 0.5, 0, 1.0, 0.2 against unseen 0.1, 0, −0.2, 0.2: 4 + 1.5 + 4 + 3.5 = 13 of 16.
    assert drop.auroc == pytest.approx(13 / 16)
    assert (drop.rule, drop.flagged_seen, drop.flagged_unseen, drop.flag_tasks) == (DROP_RULE, 3, 2, 4)
    # −1.0 − (−1.2) and −1.4 − (−1.6) differ in the last bits of a float; they are one drop, so a tie.
    assert drop.kind == "likelihood" and drop.title == "f, strong dose" and drop.tasks == ("t1", "t2", "t3", "t4")


def test_a_grade_is_rated_by_its_drop_only_and_a_signal_without_base_has_no_value_flags() -> None:
    rows = rate_signal(cells(TABLE), SPLIT, SLOTS, signal="name", resamples=500)
    assert [(r.form, r.kind) for r in rows] == [("drop", "grade")]
    plain = rate_signal(cells(TABLE), SPLIT, SLOTS, signal="min_k", resamples=500)
    value = [r for r in plain if r.form == "value"]
    assert len(value) == 2 and all(r.rule == "" and r.flagged_seen is None for r in value)


def test_a_task_missing_a_cell_leaves_every_row_of_the_signal() -> None:
    values = cells(TABLE)
    del values[("mA", "t3", "random")]  # t3's unseen renamed value
    rows = rate_signal(values, SPLIT, SLOTS, signal="mean", resamples=500)
    assert {r.tasks for r in rows} == {("t1", "t2", "t4")} and all(r.n_seen == 3 for r in rows)
    assert rate_signal({}, SPLIT, SLOTS, signal="mean") == []


def test_a_perfect_signal_has_auroc_one_and_a_useless_one_one_half() -> None:
    perfect = {task: (1.0, 0.0, 0.0, 0.0) for task in ("t1", "t2", "t3", "t4")}
    [drop] = rate_signal(cells(perfect), SPLIT, SLOTS, signal="name", resamples=500)
    assert drop.auroc == 1.0 and (drop.ci_low, drop.ci_high) == (1.0, 1.0)
    assert (drop.flagged_seen, drop.flagged_unseen) == (4, 0)
    flat = {task: (0.5, 0.5, 0.5, 0.5) for task in ("t1", "t2", "t3", "t4")}
    [none] = rate_signal(cells(flat), SPLIT, SLOTS, signal="name", resamples=500)
    assert none.auroc == 0.5 and (none.flagged_seen, none.flagged_unseen) == (0, 0)


def test_agreement_and_continuation_values() -> None:
    outputs = [{"model": "m", "task": "t", "condition": "original", "sample": i, "text": text}
               for i, text in enumerate(("abcd", "abcx", "abcd"))]
    # Pairs: abcd/abcx 0.25, abcd/abcd 0, abcx/abcd 0.25 → mean distance 1/6.
    assert agreement_values(outputs) == {("m", "t", "original"): pytest.approx(1 - 1 / 6)}
    run = {"agreement": {"models": {"m": {"tasks": {"u": {"conditions": {"random": {"mean_distance": 0.4,
                                                                                   "samples": 5}}}}}}}}
    rows = agreement_rows(run)
    assert agreement_values(rows) == {("m", "u", "random"): pytest.approx(0.6)}
    assert agreement_rows(None) == [] and agreement_values(outputs[:1]) == {}  # one sample: no agreement
    continued = [{"format": "alias-continuation", "model": "m", "task": "t", "condition": c, "longest_run": n}
                 for c, n in (("original", 40), ("original", 20), ("random", 7))]
    assert continuation_values(continued) == {("m", "t", "original"): 30.0, ("m", "t", "random"): 7.0}


def _note(half: str, dose: str) -> dict[str, Any]:
    return {"split": SPLIT.identity, "half": half, "arm": "task-pair", "base": "base-model", "dose": dose}


def _records(dose: str, rates: dict[str, tuple[float, float, float, float]]) -> list[dict[str, Any]]:
    """Two samples per cell with the given pass rates (0, 0.5 or 1) by the dose's two models."""
    rows = []
    for task, (cs, rs, cu, ru) in rates.items():
        seen = "A" if task in SPLIT.halves["A"] else "B"
        unseen = "B" if seen == "A" else "A"
        for half, condition, rate in ((seen, "original", cs), (seen, "random", rs), (unseen, "original", cu),
                                      (unseen, "random", ru)):
            for sample in range(2):
                rows.append({"task": task, "condition": condition, "sample": sample, "model": f"{dose}-{half}",
                             "grades": {"name": {"passed": sample < 2 * rate, "reason": "ok"}},
                             "generation": {"exposure": _note(half, dose)}})
    return rows


def test_doses_are_rated_apart_and_base_rows_set_the_value_thresholds() -> None:
    # The strong dose reproduces every seen original (drop 1 on seen tasks), the paper dose learns nothing.
    strong = _records("strong", {t: (1.0, 0.0, 0.0, 0.0) for t in ("t1", "t2", "t3", "t4")})
    paper = _records("paper", {t: (0.5, 0.5, 0.5, 0.5) for t in ("t1", "t2", "t3", "t4")})
    likelihood = [{"format": "alias-likelihood", "task": task, "condition": condition, "model": model,
                   "exposure": _note(model[-1], "strong") if model != "base-model" else None, "mean": value}
                  for task in ("t1", "t2", "t3", "t4")
                  for model, condition, value in ((f"ll-{seen_of(task)[0][1]}", "original", -0.2),
                                                  (f"ll-{seen_of(task)[0][1]}", "random", -1.0),
                                                  (f"ll-{seen_of(task)[1][1]}", "original", -0.9),
                                                  (f"ll-{seen_of(task)[1][1]}", "random", -1.1),
                                                  ("base-model", "original", -1.0), ("base-model", "random", -1.2))]
    analysis = analyse(strong + paper + likelihood, SPLIT, resamples=500)
    by = {(r.dose, r.signal, r.form, r.condition): r for r in analysis.detection}
    name_strong, name_paper = by[("strong", "name", "drop", "original − random")], by[("paper", "name", "drop", "original − random")]
    assert name_strong.auroc == 1.0 and (name_strong.flagged_seen, name_strong.flagged_unseen) == (4, 0)
    assert name_paper.auroc == 0.5 and (name_paper.flagged_seen, name_paper.flagged_unseen) == (0, 0)
    mean = by[("strong", "mean", "value", "original")]
    # Both fine-tuned models score every reference above the base (−1.0): all seen and all unseen flagged.
    assert mean.auroc == 1.0 and (mean.flagged_seen, mean.flagged_unseen, mean.flag_tasks) == (4, 4, 4)
    assert {e.title for e in analysis.effects} == {"base-model task-pair, paper dose", "base-model task-pair, strong dose"}
    assert [e.dose for e in analysis.effects if e.subset == "all"][0] == "paper"  # the paper's dose first
    saved = analysis.to_dict()
    assert {row["dose"] for row in saved["detection"]} == {"paper", "strong"}
    assert saved["models"]["strong-A"]["dose"] == "strong"


def test_the_command_reads_agreement_from_a_run_file_and_continuation_rows(tmp_path: Path) -> None:
    from pytest_alias.cli import main

    records = _records("strong", {t: (1.0, 0.0, 0.0, 0.0) for t in ("t1", "t2", "t3", "t4")})
    # The seen model's samples agree (distance 0.1) on the original only; the unseen one's never (0.9).
    tasks = {task: {"conditions": {"original": {"mean_distance": 0.1}, "random": {"mean_distance": 0.9}}}
             for task in ("t1", "t2", "t3", "t4")}
    agreement = {"models": {f"strong-{half}": {"tasks": {t: c for t, c in tasks.items() if seen_of(t)[0][1] == half}}
                            for half in ("A", "B")}}
    for half in ("A", "B"):  # the unseen model's cells
        for task in ("t1", "t2", "t3", "t4"):
            if seen_of(task)[0][1] != half:
                agreement["models"][f"strong-{half}"]["tasks"][task] = {
                    "conditions": {"original": {"mean_distance": 0.9}, "random": {"mean_distance": 0.9}}}
    run = tmp_path / "run.json"
    run.write_text(json.dumps({"metadata": {"agreement": agreement}, "aggregate": {}, "records": records}))
    continued = tmp_path / "continuation.jsonl"
    continued.write_text("".join(json.dumps({"format": "alias-continuation", "model": f"strong-{half}", "task": task,
                                             "condition": condition, "longest_run": 60 if seen_of(task)[0][1] == half
                                             and condition == "original" else 5}) + "\n"
                                 for half in ("A", "B") for task in ("t1", "t2", "t3", "t4")
                                 for condition in ("original", "random")))
    split_file, out = tmp_path / "split.json", tmp_path / "exposure.json"
    SPLIT.write(split_file)
    assert main(["exposure", str(run), str(continued), "--split", str(split_file), "--resamples", "300",
                 "--json", str(out)]) == 0
    rows = {(r["signal"], r["form"], r["condition"]): r for r in json.loads(out.read_text())["detection"]}
    drop = rows[("agreement", "drop", "original − random")]
    assert drop["auroc"] == 1.0 and (drop["flagged_seen"], drop["flagged_unseen"]) == (4, 0)
    assert rows[("agreement", "value", "random")]["auroc"] == 0.5  # renamed: nobody agrees
    assert rows[("continuation", "drop", "original − random")]["auroc"] == 1.0
