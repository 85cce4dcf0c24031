"""The exposure experiment offline on SmolLM2-135M, end to end: models with known exposure, generated and graded.

    python benchmarks/exposure_smollm2.py --out exposure-smollm2 --tasks 8 --pool-size 0 --samples 2 --jobs 2

(49 minutes measured on the shared two-core machine, 72 CPU minutes; ``--plan`` prints the steps and the
estimate without running them).

One script, every step through the project's real doors (``tla-alias`` and the pytest plugin, each
in its own process), every finished step kept:

1. ``split``: halves A and B of the chosen built-in tasks (and a pool of the shortest
   tlaplus/Examples specs beside the project, ``--pool-size``); then the conditions (original and
   renamed) are prepared into the run cache once, and each reference's token count is measured,
   which sets the token budget (``--max-new-tokens auto``: the longest renamed reference + 10%, so a
   model that reproduces a reference has room to write all of it);
2. ``finetune``: per dose (``--doses``: ``paper`` = appendix E, ``strong`` = a dose that makes the
   small model reproduce what it saw; ``pytest_alias.exposure.doses``) and half, a LoRA adapter, the
   dose's name in its ``training.json`` and so in every record of it;
3. ``likelihood``: the base model's and each adapter's likelihood of every reference (Table 2's
   likelihood rows; Min-K%, Min-K%++, zlib; the base model's values are the membership flags'
   thresholds);
4. ``generate``: each adapter as a model (``smollm2?lora=DIR``) through the plugin on the chosen
   tasks, original and renamed, every grade, ``--samples`` per task and condition; run file and
   outputs kept (Table F.1, Table 2's pass-rate rows, appendix N, sample agreement);
5. ``continuation`` (``--continuation``): appendix L's file continuation by each adapter;
6. ``analysis``: ``tla-alias exposure`` (Table 2, F.1, appendix N, and every signal's detection of
   the known exposure: AUROC, interval, flags) and ``tla-alias report`` (the verdict, with its
   detection column).

Steps whose outputs exist are kept (an interrupted fine-tune resumes from its checkpoint, an
interrupted generation from the generation store in ``OUT/cache``). ``--jobs N`` runs independent
steps side by side (the two halves of a dose, say), each with ``--threads`` torch threads.
Wall-clock and CPU seconds per step are printed and saved in ``OUT/timings.json``; each step's
output is in ``OUT/logs/``.

Deviations from the paper, all recorded in the adapters' ``training.json`` and the run files: fp32
weights (a CPU), no gradient checkpointing (identical gradients, less compute), the SmolLM2 chat
template around appendix E's prompt, and whatever ``--tasks``, ``--samples``, ``--pool-size`` and
``--max-new-tokens`` cut.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "tlaplus-examples"
BASE = "smollm2"

# Measured on the project's shared 2-core machine, one core each, SmolLM2-135M in fp32 (2026-12-06; see
# docs/explanation/exposure.md, "Measured"): CPU seconds, so a busy machine takes longer in wall-clock time.
LOAD_CPU_S = 45.0  # a step's process start: torch, the GGUF tokenizer, dequantized weights, conditions
TRAIN_CPU_S_PER_TOKEN = {"q_proj,k_proj,v_proj,o_proj": 0.012, "all": 0.013}  # one LoRA step, no checkpointing
PROMPT_TOKENS = 300  # chat template + appendix E's prompt + description, beside each reference
# A batch runs until its longest row ends: 16 rows × 704 steps took 362 CPU s (31/s), 16 × 480 about 195 (39/s).
GENERATE_ROW_STEPS_PER_CPU_S = 35.0
GRADE_CPU_S_PER_SAMPLE = 1.0  # SANY, and TLC for the outputs that parse
SCORE_CPU_S_PER_TOKEN = 0.004  # a likelihood forward pass


@dataclass
class Step:
    """One unit of work: a command whose ``outputs`` all exist once it is done."""

    name: str
    argv: list[str]
    outputs: list[Path]
    after: list[str] = field(default_factory=list)
    ok_codes: tuple[int, ...] = (0,)
    always: bool = False  # rerun even when the outputs exist (the cheap analysis)

    def done(self) -> bool:
        return not self.always and all(path.exists() for path in self.outputs)


# --------------------------------------------------------------------------- options


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("exposure-smollm2"), help="working folder")
    parser.add_argument("--tasks", default="all",
                        help="all (the 21 built-in tasks), N (the N with the shortest references) or id,id,…")
    parser.add_argument("--pool-size", type=int, default=8, help="shortest pool specs kept (0: no pool; default 8)")
    parser.add_argument("--doses", default="paper,strong", help="comma-separated doses (default paper,strong)")
    parser.add_argument("--epochs", type=int, default=None, help="override every dose's epochs (a smoke run)")
    parser.add_argument("--samples", type=int, default=5, help="samples per task and condition (default 5, the paper's)")
    parser.add_argument("--generate-doses", default=None,
                        help="the doses whose adapters generate and are graded (default: every dose of --doses)")
    parser.add_argument("--max-new-tokens", default="auto",
                        help="token budget per sample: auto (the longest renamed reference + 10%%) or a number")
    parser.add_argument("--batch-size", type=int, default=32, help="rows per generation batch (default 32)")
    parser.add_argument("--continuation", action="store_true", help="also run appendix L's file continuation")
    parser.add_argument("--jobs", type=int, default=1, help="steps run side by side (default 1)")
    parser.add_argument("--threads", type=int, default=None,
                        help="torch threads per step (default: the usable cores divided by --jobs)")
    parser.add_argument("--resamples", type=int, default=10_000, help="bootstrap resamples (default 10,000)")
    parser.add_argument("--plan", action="store_true", help="print the steps and the estimated time, run nothing")
    return parser.parse_args(argv)


def choose_tasks(spec: str) -> list[str]:
    """The built-in task ids ``--tasks`` names (shortest main module first for a number)."""
    from pytest_alias.tasks.suites import load_suite

    tasks = load_suite("builtin")
    if spec == "all":
        return [task.id for task in tasks]
    if spec.isdigit():
        ranked = sorted(tasks, key=lambda task: (len(dict(task.modules)[task.main]), task.id))
        return sorted(task.id for task in ranked[:int(spec)])
    wanted = [part.strip() for part in spec.split(",") if part.strip()]
    unknown = sorted(set(wanted) - {task.id for task in tasks})
    if unknown:
        raise SystemExit(f"--tasks: no built-in task {', '.join(unknown)}")
    return sorted(wanted)


def suite_of(ids: list[str], every: int) -> str:
    return "builtin" if len(ids) == every else "builtin?ids=" + ",".join(ids)


# --------------------------------------------------------------------------- the in-process first step


def prepare(out: Path, suite: str, cache: Path) -> dict[str, Any]:
    """Prepare (and verify) every condition into the run cache, and count each reference's tokens."""
    from transformers import AutoTokenizer

    from pytest_alias.exposure.data import reference_text
    from pytest_alias.models.local import SMOLLM2_GGUF, smollm2_dir
    from pytest_alias.run.config import RunConfig
    from pytest_alias.run.options import defaults
    from pytest_alias.run.workspace import Workspace

    workspace = Workspace(RunConfig.from_options({**defaults(), "suite": suite, "cache_dir": str(cache)}))
    tokenizer = AutoTokenizer.from_pretrained(str(smollm2_dir()), gguf_file=SMOLLM2_GGUF, local_files_only=True)
    lengths: dict[str, dict[str, int]] = {}
    for task, conditions in workspace.prepared_conditions(live=sys.stderr.isatty()):
        for condition, reason in conditions:
            if condition is not None and reason is None:
                text = reference_text(condition)
                lengths.setdefault(task.id, {})[condition.kind] = len(tokenizer(text)["input_ids"])
    return {"suite": suite, "reference_tokens": lengths}


def budget(plan: dict[str, Any], chosen: str) -> int:
    """``--max-new-tokens``: a number, or auto = the longest reference in any condition + 10%."""
    if chosen != "auto":
        return int(chosen)
    longest = max(n for conditions in plan["reference_tokens"].values() for n in conditions.values())
    return int(math.ceil(1.1 * longest / 16) * 16)


# --------------------------------------------------------------------------- the steps


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "pytest_alias", *args]


def spec_of(adapter: Path, batch_size: int, tokens: int) -> str:
    """One spelling of the adapter's model everywhere, so records, outputs and continuation rows meet
    (continuation rows carry no exposure note: their model name places them); the budget in the spec
    also bounds the continuation, which has no option of its own."""
    return f"{BASE}?lora={adapter.resolve()}&batch_size={batch_size}&max_new_tokens={tokens}"


def adapter_steps(args: argparse.Namespace, out: Path, suite: str, tokens: int, dose: str, half: str,
                  generate: bool) -> dict[str, Step]:
    """The steps of one adapter, by kind: its fine-tune and what needs it."""
    folder = out / dose
    adapter = folder / f"adapter-{half}"
    spec = spec_of(adapter, args.batch_size, tokens)
    tune = f"finetune {dose} {half}"
    steps = {"finetune": Step(tune, cli("finetune", "--base", BASE, "--split", str(out / "split.json"), "--half", half,
                                        "--dose", dose, "--dtype", "fp32", "--no-gradient-checkpointing", "--quiet",
                                        "--out", str(adapter), *(("--epochs", str(args.epochs)) if args.epochs else ())),
                              [adapter / "training.json"]),
             "likelihood": Step(f"likelihood {dose} {half}",
                                cli("likelihood", "--model", spec, "--suite", suite, "--quiet",
                                    "--out", str(folder / f"likelihood-{half}.jsonl")),
                                [folder / f"likelihood-{half}.jsonl"], [tune])}
    if generate:
        run, outputs = folder / f"run-{half}.json", folder / f"outputs-{half}.jsonl"
        steps["generate"] = Step(f"generate {dose} {half}",
                                 [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly", "-q",
                                  "--pyargs", "pytest_alias.plugin.test_tla", f"--alias-model={spec}",
                                  f"--alias-suite={suite}", "--alias-grade=all", f"--alias-samples={args.samples}",
                                  f"--alias-max-new-tokens={tokens}", "--alias-conditions=original,random",
                                  "--alias-no-fail", f"--alias-report={run}", f"--alias-save-outputs={outputs}",
                                  f"--alias-cache-dir={out / 'cache'}"],
                                 [run, outputs], [tune], ok_codes=(0, 1))  # 1: some item failed, the run file is whole
        if args.continuation:
            steps["continuation"] = Step(f"continuation {dose} {half}",
                                         cli("continuation", "--model", spec, "--suite", suite,
                                             "--out", str(folder / f"continuation-{half}.jsonl")),
                                         [folder / f"continuation-{half}.jsonl"], [tune])
    return steps


#: The order steps start in: the long chain (fine-tune, then generation) first, the short scoring steps
#: fill the gaps, so with --jobs 2 both cores stay busy until the end.
KIND_ORDER = ("finetune", "generate", "continuation", "likelihood")


def build_steps(args: argparse.Namespace, out: Path, suite: str, tokens: int, doses: list[str],
                generated: list[str]) -> list[Step]:
    from pytest_alias.exposure.doses import DOSES

    split = out / "split.json"
    longest_first = sorted(doses, key=lambda dose: -DOSES[dose].epochs)
    per_adapter = [adapter_steps(args, out, suite, tokens, dose, half, dose in generated)
                   for dose in longest_first for half in ("A", "B")]
    steps = [found[kind] for kind in KIND_ORDER for found in per_adapter if kind in found]
    steps.append(Step("likelihood base", cli("likelihood", "--model", BASE, "--suite", suite, "--quiet",
                                             "--out", str(out / "likelihood-base.jsonl")),
                      [out / "likelihood-base.jsonl"]))
    before = [step.name for step in steps]
    files = [str(path) for step in steps if not step.name.startswith("finetune") for path in step.outputs]
    steps.append(Step("analysis", cli("exposure", *files, "--split", str(split), "--resamples", str(args.resamples),
                                      "--markdown", str(out / "exposure.md"), "--json", str(out / "exposure.json"),
                                      "--html", str(out / "exposure.html")),
                      [out / "exposure.md"], before, ok_codes=(0, 1), always=True))
    steps.append(Step("report", cli("report", *files, "--split", str(split), "--resamples", str(args.resamples),
                                    "--out", str(out / "report")),
                      [out / "report" / "report.md"], ["analysis"], always=True))
    return steps


def estimate(args: argparse.Namespace, plan: dict[str, Any], split: dict[str, Any], tokens: int,
             doses: list[str], generated: list[str]) -> dict[str, float]:
    """CPU seconds per kind of step from the measured rates above; generation counts every row at the
    full budget (a batch runs until its longest row ends, and most batches hold one that does)."""
    from pytest_alias.exposure.doses import DOSES

    lengths = plan["reference_tokens"]
    example = {task: PROMPT_TOKENS + conditions.get("original", 0) for task, conditions in lengths.items()}
    pool = (PROMPT_TOKENS + 700) * len(split.get("pool") or [])  # pool specs are about as long as the tasks'
    found = {"finetune": 0.0, "likelihood": 0.0, "generate": 0.0}
    for dose in doses:
        epochs = args.epochs or DOSES[dose].epochs
        rate = TRAIN_CPU_S_PER_TOKEN["all" if len(DOSES[dose].target_modules) > 4 else "q_proj,k_proj,v_proj,o_proj"]
        for half in ("A", "B"):
            tokens_per_epoch = pool + sum(example[t] for t in split["halves"][half] if t in example)
            found["finetune"] += LOAD_CPU_S + epochs * tokens_per_epoch * rate
    scored = sum(PROMPT_TOKENS + n for conditions in lengths.values() for n in conditions.values())
    found["likelihood"] = (1 + 2 * len(doses)) * (LOAD_CPU_S + scored * SCORE_CPU_S_PER_TOKEN)
    rows = 2 * len(generated) * len(lengths) * 2 * args.samples
    found["generate"] = (2 * len(generated) * LOAD_CPU_S + rows * tokens / GENERATE_ROW_STEPS_PER_CPU_S
                         + rows * GRADE_CPU_S_PER_SAMPLE)
    if args.continuation:  # one file per task and condition per adapter, in one batch
        found["generate"] += 2 * len(generated) * (LOAD_CPU_S + len(lengths) * 2 * tokens / GENERATE_ROW_STEPS_PER_CPU_S)
    return found


# --------------------------------------------------------------------------- running steps


def cpu_seconds(usage: Any) -> float:
    return usage.ru_utime + usage.ru_stime


def own_cpu() -> float:
    """CPU seconds of this process and the children it has waited for (SANY and TLC while preparing)."""
    import resource

    return sum(cpu_seconds(resource.getrusage(who)) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))


class Runner:
    """Runs steps with up to ``jobs`` at once, logs each, and keeps their wall and CPU seconds."""

    def __init__(self, out: Path, jobs: int, env: dict[str, str], timings: dict[str, Any]) -> None:
        self.out, self.jobs, self.env, self.timings = out, max(1, jobs), env, timings
        (out / "logs").mkdir(parents=True, exist_ok=True)

    def run(self, steps: list[Step]) -> bool:
        finished = {step.name for step in steps if step.done()}
        for step in steps:
            if step.name in finished:
                print(f"[{step.name}] kept (outputs exist)", flush=True)
                self.timings.setdefault(step.name, {"kept": True})
        pending = [step for step in steps if step.name not in finished]
        running: dict[int, tuple[Step, subprocess.Popen[bytes], float, Any]] = {}
        failed: list[str] = []
        last_note = time.monotonic()
        while pending or running:
            self._start(pending, running, finished, failed)
            if not running:
                break  # only steps whose inputs failed are left
            pid, status, usage = os.wait4(-1, os.WNOHANG)
            if pid == 0:  # nothing finished: a progress note now and then, else wait a little
                if time.monotonic() - last_note > 60:
                    last_note = time.monotonic()
                    for other, _, begun, other_log in running.values():
                        print(f"  … {other.name} {time.perf_counter() - begun:.0f} s: "
                              f"{tail(Path(other_log.name), 1)[:160]}", flush=True)
                time.sleep(1.0)
                continue
            if pid not in running:
                continue
            last_note = time.monotonic()  # the next progress note a minute after this line
            step, _, started, log = running.pop(pid)
            log.close()
            code = os.waitstatus_to_exitcode(status)
            wall = time.perf_counter() - started
            self.timings[step.name] = {"wall_s": round(wall, 1), "cpu_s": round(cpu_seconds(usage), 1), "exit": code}
            ok = code in step.ok_codes and all(path.exists() for path in step.outputs)
            print(f"[{step.name}] {'done' if ok else 'FAILED'} in {wall:.0f} s wall, {cpu_seconds(usage):.0f} s CPU"
                  + ("" if ok else f" (exit {code}; see {log.name})"), flush=True)
            if ok:
                finished.add(step.name)
                self._note(step)
            else:
                failed.append(step.name)
                print(tail(Path(log.name)), flush=True)
            self._save()
        return not failed

    def _start(self, pending: list[Step], running: dict[int, Any], finished: set[str], failed: list[str]) -> None:
        """Start every pending step whose inputs are done, up to ``jobs`` at once, in list order."""
        for step in list(pending):
            if len(running) >= self.jobs:
                return
            if any(name in failed for name in step.after):
                pending.remove(step)
                failed.append(step.name)
                print(f"[{step.name}] not run: an earlier step failed", flush=True)
            elif all(name in finished for name in step.after):
                pending.remove(step)
                log = (self.out / "logs" / (step.name.replace(" ", "-") + ".log")).open("wb")
                child = subprocess.Popen(step.argv, stdout=log, stderr=subprocess.STDOUT, env=self.env, cwd=self.out)
                running[child.pid] = (step, child, time.perf_counter(), log)
                print(f"[{step.name}] started", flush=True)

    def _note(self, step: Step) -> None:
        """A line of what the step produced."""
        text = tail(self.out / "logs" / (step.name.replace(" ", "-") + ".log"), 1)
        if text:
            print(f"  {text}", flush=True)

    def _save(self) -> None:
        (self.out / "timings.json").write_text(json.dumps(self.timings, indent=2) + "\n")


def tail(path: Path, lines: int = 15) -> str:
    try:
        text = path.read_text(errors="replace").replace("\r", "\n")
    except OSError:
        return ""
    kept = [line for line in text.splitlines() if line.strip() and "GGUF" not in line and "Loading weights" not in line]
    return "\n".join(kept[-lines:])


# --------------------------------------------------------------------------- main


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    cache = out / "cache"
    timings_file = out / "timings.json"
    timings: dict[str, Any] = json.loads(timings_file.read_text()) if timings_file.is_file() else {}
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    threads = args.threads or max(1, cores // max(1, args.jobs))
    env = {**os.environ, "ALIAS_CACHE_DIR": str(cache), "OMP_NUM_THREADS": str(threads),
           "MKL_NUM_THREADS": str(threads), "TOKENIZERS_PARALLELISM": "false"}
    os.environ.update({"ALIAS_CACHE_DIR": str(cache)})

    from pytest_alias.exposure.doses import DOSES
    from pytest_alias.tasks.suites import load_suite

    doses = [d.strip() for d in args.doses.split(",") if d.strip()]
    generated = doses if args.generate_doses is None else [d.strip() for d in args.generate_doses.split(",") if d.strip()]
    if not doses or any(d not in DOSES for d in doses) or any(d not in doses for d in generated):
        raise SystemExit(f"--doses: choose from {', '.join(DOSES)}; --generate-doses: from --doses")
    ids = choose_tasks(args.tasks)
    suite = suite_of(ids, len(load_suite("builtin")))

    started, cpu = time.perf_counter(), own_cpu()
    split_file = out / "split.json"
    fresh = not split_file.is_file() or not (out / "plan.json").is_file()
    if not split_file.is_file():
        pool = ["--pool", f"examples:{CORPUS}", "--pool-size", str(args.pool_size)] \
            if args.pool_size > 0 and (CORPUS / "models.json").is_file() else []
        subprocess.run(cli("split", suite, *pool, "--out", str(split_file)), check=True, env=env)
    split = json.loads(split_file.read_text())
    if split["suite"] != suite:
        raise SystemExit(f"{split_file} splits {split['suite']}, not {suite}: choose another --out")
    plan_file = out / "plan.json"
    plan = json.loads(plan_file.read_text()) if plan_file.is_file() else prepare(out, suite, cache)
    tokens = budget(plan, args.max_new_tokens)
    plan |= {"max_new_tokens": tokens, "samples": args.samples, "doses": {d: DOSES[d].to_dict() for d in doses},
             "generated_doses": generated, "epochs_override": args.epochs, "pool": split.get("pool"),
             "halves": split["halves"],
             "batch_size": args.batch_size, "jobs": args.jobs, "threads": threads}
    plan_file.write_text(json.dumps(plan, indent=2) + "\n")
    if fresh:  # the split and the prepared conditions (SANY and TLC on every renamed copy)
        timings["split"] = {"wall_s": round(time.perf_counter() - started, 1), "cpu_s": round(own_cpu() - cpu, 1)}
    else:
        timings.setdefault("split", {"kept": True})
    longest = max(n for c in plan["reference_tokens"].values() for n in c.values())
    print(f"split {split['identity']}: A {len(split['halves']['A'])}, B {len(split['halves']['B'])} tasks, "
          f"pool {len(split.get('pool') or [])}; {len(ids)} tasks, longest reference {longest} tokens, "
          f"budget {tokens} new tokens, {args.samples} samples, doses {', '.join(doses)} "
          f"(generating: {', '.join(generated) or 'none'}); "
          f"{args.jobs} job(s) × {threads} thread(s)", flush=True)
    if tokens < longest:
        print(f"warning: --max-new-tokens {tokens} is below the longest reference ({longest}): a model that "
              "reproduces it is cut off", flush=True)
    guess = estimate(args, plan, split, tokens, doses, generated)
    total = sum(guess.values())
    print("estimate (CPU minutes, one core each): " + ", ".join(f"{k} {v / 60:.0f}" for k, v in guess.items())
          + f"; total {total / 60:.0f}, about {total / 60 / min(args.jobs, cores):.0f} min wall on "
          f"{min(args.jobs, cores)} core(s)", flush=True)
    steps = build_steps(args, out, suite, tokens, doses, generated)
    if args.plan:
        for step in steps:
            print(f"  {step.name}: {' '.join(step.argv[1:])}")
        return 0
    ok = Runner(out, args.jobs, env, timings).run(steps)
    spent = {k: v for k, v in timings.items() if isinstance(v, dict) and "wall_s" in v}
    print("timings (wall / CPU seconds): " + "; ".join(f"{k} {v['wall_s']:.0f}/{v.get('cpu_s', 0):.0f}"
                                                        for k, v in spent.items()))
    timings_file.write_text(json.dumps(timings, indent=2) + "\n")
    if (out / "exposure.md").is_file():
        print((out / "exposure.md").read_text())
    print(f"total {time.perf_counter() - started:.0f} s wall this run; tables in {out / 'exposure.md'}, "
          f"verdict in {out / 'report' / 'report.md'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
