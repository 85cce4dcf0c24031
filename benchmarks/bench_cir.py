"""Cost of consistent identifier renaming: pure-Python renaming per module, and `build` with 1 vs N workers.

    python benchmarks/bench_cir.py [--suite builtin] [--workers 2]

Renaming is timed over every task of the suite (median and maximum per spec, after one warm-up
pass). The build is timed with a fresh run cache each time (every TLC run is real), with one worker
and with N, and reported as a ratio.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from pytest_alias.cir.build import build_test_set
from pytest_alias.cir.rename import random_renaming
from pytest_alias.tasks.suites import load_suite
from pytest_alias.tla.runner import TlaTools


def rename_times(tasks: list) -> list[float]:
    for task in tasks:  # warm-up: tree-sitter grammar load, word lists
        random_renaming(task.module_map, task.cfg, 0)
    times = []
    for task in tasks:
        start = time.perf_counter()
        random_renaming(task.module_map, task.cfg, 1)
        times.append(time.perf_counter() - start)
    return times


def build_seconds(tasks: list, workers: int) -> float:
    with tempfile.TemporaryDirectory() as scratch:
        tools = TlaTools(cache_dir=Path(scratch) / "cache")
        start = time.perf_counter()
        summary = build_test_set(tasks, Path(scratch) / "out", seed=1, workers=workers, tools=tools)
        assert summary.counts()["verified"] == len(tasks)
        return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="builtin")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    tasks = load_suite(args.suite)
    times = rename_times(tasks)
    print(f"renaming {len(tasks)} specs: median {statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms")
    one = build_seconds(tasks, 1)
    many = build_seconds(tasks, args.workers)
    print(f"tla-alias build {args.suite}: {one:.1f} s with 1 worker, {many:.1f} s with {args.workers} (x{many / one:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
