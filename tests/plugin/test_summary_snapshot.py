"""The terminal summary of a designed replay run, word for word: units, n per column, the paired
decrease line, "fell"/"rose", p-values and the outcome table (a snapshot; seeded, so exact).

Regenerate after an intended change with ``ALIAS_UPDATE_SNAPSHOTS=1`` and read the diff."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

SNAPSHOT = Path(__file__).parent / "snapshots" / "summary.txt"
#: Per task and condition: what each of the two samples is (the reference, or a broken text).
DESIGN = {
    "die-hard": {"original": ("ref", "ref"), "random": ("ref", "ref")},
    "hour-clock": {"original": ("ref", "ref"), "random": ("ref", "noparse")},
    "barrier": {"original": ("ref", "noparse"), "random": ("noparse", "noparse")},
    "traffic-light": {"original": ("ref", "ref"), "random": ("prose", "ref")},
}
BROKEN = {"noparse": "---- MODULE {main} ----\nVARIABLE x\nInit == x = \n====\n",
          "prose": "I am not sure how to write this specification."}


def _replay(path: Path, seed: int) -> Path:
    from pytest_alias.cir.conditions import random_condition
    from pytest_alias.tasks.suites import load_suite

    lines = []
    for task in load_suite("builtin"):
        if task.id not in DESIGN:
            continue
        for condition in (task.original(), random_condition(task, seed, verify=False).condition):
            for sample, kind in enumerate(DESIGN[task.id][condition.kind]):
                text = (condition.module_map[condition.main] if kind == "ref"
                        else BROKEN[kind].format(main=condition.main))
                lines.append(json.dumps({"task": task.id, "condition": condition.kind, "sample": sample, "text": text,
                                         "condition_version": condition.version, "seed": seed}))
    path.write_text("\n".join(lines) + "\n")
    return path


def _summary(stdout: str) -> str:
    section = stdout.split("alias summary", 1)[1].split("\n", 1)[1]
    return section.split("\n=====", 1)[0].rstrip() + "\n"  # up to pytest's closing line


def test_the_summary_of_a_designed_run_reads_as_written(pytester: pytest.Pytester, tmp_path: Path) -> None:
    _replay(pytester.path / "run.jsonl", 0)  # a relative path: the model's name is the same in every run
    ids = ",".join(DESIGN)
    result = pytester.runpytest_subprocess(
        f"--alias-cache-dir={tmp_path / 'cache'}", "--alias-model=replay:run.jsonl", f"--alias-suite=builtin?ids={ids}",
        "--alias-samples=2", "--alias-grade=parse", "--alias-seed=0", "--alias-resamples=2000", "--alias-no-fail",
        "--alias-gate=parse.original>=80", "--alias-gate=parse.decrease.ci_high<=5", "-p", "no:cacheprovider",
        timeout=600)
    assert result.ret == pytest.ExitCode.TESTS_FAILED, result.stdout.str()  # the second gate fails
    text = _summary(result.stdout.str())
    if os.environ.get("ALIAS_UPDATE_SNAPSHOTS"):
        SNAPSHOT.write_text(text, encoding="utf-8")
    assert text == SNAPSHOT.read_text(encoding="utf-8")
