"""Appendix L from saved files: the real origin in the prompt, tests that never crash, the 95th-percentile test."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_alias.cli import main
from pytest_alias.controls.continuation import continuation_request, origin
from pytest_alias.report.continuation import continuation_analysis, group_comparison, renamed_percentile
from pytest_alias.tasks.model import Task

SPEC = "---- MODULE Clock ----\nVARIABLE hr\nInit == hr = 1\nNext == hr' = hr\n====\n"


def _task(source: str = "", **extra: Any) -> Task:
    return Task("clock", "A clock.", (("Clock", SPEC),), source=source, extra=tuple(extra.items()))


def test_a_tlabench_task_names_its_upstream_repository_not_the_release_copy() -> None:
    task = _task("tlaplus/Examples:specifications/Clock/Clock.tla", path="specs/gold/0042_Clock.tla",
                 description_kind="intent", source_repo="someone/clocks", source_path="spec/Clock.tla")
    assert origin(task) == ("someone/clocks", "spec/Clock.tla")
    request = continuation_request("clock", "original", SPEC, *origin(task))
    assert "someone/clocks" in request.prompt and "spec/Clock.tla" in request.prompt
    assert "specs/gold" not in request.prompt and "tlaplus/Examples" not in request.prompt


def test_other_origins() -> None:
    # A TLA+-Bench row without an upstream source: the release's copy, said as such.
    assert origin(_task(path="specs/gold/7_X.tla", description_kind="intent")) == ("the TLA+-Bench release",
                                                                                   "specs/gold/7_X.tla")
    assert origin(_task(repository="tlaplus/Examples", path="specifications/c/Clock.tla")) == (
        "tlaplus/Examples", "specifications/c/Clock.tla")
    assert origin(_task("owner/repo:dir/Clock.tla")) == ("owner/repo", "dir/Clock.tla")
    assert origin(_task("ALIAS built-in")) == ("ALIAS built-in tasks", "clock/Clock.tla")


def test_examples_tasks_carry_their_repository() -> None:
    corpus = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "tlaplus-examples"
    if not (corpus / "models.json").is_file():
        corpus = Path("/work/shared/corpus/tlaplus-examples")
    if not corpus.is_dir():
        pytest.skip("no tlaplus/Examples corpus")
    from pytest_alias.tasks.suites import load_suite

    task = load_suite(f"examples:{corpus}")[0]
    repository, path = origin(task)
    assert repository == "tlaplus/Examples" and (corpus / path).is_file()


def _rows(runs: dict[str, tuple[int, int]]) -> list[dict[str, Any]]:
    return [{"format": "alias-continuation", "task": t, "condition": c, "model": "cont", "longest_run": run}
            for t, pair in runs.items() for c, run in zip(("original", "random"), pair)]


def _records(rates: dict[str, tuple[bool, bool]], model: str = "m") -> list[dict[str, Any]]:
    return [{"task": t, "condition": c, "sample": 0, "model": model,
             "grades": {"name": {"passed": ok, "reason": None}, "behavior": {"passed": ok, "reason": None}}}
            for t, pair in rates.items() for c, ok in zip(("original", "random"), pair)]


def test_a_constant_decrease_is_not_applicable_not_a_crash(tmp_path: Path) -> None:
    """The reference passes everywhere: its decrease is 0 on every task, so rho is undefined."""
    runs = {f"t{i}": (10 * i, i) for i in range(6)}
    [entry] = continuation_analysis(_rows(runs), _records({t: (True, True) for t in runs}), resamples=200)
    found = entry["predicts"][0]
    assert "the decrease is the same on every task" in found["spearman"]["not_applicable"]
    # Through the command: exit 0 and the reason in the table.
    saved, cont = tmp_path / "run.json", tmp_path / "cont.jsonl"
    saved.write_text(json.dumps({"records": [dict(r, has_hidden_names=False, similarity=None)
                                             for r in _records({t: (True, True) for t in runs})]}))
    cont.write_text("".join(json.dumps(r) + "\n" for r in _rows(runs)))
    assert main(["report", str(saved), str(cont), "--out", str(tmp_path / "out"), "--resamples", "200"]) == 0
    assert "not applicable: the decrease is the same on every task" in (tmp_path / "out" / "report.md").read_text()


def test_the_95th_percentile_test_picks_tasks_above_what_renamed_copies_reach() -> None:
    # Renamed runs 0..19: the 95th percentile (linear) is 18.05. Originals: four tasks above it.
    runs = {f"t{i:02d}": (100 if i < 4 else 5, i) for i in range(20)}
    assert renamed_percentile({t: r for t, (_, r) in runs.items()}) == pytest.approx(18.05)
    # The four tasks above lose everything; the others keep their rate.
    rates = {t: (True, not t < "t04") for t in runs}
    [entry] = continuation_analysis(_rows(runs), _records(rates), grades=("name",), resamples=2000)
    above = entry["predicts"][0]["above_percentile"]
    assert above["tasks"] == ["t00", "t01", "t02", "t03"] and above["threshold"] == pytest.approx(18.05)
    assert above["decrease"] == 100.0 and above["other_decrease"] == 0.0
    # Exact: 1 labelling of C(20, 4) = 4845 puts every decrease in the group, so p ≈ 1/4845.
    assert above["permutation"]["p_value"] < 0.01
    spearman = entry["predicts"][0]["spearman"]
    assert spearman["rho"] > 0.5 and spearman["p_value"] < 0.05


def test_an_empty_group_is_not_applicable() -> None:
    found = group_comparison({"a": 1.0, "b": 2.0}, set(), resamples=200, seed=0)
    assert found["not_applicable"] == "no task is in the group" and found["n"] == 0
