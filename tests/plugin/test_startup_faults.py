"""Faults of the machine stop a run at start-up in one line, never as a traceback (issue #26)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from pytest_alias.tla.toolchain import find_toolchain

pytest_plugins = ["pytester"]


def run(pytester: pytest.Pytester, suite: Path, cache: Path, *args: str) -> pytest.RunResult:
    return pytester.runpytest_subprocess(f"--alias-suite={suite}", f"--alias-cache-dir={cache}", "-p", "no:cacheprovider",
                                         "--alias-model=reference", "--alias-samples=1", "--alias-grade=parse", *args,
                                         timeout=300)


def test_a_jar_the_launcher_cannot_drive_stops_the_run_in_one_line(pytester: pytest.Pytester, small_suite: Path,
                                                                   tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    jar = tmp_path / "tla2tools.jar"
    with zipfile.ZipFile(find_toolchain().jar.path) as source, zipfile.ZipFile(jar, "w") as out:
        for info in source.infolist():
            if not info.filename.startswith("tla2sany/drivers/"):
                out.writestr(info, source.read(info))
    monkeypatch.setenv("ALIAS_TLA2TOOLS", str(jar))
    result = run(pytester, small_suite, tmp_path / "cache")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{jar} cannot be driven by the * launcher: *"])
    assert "Traceback" not in result.stderr.str() and "INTERNALERROR" not in result.stdout.str()


def test_a_jvm_that_cannot_start_stops_the_run_in_one_line(pytester: pytest.Pytester, small_suite: Path,
                                                           tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ALIAS_JAVA_HEAP", "999999999t")  # a valid shape no JVM can reserve
    result = run(pytester, small_suite, tmp_path / "cache")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*cannot be driven by the * launcher: *"])
    assert "Traceback" not in result.stderr.str() and "INTERNALERROR" not in result.stdout.str()


@pytest.mark.parametrize("where", ["folder", "missing-parent-is-a-file", "proc"])
def test_save_outputs_is_checked_before_any_generation(where: str, pytester: pytest.Pytester, small_suite: Path,
                                                       tmp_path: Path) -> None:
    target = tmp_path / "out"
    target.mkdir()
    if where == "missing-parent-is-a-file":
        (tmp_path / "file").write_text("x")
        target = tmp_path / "file" / "outputs.jsonl"
    elif where == "proc":  # a system path: never a place for outputs (issue 48)
        target = Path("/proc/self/outputs.jsonl")
    result = run(pytester, small_suite, tmp_path / "cache", "--alias-model=fake", f"--alias-save-outputs={target}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*--alias-save-outputs {target}: *"])
    assert not (tmp_path / "cache" / "generations").exists(), "nothing generated"
