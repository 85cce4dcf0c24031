"""``--alias-rename-seeds N``: a run on built-in tasks with a designed replay whose per-seed rates are known.

The replay answers the original condition and renaming seed 0 with the (renamed) reference; seed 1
with the reference for barrier only and text that is no spec for the others; seed 2 with the
reference for barrier and for the others' first sample only. Graded by names, over the three tasks
with a cfg (ticket-dispenser has none), the numbers are therefore known exactly:

    per-seed random rate   s0 100%, s1 33.3%, s2 66.7%   decrease 0, 66.7, 33.3 points
    averaged random rate   (1 + 0.5 + 0.5) / 3 = 66.7%  decrease 33.3 points
    worst case per task    barrier 0, die-hard 100, hour-clock 100: mean 66.7, fell on 2
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

from conftest import SMALL

pytest_plugins = ["pytester"]

SEEDS = 3
NOT_A_SPEC = "I cannot write this specification."


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cache")


def _answer(task: str, rename_seed: int, sample: int) -> bool:
    """Whether the designed replay answers with the reference (True) or with no spec at all."""
    if task == "barrier" or rename_seed == 0:
        return True
    return rename_seed == 2 and sample == 0


def _replay(path: Path, suite: Path) -> Path:
    from pytest_alias.cir.conditions import random_condition, rename_seeds
    from pytest_alias.tasks.suites import load_suite

    lines = []
    for task in load_suite(str(suite)):
        for sample in range(2):
            original = task.original()
            lines.append({"task": task.id, "condition": "original", "sample": sample,
                          "text": original.module_map[original.main], "condition_version": original.version})
            for index, seed in enumerate(rename_seeds(0, SEEDS)):
                condition = random_condition(task, seed, verify=False).condition
                line = {"task": task.id, "condition": "random", "sample": sample, "seed": 0,
                        "condition_version": condition.version,
                        "text": condition.module_map[condition.main] if _answer(task.id, index, sample) else NOT_A_SPEC}
                if index == 1:
                    line["rename_seed"] = 1  # one way to name an extra renaming …
                elif index == 2:
                    line["condition"] = "random-r2"  # … and the other, as item ids spell it
                lines.append(line)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def _run(pytester: pytest.Pytester, suite: Path, cache: Path, *args: str) -> pytest.RunResult:
    return pytester.runpytest_subprocess(f"--alias-suite={suite}", f"--alias-cache-dir={cache}", "-p", "no:cacheprovider",
                                         "--alias-samples=2", "--alias-grade=name", "--alias-no-fail",
                                         "--alias-resamples=500", *args, timeout=900)


def _check_designed_numbers(found: dict) -> None:
    """The multi-seed analysis of the designed replay (the module docstring's numbers)."""
    assert found["tasks"] == 3 and found["seeds"] == [0, 1, 2]
    assert [round(100 * row["rate"], 1) for row in found["per_seed"]] == [100.0, 33.3, 66.7]
    assert [round(row["decrease"], 1) for row in found["per_seed"]] == [0.0, 66.7, 33.3]
    assert found["rate"]["mean"] == pytest.approx(2 / 3) and found["decrease"]["mean"] == pytest.approx(100 / 3)
    assert found["decrease"]["ci_low"] <= 100 / 3 <= found["decrease"]["ci_high"]
    assert found["worst_case"]["mean"] == pytest.approx(200 / 3) and found["worst_case"]["tasks_fell"] == 2
    assert found["spread"]["decrease"]["sd"] == pytest.approx(statistics.stdev([0, 200 / 3, 100 / 3]))
    assert (found["spread"]["decrease"]["min"], found["spread"]["decrease"]["max"]) == pytest.approx((0, 200 / 3))


def test_several_renamings_give_the_designed_per_seed_rates(pytester: pytest.Pytester, small_suite: Path,
                                                            cache_dir: Path, tmp_path: Path) -> None:
    from pytest_alias.cir.conditions import rename_seeds
    from pytest_alias.cli import main

    replay = _replay(tmp_path / "designed.jsonl", small_suite)
    report = tmp_path / "run.json"
    saved = tmp_path / "saved.jsonl"
    result = _run(pytester, small_suite, cache_dir, f"--alias-model=replay:{replay}", f"--alias-rename-seeds={SEEDS}",
                  f"--alias-report={report}", f"--alias-save-outputs={saved}", "-v")
    assert result.ret == 0, result.stdout.str()
    result.stdout.fnmatch_lines(["*renaming seeds 0, *", "*3 renamings per task, rates averaged over them*",
                                 "*test_tla?die_hard-random-r1-s0? XFAIL*", "*Several renamings per task*"])
    data = json.loads(report.read_text())
    ids = {record["id"] for record in data["records"]}
    assert {"barrier-random-s0", "barrier-random-r2-s1", "die_hard-random-r1-s0"} <= ids
    assert len(data["records"]) == len(SMALL) * (1 + SEEDS) * 2
    assert {r.get("rename_seed") for r in data["records"] if r["condition"] == "random"} == {0, 1, 2}
    assert all("rename_seed" not in r for r in data["records"] if r["condition"] == "original")
    assert data["metadata"]["renaming_seeds"] == rename_seeds(0, SEEDS)
    assert data["metadata"]["settings"]["rename_seeds"] == SEEDS

    _check_designed_numbers(data["aggregate"]["models"][f"replay:{replay}"]["grades"]["name"]["seeds"])
    # --alias-save-outputs keeps each renaming's texts apart, so they replay as they were graded.
    from pytest_alias.models.replay import load_replay

    kept = load_replay(saved)
    assert len(kept) == len(SMALL) * (1 + SEEDS) * 2 and kept[("die-hard", "random-r1", 0)]["text"] == NOT_A_SPEC
    assert kept[("die-hard", "random-r2", 0)]["text"] != NOT_A_SPEC

    # tla-alias report renders the same numbers from the run file.
    out = tmp_path / "report"
    assert main(["report", str(report), "--out", str(out)]) == 0
    sections = json.loads((out / "report.json").read_text())["sections"]
    section = next(s for s in sections if s["title"].startswith("Several renamings"))
    assert section["data"][0]["worst_case"] == pytest.approx(200 / 3)
    assert section["data"][0]["decrease"] == pytest.approx(100 / 3)
    assert "r1 33.3% / +66.7" in section["rows"][0][5]

    # The one-seed run (the paper's, the default) on the same replay: today's ids and records, and
    # its items are the multi-seed run's seed-0 items.
    single_report = tmp_path / "single.json"
    single = _run(pytester, small_suite, cache_dir, f"--alias-model=replay:{replay}", f"--alias-report={single_report}")
    assert single.ret == 0, single.stdout.str()
    single_data = json.loads(single_report.read_text())
    single_ids = {record["id"] for record in single_data["records"]}
    assert single_ids < ids and not any("-random-r" in i for i in single_ids)
    assert all("rename_seed" not in r for r in single_data["records"])
    assert "rename_seeds" not in single_data["metadata"]["settings"]
    entry = single_data["aggregate"]["models"][f"replay:{replay}"]["grades"]["name"]
    assert "seeds" not in entry and entry["rates"]["random"]["mean"] == 1.0
    assert "renamings per task" not in single.stdout.str()


def test_xdist_workers_grade_each_renaming_of_a_task(pytester: pytest.Pytester, small_suite: Path, cache_dir: Path,
                                                      tmp_path: Path) -> None:
    replay = _replay(tmp_path / "designed.jsonl", small_suite)
    report = tmp_path / "n2.json"
    result = _run(pytester, small_suite, cache_dir, f"--alias-model=replay:{replay}", f"--alias-rename-seeds={SEEDS}",
                  f"--alias-report={report}", "-n", "2")
    assert result.ret == 0, result.stdout.str()
    data = json.loads(report.read_text())
    assert len(data["records"]) == len(SMALL) * (1 + SEEDS) * 2
    _check_designed_numbers(data["aggregate"]["models"][f"replay:{replay}"]["grades"]["name"]["seeds"])


def test_the_marker_selects_one_renaming(pytester: pytest.Pytester, small_suite: Path, cache_dir: Path) -> None:
    result = _run(pytester, small_suite, cache_dir, "--alias-model=reference", f"--alias-rename-seeds={SEEDS}",
                  "--collect-only", "-q", "-m", "alias(rename_seed=2)")
    ids = [line.split("[", 1)[1].rstrip("]") for line in result.stdout.lines if "test_tla[" in line]
    assert len(ids) == len(SMALL) * 2 and all("-random-r2-" in i for i in ids)
