"""``tla-alias grade`` and ``validate-grader``: one output's grade, and Table J.1's controls of the behavior grade."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, Mapping

from ..errors import AliasError, UnreadableInput, UsageProblem
from ..grading.validation import ModeUnavailable, available_modes, validate_grader
from ..report.grader_validation import table_j1_markdown, table_j1_text
from ..tasks.folders import load_task_folder
from ..tasks.model import Task
from ..tla.specfiles import SpecError, SpecFiles, read_source
from ..vocabulary import Side, Stage, search_budget
from .workspace import open_workspace



# --------------------------------------------------------------------------- grade / validate-grader

#: How much of an output file ``grade`` reads: enough to exceed any extraction limit, never unbounded.
MAX_OUTPUT_READ = 4 * 1024 * 1024


def _flat_mapping(details: Mapping[str, Any]) -> dict[str, str] | None:
    """The winning mapping of a behavior grade as one reference name → output name dict."""
    mapping = details.get("mapping")
    if not isinstance(mapping, dict):
        return None
    flat: dict[str, str] = {}
    for key, value in mapping.items():
        if isinstance(value, dict):
            flat.update({str(k): str(v) for k, v in value.items()})
        elif isinstance(value, str):
            flat[str(key)] = value
    return flat


def _no_record(args: argparse.Namespace, exc: UnreadableInput) -> dict[str, Any]:
    """The ``--json`` object when no record can be made (a reference, cfg or output that cannot be read)."""
    return {"grade": args.grade, "mode": args.mode, "name_rule": args.name_rule,
            "search_budget_s": search_budget(args.search_budget, args.timeout), "passed": False, "reason": str(exc),
            "side": exc.side, "stage": exc.stage}


def cmd_grade(args: argparse.Namespace) -> int:
    """Grade one model output against a reference module and its cfg; exit 0 when it passes.

    The output is graded through the run layer as sample 0 of the reference's original condition, so
    ``--json`` prints the record a pytest item writes (same keys, shortcuts, memo and self-check).
    A reference, cfg or output that cannot be read prints an object saying whose it is (``side``,
    ``stage``), then the usual one-line error and exit code 2."""
    try:
        task = _reference_task(args)
        text, size = _read_output(args.output)
    except UnreadableInput as exc:
        if args.json:
            print(json.dumps(_no_record(args, exc)))
        raise
    workspace = open_workspace(args, tasks=[task], models=("output",), grade=args.grade, grades=(args.grade,),
                               suite=str(args.task or args.reference), conditions=("original",), samples=1,
                               timeout=args.timeout, mode=args.mode, name_rule=args.name_rule,
                               search_budget=args.search_budget)
    if args.grade == "behavior" and args.mode not in available_modes():
        raise UsageProblem(f"--mode {args.mode} is not available in this build")
    record = workspace.grade_text(task.id, text, output_bytes=size if size > MAX_OUTPUT_READ else None)
    entry = record["grades"][args.grade]
    if args.json:
        print(json.dumps(record))
        return 0 if entry["passed"] else 1
    print(f"{args.grade} grade: " + ("PASSED" if entry["passed"] else f"FAILED: {entry['reason']}"))
    mapping = _flat_mapping(entry.get("details") or {}) if args.grade == "behavior" else None
    if mapping:
        print("mapping: " + ", ".join(f"{r} -> {g}" for r, g in mapping.items()))
    print(f"{record['timings']['tlc_runs']} TLC run(s), {entry.get('seconds', 0.0):.2f} s")
    return 0 if entry["passed"] else 1


def _reference_task(args: argparse.Namespace) -> Any:
    """The task of ``--task`` (a task folder), or of the reference module (and the modules beside it
    that it imports) and its cfg."""
    if args.task is not None:
        try:
            return load_task_folder(args.task)
        except AliasError as exc:  # SuiteError, SpecError: the loader's own one-line reasons
            raise UnreadableInput(str(exc), side=Side.REFERENCE, stage=Stage.STAGE) from None
    try:
        reference = SpecFiles.from_path(args.reference, None, default_cfg=False)
    except SpecError as exc:
        raise UnreadableInput(str(exc), side=Side.REFERENCE, stage=Stage.STAGE) from None
    cfg_path = args.cfg if args.cfg is not None else args.reference.with_suffix(".cfg")
    cfg: str | None = None
    if args.cfg is not None or cfg_path.is_file():
        if not cfg_path.is_file():
            raise UnreadableInput(f"{cfg_path}: no such cfg file", side=Side.REFERENCE, stage=Stage.CFG)
        try:  # the cfg is not parsed here: a cfg the grade cannot read is a verdict of its own (side reference)
            cfg = read_source(cfg_path)
        except SpecError as exc:
            raise UnreadableInput(str(exc), side=Side.REFERENCE, stage=Stage.CFG) from None
    modules = {reference.main: reference.modules[reference.main],
               **{k: v for k, v in reference.modules.items() if k != reference.main}}
    return Task(reference.main, "", tuple(modules.items()), cfg)


def _read_output(path: Path) -> tuple[str, int]:
    """The output file's text (at most :data:`MAX_OUTPUT_READ` bytes of it) and its true size."""
    if not path.is_file():
        raise UnreadableInput(f"{path}: no such output file", side=Side.GRADER, stage=Stage.EXTRACT)
    try:
        with path.open("rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            return handle.read(MAX_OUTPUT_READ).decode("utf-8", "replace"), size
    except OSError as exc:  # the read of the user's file itself (nothing else in the block): whose it is, said once
        raise UnreadableInput(f"{path}: cannot read ({exc.strerror})", side=Side.GRADER, stage=Stage.EXTRACT) from None


def _validation_progress(task: Any) -> None:
    """One stderr line per validated task, so a long validation shows where it is."""
    wrong = sum(1 for c in task.cases if c.control != "self" and not c.correct)
    state = "left out" if not task.eligible else ("covered" if task.covered else "not covered")
    print(f"{task.task_id}: {state}, {len(task.cases)} cases, {wrong} wrong, {task.seconds:.0f} s",
          file=sys.stderr, flush=True)


def cmd_validate_grader(args: argparse.Namespace) -> int:
    """Table J.1 for a suite; exit 0 when no positive control of a covered task fails and no mutant passes."""
    if args.workers < 1 or args.mutant_limit < 0 or (args.max_states is not None and args.max_states < 0):
        raise UsageProblem("--workers must be at least 1, --mutant-limit and --max-states at least 0")
    workspace = open_workspace(args, suite=args.suite, mode=args.mode, timeout=args.timeout)
    try:
        table = validate_grader(workspace.tasks(), tools=workspace.tools, mode=args.mode, workers=args.workers, seed=args.seed,
                                mutant_limit=args.mutant_limit, timeout=args.timeout,
                                mutant_timeout=args.mutant_timeout, max_states=args.max_states,
                                progress=_validation_progress if args.progress else None)
    except ModeUnavailable as exc:
        raise UsageProblem(str(exc)) from None
    if args.json:
        print(json.dumps(table.to_dict()))
    else:
        print(table_j1_markdown(table) if args.markdown else table_j1_text(table), end="")
    return 0 if table.ok else 1
