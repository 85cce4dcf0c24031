"""One TLC run per core at a time, across every process and thread of a run.

A TLC run's time limit (the paper's 300 s) is meant to bound the run's own work. A run shares the
machine with the other xdist workers' runs, the items' self-checks made beside their grades and the
controller's background self-checks; with more runs than cores, each gets a share of a core, and a
check that needs 200 s alone runs past 300 s. Whether it does then depends on what else happened to
run, so the verdict (and its reason) would too. Holding each run to a slot — one of as many as the
machine has cores, taken as a lock file in the run's cache folder — keeps every run on a core of
its own, so the limit says the same thing on a busy run as on a quiet one. The CPU stays as busy:
a run that waits does so only while others use every core.

A freed slot goes to the waiting run with the longest expected check (the launcher's expectation:
the reference's own check, or a look ahead that saw the output's check run long), earliest first
among equals, so a 300-s check is not left waiting behind a queue of short ones and then ends the run
alone. Each waiting run leaves a ticket (its priority, when it came, its process) in the slots folder and
refreshes it while it waits; a run tries the locks only while no fresh ticket outranks its own.

Only TLC takes a slot: SANY's runs are short and far inside their limit. The look ahead's runs
(:mod:`pytest_alias.run.probe`) take none either: one thread, each run stopped after a few seconds,
so at most one run beyond the cores, briefly.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from pathlib import Path
from typing import Iterator

from filelock import FileLock, Timeout

#: How many TLC runs may run at once (default: the machine's cores).
SLOTS_ENV = "ALIAS_TLC_SLOTS"
#: The slots' lock files, under the run's cache folder (every process of a run shares it).
SLOTS_FOLDER = "slots"
#: The waiting runs' tickets, under the slots folder.
TICKETS_FOLDER = "waiting"
#: A ticket not refreshed for this long is ignored (its waiter refreshes it every poll).
STALE_SECONDS = 5.0
#: How often a run waiting for a slot tries again (seconds): short beside a TLC run, cheap to poll.
POLL_SECONDS = 0.05


def machine_cores() -> int:
    """The cores this process may run on (its CPU affinity where the platform says, else all)."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


def slot_count() -> int:
    """The number of slots: ``ALIAS_TLC_SLOTS`` when it is a positive integer, else the cores."""
    given = os.environ.get(SLOTS_ENV, "").strip()
    if given.isdigit() and int(given) > 0:
        return int(given)
    return machine_cores()


class Ticket:
    """A waiting run's place in line: a file ``PRIORITY_NANOS_PID_THREAD.wait`` under the tickets folder."""

    def __init__(self, folder: Path, priority: float) -> None:
        written = f"{max(0.0, priority):.3f}"
        # Ranked as the others read it back: ranked unrounded, two tickets written with one priority
        # would each stand behind the other for ever.
        self.priority = float(written)
        self.since = time.time_ns()
        self.path = folder / f"{written}_{self.since}_{os.getpid()}_{threading.get_ident()}.wait"
        self.path.write_bytes(b"")

    def outranked(self) -> bool:
        """Whether a fresh ticket waits with a longer expected check, or as long and since earlier."""
        mine = (-self.priority, self.since)
        for other in self.path.parent.glob("*.wait"):
            if other == self.path:
                continue
            rank = _ticket_rank(other)
            if rank is not None and rank < mine:
                return True
        return False

    def refresh(self) -> None:
        """Show this run still waits (a ticket no one refreshes for :data:`STALE_SECONDS` is ignored)."""
        try:
            self.path.touch()
        except OSError:
            pass

    def withdraw(self) -> None:
        self.path.unlink(missing_ok=True)


def _ticket_rank(path: Path) -> tuple[float, int] | None:
    """A ticket's rank (lower goes first), or None for a name that is not a ticket's or a ticket its run
    stopped refreshing (killed while it waited, or stuck elsewhere: removed, so it holds no one back)."""
    try:
        priority, since, _, _ = path.stem.split("_")
        rank = (-float(priority), int(since))
        if time.time() - path.stat().st_mtime > STALE_SECONDS:
            path.unlink(missing_ok=True)
            return None
    except (ValueError, OSError):
        return None
    return rank


def _ticket(folder: Path, priority: float) -> Ticket | None:
    """A ticket in ``folder`` (None where it cannot be written: the run then waits without one)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        return Ticket(folder, priority)
    except OSError:
        return None


@contextlib.contextmanager
def tlc_slot(folder: Path, priority: float = 0.0) -> Iterator[float]:
    """Hold one of the slots under ``folder`` for the block; yields the seconds spent waiting for it.
    ``priority``: the run's expected seconds (a longer one is served first). A folder that cannot hold
    lock files (a read-only cache) runs the block without a slot."""
    started = time.perf_counter()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        yield 0.0
        return
    locks = [FileLock(str(folder / f"slot-{index}.lock"), thread_local=False) for index in range(slot_count())]
    # In line before the first try, so that a run just come does not take a slot a longer one waits for.
    ticket = _ticket(folder / TICKETS_FOLDER, priority)
    try:
        lock: FileLock | None = _wait_for_slot(locks, ticket)
    except OSError:  # the lock files cannot be made: no slot, as for an unusable folder
        lock = None
    finally:
        if ticket is not None:
            ticket.withdraw()
    if lock is None:
        yield 0.0
        return
    try:
        yield time.perf_counter() - started
    finally:
        lock.release()


def _wait_for_slot(locks: list[FileLock], ticket: Ticket | None) -> FileLock:
    """Take the first free slot once no fresh ticket outranks ``ticket`` (refreshed meanwhile)."""
    while True:
        if ticket is not None:
            ticket.refresh()
        if ticket is None or not ticket.outranked():
            for lock in locks:
                try:
                    lock.acquire(timeout=0)
                except Timeout:
                    continue
                return lock
        time.sleep(POLL_SECONDS)
