"""The paper-scale benchmark's examples workload: only the models that run fast are kept."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from conftest import CORPUS  # the repo's root conftest: ../shared/corpus/tlaplus-examples
from pytest_alias.tasks.suites import load_suite

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from bench_paper_scale import _runtime_seconds, differences, fast_examples  # noqa: E402 - a script beside the package


def test_manifest_runtimes_are_read_as_seconds() -> None:
    assert _runtime_seconds("00:02:30") == 150.0
    assert _runtime_seconds("01:00:01") == 3601.0
    assert _runtime_seconds("unknown") is None and _runtime_seconds(None) is None


def test_a_fast_copy_of_the_corpus_keeps_only_fast_exhaustive_models(tmp_path: Path) -> None:
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus/tlaplus-examples is not present")
    copy = fast_examples(CORPUS, 1, tmp_path)
    kept = [(manifest.parent.name, model) for manifest in (copy / "specifications").glob("*/manifest.json")
            for entry in json.loads(manifest.read_text())["modules"] for model in entry["models"]]
    assert kept, "the corpus has models recorded at one second"
    assert all(model["mode"] == "exhaustive search" and _runtime_seconds(model["runtime"]) <= 1 for _, model in kept)
    every = [model for manifest in (CORPUS / "specifications").glob("*/manifest.json")
             for entry in json.loads(manifest.read_text())["modules"] for model in entry.get("models") or []]
    assert len(kept) < len(every)  # slower and symbolic models were left out
    tasks = load_suite(f"examples:{copy}")
    assert tasks and len(tasks) <= len(kept)
    assert {dict(task.extra)["runtime"] for task in tasks} <= {"00:00:01"}
    with pytest.raises(SystemExit, match="no model runs"):
        fast_examples(CORPUS, 0, tmp_path / "none")


def _record(passed: bool, reason: str | None) -> dict:
    return {"id": "t-original-s0", "grades": {"name": {"passed": passed, "reason": reason}}}


def test_arms_agree_whatever_counterexample_tlc_printed() -> None:
    found = "one of the properties Live is violated: counterexample of {} states (Initial predicate → Step); last state: n = {}"
    assert differences([_record(False, found.format(20, 3))], [_record(False, found.format(22, 7))]) == []
    # Anything before the counterexample, and pass/fail, still has to agree.
    other = "invariant TypeOK is violated: counterexample of 20 states (Initial predicate → Step); last state: n = 3"
    assert differences([_record(False, found.format(20, 3))], [_record(False, other)]) != []
    assert differences([_record(True, None)], [_record(False, found.format(20, 3))]) != []
    assert differences([_record(True, None)], [_record(True, None)]) == []


def test_the_warm_arms_extra_samples_are_new_texts_of_the_same_spec(tmp_path: Path) -> None:
    from bench_paper_scale import Workload, _marked, warm_workload  # noqa: E402 - a script beside the package

    module = "---- MODULE M ----\nVARIABLE x\nInit == x = 0\nNext == x' = x\n====\n"
    replay = tmp_path / "m.jsonl"
    replay.write_text(json.dumps({"task": "7", "condition": "original", "sample": 0, "text": module, "model": "m",
                                  "condition_version": "v"}) + "\n")
    workload = Workload("real", "suite", [replay], ["7"], {("m", "7", "original", 0): "m"}, ("original",), 1, {"m": 1})
    warm = warm_workload(workload, tmp_path, 2)
    rows = [json.loads(line) for line in warm.replays[0].read_text().splitlines()]
    assert [row["sample"] for row in rows] == [0, 1, 2] and warm.samples == 3 and warm.mix == {"m": 3}
    assert rows[0]["text"] == module and len({row["text"] for row in rows}) == 3
    # The mark is a TLA+ comment inside the module, before its closing line: the spec is unchanged.
    assert rows[1]["text"].splitlines()[-1] == "====" and rows[1]["text"].splitlines()[-2].startswith("\\* ")
    assert all(row["condition_version"] == "v" for row in rows)
    assert _marked("prose, no module", 1).startswith("prose, no module\n\\* ")
