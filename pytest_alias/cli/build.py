"""``tla-alias rename``, ``build`` and ``tasks``: consistent identifier renaming of one spec or a whole suite."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..errors import UsageProblem
from ..run.options import integer
from ..vocabulary import MAX_RENAME_SEEDS, MAX_SEED, MAX_WORKERS
from .toolchain import spec_with_cfg, tools_from
from .workspace import open_workspace



# --------------------------------------------------------------------------- rename / build


def _read_map(path: Path) -> dict[str, str]:
    """A name map ``{old name: new name}``, every new name checked before anything is renamed or written."""
    from ..atomic import read_json
    from ..run.config import name_map_problem

    try:
        mapping = read_json(path)
    except (OSError, ValueError) as exc:
        raise UsageProblem(f"{path}: not a readable JSON name map ({exc})") from None
    if not isinstance(mapping, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in mapping.items()):
        raise UsageProblem(f"{path}: a name map must be a JSON object of old name → new name")
    problem = name_map_problem(mapping)
    if problem is not None:
        raise UsageProblem(f"{path}: {problem}")
    return mapping


def cmd_rename(args: argparse.Namespace) -> int:
    """Rename one spec (its imports beside it included), its cfg and description; optionally verify."""
    from ..cir.build import check_out, publish, staging_dir, write_condition
    from ..cir.conditions import meaningful_condition, published_condition, random_condition
    from ..tasks.model import Task

    check_out(args.out)  # every input is checked before the first write: --out here, the map below
    spec = spec_with_cfg(args.module, args.cfg)
    description = ""
    if args.description is not None:
        if not args.description.is_file():
            raise UsageProblem(f"{args.description}: no such description file")
        description = args.description.read_text(encoding="utf-8")
    modules = {spec.main: spec.modules[spec.main], **{k: v for k, v in spec.modules.items() if k != spec.main}}
    task = Task(spec.main, description, tuple(modules.items()), spec.cfg)
    if args.published and args.map is None:
        raise UsageProblem("--published needs --map (the published name map of this spec)")
    mapping = _read_map(args.map) if args.map is not None else None
    tools = tools_from(args) if args.verify else None
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
    from ..errors import usage_message
    from ..run.config import read_name_maps

    try:
        return read_name_maps(path, "rename-map")
    except UsageProblem as exc:
        raise UsageProblem(usage_message(exc, "--")) from None


def cmd_build(args: argparse.Namespace) -> int:
    """Rename and verify every task of a suite; write the test set and its summary."""
    from ..cir.build import build_test_set, check_out

    check_out(args.out)  # every input is checked before any work or write: --out, the suite, the maps
    maps = _rename_maps(args.rename_map) if args.rename_map else None
    workspace = open_workspace(args, suite=args.suite, seed=args.seed, conditions=("random",), rename_maps=maps,
                               rename_seeds=args.rename_seeds)
    tasks, tools = workspace.tasks(), workspace.tools
    summary = build_test_set(tasks, args.out, seed=args.seed, workers=args.workers, tools=tools, rename_maps=maps,
                             suite=args.suite)
    # A later pytest run with this seed (or these maps) and cache reads these conditions instead of building them.
    cache = workspace.condition_cache
    for report in summary.reports:
        if maps is None or report.task.id in maps:
            cache.store(report.task, report.renamed, seed=args.seed, proposed=(maps or {}).get(report.task.id),
                        published=maps is not None)
    if maps is not None:  # a published map that does not verify is refused, each with its one-line reason
        for report in summary.reports:
            if not report.verified:
                print(f"{report.task.id}: map refused: {report.to_dict()['failure']}")
    if args.rename_seeds > 1:  # a run's further renamings (--alias-rename-seeds), built ahead into the cache
        prepared = workspace.prepared_conditions(live=sys.stderr.isatty())
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
    from ..cir.analysis import hidden_names
    from ..tasks.suites import load_suite_report

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


def add_commands(commands: Any) -> None:
    """Register this family's subcommands."""
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
