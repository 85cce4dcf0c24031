"""Published rename maps as inputs (issue 23, item 5): applied with the project's renamer, checked and
verified by SANY and TLC like a generated renaming, refused with the reason when they do not verify;
a released replay of renamed-condition outputs then grades by name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_alias.cir.conditions import published_condition, random_condition
from pytest_alias.cir.prepared import condition_key
from pytest_alias.cir.rename import collect_identifiers
from pytest_alias.tasks.model import Task
from pytest_alias.tasks.suites import load_suite

pytest_plugins = ["pytester"]


@pytest.fixture(scope="module")
def tasks() -> dict[str, Task]:
    return {task.id: task for task in load_suite("builtin")}


def longer_names(task: Task) -> dict[str, str]:
    """A map no seeded generator makes: every renamed identifier gets a longer name (lengths change)."""
    return {old: f"Pub{old}" for old in collect_identifiers(task.module_map, task.cfg).author}


#: Refused before any tool runs: an unknown old name, a name the spec keeps, a standard name, a clash.
BAD_DIE_HARD = {"Nope": "Fine", "small": "big", "TypeOK": "Nat", "Min": "Twin", "Init": "Twin"}


def test_a_published_map_that_verifies_gives_the_renamed_condition(tasks: dict[str, Task], tools) -> None:
    task = tasks["barrier"]
    renamed = published_condition(task, longer_names(task), tools=tools)
    assert renamed.valid and renamed.verification is not None and renamed.verification.verified
    condition = renamed.condition
    assert condition.kind == "random" and condition.seed is None and condition.main == f"Pub{task.main}"
    assert "PubTypeOK" in (condition.cfg or "") and "INVARIANT TypeOK" not in (condition.cfg or "")
    # The condition's version (and the cache key) follow the map, so nothing mixes with the seeded condition.
    assert condition.version != random_condition(task, 0, verify=False).condition.version
    keys = {condition_key(task, "random", 0, None, "jar"),
            condition_key(task, "random", 0, longer_names(task), "jar", published=True),
            condition_key(task, "random", 0, {**longer_names(task), "N": "PubM"}, "jar", published=True)}
    assert len(keys) == 3


def test_a_map_that_does_not_verify_is_refused_with_its_reasons(tasks: dict[str, Task]) -> None:
    renamed = published_condition(tasks["die-hard"], BAD_DIE_HARD, verify=False)
    assert not renamed.valid
    failure = renamed.verification.failure  # type: ignore[union-attr]
    assert "\n" not in failure and failure.startswith("map: ")
    for reason in ("Nope: not an identifier of this spec that CIR renames", "small → big: already an identifier",
                   "TypeOK → Nat: a keyword or standard name", "Init → Twin: also the new name of Min"):
        assert reason in failure
    assert "renames no identifier" in published_condition(tasks["die-hard"], {"small": "small"},
                                                          verify=False).verification.failure  # type: ignore[union-attr]
    assert "no entry" in published_condition(tasks["die-hard"], None, verify=False).verification.failure  # type: ignore[union-attr]


def test_a_released_replay_grades_by_name_under_published_maps(pytester: pytest.Pytester, small_suite: Path,
                                                                tasks: dict[str, Task], tools, tmp_path: Path) -> None:
    """The plugin builds the renamed condition from the maps: the released outputs (the renamed
    references) pass the name grade; die-hard's map is refused, its renamed item skipped with the reason."""
    barrier = tasks["barrier"]
    maps = tmp_path / "maps.json"
    maps.write_text(json.dumps({"barrier": longer_names(barrier), "die-hard": BAD_DIE_HARD}))
    renamed = published_condition(barrier, longer_names(barrier), tools=tools).condition
    replay = tmp_path / "released.jsonl"
    lines = [{"task": "barrier", "condition": "random", "sample": 0, "text": renamed.module_map[renamed.main],
              "condition_version": renamed.version},
             {"task": "barrier", "condition": "original", "sample": 0, "text": barrier.module_map[barrier.main],
              "condition_version": barrier.original().version}]
    replay.write_text("".join(json.dumps(line) + "\n" for line in lines))
    report = tmp_path / "run.json"
    result = pytester.runpytest_subprocess(
        f"--alias-suite={small_suite}", f"--alias-cache-dir={tmp_path / 'cache'}", "-p", "no:cacheprovider",
        f"--alias-model=replay:{replay}", f"--alias-rename-map={maps}", "--alias-samples=1", "--alias-grade=name",
        f"--alias-report={report}", "-k", "(barrier or die_hard) and random", "-rs", timeout=600)
    assert result.ret == 0, result.stdout.str()
    result.assert_outcomes(passed=1, skipped=1, deselected=4)  # the tasks the maps leave out have no renamed item
    result.stdout.fnmatch_lines(["*renamed names from*maps.json*",
                                 "*SKIPPED*renamed copy not verified: map: Nope: not an identifier*"])
    document = json.loads(report.read_text())
    [record] = document["records"]
    assert record["task"] == "barrier" and record["grades"]["name"]["passed"] is True
    assert document["metadata"]["settings"]["rename_map"] == str(maps)


def test_a_malformed_map_file_is_one_line(pytester: pytest.Pytester, small_suite: Path, tmp_path: Path) -> None:
    maps = tmp_path / "maps.json"
    maps.write_text(json.dumps({"barrier": ["N", "M"]}))
    result = pytester.runpytest_subprocess(f"--alias-suite={small_suite}", "--alias-model=reference",
                                           f"--alias-rename-map={maps}", "-p", "no:cacheprovider", timeout=600)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--alias-rename-map*expected {task id: {old name: new name}}*"])


def test_build_takes_published_maps_and_prints_each_refusal(small_suite: Path, tasks: dict[str, Task],
                                                            tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pytest_alias.cli import main

    maps = tmp_path / "maps.json"
    maps.write_text(json.dumps({"barrier": longer_names(tasks["barrier"]), "die-hard": BAD_DIE_HARD}))
    assert main(["--cache-dir", str(tmp_path / "cache"), "build", str(small_suite), "--rename-map", str(maps),
                 "--out", str(tmp_path / "set")]) == 0
    shown = capsys.readouterr().out
    assert "die-hard: map refused: map: Nope: not an identifier of this spec that CIR renames" in shown
    assert "hour-clock: map refused: map: the rename map has no entry for this task" in shown
    assert json.loads((tmp_path / "set" / "test_ids.json").read_text()) == ["barrier"]
    written = json.loads((tmp_path / "set" / "tasks" / "barrier" / "random" / "map.json").read_text())
    assert written["TypeOK"] == "PubTypeOK"
    maps.write_text("[1, 2]")
    assert main(["build", str(small_suite), "--rename-map", str(maps), "--out", str(tmp_path / "other")]) == 2
    assert "--rename-map" in capsys.readouterr().err


def test_rename_checks_a_published_map_strictly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``tla-alias rename --map F --published``: an old name the spec lacks is refused (a meaningful
    proposal would ignore it), with the reason on one line and exit code 1."""
    from pytest_alias.cli import main

    module = tmp_path / "M.tla"
    module.write_text("---- MODULE M ----\nVARIABLE x\nInit == x = 0\nNext == x' = x\n====\n")
    mapping = tmp_path / "map.json"
    mapping.write_text(json.dumps({"x": "counter", "Gone": "Here"}))
    assert main(["rename", str(module), "--map", str(mapping), "--out", str(tmp_path / "lenient")]) == 0
    capsys.readouterr()
    assert main(["rename", str(module), "--map", str(mapping), "--published", "--out", str(tmp_path / "strict")]) == 1
    shown = capsys.readouterr().out
    assert "NOT verified: map: Gone: not an identifier of this spec that CIR renames" in shown
    assert main(["rename", str(module), "--published", "--out", str(tmp_path / "none")]) == 2


# --------------------------------------------------------------------------- names before paths (issue 48)

MODULE_M = "---- MODULE M ----\nVARIABLE x\nInit == x = 0\nNext == x' = x\n====\n"


def _no_file_outside(root: Path, before: set[Path]) -> None:
    assert {path for path in root.rglob("*") if path.is_file()} == before


@pytest.mark.parametrize("published", [False, True])
@pytest.mark.parametrize("shape", ["parent", "absolute"])
def test_a_map_naming_the_module_with_a_path_is_refused_before_any_write(
        shape: str, published: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``{"M": "../../x"}`` once wrote x.tla two folders up and ``{"M": "/dir/HourClock"}`` overwrote
    that file; now the map is one line naming the entry, and nothing is written, --out included."""
    from pytest_alias.cli import main

    work = tmp_path / "a" / "b"
    work.mkdir(parents=True)
    (work / "M.tla").write_text(MODULE_M)
    victim = tmp_path / "HourClock.tla"
    victim.write_text("precious")
    new_name = "../../x" if shape == "parent" else str(tmp_path / "HourClock")
    mapping = work / "map.json"
    mapping.write_text(json.dumps({"M": new_name}))
    before = {path for path in tmp_path.rglob("*") if path.is_file()}
    argv = ["rename", str(work / "M.tla"), "--map", str(mapping), "--out", str(work / "out")]
    assert main(argv + (["--published"] if published else [])) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"M → {new_name!r} is not a TLA+ identifier" in err and "file name" in err
    _no_file_outside(tmp_path, before)
    assert victim.read_text() == "precious" and not (work / "out").exists()
    # --out refused as well: still nothing written (the old code wrote the map's file, then refused --out).
    (work / "taken").write_text("a file")
    assert main(["rename", str(work / "M.tla"), "--map", str(mapping), "--out", str(work / "taken")]) == 2
    assert "--out" in capsys.readouterr().err
    _no_file_outside(tmp_path, before | {work / "taken"})


def test_build_refuses_a_rename_map_with_a_path_before_any_work(small_suite: Path, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    from pytest_alias.cli import main

    maps = tmp_path / "maps.json"
    maps.write_text(json.dumps({"barrier": {"Barrier": "../../x", "TypeOK": "Fine"}}))
    before = {path for path in tmp_path.rglob("*") if path.is_file()}
    assert main(["--cache-dir", str(tmp_path / "cache"), "build", str(small_suite), "--rename-map", str(maps),
                 "--out", str(tmp_path / "set")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--rename-map" in err
    assert "task barrier: Barrier → '../../x' is not a TLA+ identifier" in err
    _no_file_outside(tmp_path, before)
    assert not (tmp_path / "set").exists() and not (tmp_path / "cache").exists()


def test_the_plugins_name_maps_are_checked_when_read(tmp_path: Path) -> None:
    from pytest_alias.errors import UsageProblem
    from pytest_alias.run.config import read_name_maps

    maps = tmp_path / "maps.json"
    maps.write_text(json.dumps({"barrier": {"Barrier": "/etc/x"}}))
    with pytest.raises(UsageProblem) as caught:
        read_name_maps(maps, "rename-map")
    assert caught.value.for_flag("--alias-").startswith(f"--alias-rename-map {maps}: task barrier: Barrier → '/etc/x'")


def test_a_refused_map_never_carries_a_path_into_its_condition(tasks: dict[str, Task]) -> None:
    """A library caller that skips the reader: the bad name is a refusal reason and is never applied."""
    task = tasks["barrier"]
    renamed = published_condition(task, {task.main: "../../x", "TypeOK": "Fine"}, verify=False)
    assert not renamed.valid and "not a TLA+ identifier" in renamed.verification.failure  # type: ignore[union-attr]
    assert renamed.condition.main == task.main and "Fine" in (renamed.condition.cfg or "")


def test_condition_files_stay_inside_their_folder(tasks: dict[str, Task], tmp_path: Path) -> None:
    from dataclasses import replace

    from pytest_alias.atomic import path_inside
    from pytest_alias.cir.build import BuildError, write_condition
    from pytest_alias.errors import UsageProblem

    condition = tasks["barrier"].original()
    bad = replace(condition, modules=(("../x", "text"),))
    with pytest.raises(BuildError, match="not a TLA\\+ identifier"):
        write_condition(tmp_path / "out", bad)
    assert not (tmp_path / "out").exists() and not (tmp_path / "x.tla").exists()
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder" / "link").symlink_to(tmp_path.parent)
    for name, why in (("a/../../x", "'..'"), ("/etc/passwd", "absolute"), ("a//b", "empty"),
                      ("link/x", "leads out")):
        with pytest.raises(UsageProblem, match=why):
            path_inside(tmp_path / "folder", name)
    assert path_inside(tmp_path / "folder", "examples/Spec-model") == tmp_path / "folder" / "examples" / "Spec-model"
