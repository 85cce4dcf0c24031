"""Meaningful names proposed by a model (appendix R) and file continuation (appendix L), with replay models."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_alias.cli import main
from pytest_alias.controls.continuation import longest_shared_run, shown_lines, split_file
from pytest_alias.controls.propose import parse_proposal
from pytest_alias.report.continuation import continuation_analysis
from pytest_alias.tasks.suites import load_suite

from conftest import BUILTIN_TASKS


@pytest.fixture()
def two_tasks(tmp_path: Path) -> Path:
    import shutil

    for name in ("hour-clock", "die-hard"):
        shutil.copytree(BUILTIN_TASKS / name, tmp_path / "suite" / name)
    return tmp_path / "suite"


def test_a_proposal_is_read_from_the_first_json_object_and_kept_to_the_identifiers() -> None:
    text = 'Here you go:\n```json\n{"hr": "hour", "Init": "Init", "x y": "z", "Next": "9bad", "Tick": "Advance"}\n```'
    assert parse_proposal(text, ["hr", "Init", "Next", "Tick"]) == ({"hr": "hour", "Tick": "Advance"}, None)
    assert parse_proposal("no json here {", ["hr"])[1] == "the answer holds no JSON object"
    assert "renames none" in str(parse_proposal('{"other": "name"}', ["hr"])[1])


def test_propose_names_verifies_each_map_and_counts_the_dropped(two_tasks: Path, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    good = {"HourClock": "WallClock", "hr": "hour", "Init": "Start", "Next": "Advance", "Tick": "Step",
            "Spec": "Behavior", "TypeOK": "HourInRange", "NoonRecurs": "NoonAgain"}
    clash = {"Big": "Small"}  # die-hard has both Big and Small: the map is not a bijection onto fresh names
    replay = tmp_path / "replay.jsonl"
    replay.write_text(json.dumps({"task": "hour-clock", "condition": "propose-names", "sample": 0,
                                  "text": json.dumps(good)}) + "\n"
                      + json.dumps({"task": "die-hard", "condition": "propose-names", "sample": 0,
                                    "text": json.dumps(clash)}) + "\n")
    maps = tmp_path / "maps.json"
    code = main(["--cache-dir", str(tmp_path / "cache"), "propose-names", "--model", f"replay:{replay}",
                 "--suite", str(two_tasks), "--out", str(maps)])
    assert code == 0
    assert json.loads(maps.read_text()) == {"hour-clock": good}
    report = json.loads((tmp_path / "maps.report.json").read_text())
    assert report["valid"] == ["hour-clock"] and "die-hard" in report["dropped"]
    assert "1/2 tasks have a valid meaningful renaming" in capsys.readouterr().out


def test_the_shown_part_is_forty_percent_within_bounds() -> None:
    assert [shown_lines(n) for n in (5, 10, 20, 100, 200)] == [4, 8, 8, 40, 60]
    start, rest = split_file("".join(f"line {i}\n" for i in range(30)))
    assert start.count("\n") == 12 and rest.startswith("line 12")


def test_the_longest_run_ignores_comments_and_separators() -> None:
    from pytest_alias.controls.continuation import comparable_tokens

    remainder = "Next == x' = x + 1\n\\* a comment\n----\nSpec == Init /\\ [][Next]_x\n====\n"
    answer = "(* noise *)\nNext == x' = x + 1\nSpec == Init /\\ [][Next]_x\n"
    assert "noise" not in comparable_tokens(answer) and "====" not in comparable_tokens(remainder)
    # Without the comment and the ---- rule between them, the two definitions form one shared run.
    assert longest_shared_run(answer, remainder) == len(comparable_tokens(answer)) > 10
    assert longest_shared_run("something else entirely", remainder) <= 1


def test_continuation_rows_and_their_analysis(two_tasks: Path, tmp_path: Path) -> None:
    lines = []
    for task in load_suite(str(two_tasks)):
        _, rest = split_file(task.module_map[task.main])
        lines.append({"task": task.id, "condition": "continuation-original", "sample": 0, "text": rest})
        lines.append({"task": task.id, "condition": "continuation-random", "sample": 0, "text": "VARIABLE q\n"})
    replay = tmp_path / "cont.jsonl"
    replay.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = tmp_path / "out.jsonl"
    assert main(["--cache-dir", str(tmp_path / "cache"), "continuation", "--model", f"replay:{replay}",
                 "--suite", str(two_tasks), "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    by = {(r["task"], r["condition"]): r for r in rows}
    assert by[("die-hard", "original")]["longest_run"] == by[("die-hard", "original")]["remaining_tokens"] >= 50
    assert by[("die-hard", "random")]["longest_run"] <= 2 and not by[("die-hard", "random")]["long_run"]
    [entry] = continuation_analysis(rows, [])
    assert entry["long_runs"] == {"original": 2, "random": 0} and entry["predicts"] == []
