"""A TLC run waits for a core of its own; its time limit starts when it has one."""

from __future__ import annotations

import threading
import time
import uuid

import pytest

from pytest_alias.tla.runner import TlaTools
from pytest_alias.tla.slots import SLOTS_FOLDER, slot_count, tlc_slot
from specs import module


def test_a_run_waits_for_a_free_slot_and_its_limit_counts_its_own_work_only(
        tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ALIAS_TLC_SLOTS", "1")
    tools = TlaTools(cache_dir=tmp_path / "cache")
    # A fresh text (no cache hit) that TLC checks in well under its 3-s limit.
    spec = module("Small", f"EXTENDS Naturals\nVARIABLE x\n\\* {uuid.uuid4().hex}\nInit == x = 0\n"
                           "Next == x < 5 /\\ x' = x + 1", "INIT Init\nNEXT Next\n")
    tools.tlc(module("Warm", "VARIABLE y\nInit == y = 0\nNext == y' = y", "INIT Init\nNEXT Next\n"))  # JVM started
    held = threading.Event()
    done = threading.Event()

    def neighbour() -> None:  # another run of the same run holding the only core for 4 s
        with tlc_slot(tools.cache_dir / SLOTS_FOLDER):
            held.set()
            done.wait(4.0)

    thread = threading.Thread(target=neighbour)
    thread.start()
    held.wait(5.0)
    waited_before = tools.tool_seconds["tlc_slot_wait"]
    started = time.perf_counter()
    result = tools.tlc(spec, timeout=3, deadlock=False)
    elapsed = time.perf_counter() - started
    thread.join()
    assert result.status == "ok", result.explain()  # 4 s of waiting did not count against its 3-s limit
    assert elapsed >= 3.5 and tools.tool_seconds["tlc_slot_wait"] - waited_before >= 3.5


def test_the_slot_count_is_the_setting_or_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ALIAS_TLC_SLOTS", "3")
    assert slot_count() == 3
    monkeypatch.setenv("ALIAS_TLC_SLOTS", "zero")
    assert slot_count() >= 1
    monkeypatch.delenv("ALIAS_TLC_SLOTS")
    assert slot_count() >= 1


def test_a_folder_that_cannot_hold_locks_runs_without_a_slot(tmp_path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with tlc_slot(blocker / "slots") as waited:
        assert waited == 0.0
