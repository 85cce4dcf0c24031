"""Several renamings per task: the run's renaming seeds, their conditions and the condition cache."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from pytest_alias.cir.conditions import random_condition, rename_seeds
from pytest_alias.cir.prepared import ConditionCache, condition_from_dict
from pytest_alias.tasks.suites import load_suite


def test_the_first_seed_is_the_runs_and_the_others_are_fixed_and_distinct() -> None:
    seeds = rename_seeds(7, 5)
    assert seeds[0] == 7 and len(set(seeds)) == 5
    assert rename_seeds(7, 5) == seeds and rename_seeds(7, 2) == seeds[:2]  # fewer seeds: a prefix
    assert rename_seeds(8, 5)[1:] != seeds[1:]
    assert rename_seeds(0, 1) == [0]
    with pytest.raises(ValueError, match="at least 1"):
        rename_seeds(0, 0)


def test_renaming_seeds_give_different_conditions_with_labels_and_round_trip() -> None:
    task = next(t for t in load_suite("builtin") if t.id == "die-hard")
    first, second = (random_condition(task, seed, verify=False).condition for seed in rename_seeds(0, 2))
    assert first.names != second.names and first.version != second.version
    extra = dataclasses.replace(second, rename_seed=1)
    assert (first.label, extra.label) == ("random", "random-r1")
    assert extra.version == second.version  # the renaming is the content; its index in a run is not
    assert "rename_seed" not in first.to_dict()  # one-seed runs keep today's shape
    assert condition_from_dict(extra.to_dict()) == extra


def test_the_cache_keys_by_seed_and_each_run_gives_its_own_index(tools, tmp_path: Path) -> None:
    task = next(t for t in load_suite("builtin") if t.id == "hour-clock")
    cache = ConditionCache(tmp_path, tools.toolchain.jar.sha256)
    prepared = cache.prepare(task, ["original", "random"], seed=0, meaningful_maps=None, tools=lambda: tools,
                             renamings=2)
    assert [(c.kind, c.rename_seed, c.seed, reason) for c, reason in prepared] == [
        ("original", 0, None, None), ("random", 0, 0, None), ("random", 1, rename_seeds(0, 2)[1], None)]
    assert cache.built == 2
    # Another run whose own seed is this run's second seed reads that renaming as its seed 0.
    again = ConditionCache(tmp_path, tools.toolchain.jar.sha256)
    (condition, reason), = again.prepare(task, ["random"], seed=rename_seeds(0, 2)[1], meaningful_maps=None,
                                         tools=lambda: pytest.fail("built again"))
    assert again.built == 0 and condition.rename_seed == 0 and condition.version == prepared[2][0].version


def test_build_prepares_a_runs_further_renamings_ahead(tools, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    import shutil

    from conftest import BUILTIN_TASKS
    from pytest_alias.cli import main

    shutil.copytree(BUILTIN_TASKS / "hour-clock", tmp_path / "suite" / "hour-clock")
    cache = tmp_path / "cache"
    assert main(["--cache-dir", str(cache), "build", str(tmp_path / "suite"), "--out", str(tmp_path / "set"),
                 "--rename-seeds", "3"]) == 0
    assert "2/2 further renamings verified (2 per task" in capsys.readouterr().out
    task = load_suite(str(tmp_path / "suite"))[0]
    reader = ConditionCache(cache, tools.toolchain.jar.sha256)
    prepared = reader.prepare(task, ["random"], seed=0, meaningful_maps=None, renamings=3,
                              tools=lambda: pytest.fail("a run rebuilt what build prepared"))
    assert [(c.rename_seed, reason) for c, reason in prepared] == [(0, None), (1, None), (2, None)]
