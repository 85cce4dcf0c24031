"""Launch cost of one TLC check on a tiny spec, per launch path, as ratios to a plain fresh JVM.

    python benchmarks/bench_toolchain.py [--runs N] [--json]

Measured in one process, one after another, on the same spec: a fresh JVM per check (the baseline),
a fresh JVM with the dynamic AppCDS archive, the long-lived tool server, and a run-cache hit.
Each figure is the median wall time of ``TlaTools.tlc`` over N runs after one warm-up run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

from pytest_alias.tla.runner import TlaTools
from pytest_alias.tla.specfiles import SpecFiles

TINY = SpecFiles(
    "Tiny",
    {"Tiny": "---- MODULE Tiny ----\nEXTENDS Naturals\nVARIABLE x\nInit == x = 0\nNext == x' = (x + 1) % 12\n"
             "TypeOK == x \\in 0..11\n====\n"},
    "INIT Init\nNEXT Next\nINVARIANT TypeOK\n",
)


def median_seconds(check: Callable[[], object], runs: int) -> float:
    check()  # warm-up: builds the CDS archive / starts the server / fills the cache
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        check()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def measure(runs: int) -> dict[str, float]:
    results: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as cache:
        def tools(launcher: str, use_cache: bool = False) -> TlaTools:
            return TlaTools(cache_dir=Path(cache), use_cache=use_cache, launcher=launcher)

        os.environ["ALIAS_CDS"] = "off"
        plain = tools("fresh")
        results["fresh JVM"] = median_seconds(lambda: plain.tlc(TINY), runs)
        os.environ.pop("ALIAS_CDS")
        cds = tools("fresh")
        results["fresh JVM + AppCDS"] = median_seconds(lambda: cds.tlc(TINY), runs)
        server = tools("auto")
        if server.launcher.kind == "server":
            results["tool server"] = median_seconds(lambda: server.tlc(TINY), runs)
        cached = tools("auto", use_cache=True)
        results["cache hit"] = median_seconds(lambda: cached.tlc(TINY), runs)
        assert cached.tlc(TINY).distinct_states == 12
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = measure(args.runs)
    baseline = results["fresh JVM"]
    if args.json:
        print(json.dumps({name: {"seconds": s, "ratio": s / baseline} for name, s in results.items()}, indent=2))
    else:
        print(f"median wall time per TLC check of a 12-state spec ({args.runs} runs each)")
        for name, seconds in results.items():
            print(f"  {name:<20} {seconds * 1000:8.1f} ms   x{seconds / baseline:6.3f} of a fresh JVM")
    return 0


if __name__ == "__main__":
    sys.exit(main())
