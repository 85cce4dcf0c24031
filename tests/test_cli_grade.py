"""``tla-alias grade``: one verdict per output, as a subprocess and in-process; bad outputs fail with a reason."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_alias.cli import main
from name_rule_outputs import HOUR_CLOCK_GOOD

TASKS = Path(__file__).resolve().parent.parent / "pytest_alias" / "data" / "tasks"
CLOCK = TASKS / "hour-clock" / "HourClock.tla"
#: The keys of the --json object when no record can be made (a file that cannot be read).
NO_RECORD_KEYS = {"grade", "mode", "name_rule", "search_budget_s", "passed", "reason", "side", "stage"}
#: Every record a pytest item writes has these keys (``tla-alias grade --json`` prints that record).
RECORD_KEYS = {"schema", "id", "task", "condition", "sample", "model", "grades", "similarity", "hidden_names",
               "has_hidden_names", "known_names", "mode", "name_rule", "shortcuts", "generation", "timings", "versions",
               "limits", "outcome", "seed"}


def entry(record: dict, grade: str) -> dict:
    """The one grade's entry of a record (``passed``, ``reason``, ``seconds``, ``details``)."""
    assert set(record) >= RECORD_KEYS, sorted(RECORD_KEYS - set(record))
    assert list(record["grades"]) == [grade]
    return record["grades"][grade]


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One private run cache for this module: the first grade of each output really runs TLC."""
    return tmp_path_factory.mktemp("grade-cache")


def alias(cache_dir: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(TASKS.parents[2])}
    return subprocess.run([sys.executable, "-m", "pytest_alias", "--cache-dir", str(cache_dir), "grade", *args],
                          capture_output=True, text=True, timeout=300, cwd=cwd, env=env)


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------- as a subprocess


def test_reference_passes_against_itself_and_writes_nothing_to_cwd(cache_dir: Path, tmp_path: Path) -> None:
    proc = alias(cache_dir, "--reference", str(CLOCK), "--output", str(CLOCK), "--grade", "behavior", "--json",
                 cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    record = json.loads(proc.stdout)
    verdict = entry(record, "behavior")
    assert verdict["passed"] is True and verdict["reason"] is None
    assert record["mode"] == "paper" and record["outcome"] == "pass" and record["search_budget_s"] == 1200.0
    assert verdict["details"]["mapping"] == {"variables": {"hr": "hr"}, "constants": {}}
    # The reference's self-check ran first (as in a pytest run); the output is the reference, so both
    # of its checks are read off that self-check (the self_check shortcut): no TLC run of its own.
    assert record["timings"]["tlc_runs"] == 0
    assert isinstance(verdict["seconds"], float)
    assert list(tmp_path.iterdir()) == []  # TLC's files stay in its temporary folders


def test_mutant_fails_with_a_reason(cache_dir: Path, tmp_path: Path) -> None:
    mutant = CLOCK.read_text().replace("hr + 1", "hr + 2")
    output = write(tmp_path, "answer.txt", f"Here is the spec:\n```tla\n{mutant}```\n")
    proc = alias(cache_dir, "--reference", str(CLOCK), "--output", str(output), "--grade", "behavior", "--json")
    assert proc.returncode == 1, proc.stderr
    verdict = entry(json.loads(proc.stdout), "behavior")
    assert verdict["passed"] is False and verdict["details"]["side"] == "output"
    assert "check failed" in verdict["reason"]


@pytest.mark.parametrize("grade", ["parse", "name"])
def test_parse_and_name_grades_have_no_mapping(cache_dir: Path, grade: str) -> None:
    proc = alias(cache_dir, "--reference", str(CLOCK), "--output", str(CLOCK), "--grade", grade, "--json")
    assert proc.returncode == 0, proc.stderr
    verdict = entry(json.loads(proc.stdout), grade)
    assert verdict["passed"] is True and "mapping" not in verdict["details"]


@pytest.mark.parametrize("case", ["missing reference", "missing output", "not a module"])
def test_bad_input_is_one_sentence_and_exit_2(cache_dir: Path, tmp_path: Path, case: str) -> None:
    text = write(tmp_path, "notes.txt", "hello")
    reference, output = {
        "missing reference": (tmp_path / "Nope.tla", CLOCK),
        "missing output": (CLOCK, tmp_path / "nope.txt"),
        "not a module": (text, CLOCK),
    }[case]
    proc = alias(cache_dir, "--reference", str(reference), "--output", str(output), "--grade", "behavior")
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tla-alias: "), proc.stderr


# ---------------------------------------------------------------- robustness (in-process: one tool server)

INFINITE = """---- MODULE Grow ----
EXTENDS Naturals
VARIABLE hr
TypeOK == TRUE
NoonRecurs == TRUE
Init == hr = 1
Next == hr' = hr + 1
Spec == Init /\\ [][Next]_hr
====
"""
NO_SPEC = "---- MODULE Still ----\nEXTENDS Naturals\nVARIABLE hr\nTypeOK == hr \\in 1..12\n====\n"
UNKNOWN_MODULE = CLOCK.read_text().replace("EXTENDS Naturals", "EXTENDS Naturals, NoSuchModule")


def writer(target: Path) -> str:
    return CLOCK.read_text().replace("EXTENDS Naturals", "EXTENDS Naturals, IOUtils").replace(
        "Init == hr \\in 1..12", f'Init == hr \\in 1..12 /\\ IOSerialize(hr, "{target}", TRUE)')


def grade_json(cache_dir: Path, output: Path, grade: str, capsys: pytest.CaptureFixture[str],
               *extra: str) -> dict:
    code = main(["--cache-dir", str(cache_dir), "grade", "--reference", str(CLOCK), "--output", str(output),
                 "--grade", grade, "--json", *extra])
    record = json.loads(capsys.readouterr().out)
    assert code == (0 if entry(record, grade)["passed"] else 1)
    return record


@pytest.mark.parametrize("case, grade, expected", [
    ("empty", "behavior", "empty"),
    ("prose", "behavior", "module"),
    ("huge", "behavior", "bytes"),
    ("infinite", "name", "limit"),
    ("no spec", "behavior", "spec formula"),
    ("unknown module", "behavior", "NoSuchModule"),
])
def test_bad_outputs_fail_with_a_reason(cache_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        case: str, grade: str, expected: str) -> None:
    text = {
        "empty": "",
        "prose": "I am sorry, but I cannot write TLA+ today. The clock ticks from 1 to 12.\n",
        "huge": "x" * (1024 * 1024),
        "infinite": INFINITE,
        "no spec": NO_SPEC,
        "unknown module": UNKNOWN_MODULE,
    }[case]
    output = write(tmp_path, "output.txt", text)
    verdict = entry(grade_json(cache_dir, output, grade, capsys, "--timeout", "4"), grade)
    assert verdict["passed"] is False
    assert expected.lower() in verdict["reason"].lower(), verdict["reason"]


def test_output_that_would_write_a_file_is_not_run(cache_dir: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "written-by-the-output.bin"
    output = write(tmp_path, "output.txt", writer(target))
    for grade in ("parse", "name", "behavior"):
        record = grade_json(cache_dir, output, grade, capsys)
        assert entry(record, grade)["passed"] is False and "IOUtils" in entry(record, grade)["reason"]
        assert record["timings"]["tlc_runs"] == 0
    assert not target.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["output.txt"]


def test_an_oversize_output_is_reported_with_its_true_size(cache_dir: Path, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    huge = tmp_path / "huge.txt"
    with huge.open("wb") as handle:
        handle.write(b"---- MODULE HourClock ----\n")
        handle.write(b"\\* filler\n" * 600_000)
    size = huge.stat().st_size
    assert main(["--cache-dir", str(cache_dir), "grade", "--reference", str(CLOCK), "--output", str(huge),
                 "--grade", "parse", "--json"]) == 1
    verdict = entry(json.loads(capsys.readouterr().out), "parse")
    assert verdict["reason"] == f"output is {size:,} bytes, over the 204,800-byte limit"




def test_the_name_rule_is_chosen_and_reported(cache_dir: Path, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 50's flip: appendix H (the default) checks PROPERTY Good; the refined rule refuses the stand-in."""
    output = write(tmp_path, "output.txt", HOUR_CLOCK_GOOD)
    paper = grade_json(cache_dir, output, "name", capsys)
    assert entry(paper, "name")["passed"] is True and paper["name_rule"] == "paper"
    refined = grade_json(cache_dir, output, "name", capsys, "--name-rule", "refined")
    assert entry(refined, "name")["passed"] is False and refined["name_rule"] == "refined"
    assert entry(refined, "name")["reason"] == "output does not define NoonRecurs, which the cfg requires"


def test_a_search_cut_off_by_its_budget_says_so(cache_dir: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    output = write(tmp_path, "output.txt", CLOCK.read_text().replace("hr + 1", "hr + 2"))
    record = grade_json(cache_dir, output, "behavior", capsys, "--search-budget", "0.5")
    verdict = entry(record, "behavior")
    assert verdict["passed"] is False and verdict["details"]["side"] == "grader" and record["search_budget_s"] == 0.5
    assert record["outcome"] == "search_budget_spent"
    assert verdict["reason"].startswith("search ran out of its time budget (0.5 s)")


@pytest.mark.parametrize("case, side, stage", [
    ("missing reference", "reference", "stage"),
    ("missing cfg", "reference", "cfg"),
    ("missing output", "grader", "extract"),
])
def test_an_unreadable_file_says_whose_it_is(cache_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             case: str, side: str, stage: str) -> None:
    """The side comes from where reading failed (the exception carries it), not from the message's words."""
    reference, cfg, output = {
        "missing reference": (tmp_path / "Nope.tla", None, CLOCK),
        "missing cfg": (CLOCK, tmp_path / "nope.cfg", CLOCK),
        "missing output": (CLOCK, None, tmp_path / "HourClock.tla"),  # the reference's name in the output's path
    }[case]
    args = ["--cache-dir", str(cache_dir), "grade", "--reference", str(reference), "--output", str(output),
            "--grade", "name", "--json", *(["--cfg", str(cfg)] if cfg else [])]
    assert main(args) == 2
    verdict = json.loads(capsys.readouterr().out)
    assert set(verdict) == NO_RECORD_KEYS and (verdict["side"], verdict["stage"]) == (side, stage)


def test_both_doors_write_the_same_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One output graded by a pytest item and by ``tla-alias grade --task``: the same record, field by
    field, apart from what names the door (model, generation) and how long it took (timings)."""
    import shutil

    suite = tmp_path / "suite"
    shutil.copytree(CLOCK.parent, suite / "hour-clock")
    mutant = CLOCK.read_text().replace("hr + 1", "hr + 2")
    output = write(tmp_path, "answer.txt", f"```tla\n{mutant}```\n")
    replay = tmp_path / "outputs.jsonl"
    replay.write_text(json.dumps({"task": "hour-clock", "condition": "original", "sample": 0,
                                  "text": output.read_text()}) + "\n")
    run = tmp_path / "run.json"
    env = {**os.environ, "PYTHONPATH": str(TASKS.parents[2])}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-W", "ignore",
                           f"--alias-model=replay:{replay}", f"--alias-suite={suite}", "--alias-conditions=original",
                           "--alias-samples=1", "--alias-grade=behavior", f"--alias-report={run}",
                           f"--alias-cache-dir={tmp_path / 'plugin-cache'}", "--alias-no-fail"],
                          capture_output=True, text=True, timeout=600, cwd=tmp_path, env=env)
    assert run.is_file(), proc.stdout + proc.stderr
    (item,) = json.loads(run.read_text())["records"]
    code = main(["--cache-dir", str(tmp_path / "cli-cache"), "grade", "--task", str(suite / "hour-clock"),
                 "--output", str(output), "--grade", "behavior", "--json"])
    record = json.loads(capsys.readouterr().out)
    assert code == 1
    door_only = {"model", "generation", "timings"}
    assert set(record) == set(item)
    for field in sorted(set(record) - door_only):
        if field == "grades":
            for key in ("passed", "reason", "details"):
                assert record["grades"]["behavior"][key] == item["grades"]["behavior"][key], key
        else:
            assert record[field] == item[field], field


def test_only_the_projects_errors_are_an_unreadable_task(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """``grade --task``: the loader's own errors are one line saying whose file it is; a built-in error
    from inside it is a bug and propagates (it used to read as the user's unreadable task)."""
    from pytest_alias.cli import grade

    output = write(tmp_path, "answer.txt", CLOCK.read_text())
    argv = ["grade", "--task", str(tmp_path / "no-task"), "--output", str(output), "--grade", "parse", "--json"]
    assert main(argv) == 2
    no_record = json.loads(capsys.readouterr().out)
    assert set(no_record) == NO_RECORD_KEYS and "no task.toml here" in no_record["reason"]
    assert no_record["side"] == "reference"

    def broken(path: Path) -> None:
        raise ValueError("a bug, not the user's folder")

    monkeypatch.setattr(grade, "load_task_folder", broken)
    with pytest.raises(ValueError, match="a bug"):
        main(argv)
