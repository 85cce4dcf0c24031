"""``tla-alias finetune``: one exposure model from a base model spec, a split, a half and an arm."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..models.local import LocalModel
from ..models.registry import process_registry
from ..progress import Progress
from ..tasks.model import Task
from ..cir.suites import load_suite  # as every caller above CIR: renamed copies verified through the condition cache
from .data import ARMS, training_examples
from .finetune import (TORCH_DTYPES, FinetuneError, FinetuneSettings, TrainingResult, check_precision_device,
                       train_lora)
from .split import HALVES, ExposureSplit, check_versions, load_split


@dataclass(frozen=True)
class SplitTasks:
    """The tasks a split names, loaded from its suites and checked against its versions."""

    halves: dict[str, list[Task]]
    pool: list[Task]


def load_split_tasks(split: ExposureSplit, *, suite: str | None = None, pool_suite: str | None = None) -> SplitTasks:
    """The split's tasks; ``suite``/``pool_suite`` override where they are read from (moved clones)."""
    test = {task.id: task for task in load_suite(suite or split.suite, ids=list(split.test_ids))}
    check_versions(split, test.values())
    pool: list[Task] = []
    if split.pool:
        source = pool_suite or split.pool_suite
        if not source:
            raise FinetuneError("the split lists pool tasks but no pool suite; pass --pool-suite")
        pool = load_suite(source, ids=list(split.pool))
        check_versions(split, pool, pool=True)
    return SplitTasks({half: [test[i] for i in split.halves[half]] for half in HALVES}, pool)


def local_base(spec: str, dtype: str | None = None) -> Any:
    """The ``LocalModel`` a base spec names, its weights in ``dtype`` (a torch dtype name) unless the spec
    says otherwise; an API model or one that already carries an adapter is refused."""
    model = process_registry().create(spec, **({"dtype": dtype} if dtype else {}))
    if not isinstance(model, LocalModel):
        raise FinetuneError(f"--base {spec}: fine-tuning needs a local model (hf:PATH or smollm2)")
    if model.lora:
        raise FinetuneError(f"--base {spec}: the base already carries an adapter; train from the plain model")
    return model


def finetune(base: str, split_file: Path | str, half: str, arm: str, out: Path | str, *,
             settings: FinetuneSettings = FinetuneSettings(), suite: str | None = None,
             pool_suite: str | None = None, live: bool = True, dose: str | None = None) -> TrainingResult:
    """Train the model of ``half`` and ``arm`` on ``base`` and write its adapter to ``out``.

    ``dose`` (a name from :data:`.doses.DOSES`) is recorded in ``training.json``, and so in every record
    of the adapter; ``settings`` must already carry the dose's epochs and learning rate.
    """
    if half not in HALVES:
        raise FinetuneError(f"--half must be one of {', '.join(HALVES)}, not {half!r}")
    if arm not in ARMS:
        raise FinetuneError(f"--arm must be one of {', '.join(ARMS)}, not {arm!r}")
    split = load_split(split_file)
    tasks = load_split_tasks(split, suite=suite, pool_suite=pool_suite)
    model = local_base(base, TORCH_DTYPES[settings.dtype])
    check_precision_device(settings.dtype, model.device.type)  # before the weights load: fp16 needs CUDA
    examples = training_examples(tasks.pool, tasks.halves[half], half, arm, wrap=model.wrap)
    info = {"split": split.identity, "split_seed": split.seed, "suite": split.suite, "half": half, "arm": arm,
            "prompt_style": model.prompt_style, "base_spec": base, "seen_tasks": list(split.halves[half]),
            "pool_tasks": list(split.pool)}
    if dose is not None:  # only when named: an adapter trained before doses keeps its fingerprint
        info["dose"] = dose
    Path(out).mkdir(parents=True, exist_ok=True)

    def meter(done: int, total: int) -> Progress:
        bar = Progress(f"fine-tuning half {half} ({arm})", total, unit="step", live=live)
        bar.update(done)
        return bar

    return train_lora(model.model, model.tokenizer, examples, out, settings=settings, base_identity=model.identity,
                      prompt_has_special_tokens=model.prompt_style == "chat", info=info, progress=meter)
