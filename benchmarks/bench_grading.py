"""Cost of the behavior grade: TLC/SANY launches and wall time per graded output, extended vs paper.

    python benchmarks/bench_grading.py [--suite builtin] [--timeout 60] [--tasks ID,ID] [--json]

Outputs graded, for every task of the suite that has a cfg, against the task's original condition:

* ``reference``: the reference itself (identical names: the first mapping of any search passes);
* ``permuted``: the random condition's reference (every name replaced, seed 0) with its variable
  declarations rotated by one (``VARIABLES a, b, c`` becomes ``VARIABLES b, c, a``; constants
  when there is only one variable). No name matches and the declaration order misleads a
  positional guess, so the mapping must be found by search. Tasks with one variable and at most
  one constant get no permuted output, nor do multi-module tasks (the random condition renames the
  imported modules too, which the original condition does not stage).

Each mode starts from an empty run cache of its own (every launch is real, and one mode never
profits from the other's runs); within a mode the cache persists across outputs, as in a real
grading run, so reference-side runs repeated by several outputs are launched once. Launches are
``TlaTools.launches`` deltas per output. When this build's behavior grade has no ``extended``
mode, only ``paper`` is measured and the report says so.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from pytest_alias.cir.conditions import random_condition
from pytest_alias.grading.validation import available_modes, guarded_grade
from pytest_alias.tasks.model import Condition, Task
from pytest_alias.tasks.suites import load_suite
from pytest_alias.tla.runner import TlaTools
from pytest_alias.tla.syntax import parse_module


def rotate_declarations(text: str) -> str | None:
    """``text`` with its variable (else constant) declarations rotated by one, or None when < 2."""
    syntax = parse_module(text)
    for declarations in (syntax.variables, syntax.constants):
        if len(declarations) >= 2:
            data = text.encode("utf-8")
            names = [d.name for d in declarations]
            rotated = names[1:] + names[:1]
            for declaration, name in sorted(zip(declarations, rotated), key=lambda p: -p[0].span[0]):
                start, end = declaration.span
                data = data[:start] + name.encode("utf-8") + data[end:]
            return data.decode("utf-8")
    return None


def outputs(task: Task) -> list[tuple[str, str, Condition]]:
    """``(kind, text, condition)`` for each output the benchmark grades for ``task``."""
    original = task.original()
    found = [("reference", original.module_map[original.main], original)]
    if len(task.modules) > 1:
        return found
    renamed = random_condition(task, 0, verify=False).condition
    permuted = rotate_declarations(renamed.module_map[renamed.main])
    if permuted is not None:
        found.append(("permuted", permuted, original))
    return found


def measure(tasks: list[Task], mode: str, timeout: float) -> list[dict[str, Any]]:
    """One row per graded output: task, kind, verdict, launches and wall time (fresh cache per mode)."""
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="alias-bench-grading-") as scratch:
        tools = TlaTools(cache_dir=Path(scratch) / "cache")
        for task in tasks:
            for kind, text, condition in outputs(task):
                before = dict(tools.launches)
                start = time.perf_counter()
                result = guarded_grade(text, condition, "behavior", mode=mode, tools=tools, timeout=timeout)
                seconds = time.perf_counter() - start
                rows.append({
                    "task": task.id, "kind": kind, "passed": result.passed, "reason": result.reason,
                    "mappings_tried": result.details.get("mappings_tried"),
                    "tlc": tools.launches["tlc"] - before.get("tlc", 0),
                    "sany": tools.launches["sany"] - before.get("sany", 0),
                    "seconds": round(seconds, 3),
                })
                print(f"  {mode:8} {task.id:20} {kind:9} {'pass' if result.passed else 'FAIL'} "
                      f"tlc={rows[-1]['tlc']:3} sany={rows[-1]['sany']:2} {seconds:7.2f} s", file=sys.stderr)
    return rows


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Totals and per-output medians, overall and per output kind."""
    def of(selected: list[dict[str, Any]]) -> dict[str, Any]:
        if not selected:
            return {"outputs": 0}
        return {
            "outputs": len(selected), "passed": sum(r["passed"] for r in selected),
            "tlc_total": sum(r["tlc"] for r in selected), "sany_total": sum(r["sany"] for r in selected),
            "tlc_median": statistics.median(r["tlc"] for r in selected),
            "tlc_max": max(r["tlc"] for r in selected),
            "seconds_total": round(sum(r["seconds"] for r in selected), 2),
            "seconds_median": round(statistics.median(r["seconds"] for r in selected), 2),
            "seconds_max": round(max(r["seconds"] for r in selected), 2),
        }
    return {"all": of(rows), **{kind: of([r for r in rows if r["kind"] == kind]) for kind in ("reference", "permuted")}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="builtin")
    parser.add_argument("--timeout", type=float, default=60.0, help="TLC time limit per run (default 60)")
    parser.add_argument("--tasks", default=None, help="only these task ids (ID,ID,...)")
    parser.add_argument("--json", action="store_true", help="print one JSON object with every row")
    args = parser.parse_args()
    tasks = [t for t in load_suite(args.suite) if t.cfg is not None]
    if args.tasks:
        wanted = set(args.tasks.split(","))
        tasks = [t for t in tasks if t.id in wanted]
    modes = [m for m in ("extended", "paper") if m in available_modes()]
    note = None if "extended" in modes else "extended mode is not available in this build: paper only"
    report: dict[str, Any] = {"suite": args.suite, "tasks": len(tasks), "note": note, "modes": {}}
    for mode in modes:
        rows = measure(tasks, mode, args.timeout)
        report["modes"][mode] = {"summary": summary(rows), "rows": rows}
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    if note:
        print(note)
    print(f"{len(tasks)} tasks of {args.suite}; fresh run cache per mode")
    print(f"{'mode':9} {'outputs':>15} {'passed':>6} {'TLC total':>9} {'TLC med':>7} {'TLC max':>7} "
          f"{'SANY':>5} {'s total':>8} {'s med':>6} {'s max':>6}")
    for mode, data in report["modes"].items():
        for kind, s in data["summary"].items():
            if s["outputs"]:
                print(f"{mode:9} {kind + ' ' + str(s['outputs']):>15} {s['passed']:>6} {s['tlc_total']:>9} "
                      f"{s['tlc_median']:>7} {s['tlc_max']:>7} {s['sany_total']:>5} {s['seconds_total']:>8} "
                      f"{s['seconds_median']:>6} {s['seconds_max']:>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
