"""Aggregate, tables, report files and gates on synthetic records with known outcomes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scipy.stats import binomtest

from pytest_alias import stats
from pytest_alias.report.aggregate import aggregate, task_rates
from pytest_alias.report.files import write_report
from pytest_alias.report.gates import GateError, parse_gate
from pytest_alias.report.tables import summary_lines

# task → (passes out of 5 in original, in random); tasks a–c hide a required name.
OUTCOMES = {"a": (5, 1), "b": (4, 4), "c": (3, 0), "d": (5, 5), "e": (2, 3), "f": (0, 0)}
HIDDEN = {"a", "b", "c"}


def records(model: str = "m") -> list[dict]:
    out = []
    for task, (original, renamed) in OUTCOMES.items():
        for condition, passes in (("original", original), ("random", renamed)):
            for sample in range(5):
                out.append({"id": f"{task}-{condition}-s{sample}", "model": model, "task": task, "condition": condition,
                            "sample": sample, "grades": {"name": {"passed": sample < passes, "reason": None}},
                            "has_hidden_names": task in HIDDEN, "hidden_names": [], "similarity": None})
    return out


def test_rates_decrease_ci_and_sign_test_match_direct_computation() -> None:
    result = aggregate(records(), resamples=2000, seed=3)
    name = result["models"]["m"]["grades"]["name"]
    original = [o / 5 for o, _ in OUTCOMES.values()]
    renamed = [r / 5 for _, r in OUTCOMES.values()]
    assert name["rates"]["original"]["mean"] == pytest.approx(sum(original) / 6)
    assert name["rates"]["random"]["mean"] == pytest.approx(sum(renamed) / 6)
    decrease = name["decreases"]["random"]
    direct = stats.paired_difference(original, renamed, resamples=2000, seed=3)
    assert decrease["mean"] == pytest.approx(100 * direct.mean)
    assert (decrease["ci_low"], decrease["ci_high"]) == pytest.approx((100 * direct.ci_low, 100 * direct.ci_high))
    assert (decrease["now_fail"], decrease["now_pass"]) == (2, 1)  # a, c lower; e higher
    assert decrease["sign_p"] == pytest.approx(binomtest(2, 3, 0.5).pvalue)
    hidden = name["split"]["random"]["hidden_names"]
    assert hidden["n"] == 3 and hidden["mean"] == pytest.approx(100 * (0.8 + 0 + 0.6) / 3)


def test_task_rates_are_per_task_fractions() -> None:
    assert task_rates(records(), "m", "name", "random") == {t: r / 5 for t, (_, r) in OUTCOMES.items()}


@pytest.mark.parametrize("details, outcome", [
    ({"stage": "error", "side": "grader"}, "grader_error"),
    ({"stage": "reference", "side": "reference"}, "reference_not_gradeable"),
])
def test_errors_that_are_not_the_outputs_never_count_against_the_model(details: dict, outcome: str) -> None:
    """Task a's failing original samples become grader/reference errors: left out, not failures."""
    from pytest_alias.records import record_outcome

    data = records()
    for record in data:
        if record["task"] == "a" and record["condition"] == "random" and record["sample"] >= 1:
            record["grades"]["name"]["details"] = details
    assert task_rates(data, "m", "name", "random")["a"] == 1.0  # 1 pass out of the 1 sample with a verdict
    result = aggregate(data, resamples=200)["models"]["m"]["grades"]["name"]
    assert result["not_graded"] == {"random": 4}
    assert [record_outcome(r) for r in data if r["task"] == "a" and r["condition"] == "random"] == ["pass"] + [outcome] * 4
    text = "\n".join(summary_lines(aggregate(data, resamples=200)))
    assert "samples without a verdict" in text and "name random 4" in text
    error = dict(data[0], generation={"error": "no connection"})
    assert record_outcome(error) == "model_error" and task_rates([error], "m", "name", "original") == {}


def test_summary_lines_show_table_and_decrease() -> None:
    text = "\n".join(summary_lines(aggregate(records(), resamples=500)))
    assert "name" in text and "original" in text and "sign test p" in text and "hidden names" in text


@pytest.mark.parametrize("suffix", [".json", ".csv", ".md", ".html"])
def test_report_files(tmp_path: Path, suffix: str) -> None:
    data = records()
    path = tmp_path / f"out{suffix}"
    write_report(path, data, aggregate(data, resamples=500), {"mode": "paper"})
    text = path.read_text()
    assert text and not list(tmp_path.glob(".out*"))
    if suffix == ".json":
        assert len(json.loads(text)["records"]) == len(data)
    if suffix == ".csv":
        assert text.count("\n") == len(data) + 1


def test_unknown_report_suffix(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="suffix"):
        write_report(tmp_path / "x.txt", [], {}, {})


def test_gates() -> None:
    agg = aggregate(records(), resamples=500)
    assert parse_gate("name.original>=50").check(agg)[0]
    assert not parse_gate("name.decrease.mean<=1").check(agg)[0]
    assert parse_gate("m:name.decrease.now_fail==2").check(agg)[0]
    both = aggregate(records("replay:/tmp/x.jsonl") + records("other"), resamples=500)
    assert parse_gate("replay:/tmp/x.jsonl:name.random<=100").check(both)[0]
    with pytest.raises(GateError, match="several models"):
        parse_gate("name.random<=100").check(both)
    with pytest.raises(GateError, match="form"):
        parse_gate("name.original about 3")
    with pytest.raises(GateError, match="nothing at"):
        parse_gate("name.decrease.nothing<=1").check(agg)


def test_gate_units_are_checked() -> None:
    """A rate is in percent; a decrease is in points; a p value has no unit."""
    agg = aggregate(records(), resamples=500)
    assert parse_gate("name.original>=50%").value == 50
    assert parse_gate("name.original>=50%").check(agg)[:2] == parse_gate("name.original>=50").check(agg)[:2]
    assert parse_gate("name.original>=50").check(agg)[2].endswith("%)")
    with pytest.raises(GateError, match="in percent .0–100.; write 60 for 60%"):
        parse_gate("parse.original>=0.6")
    with pytest.raises(GateError, match="percentage points"):
        parse_gate("name.decrease.mean<=5%")
    assert parse_gate("name.decrease.ci_high<=5pt").value == 5
    with pytest.raises(GateError, match="no unit"):
        parse_gate("name.decrease.sign_p<=5%")


def test_p_values_are_never_printed_as_zero() -> None:
    from pytest_alias.report.tables import p_value

    assert (p_value(0.00001), p_value(0.0004), p_value(0.031)) == ("p<0.0001", "p=0.0004", "p=0.031")


def test_a_decrease_from_a_zero_rate_says_it_is_at_the_floor() -> None:
    """"Equivalent, no decrease" from 0% says nothing about memorization: the summary says so."""
    data = [dict(r, grades={"name": {"passed": False, "reason": "x"}}) for r in records()]
    text = "\n".join(summary_lines(aggregate(data, resamples=200)))
    assert "equivalent ±5 n=6 tasks" in text and "at the floor: 0% before renaming" in text
    assert "at the floor" not in "\n".join(summary_lines(aggregate(records(), resamples=200)))
