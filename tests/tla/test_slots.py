"""A TLC run waits for a core of its own; its time limit starts when it has one."""

from __future__ import annotations

import os
import threading
import time
import uuid
from pathlib import Path

import pytest

from pytest_alias.tla.runner import TlaTools
from pytest_alias.tla.slots import SLOTS_FOLDER, STALE_SECONDS, TICKETS_FOLDER, slot_count, tlc_slot
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


def _served_in_turn(folder: Path, waiters: list[tuple[str, float]]) -> list[str]:
    """The order in which runs ``waiters`` (name, expected seconds), come one after another while the
    only slot is held, get it once it is freed."""
    served: list[str] = []
    release, held = threading.Event(), threading.Event()

    def holder() -> None:
        with tlc_slot(folder):
            held.set()
            release.wait(10.0)

    def waiter(name: str, priority: float) -> None:
        with tlc_slot(folder, priority):
            served.append(name)

    threads = [threading.Thread(target=holder)]
    threads[0].start()
    assert held.wait(5.0)
    for name, priority in waiters:
        threads.append(threading.Thread(target=waiter, args=(name, priority)))
        threads[-1].start()
        time.sleep(0.3)
    assert served == [] and len(list((folder / TICKETS_FOLDER).glob("*.wait"))) == len(waiters)
    release.set()
    for thread in threads:
        thread.join(10.0)
    assert list((folder / TICKETS_FOLDER).glob("*.wait")) == []  # every ticket withdrawn
    return served


def test_a_freed_slot_goes_to_the_longest_expected_check_first(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ALIAS_TLC_SLOTS", "1")
    # A short check comes first, then a long one, then another short one.
    served = _served_in_turn(tmp_path / SLOTS_FOLDER, [("short", 1.0), ("long", 300.0), ("short too", 1.0)])
    assert served == ["long", "short", "short too"]


def test_a_ticket_no_one_refreshes_holds_no_one_back(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ALIAS_TLC_SLOTS", "1")
    tickets = tmp_path / SLOTS_FOLDER / TICKETS_FOLDER
    tickets.mkdir(parents=True)
    stale = tickets / "inf_1_999999_1.wait"  # a run killed while it waited for a slot
    stale.write_bytes(b"")
    then = time.time() - STALE_SECONDS - 1
    os.utime(stale, (then, then))
    with tlc_slot(tmp_path / SLOTS_FOLDER, 0.0) as waited:
        assert waited < 2.0
    assert not stale.exists()
    fresh = tickets / "inf_1_999999_1.wait"  # a fresh ticket of a longer check holds it back until stale
    fresh.write_bytes(b"")
    started = time.perf_counter()
    with tlc_slot(tmp_path / SLOTS_FOLDER, 0.0):  # waits until it is no longer fresh
        assert time.perf_counter() - started >= STALE_SECONDS - 1


def test_two_runs_expected_as_long_both_get_the_slot_in_turn(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    # 0.1446 s is written as 0.145 in a ticket's name: each must rank itself as the other reads it, or
    # both wait behind each other for ever (seen in a run before the rank was read back from the name).
    monkeypatch.setenv("ALIAS_TLC_SLOTS", "1")
    assert _served_in_turn(tmp_path / SLOTS_FOLDER, [("first", 0.1446), ("second", 0.1446)]) == ["first", "second"]
