"""The exposure split: sizes, determinism, a pool that never holds a test task, and the file."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pytest_alias.exposure.split import (DEFAULT_SPLIT_SEED, SplitError, check_versions, load_split, make_split,
                                         select_pool, split_halves)
from pytest_alias.tasks.model import Task


def task(task_id: str, body: str = "x' = x", main: str | None = None, description: str = "d") -> Task:
    name = main or "M" + task_id.replace("-", "")
    return Task(task_id, description, ((name, f"---- MODULE {name} ----\nVARIABLE x\nNext == {body}\n====\n"),))


def test_the_papers_111_tasks_split_55_56_the_same_way_every_time() -> None:
    ids = [f"task-{i:03d}" for i in range(111)]
    half_a, half_b = split_halves(ids, DEFAULT_SPLIT_SEED)
    assert (len(half_a), len(half_b)) == (55, 56)
    assert not set(half_a) & set(half_b) and set(half_a) | set(half_b) == set(ids)
    assert split_halves(list(reversed(ids)), DEFAULT_SPLIT_SEED) == (half_a, half_b)  # input order is irrelevant
    other_a, _ = split_halves(ids, DEFAULT_SPLIT_SEED + 1)
    assert other_a != half_a


@pytest.mark.parametrize("count, sizes", [(2, (1, 1)), (3, (1, 2)), (18, (9, 9)), (7, (3, 4))])
def test_half_a_gets_the_floor_and_half_b_the_ceiling(count: int, sizes: tuple[int, int]) -> None:
    half_a, half_b = split_halves([f"t{i}" for i in range(count)], 5)
    assert (len(half_a), len(half_b)) == sizes


def test_too_few_or_repeated_ids_are_refused() -> None:
    with pytest.raises(SplitError, match="at least 2"):
        split_halves(["only"], 1)
    with pytest.raises(SplitError, match="unique"):
        split_halves(["a", "a", "b"], 1)


def test_the_pool_leaves_out_test_tasks_and_copies_of_them() -> None:
    test = [task("a", "x' = 1"), task("b", "x' = 2")]
    pool = [task("a", "x' = 9"),                      # the same id as a test task
            task("p1", "x' = 1", main="Ma"),           # the same text as test task a
            task("p2", "x' = 7", main="Mb"),           # the same module name as test task b
            task("p3", "x'   =   3"), task("p4", "x' = 3", main="Mp3"),  # p4 repeats p3's text
            task("p5", "x' = x + 100")]
    kept, excluded = select_pool(test, pool)
    assert [t.id for t in kept] == ["p3", "p5"]
    reasons = dict(excluded)
    assert reasons["a"] == "is a test task"
    assert "test task a" in reasons["p1"] and "module name as test task b" in reasons["p2"]
    assert "pool task p3" in reasons["p4"]
    shortest, dropped = select_pool(test, pool, size=1)
    assert [t.id for t in shortest] == ["p3"] and "shortest" in dict(dropped)["p5"]


def test_the_split_file_round_trips_and_refuses_edits(tmp_path: Path) -> None:
    test = [task(f"t{i}", f"x' = {i}") for i in range(5)]
    split = make_split(test, seed=3, suite="here", pool=[task("p", "x' = 99")], pool_suite="there")
    path = tmp_path / "split.json"
    split.write(path)
    again = load_split(path)
    assert again == split and again.identity == split.identity
    assert again.half_of(split.halves["B"][0]) == "B" and again.half_of("p") is None
    data = json.loads(path.read_text())
    assert data["sizes"] == {"A": 2, "B": 3, "pool": 1} and data["seed"] == 3
    assert set(data["versions"]) == {t.id for t in test}
    data["halves"]["A"], data["halves"]["B"] = data["halves"]["B"], data["halves"]["A"]
    path.write_text(json.dumps(data))
    with pytest.raises(SplitError, match="edited"):
        load_split(path)
    with pytest.raises(SplitError, match="no such split file"):
        load_split(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("{}")
    with pytest.raises(SplitError, match="not a split file"):
        load_split(tmp_path / "bad.json")


def test_a_changed_task_is_noticed() -> None:
    split = make_split([task("a"), task("b")], seed=1)
    check_versions(split, [task("a"), task("b")])
    with pytest.raises(SplitError, match="changed since"):
        check_versions(split, [task("a", "x' = 5")])


def test_a_published_split_is_rebuilt_on_this_machines_tasks(tmp_path: Path) -> None:
    """``tla-alias split --from FILE``: the published halves (and pool), checked against the suites."""
    from pytest_alias.exposure.split import published_split

    test = [task(f"t{i}", f"x' = {i}") for i in range(5)]
    pool = [task("p1", "x' = 98"), task("p2", "x' = 99")]
    published = tmp_path / "published.json"
    published.write_text(json.dumps({"A": ["t4", "t0"], "B": ["t1", "t2", "t3"], "pool": ["p2"]}))
    split = published_split(published, test, suite="here", pool=pool, pool_suite="there")
    assert split.halves == {"A": ("t0", "t4"), "B": ("t1", "t2", "t3")} and split.pool == ("p2",)
    assert split.seed is None and split.versions["t4"] == test[4].version
    split.write(tmp_path / "split.json")
    assert load_split(tmp_path / "split.json") == split  # a file every later step reads as its own
    # A tla-alias split file is itself a published split: the same halves come back.
    drawn = make_split(test, seed=3, suite="here")
    drawn.write(tmp_path / "drawn.json")
    assert published_split(tmp_path / "drawn.json", test, suite="here").halves == drawn.halves
    for document, message in (({"A": ["t0", "t9"], "B": ["t1"]}, "1 id(s) of half A are not tasks of here: t9"),
                              ({"A": ["t0", "t1"], "B": ["t1"]}, "share 1 task"),
                              ({"halves": {"A": ["t0"]}}, "expected halves A and B"),
                              ({"A": ["t0"], "B": ["t1"], "pool": ["t2"]}, "pool id"),
                              ({"A": "t0", "B": ["t1"]}, "half A must be a list of task ids")):
        published.write_text(json.dumps(document))
        with pytest.raises(SplitError, match=re.escape(message)):
            published_split(published, test, suite="here", pool=pool, pool_suite="there")


def test_the_split_command_takes_a_published_split(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pytest_alias.cli import main

    published = tmp_path / "published.json"
    published.write_text(json.dumps({"A": ["barrier", "die-hard"], "B": ["hour-clock", "ticket-dispenser"]}))
    assert main(["split", "builtin", "--from", str(published), "--out", str(tmp_path / "split.json")]) == 0
    assert f"(from {published}): A 2 tasks, B 2 tasks" in capsys.readouterr().out
    assert load_split(tmp_path / "split.json").halves["A"] == ("barrier", "die-hard")
    published.write_text(json.dumps({"A": ["barrier", "no-such-task"], "B": ["hour-clock"]}))
    assert main(["split", "builtin", "--from", str(published), "--out", str(tmp_path / "other.json")]) == 2
    assert "no-such-task" in capsys.readouterr().err and not (tmp_path / "other.json").exists()


def test_a_published_split_is_refused_for_empty_halves_other_formats_and_other_task_versions(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``split --from``: an empty half, a format or format version this ALIAS does not read, and a split
    file made for other task texts are each one line (issue 48)."""
    from pytest_alias.cli import main
    from pytest_alias.exposure.split import SPLIT_FORMAT_VERSION, published_split

    test = [task(f"t{i}", f"x' = {i}") for i in range(4)]
    drawn = tmp_path / "drawn.json"
    make_split(test, seed=3, suite="here").write(drawn)
    made = json.loads(drawn.read_text())
    published = tmp_path / "published.json"
    for document, message in (
            ({"A": [], "B": ["t1", "t2"]}, "half A is empty; each half needs at least one task"),
            ({"halves": {"A": ["t0"], "B": []}}, "half B is empty"),
            ({**made, "format_version": SPLIT_FORMAT_VERSION + 1}, f"split format version {SPLIT_FORMAT_VERSION + 1}"),
            ({"format_version": "2", "A": ["t0"], "B": ["t1"]}, "split format version '2'"),
            ({"format": "something-else", "A": ["t0"], "B": ["t1"]}, "format 'something-else' is not a split"),
            ({**made, "versions": {**made["versions"], "t0": "0" * 16}}, "1 task(s) differ from the versions"),
            ({**made, "versions": ["t0"]}, "versions must map task ids to content versions")):
        published.write_text(json.dumps(document))
        with pytest.raises(SplitError, match=re.escape(message)):
            published_split(published, test, suite="here")
    # A task changed on this machine since the split file was made: refused by the command, nothing written.
    changed = [task("t0", "x' = 77"), *test[1:]]
    with pytest.raises(SplitError, match=re.escape("(t0); use the suite it was made with, or make a new split")):
        published_split(drawn, changed, suite="here")
    published.write_text(json.dumps({"A": [], "B": ["barrier"]}))
    assert main(["split", "builtin", "--from", str(published), "--out", str(tmp_path / "out.json")]) == 2
    err = capsys.readouterr().err
    assert "half A is empty" in err and err.count("\n") == 1 and not (tmp_path / "out.json").exists()


def test_the_split_command_reads_its_suites_through_the_workspace_and_needs_no_toolchain(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """One house: ``tla-alias split`` reads the test suite and the pool through the run layer's Workspace,
    without SANY or TLC; a suite that cannot be read is still one line."""
    from pytest_alias.cli import main
    from pytest_alias.run.workspace import Workspace

    read: list[str | None] = []
    real = Workspace.suite_report

    def recording(self: Workspace, suite: str | None = None, **kwargs: object) -> object:
        read.append(suite or self.config.suite)
        return real(self, suite, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Workspace, "suite_report", recording)
    monkeypatch.setattr(Workspace, "tools", property(lambda self: pytest.fail("a split needs no toolchain")))
    out = tmp_path / "split.json"
    assert main(["split", "builtin?ids=barrier,die-hard,hour-clock", "--pool", "builtin?ids=ticket-dispenser",
                 "--out", str(out)]) == 0
    assert read == ["builtin?ids=barrier,die-hard,hour-clock", "builtin?ids=ticket-dispenser"]
    split = load_split(out)
    assert sorted(split.test_ids) == ["barrier", "die-hard", "hour-clock"] and split.pool == ("ticket-dispenser",)
    assert "A 1 tasks, B 2 tasks, pool 1" in capsys.readouterr().out
    assert main(["split", "foo:bar", "--out", str(tmp_path / "other.json")]) == 2
    assert "unknown suite scheme 'foo'" in capsys.readouterr().err
