"""The training pool says which specs it lost and why: ``tla-alias split`` and its JSON (issue 50, item 3)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_alias.cli import main
from pytest_alias.exposure.split import load_split, make_split, published_split
from pytest_alias.tasks.model import Task
from pytest_alias.tasks.suites import BUILTIN_TASKS_DIR

COUNTER = "EXTENDS Naturals\nVARIABLE x\nInit == x = 0\nNext == x' = (x + 1) % 3\n"


def _release(root: Path) -> Path:
    """A miniature TLA+-Bench release as a pool: one usable spec, two the loader cannot use, and a copy
    of the built-in Barrier module (a test task's reference)."""
    gold, described = root / "specs" / "gold", root / "descriptions" / "declarative_gpt"
    gold.mkdir(parents=True)
    described.mkdir(parents=True)
    barrier = (BUILTIN_TASKS_DIR / "barrier" / "Barrier.tla").read_text()
    modules = {"1": ("Counter", f"---- MODULE Counter ----\n{COUNTER}====\n"),
               "2": ("Broken", "---- MODULE Broken ----\nEXTENDS Missing\n====\n"),
               "3": ("Silent", f"---- MODULE Silent ----\n{COUNTER}====\n"),
               "4": ("Barrier", barrier)}
    for spec_id, (name, text) in modules.items():
        (gold / f"{spec_id}_{name}.tla").write_text(text)
        if spec_id != "3":  # no description: the loader leaves 3 out
            (described / f"{spec_id}.txt").write_text(f"A spec ({name}).\n")
    (root / "manifest.jsonl").write_text("".join(json.dumps({"spec_id": int(i), "tier": "gold"}) + "\n"
                                                 for i in modules))
    return root


def test_split_lists_every_dropped_pool_spec_with_its_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    release = _release(tmp_path / "tb")
    out = tmp_path / "split.json"
    assert main(["split", "builtin?ids=barrier,hour-clock", "--pool", f"tlabench:{release}", "--out", str(out)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert "pool 1 (3 pool specs left out, listed below)" in printed[0]
    assert printed[1:] == [
        "  2: not loaded (specs/gold/2_Broken.tla): imports Missing, which no spec under specs/ defines",
        "  3: not loaded (descriptions/declarative_gpt/3.txt): no declarative_gpt description",
        "  4: same reference as test task barrier",
    ]
    data = json.loads(out.read_text())
    assert data["pool"] == ["1"]
    assert [(e["id"], e["reason"].split(":")[0]) for e in data["pool_excluded"]] == [
        ("2", "not loaded (specs/gold/2_Broken.tla)"), ("3", "not loaded (descriptions/declarative_gpt/3.txt)"),
        ("4", "same reference as test task barrier")]
    assert load_split(out).pool_excluded == tuple((e["id"], e["reason"]) for e in data["pool_excluded"])


def _task(task_id: str) -> Task:
    name = f"M{task_id}"
    return Task(task_id, "d", ((name, f"---- MODULE {name} ----\nVARIABLE x\nNext == x' = {len(task_id)}\n====\n"),))


def test_make_and_published_split_keep_the_loaders_reasons_first() -> None:
    test, pool = [_task("a"), _task("bb")], [_task("ccc")]
    skipped = [("p9", "not loaded (specs/gold/9_X.tla): cfg does not parse")]
    made = make_split(test, seed=1, pool=pool, pool_suite="there", pool_skipped=skipped)
    assert made.pool == ("ccc",) and made.pool_excluded == tuple(skipped)
    assert made.to_dict()["pool_excluded"] == [{"id": "p9", "reason": skipped[0][1]}]
    assert made.excluded_lines() == ["  p9: not loaded (specs/gold/9_X.tla): cfg does not parse"]


def test_a_published_split_without_a_pool_lists_the_loaders_reasons(tmp_path: Path) -> None:
    published = tmp_path / "published.json"
    published.write_text(json.dumps({"A": ["a"], "B": ["bb"]}))
    skipped = [("p9", "not loaded (x): why")]
    split = published_split(published, [_task("a"), _task("bb")], pool=[_task("ccc")], pool_suite="there",
                            pool_skipped=skipped)
    assert split.pool == ("ccc",) and split.pool_excluded == tuple(skipped)
