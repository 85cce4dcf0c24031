"""One run, one pipeline: not-gradeable tasks skip, the report renders the summary's numbers, and
xdist workers grade a run without any of the controller's files."""

from __future__ import annotations

import json
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import BUILTIN_TASKS
from pytest_alias.cli import main

pytest_plugins = ["pytester"]

#: Built-in tasks the behavior grade covers.
TASKS = ("barrier", "die-hard", "hour-clock")
#: A constant-only model (ASSUMEs checked, no behaviors): TLC checks it, the name grade passes it, and
#: the behavior grade cannot judge it (its reference fails against itself: nothing to compare).
CONSTANT_ONLY = {
    "Sizes.tla": "---- MODULE Sizes ----\nEXTENDS Naturals\nCONSTANTS Width, Height\nArea == Width * Height\n"
                 "ASSUME Width \\in 1..10 /\\ Height \\in 1..10\nASSUME Area <= 100\n====\n",
    "Sizes.cfg": "CONSTANTS\n  Width = 4\n  Height = 5\n",
    "description.md": "Write a TLA+ module Sizes with two constants, Width and Height, both between 1 and 10, and "
                      "an operator Area for their product. Assume the area is at most 100.\n",
    "task.toml": 'id = "constants-only"\ntitle = "Constants only"\nmain = "Sizes"\nmodules = ["Sizes.tla"]\n'
                 'cfg = "Sizes.cfg"\ndescription = "description.md"\nsource = "ALIAS test"\nlicense = "MIT"\n',
}


def _suite(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name in TASKS:
        shutil.copytree(BUILTIN_TASKS / name, root / name)
    (root / "constants-only").mkdir()
    for name, text in CONSTANT_ONLY.items():
        (root / "constants-only" / name).write_text(text)
    return root


def _run(pytester: pytest.Pytester, suite: Path, cache: Path, *args: str) -> pytest.RunResult:
    return pytester.runpytest_subprocess(f"--alias-suite={suite}", f"--alias-cache-dir={cache}", "-p", "no:cacheprovider",
                                         "-rs", *args, timeout=900)


@pytest.fixture(scope="module")
def controller(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The controller's folder: the suite, its cache and replay files (workers may not see it)."""
    root = tmp_path_factory.mktemp("controller")
    _suite(root / "suite")
    return root


@pytest.mark.slow
def test_positive_control_skips_what_the_behavior_grade_cannot_judge(pytester: pytest.Pytester, controller: Path) -> None:
    """The reference passes every grade it can be judged by; the constant-only task's behavior grade is
    skipped with its reason (not failed), and the run exits 0."""
    result = _run(pytester, controller / "suite", controller / "cache", "--alias-model=reference", "--alias-grade=all",
                  "--alias-samples=1", "-n", "2")
    assert result.ret == 0, result.stdout.str()
    result.assert_outcomes(passed=6, skipped=2)  # the constant-only task skips in both conditions
    result.stdout.fnmatch_lines(["*not gradeable by behavior*1 task (constants-only), 2 samples*",
                                 "*SKIPPED*behavior: not gradeable*"])
    assert "FAILED" not in result.stdout.str()


def _mixed_replay(reference_file: Path, out: Path) -> None:
    """The reference's outputs, with designed failures: barrier's renamed answer and die-hard's first
    original answer are wrong, so rates and decreases are not all 100 / 0."""
    lines = []
    for line in reference_file.read_text().splitlines():
        entry = json.loads(line)
        if (entry["task"], entry["condition"]) == ("barrier", "random") or \
                (entry["task"], entry["condition"], entry["sample"]) == ("die-hard", "original", 0):
            entry["text"] = "---- MODULE Nope ----\nVARIABLE x\nInit == x = 0\nNext == x' = x + 1\n===="
        lines.append(json.dumps(entry))
    out.write_text("\n".join(lines) + "\n")


def _summary(stdout: str) -> list[str]:
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if "alias summary" in line)
    end = next(i for i, line in enumerate(lines) if line.startswith("outcomes ("))
    return lines[start + 1:end]


@pytest.mark.slow
def test_report_renders_every_number_the_summary_printed(pytester: pytest.Pytester, controller: Path,
                                                        tmp_path: Path) -> None:
    saved = controller / "reference.jsonl"
    first = _run(pytester, controller / "suite", controller / "cache", "--alias-model=reference", "--alias-grade=parse",
                 "--alias-samples=2", f"--alias-save-outputs={saved}")
    assert first.ret == 0, first.stdout.str()
    replay = controller / "mixed.jsonl"
    _mixed_replay(saved, replay)
    run_json = tmp_path / "run.json"
    result = _run(pytester, controller / "suite", controller / "cache", f"--alias-model=replay:{replay}",
                  "--alias-grade=all", "--alias-samples=2", "--alias-covered=auto", "--alias-no-fail",
                  "--alias-resamples=500", f"--alias-report={run_json}")
    assert result.ret == 0, result.stdout.str()
    summary = _summary(result.stdout.str())
    assert any("(covered tasks)" in line for line in summary)

    out = tmp_path / "report"
    assert main(["report", str(run_json), "--out", str(out)]) == 0
    run = json.loads(run_json.read_text())
    rendered = json.loads((out / "report.json").read_text())
    assert rendered["aggregate"] == run["aggregate"]  # the same numbers, covered rows included
    assert run["metadata"]["coverage"]["covered"] == ["barrier", "die-hard", "hour-clock"]
    assert run["metadata"]["coverage"]["not_gradeable"].keys() == {"constants-only"}
    markdown = (out / "report.md").read_text()
    rows = {tuple(cell.strip() for cell in line.strip("|").split("|")) for line in markdown.splitlines()
            if line.startswith("|")}
    numbers = re.compile(r"[+-]?\d+\.\d%?(?: \(n=\d+\))?")
    checked = 0
    for line in summary:  # every rate and decrease row of the summary is a row of the report, cell for cell
        cells = tuple(re.split(r"\s{2,}", line.strip()))
        if len(cells) > 2 and numbers.search(line) and not set(line) <= {"-", " "}:
            assert cells in rows, f"summary row missing from the report: {line}"
            checked += 1
    assert checked >= 10


def _wrapper(tmp_path: Path, hidden: Path) -> Path:
    """A Python for xdist's ``popen//python=`` that runs in its own mount namespace, where
    ``hidden`` (the controller's folder) is an empty private folder."""
    script = tmp_path / "private-python"
    script.write_text(f"#!/bin/sh\nexec unshare -m /bin/sh -c 'mount -t tmpfs tmpfs \"{hidden}\" && "
                      f"exec \"{sys.executable}\" \"$@\"' private-python \"$@\"\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def _can_unshare() -> bool:
    try:
        return subprocess.run(["unshare", "-m", "true"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def _verdicts(report: Path) -> dict[str, tuple]:
    return {r["id"]: (r["outcome"], tuple((g, e["passed"], bool(e.get("not_gradeable"))) for g, e in r["grades"].items()))
            for r in json.loads(report.read_text())["records"]}


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="mount namespaces are Linux's")
def test_workers_without_the_controllers_files_grade_the_same(pytester: pytest.Pytester, tmp_path: Path) -> None:
    """Workers whose view of the controller's folder (suite, cache, replay file) is an empty private
    folder get the conditions, texts and self-checks through xdist, and give the local verdicts."""
    if not _can_unshare():
        pytest.skip("unshare -m is not permitted here (needs root or user namespaces)")
    hidden = tmp_path / "controller"
    suite = _suite(hidden / "suite")
    saved = hidden / "reference.jsonl"
    first = _run(pytester, suite, hidden / "cache", "--alias-model=reference", "--alias-grade=parse",
                 f"--alias-save-outputs={saved}")
    assert first.ret == 0, first.stdout.str()
    replay = hidden / "mixed.jsonl"
    _mixed_replay(saved, replay)
    common = (f"--alias-model=replay:{replay}", "--alias-grade=all", "--alias-no-fail", "--alias-resamples=200")
    local = _run(pytester, suite, hidden / "cache", *common, f"--alias-report={tmp_path / 'local.json'}")
    assert local.ret == 0, local.stdout.str()
    python = _wrapper(tmp_path, hidden)
    remote = _run(pytester, suite, hidden / "cache", *common, f"--alias-report={tmp_path / 'remote.json'}",
                  "--tx", f"2*popen//python={python}", "--dist", "load")
    assert remote.ret == 0, remote.stdout.str() + remote.stderr.str()
    assert _verdicts(tmp_path / "remote.json") == _verdicts(tmp_path / "local.json")
    # the workers really could not see the replay file: a worker that reads it directly fails
    probe = subprocess.run([str(python), "-c", f"import os; print(os.path.exists({str(replay)!r}))"],
                           capture_output=True, text=True, timeout=60)
    assert probe.stdout.strip() == "False", probe.stderr
