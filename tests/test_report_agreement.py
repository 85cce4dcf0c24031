"""Sample agreement on hand-made sample sets: edit distances, identical shares, means over tasks,
and the per-task decrease beside them."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from pytest_alias.report.agreement import (add_decreases, agreement, agreement_lines, agreement_rows, edit_distance,
                                           generation_outputs, normalised_edit_distance, sample_agreement)


def cell_by_cell(a: str, b: str) -> int:
    """The textbook dynamic programme, as an independent check."""
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, start=1):
        current = [i]
        for j, y in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


@pytest.mark.parametrize("a, b, distance", [
    ("kitten", "sitting", 3), ("flaw", "lawn", 2), ("", "abc", 3), ("abc", "", 3), ("same", "same", 0),
    ("Init == x = 0", "Init == y = 0", 1), ("x ∈ S", "x ∉ S", 1), ("ab", "ba", 2),
])
def test_edit_distance_on_known_pairs(a: str, b: str, distance: int) -> None:
    assert edit_distance(a, b) == distance == edit_distance(b, a)


def test_edit_distance_agrees_with_the_cell_by_cell_programme() -> None:
    rng = random.Random(7)
    for _ in range(300):
        # Lengths across the 64-bit word boundary, small alphabets for many matches.
        a = "".join(rng.choice("ab \n=") for _ in range(rng.randint(0, 90)))
        b = "".join(rng.choice("ab \n=") for _ in range(rng.randint(0, 90)))
        assert edit_distance(a, b) == cell_by_cell(a, b), (a, b)


def test_normalised_distance() -> None:
    assert normalised_edit_distance("", "") == 0.0
    assert normalised_edit_distance("abcd", "abcx") == 0.25
    assert normalised_edit_distance("abc", "xyz") == 1.0


def test_sample_agreement_on_hand_made_sets() -> None:
    assert sample_agreement(["only one"]) is None
    found = sample_agreement(["abc", "abc", "abd"])  # distances 0, 1/3, 1/3; two of three outputs repeat
    assert found == {"samples": 3, "pairs": 3, "mean_distance": pytest.approx(2 / 9), "identical": pytest.approx(2 / 3)}
    found = sample_agreement(["aaaa", "bbbb", "aabb", "aaaa", "bbbb"])
    assert found is not None and found["identical"] == pytest.approx(4 / 5)
    # pairs: aaaa-bbbb 1, aaaa-aabb .5, aaaa-aaaa 0, aaaa-bbbb 1, bbbb-aabb .5, bbbb-aaaa 1, bbbb-bbbb 0,
    # aabb-aaaa .5, aabb-bbbb .5, aaaa-bbbb 1: 6 / 10
    assert found["mean_distance"] == pytest.approx(0.6)
    assert sample_agreement(["x", "y"]) == {"samples": 2, "pairs": 1, "mean_distance": 1.0, "identical": 0.0}


def _record(task: str, condition: str, sample: int, passed: bool) -> dict:
    return {"model": "m", "task": task, "condition": condition, "sample": sample, "grades": {"name": {"passed": passed}}}


def test_agreement_per_task_with_its_decrease_and_the_means() -> None:
    generations = {
        ("t1", "original", 0, "m"): SimpleNamespace(text="same", error=None),
        ("t1", "original", 1, "m"): SimpleNamespace(text="same", error=None),
        ("t1", "random", 0, "m"): SimpleNamespace(text="abcd", error=None),
        ("t1", "random", 1, "m"): SimpleNamespace(text="abxy", error=None),
        ("t2", "original", 0, "m"): SimpleNamespace(text="ab", error=None),
        ("t2", "original", 1, "m"): SimpleNamespace(text="", error="model error"),  # left out: one sample left
        ("t2", "random", 0, "m"): SimpleNamespace(text="xy", error=None),
        ("t2", "random", 1, "m"): SimpleNamespace(text="xz", error=None),
    }
    found = agreement(generation_outputs(generations))
    entry = found["models"]["m"]
    assert list(entry["tasks"]["t1"]["conditions"]) == ["original", "random"]
    assert list(entry["tasks"]["t2"]["conditions"]) == ["random"]
    assert entry["conditions"]["original"] == {"tasks": 1, "mean_distance": 0.0, "identical": 1.0}
    assert entry["conditions"]["random"] == {"tasks": 2, "mean_distance": pytest.approx((0.5 + 0.5) / 2),
                                             "identical": 0.0}
    records = [_record("t1", "original", 0, True), _record("t1", "original", 1, True),
               _record("t1", "random", 0, True), _record("t1", "random", 1, False),
               _record("t2", "random", 0, False), _record("t2", "random", 1, False)]
    add_decreases(found, records, "name")
    assert entry["tasks"]["t1"]["decrease"] == {"random": pytest.approx(50.0)}
    assert entry["tasks"]["t2"]["decrease"] == {"random": None}  # no original rate
    header, rows = agreement_rows(found, "m")
    assert header[1] == "name decrease vs random (points)"
    assert rows == [["t1", "+50.0", "0.000 / 100%", "0.500 / 0%"], ["t2", "–", "–", "0.500 / 0%"]]
    lines = agreement_lines(found, "m")
    assert "original 0.000 / 100% (n=1 tasks); random 0.500 / 0% (n=2 tasks)" in lines[0]
    assert "weak evidence" in lines[1]
    assert agreement_lines(found, "other") == [] and agreement_rows(found, "other") == ([], [])


def test_reports_render_the_agreement_of_the_run_file() -> None:
    """The plugin's Markdown report and ``tla-alias report`` read the run's ``metadata.agreement``."""
    from pytest_alias.report.paper import build_paper_report, render_markdown_report

    records = [{**_record(task, condition, sample, passed), "id": f"{task}-{condition}-s{sample}",
                "has_hidden_names": False, "similarity": None, "generation": {}}
               for task, condition, sample, passed in (("t1", "original", 0, True), ("t1", "original", 1, True),
                                                       ("t1", "random", 0, False), ("t1", "random", 1, False))]
    found = add_decreases(agreement([("m", "t1", "original", "abc"), ("m", "t1", "original", "abc"),
                                     ("m", "t1", "random", "abc"), ("m", "t1", "random", "xyz")]), records, "name")
    row = "| t1 | +100.0 | 0.000 / 100% | 1.000 / 0% |"
    report = build_paper_report(records, resamples=200, run={"agreement": found})
    assert row in render_markdown_report(report)
    (section,) = [s for s in report.sections if s.title == "Sample agreement: m"]
    assert section.rows == [["t1", "+100.0", "0.000 / 100%", "1.000 / 0%"]] and "weak evidence" in section.caption
    assert not [s for s in build_paper_report(records, resamples=200).sections if s.title.startswith("Sample")]


def test_tla_alias_report_computes_the_agreement_of_saved_outputs(tmp_path) -> None:
    """``tla-alias report RECORDS OUTPUTS``: the saved texts' agreement beside each task's decrease."""
    import json

    from pytest_alias.cli import main

    records = [{**_record("t1", condition, sample, condition == "original"), "id": f"t1-{condition}-s{sample}",
                "has_hidden_names": False, "hidden_names": [], "known_names": {}, "similarity": None,
                "generation": {}} for condition in ("original", "random") for sample in (0, 1)]
    texts = {("original", 0): "abcd", ("original", 1): "abcd", ("random", 0): "abcd", ("random", 1): "wxyz"}
    (tmp_path / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (tmp_path / "outputs.jsonl").write_text("".join(
        json.dumps({"task": "t1", "condition": c, "sample": k, "model": "m", "text": t}) + "\n"
        for (c, k), t in texts.items()))
    assert main(["report", str(tmp_path / "records.jsonl"), str(tmp_path / "outputs.jsonl"),
                 "--out", str(tmp_path / "out"), "--resamples", "200"]) == 0
    markdown = (tmp_path / "out" / "report.md").read_text()
    assert "## Sample agreement: m" in markdown
    assert "| t1 | +100.0 | 0.000 / 100% | 1.000 / 0% |" in markdown
