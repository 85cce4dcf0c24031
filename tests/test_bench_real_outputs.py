"""The real-output workload (benchmarks/data/tlabench_real): TLA+-Bench's released model outputs and
the task folder they answer load as a tlabench: suite and a replay file, with their provenance."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_alias.models.replay import load_replay
from pytest_alias.tla.specfiles import module_header_name
from pytest_alias.tasks.suites import load_suite_report

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data" / "tlabench_real"
sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_paper_scale import REAL_DATA, load_real_outputs  # noqa: E402 - a script beside the package

pytestmark = pytest.mark.skipif(not (DATA / "outputs.jsonl").is_file(), reason="benchmarks/data/tlabench_real is absent")


def _rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def test_the_bench_reads_the_same_folder() -> None:
    assert REAL_DATA == DATA
    assert load_real_outputs() == _rows("outputs.jsonl")


def test_every_output_maps_to_a_task_with_a_reference_and_a_cfg() -> None:
    report = load_suite_report(f"tlabench:{DATA}")
    tasks = {task.id: task for task in report.tasks}
    assert not report.skipped, report.skipped
    outputs = _rows("outputs.jsonl")
    assert len(outputs) >= 60 and {row["model"] for row in outputs} >= {"gpt-5"}
    for row in outputs:
        task = tasks[row["task"]]
        assert task.cfg and task.cfg.strip(), row["task"]
        assert module_header_name(dict(task.modules)[task.main]) == task.main
        assert row["text"].strip() and row["source_path"].startswith("outputs/generations/")
        assert re.fullmatch(r"[0-9a-f]{40}", row["source_commit"])
    assert len({(r["model"], r["task"], r["sample"]) for r in outputs}) == len(outputs)
    # Every task has at least one output, so the suite holds no task the workload would not replay.
    assert set(tasks) == {row["task"] for row in outputs}


def test_manifest_rows_name_their_upstream_source_and_licence() -> None:
    rows = _rows("manifest.jsonl")
    assert len(rows) == len(list((DATA / "specs" / "gold").glob("*.tla")))
    for row in rows:
        assert row["tier"] == "gold" and row["source_repo"] in ("tlaplus/Examples", "tlaplus/tlaplus")
        assert re.fullmatch(r"[0-9a-f]{40}", row["source_commit"]) and row["license"].startswith("MIT")
        assert (DATA / "specs" / "gold" / f"{row['spec_id']}_{Path(row['source_path']).stem}.cfg").is_file()


def test_replay_files_read_as_replays_of_the_original_condition() -> None:
    outputs = _rows("outputs.jsonl")
    for path in sorted((DATA / "replay").glob("*.jsonl")):
        records = load_replay(path)
        model = path.stem
        assert {key[1] for key in records} == {"original"}
        assert len(records) == sum(row["model"] == model for row in outputs)
        for (task, _, sample), record in records.items():
            assert record["model"] == model
            assert any(row["task"] == task and row["sample"] == sample and row["text"] == record["text"]
                       for row in outputs if row["model"] == model)


def test_source_names_the_repository_commit_and_licence() -> None:
    text = (DATA / "SOURCE.md").read_text(encoding="utf-8")
    assert "LUC-AI4FM/tla_benchmark" in text
    assert re.search(r"\b[0-9a-f]{40}\b", text), "SOURCE.md names no commit"
    assert "CC BY 4.0" in text and "MIT" in text
    size = sum(p.stat().st_size for p in DATA.rglob("*") if p.is_file())
    assert size < 3_000_000


def test_released_verdicts_are_flags() -> None:
    for row in _rows("outputs.jsonl"):
        released = row["released"]
        if released is not None:
            assert isinstance(released["sany_pass"], bool)
            assert released.get("tlc_pass") in (None, True, False)


def test_two_outputs_replay_through_the_plugin(tmp_path: Path) -> None:
    """A smoke run: two GPT-5 outputs graded by the parse grade, as the bench and a user replay them.
    Their released SANY verdicts (TLA+-Bench's strict SANY) are the expected parse verdicts."""
    outputs = {row["task"]: row for row in _rows("outputs.jsonl") if row["model"] == "gpt-5"}
    chosen = [task for task in ("891", "746") if task in outputs]
    assert len(chosen) == 2
    report = tmp_path / "run.json"
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
               f"--alias-suite=tlabench:{DATA}?ids={','.join(chosen)}",
               f"--alias-model=replay:{DATA / 'replay' / 'gpt-5.jsonl'}", "--alias-grade=parse",
               "--alias-conditions=original", "--alias-samples=1", f"--alias-cache-dir={tmp_path / 'cache'}",
               f"--alias-report={report}", "--alias-no-fail", "-W", "ignore::UserWarning", "-n", "0"]
    proc = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert report.is_file(), proc.stdout[-2000:] + proc.stderr[-2000:]
    records = {r["task"]: r for r in json.loads(report.read_text())["records"]}
    assert set(records) == set(chosen)
    for task in chosen:
        assert records[task]["grades"]["parse"]["passed"] is outputs[task]["released"]["sany_pass"], task


def test_the_bench_replays_another_folder_of_the_same_layout(tmp_path: Path) -> None:
    """``--real-data DIR``: outputs held back from the repository, laid out as this folder, are the
    workload (their tasks, their texts), not the folder in the repository."""
    from bench_paper_scale import real_workload

    held_back = tmp_path / "held-back"
    subprocess.run(["cp", "-r", str(DATA), str(held_back)], check=True)
    kept = [row for row in _rows("outputs.jsonl") if row["model"] == "gpt-5" and row["task"] in ("891", "746")]
    (held_back / "outputs.jsonl").write_text("".join(json.dumps(row) + "\n" for row in kept), encoding="utf-8")
    folder = tmp_path / "work"
    folder.mkdir()
    workload = real_workload(folder, None, None, held_back)
    assert workload.chosen == ["746", "891"] and workload.mix == {"gpt-5": 2}
    assert str(held_back) in workload.suite
    replayed = [json.loads(line) for line in workload.replays[0].read_text().splitlines()]
    assert sorted(row["text"] for row in replayed) == sorted(row["text"] for row in kept)
