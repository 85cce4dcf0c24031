"""``tla-alias likelihood``'s run: score every reference of a suite under a local model (appendix F).

The scoring itself is :mod:`pytest_alias.exposure.likelihood`'s; this module builds the run (suite,
conditions, model) through the :class:`Workspace` like every other command.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from ..atomic import check_output_file
from ..errors import UsageProblem
from ..exposure.likelihood import DEFAULT_BATCH_SIZE, LikelihoodRun, score_items, scoring_items
from ..models.local import LocalModel
from ..models.membership import DEFAULT_MIN_K, check_ratio
from ..progress import Progress
from ..report.files import write_jsonl
from ..vocabulary import CONDITIONS
from .config import RunConfig
from .options import defaults
from .workspace import Workspace


def run_likelihood(spec: str, suite: str, out: Path | str, *, kinds: Sequence[str] = ("original", "random"),
                   seed: int | None = None, batch_size: int = DEFAULT_BATCH_SIZE, cache_dir: str | None = None,
                   meaningful_maps: str | None = None, ids: Sequence[str] | None = None,
                   live: bool = True, min_k: float = DEFAULT_MIN_K, keep_tokens: bool = False) -> LikelihoodRun:
    """Score every reference of ``suite`` under ``kinds`` with the local model ``spec``; write JSON lines.

    ``min_k`` is the share of tokens Min-K% and Min-K%++ average; ``keep_tokens`` stores every
    token's log-probability and z-score in the rows.
    """
    check_ratio(min_k)  # before the model loads
    check_output_file(out, "out")  # a link, FIFO or folder: refused now, not after the scoring
    unknown = [kind for kind in kinds if kind not in CONDITIONS]
    if unknown or not kinds:
        raise UsageProblem(f"{{flag}}: choose from {', '.join(CONDITIONS)}, not {','.join(kinds) or 'nothing'}",
                           option="conditions")
    if "meaningful" in kinds and not meaningful_maps:
        raise UsageProblem("{flag} meaningful needs {flag:meaningful-maps} (a JSON file {task id: {old name: new name}})",
                           option="conditions")
    options = {**defaults(), "suite": suite, "conditions": tuple(dict.fromkeys(("random", *kinds))),
               "cache_dir": cache_dir, "meaningful_maps": meaningful_maps}
    if seed is not None:
        options["seed"] = seed
    workspace = Workspace(RunConfig.from_options(options))
    model = workspace.registry.create(spec)
    if not isinstance(model, LocalModel):
        raise UsageProblem(f"{{flag}} {spec}: likelihoods need a local model (hf:PATH or smollm2), whose "
                           "token probabilities ALIAS can read", option="model")
    prepared = workspace.prepared_conditions(live=live)
    if ids is not None:
        wanted = set(ids)
        prepared = [(task, conditions) for task, conditions in prepared if task.id in wanted]
    items, skipped = scoring_items(prepared, kinds)
    with Progress(f"scoring references ({spec})", len(items), unit="reference", live=live) as progress:
        rows = score_items(model, items, spec=spec, batch_size=batch_size, progress=progress, min_k=min_k,
                           keep_tokens=keep_tokens)
    write_jsonl(Path(out), rows)
    return LikelihoodRun(rows, skipped)
