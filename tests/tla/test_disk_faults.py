"""What a run writes to disk is budgeted, and a disk that cannot be written is the machine's fault, never
a spec's verdict (issue #48: a full TMPDIR was cached as the reference's parse error; a wide state
space wrote 902 MB of TLC's state queue in 90 s)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from pytest_alias.tla import streams
from pytest_alias.tla.launcher import ToolRunError
from pytest_alias.tla.runner import TlaTools
from pytest_alias.tla.streams import budgets, disk_fault, tree_size
from specs import counter, module

#: Two million initial states: TLC's breadth-first queue overflows its memory buffer onto disk at once.
WIDE = module("Wide", "EXTENDS Naturals\nVARIABLE x\nInit == x \\in 1..2000000\nNext == x' = x",
              "INIT Init\nNEXT Next\n")
SMALL = counter("CONSTANT Max = 3\nINIT Init\nNEXT Next\nINVARIANT TypeOK\n")


def _cached_entries(cache: Path) -> list[Path]:
    return [path for path in (cache / "runs").rglob("*.json")] if (cache / "runs").is_dir() else []


@pytest.mark.parametrize("launcher", ["fresh", "server"])
def test_a_state_queue_that_outgrows_the_disk_budget_is_stopped(launcher: str, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ALIAS_DISK_LIMIT_MB", "4")
    tools = TlaTools(cache_dir=tmp_path, use_cache=False, launcher=launcher)
    if tools.launcher.kind != launcher:
        pytest.skip(f"no tool server here: {tools.launcher.note}")
    start = time.perf_counter()
    result = tools.tlc(WIDE, deadlock=False, timeout=240)
    assert time.perf_counter() - start < 120, "stopped at the budget, not at the time limit"
    assert result.status == "too_large"
    assert result.message == ("the files TLC kept on disk (its state queue and fingerprints) exceeded 4 MB "
                              "(ALIAS_DISK_LIMIT_MB)")


def test_the_disk_budget_is_a_setting_recorded_with_the_others(monkeypatch: pytest.MonkeyPatch) -> None:
    assert budgets().to_record()["disk_mb"] == streams.DEFAULT_DISK_MB
    monkeypatch.setenv("ALIAS_DISK_LIMIT_MB", "lots")
    with pytest.raises(ValueError, match="ALIAS_DISK_LIMIT_MB must be a whole number"):
        budgets()


def test_tree_size_counts_every_file_below_the_folders(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "one").write_bytes(b"x" * 100)
    (tmp_path / "a" / "b" / "two").write_bytes(b"y" * 50)
    assert tree_size(tmp_path / "a") == 150
    assert tree_size(tmp_path / "missing") == 0


def test_disk_fault_tells_the_machine_from_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert disk_fault(tmp_path, 0) is None
    assert "disappeared" in (disk_fault(tmp_path / "gone", 0) or "")

    class Full:
        f_bavail, f_frsize = 10, 4096

    monkeypatch.setattr(streams.os, "statvfs", lambda path: Full())
    assert "is full" in (disk_fault(tmp_path, 0) or "")
    # A run that filled the disk with its own files is its spec's doing (the disk budget says so).
    assert disk_fault(tmp_path, budgets().disk_bytes) is None


@pytest.mark.parametrize("tool", ["sany", "tlc"])
def test_a_full_disk_is_a_grader_fault_never_cached_and_the_next_run_grades_again(
        tool: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tools = TlaTools(cache_dir=tmp_path)

    def run() -> object:
        return tools.sany(SMALL) if tool == "sany" else tools.tlc(SMALL, deadlock=False)

    class Full:
        f_bavail, f_frsize = 0, 4096

    real_statvfs = os.statvfs
    monkeypatch.setattr(streams.os, "statvfs", lambda path: Full())
    with pytest.raises(ToolRunError, match="is full"):
        run()
    assert not _cached_entries(tmp_path), "a machine fault is never cached"
    monkeypatch.setattr(streams.os, "statvfs", real_statvfs)
    result = run()
    assert getattr(result, "ok"), "the next run grades again, from the tools"
    assert not getattr(result, "cached")


def test_a_temporary_folder_that_cannot_be_written_is_a_grader_fault(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_open = builtins.open

    def failing_open(file: object, mode: str = "r", *args: object, **kwargs: object) -> object:
        if str(file).endswith(".alias-write-check"):
            raise OSError(30, "Read-only file system")
        return real_open(file, mode, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(builtins, "open", failing_open)
    with pytest.raises(ToolRunError, match="cannot be written"):
        TlaTools(cache_dir=tmp_path).sany(SMALL)
    assert not _cached_entries(tmp_path)
