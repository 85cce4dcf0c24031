"""The exposure analysis against hand-computed values, the truncation subset, and the command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_alias.cli import main
from pytest_alias.exposure.analysis import ExposureError, analyse, assign_models
from pytest_alias.exposure.split import ExposureSplit

SPLIT = ExposureSplit(seed=1, suite="builtin", halves={"A": ("t1", "t2"), "B": ("t3", "t4")},
                      versions={"t1": "v1", "t2": "v2", "t3": "v3", "t4": "v4"})
NOTE = {"A": {"split": SPLIT.identity, "half": "A", "arm": "task-pair"},
        "B": {"split": SPLIT.identity, "half": "B", "arm": "task-pair"}}
# Pass rates (two samples each): task → (seen original, seen renamed, unseen original, unseen renamed).
RATES = {"t1": (1.0, 0.5, 0.5, 0.5), "t2": (1.0, 1.0, 0.0, 0.0), "t3": (0.5, 0.0, 0.5, 0.5),
         "t4": (1.0, 0.5, 1.0, 0.0)}
SAMPLES = {1.0: (True, True), 0.5: (True, False), 0.0: (False, False)}


def records(truncate: tuple[str, str, str] | None = None) -> list[dict[str, Any]]:
    rows = []
    for task, (cs, rs, cu, ru) in RATES.items():
        seen = "A" if task in SPLIT.halves["A"] else "B"
        unseen = "B" if seen == "A" else "A"
        for half, condition, rate in ((seen, "original", cs), (seen, "random", rs), (unseen, "original", cu),
                                      (unseen, "random", ru)):
            for sample, passed in enumerate(SAMPLES[rate]):
                cut = truncate == (f"m{half}", task, condition) and sample == 0
                rows.append({"task": task, "condition": condition, "sample": sample, "model": f"m{half}",
                             "grades": {"name": {"passed": passed, "reason": "ok"}},
                             "generation": {"truncated": cut, "exposure": NOTE[half]}})
    return rows


def likelihoods() -> list[dict[str, Any]]:
    # mean log-likelihood: seen original −1.0, seen renamed −1.6, unseen original −1.5, unseen renamed −1.8
    rows = []
    for task in RATES:
        seen = "A" if task in SPLIT.halves["A"] else "B"
        for half, values in ((seen, {"original": -1.0, "random": -1.6}),
                             ("B" if seen == "A" else "A", {"original": -1.5, "random": -1.8})):
            for condition, value in values.items():
                rows.append({"format": "alias-likelihood", "task": task, "condition": condition,
                             "model": f"like-{half}", "exposure": NOTE[half], "mean": value,
                             "mean_other": value / 2, "mean_renamed": None})
    return rows


def test_effects_match_a_hand_computation() -> None:
    analysis = analyse(records(), SPLIT, resamples=2000)
    [name] = [e for e in analysis.effects if e.measure == "name" and e.subset == "all"]
    r = name.result
    assert len(name.tasks) == 4
    assert r.exposure_original.mean == pytest.approx(37.5)  # (0.5 + 1 + 0 + 0) / 4 in points
    assert r.exposure_renamed.mean == pytest.approx(25.0)   # (0 + 1 − 0.5 + 0.5) / 4
    assert r.did.mean == pytest.approx(12.5)                # (0.5 + 0 + 0.5 − 0.5) / 4
    assert r.unseen_cost.mean == pytest.approx(25.0)        # (0 + 0 + 0 + 1) / 4
    assert (r.exposure_original.higher, r.did.higher, r.did.lower) == (2, 2, 1)
    assert name.cells == pytest.approx({"original_seen": 87.5, "original_unseen": 50.0,
                                        "renamed_seen": 50.0, "renamed_unseen": 25.0})
    assert r.did.ci_low <= r.did.mean <= r.did.ci_high


def test_truncated_tasks_are_left_out_of_the_appendix_n_effects() -> None:
    analysis = analyse(records(truncate=("mB", "t4", "original")), SPLIT, resamples=500)
    assert analysis.untruncated_tasks["task-pair"] == ["t1", "t2", "t3"]
    [clean] = [e for e in analysis.effects if e.subset == "untruncated" and e.measure == "name"]
    assert clean.tasks == ("t1", "t2", "t3") and clean.result.exposure_original.mean == pytest.approx(50.0)
    share = {(t["model"], t["condition"]): (t["truncated"], t["outputs"]) for t in analysis.truncation}
    assert share[("mB", "original")] == (1, 8) and share[("mA", "random")] == (0, 8)


def test_an_output_without_its_closing_line_counts_as_truncated() -> None:
    from pytest_alias.exposure.analysis import truncated

    unclosed = {"grades": {"parse": {"passed": True, "details": {"extraction": {
        "notes": ["appended the missing '====' footer to module Clock"]}}}}, "generation": {}}
    assert truncated(unclosed) and truncated({"outcome": "cut at token limit"})
    assert not truncated({"grades": {"parse": {"passed": False, "details": {}}}, "generation": {"truncated": False}})


def test_likelihood_rows_give_the_likelihood_rows_of_table_2() -> None:
    analysis = analyse(likelihoods(), SPLIT, resamples=500)
    found = {e.measure: e for e in analysis.effects}
    assert set(found) == {"mean", "mean_other"}  # no renamed-identifier means in these rows
    mean = found["mean"].result
    assert mean.exposure_original.mean == pytest.approx(0.5) and mean.exposure_renamed.mean == pytest.approx(0.2)
    assert mean.did.mean == pytest.approx(0.3) and mean.did.higher == 4
    assert mean.did.ci_low == pytest.approx(0.3) and found["mean_other"].result.did.mean == pytest.approx(0.15)


def test_models_are_placed_on_halves_without_ambiguity() -> None:
    rows = records()
    assert {m: s.half for m, s in assign_models(rows, SPLIT).items()} == {"mA": "A", "mB": "B"}
    twice = [dict(rows[0], generation={"exposure": NOTE["B"]})] + rows
    with pytest.raises(ExposureError, match="two exposure notes"):
        assign_models(twice, SPLIT)
    other_family = [dict(r, model=r["model"] + "-big", generation={"exposure": {**NOTE[r["model"][1]], "base": "big"}})
                    for r in rows]
    analysis = analyse(rows + other_family, SPLIT, resamples=200)
    assert {(e.family, e.measure) for e in analysis.effects if e.subset == "all"} == {("", "name"), ("big", "name")}
    foreign = [dict(rows[0], generation={"exposure": {**NOTE["A"], "split": "another"}})]
    with pytest.raises(ExposureError, match="another"):
        assign_models(foreign, SPLIT)
    plain = [dict(r, generation={}) for r in rows]
    assert assign_models(plain, SPLIT) == {}
    assert {m: s.half for m, s in assign_models(plain, SPLIT, overrides={"mA": ("A", "task-pair"),
                                                                          "mB": ("B", "task-pair")}).items()} \
        == {"mA": "A", "mB": "B"}


def test_the_exposure_command_writes_markdown_json_and_html(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    split_file = tmp_path / "split.json"
    SPLIT.write(split_file)
    report = tmp_path / "records.json"
    report.write_text(json.dumps({"metadata": {}, "aggregate": {}, "records": records()}))
    lines = tmp_path / "likelihood.jsonl"
    lines.write_text("".join(json.dumps(row) + "\n" for row in likelihoods()))
    code = main(["exposure", str(report), str(lines), "--split", str(split_file), "--resamples", "300",
                 "--markdown", str(tmp_path / "t.md"), "--json", str(tmp_path / "t.json"),
                 "--html", str(tmp_path / "t.html")])
    shown = capsys.readouterr().out
    assert code == 0
    assert "| Correct, name | 4 | 37.5 [" in shown and "| Likelihood | 4 | 0.50 [" in shown
    assert (tmp_path / "t.md").read_text() == shown
    data = json.loads((tmp_path / "t.json").read_text())
    assert {e["measure"] for e in data["effects"]} >= {"name", "mean"}
    assert "data:image/png;base64," in (tmp_path / "t.html").read_text()
    assert main(["exposure", str(report), "--split", str(tmp_path / "nope.json")]) == 2


# Original-condition scores, (seen, unseen) per task: seen beats unseen in 11 of 16 pairs, two ties.
SIGNAL_VALUES = {"t1": (-1.0, -1.2), "t2": (-2.0, -1.5), "t3": (-1.5, -1.5), "t4": (-0.5, -3.0)}


def signal_rows(share: float = 0.2, old: bool = False) -> list[dict[str, Any]]:
    rows = []
    for task, (seen_value, unseen_value) in SIGNAL_VALUES.items():
        seen = "A" if task in SPLIT.halves["A"] else "B"
        for half, value in ((seen, seen_value), ("B" if seen == "A" else "A", unseen_value)):
            for condition, shift in (("original", 0.0), ("random", -0.5 if half == seen else -0.1)):
                row = {"format": "alias-likelihood", "task": task, "condition": condition, "model": f"like-{half}",
                       "exposure": NOTE[half], "mean": value + shift}
                if not old:  # rows written before the membership signals have none of these fields
                    row |= {"min_k_ratio": share, "min_k": 2 * (value + shift), "min_k_plus_plus": -value,
                            "zlib_ratio": None}
                rows.append(row)
    return rows


def test_membership_aurocs_match_a_hand_computation() -> None:
    from pytest_alias.exposure.analysis import membership_aurocs

    found = {(r.signal, r.condition): r for r in membership_aurocs(signal_rows(), SPLIT, resamples=1000)}
    assert set(found) == {(s, c) for s in ("mean", "min_k", "min_k_plus_plus") for c in ("original", "random")}
    assert found[("mean", "original")].auroc == pytest.approx(11 / 16)
    assert found[("min_k", "original")].auroc == pytest.approx(11 / 16)  # a monotone transform: same ranks
    assert found[("min_k_plus_plus", "original")].auroc == pytest.approx(1 - 11 / 16)  # reversed ranks
    # Renamed: seen −1.5, −2.5, −2.0, −1.0 against unseen −1.3, −1.6, −1.6, −3.1: 3 + 1 + 1 + 4 = 9 of 16.
    assert found[("mean", "random")].auroc == pytest.approx(9 / 16)
    row = found[("min_k", "original")].to_dict()
    assert {k: row[k] for k in ("signal", "condition", "n_seen", "n_unseen", "min_k_ratio", "arm")} == {
        "signal": "min_k", "condition": "original", "n_seen": 4, "n_unseen": 4, "min_k_ratio": 0.2,
        "arm": "task-pair"}
    assert row["ci_low"] <= row["auroc"] <= row["ci_high"] and found[("mean", "original")].min_k_ratio is None
    old = membership_aurocs(signal_rows(old=True), SPLIT, resamples=200)
    assert {r.signal for r in old} == {"mean"}  # older likelihood files still give the log-likelihood row


def test_rows_scored_with_two_shares_are_refused() -> None:
    mixed = signal_rows(0.2)[:8] + signal_rows(0.1)[8:]
    with pytest.raises(ExposureError, match="different Min-K% shares"):
        analyse(mixed, SPLIT, resamples=200)


def test_the_exposure_command_prints_the_auroc_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    split_file, lines, out = tmp_path / "split.json", tmp_path / "ll.jsonl", tmp_path / "out.json"
    SPLIT.write(split_file)
    lines.write_text("".join(json.dumps(row) + "\n" for row in signal_rows()))
    assert main(["exposure", str(lines), "--split", str(split_file), "--resamples", "200", "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "AUROC of seen versus unseen tasks" in text
    assert "| Min-K% (k = 0.2) | original | 4 | 0.69 [" in text
    assert "| Log-likelihood (= perplexity) | original | 4 | 0.69" in text
    # The drop after renaming: seen −1.0 → −1.5 (0.5) against unseen −1.2 → −1.3 (0.1), on every task.
    assert "| Log-likelihood (= perplexity) | original − random | 4 | 1.00 [1.00, 1.00] | original − renamed > 0 | 4/4 | 4/4 |" in text
    data = json.loads(out.read_text())
    saved = data["membership"]
    assert len(saved) == 6 and saved[0]["tasks"] == ["t1", "t2", "t3", "t4"]
    assert {(row["signal"], row["form"]) for row in data["detection"]} == {
        (signal, form) for signal in ("mean", "min_k", "min_k_plus_plus") for form in ("value", "drop")}


def _verdict_with_split(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict:
    """``tla-alias report`` of the records and likelihood rows with the split: its verdict section."""
    split_file, lines, report = tmp_path / "split.json", tmp_path / "ll.jsonl", tmp_path / "records.json"
    SPLIT.write(split_file)
    lines.write_text("".join(json.dumps(row) + "\n" for row in signal_rows()))
    report.write_text(json.dumps({"metadata": {}, "aggregate": {}, "records": records()}))
    assert main(["report", str(report), str(lines), "--split", str(split_file), "--resamples", "200",
                 "--out", str(tmp_path / "out")]) == 0
    capsys.readouterr()
    saved = json.loads((tmp_path / "out" / "report.json").read_text())
    [verdict] = [s for s in saved["sections"] if s["title"].endswith("(verdict)")]
    return verdict


def test_the_report_verdict_cites_the_membership_aurocs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    verdict = _verdict_with_split(tmp_path, capsys)
    membership = {row["evidence"]: row for row in verdict["data"] if row["evidence"].startswith("membership")}
    assert len(membership) == 6  # three signals × original, renamed
    row = membership["membership signal: Log-likelihood (= perplexity), original"]
    assert row["value"].startswith("0.69 [") and row["n"] == "4 / 4" and row["table"] == "Exposure"
    assert "does not separate seen from unseen" in row["reading"] or "separates the fine-tuned" in row["reading"]
    assert '<a id="exposure"></a>' in (tmp_path / "out" / "report.md").read_text()
    assert 'id="exposure"' in (tmp_path / "out" / "report.html").read_text()
def _both_grades() -> list[dict[str, Any]]:
    """The records with a behavior verdict equal to the name verdict, for a task-pair and a spec-only arm."""
    rows = []
    for row in records():
        verdict = row["grades"]["name"]
        rows.append({**row, "grades": {"name": verdict, "behavior": dict(verdict)}})
        note = {**row["generation"]["exposure"], "arm": "spec-only"}
        rows.append({**rows[-1], "model": "s" + row["model"], "generation": {**row["generation"], "exposure": note}})
    return rows


def test_behavior_rows_are_on_the_covered_tasks_and_the_name_rows_on_all(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """Table 2, F.1 and O.1 as the paper has them: behavior on the covered tasks (its 90), name on all (110)."""
    analysis = analyse(_both_grades(), SPLIT, resamples=500, covered={"t1", "t4", "elsewhere"})
    chosen = {(e.arm, e.measure): e for e in analysis.effects if e.subset == "all"}
    behavior, name = chosen[("task-pair", "behavior")], chosen[("task-pair", "name")]
    assert behavior.tasks == ("t1", "t4") and len(name.tasks) == 4
    assert behavior.result.exposure_original.mean == pytest.approx(25.0)  # (0.5 + 0) / 2, not name's 37.5
    assert name.result.exposure_original.mean == pytest.approx(37.5)
    from pytest_alias.report.exposure_tables import render_markdown

    shown = render_markdown(analysis)
    assert "Behavior rows on the 3 tasks the behavior grade covers" in shown
    assert "| Correct, behavior | 2 | 25.0 [" in shown and "| Correct, name | 4 | 37.5 [" in shown
    assert "Exposure effect, original descriptions (behavior, n=2) | 25.0 [" in shown  # Table O.1
    assert "no covered set known" in render_markdown(analyse(_both_grades(), SPLIT, resamples=300))
    split_file, validation = tmp_path / "split.json", tmp_path / "validation.json"
    SPLIT.write(split_file)
    validation.write_text(json.dumps({"tasks": [{"task": "t1", "covered": True}, {"task": "t4", "covered": True},
                                                {"task": "t2", "covered": False}]}))
    bare, run = tmp_path / "bare.json", tmp_path / "run.json"
    bare.write_text(json.dumps({"metadata": {}, "aggregate": {}, "records": _both_grades()}))
    run.write_text(json.dumps({"metadata": {"coverage": {"covered": ["t1", "t4"]}, "covered_restricts_rates": True},
                               "aggregate": {}, "records": _both_grades()}))
    for argv in ([str(bare), "--covered", str(validation)], [str(run)]):
        capsys.readouterr()
        assert main(["exposure", *argv, "--split", str(split_file), "--resamples", "300"]) == 0
        assert "| Correct, behavior | 2 | 25.0 [" in capsys.readouterr().out
    assert main(["exposure", str(bare), "--split", str(split_file), "--covered", str(split_file)]) == 2


def test_the_covered_set_of_several_runs_is_theirs_when_they_agree() -> None:
    """Two arms of one exposure run both record the covered set: it is used (it once fell back to every
    task); runs that disagree are a one-line error."""
    from pytest_alias.errors import UsageProblem
    from pytest_alias.run.saved import SavedFile, SavedRuns, covered_of

    recorded = {"a.json": ["x", "y"], "b.json": ["x", "y"], "c.json": ["x"]}
    files = {name: SavedFile(Path(name), (), {"coverage": {"covered": covered}}) for name, covered in recorded.items()}
    files["likelihood.jsonl"] = SavedFile(Path("likelihood.jsonl"), ())  # no run metadata

    def saved(*names: str) -> SavedRuns:
        return SavedRuns(tuple(files[name] for name in names))

    assert covered_of(saved("a.json", "b.json", "likelihood.jsonl"), None) == {"x", "y"}
    assert covered_of(saved("likelihood.jsonl"), None) is None
    with pytest.raises(UsageProblem, match="different covered sets"):
        covered_of(saved("a.json", "c.json"), None)


def test_the_report_verdict_has_a_detection_column_with_a_split(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    verdict = _verdict_with_split(tmp_path, capsys)
    from pytest_alias.report.verdict import DETECTION_COLUMN

    assert verdict["header"][-2] == DETECTION_COLUMN
    by = {(row["model"], row["evidence"]): row for row in verdict["data"]}
    decrease = by[("mA", "name-grade decrease (every task with a verdict)")]
    # Seen drops 0.5, 0, 0.5, 0.5 against unseen 0, 0, 0, 1: 3 + 1.5 + 3 + 3 = 10.5 of 16; flags 3 and 1.
    assert decrease["detection"].startswith("task-pair: 0.66 [") and decrease["detection"].endswith(
        "n 4; flags 3/4 seen, 1/4 unseen")
    membership = by[("task-pair", "membership signal: Log-likelihood (= perplexity), original")]
    assert membership["detection"].startswith("task-pair: 0.69 [")
    # Without a split: no column.
    assert main(["report", str(tmp_path / "records.json"), "--resamples", "200", "--out", str(tmp_path / "plain")]) == 0
    plain = json.loads((tmp_path / "plain" / "report.json").read_text())
    [bare] = [s for s in plain["sections"] if s["title"].endswith("(verdict)")]
    assert DETECTION_COLUMN not in bare["header"]
