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
JSON_KEYS = {"grade", "mode", "name_rule", "search_budget_s", "passed", "reason", "side", "stage", "mapping", "tlc_runs",
             "seconds"}


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
    verdict = json.loads(proc.stdout)
    assert set(verdict) == JSON_KEYS
    assert verdict["passed"] is True and verdict["reason"] is None
    assert verdict["grade"] == "behavior" and verdict["mode"] == "paper"
    assert verdict["mapping"] == {"hr": "hr"}
    # The forward check, really launched (private cache); the output is the reference, so the reverse
    # check is read off it (the self_check shortcut).
    assert verdict["tlc_runs"] == 1
    assert isinstance(verdict["seconds"], float)
    assert list(tmp_path.iterdir()) == []  # TLC's files stay in its temporary folders


def test_mutant_fails_with_a_reason(cache_dir: Path, tmp_path: Path) -> None:
    mutant = CLOCK.read_text().replace("hr + 1", "hr + 2")
    output = write(tmp_path, "answer.txt", f"Here is the spec:\n```tla\n{mutant}```\n")
    proc = alias(cache_dir, "--reference", str(CLOCK), "--output", str(output), "--grade", "behavior", "--json")
    assert proc.returncode == 1, proc.stderr
    verdict = json.loads(proc.stdout)
    assert set(verdict) == JSON_KEYS
    assert verdict["passed"] is False
    assert "check failed" in verdict["reason"]


@pytest.mark.parametrize("grade", ["parse", "name"])
def test_parse_and_name_grades_have_no_mapping(cache_dir: Path, grade: str) -> None:
    proc = alias(cache_dir, "--reference", str(CLOCK), "--output", str(CLOCK), "--grade", grade, "--json")
    assert proc.returncode == 0, proc.stderr
    verdict = json.loads(proc.stdout)
    assert set(verdict) == JSON_KEYS and verdict["mapping"] is None and verdict["grade"] == grade


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
    verdict = json.loads(capsys.readouterr().out)
    assert code == (0 if verdict["passed"] else 1)
    return verdict


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
    verdict = grade_json(cache_dir, output, grade, capsys, "--timeout", "4")
    assert verdict["passed"] is False
    assert expected.lower() in verdict["reason"].lower(), verdict["reason"]


def test_output_that_would_write_a_file_is_not_run(cache_dir: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "written-by-the-output.bin"
    output = write(tmp_path, "output.txt", writer(target))
    for grade in ("parse", "name", "behavior"):
        verdict = grade_json(cache_dir, output, grade, capsys)
        assert verdict["passed"] is False and "IOUtils" in verdict["reason"]
        assert verdict["tlc_runs"] == 0
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
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["reason"] == f"output is {size:,} bytes, over the 204,800-byte limit"




def test_the_name_rule_is_chosen_and_reported(cache_dir: Path, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 50's flip: appendix H (the default) checks PROPERTY Good; the refined rule refuses the stand-in."""
    output = write(tmp_path, "output.txt", HOUR_CLOCK_GOOD)
    paper = grade_json(cache_dir, output, "name", capsys)
    assert paper["passed"] is True and paper["name_rule"] == "paper"
    refined = grade_json(cache_dir, output, "name", capsys, "--name-rule", "refined")
    assert refined["passed"] is False and refined["name_rule"] == "refined"
    assert refined["reason"] == "output does not define NoonRecurs, which the cfg requires"


def test_a_search_cut_off_by_its_budget_says_so(cache_dir: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    output = write(tmp_path, "output.txt", CLOCK.read_text().replace("hr + 1", "hr + 2"))
    verdict = grade_json(cache_dir, output, "behavior", capsys, "--search-budget", "0.5")
    assert verdict["passed"] is False and verdict["side"] == "grader" and verdict["search_budget_s"] == 0.5
    assert verdict["reason"].startswith("search ran out of its time budget (0.5 s)")
