"""LoRA fine-tuning with appendix E's settings, resumable, with a progress line and ``training.json``.

The loop is written here rather than taken from ``transformers.Trainer``: the paper's recipe is one
example per step with a linear schedule, and the loop keeps the two things this experiment must
control in plain sight — the order of the examples (a fixed seed per epoch) and which tokens carry
the loss (the specification only) — and resumes from its own checkpoint exactly, RNG included.

Outputs in ``DIR``: ``adapter_config.json`` and ``adapter_model.safetensors`` (what
``hf:PATH?lora=DIR`` and ``smollm2?lora=DIR`` load), and ``training.json`` (settings, split, data
hashes, loss curve, precision, seconds). While training, ``DIR/checkpoint/`` holds the latest state; a
rerun with the same settings and data continues from it, and it is removed when training ends.

Precision (``--dtype``) follows what Transformers' Trainer does under ``fp16=True``: ``fp16`` is mixed
precision — the frozen base may be held in fp16, the LoRA weights the optimizer updates stay fp32, the
forward pass runs under fp16 autocast, and a ``torch.amp.GradScaler`` scales the loss dynamically
(gradients unscaled before clipping; a step whose gradients overflow is skipped and, as in Trainer,
leaves the schedule where it was). It needs a CUDA GPU: Accelerate gives the Trainer no scaler on a
CPU, and torch's CPU fp16 kernels trained SmolLM2 9–22× slower than fp32 on this project's shared
2-core machine (``benchmarks/finetune_precision.py``). ``bf16``
keeps bf16 base weights with fp32 LoRA weights and no scaling (bf16 has fp32's exponent range);
``fp32`` is plain fp32. ``training.json`` records what ran (``precision``).
"""

from __future__ import annotations

from ..errors import UsageProblem

import hashlib
import json
import math
import os
import random
import shutil
import time
import warnings
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from ..atomic import read_json
from ..atomic import write_json_atomic
from .data import IGNORED_LABEL, MAX_TRAINING_TOKENS, EncodedExample, TrainingExample, data_digest, encode_example

TRAINING_FILE = "training.json"
CHECKPOINT_DIR = "checkpoint"
TRAINING_FORMAT_VERSION = 1


class FinetuneError(UsageProblem):
    """Training that cannot start: an unusable base, a folder holding another training, no data."""


#: Precisions ``--dtype`` offers: appendix E trains Qwen in fp16 (mixed precision, as the Trainer's
#: ``fp16=True``), appendix F Gemma with bf16 weights; fp32 is for CPUs.
DTYPES = ("fp16", "bf16", "fp32")
TORCH_DTYPES = {"fp16": "float16", "bf16": "bfloat16", "fp32": "float32"}
#: What ``training.json`` and every record of the adapter call each ``--dtype``'s way of training.
PRECISION_MODES = {"fp16": "mixed-fp16", "bf16": "bf16-weights", "fp32": "fp32"}
CPU_FP16_MESSAGE = ("--dtype fp16 trains in mixed precision (fp16 autocast, dynamic loss scaling), which needs a "
                    "CUDA GPU; on a CPU pass --dtype fp32 (or bf16)")
#: Which layers LoRA adapts: every matching module, or only a multimodal model's text layers (appendix F).
LORA_LAYERS = ("all", "text")


@dataclass(frozen=True)
class FinetuneSettings:
    """Appendix E's settings; ``warmup_fraction`` caps the warm-up on small sets (see ``warmup_for``).

    ``dtype`` is the training precision (see the module's docstring): ``fp16`` (appendix E) is the
    Trainer's mixed precision, ``bf16`` (appendix F's Gemma) bf16 base weights; LoRA's own weights
    stay fp32 in all three (PEFT's default). ``weight_decay`` is 0: the paper
    names AdamW under Hugging Face Transformers without a decay, and the Trainer's default is 0.
    ``lora_layers="text"`` restricts ``target_modules`` to the language model's layers of a
    multimodal base (appendix F: "the attention projections of the text layers").
    """

    rank: int = 16
    alpha: int = 32
    dropout: float = 0.05
    target_modules: tuple[str, ...] = ("q_proj", "k_proj", "v_proj", "o_proj")
    lora_layers: str = "all"
    dtype: str = "fp16"
    weight_decay: float = 0.0
    epochs: int = 3
    batch_size: int = 1
    learning_rate: float = 2e-4
    warmup_steps: int = 100
    warmup_fraction: float = 0.1
    max_grad_norm: float = 1.0
    max_tokens: int = MAX_TRAINING_TOKENS
    gradient_checkpointing: bool = True
    seed: int = 0
    shuffle_seed: int = 0
    checkpoint_every: int = 25

    def __post_init__(self) -> None:
        for name in ("rank", "alpha", "epochs", "max_tokens", "checkpoint_every"):
            if getattr(self, name) < 1:
                raise FinetuneError(f"{name} must be at least 1, not {getattr(self, name)}")
        if self.batch_size != 1:
            raise FinetuneError("appendix E trains with batch size 1; other batch sizes are not supported")
        if not 0 <= self.dropout < 1 or self.learning_rate <= 0 or self.warmup_steps < 0:
            raise FinetuneError("dropout must lie in [0, 1), learning_rate above 0, warmup_steps 0 or more")
        if self.dtype not in DTYPES:
            raise FinetuneError(f"dtype must be one of {', '.join(DTYPES)}, not {self.dtype!r}")
        if self.lora_layers not in LORA_LAYERS:
            raise FinetuneError(f"lora_layers must be one of {', '.join(LORA_LAYERS)}, not {self.lora_layers!r}")
        if not 0 <= self.weight_decay < 1:
            raise FinetuneError(f"weight_decay must lie in [0, 1), not {self.weight_decay}")
        if not self.target_modules or not all(isinstance(m, str) and m for m in self.target_modules):
            raise FinetuneError("target_modules must name at least one module (e.g. q_proj,k_proj,v_proj,o_proj)")

    def warmup_for(self, total_steps: int) -> int:
        """``warmup_steps``, capped at ``warmup_fraction`` of the run (rounded up).

        The paper's 100 warm-up steps are about 10% of its 1,041 steps (347 examples, 3 epochs);
        on a small set 100 steps would be the whole run, so the cap keeps the paper's proportion.
        """
        return min(self.warmup_steps, math.ceil(self.warmup_fraction * total_steps))

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["target_modules"] = list(self.target_modules)
        return data


@dataclass
class TrainingResult:
    """What ``train_lora`` did: steps, the loss per step, the seconds spent, and whether it resumed."""

    steps: int
    losses: list[float] = field(default_factory=list)
    seconds: float = 0.0
    resumed_at: int = 0
    already_done: bool = False
    #: Steps whose optimizer update the loss scaler skipped (inf/NaN gradients); mixed-fp16 only.
    skipped_steps: list[int] = field(default_factory=list)
    precision: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Precision:
    """How one training computes: the mode, where, the weights' dtypes, autocast and loss scaling.

    ``mixed-fp16`` is the Trainer's ``fp16=True``: ``autocast="float16"`` and ``loss_scaling="dynamic"``
    (a ``torch.amp.GradScaler`` with its defaults, as Accelerate makes it); the other modes use neither.
    """

    mode: str
    device: str
    base_weights: str
    trainable_weights: str
    autocast: str | None = None
    loss_scaling: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def check_precision_device(dtype: str, device_type: str, *, allow_cpu_fp16: bool = False) -> None:
    """FinetuneError when ``dtype`` cannot train on ``device_type``: fp16 mixed precision only on CUDA.

    ``allow_cpu_fp16`` runs the same algorithm through torch's CPU fp16 kernels anyway — slow, and
    for measurements only (``benchmarks/finetune_precision.py``).
    """
    if dtype == "fp16" and device_type != "cuda" and not allow_cpu_fp16:
        raise FinetuneError(CPU_FP16_MESSAGE)


def training_precision(settings: FinetuneSettings, model: Any, device: Any) -> Precision:
    """The precision ``train_lora`` trains ``model`` (already wrapped by PEFT) with, as it is recorded."""
    mixed = settings.dtype == "fp16"
    frozen = sorted({_dtype_name(p.dtype) for p in model.parameters() if not p.requires_grad})
    trained = sorted({_dtype_name(p.dtype) for p in model.parameters() if p.requires_grad})
    return Precision(mode=PRECISION_MODES[settings.dtype], device=str(device), base_weights="+".join(frozen),
                     trainable_weights="+".join(trained), autocast="float16" if mixed else None,
                     loss_scaling="dynamic" if mixed else None)


def _dtype_name(dtype: Any) -> str:
    return str(dtype).removeprefix("torch.")


def epoch_order(count: int, epoch: int, seed: int) -> list[int]:
    """The example order of one epoch: a fixed-seed shuffle, different per epoch, the same on every run."""
    order = list(range(count))
    random.Random(f"alias-exposure:{seed}:{epoch}").shuffle(order)
    return order


def schedule(settings: FinetuneSettings, total_steps: int) -> Callable[[int], float]:
    """The learning-rate factor per step: linear warm-up, then linear decay to 0 at the last step."""
    warmup = settings.warmup_for(total_steps)

    def factor(step: int) -> float:
        if step < warmup:
            return (step + 1) / warmup
        return max(0.0, (total_steps - step) / max(1, total_steps - warmup))

    return factor


def _fingerprint(settings: FinetuneSettings, digest: str, base: str, info: dict[str, Any]) -> str:
    document = json.dumps([settings.to_dict(), digest, base, info], sort_keys=True)
    return hashlib.sha256(document.encode()).hexdigest()[:16]


@dataclass
class _Run:
    """What one training works with: the PEFT model, its optimizer, schedule and scaler, and its checkpoint."""

    peft_model: Any
    adapted: list[str]
    trainable: list[Any]
    optimizer: Any
    scheduler: Any
    device: Any
    precision: Precision
    scaler: Any
    initial_scale: float | None
    fingerprint: str
    checkpoint: Path

    @property
    def state_file(self) -> Path:
        """The checkpoint's one file: model, optimizer, schedule, RNG and scaler state."""
        return self.checkpoint / "state.pt"


def train_lora(model: Any, tokenizer: Any, examples: Sequence[TrainingExample], out: Path | str, *,
               settings: FinetuneSettings = FinetuneSettings(), base_identity: str = "",
               prompt_has_special_tokens: bool = False, info: dict[str, Any] | None = None,
               progress: Callable[[int, int], Any] | None = None, allow_cpu_fp16: bool = False) -> TrainingResult:
    """Train a LoRA adapter on ``model`` (a transformers causal LM) and write it to ``out``.

    ``info`` (split, half, arm, prompt style, …) goes into ``training.json`` and the resume check.
    ``progress(done, total)`` returns an object with ``update(count, **fields)`` and ``close()``
    (a :class:`pytest_alias.progress.Progress`), or None for no progress line. ``settings.dtype``
    fp16 on a model outside CUDA is a FinetuneError unless ``allow_cpu_fp16`` (see
    :func:`check_precision_device`).
    """
    from ..models.local import import_backend  # here: cli/exposure's parser imports this module for --help

    import_backend("torch", "peft")  # a missing extra is one line naming it, before any other check or work

    out = Path(out)
    usable = _usable_examples(tokenizer, examples, settings, prompt_has_special_tokens)
    info = dict(info or {})
    digest = data_digest(examples)
    fingerprint = _fingerprint(settings, digest, base_identity, {**info, **_precision_key(settings)})
    finished = _finished_training(out, fingerprint)
    if finished is not None:
        return finished
    check_precision_device(settings.dtype, next(model.parameters()).device.type, allow_cpu_fp16=allow_cpu_fp16)

    total = settings.epochs * len(usable)
    run = _start_run(model, settings, total, fingerprint, out / CHECKPOINT_DIR)
    result = TrainingResult(steps=total)
    _resume(run, result)
    _train_epochs(run, usable, settings, result, progress)
    _write_adapter(run.peft_model, out)
    result.precision = _precision_record(run, result)
    write_json_atomic(out / TRAINING_FILE, _training_record(run, model, examples, usable, digest, settings, result,
                                                            base_identity, info))
    shutil.rmtree(run.checkpoint, ignore_errors=True)
    return result


def _usable_examples(tokenizer: Any, examples: Sequence[TrainingExample], settings: FinetuneSettings,
                     prompt_has_special_tokens: bool) -> list[EncodedExample]:
    """The encoded examples that keep a specification token; FinetuneError when there are none."""
    if not examples:
        raise FinetuneError("no training examples: the split's half and pool are empty")
    encoded = [encode_example(tokenizer, example, settings.max_tokens, prompt_has_special_tokens)
               for example in examples]
    usable = [e for e in encoded if any(label != IGNORED_LABEL for label in e.labels[1:])]
    if not usable:
        raise FinetuneError(f"no example keeps a specification token within {settings.max_tokens} tokens")
    return usable


def _finished_training(out: Path, fingerprint: str) -> TrainingResult | None:
    """The result ``out``'s ``training.json`` records for this training, None when there is none yet."""
    done_file = out / TRAINING_FILE
    if not done_file.is_file():
        return None
    try:
        recorded = read_json(done_file)
    except (OSError, ValueError):  # damaged (or nested too deeply): not a record of this training
        recorded = None
    if not isinstance(recorded, dict):
        raise FinetuneError(f"{done_file} cannot be read as a training record; choose another --out")
    if recorded.get("fingerprint") == fingerprint:
        return TrainingResult(steps=recorded["steps"], losses=recorded["losses"], seconds=recorded["seconds"],
                              already_done=True, precision=recorded.get("precision") or {})
    raise FinetuneError(f"{out} holds an adapter trained with other settings or data; choose another --out")


def _start_run(model: Any, settings: FinetuneSettings, total: int, fingerprint: str, checkpoint: Path) -> _Run:
    """Wrap ``model`` in its LoRA adapter and set up the optimizer, schedule and loss scaler for ``total`` steps."""
    import torch

    peft_model, adapted, trainable = _adapt(model, settings)
    # torch's AdamW decays by 0.01 unless told; the setting is explicit so the run matches the paper's.
    optimizer = torch.optim.AdamW(trainable, lr=settings.learning_rate, weight_decay=settings.weight_decay)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, schedule(settings, total))
    device = next(peft_model.parameters()).device
    precision = training_precision(settings, peft_model, device)
    # Dynamic loss scaling with GradScaler's defaults (2^16, ×2 every 2,000 clean steps, ½ on overflow),
    # as Accelerate makes it for the Trainer's fp16=True.
    scaler = torch.amp.GradScaler(device.type) if precision.loss_scaling else None
    initial_scale = scaler.get_scale() if scaler is not None else None
    return _Run(peft_model, adapted, trainable, optimizer, scheduler, device, precision, scaler, initial_scale,
                fingerprint, checkpoint)


def _adapt(model: Any, settings: FinetuneSettings) -> tuple[Any, list[str], list[Any]]:
    """``model`` under a fresh LoRA adapter in training mode, the modules it adapts, and the weights it trains."""
    import torch
    from peft import LoraConfig, get_peft_model

    # peft asks transformers about checkpointing under a name that newer transformers deprecate.
    warnings.filterwarnings("ignore", message=".*is_gradient_checkpointing.*", category=FutureWarning)
    torch.manual_seed(settings.seed)  # LoRA's A matrices start random
    if settings.gradient_checkpointing:
        _enable_checkpointing(model)
    adapted = matched_modules(model, settings.target_modules, settings.lora_layers)
    targets = adapted if settings.lora_layers == "text" else list(settings.target_modules)
    lora = LoraConfig(r=settings.rank, lora_alpha=settings.alpha, lora_dropout=settings.dropout,
                      target_modules=targets, task_type="CAUSAL_LM", bias="none")
    peft_model = get_peft_model(model, lora)
    peft_model.train()
    trainable = [p for p in peft_model.parameters() if p.requires_grad]
    if settings.dtype == "fp16":
        for parameter in trainable:  # fp32 master weights: PEFT's default, made sure (GradScaler refuses fp16 ones)
            parameter.data = parameter.data.float()
    return peft_model, adapted, trainable


def _enable_checkpointing(model: Any) -> None:
    """Turn on gradient checkpointing (non-reentrant) and turn off the KV cache it cannot use."""
    # Newer transformers renamed the switch; the old name still works there but warns.
    if hasattr(model, "activation_checkpointing_enable"):
        model.activation_checkpointing_enable(activation_checkpointing_kwargs={"use_reentrant": False})
    else:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    model.config.use_cache = False


def _resume(run: _Run, result: TrainingResult) -> None:
    """Load ``run``'s checkpoint, if there is one, into the run and ``result``."""
    import torch
    from peft import set_peft_model_state_dict

    if not run.state_file.is_file():
        return
    state = torch.load(run.state_file, weights_only=False)
    if state["fingerprint"] != run.fingerprint:
        raise FinetuneError(f"{run.checkpoint} is a checkpoint of another training; remove it or choose another --out")
    set_peft_model_state_dict(run.peft_model, state["adapter"])
    run.optimizer.load_state_dict(state["optimizer"])
    run.scheduler.load_state_dict(state["scheduler"])
    torch.set_rng_state(state["rng"])
    result.losses, result.resumed_at, result.seconds = list(state["losses"]), int(state["step"]), state["seconds"]
    result.skipped_steps = list(state.get("skipped_steps", []))
    if run.scaler is not None:
        run.scaler.load_state_dict(state["scaler"])


def _save_checkpoint(run: _Run, step: int, result: TrainingResult) -> None:
    """Write the state after ``step`` to ``run``'s checkpoint, replacing the last one whole."""
    import torch
    from peft import get_peft_model_state_dict

    run.checkpoint.mkdir(parents=True, exist_ok=True)
    temp = run.checkpoint / "state.pt.tmp"
    torch.save({"fingerprint": run.fingerprint, "step": step, "losses": result.losses, "seconds": result.seconds,
                "adapter": get_peft_model_state_dict(run.peft_model), "optimizer": run.optimizer.state_dict(),
                "scheduler": run.scheduler.state_dict(), "rng": torch.get_rng_state(),
                "skipped_steps": result.skipped_steps,
                "scaler": run.scaler.state_dict() if run.scaler is not None else None}, temp)
    os.replace(temp, run.state_file)


def _train_epochs(run: _Run, usable: list[EncodedExample], settings: FinetuneSettings, result: TrainingResult,
                  progress: Callable[[int, int], Any] | None) -> None:
    """Run every epoch's steps after ``result.resumed_at``, recording into ``result`` and checkpointing."""
    total = result.steps
    meter = progress(result.resumed_at, total) if progress is not None else None
    started = time.perf_counter() - result.seconds
    try:
        step = 0
        for epoch in range(settings.epochs):
            for index in epoch_order(len(usable), epoch, settings.shuffle_seed):
                if step < result.resumed_at:
                    step += 1
                    continue
                loss, stepped = _train_step(run.peft_model, usable[index], run.optimizer, run.scheduler,
                                            run.trainable, settings, run.device, run.precision, run.scaler)
                result.losses.append(loss)
                if not stepped:
                    result.skipped_steps.append(step)
                step += 1
                result.seconds = time.perf_counter() - started
                if meter is not None:
                    meter.update(1, loss=f"{loss:.3f}", lr=f"{run.scheduler.get_last_lr()[0]:.1e}")
                if step % settings.checkpoint_every == 0 and step < total:
                    _save_checkpoint(run, step, result)
    finally:
        if meter is not None:
            meter.close()


def _precision_record(run: _Run, result: TrainingResult) -> dict[str, Any]:
    """The precision ``training.json`` records: the mode, the skipped steps and the loss scale before and after."""
    return {**run.precision.to_dict(), "skipped_steps": result.skipped_steps,
            "initial_loss_scale": run.initial_scale,
            "final_loss_scale": run.scaler.get_scale() if run.scaler is not None else None}


def _training_record(run: _Run, model: Any, examples: Sequence[TrainingExample], usable: list[EncodedExample],
                     digest: str, settings: FinetuneSettings, result: TrainingResult, base_identity: str,
                     info: dict[str, Any]) -> dict[str, Any]:
    """The contents of ``training.json`` for a finished training."""
    total = result.steps
    return {
        "format_version": TRAINING_FORMAT_VERSION, "fingerprint": run.fingerprint, "base": base_identity,
        **info, "settings": settings.to_dict(), "warmup_steps_used": settings.warmup_for(total),
        "examples": len(examples), "examples_used": len(usable), "steps": total,
        "truncated_examples": sum(e.truncated for e in usable), "data_sha256": digest,
        "example_hashes": {f"{e.source}:{e.task_id}": e.digest() for e in examples},
        "target_tokens": sum(e.target_tokens for e in usable),
        "losses": result.losses, "epoch_losses": _epoch_means(result.losses, len(usable)),
        "seconds": round(result.seconds, 1), "resumed_at": result.resumed_at, "device": str(run.device),
        "weights_dtype": str(getattr(model, "dtype", "")).removeprefix("torch."), "precision": result.precision,
        "lora_modules": len(run.adapted),
        "lora_module_names": run.adapted[:8]}


def lora_targets(model: Any, modules: Sequence[str], layers: str = "all") -> list[str]:
    """The modules LoRA adapts: with ``layers="all"`` the names in ``modules`` as PEFT matches them
    (any module whose name ends in one); with ``"text"`` the full names of those modules that lie
    outside every vision or audio part of a multimodal model, so only its language layers train.

    Raises FinetuneError when no module of the model matches (a wrong name would train nothing).
    """
    matching = matched_modules(model, modules, layers)
    return matching if layers == "text" else list(modules)


def matched_modules(model: Any, modules: Sequence[str], layers: str = "all") -> list[str]:
    """The full names of the modules ``lora_targets`` adapts; FinetuneError when there are none."""
    wanted = set(modules)
    matching = [name for name, _ in model.named_modules() if name.rsplit(".", 1)[-1] in wanted]
    if layers == "text":
        matching = [name for name in matching if not _non_text(name)]
    if not matching:
        where = " in the text layers" if layers == "text" else ""
        raise FinetuneError(f"no module named {', '.join(modules)}{where} in this model; pick --target-modules "
                            "from its module names")
    return matching


#: Name parts of a multimodal model's non-text towers (Gemma's vision_tower and audio_tower,
#: LLaVA's vision_tower and multi_modal_projector, Qwen-VL's visual, …).
_NON_TEXT = ("vision", "visual", "audio", "image", "multi_modal", "mm_projector", "embed_vision", "embed_audio")


def _non_text(name: str) -> bool:
    return any(marker in part for part in name.lower().split(".") for marker in _NON_TEXT)


def _precision_key(settings: FinetuneSettings) -> dict[str, str]:
    """What the fingerprint adds for the precision: fp16 trains differently since mixed precision came in,
    so an adapter or checkpoint of the old fp16 path is not taken for a new one; fp32 and bf16 train
    as before, and their finished adapters stay valid."""
    return {"precision": PRECISION_MODES[settings.dtype]} if settings.dtype == "fp16" else {}


def _autocast(precision: Precision, device: Any) -> Any:
    """The forward pass's autocast context (the Trainer's ``fp16=True``), or none."""
    import contextlib

    import torch

    if precision.autocast is None:
        return contextlib.nullcontext()
    return torch.autocast(device_type=device.type, dtype=getattr(torch, precision.autocast))


def _train_step(model: Any, example: EncodedExample, optimizer: Any, scheduler: Any, trainable: list[Any],
                settings: FinetuneSettings, device: Any, precision: Precision,
                scaler: Any = None) -> tuple[float, bool]:
    """One optimizer step; returns the loss and whether the optimizer updated the weights."""
    import torch

    ids = torch.tensor([example.input_ids], device=device)
    labels = torch.tensor([example.labels], device=device)
    with _autocast(precision, device):
        output = model(input_ids=ids, attention_mask=torch.ones_like(ids), labels=labels)
    stepped = True
    if scaler is None:
        output.loss.backward()
        torch.nn.utils.clip_grad_norm_(trainable, settings.max_grad_norm)
        optimizer.step()
    else:
        scaler.scale(output.loss).backward()
        scaler.unscale_(optimizer)  # clip the true gradients, not the scaled ones, as the Trainer does
        torch.nn.utils.clip_grad_norm_(trainable, settings.max_grad_norm)
        scale = scaler.get_scale()
        scaler.step(optimizer)  # skipped when a gradient is inf or NaN
        scaler.update()
        stepped = scaler.get_scale() >= scale  # only an overflow lowers the scale
    if stepped:
        scheduler.step()  # the Trainer keeps the learning rate where it was after a skipped step
    optimizer.zero_grad(set_to_none=True)
    return float(output.loss.detach()), stepped


def _epoch_means(losses: list[float], per_epoch: int) -> list[float]:
    return [sum(chunk) / len(chunk) for chunk in (losses[i:i + per_epoch] for i in range(0, len(losses), per_epoch))
            if chunk]


def _write_adapter(peft_model: Any, out: Path) -> None:
    """Save the adapter through a staging folder so ``out`` never holds half an adapter."""
    staging = out / ".adapter-staging"
    shutil.rmtree(staging, ignore_errors=True)
    peft_model.save_pretrained(str(staging))
    for path in staging.iterdir():
        os.replace(path, out / path.name)
    staging.rmdir()


def mean_loss(model: Any, tokenizer: Any, example: TrainingExample, max_tokens: int = MAX_TRAINING_TOKENS) -> float:
    """The model's mean loss on ``example``'s specification tokens (no gradient)."""
    import torch

    encoded = encode_example(tokenizer, example, max_tokens)
    device = next(model.parameters()).device
    ids = torch.tensor([encoded.input_ids], device=device)
    with torch.no_grad():
        return float(model(input_ids=ids, labels=torch.tensor([encoded.labels], device=device)).loss)
