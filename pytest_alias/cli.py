"""The ``tla-alias`` command line: a thin door onto the library (no logic of its own lives here)."""

from __future__ import annotations

from .errors import BadInput, RunStopped, ToolFault, UsageProblem, usage_message

import argparse
import json
import os
import sys
import warnings
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from . import __version__
from .tla.cfg import CfgError
from .tla.specfiles import SpecError, SpecFiles
from .options import add_command_option, integer, seconds
from .tla.toolchain import ToolchainError
from .vocabulary import (GRADES, MAX_MUTANTS, MAX_RENAME_SEEDS, MAX_SEED, MAX_WORKERS, MODES, TLC_TIMEOUT_S,
                         search_budget)


#: Bad input from the user: printed as one sentence, exit code 2 (every command raises this one type).
UserError = UsageProblem


def _tools(args: argparse.Namespace) -> Any:
    from .tla.runner import TlaTools

    tools = TlaTools(cache_dir=getattr(args, "cache_dir", None), use_cache=not getattr(args, "no_cache", False))
    tools.check_drivable()  # a jar the launcher cannot drive: one line now, not a grader error per run
    return tools


# --------------------------------------------------------------------------- doctor


def cmd_doctor(args: argparse.Namespace) -> int:
    """Report which Java, jar, launcher and cache ALIAS uses; exit 0 only when SANY and TLC work."""
    from .tla.runner import TlaTools
    from .tla.specfiles import SpecFiles
    from .tla.syntax import parse_module

    rows: list[tuple[str, str]] = []
    healthy = True
    try:
        tools = TlaTools(cache_dir=args.cache_dir, use_cache=False)
    except ToolchainError as exc:
        print(f"toolchain: {exc}")
        return 1
    java, jar = tools.toolchain.java, tools.toolchain.jar
    rows += [
        ("java", f"{java.path} (Java {java.version}, from {java.source})"),
        ("tla2tools.jar", f"{jar.path} (TLC {jar.tlc_version}, from {jar.source}, sha256 {jar.sha256[:12]})"),
        ("cfg keywords", _keywords_row(jar.cfg_keywords)),
        ("launcher", f"{tools.launcher.kind}: {tools.launcher.note}"),
        ("cache", str(tools.cache_dir)),
    ]
    probe = SpecFiles(
        "AliasDoctor",
        {"AliasDoctor": "---- MODULE AliasDoctor ----\nEXTENDS Naturals\nVARIABLE x\n"
                        "Init == x = 0\nNext == x' = (x + 1) % 3\n====\n"},
        "INIT Init\nNEXT Next\n",
    )
    try:
        sany = tools.sany(probe)
        tlc = tools.tlc(probe, timeout=120)
    except ToolchainError as exc:  # a jar the launcher cannot drive, a JVM that cannot start: a finding
        print(f"toolchain: {exc}\ntoolchain is broken")
        return 1
    healthy &= sany.ok and tlc.ok and tlc.distinct_states == 3
    rows.append(("SANY", "ok" if sany.ok else f"FAILED: {sany.errors[:1]}"))
    rows.append(("TLC", f"ok ({tlc.seconds:.2f} s, {tlc.launcher})" if tlc.ok and tlc.distinct_states == 3
                 else f"FAILED: {tlc.explain()}"))
    try:
        syntax = parse_module(probe.modules["AliasDoctor"])
        syntax_ok = syntax.name == "AliasDoctor" and not syntax.has_errors
        rows.append(("tree-sitter-tlaplus", "ok" if syntax_ok else "FAILED: probe module misparsed"))
        healthy &= syntax_ok
    except Exception as exc:  # a broken grammar install must show here, not crash the doctor
        rows.append(("tree-sitter-tlaplus", f"FAILED: {exc}"))
        healthy = False
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name.ljust(width)}  {value}")
    print("toolchain works" if healthy else "toolchain is broken")
    return 0 if healthy else 1


def _keywords_row(supported: frozenset[str]) -> str:
    """The doctor's line on cfg keywords: those of current TLC this jar predates, and what then happens."""
    from .tla.cfg import KEYWORDS_TLC_MODERN

    missing = sorted(KEYWORDS_TLC_MODERN - supported)
    if not missing:
        return "every keyword of current TLC supported"
    deadlock = "CHECK_DEADLOCK FALSE becomes -deadlock; " if "CHECK_DEADLOCK" in missing else ""
    others = "/".join(k for k in missing if k != "CHECK_DEADLOCK")
    return (f"older jar: {deadlock}{others} unsupported (a toolchain limitation, never the output's failure)"
            if others else f"older jar: {deadlock.rstrip('; ')}")


# --------------------------------------------------------------------------- check


def _spec_with_cfg(module: Path, cfg: Path | None) -> SpecFiles:
    """The module (imports beside it) and its cfg; a malformed cfg is the user's error, named with its
    file and line before any tool runs."""
    from .tla.cfg import parse_cfg

    spec = SpecFiles.from_path(module, cfg)
    if spec.cfg is not None:
        try:
            parse_cfg(spec.cfg)
        except CfgError as exc:
            raise UserError(f"{cfg or Path(module).with_suffix('.cfg')}: {exc}") from None
    return spec


def cmd_check(args: argparse.Namespace) -> int:
    """Strict SANY, then TLC, on one module; exit 0 only when both pass."""
    spec = _spec_with_cfg(args.module, args.cfg)
    tools = _tools(args)
    sany = tools.sany(spec)
    tlc = None
    if sany.ok:
        if spec.cfg is None:
            raise UserError(f"no cfg for {args.module}: pass --cfg or put {Path(args.module).with_suffix('.cfg').name} beside it")
        tlc = tools.tlc(spec, timeout=args.timeout, workers=args.workers)
    if args.json:
        print(json.dumps({"parse": {"ok": sany.ok, "errors": [str(e) for e in sany.errors]},
                          "tlc": tlc.to_dict() if tlc else None}))
    else:
        print("SANY: ok" if sany.ok else "SANY: FAILED")
        for error in sany.errors:
            print(f"  {error}")
        if tlc is not None:
            print(f"TLC: {tlc.explain()} ({tlc.seconds:.2f} s)")
            if tlc.status != "ok":
                for state in tlc.counterexample:
                    print(f"  {state.index}: {state.action}")
                    for line in state.text.strip().splitlines():
                        print(f"     {line}")
    return 0 if sany.ok and tlc is not None and tlc.ok else 1


# --------------------------------------------------------------------------- rename / build


def _read_map(path: Path) -> dict[str, str]:
    """A name map ``{old name: new name}``, every new name checked before anything is renamed or written."""
    from .atomic import read_json
    from .run.config import name_map_problem

    try:
        mapping = read_json(path)
    except (OSError, ValueError) as exc:
        raise UserError(f"{path}: not a readable JSON name map ({exc})") from None
    if not isinstance(mapping, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in mapping.items()):
        raise UserError(f"{path}: a name map must be a JSON object of old name → new name")
    problem = name_map_problem(mapping)
    if problem is not None:
        raise UserError(f"{path}: {problem}")
    return mapping


def cmd_rename(args: argparse.Namespace) -> int:
    """Rename one spec (its imports beside it included), its cfg and description; optionally verify."""
    from .cir.build import check_out, publish, staging_dir, write_condition
    from .cir.conditions import meaningful_condition, published_condition, random_condition
    from .tasks.model import Task

    check_out(args.out)  # every input is checked before the first write: --out here, the map below
    spec = _spec_with_cfg(args.module, args.cfg)
    description = ""
    if args.description is not None:
        if not args.description.is_file():
            raise UserError(f"{args.description}: no such description file")
        description = args.description.read_text(encoding="utf-8")
    modules = {spec.main: spec.modules[spec.main], **{k: v for k, v in spec.modules.items() if k != spec.main}}
    task = Task(spec.main, description, tuple(modules.items()), spec.cfg)
    if args.published and args.map is None:
        raise UserError("--published needs --map (the published name map of this spec)")
    mapping = _read_map(args.map) if args.map is not None else None
    tools = _tools(args) if args.verify else None
    if mapping is not None and args.published:  # the renamed condition from a published map, checked strictly
        renamed = published_condition(task, mapping, tools=tools, verify=args.verify)
    elif mapping is not None:
        renamed = meaningful_condition(task, mapping, tools=tools, verify=args.verify)
    else:
        renamed = random_condition(task, args.seed, tools=tools, verify=args.verify)
    verification = renamed.verification
    staging = staging_dir(args.out)
    try:
        written = write_condition(staging, renamed.condition, verification.to_dict() if verification else None)
        if args.description is None:
            (staging / "description.md").unlink()
            written.remove(staging / "description.md")
        publish(staging, args.out)
    finally:
        import shutil

        shutil.rmtree(staging, ignore_errors=True)
    files = [str(args.out / path.name) for path in written]
    if args.json:
        print(json.dumps({
            "map": renamed.renaming.name_map,
            "files": files,
            "verified": verification.verified if verification else None,
            "original": verification.original.to_dict() if verification and verification.original else None,
            "renamed": verification.renamed.to_dict() if verification and verification.renamed else None,
            "failure": verification.failure if verification else None,
        }))
    else:
        print(f"renamed {len(renamed.renaming.name_map)} identifiers of {spec.main} into {args.out}")
        if renamed.renaming.kept:
            print(f"kept (no free name): {', '.join(renamed.renaming.kept)}")
        if verification is not None:
            print("verified: SANY and TLC agree" if verification.verified else f"NOT verified: {verification.failure}")
    return 0 if verification is None or verification.verified else 1


def _rename_maps(path: Path) -> dict[str, dict[str, str]]:
    """Published name maps ``{task id: {old name: new name}}`` from a JSON file (one-line error otherwise)."""
    from .errors import usage_message
    from .run.config import read_name_maps

    try:
        return read_name_maps(path, "rename-map")
    except UserError as exc:
        raise UserError(usage_message(exc, "--")) from None


def cmd_build(args: argparse.Namespace) -> int:
    """Rename and verify every task of a suite; write the test set and its summary."""
    from .cir.build import build_test_set, check_out
    from .tasks.suites import load_suite

    from .cir.prepared import ConditionCache

    check_out(args.out)  # every input is checked before any work or write: --out, the suite, the maps
    tasks = load_suite(args.suite)
    maps = _rename_maps(args.rename_map) if args.rename_map else None
    tools = _tools(args)
    summary = build_test_set(tasks, args.out, seed=args.seed, workers=args.workers, tools=tools, rename_maps=maps,
                             suite=args.suite)
    # A later pytest run with this seed (or these maps) and cache reads these conditions instead of building them.
    cache = ConditionCache(tools.cache_dir, tools.toolchain.jar.sha256)
    for report in summary.reports:
        if maps is None or report.task.id in maps:
            cache.store(report.task, report.renamed, seed=args.seed, proposed=(maps or {}).get(report.task.id),
                        published=maps is not None)
    if maps is not None:  # a published map that does not verify is refused, each with its one-line reason
        for report in summary.reports:
            if not report.verified:
                print(f"{report.task.id}: map refused: {report.to_dict()['failure']}")
    if args.rename_seeds > 1:  # a run's further renamings (--alias-rename-seeds), built ahead into the cache
        from .cir.prepared import prepare_all

        prepared = prepare_all(cache, tasks, ["random"], seed=args.seed, meaningful_maps=None, tools=lambda: tools,
                               live=sys.stderr.isatty(), description="building further renamings",
                               renamings=args.rename_seeds)
        extra = [reason for _, conditions in prepared for _, reason in conditions[1:]]
        print(f"{sum(reason is None for reason in extra)}/{len(extra)} further renamings verified "
              f"({args.rename_seeds - 1} per task, in the condition cache for --alias-rename-seeds={args.rename_seeds})")
    for line in summary.headline():  # Table K.1's counts, appendix G's medians, the descriptions kept from damage
        print(line)
    print(f"wrote {args.out}/summary.json, summary.md, test_ids.json and eligible_ids.json")
    return 0


# --------------------------------------------------------------------------- tasks


def cmd_tasks(args: argparse.Namespace) -> int:
    """List a suite's tasks: id, main module, source, cfg or not, and the cfg names the description hides."""
    from .cir.analysis import hidden_names
    from .tasks.suites import load_suite_report

    report = load_suite_report(args.suite, description_kind=args.description_kind, ids=args.ids)
    rows: list[dict[str, Any]] = [{
        "id": task.id,
        "main": task.main,
        "source": task.source,
        "has_cfg": task.cfg is not None,
        "hidden": [hidden.name for hidden in hidden_names(task.description, task.cfg)],
        "modules": [name for name, _ in task.modules],
    } for task in report.tasks]
    if args.json:
        print(json.dumps(rows))
    else:
        table = [("id", "main", "source", "cfg", "hidden")] + [
            (row["id"], row["main"], row["source"], "yes" if row["has_cfg"] else "no", ", ".join(row["hidden"]) or "-")
            for row in rows]
        widths = [max(len(line[col]) for line in table) for col in range(4)]
        for line in table:
            print("  ".join(cell.ljust(width) for cell, width in zip(line[:4], widths)) + "  " + line[4])
        print(f"{len(rows)} tasks" + (f", {len(report.skipped)} skipped (--skipped says why)" if report.skipped else ""))
    if args.skipped:
        for skipped in report.skipped:  # stderr, so that --json output stays one JSON document
            print(f"skipped {skipped}", file=sys.stderr)
    return 0


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
    except (UserError, SpecError, CfgError) as exc:
        about_cfg = isinstance(exc, CfgError) or (args.cfg is not None and str(args.cfg) in str(exc))
        about_output = str(args.output) in str(exc)
        side, stage = ("reference", "cfg") if about_cfg else ("grader", "extract") if about_output else (
            "reference", "stage")
        print(json.dumps(_no_verdict(args, str(exc), side, stage)))
        raise


def _grade_command(args: argparse.Namespace) -> int:
    from .grading.validation import ModeUnavailable, guarded_grade
    from .tasks.model import Task

    # The cfg is not checked here: a cfg the grade cannot read is a verdict of its own (side reference).
    reference = SpecFiles.from_path(args.reference, args.cfg)
    if not args.output.is_file():
        raise UserError(f"{args.output}: no such output file")
    try:
        with args.output.open("rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            text = handle.read(MAX_OUTPUT_READ).decode("utf-8", "replace")
    except OSError as exc:
        raise UserError(f"{args.output}: cannot read ({exc.strerror})") from None
    modules = {reference.main: reference.modules[reference.main],
               **{k: v for k, v in reference.modules.items() if k != reference.main}}
    condition = Task(reference.main, "", tuple(modules.items()), reference.cfg).original()
    tools = _tools(args)
    before = tools.launches["tlc"]
    try:
        if size > MAX_OUTPUT_READ:  # only a part was read: the verdict states the file's true size
            from .grading.extract import oversize_reason
            from .grading.result import Evidence, GradeResult
            from .vocabulary import Side, Stage

            result = GradeResult(args.grade, False, oversize_reason(size), Evidence(stage=Stage.EXTRACT, side=Side.OUTPUT))
        else:
            result = guarded_grade(text, condition, args.grade, mode=args.mode, tools=tools, timeout=args.timeout,
                                   name_rule=args.name_rule, search_budget=args.search_budget)
    except ModeUnavailable as exc:
        raise UserError(str(exc)) from None
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
    from .grading.validation import ModeUnavailable, validate_grader
    from .tasks.suites import load_suite

    if args.workers < 1 or args.mutant_limit < 0 or (args.max_states is not None and args.max_states < 0):
        raise UserError("--workers must be at least 1, --mutant-limit and --max-states at least 0")
    tasks = load_suite(args.suite)
    try:
        table = validate_grader(tasks, tools=_tools(args), mode=args.mode, workers=args.workers, seed=args.seed,
                                mutant_limit=args.mutant_limit, timeout=args.timeout,
                                mutant_timeout=args.mutant_timeout, max_states=args.max_states,
                                progress=_validation_progress if args.progress else None)
    except ModeUnavailable as exc:
        raise UserError(str(exc)) from None
    if args.json:
        print(json.dumps(table.to_dict()))
    else:
        print(table.to_markdown() if args.markdown else table.to_text(), end="")
    return 0 if table.ok else 1


# --------------------------------------------------------------------------- main


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tla-alias", description="ALIAS: grade LLM-written TLA+ specs and test for memorization.")
    parser.add_argument("--version", action="version", version=f"tla-alias {__version__}")
    parser.add_argument("--cache-dir", type=Path, default=None, help="run cache folder (default: ALIAS_CACHE_DIR or the user cache)")
    parser.add_argument("--no-cache", action="store_true", help="run the tools even when a cached verdict exists")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    doctor = commands.add_parser("doctor", help="show the Java, jar, launcher and cache in use; exit 0 when they work")
    doctor.set_defaults(handler=cmd_doctor)

    check = commands.add_parser("check", help="strict SANY then TLC on one module")
    check.add_argument("module", type=Path, help="the .tla module (modules it imports are read from beside it)")
    check.add_argument("--cfg", type=Path, default=None, help="the cfg (default: MODULE.cfg beside the module)")
    check.add_argument("--timeout", type=seconds, default=TLC_TIMEOUT_S, help="TLC time limit in seconds (default 300)")
    check.add_argument("--workers", type=integer(1, MAX_WORKERS), default=1, help="TLC worker threads (default 1)")
    check.add_argument("--json", action="store_true", help="print one JSON object")
    check.set_defaults(handler=cmd_check)

    rename = commands.add_parser("rename", help="CIR: rename a spec, its cfg and description; --verify with SANY and TLC")
    rename.add_argument("module", type=Path, help="the main .tla module (modules it imports are read from beside it)")
    rename.add_argument("--cfg", type=Path, default=None, help="the cfg (default: MODULE.cfg beside the module)")
    rename.add_argument("--description", type=Path, default=None, help="a description to rename with the paper's rule")
    rename.add_argument("--seed", type=integer(0, MAX_SEED), default=0, help="random-name seed (default 0)")
    rename.add_argument("--map", type=Path, default=None, help="apply this JSON name map (meaningful names) instead")
    rename.add_argument("--published", action="store_true",
                        help="with --map: a published map of the renamed condition, checked strictly (every old name "
                             "one CIR renames, injective, no keyword, standard or kept name) instead of a proposal "
                             "of meaningful names whose unknown names are ignored")
    rename.add_argument("--out", type=Path, required=True, help="output folder (written atomically)")
    rename.add_argument("--verify", action="store_true", help="check the copy with strict SANY and TLC state counts")
    rename.add_argument("--json", action="store_true", help="print one JSON object")
    rename.set_defaults(handler=cmd_rename)

    build = commands.add_parser("build", help="rename and verify every task of a suite; write the CIR test set")
    build.add_argument("suite", help="builtin, a folder of tasks, examples:PATH or tlabench:PATH")
    build.add_argument("--out", type=Path, required=True, help="output folder (written atomically)")
    build.add_argument("--seed", type=integer(0, MAX_SEED), default=0, help="random-name seed (default 0)")
    build.add_argument("--workers", type=integer(1, MAX_WORKERS), default=2, help="tasks verified in parallel (default 2)")
    build.add_argument("--rename-map", type=Path, default=None,
                       help="published maps {task id: {old name: new name}}: the renamed condition from them instead "
                            "of the seed (each checked and verified by SANY and TLC; one that fails is refused with "
                            "its reason)")
    build.add_argument("--rename-seeds", type=integer(1, MAX_RENAME_SEEDS), default=1,
                       help="also build and verify the further renamings of a run with --alias-rename-seeds=N "
                            f"into the condition cache (default 1: the test set's renaming only; at most {MAX_RENAME_SEEDS})")
    build.set_defaults(handler=cmd_build)

    tasks = commands.add_parser("tasks", help="list a suite's tasks and the cfg names their descriptions hide")
    tasks.add_argument("suite", nargs="?", default="builtin",
                       help="builtin (default), a task folder, examples:PATH or tlabench:PATH[#KIND][?ids=FILE]")
    tasks.add_argument("--ids", default=None, help="keep only these task ids: a JSON list file or ID,ID,...")
    tasks.add_argument("--description-kind", default=None, help="TLA+-Bench description kind (default declarative_gpt)")
    tasks.add_argument("--skipped", action="store_true", help="also list on stderr what the suite left out and why")
    tasks.add_argument("--json", action="store_true", help="print one JSON list of tasks")
    tasks.set_defaults(handler=cmd_tasks)

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

    from .cli_exposure import add_exposure_commands
    from .cli_controls import add_control_commands
    from .cli_report import add_report_command

    add_exposure_commands(commands)
    add_report_command(commands)
    add_control_commands(commands)
    return parser


def _user_errors() -> tuple[type[Exception], ...]:
    """Exceptions that mean bad input or a run that cannot go on: one sentence, never a traceback."""
    return (UsageProblem, BadInput, ToolFault, RunStopped)


def _one_line_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                      file: Any = None, line: str | None = None) -> None:
    """Warnings as one line a user can read (no source file and line of ALIAS's own code)."""
    print(f"tla-alias: warning: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tla-alias`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Callable[[argparse.Namespace], int] = args.handler
    warnings.showwarning = _one_line_warning
    try:
        from .tla.launcher import check_environment

        check_environment()  # a bad ALIAS_LAUNCHER or ALIAS_JAVA_HEAP: one line now, not a grader error per run
        return handler(args)
    except OSError as exc:  # a folder that cannot be written, a file that cannot be read: the machine's state
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"tla-alias: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2
    except Exception as exc:
        if not isinstance(exc, _user_errors()):
            raise
        print(f"tla-alias: {usage_message(exc, '--')}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("tla-alias: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
