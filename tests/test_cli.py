"""The ``tla-alias`` command: doctor and check, JSON output, one-sentence errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import BUILTIN_TASKS
from pytest_alias.cli import main


def alias(*args: str, cwd: Path | None = None, env: dict | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest_alias", *args], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=300)


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_doctor_reports_and_succeeds(tmp_path: Path) -> None:
    proc = alias("--cache-dir", str(tmp_path), "doctor")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for word in ("java", "tla2tools.jar", "launcher", "cache", "tree-sitter-tlaplus", "toolchain works"):
        assert word in proc.stdout


def test_check_json_on_builtin_task(tmp_path: Path) -> None:
    proc = alias("--cache-dir", str(tmp_path), "check", str(BUILTIN_TASKS / "barrier" / "Barrier.tla"), "--json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["parse"] == {"ok": True, "errors": []}
    assert report["tlc"]["status"] == "ok" and report["tlc"]["distinct_states"] > 0
    assert set(report["tlc"]) == {"status", "distinct_states", "states_generated", "depth", "violated", "seconds"}


def test_check_json_parse_failure_has_null_tlc(tmp_path: Path) -> None:
    module = write(tmp_path / "U.tla", "---- MODULE U ----\nVARIABLE x\nInit == x = Foo\n====\n")
    write(tmp_path / "U.cfg", "INIT Init\n")
    proc = alias("--cache-dir", str(tmp_path / "c"), "check", str(module), "--json")
    assert proc.returncode == 1
    report = json.loads(proc.stdout)
    assert report["parse"]["ok"] is False and report["tlc"] is None
    assert "Foo" in report["parse"]["errors"][0]


def test_check_json_invariant_violation(tmp_path: Path) -> None:
    module = write(tmp_path / "V.tla", "---- MODULE V ----\nEXTENDS Naturals\nVARIABLE x\nInit == x = 0\n"
                                         "Next == x' = (x + 1) % 4\nInv == x < 3\n====\n")
    write(tmp_path / "other.cfg", "INIT Init\nNEXT Next\nINVARIANT Inv\n")
    proc = alias("--cache-dir", str(tmp_path / "c"), "check", str(module), "--cfg", str(tmp_path / "other.cfg"), "--json")
    report = json.loads(proc.stdout)
    assert proc.returncode == 1
    assert report["tlc"]["status"] == "invariant_violation" and report["tlc"]["violated"] == "Inv"


@pytest.mark.parametrize(
    "name, text, cfg, fragment",
    [
        ("Missing", None, None, "no such file"),
        ("NoHeader", "VARIABLE x\n", None, "no '---- MODULE"),
        ("Named", "---- MODULE Other ----\n====\n", None, "named Other"),
        ("Kw", "---- MODULE Kw ----\nVARIABLE x\nInit == x = 0\nNext == x' = x\n====\n", "INIT Init\nFROB x\n", "FROB"),
    ],
)
def test_bad_input_is_one_sentence(tmp_path: Path, name: str, text: str | None, cfg: str | None, fragment: str) -> None:
    module = tmp_path / f"{name}.tla"
    if text is not None:
        write(module, text)
    if cfg is not None:
        write(tmp_path / f"{name}.cfg", cfg)
    proc = alias("--cache-dir", str(tmp_path / "c"), "check", str(module))
    assert proc.returncode != 0
    message = proc.stderr.strip() or proc.stdout.strip()
    assert "Traceback" not in proc.stderr
    assert fragment in message


def test_non_identifier_module_name(tmp_path: Path) -> None:
    module = write(tmp_path / "a-b.tla", "---- MODULE a-b ----\n====\n")
    proc = alias("check", str(module))
    assert proc.returncode == 2 and "identifier" in proc.stderr and "Traceback" not in proc.stderr


def test_missing_java_is_one_sentence(tmp_path: Path) -> None:
    import os

    env = {**os.environ, "ALIAS_JAVA": str(tmp_path / "nojava")}
    proc = alias("check", str(BUILTIN_TASKS / "barrier" / "Barrier.tla"), env=env)
    assert proc.returncode == 2 and "ALIAS_JAVA" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("argv", [
    ["check", "M.tla", "--timeout", "-1"], ["check", "M.tla", "--timeout", "nan"], ["check", "M.tla", "--timeout", "inf"],
    ["check", "M.tla", "--workers", "0"], ["grade", "--reference", "R.tla", "--output", "o", "--grade", "name",
                                           "--timeout", "0"],
    ["split", "builtin", "--out", "s.json", "--pool-size", "-2"],
    ["finetune", "--base", "smollm2", "--split", "s", "--half", "A", "--out", "d", "--learning-rate", "nan"],
    ["likelihood", "--model", "smollm2", "--out", "l.jsonl", "--batch-size", "0"],
    ["report", "r.json", "--resamples", "5"],
])
def test_bad_numbers_are_a_usage_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    assert "must be" in capsys.readouterr().err


@pytest.mark.parametrize("argv, limit", [
    (["build", "builtin", "--out", "set", "--rename-seeds", "1000000000"], "at most 100 (the limit)"),
    (["report", "r.json", "--resamples", "1000000000"], "at most 1,000,000 (the limit)"),
    (["exposure", "r.json", "--resamples", "1000001"], "at most 1,000,000 (the limit)"),
    (["validate-grader", "builtin", "--mutant-limit", "99999999"], "at most 10,000 (the limit)"),
    (["check", "M.tla", "--workers", "100000"], "at most 256 (the limit)"),
    (["rename", "M.tla", "--out", "o", "--seed", str(2**64)], "at most 9,223,372,036,854,775,807 (the limit)"),
])
def test_every_count_is_bounded_with_its_limit_named(argv: list[str], limit: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """10**9 renaming seeds once took 10 GB with no output: each count is refused above its limit, at once."""
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and limit in err and "Traceback" not in err


def test_an_unwritable_out_folder_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    module = tmp_path / "M.tla"
    module.write_text("---- MODULE M ----\nVARIABLE x\nInit == x = 0\nNext == x' = x\n====\n")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["rename", str(module), "--out", str(blocker / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tla-alias: ") and err.count("\n") == 1 and "Traceback" not in err


def test_a_malformed_cfg_is_named_with_its_file_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    module = tmp_path / "M.tla"
    module.write_text("---- MODULE M ----\nVARIABLE x\nInit == x = 0\nNext == x' = x\n====\n")
    (tmp_path / "M.cfg").write_text("INIT Init\nNEXT Next\nBOGUS x\n")
    assert main(["check", str(module)]) == 2
    assert capsys.readouterr().err.strip() == f"tla-alias: {tmp_path / 'M.cfg'}: line 3: unknown keyword 'BOGUS'"


def test_every_subcommand_names_a_function_that_exists() -> None:
    """A handler named by string (loaded on dispatch) must resolve: a typo would show only when run."""
    import argparse

    from pytest_alias.cli import build_parser, command_function

    [commands] = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    for name, parser in commands.choices.items():
        function = command_function(parser.get_default("handler"))
        assert callable(function) and function.__name__ == f"cmd_{name.replace('-', '_')}", name
