"""The pytest plugin, run through pytester on a small suite of built-in tasks."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import SMALL

pytest_plugins = ["pytester"]


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cache")


def run(pytester: pytest.Pytester, suite: Path, cache: Path, *args: str) -> pytest.RunResult:
    return pytester.runpytest_subprocess(f"--alias-suite={suite}", f"--alias-cache-dir={cache}", "-p", "no:cacheprovider",
                                         *args, timeout=600)


def test_help_lists_options(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest_subprocess("--help")
    for option in ("--alias-model", "--alias-grade", "--alias-suite", "--alias-conditions", "--alias-samples",
                   "--alias-seed", "--alias-timeout", "--alias-mode", "--alias-cache-dir", "--alias-report",
                   "--alias-gate"):
        result.stdout.fnmatch_lines([f"*{option}*"])


def test_bad_option_value_is_usage_error(pytester: pytest.Pytester, small_suite: Path, cache_dir: Path) -> None:
    result = run(pytester, small_suite, cache_dir, "--alias-model=reference", "--alias-grade=vibes")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--alias-grade: invalid choice: 'vibes' (choose from*parse*name*behavior*all*)*"])


def test_collect_only_ids_and_k_selection(pytester: pytest.Pytester, small_suite: Path, cache_dir: Path) -> None:
    result = run(pytester, small_suite, cache_dir, "--alias-model=reference", "--alias-samples=2", "--collect-only", "-q")
    ids = [line.split("[", 1)[1].rstrip("]") for line in result.stdout.lines if "test_tla[" in line]
    assert len(ids) == len(SMALL) * 2 * 2
    assert "barrier-random-s1" in ids and "die_hard-original-s0" in ids
    parts = [tuple(item.rsplit("-", 2)) for item in ids]  # (task, condition, sample)
    assert parts == sorted(parts)  # sorted collection; the same order on a second run, asserted below
    again = run(pytester, small_suite, cache_dir, "--alias-model=reference", "--alias-samples=2", "--collect-only", "-q")
    assert [line for line in again.stdout.lines if "test_tla[" in line] == [line for line in result.stdout.lines if "test_tla[" in line]
    selected = run(pytester, small_suite, cache_dir, "--alias-model=reference", "--alias-samples=2", "--collect-only", "-q",
                   "-k", "barrier and random")
    assert [line for line in selected.stdout.lines if "test_tla[" in line] == [
        line for line in result.stdout.lines if "test_tla[barrier-random" in line]


def test_reference_passes_every_grade_with_summary_and_reports(pytester: pytest.Pytester, small_suite: Path,
                                                               cache_dir: Path, tmp_path: Path) -> None:
    report = tmp_path / "run.json"
    result = run(pytester, small_suite, cache_dir, "--alias-model=reference", "--alias-grade=all", "--alias-samples=1",
                 f"--alias-report={report}", f"--alias-report={tmp_path / 'run.csv'}", f"--alias-report={tmp_path / 'run.md'}",
                 f"--alias-report={tmp_path / 'run.html'}")
    assert result.ret == 0, result.stdout.str()
    result.stdout.fnmatch_lines(["*alias summary*", "*behavior*100.0*100.0*", "*original − renamed*"])
    data = json.loads(report.read_text())
    assert len(data["records"]) == len(SMALL) * 2  # the task without a cfg gets the parse grade only
    assert data["aggregate"]["models"]["reference"]["grades"]["behavior"]["rates"]["original"]["tasks"] == len(SMALL) - 1
    behavior = data["aggregate"]["models"]["reference"]["grades"]["behavior"]
    assert behavior["rates"]["original"]["mean"] == 1.0 and behavior["decreases"]["random"]["mean"] == 0.0
    assert (tmp_path / "run.csv").read_text().count("\n") == len(data["records"]) + 1
    assert "<img" in (tmp_path / "run.html").read_text()


def _replay(path: Path, broken: tuple[str, str, int]) -> Path:
    from pytest_alias.tasks.suites import load_suite
    from pytest_alias.cir.conditions import random_condition

    lines = []
    for task in load_suite(str(path.parent / "suite")):
        conditions = {"original": task.original(), "random": random_condition(task, 0, verify=False).condition}
        for kind, condition in conditions.items():
            text = condition.module_map[condition.main]
            if (task.id, kind, 0) == broken:
                text = text.replace("==", "=", 1)  # no longer parses
            lines.append(json.dumps({"task": task.id, "condition": kind, "sample": 0, "text": text}))
    path.write_text("\n".join(lines) + "\n")
    return path


def test_replay_broken_output_fails_exactly_that_item(pytester: pytest.Pytester, small_suite: Path, cache_dir: Path,
                                                      tmp_path: Path) -> None:
    shutil.copytree(small_suite, tmp_path / "suite")
    replay = _replay(tmp_path / "outputs.jsonl", ("hour-clock", "random", 0))
    result = run(pytester, tmp_path / "suite", cache_dir, f"--alias-model=replay:{replay}", "--alias-samples=1",
                 "--alias-grade=parse")
    result.assert_outcomes(passed=len(SMALL) * 2 - 1, failed=1)
    result.stdout.fnmatch_lines(["*_ test_tla[[]hour_clock-random-s0[]] _*", "parse: SANY: parse error*"])


def test_xdist_aggregate_equals_serial(pytester: pytest.Pytester, small_suite: Path, cache_dir: Path, tmp_path: Path) -> None:
    shutil.copytree(small_suite, tmp_path / "suite")
    replay = _replay(tmp_path / "outputs.jsonl", ("barrier", "random", 0))
    aggregates = []
    for workers in ("0", "2"):
        report = tmp_path / f"n{workers}.json"
        run(pytester, tmp_path / "suite", cache_dir, f"--alias-model=replay:{replay}", "--alias-samples=1",
            "--alias-grade=name", "-n", workers, f"--alias-report={report}")
        aggregates.append(json.loads(report.read_text())["aggregate"])
    assert aggregates[0] == aggregates[1]
    assert aggregates[0]["models"][f"replay:{replay}"]["grades"]["name"]["decreases"]["random"]["now_fail"] == 1


def test_gates_decide_the_session(pytester: pytest.Pytester, small_suite: Path, cache_dir: Path, tmp_path: Path) -> None:
    shutil.copytree(small_suite, tmp_path / "suite")
    replay = _replay(tmp_path / "outputs.jsonl", ("barrier", "random", 0))
    common = (f"--alias-model=replay:{replay}", "--alias-samples=1", "--alias-grade=parse", "--alias-no-fail")
    ok = run(pytester, tmp_path / "suite", cache_dir, *common, "--alias-gate=parse.original>=90")
    assert ok.ret == 0, ok.stdout.str()
    ok.stdout.fnmatch_lines(["*gate parse.original>=90 holds*"])
    violated = run(pytester, tmp_path / "suite", cache_dir, *common, "--alias-gate=parse.decrease.mean<=1")
    assert violated.ret == pytest.ExitCode.TESTS_FAILED
    violated.stdout.fnmatch_lines(["*gate parse.decrease.mean<=1 VIOLATED*"])


def test_marker_selects_exactly_one_condition(pytester: pytest.Pytester, small_suite: Path, cache_dir: Path) -> None:
    result = run(pytester, small_suite, cache_dir, "--alias-model=reference", "--alias-samples=1", "--alias-grade=parse",
                 "-m", "alias(condition='random')")
    result.assert_outcomes(passed=len(SMALL), deselected=len(SMALL))


def test_remote_style_workers_with_tx(pytester: pytest.Pytester, small_suite: Path, cache_dir: Path, tmp_path: Path) -> None:
    report = tmp_path / "tx.json"
    result = run(pytester, small_suite, cache_dir, "--alias-model=reference", "--alias-samples=1", "--alias-grade=name",
                 "--tx", "2*popen", "--dist", "load", f"--alias-report={report}")
    result.assert_outcomes(passed=(len(SMALL) - 1) * 2, skipped=2)
    aggregate = json.loads(report.read_text())["aggregate"]
    assert aggregate["models"]["reference"]["grades"]["name"]["rates"]["random"]["mean"] == 1.0


def test_only_selected_cases_are_generated(pytester: pytest.Pytester, small_suite: Path, cache_dir: Path,
                                           tmp_path: Path) -> None:
    """-k deselection happens before generation: a paid model is asked only for what will run."""
    store = tmp_path / "store"
    result = run(pytester, small_suite, store, "--alias-model=fake", "--alias-samples=1", "--alias-grade=parse",
                 "--alias-no-fail", "-k", "barrier and original")
    result.assert_outcomes(passed=1, deselected=7)
    entries = list((store / "generations").glob("*/*.json"))
    assert len(entries) == 1


def test_covered_auto_adds_the_behavior_grades_covered_tasks(pytester: pytest.Pytester, small_suite: Path,
                                                             cache_dir: Path, tmp_path: Path) -> None:
    """--alias-covered=auto grades each reference against itself and reports the covered tasks with n."""
    report = tmp_path / "covered.json"
    result = run(pytester, small_suite, cache_dir, "--alias-model=reference", "--alias-samples=1",
                 "--alias-grade=behavior", "--alias-covered=auto", f"--alias-report={report}")
    assert result.ret == 0, result.stdout.str()
    covered = json.loads(report.read_text())["aggregate"]["models"]["reference"]["grades"]["behavior"]["covered"]
    assert covered["tasks"] == len(SMALL) - 1  # the task without a cfg cannot be covered
    assert covered["decreases"]["random"]["n"] == len(SMALL) - 1
    result.stdout.fnmatch_lines([f"*behavior (covered tasks)*100.0% (n={len(SMALL) - 1})*",
                                 "*behavior*random*covered tasks*+0.0*"])
    bad = run(pytester, small_suite, cache_dir, "--alias-model=reference", f"--alias-covered={tmp_path / 'no.json'}")
    assert bad.ret == 4


def test_a_report_that_cannot_be_written_fails_the_session(pytester: pytest.Pytester, small_suite: Path,
                                                           cache_dir: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = run(pytester, small_suite, cache_dir, "--alias-model=reference", "--alias-samples=1",
                 "--alias-grade=parse", f"--alias-report={blocker / 'r.json'}")
    # Refused at start-up, before any model is paid for (issue #48: report paths are checked first).
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*--alias-report {blocker / 'r.json'}: a part of its folder path is a file, not a folder*"])


def test_an_item_lost_to_a_crashed_worker_marks_the_reports_partial(pytester: pytest.Pytester, small_suite: Path,
                                                                    cache_dir: Path, tmp_path: Path) -> None:
    """xdist replaces a crashed worker and fails its item: the aggregate lacks that record, and says so."""
    # A plugin, not a conftest: the alias items live in the installed package, outside any conftest's reach.
    pytester.makepyfile(crasher=(
        "import os\n"
        "def pytest_runtest_call(item):\n"
        "    if 'original' in item.nodeid and os.environ.get('PYTEST_XDIST_WORKER'):\n"
        "        try:  # an exclusive create: exactly one worker crashes, however they interleave\n"
        f"            os.close(os.open({str(tmp_path / 'crashed')!r}, os.O_CREAT | os.O_EXCL | os.O_WRONLY))\n"
        "        except FileExistsError:\n"
        "            return\n"
        "        os._exit(1)\n"))
    report = tmp_path / "run.json"
    result = run(pytester, small_suite, cache_dir, "-p", "crasher", "--alias-model=reference", "--alias-grade=parse",
                 "--alias-samples=1", "-n", "2", f"--alias-report={report}", f"--alias-report={tmp_path / 'run.md'}")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*PARTIAL results (1 item(s) ended without a record)*"])
    metadata = json.loads(report.read_text())["metadata"]
    assert metadata["complete"] is False and len(metadata["items_without_record"]) == 1
    assert "PARTIAL results" in (tmp_path / "run.md").read_text()
