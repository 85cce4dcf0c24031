"""Generate the samples of a run's selected cases: once, through the store, with a progress line.

The pytest controller (or the only process) calls ``generate_cases`` after collection and selection,
before any test runs; xdist workers receive the results over xdist's channel (``transport``) and never
call a model. So each (model, task, condition, sample) is requested at most once per run whatever
``-n`` and the store mode: ``refresh`` regenerates once and the graded text is the stored one, and
``off`` keeps the texts only in the run's memory.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any, Callable, Sequence

from .cases import Case
from ..models.base import DecodingParams, Generation, GenerationRequest, module_header, supports_prefix
from ..models.store import GenerationStore
from ..progress import Progress
from ..atomic import check_output_file, write_output
from ..errors import UsageProblem

CaseKey = tuple[str, str, int, str]


def request_for(case: Case, *, seed: int, prefix: bool) -> GenerationRequest:
    """The generation request of ``case``: its sample's seed, and the module header as the answer's
    start when ``prefix`` (the ``header`` prefill for models that continue a prefix)."""
    return GenerationRequest.from_condition(case.condition, case.sample, seed=seed + case.sample,
                                            prefix=module_header(case.condition.main) if prefix else "")


def prefills(model: Any, prefill: str) -> bool:
    """Whether requests to ``model`` start the answer with the module header under ``prefill``."""
    return prefill == "header" and supports_prefix(model)


class _Meter:
    """Progress fields from finished generations: tokens/s (local), cost so far (paid APIs)."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.started = time.monotonic()
        self.tokens = 0
        self.stored = 0
        self.cost = 0.0
        self.priced = False

    def __call__(self, generations: list[Generation]) -> None:
        fresh = [g for g in generations if not g.from_store]
        self.tokens += sum(int(g.usage.get("output_tokens", 0) or 0) for g in fresh)
        for generation in fresh:
            if generation.cost_usd is not None:
                self.cost += generation.cost_usd
                self.priced = True
        elapsed = max(time.monotonic() - self.started, 1e-6)
        fields: dict[str, Any] = {}
        if self.tokens:
            fields["tokens/s"] = f"{self.tokens / elapsed:.0f}"
        if self.priced:
            fields["cost"] = f"${self.cost:.4f}"
        self.stored += len(generations) - len(fresh)
        if self.stored:
            fields["stored"] = self.stored
        self.progress.update(len(generations), **fields)


def generate_cases(cases: Sequence[Case], *, model_for: Callable[[str], Any], store: GenerationStore,
                   seed: int, prefill: str, max_new_tokens: int | None, live: bool) -> dict[CaseKey, Generation]:
    """Each case's generation, one store call per model, chunked so finished samples are kept at once."""
    out: dict[CaseKey, Generation] = {}
    params = DecodingParams(max_new_tokens=max_new_tokens)
    for spec in dict.fromkeys(case.model for case in cases):
        mine = [case for case in cases if case.model == spec]
        model = model_for(spec)
        prefix = prefills(model, prefill)
        requests = [request_for(case, seed=seed, prefix=prefix) for case in mine]
        with Progress(f"generating {spec}", len(mine), live=live) as progress:
            if hasattr(model, "status_callback"):  # API batches report their state while they run
                model.status_callback = lambda text: progress.status(batch=text)
            generations = store.generate(model, requests, params, chunk_size=getattr(model, "batch_size", None),
                                         on_done=_Meter(progress))
        out.update({case.key: generation for case, generation in zip(mine, generations)})
    return out


def generation_fields(generation: Generation) -> dict[str, Any]:
    """What a record says about its sample's generation (``prefill``: the answer's given start)."""
    fields = {"truncated": generation.truncated, "finish_reason": generation.finish_reason,
              "from_store": generation.from_store, "usage": dict(generation.usage), "cost_usd": generation.cost_usd,
              "prefill": generation.prefix, "model_identity": generation.model}
    if generation.error is not None:
        fields["error"] = generation.error
    exposure = generation.raw.get("exposure") if isinstance(generation.raw, dict) else None
    if exposure:  # a fine-tuned model: which half it saw (tla-alias exposure reads it)
        fields["exposure"] = exposure
    return fields


def check_writable_file(path: Path, option: str = "save-outputs") -> None:
    """Raise :class:`UsageProblem` (one line) unless a file can be written at ``path``: checked at
    start-up, before any model is paid for, not when the outputs are already generated. Only a regular
    file (or none yet) in a folder of the user's: never a folder, device, FIFO, link or ``/proc`` path."""
    where = f"{{flag}} {path}"
    check_output_file(path, option)
    if path.exists() and not os.access(path, os.W_OK):
        raise UsageProblem(f"{where}: the file is not writable", option=option)
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent  # the folders still missing are created when the file is written
    if not folder.is_dir():
        raise UsageProblem(f"{where}: {folder} is not a folder", option=option)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageProblem(f"{where}: the folder {folder} is not writable", option=option)


def write_replay_file(path: Path, cases: Sequence[Case], generations: dict[CaseKey, Generation], seed: int) -> int:
    """Every answered case's output as a replay line (``replay:FILE`` reads them back), each with
    its model, condition version and seed so a later run checks it grades the same renaming; the
    file is written whole or not at all. Returns the number of lines."""
    lines = []
    for case in cases:
        generation = generations.get(case.key)
        if generation is None or generation.error is not None:
            continue
        lines.append(json.dumps({"task": case.task.id, "condition": case.condition.kind, "sample": case.sample,
                                 "model": case.model, "text": generation.text,
                                 "finish_reason": generation.finish_reason, "truncated": generation.truncated,
                                 "condition_version": case.condition.version, "seed": seed,
                                 **({"rename_seed": case.condition.rename_seed} if case.condition.rename_seed else {})},
                                ensure_ascii=False))
    write_output(path, lambda handle: handle.writelines(line + "\n" for line in lines), "save-outputs")
    return len(lines)
