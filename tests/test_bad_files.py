"""Damaged and wrong-shaped files are one-line errors or cache misses, never tracebacks (issue #26)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_alias.cli import main
from pytest_alias.models.replay import ReplayError, load_replay
from pytest_alias.tla.cache import RunCache
from pytest_alias.tla.runner import TlaTools
from pytest_alias.tla.specfiles import SpecFiles

GOOD = {"id": "a-original-s0", "task": "a", "condition": "original", "sample": 0, "model": "m",
        "grades": {"parse": {"passed": True, "reason": None}}, "similarity": None, "hidden_names": [],
        "has_hidden_names": False}
DEEP = "[" * 100_000 + "]" * 100_000


def _report(tmp_path: Path, name: str, data: bytes, capsys: pytest.CaptureFixture[str]) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    assert main(["report", str(path), "--out", str(tmp_path / "out"), "--resamples", "100"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "out").exists(), "no tables from a file that cannot be used"
    return err


@pytest.mark.parametrize("name, data, said", [
    ("latin1.jsonl", json.dumps(GOOD).encode() + b"\n\xff\xfe\n", "not UTF-8 text"),
    ("deep.json", DEEP.encode(), "nested too deeply"),
    ("deep.jsonl", (json.dumps(GOOD) + "\n" + '{"a": ' + DEEP + "}\n").encode(), "deep.jsonl:2: JSON nested too deeply"),
    ("records.json", json.dumps({"records": 5}).encode(), "field records must be a list"),
])
def test_report_on_an_unreadable_file_is_one_line(name: str, data: bytes, said: str, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert said in _report(tmp_path, name, data, capsys)


@pytest.mark.parametrize("field, value, said", [
    ("sample", "zero", "field sample must be a non-negative integer"),
    ("grades", [], "field grades must be an object"),
    ("grades", {"parse": {"passed": "yes"}}, "field grades.parse.passed must be true or false"),
    ("grades", {"parse": {"reason": None}}, "field grades.parse.passed is missing"),
    ("hidden_names", "x", "field hidden_names must be a list of strings"),
    ("similarity", {"bleu4": "high"}, "field similarity must be null or an object of numbers"),
])
def test_report_names_the_file_line_and_field_of_a_wrong_record(field: str, value: object, said: str, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    bad = {**GOOD, field: value}
    err = _report(tmp_path, "run.jsonl", (json.dumps(GOOD) + "\n" + json.dumps(bad) + "\n").encode(), capsys)
    assert f"run.jsonl:2: {said}" in err
    err = _report(tmp_path, "run.json", json.dumps({"records": [GOOD, bad]}).encode(), capsys)
    assert f"run.json: record 2: {said}" in err


@pytest.mark.parametrize("line, said", [
    ('{"task": "a", "condition": "original", "sample": 0, "text": "x", "nest": ' + DEEP + "}", "nested too deeply"),
    ('{"task": "a", "condition": "original", "sample": 0, "text": "x", "truncated": "no"}', "field truncated"),
    ('{"task": "a", "condition": "original", "sample": 0, "text": "x", "finish_reason": 3}', "field finish_reason"),
    ('{"task": "a", "condition": "original", "sample": 0, "text": "x", "condition_version": [1]}', "condition_version"),
])
def test_replay_load_names_the_line_and_field(line: str, said: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(line + "\n")
    with pytest.raises(ReplayError, match=f"bad.jsonl:1: .*{said}"):
        load_replay(path)


@pytest.mark.parametrize("entry", [[], {}, {"output": 5}, {"output": "x", "exit_code": "0", "seconds": 1},
                                   {"output": "x", "exit_code": 0, "seconds": 1, "dot": 7}, "text", None])
def test_a_run_cache_entry_of_any_wrong_shape_is_a_miss(entry: object, tmp_path: Path) -> None:
    spec = SpecFiles("M", {"M": "---- MODULE M ----\nVARIABLE x\nInit == x = 0\nNext == x' = x\n====\n"},
                     "INIT Init\nNEXT Next\n")
    tools = TlaTools(cache_dir=tmp_path)
    first = tools.sany(spec)
    tlc = tools.tlc(spec)
    for path in (tmp_path / "runs").glob("*/*.json"):
        path.write_text(json.dumps(entry))
    again = tools.sany(spec)
    assert not again.cached and again.ok == first.ok
    assert tools.tlc(spec).status == tlc.status == "ok"
    assert RunCache(tmp_path).get("0" * 64) is None


# --------------------------------------------------------------------------- nested JSON and covered files (issue 48)

def test_a_deeply_nested_cache_entry_is_a_miss_and_rewritten(tmp_path: Path) -> None:
    """A nested entry once raised RecursionError and was never rewritten (the task stayed not gradeable)."""
    spec = SpecFiles("M", {"M": "---- MODULE M ----\nVARIABLE x\nInit == x = 0\nNext == x' = x\n====\n"},
                     "INIT Init\nNEXT Next\n")
    tools = TlaTools(cache_dir=tmp_path)
    tools.sany(spec)
    entries = list((tmp_path / "runs").glob("*/*.json"))
    assert entries
    for path in entries:
        path.write_text(DEEP)
    again = tools.sany(spec)
    assert not again.cached and again.ok
    assert all(json.loads(path.read_text()) for path in entries), "the damaged entry is written anew"
    assert tools.sany(spec).cached


def test_a_deeply_nested_generation_store_entry_is_a_miss(tmp_path: Path) -> None:
    from pytest_alias.models.store import GenerationStore

    store = GenerationStore(tmp_path)
    store.path("ab" * 32).parent.mkdir(parents=True)
    store.path("ab" * 32).write_text(DEEP)
    assert store.get("ab" * 32) is None


def test_a_deeply_nested_user_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pytest_alias.errors import UsageProblem
    from pytest_alias.run.config import _covered, read_name_maps

    deep = tmp_path / "deep.json"
    deep.write_text(DEEP)
    module = tmp_path / "M.tla"
    module.write_text("---- MODULE M ----\nVARIABLE x\nInit == x = 0\nNext == x' = x\n====\n")
    assert main(["rename", str(module), "--map", str(deep), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nested too deeply" in err and "Traceback" not in err
    for read in (lambda: read_name_maps(deep, "rename-map"), lambda: _covered(str(deep))):
        with pytest.raises(UsageProblem, match="nested too deeply"):
            read()


@pytest.mark.parametrize("entry, said", [
    ({"covered": True}, "tasks entry 1: no 'task' id"),
    ({"task": "a", "covered": "no"}, "tasks entry 1 (a): 'covered' must be true or false, not 'no'"),
    ({"task": "a", "covered": 1}, "'covered' must be true or false, not 1"),
    ({"task": "a"}, "'covered' must be true or false, not None"),
])
def test_a_covered_file_entry_must_name_its_task_and_say_true_or_false(entry: dict[str, object], said: str,
                                                                       tmp_path: Path) -> None:
    from pytest_alias.errors import UsageProblem
    from pytest_alias.grading.validation import covered_tasks
    from pytest_alias.run.config import _covered

    path = tmp_path / "covered.json"
    path.write_text(json.dumps({"tasks": [entry]}))
    with pytest.raises(UsageProblem) as caught:
        _covered(str(path))
    assert said in str(caught.value) and "\n" not in str(caught.value)
    assert covered_tasks({"tasks": [{"task": "a", "covered": True}, {"task": "b", "covered": False}]}) == {"a"}
