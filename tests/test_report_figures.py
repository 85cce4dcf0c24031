"""The paper's figures from a run's JSON (S.1, T.1 both panels, U.1 on the covered tasks), the appendix P
upper bound's 90% CI, and the verdict's reading of positive, negative and null continuation correlations.

Each design has hand-computed numbers, and each figure is checked on what it plots (the bar heights and
the points of the drawn matplotlib figure, the n in its title), not only on a file existing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_alias.cli import main
from pytest_alias.exposure.split import ExposureSplit
from pytest_alias.report.figures import Figure, draw
from pytest_alias.report.files import write_report
from pytest_alias.report.aggregate import aggregate
from pytest_alias.report.paper import build_paper_report

RESAMPLES = 300
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def record(task: str, condition: str, sample: int, *, model: str = "m", hidden: bool = False,
           name: bool | None = None, behavior: bool | None = None, **extra: Any) -> dict[str, Any]:
    grades = {grade: {"passed": passed, "reason": None if passed else "failed"}
              for grade, passed in (("name", name), ("behavior", behavior)) if passed is not None}
    return {"id": f"{task}-{condition}-{model}-s{sample}", "task": task, "condition": condition, "sample": sample,
            "model": model, "has_hidden_names": hidden, "hidden_names": ["Inv"] if hidden else [],
            "similarity": None, "grades": grades, **extra}


def figure(found: list[Figure], key: str) -> Figure:
    [chosen] = [f for f in found if f.key == key]
    return chosen


def bar_heights(drawn: Any, axis: int = 0) -> list[float]:
    return [round(patch.get_height(), 4) for patch in drawn.axes[axis].patches]


def forest_means(drawn: Any, axis: int = 0) -> list[float]:
    line = drawn.axes[axis].containers[0].lines[0]  # the errorbar's points: x = mean, y = row (top first)
    return [round(x, 4) for x in line.get_xdata()]


def save(path: Path, records: list[dict[str, Any]], metadata: dict[str, Any] | None = None) -> Path:
    path.write_text(json.dumps({"metadata": metadata or {}, "aggregate": {}, "records": records}))
    return path


# --------------------------------------------------------------------------- Figure S.1

# task → (passes of 5 original, of 5 renamed); a–c hide a required name, d–f state every one.
S1 = {"a": (5, 1), "b": (4, 4), "c": (3, 0), "d": (5, 5), "e": (2, 3), "f": (0, 0)}
S1_HIDDEN = {"a", "b", "c"}


def s1_records() -> list[dict[str, Any]]:
    return [record(task, condition, sample, hidden=task in S1_HIDDEN, name=sample < passes)
            for task, pair in S1.items() for condition, passes in zip(("original", "random"), pair)
            for sample in range(5)]


def test_figure_s1_plots_name_grade_rates_split_by_hidden_names() -> None:
    report = build_paper_report(s1_records(), resamples=RESAMPLES)
    s1 = figure(report.figures, "figure-S1")
    rows = {row["tasks"]: row for row in s1.panels[0].rows}
    # Hidden: (100 + 80 + 60) / 3 = 80 original, (20 + 80 + 0) / 3 renamed; stated: (100 + 40 + 0) / 3, (100 + 60 + 0) / 3.
    assert rows["hidden names"]["n"] == 3 and rows["every name stated"]["n"] == 3
    assert rows["hidden names"]["values"] == pytest.approx({"original": 80.0, "renamed": 100 / 3})
    assert rows["every name stated"]["values"] == pytest.approx({"original": 140 / 3, "renamed": 160 / 3})
    assert "m: n = 3 / 3" in s1.title
    drawn = draw(s1)
    # Bars per series (original for both groups, then renamed), as plotted.
    assert bar_heights(drawn) == pytest.approx([80.0, 46.6667, 33.3333, 53.3333], abs=1e-3)
    assert "n = 3 / 3" in drawn._suptitle.get_text()  # noqa: SLF001 - matplotlib keeps the title there
    assert [t.get_text() for t in drawn.axes[0].get_xticklabels()] == ["m: hidden names\n(n=3)",
                                                                       "m: every name stated\n(n=3)"]


def test_the_plugins_html_report_embeds_the_same_figures(tmp_path: Path) -> None:
    records = s1_records()
    write_report(tmp_path / "run.html", records, aggregate(records, resamples=RESAMPLES), {})
    page = (tmp_path / "run.html").read_text()
    assert '<figure id="figure-S1">' in page and "data:image/png;base64," in page
    assert '<figure id="decreases">' in page and "not Figure U.1" in page  # no covered set in this run


# --------------------------------------------------------------------------- Figure U.1 and appendix P

# task → condition → [(name, behavior) per sample]. a, b are covered; c, d are not and change every mean.
U1 = {"a": {"original": [(True, True)] * 2, "random": [(False, True)] * 2},
      "b": {"original": [(True, True)] * 2, "random": [(True, False), (True, True)]},
      "c": {"original": [(True, False)] * 2, "random": [(False, False)] * 2},
      "d": {"original": [(True, True)] * 2, "random": [(False, False)] * 2}}
U1_COVERED = ["a", "b"]


def u1_records() -> list[dict[str, Any]]:
    return [record(task, condition, sample, hidden=task == "a", name=name, behavior=behavior)
            for task, conditions in U1.items() for condition, samples in conditions.items()
            for sample, (name, behavior) in enumerate(samples)]


def covered_run(tmp_path: Path) -> Path:
    """A run JSON that recorded its covered set, as ``--alias-covered`` writes it."""
    return save(tmp_path / "run.json", u1_records(),
                {"coverage": {"source": "self-check", "mode": "paper", "covered": U1_COVERED},
                 "covered_restricts_rates": True})


def test_figure_u1_uses_the_covered_set_the_run_recorded(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main(["report", str(covered_run(tmp_path)), "--out", str(out), "--resamples", str(RESAMPLES)]) == 0
    shown = capsys.readouterr().out
    saved = json.loads((out / "report.json").read_text())
    [u1] = [f for f in saved["figures"] if f["key"] == "figure-U1"]
    rows = {row["grade"]: row for row in u1["panels"][0]["rows"]}
    # Covered a, b: name (100 + 0) / 2 = 50, behavior (0 + 50) / 2 = 25; on all four tasks it would be 75 and 37.5.
    assert (rows["name"]["n"], rows["name"]["mean"]) == (2, pytest.approx(50.0))
    assert (rows["behavior"]["n"], rows["behavior"]["mean"]) == (2, pytest.approx(25.0))
    assert "on the 2 covered tasks" in u1["title"]
    assert not [f for f in saved["figures"] if f["key"] == "decreases"]  # the all-task plot is not drawn too
    # Beside the report as PNG, inline in the page, linked from the Markdown (printed and saved).
    for f in saved["figures"]:
        assert (out / f["file"]).read_bytes().startswith(PNG_MAGIC)
        assert f'<figure id="{f["key"]}">' in (out / "report.html").read_text()
        assert f"]({f['file']})" in shown
    drawn = draw(Figure(u1["key"], u1["title"], u1["caption"], [_panel(u1["panels"][0])]))
    assert forest_means(drawn) == pytest.approx([50.0, 25.0])
    ticks = {t.get_text(): t.get_position()[1] for t in drawn.axes[0].get_yticklabels()}
    assert ticks == {"m, name grade (n=2)": 1, "m, behavior grade (n=2)": 0}  # the first row on top


def _panel(saved: dict[str, Any]) -> Any:
    from pytest_alias.report.figures import Panel

    return Panel(**saved)


def test_without_a_covered_set_the_decreases_plot_says_it_is_not_u1() -> None:
    report = build_paper_report(u1_records(), resamples=RESAMPLES)
    assert not [f for f in report.figures if f.key == "figure-U1"]
    plot = figure(report.figures, "decreases")
    rows = {(row["grade"], row["renamed"]): row for row in plot.panels[0].rows}
    assert rows[("name", "random")]["n"] == 4 and rows[("name", "random")]["mean"] == pytest.approx(75.0)
    assert "not Figure U.1" in plot.title


def test_appendix_p_shows_the_upper_bounds_90_percent_ci() -> None:
    report = build_paper_report(u1_records(), validation={"tasks": [{"task": t, "covered": True} for t in U1_COVERED]},
                                resamples=RESAMPLES)
    [section] = [s for s in report.sections if "appendix P" in s.title]
    bound = section.data[0]["upper_bound"]
    # Either grade passes: a keeps 1 → 1, b keeps 1 → 1, so the bound is 0 with a 90% CI of [0, 0] inside ±5.
    assert bound["decrease"]["mean"] == pytest.approx(0.0)
    column = section.header.index("upper bound 90% CI, equivalent")
    original = next(row for row in section.rows if row[1] == "original")
    tost = bound["equivalence"]
    assert original[column] == f"[{tost['ci_low']:.1f}, {tost['ci_high']:.1f}] yes"
    [verdict] = [s for s in report.sections if s.title.endswith("(verdict)")]
    row = next(r for r in verdict.data if r["evidence"] == "grade disagreements (renamed)")
    assert row["test"].startswith("90% CI [0.0, 0.0], equivalent within ±5.0")


# --------------------------------------------------------------------------- Figure T.1

T1_SPLIT = ExposureSplit(seed=1, suite="builtin", halves={"A": ("t1", "t2"), "B": ("t3", "t4")},
                         versions={"t1": "v1", "t2": "v2", "t3": "v3", "t4": "v4"})
# Behavior (= name) pass rates, two samples: task → (seen original, seen renamed, unseen original, unseen renamed).
T1_RATES = {"t1": (1.0, 0.5, 0.5, 0.5), "t2": (1.0, 1.0, 0.0, 0.0), "t3": (0.5, 0.0, 0.5, 0.5),
            "t4": (1.0, 0.5, 1.0, 0.0)}
T1_COVERED = ["t1", "t2", "t4"]


def t1_records() -> list[dict[str, Any]]:
    rows = []
    for task, (cs, rs, cu, ru) in T1_RATES.items():
        seen = "A" if task in T1_SPLIT.halves["A"] else "B"
        unseen = "B" if seen == "A" else "A"
        for half, condition, rate in ((seen, "original", cs), (seen, "random", rs), (unseen, "original", cu),
                                      (unseen, "random", ru)):
            note = {"split": T1_SPLIT.identity, "half": half, "arm": "task-pair"}
            for sample, passed in enumerate((rate > 0, rate == 1.0)):
                rows.append(record(task, condition, sample, model=f"m{half}", name=passed, behavior=passed,
                                   generation={"exposure": note}))
    return rows


def test_figure_t1_draws_both_panels_on_the_covered_tasks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    T1_SPLIT.write(tmp_path / "split.json")
    run = save(tmp_path / "run.json", t1_records(),
               {"coverage": {"source": "self-check", "mode": "paper", "covered": T1_COVERED},
                "covered_restricts_rates": True})
    out = tmp_path / "out"
    assert main(["report", str(run), "--split", str(tmp_path / "split.json"), "--out", str(out),
                 "--resamples", "500"]) == 0
    capsys.readouterr()
    saved = json.loads((out / "report.json").read_text())
    [t1] = [f for f in saved["figures"] if f["key"] == "figure-T1-task-pair"]
    assert "behavior grade on the 3 covered tasks" in t1["title"]
    rates, effects = t1["panels"]
    # Panel (a) on t1, t2, t4: seen original 100, unseen original 50, seen renamed 200/3, unseen renamed 50/3.
    assert [(row["label"], row["n"]) for row in rates["rows"]] == [("original", 3), ("renamed", 3)]
    assert rates["rows"][0]["values"] == pytest.approx({"seen": 100.0, "unseen": 50.0})
    assert rates["rows"][1]["values"] == pytest.approx({"seen": 200 / 3, "unseen": 50 / 3})
    # Panel (b): exposure 50 in both conditions, DiD (0.5 + 0 − 0.5) / 3 = 0, unseen cost (0 + 0 + 1) / 3.
    means = {row["part"]: (row["n"], row["mean"]) for row in effects["rows"]}
    assert means == {"exposure_original": (3, pytest.approx(50.0)), "exposure_renamed": (3, pytest.approx(50.0)),
                     "did": (3, pytest.approx(0.0)), "unseen_cost": (3, pytest.approx(100 / 3))}
    drawn = draw(Figure(t1["key"], t1["title"], t1["caption"], [_panel(p) for p in t1["panels"]]))
    assert bar_heights(drawn, 0) == pytest.approx([100.0, 66.6667, 50.0, 16.6667], abs=1e-3)  # seen, then unseen
    assert forest_means(drawn, 1) == pytest.approx([50.0, 50.0, 0.0, 33.3333], abs=1e-3)
    assert "3 covered tasks" in drawn._suptitle.get_text()  # noqa: SLF001
    assert (out / t1["file"]).read_bytes().startswith(PNG_MAGIC)


# --------------------------------------------------------------------------- the verdict on continuation

CONTINUATION_TASKS = 12
SAMPLES = 11
# Renamed passes (of 11) per task; the run gap grows with the task index, so these give ρ ≈ −0.99, ≈ +0.99, ≈ 0.
NEGATIVE = [1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
POSITIVE = [11 - k for k in NEGATIVE]
NULL = [6, 1, 10, 4, 8, 0, 11, 3, 9, 2, 7, 5]


def continuation_report(renamed_passes: list[int]) -> dict[str, Any]:
    records = [record(f"t{i:02d}", condition, sample, name=passed, behavior=passed)
               for i, k in enumerate(renamed_passes) for condition, passes in (("original", SAMPLES), ("random", k))
               for sample in range(SAMPLES) for passed in (sample < passes,)]
    rows = [{"format": "alias-continuation", "model": "cont", "task": f"t{i:02d}", "condition": condition,
             "longest_run": run} for i in range(CONTINUATION_TASKS)
            for condition, run in (("original", 20 + 10 * i), ("random", 5 + i % 3))]
    report = build_paper_report(records, continuation_rows=rows, resamples=2000)
    [verdict] = [s for s in report.sections if s.title.endswith("(verdict)")]
    return next(r for r in verdict.data if r["evidence"] == "file continuation by cont (name grade)")


def test_a_strong_negative_continuation_correlation_is_read_as_opposite_to_memorization() -> None:
    row = continuation_report(NEGATIVE)
    assert row["value"] == "ρ = -0.99" and row["n"] == "12" and "p < 0.001" in row["test"]
    assert "does not predict" not in row["reading"]
    assert "the less the task loses" in row["reading"] and "opposite to what memorization predicts" in row["reading"]


def test_a_strong_positive_continuation_correlation_is_read_as_the_memorization_direction() -> None:
    row = continuation_report(POSITIVE)
    assert row["value"] == "ρ = 0.99" and "p < 0.001" in row["test"]
    assert "the more the task loses" in row["reading"] and "the direction memorization predicts" in row["reading"]
    assert "does not show that recall causes" in row["reading"]  # a correlation, not a proof


def test_a_null_continuation_correlation_does_not_predict() -> None:
    row = continuation_report(NULL)
    assert row["value"] == "ρ = -0.03"
    assert "No correlation is shown" in row["reading"] and "does not predict which tasks lose" in row["reading"]


def test_several_run_files_with_one_covered_set_keep_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two run files (an exposure run's two arms, say) that recorded the same covered set: U.1 stays on it."""
    coverage = {"coverage": {"source": "self-check", "mode": "paper", "covered": U1_COVERED},
                "covered_restricts_rates": True}
    first = save(tmp_path / "one.json", u1_records(), coverage)
    second = save(tmp_path / "two.json", [dict(r, model="m2", id=r["id"] + "-2") for r in u1_records()], coverage)
    assert main(["report", str(first), str(second), "--out", str(tmp_path / "out"), "--resamples", "200"]) == 0
    capsys.readouterr()
    saved = json.loads((tmp_path / "out" / "report.json").read_text())
    [u1] = [f for f in saved["figures"] if f["key"] == "figure-U1"]
    assert {(row["model"], row["grade"], row["n"]) for row in u1["panels"][0]["rows"]} == {
        ("m", "name", 2), ("m", "behavior", 2), ("m2", "name", 2), ("m2", "behavior", 2)}
    # Different covered sets: neither is chosen, and the plot says it is not U.1.
    save(tmp_path / "two.json", [dict(r, model="m2", id=r["id"] + "-2") for r in u1_records()],
         {**coverage, "coverage": {**coverage["coverage"], "covered": ["a"]}})
    assert main(["report", str(first), str(second), "--out", str(tmp_path / "out"), "--resamples", "200"]) == 0
    capsys.readouterr()
    keys = [f["key"] for f in json.loads((tmp_path / "out" / "report.json").read_text())["figures"]]
    assert "figure-U1" not in keys and "decreases" in keys
    # The first report's figure-U1.png is gone: it would pass for this run's.
    assert not (tmp_path / "out" / "figure-U1.png").exists() and (tmp_path / "out" / "decreases.png").is_file()
