"""One TLC run per core at a time, across every process and thread of a run.

A TLC run's time limit (the paper's 300 s) is meant to bound the run's own work. A run shares the
machine with the other xdist workers' runs, the items' self-checks made beside their grades and the
controller's background self-checks; with more runs than cores, each gets a share of a core, and a
check that needs 200 s alone runs past 300 s. Whether it does then depends on what else happened to
run, so the verdict (and its reason) would too. Holding each run to a slot — one of as many as the
machine has cores, taken as a lock file in the run's cache folder — keeps every run on a core of
its own, so the limit says the same thing on a busy run as on a quiet one. The CPU stays as busy:
a run that waits does so only while others use every core.

Only TLC takes a slot: SANY's runs are short and far inside their limit.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path
from typing import Iterator

from filelock import FileLock, Timeout

#: How many TLC runs may run at once (default: the machine's cores).
SLOTS_ENV = "ALIAS_TLC_SLOTS"
#: The slots' lock files, under the run's cache folder (every process of a run shares it).
SLOTS_FOLDER = "slots"
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


@contextlib.contextmanager
def tlc_slot(folder: Path) -> Iterator[float]:
    """Hold one of the slots under ``folder`` for the block; yields the seconds spent waiting for it. A
    folder that cannot hold lock files (a read-only cache) runs the block without a slot."""
    started = time.perf_counter()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        yield 0.0
        return
    locks = [FileLock(str(folder / f"slot-{index}.lock"), thread_local=False) for index in range(slot_count())]
    while True:
        for lock in locks:
            try:
                lock.acquire(timeout=0)
            except Timeout:
                continue
            except OSError:  # the lock file cannot be made: no slot, as for an unusable folder
                yield 0.0
                return
            try:
                yield time.perf_counter() - started
            finally:
                lock.release()
            return
        time.sleep(POLL_SECONDS)
