"""Where the name grade's two cfg-binding rules disagree, on TLA+-Bench's real model outputs.

    python benchmarks/name_rules.py [--data benchmarks/data/tlabench_real] [--workers 2]
                                    [--task-ids ID,ID] [--timeout 300] [--json OUT.json]

The name grade binds the reference cfg to an output's names before TLC runs (``grading/bind.py``):

* ``--alias-name-rule=paper`` (the default): appendix H as written;
* ``--alias-name-rule=refined``: a stand-in operator must fit the cfg section's level, and a cfg's own
  INIT/NEXT/SPECIFICATION name is kept when the output defines it.

This script grades every released output in the data folder (``outputs.jsonl``: GPT-5 and an open
model, original condition only, see the folder's SOURCE.md) with the NAME grade under each rule,
through the plugin exactly as a user runs it (``pytest --alias-suite=tlabench:DATA
--alias-model=replay:FILE --alias-grade=name --alias-name-rule=RULE -n WORKERS``, one
``--alias-model`` per model), and prints a Markdown table: outputs graded, passes under each rule,
and one row per output whose verdict (passed, or the reason) differs between the rules. Both runs
share one run cache, so a TLC run the two rules bind identically happens once.
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
from typing import Any

DATA = Path(__file__).resolve().parent / "data" / "tlabench_real"
RULES = ("paper", "refined")


def replay_files(data: Path, folder: Path, task_ids: list[str] | None
                 ) -> tuple[list[Path], list[str], set[tuple[str, str, int]]]:
    """One replay file per model (original condition) from ``outputs.jsonl``, the task ids, and the
    (model, task, sample) of every output (a run of several models also makes items for the tasks a
    model has no output for; those fail as model errors and are left out of the table)."""
    rows = [json.loads(line) for line in (data / "outputs.jsonl").read_text(encoding="utf-8").splitlines()
            if line.strip()]
    rows = [row for row in rows if not task_ids or row["task"] in task_ids]
    by_model: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        by_model.setdefault(row["model"], []).append(row)
    files = []
    for model, model_rows in sorted(by_model.items()):
        path = folder / f"{model}.jsonl"
        path.write_text("".join(json.dumps({"task": row["task"], "condition": "original", "sample": row["sample"],
                                            "text": row["text"], "model": model}) + "\n" for row in model_rows))
        files.append(path)
    tasks = sorted({row["task"] for row in rows}, key=lambda t: (len(t), t))
    return files, tasks, {(row["model"], row["task"], row["sample"]) for row in rows}


def grade(rule: str, data: Path, replays: list[Path], tasks: list[str], folder: Path,
          args: argparse.Namespace) -> tuple[list[dict[str, Any]], float]:
    """The plugin's records for every output under ``rule`` (name grade only), and the wall time."""
    report = folder / f"{rule}.json"
    ids = folder / "ids.json"  # a file: a long ?ids=a,b,... list fails as a path look-up (ENAMETOOLONG)
    ids.write_text(json.dumps(tasks))
    samples = 1 + max(json.loads(line)["sample"] for replay in replays for line in replay.read_text().splitlines())
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
               f"--alias-suite=tlabench:{data}?ids={ids}",
               *(f"--alias-model=replay:{replay}" for replay in replays),
               "--alias-grade=name", f"--alias-name-rule={rule}", "--alias-conditions=original",
               f"--alias-samples={samples}", f"--alias-timeout={args.timeout:g}",
               f"--alias-cache-dir={folder / 'cache'}", f"--alias-report={report}", "--alias-no-fail",
               "-W", "ignore::UserWarning", "-n", str(args.workers)]
    print(f"rule {rule}: {' '.join(command[3:])}", file=sys.stderr)
    started = time.perf_counter()
    proc = subprocess.run(command, cwd=folder, capture_output=True, text=True, env=dict(os.environ))
    wall = time.perf_counter() - started
    if not report.exists():
        raise SystemExit(f"rule {rule}: no report (exit {proc.returncode}):\n{proc.stdout[-3000:]}{proc.stderr[-2000:]}")
    return json.loads(report.read_text())["records"], wall


def model_name(record: dict[str, Any]) -> str:
    model = str(record.get("model") or "")
    return Path(model.removeprefix("replay:")).stem if model.startswith("replay:") else model


def verdicts(records: list[dict[str, Any]], keys: set[tuple[str, str, int]]) -> dict[tuple[str, str, int], dict[str, Any]]:
    """(model, task, sample) → the name grade's entry (passed, reason, …) for the outputs in ``keys``."""
    found = {}
    for record in records:
        entry = record["grades"].get("name")
        key = (model_name(record), record["task"], record["sample"])
        if entry is not None and key in keys:
            found[key] = entry
    return found


def _verdict(entry: dict[str, Any]) -> str:
    if entry.get("not_gradeable") or entry.get("not_applicable"):
        return "not graded"
    return "pass" if entry.get("passed") else "fail"


def _cell(entry: dict[str, Any], limit: int = 160) -> str:
    reason = " ".join(str(entry.get("reason") or "").split()).replace("|", "\\|")
    reason = reason if len(reason) <= limit else reason[:limit - 1] + "…"
    return f"{_verdict(entry)}: {reason}" if reason else _verdict(entry)


def table(paper: dict[tuple[str, str, int], dict[str, Any]], refined: dict[tuple[str, str, int], dict[str, Any]],
          walls: dict[str, float]) -> tuple[str, list[dict[str, Any]]]:
    """The Markdown table and the differing rows."""
    keys = sorted(set(paper) & set(refined), key=lambda k: (k[0], (len(k[1]), k[1]), k[2]))
    models = sorted({k[0] for k in keys})
    diff = [k for k in keys if (paper[k].get("passed"), paper[k].get("reason"))
            != (refined[k].get("passed"), refined[k].get("reason"))]
    lines = ["| model | outputs graded | name passes (paper) | name passes (refined) | verdicts differ |",
             "|---|---:|---:|---:|---:|"]
    for model in [*models, "all"]:
        mine = [k for k in keys if model in ("all", k[0])]
        lines.append(f"| {model} | {len(mine)} | {sum(bool(paper[k].get('passed')) for k in mine)} | "
                     f"{sum(bool(refined[k].get('passed')) for k in mine)} | "
                     f"{sum(k in diff for k in mine)} |")
    lines.append("")
    lines.append(f"Wall time: paper {walls['paper']:.0f} s, refined {walls['refined']:.0f} s (shared run cache).")
    lines.append("")
    rows = []
    if diff:
        lines += ["| task | model | sample | paper rule | refined rule |", "|---|---|---:|---|---|"]
        for key in diff:
            lines.append(f"| {key[1]} | {key[0]} | {key[2]} | {_cell(paper[key])} | {_cell(refined[key])} |")
            rows.append({"task": key[1], "model": key[0], "sample": key[2],
                         "paper": {k: paper[key].get(k) for k in ("passed", "reason")},
                         "refined": {k: refined[key].get(k) for k in ("passed", "reason")}})
    else:
        lines.append("No output's name verdict differs between the two rules.")
    only = sorted(set(paper) ^ set(refined))
    if only:
        lines.append("")
        lines.append(f"Graded under one rule only: {', '.join(f'{m}/{t}/s{s}' for m, t, s in only)}")
    return "\n".join(lines), rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA, help="the tlabench_real data folder")
    parser.add_argument("--workers", type=int, default=2, help="pytest-xdist workers (-n)")
    parser.add_argument("--task-ids", default=None, help="only these task ids (ID,ID,...)")
    parser.add_argument("--timeout", type=float, default=300.0, help="TLC limit per run (the paper's 300 s)")
    parser.add_argument("--json", type=Path, default=None, help="also write the counts and differing rows here")
    args = parser.parse_args()
    task_ids = args.task_ids.split(",") if args.task_ids else None
    with tempfile.TemporaryDirectory(prefix="alias-name-rules-") as scratch:
        folder = Path(scratch)
        replays, tasks, keys = replay_files(args.data.resolve(), folder, task_ids)
        results, walls = {}, {}
        for rule in RULES:
            records, walls[rule] = grade(rule, args.data.resolve(), replays, tasks, folder, args)
            results[rule] = verdicts(records, keys)
    text, rows = table(results["paper"], results["refined"], walls)
    missing = sorted(keys - set(results["paper"]) - set(results["refined"]))
    if missing:
        text += f"\n\nNo name verdict under either rule: {', '.join(f'{m}/{t}/s{s}' for m, t, s in missing)}"
    print(text)
    if args.json:
        args.json.write_text(json.dumps({"tasks": tasks, "walls": walls, "differing": rows,
                                         "paper": {"/".join(map(str, k)): v.get("passed") for k, v in results["paper"].items()},
                                         "refined": {"/".join(map(str, k)): v.get("passed")
                                                     for k, v in results["refined"].items()}}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
