"""The exposure commands of ``tla-alias``: ``split``, ``finetune``, ``likelihood`` and ``exposure``.

Thin doors onto :mod:`pytest_alias.exposure`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..atomic import check_output_file
from ..vocabulary import BOOTSTRAP_RESAMPLES, MAX_RESAMPLES, MAX_SEED
from ..errors import AliasError, UsageProblem, usage_message  # one error type for every command: one sentence, exit code 2
from ..exposure.data import ARMS
from ..exposure.doses import DOSES, get_dose
from ..exposure.finetune import DTYPES, LORA_LAYERS, FinetuneSettings
from ..exposure.likelihood import DEFAULT_BATCH_SIZE
from ..exposure.signals import agreement_rows
from ..exposure.split import DEFAULT_SPLIT_SEED, HALVES, load_split, make_split, published_split
from ..models.membership import DEFAULT_MIN_K
from ..run.options import integer, positive_number



def _number(text: str) -> float:
    try:
        return float(str(text).strip())
    except ValueError:  # argparse's type= contract: the user's text is not a number, said as its usage error
        raise argparse.ArgumentTypeError(f"must be a number, not {text!r}") from None


def fraction(text: str) -> float:
    """An argparse type: a number in [0, 1) (a weight decay)."""
    number = _number(text)
    if not 0 <= number < 1:
        raise argparse.ArgumentTypeError(f"must lie in [0, 1), not {text!r}")
    return number


def share(text: str) -> float:
    """An argparse type: a share in (0, 1] (Min-K%'s k)."""
    number = _number(text)
    if not 0 < number <= 1:
        raise argparse.ArgumentTypeError(f"must lie in (0, 1], not {text!r}")
    return number


def _live(args: argparse.Namespace) -> bool:
    return not getattr(args, "quiet", False) and sys.stderr.isatty()


def cmd_split(args: argparse.Namespace) -> int:
    """Split a suite into halves A and B (with an optional pool) and write the split file."""
    from .workspace import open_workspace  # on dispatch: --help loads no run layer (TLC, CIR)

    check_output_file(args.out, "out")  # a link, FIFO or folder: refused before any work
    workspace = open_workspace(args, suite=args.suite, check=False)  # a split reads suites, runs no tool
    test = list(workspace.suite_report().tasks)
    pool_report = workspace.suite_report(args.pool) if args.pool else None
    pool = list(pool_report.tasks) if pool_report else []
    # The pool suite's specs its loader could not use leave the pool too: listed with the others.
    skipped = [(s.id or s.path, f"not loaded ({s.path}): {s.reason}") for s in (pool_report.skipped if pool_report else ())]
    if args.from_file is not None:  # a published split: its halves (and pool), checked against these suites
        split = published_split(args.from_file, test, suite=args.suite, pool=pool, pool_suite=args.pool,
                                pool_skipped=skipped)
    else:
        split = make_split(test, seed=args.seed, suite=args.suite, pool=pool, pool_suite=args.pool,
                           pool_size=args.pool_size, pool_skipped=skipped)
    split.write(args.out)
    origin = f"from {args.from_file}" if args.from_file is not None else f"seed {split.seed}"
    left_out = len(split.pool_excluded)
    print(f"split {split.identity} ({origin}): A {len(split.halves['A'])} tasks, "
          f"B {len(split.halves['B'])} tasks, pool {len(split.pool)}"
          + (f" ({left_out} pool {'spec' if left_out == 1 else 'specs'} left out, listed below)" if left_out else "")
          + f" → {args.out}")
    for line in split.excluded_lines():
        print(line)
    return 0


def cmd_finetune(args: argparse.Namespace) -> int:
    """Train one exposure model's LoRA adapter."""
    from ..exposure.training import finetune  # on dispatch: --help loads no model code

    overrides = {name: getattr(args, name) for name in ("epochs", "learning_rate", "warmup_steps", "rank", "alpha",
                                                         "dtype", "weight_decay", "lora_layers")
                 if getattr(args, name) is not None}
    if args.target_modules is not None:
        overrides["target_modules"] = tuple(m.strip() for m in args.target_modules.split(",") if m.strip())
    if args.no_gradient_checkpointing:
        overrides["gradient_checkpointing"] = False
    try:
        if args.dose is not None:  # the dose's epochs, learning rate and modules, unless given explicitly
            overrides = {**get_dose(args.dose).overrides(), **overrides}
        settings = FinetuneSettings(**overrides)
        result = finetune(args.base, args.split, args.half, args.arm, args.out, settings=settings,
                          suite=args.suite, pool_suite=args.pool_suite, live=_live(args), dose=args.dose)
    except AliasError as exc:  # a missing extra is one too (LocalBackendMissing); any other error is a bug
        raise UsageProblem(str(exc)) from None
    if result.already_done:
        print(f"{args.out}: already trained with these settings and data ({result.steps} steps); nothing to do")
    else:
        first, last = (result.losses[0], result.losses[-1]) if result.losses else (float("nan"), float("nan"))
        print(f"trained half {args.half} ({args.arm}): {result.steps} steps in {result.seconds:.0f} s"
              + (f", resumed at step {result.resumed_at}" if result.resumed_at else "")
              + f"; loss {first:.3f} → {last:.3f}; {_precision_words(result.precision)}; adapter in {args.out}")
    return 0


def _precision_words(precision: dict[str, Any]) -> str:
    """``mixed-fp16 on cuda:0, 2 steps skipped by the loss scaler`` from ``training.json``'s precision."""
    skipped = len(precision.get("skipped_steps") or [])
    return (f"{precision.get('mode', '?')} on {precision.get('device', '?')}"
            + (f", {skipped} {'step' if skipped == 1 else 'steps'} skipped by the loss scaler" if skipped else ""))


def cmd_likelihood(args: argparse.Namespace) -> int:
    """Score every reference's likelihood under a local model."""
    from ..run.likelihood import run_likelihood  # on dispatch: --help loads no run layer (TLC, CIR)

    kinds = tuple(k.strip() for k in args.conditions.split(",") if k.strip())
    try:
        run = run_likelihood(args.model, args.suite, args.out, kinds=kinds, seed=args.seed,
                             batch_size=args.batch_size, cache_dir=getattr(args, "cache_dir", None),
                             meaningful_maps=args.meaningful_maps, live=_live(args), min_k=args.min_k,
                             keep_tokens=args.keep_tokens)
    except AliasError as exc:  # a missing extra is one too (LocalBackendMissing); any other error is a bug
        raise UsageProblem(usage_message(exc, "--")) from None
    means = [row["mean"] for row in run.rows if row["mean"] is not None]
    average = f", mean log-likelihood {sum(means) / len(means):.3f}" if means else ""
    print(f"scored {len(run.rows)} references{average} (Min-K% and Min-K%++ over the lowest {args.min_k:g}) "
          f"→ {args.out}"
          + (f"; skipped {len(run.skipped)} (first: {run.skipped[0][0]} {run.skipped[0][1]}: {run.skipped[0][2]})"
             if run.skipped else ""))
    return 0


def _overrides(args: argparse.Namespace) -> dict[str, tuple[str, str]]:
    chosen: dict[str, tuple[str, str]] = {}
    for half, model in (("A", args.model_a), ("B", args.model_b)):
        if model:
            chosen[model] = (half, args.arm)
    return chosen


def cmd_exposure(args: argparse.Namespace) -> int:
    """Table 2 / F.1 / O.1, appendix N and each signal's detection of known exposure from records,
    likelihood, continuation and saved-output files."""
    from ..exposure.analysis import analyse  # on dispatch: --help loads no numpy or report stack
    from ..report.exposure_tables import render_markdown, write_outputs
    from ..run.saved import covered_of, read_saved_runs

    split = load_split(args.split)
    saved = read_saved_runs(args.files, check_records=False)
    # each file's rows, then a run file's sample agreement: the agreement signal
    rows = [row for file in saved.files for row in (*file.rows, *agreement_rows(file.metadata))]
    analysis = analyse(rows, split, renamed=args.renamed, overrides=_overrides(args), resamples=args.resamples,
                       seed=args.bootstrap_seed, covered=covered_of(saved, args.covered))
    write_outputs(analysis, markdown=args.markdown, json_path=args.json, html_path=args.html)
    print(render_markdown(analysis), end="")
    return 0 if analysis.effects else 1


def add_exposure_commands(commands: Any) -> None:
    """Register the four exposure subcommands on ``commands`` (an argparse subparsers object)."""
    for add in (_add_split, _add_finetune, _add_likelihood, _add_exposure):
        add(commands)


def _add_split(commands: Any) -> None:
    split = commands.add_parser("split", help="exposure experiment: split a suite's tasks into halves A and B")
    split.add_argument("suite", help="the test suite: builtin, a folder of tasks, examples:PATH or tlabench:PATH")
    split.add_argument("--seed", type=integer(0, MAX_SEED), default=DEFAULT_SPLIT_SEED, help=f"split seed (default {DEFAULT_SPLIT_SEED})")
    split.add_argument("--pool", default=None, help="a suite whose tasks outside the test set train both models")
    split.add_argument("--pool-size", type=integer(0), default=None,
                       help="keep only the N shortest pool references (default: the whole pool, as in the paper)")
    split.add_argument("--from", dest="from_file", type=Path, default=None,
                       help="a published split (a split file, or JSON {\"A\": [ids], \"B\": [ids], \"pool\": [ids]}): "
                            "use its halves instead of drawing them with --seed")
    split.add_argument("--out", type=Path, required=True, help="the split file to write (JSON)")
    split.set_defaults(handler=cmd_split)


def _add_finetune(commands: Any) -> None:
    tune = commands.add_parser("finetune", help="exposure experiment: LoRA-fine-tune a local model on one half")
    tune.add_argument("--base", required=True, help="the base model: smollm2 or hf:PATH")
    tune.add_argument("--split", type=Path, required=True, help="the split file (tla-alias split)")
    tune.add_argument("--half", choices=HALVES, required=True, help="the half this model sees")
    tune.add_argument("--arm", choices=ARMS, default="task-pair",
                      help="task-pair: description + reference pairs; spec-only: the half's raw .tla files (appendix O)")
    tune.add_argument("--out", type=Path, required=True, help="the adapter folder (resumes a checkpoint found there)")
    tune.add_argument("--suite", default=None, help="read the test tasks from here instead of the split's suite")
    tune.add_argument("--pool-suite", default=None, help="read the pool tasks from here instead of the split's")
    tune.add_argument("--dose", choices=tuple(DOSES), default=None,
                      help="a named exposure dose, recorded in training.json and every record of the adapter: "
                           + "; ".join(f"{d.name}: {d.summary}" for d in DOSES.values())
                           + " (--epochs, --learning-rate and --target-modules still win)")
    tune.add_argument("--epochs", type=integer(1), default=None, help="epochs (default 3, appendix E)")
    tune.add_argument("--learning-rate", type=positive_number, default=None, help="peak learning rate (default 2e-4)")
    tune.add_argument("--warmup-steps", type=integer(0), default=None,
                      help="warm-up steps (default 100, capped at 10%% of all steps)")
    tune.add_argument("--rank", type=integer(1), default=None, help="LoRA rank (default 16)")
    tune.add_argument("--alpha", type=integer(1), default=None, help="LoRA alpha (default 32)")
    tune.add_argument("--dtype", choices=DTYPES, default=None,
                      help="training precision: fp16 (default, appendix E: the Trainer's fp16=True — fp16 autocast, "
                           "dynamic loss scaling, fp32 LoRA weights; CUDA only), bf16 (appendix F's Gemma: bf16 base "
                           "weights), fp32 (a CPU)")
    tune.add_argument("--weight-decay", type=fraction, default=None,
                      help="AdamW weight decay (default 0: the paper's Transformers AdamW without a decay)")
    tune.add_argument("--target-modules", default=None,
                      help="comma-separated module names LoRA adapts (default q_proj,k_proj,v_proj,o_proj)")
    tune.add_argument("--lora-layers", choices=LORA_LAYERS, default=None,
                      help="all (default) or text: only a multimodal base's language layers (appendix F, Gemma)")
    tune.add_argument("--no-gradient-checkpointing", action="store_true",
                      help="keep activations (faster, more memory)")
    tune.add_argument("--quiet", action="store_true", help="plain progress lines instead of a live bar")
    tune.set_defaults(handler=cmd_finetune)


def _add_likelihood(commands: Any) -> None:
    score = commands.add_parser("likelihood", help="exposure experiment: mean token log-likelihood of each reference")
    score.add_argument("--model", required=True, help="a local model: smollm2[?lora=DIR] or hf:PATH[?lora=DIR]")
    score.add_argument("--suite", default="builtin", help="the suite (default builtin)")
    score.add_argument("--conditions", default="original,random", help="conditions to score (default original,random)")
    score.add_argument("--seed", type=integer(0, MAX_SEED), default=None, help="the random condition's seed (default: the plugin's)")
    score.add_argument("--meaningful-maps", default=None, help="meaningful name maps (for the meaningful condition)")
    score.add_argument("--batch-size", type=integer(1), default=DEFAULT_BATCH_SIZE,
                       help=f"references per forward pass (default {DEFAULT_BATCH_SIZE})")
    score.add_argument("--min-k", type=share, default=DEFAULT_MIN_K,
                       help=f"the share of lowest-scoring tokens Min-K%% and Min-K%%++ average (default {DEFAULT_MIN_K})")
    score.add_argument("--keep-tokens", action="store_true",
                       help="also store every token's log-probability and Min-K%%++ z-score in the rows")
    score.add_argument("--out", type=Path, required=True, help="the JSON-lines file to write")
    score.add_argument("--quiet", action="store_true", help="plain progress lines instead of a live bar")
    score.set_defaults(handler=cmd_likelihood)


def _add_exposure(commands: Any) -> None:
    exposure = commands.add_parser("exposure", help="exposure experiment: Table 2, F.1, O.1 and appendix N")
    exposure.add_argument("files", nargs="+", type=Path,
                          help="plugin records (.json report or .jsonl), likelihood and continuation files (.jsonl), "
                               "saved outputs (--alias-save-outputs: the sample-agreement signal); rows of the "
                               "base model the adapters were trained from set the flag thresholds")
    exposure.add_argument("--split", type=Path, required=True, help="the split the models were trained on")
    exposure.add_argument("--renamed", default="random", choices=("random", "meaningful"),
                          help="the renamed condition to compare with the original (default random)")
    exposure.add_argument("--model-a", default=None, help="the model trained on half A (when its rows carry no note)")
    exposure.add_argument("--model-b", default=None, help="the model trained on half B (when its rows carry no note)")
    exposure.add_argument("--arm", choices=ARMS, default="task-pair", help="the arm of --model-a/--model-b")
    exposure.add_argument("--covered", type=Path, default=None,
                          help="tla-alias validate-grader --json output: the behavior rows on its covered tasks, as "
                               "in the paper (default: the covered set of a plugin run among FILES, if it has one)")
    exposure.add_argument("--resamples", type=integer(100, MAX_RESAMPLES), default=BOOTSTRAP_RESAMPLES,
                          help=f"bootstrap resamples (default 10,000, at most {MAX_RESAMPLES:,})")
    exposure.add_argument("--bootstrap-seed", type=integer(0, MAX_SEED), default=0, help="bootstrap seed (default 0)")
    exposure.add_argument("--markdown", type=Path, default=None, help="also write the tables as Markdown")
    exposure.add_argument("--json", type=Path, default=None, help="also write every number as JSON")
    exposure.add_argument("--html", type=Path, default=None, help="also write an HTML page with a forest plot")
    exposure.set_defaults(handler=cmd_exposure)
