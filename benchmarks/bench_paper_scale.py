"""A run of the paper's shape graded through the plugin, shortcuts off and on in the same run.

    python benchmarks/bench_paper_scale.py [--workload real|synthetic|both] [--suite builtin]
                                           [--tasks N | --task-ids ID,ID] [--quick] [--samples 5]
                                           [--timeout 300] [--workers 2] [--json OUT.json]
                                           [--before CHECKOUT | --only-on] [--max-runtime SECONDS]
                                           [--warm-samples N] [--real-data DIR]

Two workloads, each graded by the same arms (below); ``--workload both`` runs both and prints each
one's figures and a closing table that sets them side by side (wall time, seconds per verdict,
verdict identity). The default is ``real`` when ``benchmarks/data/tlabench_real/`` exists, else
``synthetic``.

Real workload (``--workload real``): real model outputs released by TLA+-Bench
(``benchmarks/data/tlabench_real/``, see its SOURCE.md: GPT-5 and an open model on TLA+-Bench's
evaluation specifications), replayed against the task folder laid out beside them
(``--alias-suite=tlabench:benchmarks/data/tlabench_real?ids=...``, one ``--alias-model=replay:FILE``
per model, every grade). The outputs were written for the original specifications only, so this
workload is original-condition only (``--alias-conditions=original``): a renamed condition would
have no recorded text to replay. ``--tasks N`` keeps the first N task ids (in numeric order) that
have outputs, ``--task-ids`` the ids named; ``--samples`` and ``--suite`` do not apply (each model
replays every sample the data holds). Each output's kind in the per-kind figures is its model.
``--real-data DIR`` replays another folder of the same layout (outputs held back from the repository).

Synthetic workload (``--workload synthetic``, unchanged): outputs made from each condition's own
reference, described next.

Synthetic workload: every chosen task with a cfg, in the original and random conditions, ``--samples`` samples each
(the paper: 2 conditions × 5 samples), every grade (``--alias-grade=all``). Outputs are made from each
condition's own reference, mixed as real model outputs are (per output, drawn with a fixed seed):

==============  ====  ==========================================================================
kind            %     what it is
==============  ====  ==========================================================================
copy            15    the reference, fenced (memorised outputs are often exact copies)
rewrite         12    an equivalent rewrite: declarations reordered, a comment added
slow             4    the reference with an ASSUME that keeps every TLC run busy for seconds
missing_name    23    the reference with an invariant the cfg names renamed (cfg names missing)
mutant          31    a mutant of the reference (``grading.mutants``): other reachable states
parse_error      7    the reference with a definition cut off mid-expression
truncated        4    the first 60% of the reference's lines (a token limit hit)
prose            4    prose and no module
==============  ====  ==========================================================================

Proportions follow TLA+-Bench's public results: a top model's outputs pass SANY on about 90% of
tasks and TLC on about 30% (here 85% reach SANY's success and about 30% are copies, rewrites or slow
copies, which pass TLC); a further 30% of samples after the first repeat the first sample's text
(models at temperature repeat themselves on small specs).

Both arms (each workload) replay the same file(s) through ``pytest --alias-model=replay:FILE -n WORKERS``
from an empty cache of their own, first with ``ALIAS_SHORTCUTS=off`` (the plain grading), then with the shortcuts
on; the script prints each arm's wall time, outputs and verdicts per minute, seconds per verdict,
per grade and per output kind, SANY/TLC launches (JVM runs), cache hits, the ten slowest items and
peak memory, then the ratio, and exits 1 unless every item got the same verdict (passed and reason
per grade) in every workload run. ``--before CHECKOUT`` adds a third arm graded by that checkout's
code (its pass/fail is compared with the shortcuts-on arm's). ``--warm-samples N`` (real workload)
then grades a second run with the shortcuts-on arm's cache: every output again plus N more samples of
it, each a copy with a comment line of its own (a new text for every cache, the same spec), so the
figures say what a second run of more samples costs once the references' work is done.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any, NamedTuple

from pytest_alias.grading.mutants import generate_mutants
from pytest_alias.run.config import RunConfig
from pytest_alias.run.workspace import Workspace
from pytest_alias.tasks.suites import load_suite
from pytest_alias.tla.cfg import parse_cfg

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_grading import rotate_declarations  # noqa: E402 - a sibling script

#: Output kind → weight (percent), in the order the docstring's table gives.
MIX: dict[str, int] = {"copy": 15, "rewrite": 12, "slow": 4, "missing_name": 23, "mutant": 31, "parse_error": 7,
                       "truncated": 4, "prose": 4}
#: The real workload's data: TLA+-Bench's released outputs and the task folder they answer.
REAL_DATA = Path(__file__).resolve().parent / "data" / "tlabench_real"
#: Chance that a sample after the first repeats the first sample's text.
REPEAT = 0.3
#: An ASSUME that TLC evaluates at start-up of every run (a few seconds on one core).
SLOW_ASSUME = "ASSUME \\A alias_a, alias_b \\in 1..1500 : alias_a + alias_b > 1\n"
_FOOTER = re.compile(r"^=+\s*$", re.M)

LAUNCH_COUNTER = '''
import json, os, time
from pytest_alias.plugin import WORKSPACE_KEY

STARTED = time.monotonic()
FIRST_VERDICT = []

def pytest_runtest_logreport(report):
    # On the controller: the time until the first verdict is the set-up (conditions, self-checks).
    if not FIRST_VERDICT and not os.environ.get("PYTEST_XDIST_WORKER"):
        FIRST_VERDICT.append(time.monotonic() - STARTED)

def pytest_sessionfinish(session):
    workspace = session.config.stash.get(WORKSPACE_KEY, None)
    tools = workspace.__dict__.get("tools") if workspace is not None else None
    counts = {}
    if tools is not None:
        counts = dict(tools.launches)
        if "launcher" in tools.__dict__ and hasattr(tools.launcher, "server_starts"):
            counts["jvm_starts"] = tools.launcher.server_starts
            counts["jvm_start_s"] = round(tools.launcher.server_start_seconds, 1)
            counts["quick_retries"] = getattr(tools.launcher, "quick_retries", 0)
            counts["quick_retry_s"] = round(getattr(tools.launcher, "quick_retry_seconds", 0.0), 1)
    if FIRST_VERDICT:
        counts["setup_s"] = round(FIRST_VERDICT[0], 1)
    with open(os.environ["ALIAS_BENCH_LAUNCHES"], "a") as handle:
        handle.write(json.dumps(counts) + "\\n")
'''


def _before_footer(text: str, addition: str) -> str:
    footers = list(_FOOTER.finditer(text))
    at = footers[-1].start() if footers else len(text)
    return text[:at] + addition + text[at:]


def make_output(kind: str, condition: Any, rng: random.Random) -> str:
    """One output of ``kind`` for ``condition`` (made from its own reference)."""
    reference = condition.module_map[condition.main]
    if kind == "copy":
        return f"Here is the specification:\n\n```tla\n{reference}```\n"
    if kind == "rewrite":
        rotated = rotate_declarations(reference) or reference
        return _before_footer(rotated, "\\* the same behaviour, written again\n")
    if kind == "slow":
        return _before_footer(reference, SLOW_ASSUME)
    if kind == "missing_name":
        invariants = [name for name in parse_cfg(condition.cfg).invariants] if condition.cfg else []
        if invariants:
            name = invariants[0]
            return re.sub(rf"\b{re.escape(name)}\b", name + "Holds", reference)
        kind = "mutant"
    if kind == "mutant":
        mutants = generate_mutants(condition.module_map, condition.main, condition.cfg, limit=8)
        if mutants:
            return rng.choice(mutants).output_text()
        kind = "parse_error"
    if kind == "parse_error":
        return _before_footer(reference, "AliasBroken == (1 + \n")
    if kind == "truncated":
        lines = reference.splitlines(keepends=True)
        return "".join(lines[: max(1, int(len(lines) * 0.6))])
    return "I am not able to write this TLA+ specification, but here is an outline of the idea in prose."


def _runtime_seconds(text: object) -> float | None:
    """A manifest's ``HH:MM:SS`` runtime in seconds (None when it says nothing usable)."""
    parts = str(text).split(":")
    if len(parts) != 3 or not all(part.isdigit() for part in parts):
        return None
    hours, minutes, seconds = map(int, parts)
    return float(hours * 3600 + minutes * 60 + seconds)


def fast_examples(clone: Path, max_seconds: float, scratch: Path, models: set[str] | None = None) -> Path:
    """A copy of the tlaplus/Examples ``clone`` under ``scratch`` whose manifests keep only the models
    recorded as exhaustive runs of at most ``max_seconds`` (and, given ``models``, only those manifest
    paths); spec folders left without a model are dropped."""
    root = scratch / "examples"
    kept = 0
    for manifest_path in sorted((clone / "specifications").glob("*/manifest.json")):
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        for entry in manifest.get("modules") or []:
            entry["models"] = [model for model in entry.get("models") or []
                               if model.get("mode") == "exhaustive search"
                               and (_runtime_seconds(model.get("runtime")) or float("inf")) <= max_seconds
                               and (models is None or model.get("path") in models)]
        if not any(entry["models"] for entry in manifest.get("modules") or []):
            continue
        target = root / "specifications" / manifest_path.parent.name
        shutil.copytree(manifest_path.parent, target)
        (target / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
        kept += 1
    if not kept:
        raise SystemExit(f"{clone}: no model runs in {max_seconds:g} s or less")
    for extra in ("LICENSE.md", "LICENSE"):
        if (clone / extra).is_file():
            shutil.copy2(clone / extra, root / extra)
    return root


def build_workload(workspace: Workspace, task_ids: list[str] | None, tasks: int | None, samples: int,
                   seed: int = 0) -> tuple[list[dict[str, Any]], list[str]]:
    """The replay lines (with each one's kind) and the task ids they cover."""
    rng = random.Random(seed)
    kinds, weights = list(MIX), list(MIX.values())
    lines: list[dict[str, Any]] = []
    chosen: list[str] = []
    for task, prepared in workspace.prepared_conditions():
        if task.cfg is None or (task_ids and task.id not in task_ids):
            continue
        if tasks is not None and len(chosen) >= tasks:
            break
        chosen.append(task.id)
        for condition, _ in prepared:
            if condition is None:
                continue
            first: tuple[str, str] | None = None
            for sample in range(samples):
                if first is not None and rng.random() < REPEAT:
                    kind, text = "repeat:" + first[0], first[1]
                else:
                    kind = rng.choices(kinds, weights)[0]
                    text = make_output(kind, condition, rng)
                first = first or (kind, text)
                lines.append({"task": task.id, "condition": condition.kind, "sample": sample, "text": text,
                              "condition_version": condition.version, "seed": seed, "kind": kind})
    return lines, chosen


class Workload(NamedTuple):
    """What the arms grade: the suite, the replay file(s), the chosen task ids, each output's kind
    (by model name, task, condition and sample) and the run's conditions and samples."""

    name: str
    suite: str
    replays: list[Path]
    chosen: list[str]
    kinds: dict[tuple[str, str, str, int], str]
    conditions: tuple[str, ...]
    samples: int
    mix: dict[str, int]


def run_arm(name: str, folder: Path, workload: Workload, args: argparse.Namespace,
            cache: Path | None = None) -> dict[str, Any]:
    """One arm: the plugin over the workload's replay file(s) from an empty cache (or ``cache``, an
    earlier arm's); wall time, records, launches."""
    arm = folder / name
    arm.mkdir(parents=True)
    (arm / "conftest.py").write_text(LAUNCH_COUNTER)
    report = arm / "run.json"
    launches = arm / "launches.jsonl"
    env = {**os.environ, "ALIAS_SHORTCUTS": "off" if name.endswith("off") else "on",
           "ALIAS_BENCH_LAUNCHES": str(launches)}
    if name.endswith("before"):  # another checkout's code, as it grades by default
        env["PYTHONPATH"] = os.pathsep.join([str(args.before), *filter(None, [os.environ.get("PYTHONPATH")])])
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", f"--alias-suite={workload.suite}",
               *(f"--alias-model=replay:{replay}" for replay in workload.replays), "--alias-grade=all",
               f"--alias-samples={workload.samples}", f"--alias-conditions={','.join(workload.conditions)}",
               f"--alias-timeout={args.timeout:g}", f"--alias-cache-dir={cache or arm / 'cache'}", f"--alias-report={report}",
               "--alias-no-fail", "-n", str(args.workers)]
    if workload.name == "synthetic":
        command += ["-k", " or ".join(workload.chosen)]
    print(f"arm {name}: {' '.join(command[3:])}", file=sys.stderr)
    started = time.perf_counter()
    proc = subprocess.run(command, cwd=arm, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - started
    if not report.exists():
        raise SystemExit(f"arm {name}: no report written (exit {proc.returncode}):\n{proc.stdout[-3000:]}{proc.stderr[-2000:]}")
    records = json.loads(report.read_text())["records"]
    counted: Counter[str] = Counter()
    if launches.exists():
        for line in launches.read_text().splitlines():
            counted.update(json.loads(line))
    return {"wall_s": wall, "records": records, "launches": dict(counted),
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}


def _model_name(record: dict[str, Any]) -> str:
    """A record's model as the workload names it: a replay file's stem (``gpt-5``), else its spec."""
    model = str(record.get("model") or "")
    return Path(model.removeprefix("replay:")).stem if model.startswith("replay:") else model


def _kind(kinds: dict[tuple[str, str, str, int], str], record: dict[str, Any]) -> str:
    key = (record["task"], record["condition"], record["sample"])
    return kinds.get((_model_name(record), *key)) or kinds.get(("", *key), "?")


def figures(arm: dict[str, Any], kinds: dict[tuple[str, str, str, int], str]) -> dict[str, Any]:
    """What the issue asks for, from one arm's records (``kinds``: each output's kind, by model name
    (empty for the synthetic workload's one replay file), task, condition and sample)."""
    records = arm["records"]
    verdicts = [(grade, entry) for r in records for grade, entry in r["grades"].items()
                if not entry.get("not_applicable") and not entry.get("not_gradeable")]
    per_grade: dict[str, float] = Counter()
    for grade, entry in verdicts:
        per_grade[grade] += entry.get("seconds", 0.0)
    hits = Counter()
    for _, entry in verdicts:
        details = entry.get("details", {})
        hits["sany_cached"] += bool(details.get("sany_cached"))
        hits["tlc_cached"] += bool(details.get("tlc_cached"))
        hits["reused (dedupe)"] += "reused" in details
        hits["decided by parse (cascade)"] += "decided_by" in details
        hits["early stops"] += "early_stop" in details
        hits["mappings skipped by the graphs"] += (details.get("graph_filter") or {}).get("skipped", 0)
        hits["refinement checks decided by the graphs"] += sum(len(attempt.get("by_graphs", ()))
                                                               for attempt in details.get("attempts") or ())
    per_kind: Counter[str] = Counter()
    for r in records:
        per_kind[_kind(kinds, r)] += item_seconds(r)
    minutes = arm["wall_s"] / 60
    slowest = sorted(records, key=lambda r: -item_seconds(r))[:10]
    grade_seconds = sum(per_grade.values())
    return {
        "wall_s": round(arm["wall_s"], 1), "outputs": len(records), "verdicts": len(verdicts),
        "outputs_per_min": round(len(records) / minutes, 1), "verdicts_per_min": round(len(verdicts) / minutes, 1),
        "grade_s_total": round(grade_seconds, 1), "s_per_verdict": round(grade_seconds / max(1, len(verdicts)), 3),
        "s_per_grade": {g: round(s, 1) for g, s in sorted(per_grade.items())},
        "s_per_output_kind": {k: round(s, 1) for k, s in per_kind.most_common()},
        "name_tlc_s": round(sum(e.get("details", {}).get("tlc_seconds") or 0.0 for g, e in verdicts if g == "name"), 1),
        "seconds_per_stage": _stages(records, arm["launches"]),
        "launches": {k: v for k, v in arm["launches"].items()
                     if k in ("sany", "tlc", "jvm_starts", "quick_retries", "quick_retry_s")},
        "cache_hits": dict(hits),
        "peak_rss_mb_largest_process_so_far": round(arm["peak_rss_mb"]),
        "slowest": [(r["id"], round(item_seconds(r), 2), why_slow(r)) for r in slowest],
    }


def _stages(records: list[dict[str, Any]], counted: dict[str, Any]) -> dict[str, float]:
    """Seconds by stage, summed over items: set-up before the first verdict (conditions, generation),
    the references' self-checks the items made and the time they waited for another worker's or for a
    core (:mod:`pytest_alias.tla.slots`), each
    grade (the behavior grade's is its mapping search), SANY and TLC runs launched while grading, JVM
    start-ups of the tool servers, and the rest (Python, cache)."""
    def total(key: str) -> float:
        return round(sum(r["timings"].get(key, 0.0) for r in records), 1)

    per_grade: Counter[str] = Counter()
    for r in records:
        for grade, entry in r["grades"].items():
            per_grade[grade] += entry.get("seconds", 0.0)
    grading, sany, tlc = total("grading_s"), total("sany_s"), total("tlc_s")
    return {"setup_before_first_verdict": counted.get("setup_s", 0.0), "self_check": total("self_check_s"),
            "self_check_wait": total("self_check_wait_s"), "tlc_slot_wait": total("tlc_slot_wait_s"),
            **{f"grade_{grade}": round(seconds, 1) for grade, seconds in sorted(per_grade.items())},
            "sany": sany, "tlc": tlc, "jvm_start": counted.get("jvm_start_s", 0.0),
            "python_and_cache": round(grading - sany - tlc - total("tlc_slot_wait_s"), 1)}


def item_seconds(record: dict[str, Any]) -> float:
    """All of an item's time: its self-check share, its grades, and its wait for another worker's self-check."""
    timings = record["timings"]
    return timings["grading_s"] + timings.get("self_check_s", 0.0) + timings.get("self_check_wait_s", 0.0)


def why_slow(record: dict[str, Any]) -> str:
    """Where a slow item's time went: the self-check it made, and its costliest grade with its verdict."""
    timings = record["timings"]
    parts = []
    if timings.get("self_check_s", 0.0) >= 1.0:
        parts.append(f"self-check {timings['self_check_s']:.0f} s")
    if timings.get("self_check_wait_s", 0.0) >= 1.0:
        parts.append(f"waited {timings['self_check_wait_s']:.0f} s")
    if timings.get("tlc_slot_wait_s", 0.0) >= 1.0:  # its TLC runs waited for a core (tla.slots)
        parts.append(f"waited {timings['tlc_slot_wait_s']:.0f} s for a core")
    grade, entry = max(record["grades"].items(), key=lambda pair: pair[1].get("seconds", 0.0))
    verdict = "pass" if entry.get("passed") else (entry.get("reason") or "fail")[:90]
    parts.append(f"{grade} {entry.get('seconds', 0.0):.0f} s ({verdict})")
    return "; ".join(parts)


def item_rows(records: list[dict[str, Any]], kinds: dict[tuple[str, str, str, int], str]) -> list[dict[str, Any]]:
    """One row per item for ``--json`` (where a run's time went, item by item): its kind, grading, SANY
    and TLC seconds, and each grade's pass/fail and seconds."""
    return [{"id": _item_key(r), "kind": _kind(kinds, r),
             **{key: round(r["timings"].get(key, 0.0), 2)
                for key in ("grading_s", "self_check_s", "self_check_wait_s", "sany_s", "tlc_s", "tlc_slot_wait_s")},
             "grades": {g: [e.get("passed"), round(e.get("seconds", 0.0), 2)] for g, e in r["grades"].items()}}
            for r in records]


#: Where a reason quotes the counterexample TLC printed (``grading.tlc_reason.trace_summary``).
_COUNTEREXAMPLE = re.compile(r"counterexample of \d+ states?\b.*", re.DOTALL)


def verdict_reason(reason: str | None) -> str | None:
    """``reason`` up to the counterexample it quotes: which counterexample TLC prints for a liveness
    violation depends on when its liveness checks run (on a loaded machine too), never the verdict."""
    return _COUNTEREXAMPLE.sub("counterexample", reason) if reason else reason


def _item_key(record: dict[str, Any]) -> str:
    """An item's id, with its model's name when the record names one (a run may replay several models,
    whose items share ids)."""
    model = _model_name(record)
    return f"{model}:{record['id']}" if model else record["id"]


def differences(off: list[dict[str, Any]], on: list[dict[str, Any]], *, passed_only: bool = False) -> list[str]:
    """Items whose verdict (passed and reason of each grade, see :func:`verdict_reason`; ``passed_only``:
    passed) differs between the arms."""
    def verdicts(records: list[dict[str, Any]]) -> dict[str, Any]:
        return {_item_key(r): {g: e["passed"] if passed_only else (e["passed"], verdict_reason(e["reason"]))
                               for g, e in r["grades"].items()} for r in records}
    a, b = verdicts(off), verdicts(on)
    found = [f"{key}: only in one arm" for key in sorted(set(a) ^ set(b))]
    found += [f"{key}: off {a[key]} / on {b[key]}" for key in sorted(set(a) & set(b)) if a[key] != b[key]]
    return found


def load_real_outputs(data: Path = REAL_DATA) -> list[dict[str, Any]]:
    """The real workload's outputs (``outputs.jsonl``: task, model, sample, text, the released verdicts…)."""
    return [json.loads(line) for line in (data / "outputs.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]


def real_workload(folder: Path, task_ids: list[str] | None, tasks: int | None, data: Path = REAL_DATA) -> Workload:
    """The released outputs of the chosen tasks as one replay file per model, original condition only,
    each line stamped with the version of the condition it answers (so the replay checks it)."""
    outputs = load_real_outputs(data)
    ids = sorted({row["task"] for row in outputs if not task_ids or row["task"] in task_ids}, key=_natural)
    chosen = ids[:tasks] if tasks is not None else ids
    # The ids go in a file: a long ?ids=a,b,... list fails as a path look-up (ENAMETOOLONG) in the suite loader.
    id_file = folder / "task-ids.json"
    id_file.write_text(json.dumps(chosen))
    suite = f"tlabench:{data}?ids={id_file}"
    workspace = Workspace(RunConfig(suite=suite, samples=1, conditions=("original",), cache_dir=folder / "build-cache"))
    versions = {task.id: condition.version for task, prepared in workspace.prepared_conditions()
                for condition, _ in prepared if condition is not None}
    replays: list[Path] = []
    kinds: dict[tuple[str, str, str, int], str] = {}
    by_model: dict[str, list[dict[str, Any]]] = {}
    for row in outputs:
        if row["task"] in chosen:
            by_model.setdefault(row["model"], []).append(row)
    for model, rows in sorted(by_model.items()):
        replay = folder / "replay" / f"{model}.jsonl"
        replay.parent.mkdir(parents=True, exist_ok=True)
        replay.write_text("".join(json.dumps({"task": row["task"], "condition": "original", "sample": row["sample"],
                                              "text": row["text"], "model": model,
                                              "condition_version": versions.get(row["task"])}) + "\n"
                                  for row in rows))
        replays.append(replay)
        kinds.update({(model, row["task"], "original", row["sample"]): model for row in rows})
    samples = 1 + max((row["sample"] for rows in by_model.values() for row in rows), default=0)
    mix = {model: len(rows) for model, rows in sorted(by_model.items())}
    return Workload("real", suite, replays, chosen, kinds, ("original",), samples, mix)


#: The comment that makes a warm arm's extra sample a text of its own (see :func:`warm_workload`).
SAMPLE_MARK = "\\* another sample ({sample}) of this output, for the warm arm of bench_paper_scale\n"


def warm_workload(workload: Workload, folder: Path, extra: int) -> Workload:
    """The real workload with ``extra`` more samples per output: each a copy of the output with one
    comment line of its own before the closing ``====``, so the grade memo and TLC's run cache miss
    (each sample is graded as a new output, at the cost of the first) while everything about the
    reference (its self-check, its checks and graphs) is the same as for the first sample."""
    replays: list[Path] = []
    kinds = dict(workload.kinds)
    for replay in workload.replays:
        rows = [json.loads(line) for line in replay.read_text(encoding="utf-8").splitlines() if line.strip()]
        more = [{**row, "sample": row["sample"] + k * workload.samples, "text": _marked(row["text"], k)}
                for k in range(1, extra + 1) for row in rows]
        target = folder / "warm-replay" / replay.name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("".join(json.dumps(row) + "\n" for row in rows + more))
        replays.append(target)
        kinds.update({(row["model"], row["task"], "original", row["sample"]): row["model"] for row in more})
    mix = {model: count * (1 + extra) for model, count in workload.mix.items()}
    return workload._replace(name=f"{workload.name}-warm", replays=replays, kinds=kinds,
                             samples=workload.samples * (1 + extra), mix=mix)


def _marked(text: str, sample: int) -> str:
    """``text`` with :data:`SAMPLE_MARK` before its last ``====`` line (appended when it has none)."""
    lines = text.splitlines(keepends=True)
    last = max((i for i, line in enumerate(lines) if line.lstrip().startswith("====")), default=None)
    mark = SAMPLE_MARK.format(sample=sample)
    return "".join(lines[:last] + [mark] + lines[last:]) if last is not None else text + "\n" + mark


def synthetic_workload(folder: Path, args: argparse.Namespace, task_ids: list[str] | None) -> Workload:
    """The synthetic mix (the docstring's table) on ``--suite``, both conditions, ``--samples`` each."""
    suite = args.suite
    if args.max_runtime is not None:
        clone = Path(suite.removeprefix("examples:"))
        fast = fast_examples(clone, args.max_runtime, folder / "fast")
        if args.tasks is not None or task_ids:
            # Only the chosen models: the workload and every arm prepare (and self-check) no other.
            usable = sorted((task for task in load_suite(f"examples:{fast}") if task.cfg is not None
                             and (not task_ids or task.id in task_ids)), key=lambda task: task.id)
            wanted = {str(dict(task.extra)["model"]) for task in usable[:args.tasks]}
            fast = fast_examples(clone, args.max_runtime, folder / "chosen", wanted)
        suite = f"examples:{fast}"
    workspace = Workspace(RunConfig(suite=suite, samples=args.samples, cache_dir=folder / "build-cache"))
    lines, chosen = build_workload(workspace, task_ids, args.tasks, args.samples)
    replay = folder / "outputs.jsonl"
    replay.write_text("".join(json.dumps({k: v for k, v in line.items() if k != "kind"}) + "\n" for line in lines))
    mix = Counter(line["kind"].split(":")[0] if not line["kind"].startswith("repeat") else "repeat" for line in lines)
    kinds = {("", line["task"], line["condition"], line["sample"]): line["kind"] for line in lines}
    return Workload("synthetic", suite, [replay], chosen, kinds, ("original", "random"), args.samples,
                    dict(sorted(mix.items())))


def _natural(text: str) -> tuple[int, str]:
    return (int(text), "") if text.isdigit() else (1 << 62, text)


def run_workload(workload: Workload, folder: Path, args: argparse.Namespace) -> dict[str, Any]:
    """Every arm over one workload; figures, ratios and verdict differences."""
    outputs = sum(workload.mix.values())
    print(f"{workload.name} workload: {len(workload.chosen)} tasks, {outputs} outputs; mix: {workload.mix}",
          file=sys.stderr)
    names = (("before", "on") if args.only_on else ("before", "off", "on")) if args.before else \
        ("on",) if args.only_on else ("off", "on")
    arms = {name: run_arm(f"{workload.name}-{name}", folder, workload, args) for name in names}
    results = {name: figures(arm, workload.kinds) for name, arm in arms.items()}
    diff = differences(arms["off"]["records"], arms["on"]["records"]) if "off" in arms else []
    ratio = {"wall": round(results["off"]["wall_s"] / results["on"]["wall_s"], 2),
             "s_per_verdict": round(results["off"]["s_per_verdict"] / max(1e-9, results["on"]["s_per_verdict"]), 2)
             } if "off" in arms else {}
    before_diff: list[str] = []
    if args.before:
        ratio["before_wall"] = round(results["before"]["wall_s"] / results["on"]["wall_s"], 2)
        ratio["before_s_per_verdict"] = round(results["before"]["s_per_verdict"]
                                              / max(1e-9, results["on"]["s_per_verdict"]), 2)
        before_diff = differences(arms["before"]["records"], arms["on"]["records"], passed_only=True)
        before_reasons = differences(arms["before"]["records"], arms["on"]["records"])
    else:
        before_reasons = []
    warm = warm_arm(workload, folder, args, arms["on"]) if args.warm_samples and workload.name == "real" else None
    return {"workload": workload, "arms": arms, "results": results, "diff": diff, "ratio": ratio,
            "before_diff": before_diff, "before_reasons": before_reasons, "warm": warm}


def warm_arm(workload: Workload, folder: Path, args: argparse.Namespace, cold: dict[str, Any]) -> dict[str, Any]:
    """The issue's second run: the cold "on" arm's cache, every output again plus ``--warm-samples``
    more samples of it (:func:`warm_workload`). Its figures, and whether each extra sample got its
    first sample's pass/fail (the same spec; a reason may cite other line numbers)."""
    warm = warm_workload(workload, folder, args.warm_samples)
    arm = run_arm("real-warm", folder, warm, args, cache=folder / f"{workload.name}-on" / "cache")
    first = {(_model_name(r), r["task"]): {g: e.get("passed") for g, e in r["grades"].items()} for r in cold["records"]}
    agree = sum(first.get((_model_name(r), r["task"])) == {g: e.get("passed") for g, e in r["grades"].items()}
                for r in arm["records"])
    return {"figures": figures(arm, warm.kinds), "outputs": len(arm["records"]), "same_pass_fail_as_first": agree,
            "extra_samples": args.warm_samples, "records": arm["records"], "kinds": warm.kinds}


def print_workload(run: dict[str, Any], args: argparse.Namespace) -> None:
    workload, results, ratio = run["workload"], run["results"], run["ratio"]
    for name, data in results.items():
        print(f"\n== {workload.name} workload: shortcuts {name} ==")
        for key, value in data.items():
            if key != "slowest":
                print(f"{key:18} {value}")
        print("slowest items:")
        for item, seconds, why in data["slowest"]:
            print(f"  {seconds:8.2f} s  {item}: {why}")
    if "wall" in ratio:
        print(f"\n{workload.name}: ratio off/on: wall {ratio['wall']}x, seconds per verdict {ratio['s_per_verdict']}x")
    if args.before:
        print(f"{workload.name}: ratio before/on: wall {ratio['before_wall']}x, seconds per verdict "
              f"{ratio['before_s_per_verdict']}x; same pass/fail as before: "
              f"{'yes' if not run['before_diff'] else 'NO (%d items differ)' % len(run['before_diff'])}")
        for line in run["before_diff"][:20]:
            print("  " + line)
    if run.get("warm"):
        _print_warm(run["warm"], results["on"])
        print(f"{workload.name}: same verdicts and reasons as before: "
              f"{'yes' if not run['before_reasons'] else 'NO (%d items differ)' % len(run['before_reasons'])}")
        for line in run["before_reasons"][:20]:
            print("  " + line)
    if "off" in results:
        print(f"{workload.name}: identical verdicts off/on: "
              f"{'yes' if not run['diff'] else 'NO (%d items differ)' % len(run['diff'])}")
    for line in run["diff"][:20]:
        print("  " + line)


def _print_warm(warm: dict[str, Any], cold: dict[str, Any]) -> None:
    """The second run next to the first: where its time went, and whether the extra samples agree."""
    figures_, stages = warm["figures"], warm["figures"]["seconds_per_stage"]
    print(f"\n== real workload, second run (the first's cache, {warm['extra_samples']} more samples per output) ==")
    print(f"wall {figures_['wall_s']} s for {warm['outputs']} outputs (first run: {cold['wall_s']} s for "
          f"{cold['outputs']}); self-checks made {stages['self_check']} s, waited for {stages['self_check_wait']} s; "
          f"grades {figures_['grade_s_total']} s (SANY {stages['sany']} s, TLC {stages['tlc']} s)")
    print(f"same pass/fail as the output's first sample: {warm['same_pass_fail_as_first']}/{warm['outputs']}")
    for item, seconds, why in figures_["slowest"][:5]:
        print(f"  {seconds:8.2f} s  {item}: {why}")


def print_summary(runs: list[dict[str, Any]], args: argparse.Namespace) -> None:
    """Both workloads side by side: wall time and seconds per verdict per arm, and verdict identity."""
    print("\n== workloads ==")
    print("| workload | tasks | outputs | arm | wall s | verdicts | s/verdict | same verdicts |")
    print("|---|---:|---:|---|---:|---:|---:|---|")
    for run in runs:
        workload = run["workload"]
        for name, data in run["results"].items():
            same = "-"
            if name == "off":
                same = "off = on" if not run["diff"] else f"{len(run['diff'])} differ from on"
            elif name == "before":
                same = "pass/fail = on" if not run["before_diff"] else f"{len(run['before_diff'])} differ from on"
            print(f"| {workload.name} | {len(workload.chosen)} | {data['outputs']} | {name} | {data['wall_s']} | "
                  f"{data['verdicts']} | {data['s_per_verdict']} | {same} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workload", choices=("real", "synthetic", "both"), default=None,
                        help="real: TLA+-Bench's released outputs (benchmarks/data/tlabench_real, original condition "
                             "only); synthetic: the docstring's mix; both (default: real when its data exists)")
    parser.add_argument("--suite", default="builtin",
                        help="synthetic workload: builtin, or examples:PATH (a tlaplus/Examples clone)")
    parser.add_argument("--real-data", type=Path, default=REAL_DATA,
                        help="real workload: a folder laid out as benchmarks/data/tlabench_real (outputs.jsonl, "
                             "manifest.jsonl, specs/, descriptions/), e.g. outputs held back from this repository")
    parser.add_argument("--tasks", type=int, default=None, help="only the first N tasks (with a cfg)")
    parser.add_argument("--task-ids", default=None, help="only these task ids (ID,ID,...)")
    parser.add_argument("--quick", action="store_true", help="4 tasks, 2 samples: a smoke run of a few minutes")
    parser.add_argument("--samples", type=int, default=5, help="synthetic workload: samples per task and condition")
    parser.add_argument("--timeout", type=float, default=300.0, help="TLC limit per run (the paper's 300 s)")
    parser.add_argument("--workers", type=int, default=2, help="pytest-xdist workers (-n)")
    parser.add_argument("--json", type=Path, default=None, help="also write every figure and row here")
    parser.add_argument("--only-on", action="store_true",
                        help="only the arm with the shortcuts on (with --before: before and on; no off arm)")
    parser.add_argument("--max-runtime", type=float, default=None,
                        help="examples suites only: keep the models whose manifest runtime is at most this many seconds")
    parser.add_argument("--before", type=Path, default=None,
                        help="a checkout of earlier code (e.g. `git worktree add /tmp/before COMMIT`): a third arm "
                             "grades the same workload with it, for a before/after ratio in the same run")
    parser.add_argument("--warm-samples", type=int, default=0,
                        help="real workload: then grade again with the shortcuts-on arm's cache, each output plus N "
                             "more samples of it (copies with a comment of their own): the cost of a second run")
    parser.add_argument("--same-as-before", action="store_true",
                        help="with --before: exit 1 unless every item's verdict and reason equal the before arm's "
                             "(the proof a restructuring asks for)")
    args = parser.parse_args()
    if args.quick:
        args.tasks, args.samples = args.tasks or 4, 2
    if args.workload is None:
        args.workload = "real" if (args.real_data / "outputs.jsonl").is_file() else "synthetic"
    args.real_data = args.real_data.resolve()
    if args.max_runtime is not None and not args.suite.startswith("examples:"):
        parser.error("--max-runtime needs --suite examples:PATH")
    task_ids = args.task_ids.split(",") if args.task_ids else None
    names = ("real", "synthetic") if args.workload == "both" else (args.workload,)
    runs = []
    with tempfile.TemporaryDirectory(prefix="alias-paper-scale-") as scratch:
        for name in names:
            folder = Path(scratch) / name
            folder.mkdir()
            workload = real_workload(folder, task_ids, args.tasks, args.real_data) if name == "real" else \
                synthetic_workload(folder, args, task_ids)
            runs.append(run_workload(workload, folder, args))
    for run in runs:
        print_workload(run, args)
    print_summary(runs, args)
    if args.json:
        args.json.write_text(json.dumps({run["workload"].name: {
            "tasks": run["workload"].chosen, "mix": run["workload"].mix, "arms": run["results"],
            "ratio": run["ratio"], "differences": run["diff"], "differences_from_before": run["before_diff"],
            "reason_differences_from_before": run["before_reasons"],
            "items": {name: item_rows(arm["records"], run["workload"].kinds) for name, arm in run["arms"].items()},
            **({"warm": {**{k: v for k, v in run["warm"].items() if k not in ("records", "kinds")},
                         "items": item_rows(run["warm"]["records"], run["warm"]["kinds"])}} if run["warm"] else {})}
            for run in runs}, indent=1))
    if args.same_as_before and any(run["before_reasons"] for run in runs):
        return 1  # a restructuring must change no verdict and no reason
    return 1 if any(run["diff"] for run in runs) else 0


if __name__ == "__main__":
    sys.exit(main())
