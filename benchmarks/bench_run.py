"""What a benchmark run costs before grading: collection (cold and warm), launches, model calls, import time.

    python benchmarks/bench_run.py [--suite builtin] [--samples 2]

All figures come from one run of this script, one pytest process at a time (the machine has 2 cores):

* collection: ``pytest --collect-only`` with an empty cache (conditions built and verified) and again
  with the cache filled (conditions only read); the ratio cold/warm;
* launches during collection: SANY/TLC runs each process made by the end of its collection, in a
  real ``-n 2`` run on a cold cache (the controller prepares; workers should show 0);
* model calls per sample: a counting ``fake`` model under ``-n 1`` and ``-n 2`` in every store mode;
* plugin import: ``python -X importtime -c "import pytest_alias.plugin"`` with pytest already
  imported, summed over pytest_alias's own modules (target ≤ 150 ms).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LAUNCH_COUNTER = '''
from pytest_alias.plugin import WORKSPACE_KEY

def pytest_collection_finish(session):
    workspace = session.config.stash.get(WORKSPACE_KEY, None)
    tools = workspace.__dict__.get("tools") if workspace is not None else None
    launches = sum(tools.launches.values()) if tools is not None else 0
    name = session.config.workerinput["workerid"] if hasattr(session.config, "workerinput") else "controller"
    with open(__import__("os").environ["ALIAS_BENCH_LAUNCHES"], "a") as handle:
        handle.write(f"{name} {launches}\\n")
'''


def pytest_run(folder: Path, *args: str, env: dict[str, str] | None = None) -> tuple[float, subprocess.CompletedProcess]:
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *args], cwd=folder,
                          capture_output=True, text=True, env={**os.environ, **(env or {})})
    return time.perf_counter() - started, proc


def collection(folder: Path, suite: str) -> dict[str, float]:
    cache = folder / "collect-cache"
    common = (f"--alias-suite={suite}", f"--alias-cache-dir={cache}", "--alias-model=reference", "--collect-only")
    cold, _ = pytest_run(folder, *common)
    warm, _ = pytest_run(folder, *common)
    return {"cold_s": round(cold, 2), "warm_s": round(warm, 2), "cold_over_warm": round(cold / warm, 1)}


def launches(folder: Path, suite: str) -> dict[str, int]:
    run_dir = folder / "launches"
    run_dir.mkdir()
    (run_dir / "conftest.py").write_text(LAUNCH_COUNTER)
    log = folder / "launches.txt"
    pytest_run(run_dir, f"--alias-suite={suite}", f"--alias-cache-dir={folder / 'launch-cache'}",
               "--alias-model=reference", "--alias-samples=1", "--alias-grade=parse", "-n", "2", "-k", "nothing-matches",
               env={"ALIAS_BENCH_LAUNCHES": str(log)})
    # Only workers collect under xdist (the controller prepared the conditions at session start).
    return {name: int(count) for name, count in (line.split() for line in log.read_text().splitlines())}


def model_calls(folder: Path, suite: str, samples: int) -> dict[str, float]:
    out: dict[str, float] = {}
    cases = None
    for workers in ("1", "2"):
        for store in ("rw", "refresh", "off"):
            counter = folder / f"calls-{workers}-{store}.txt"
            report = folder / f"report-{workers}-{store}.json"
            pytest_run(folder, f"--alias-suite={suite}", f"--alias-cache-dir={folder / f'calls-{workers}-{store}'}",
                       f"--alias-model=fake:count?count={counter}", f"--alias-samples={samples}", "--alias-grade=parse",
                       "--alias-no-fail", f"--alias-store={store}", "-n", workers, f"--alias-report={report}")
            cases = len(json.loads(report.read_text())["records"])
            out[f"-n {workers} {store}"] = round(len(counter.read_text().splitlines()) / cases, 3)
    return out


def import_ms() -> float:
    proc = subprocess.run([sys.executable, "-X", "importtime", "-c", "import pytest; import pytest_alias.plugin"],
                          capture_output=True, text=True)
    own_us = 0  # self time of each of pytest_alias's modules, in microseconds
    for line in proc.stderr.splitlines():
        parts = [part.strip() for part in line.split("|")]
        if len(parts) == 3 and parts[2].startswith("pytest_alias"):
            own_us += int(parts[0].split(":")[1])
    return round(own_us / 1000, 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="builtin")
    parser.add_argument("--samples", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        results = {
            "collection": collection(folder, args.suite),
            "launches_at_collection_n2": launches(folder, args.suite),
            "model_calls_per_sample": model_calls(folder, args.suite, args.samples),
            "plugin_import_ms_own_modules": import_ms(),
        }
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
