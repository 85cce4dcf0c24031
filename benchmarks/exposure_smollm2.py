"""The exposure experiment offline on SmolLM2-135M: split, two LoRA fine-tunes, likelihoods, Table 2.

    python benchmarks/exposure_smollm2.py [--out exposure-smollm2] [--pool-size 8] [--epochs 3]

The same steps as the command sequence in docs/how-to/exposure.md, in one process:

1. ``tla-alias split builtin --pool examples:../shared/corpus/tlaplus-examples --pool-size 8``
   (the pool only when the corpus is beside the project; the 8 shortest pool specs keep a CPU run short);
2. ``tla-alias finetune --base smollm2 --half A`` and ``--half B`` (appendix E's settings: LoRA rank
   16, α 32, 3 epochs, learning rate 2e-4, no weight decay, warm-up capped at 10% of the steps; fp32
   weights, the one deviation, since this runs on a CPU);
3. ``tla-alias likelihood --model smollm2?lora=DIR`` for both adapters, original and random conditions;
4. ``tla-alias exposure``: the likelihood rows of Table 2 with 10,000-resample task bootstrap CIs.

Every step resumes: a finished adapter or likelihood file in ``--out`` is kept, so a second run
only redoes what is missing. Wall-clock seconds per step are printed and saved in ``timings.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "tlaplus-examples"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("exposure-smollm2"), help="working folder")
    parser.add_argument("--pool-size", type=int, default=8, help="shortest pool specs kept (default 8)")
    parser.add_argument("--epochs", type=int, default=None, help="epochs (default 3, appendix E)")
    parser.add_argument("--learning-rate", type=float, default=None, help="peak learning rate (default 2e-4)")
    parser.add_argument("--resamples", type=int, default=10_000, help="bootstrap resamples (default 10,000)")
    args = parser.parse_args(argv)

    from pytest_alias.exposure.analysis import analyse, read_rows
    from pytest_alias.exposure.finetune import FinetuneSettings
    from pytest_alias.run.likelihood import run_likelihood
    from pytest_alias.exposure.split import load_split, make_split
    from pytest_alias.exposure.tables import render_markdown, write_outputs
    from pytest_alias.exposure.training import finetune
    from pytest_alias.tasks.suites import load_suite

    out = args.out
    out.mkdir(parents=True, exist_ok=True)
    timings: dict[str, float] = {}
    live = sys.stderr.isatty()

    def step(name: str, started: float) -> None:
        timings[name] = round(time.perf_counter() - started, 1)
        print(f"[{name}] {timings[name]:.0f} s", flush=True)

    started = time.perf_counter()
    split_file = out / "split.json"
    if not split_file.is_file():
        pool_suite = f"examples:{CORPUS}" if (CORPUS / "models.json").is_file() else None
        split = make_split(load_suite("builtin"), suite="builtin", pool=load_suite(pool_suite) if pool_suite else [],
                           pool_suite=pool_suite, pool_size=args.pool_size if pool_suite else None)
        split.write(split_file)
    split = load_split(split_file)
    print(f"split {split.identity}: A {len(split.halves['A'])}, B {len(split.halves['B'])}, pool {len(split.pool)}")
    step("split", started)

    overrides = {name: value for name, value in (("epochs", args.epochs), ("learning_rate", args.learning_rate))
                 if value is not None}
    # A CPU run: fp32 weights rather than appendix E's fp16 (half precision on a CPU is slow or unsupported).
    settings = FinetuneSettings(dtype="fp32", **overrides)
    files = []
    for half in ("A", "B"):
        started = time.perf_counter()
        adapter = out / f"adapter-{half}"
        result = finetune("smollm2", split_file, half, "task-pair", adapter, settings=settings, live=live)
        print(f"half {half}: {result.steps} steps, loss {result.losses[0]:.3f} → {result.losses[-1]:.3f}"
              + (" (already trained)" if result.already_done else ""))
        step(f"finetune {half}", started)
        started = time.perf_counter()
        scores = out / f"likelihood-{half}.jsonl"
        if not scores.is_file():
            run_likelihood(f"smollm2?lora={adapter}", "builtin", scores, live=live)
        files.append(scores)
        step(f"likelihood {half}", started)

    started = time.perf_counter()
    rows = [row for path in files for row in read_rows(path)]
    analysis = analyse(rows, split, resamples=args.resamples)
    write_outputs(analysis, markdown=out / "exposure.md", json_path=out / "exposure.json", html_path=out / "exposure.html")
    step("analysis", started)
    print(render_markdown(analysis))
    print(f"total {sum(timings.values()):.0f} s; tables in {out / 'exposure.md'}")
    (out / "timings.json").write_text(json.dumps(timings, indent=2))
    return 0 if analysis.effects else 1


if __name__ == "__main__":
    sys.exit(main())
