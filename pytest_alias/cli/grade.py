"""``tla-alias grade`` and ``validate-grader``: one output's grade, and Table J.1's controls of the behavior grade."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, Mapping

from ..errors import UsageProblem
from ..run.options import add_command_option, integer, seconds
from ..tla.cfg import CfgError
from ..tla.specfiles import SpecError, SpecFiles
from ..vocabulary import (GRADES, MAX_MUTANTS, MAX_SEED, MAX_WORKERS, MODES, TLC_TIMEOUT_S,
                         search_budget)
from .toolchain import tools_from



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


def _no_verdict(args: argparse.Namespace, reason: str, side: str, stage: str) -> dict[str, Any]:
    """The ``--json`` object of a grade that could not run (a cfg or file that cannot be read)."""
    return {"grade": args.grade, **_grade_settings(args), "passed": False, "reason": reason, "side": side,
            "stage": stage, "mapping": None, "tlc_runs": 0, "seconds": 0.0}


def _grade_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The settings a ``grade`` verdict was reached under (its ``--json`` object carries them)."""
    return {"mode": args.mode, "name_rule": args.name_rule,
            "search_budget_s": search_budget(args.search_budget, args.timeout)}


def cmd_grade(args: argparse.Namespace) -> int:
    """Grade one model output against a reference module and its cfg; exit 0 when it passes.

    With ``--json`` a verdict object is printed whatever happens: a reference, cfg or output that
    cannot be read gives one too (``passed`` false, ``side`` and ``stage`` saying why), then the
    usual one-line error and exit code 2."""
    if not args.json:
        return _grade_command(args)
    try:
        return _grade_command(args)
    except (UsageProblem, SpecError, CfgError) as exc:
        about_cfg = isinstance(exc, CfgError) or (args.cfg is not None and str(args.cfg) in str(exc))
        about_output = str(args.output) in str(exc)
        side, stage = ("reference", "cfg") if about_cfg else ("grader", "extract") if about_output else (
            "reference", "stage")
        print(json.dumps(_no_verdict(args, str(exc), side, stage)))
        raise


def _grade_command(args: argparse.Namespace) -> int:
    from ..grading.validation import ModeUnavailable, guarded_grade
    from ..tasks.model import Task

    # The cfg is not checked here: a cfg the grade cannot read is a verdict of its own (side reference).
    reference = SpecFiles.from_path(args.reference, args.cfg)
    if not args.output.is_file():
        raise UsageProblem(f"{args.output}: no such output file")
    try:
        with args.output.open("rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            text = handle.read(MAX_OUTPUT_READ).decode("utf-8", "replace")
    except OSError as exc:
        raise UsageProblem(f"{args.output}: cannot read ({exc.strerror})") from None
    modules = {reference.main: reference.modules[reference.main],
               **{k: v for k, v in reference.modules.items() if k != reference.main}}
    condition = Task(reference.main, "", tuple(modules.items()), reference.cfg).original()
    tools = tools_from(args)
    before = tools.launches["tlc"]
    try:
        if size > MAX_OUTPUT_READ:  # only a part was read: the verdict states the file's true size
            from ..grading.extract import oversize_reason
            from ..grading.result import Evidence, GradeResult
            from ..vocabulary import Side, Stage

            result = GradeResult(args.grade, False, oversize_reason(size), Evidence(stage=Stage.EXTRACT, side=Side.OUTPUT))
        else:
            result = guarded_grade(text, condition, args.grade, mode=args.mode, tools=tools, timeout=args.timeout,
                                   name_rule=args.name_rule, search_budget=args.search_budget)
    except ModeUnavailable as exc:
        raise UsageProblem(str(exc)) from None
    verdict = {
        "grade": result.grade,
        **_grade_settings(args),
        "passed": result.passed,
        "reason": result.reason,
        "side": None if result.passed else str(result.details.get("side", "output")),
        "stage": str(result.details["stage"]) if "stage" in result.details else None,
        "mapping": _flat_mapping(result.details) if result.grade == "behavior" else None,
        "tlc_runs": tools.launches["tlc"] - before,
        "seconds": round(result.seconds, 3),
    }
    if args.json:
        print(json.dumps(verdict))
    else:
        print(f"{args.grade} grade: " + ("PASSED" if result.passed else f"FAILED: {result.reason}"))
        if verdict["mapping"]:
            print("mapping: " + ", ".join(f"{r} -> {g}" for r, g in verdict["mapping"].items()))
        print(f"{verdict['tlc_runs']} TLC run(s), {result.seconds:.2f} s")
    return 0 if result.passed else 1


def _validation_progress(task: Any) -> None:
    """One stderr line per validated task, so a long validation shows where it is."""
    wrong = sum(1 for c in task.cases if c.control != "self" and not c.correct)
    state = "left out" if not task.eligible else ("covered" if task.covered else "not covered")
    print(f"{task.task_id}: {state}, {len(task.cases)} cases, {wrong} wrong, {task.seconds:.0f} s",
          file=sys.stderr, flush=True)


def cmd_validate_grader(args: argparse.Namespace) -> int:
    """Table J.1 for a suite; exit 0 when no positive control of a covered task fails and no mutant passes."""
    from ..grading.validation import ModeUnavailable, validate_grader
    from ..tasks.suites import load_suite

    if args.workers < 1 or args.mutant_limit < 0 or (args.max_states is not None and args.max_states < 0):
        raise UsageProblem("--workers must be at least 1, --mutant-limit and --max-states at least 0")
    tasks = load_suite(args.suite)
    try:
        table = validate_grader(tasks, tools=tools_from(args), mode=args.mode, workers=args.workers, seed=args.seed,
                                mutant_limit=args.mutant_limit, timeout=args.timeout,
                                mutant_timeout=args.mutant_timeout, max_states=args.max_states,
                                progress=_validation_progress if args.progress else None)
    except ModeUnavailable as exc:
        raise UsageProblem(str(exc)) from None
    if args.json:
        print(json.dumps(table.to_dict()))
    else:
        print(table.to_markdown() if args.markdown else table.to_text(), end="")
    return 0 if table.ok else 1


def add_commands(commands: Any) -> None:
    """Register this family's subcommands."""
    grade = commands.add_parser("grade", help="grade one model output against a reference (parse, name or behavior)")
    grade.add_argument("--reference", type=Path, required=True,
                       help="the reference .tla module (modules it imports are read from beside it)")
    grade.add_argument("--cfg", type=Path, default=None, help="the reference's cfg (default: MODULE.cfg beside it)")
    grade.add_argument("--output", type=Path, required=True, help="a text file holding the model's output")
    grade.add_argument("--grade", choices=GRADES, required=True, help="which grade")
    grade.add_argument("--mode", choices=MODES, default="paper",
                       help="behavior-grade mapping search (default paper)")
    grade.add_argument("--timeout", type=seconds, default=TLC_TIMEOUT_S, help="time limit per TLC run in seconds (default 300)")
    add_command_option(grade, "name-rule")
    add_command_option(grade, "search-budget")
    grade.add_argument("--json", action="store_true", help="print one JSON object")
    grade.set_defaults(handler=cmd_grade)

    validate = commands.add_parser("validate-grader", help="Table J.1: positive and negative controls of the behavior grade")
    validate.add_argument("suite", help="builtin, a folder of tasks, examples:PATH or tlabench:PATH")
    validate.add_argument("--mode", choices=MODES, default="paper",
                          help="behavior-grade mapping search (default paper)")
    validate.add_argument("--workers", type=integer(1, MAX_WORKERS), default=2, help="tasks validated in parallel (default 2)")
    validate.add_argument("--seed", type=integer(0, MAX_SEED), default=0, help="random-name seed of the renamed controls (default 0)")
    validate.add_argument("--mutant-limit", type=integer(0, MAX_MUTANTS), default=40,
                          help=f"mutants generated per task (default 40, at most {MAX_MUTANTS:,})")
    validate.add_argument("--timeout", type=seconds, default=TLC_TIMEOUT_S, help="time limit per TLC run of a grade (default 300, the paper's)")
    validate.add_argument("--mutant-timeout", type=seconds, default=60.0,
                          help="time limit per TLC run deciding whether a mutant is kept (default 60)")
    validate.add_argument("--max-states", type=integer(1), default=None,
                          help="leave out tasks whose reference has more distinct states (default: none left out)")
    validate.add_argument("--progress", action="store_true", help="print one line per task to stderr as it ends")
    validate.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    validate.add_argument("--json", action="store_true", help="print one JSON object with per-task details")
    validate.set_defaults(handler=cmd_validate_grader)
