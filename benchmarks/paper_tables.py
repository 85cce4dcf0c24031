"""Every paper table for one suite and its models, in one folder, from one command.

    python benchmarks/paper_tables.py [--suite builtin] [--model reference] [--model replay:FILE] [--samples 5]
                                      [--mutant-limit N] [--out DIR]

Five samples per task and condition by default (the paper's); fewer is a deviation the first line of
output and ``settings.json`` name. Validation generates validate-grader's default number of mutants
per task unless ``--mutant-limit`` says otherwise.

The same commands a user would type, in order (each prints what it does; rerunning reuses the caches):

1. ``tla-alias validate-grader SUITE --json`` → ``validation.json`` (which tasks the behavior grade
   covers: Table J.1, and the covered set behind Table U.1);
2. ``pytest --alias-model=… --alias-grade=all --alias-report=run.json`` → the records of every model;
3. ``tla-alias report run.json --validation validation.json --out DIR`` → ``report.md``, ``report.json``
   and ``report.html`` with Table 1, U.1, P (its upper bound with the 90% CI), M, V.1 (and L or Table 2
   when their files are given with ``--extra``), and Figures S.1 and U.1 (on the covered tasks) as PNG
   files beside them and inline in the page.

Wall-clock seconds per step are printed and kept in ``timings.json``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(step: str, command: list[str], timings: dict[str, float], stdout: Path | None = None) -> None:
    """Run one step, printing it and its wall-clock time; stop the script if it fails."""
    print(f"$ {' '.join(command)}" + (f" > {stdout}" if stdout else ""), flush=True)
    started = time.perf_counter()
    if stdout is not None:
        with stdout.open("w") as sink:
            result = subprocess.run(command, cwd=ROOT, stdout=sink)
    else:
        result = subprocess.run(command, cwd=ROOT)
    timings[step] = round(time.perf_counter() - started, 1)
    print(f"[{step}] {timings[step]:.0f} s, exit {result.returncode}", flush=True)
    if result.returncode not in (0, 1):  # validate-grader exits 1 when a control misbehaves: still a table
        sys.exit(f"{step} failed with exit code {result.returncode}")


PAPER_SAMPLES = 5  # section 3: five samples per task and condition


def describe_settings(args: argparse.Namespace) -> dict[str, object]:
    """What this run uses, each setting with whether it is the paper's (saved as ``settings.json``)."""
    return {"suite": args.suite, "models": args.model or ["reference"], "samples": args.samples,
            "samples_are_papers": args.samples == PAPER_SAMPLES,
            "mutant_limit": args.mutant_limit if args.mutant_limit is not None else "validate-grader default (40)",
            "extra": args.extra}


def settings_line(settings: dict[str, object]) -> str:
    """One line naming every setting, and the deviation from the paper when there is one."""
    samples = f"{settings['samples']} sample(s) per task and condition" + (
        "" if settings["samples_are_papers"] else f" (the paper: {PAPER_SAMPLES})")
    return (f"settings: suite {settings['suite']}; models {', '.join(map(str, settings['models']))}; {samples}; "
            f"mutants per task {settings['mutant_limit']}")


def build_parser() -> argparse.ArgumentParser:
    """The script's options, with the paper's settings as defaults."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="builtin")
    parser.add_argument("--model", action="append", default=None, help="repeatable (default: reference)")
    parser.add_argument("--samples", type=int, default=PAPER_SAMPLES,
                        help=f"samples per task and condition (default {PAPER_SAMPLES}, the paper's)")
    parser.add_argument("--mutant-limit", type=int, default=None,
                        help="mutants generated per task in validation (default: validate-grader's own, 40)")
    parser.add_argument("--extra", action="append", default=[], help="continuation/likelihood files for the report")
    parser.add_argument("--out", type=Path, default=Path("paper-tables"))
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    bin_dir = Path(sys.executable).parent
    timings: dict[str, float] = {}
    settings = describe_settings(args)
    print(settings_line(settings), flush=True)
    (out / "settings.json").write_text(json.dumps(settings, indent=2))

    limit = ["--mutant-limit", str(args.mutant_limit)] if args.mutant_limit is not None else []
    run("validate-grader", [str(bin_dir / "tla-alias"), "validate-grader", args.suite, "--json", *limit],
        timings, out / "validation.json")
    models = [f"--alias-model={model}" for model in (args.model or ["reference"])]
    run("benchmark", [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", f"--alias-suite={args.suite}", *models,
                      "--alias-grade=all", f"--alias-samples={args.samples}", "--alias-no-fail",
                      f"--alias-report={out / 'run.json'}", "-n", "2", "-q"], timings)
    run("report", [str(bin_dir / "tla-alias"), "report", str(out / "run.json"), *args.extra,
                   "--validation", str(out / "validation.json"), "--out", str(out)], timings)
    (out / "timings.json").write_text(json.dumps(timings, indent=2))
    print(f"total {sum(timings.values()):.0f} s; every table in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
