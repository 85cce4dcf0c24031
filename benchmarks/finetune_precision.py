"""Training precision on SmolLM2-135M: the loss curve of ``--dtype fp16`` against fp32, same data and seed.

    python benchmarks/finetune_precision.py --mode fp32 --out precision-runs        # one training per call
    python benchmarks/finetune_precision.py --mode mixed-fp16 --out precision-runs
    python benchmarks/finetune_precision.py --mode old-fp16 --out precision-runs
    python benchmarks/finetune_precision.py --compare precision-runs                # the table

Modes (each one training through ``train_lora``, appendix E's settings but few examples, short sequences
and few epochs, so a CPU run stays short):

- ``fp32``: fp32 weights, no autocast, no loss scaling (``--dtype fp32``, what a CPU trains).
- ``mixed-fp16``: ``--dtype fp16`` as the Trainer's ``fp16=True`` — fp16 base weights, fp32 LoRA weights,
  fp16 autocast, dynamic loss scaling — run through torch's CPU fp16 kernels (``allow_cpu_fp16``);
  on a GPU (``--device cuda``) it is the real path.
- ``old-fp16``: what ``--dtype fp16`` did before: fp16 base weights, fp32 LoRA weights, no autocast and
  no loss scaling (``train_lora``'s no-autocast path on fp16 weights; ``training.json`` calls it
  ``bf16-weights`` with ``base_weights`` float16, since the old loop took the precision from the weights).
- ``mixed-fp16-scale15``: ``mixed-fp16`` with the scaler starting at 2^15 rather than 2^16 (what
  Accelerate's ``GradScalerKwargs(init_scale=2**15)`` would give the Trainer): a diagnostic that
  separates the precision from a first step the scaler skips.
- ``bf16-weights``: ``--dtype bf16``.

Same examples in every mode — the first ``--examples`` built-in tasks by id as raw ``.tla`` files
(appendix O's spec-only form, so every one of the ``--max-tokens`` tokens carries loss: appendix E's
prompt alone is 190–417 SmolLM2 tokens, and a CPU cannot afford such lengths in fp16) — seed 0 and
appendix E's settings otherwise (rank 16, α 32, dropout 0.05, learning rate 2e-4, warm-up capped at
10%, clipping 1.0, gradient checkpointing). Besides ``training.json`` each mode saves
the gradient of the LoRA weights at step 0 (unscaled, before clipping; same starting weights in every
mode) and the gradient norm per step, so ``--compare`` can say how close each mode's gradients are to
fp32's and how many of fp32's non-zero gradient entries came out 0 (underflow).
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

MODES = {"fp32": ("fp32", "float32"), "mixed-fp16": ("fp16", "float16"),
         "mixed-fp16-scale15": ("fp16", "float16"), "old-fp16": ("bf16", "float16"),
         "bf16-weights": ("bf16", "bfloat16")}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=sorted(MODES), help="train one mode into OUT/MODE")
    parser.add_argument("--out", type=Path, default=Path("precision-runs"), help="working folder")
    parser.add_argument("--compare", type=Path, default=None, help="print the comparison of the modes in this folder")
    parser.add_argument("--examples", type=int, default=4, help="built-in tasks trained on (default 4)")
    parser.add_argument("--max-tokens", type=int, default=96, help="tokens per example (default 96)")
    parser.add_argument("--epochs", type=int, default=2, help="epochs (default 2)")
    parser.add_argument("--device", default="cpu", help="cpu (default) or cuda")
    parser.add_argument("--no-gradient-checkpointing", action="store_true",
                        help="keep activations rather than recompute them (saves a forward pass: CPU fp16 is slow)")
    args = parser.parse_args(argv)
    if args.compare is not None:
        print(compare(args.compare))
        return 0
    if args.mode is None:
        parser.error("give --mode or --compare")
    train_mode(args.mode, args.out / args.mode, args.examples, args.max_tokens, args.epochs, args.device,
               not args.no_gradient_checkpointing)
    return 0


def train_mode(mode: str, out: Path, examples: int, max_tokens: int, epochs: int, device: str,
               checkpointing: bool) -> None:
    import torch

    from pytest_alias.exposure.data import TrainingExample, reference_text
    from pytest_alias.exposure.finetune import FinetuneSettings, train_lora
    from pytest_alias.exposure.training import local_base
    from pytest_alias.tasks.suites import load_suite

    dtype, weights = MODES[mode]
    base = local_base(f"smollm2?device={device}", weights)
    tasks = sorted(load_suite("builtin"), key=lambda task: task.id)[:examples]
    data = [TrainingExample(task.id, "A", "", reference_text(task)) for task in tasks]
    settings = FinetuneSettings(dtype=dtype, epochs=epochs, max_tokens=max_tokens, checkpoint_every=10_000,
                                gradient_checkpointing=checkpointing)
    norms: list[float] = []
    first: dict[str, Any] = {}
    clip = torch.nn.utils.clip_grad_norm_

    def recording_clip(parameters: Any, max_norm: float, *rest: Any, **options: Any) -> Any:
        # train_lora calls this after the scaler's unscale_: the true gradients of the LoRA weights.
        parameters = list(parameters)
        if not first:
            first["grads"] = [p.grad.detach().float().cpu().clone() for p in parameters]
        norm = clip(parameters, max_norm, *rest, **options)
        norms.append(float(norm))
        return norm

    torch.nn.utils.clip_grad_norm_ = recording_clip
    if mode == "mixed-fp16-scale15":
        setattr(torch.amp, "GradScaler", functools.partial(torch.amp.GradScaler, init_scale=2.0 ** 15))
    started = time.perf_counter()
    result = train_lora(base.model, base.tokenizer, data, out, settings=settings, base_identity=base.identity,
                        allow_cpu_fp16=True, info={"benchmark_mode": mode})
    wall = time.perf_counter() - started
    torch.save(first.get("grads", []), out / "grads-step0.pt")
    (out / "extra.json").write_text(json.dumps({"mode": mode, "grad_norms": norms, "wall_seconds": round(wall, 1),
                                                "torch": torch.__version__, "threads": torch.get_num_threads()}))
    print(f"{mode}: {len(result.losses)} steps in {result.seconds:.1f} s; losses "
          + " ".join(f"{loss:.4f}" for loss in result.losses)
          + (f"; skipped {result.skipped_steps}" if result.skipped_steps else ""))


def compare(folder: Path) -> str:
    """A markdown table per mode against fp32: losses, max |Δ|, gradient agreement at step 0, seconds."""
    import torch

    runs = {mode: _load(folder / mode) for mode in MODES if (folder / mode / "training.json").is_file()}
    if "fp32" not in runs:
        raise SystemExit(f"{folder}/fp32 has no training.json: train --mode fp32 first")
    reference = runs["fp32"]
    lines = ["| mode | precision recorded | seconds | losses per step | max abs Δ loss vs fp32 | mean abs Δ | "
             "grad rel. error at step 0 | fp32-non-zero grads that are 0 | grad norm per step | skipped | scale first → last |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for mode, run in runs.items():
        deltas = [abs(a - b) for a, b in zip(run["losses"], reference["losses"])]
        ours, theirs = torch.cat([g.flatten() for g in run["grads"]]), torch.cat([g.flatten() for g in reference["grads"]])
        error = float((ours - theirs).norm() / theirs.norm())
        shown = "overflow (step skipped)" if not math.isfinite(error) else f"{error:.2e}"
        underflow = int(((ours == 0) & (theirs != 0)).sum())
        p = run["precision"]
        lines.append(f"| {mode} | {p.get('mode')}: base {p.get('base_weights')}, LoRA {p.get('trainable_weights')}, "
                     f"autocast {p.get('autocast')}, scaling {p.get('loss_scaling')}, {p.get('device')} "
                     f"| {run['seconds']} | {' '.join(f'{x:.4f}' for x in run['losses'])} | {max(deltas):.4f} "
                     f"| {sum(deltas) / len(deltas):.4f} | {shown} | {underflow} of {int((theirs != 0).sum())} "
                     f"| {' '.join(f'{x:.3f}' for x in run['grad_norms'])} | {p.get('skipped_steps')} "
                     f"| {p.get('initial_loss_scale')} → {p.get('final_loss_scale')} |")
    return "\n".join(lines)


def _load(run: Path) -> dict[str, Any]:
    import torch

    recorded = json.loads((run / "training.json").read_text())
    extra = json.loads((run / "extra.json").read_text())
    return {"losses": recorded["losses"], "seconds": recorded["seconds"], "precision": recorded["precision"],
            "grads": torch.load(run / "grads-step0.pt"), "grad_norms": extra["grad_norms"]}


if __name__ == "__main__":
    sys.exit(main())
