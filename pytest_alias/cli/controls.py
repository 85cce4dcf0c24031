"""``tla-alias propose-names`` and ``tla-alias continuation``: thin doors onto :mod:`pytest_alias.controls`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..atomic import check_output_file
from ..cir.suites import load_suite
from ..controls.continuation import ContinuationItem, origin, run_continuation
from ..controls.propose import propose_names, write_maps
from ..progress import Progress
from ..report.files import write_jsonl
from ..run import RunConfig, Workspace
from ..run.options import defaults



def _settings(args: argparse.Namespace, kinds: tuple[str, ...] = ("original",)) -> Any:
    return Workspace(RunConfig.from_options({**defaults(), "suite": args.suite, "conditions": kinds,
                                             "cache_dir": getattr(args, "cache_dir", None), "model": (args.model,)}))


def _model(settings: Any, spec: str) -> Any:
    return settings.model(spec)


def cmd_propose_names(args: argparse.Namespace) -> int:
    """Ask a model for meaningful names, verify each renaming, write the valid maps."""
    check_output_file(args.out, "out")  # refused now, not after the model has answered
    settings = _settings(args)
    model = _model(settings, args.model)
    tasks = sorted(load_suite(args.suite), key=lambda task: task.id)
    with Progress("proposing and verifying names", len(tasks), unit="task", live=sys.stderr.isatty()) as progress:
        result = propose_names(model, tasks, store=settings.store(), cache=settings.condition_cache,
                               tools=settings.tools, progress=progress)
    write_maps(result, args.out, model=args.model, suite=args.suite)
    print(f"{result.summary()} → {args.out}")
    for task, reason in sorted(result.dropped.items())[:10]:
        print(f"  dropped {task}: {reason}")
    if len(result.dropped) > 10:
        print(f"  … and {len(result.dropped) - 10} more (see {Path(args.out).stem}.report.json)")
    return 0


def cmd_continuation(args: argparse.Namespace) -> int:
    """File continuation on each reference and its renamed copy."""
    check_output_file(args.out, "out")  # refused now, not after the model has answered
    settings = _settings(args, ("original", "random"))
    model = _model(settings, args.model)
    items = []
    for task, conditions in settings.prepared_conditions(live=sys.stderr.isatty()):
        repository, path = origin(task)
        for condition, reason in conditions:
            if condition is not None and reason is None:
                items.append(ContinuationItem(task.id, condition.kind, condition.module_map[condition.main],
                                              repository, path))
    with Progress("continuing files", len(items), unit="file", live=sys.stderr.isatty()) as progress:
        rows = run_continuation(model, items, store=settings.store(), spec=args.model, progress=progress)
    write_jsonl(args.out, rows)
    long_runs = {kind: sum(r["long_run"] for r in rows if r["condition"] == kind) for kind in ("original", "random")}
    print(f"continued {len(rows)} files; a run of ≥ 50 tokens on {long_runs['original']} originals and "
          f"{long_runs['random']} renamed copies → {args.out}")
    return 0
