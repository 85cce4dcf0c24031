"""``tla-alias rename``, ``build`` and ``tasks``: consistent identifier renaming of one spec or a whole suite."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path
from typing import Any

from ..cir.analysis import hidden_names
from ..cir.build import build_test_set, check_out, publish, staging_dir, write_condition
from ..cir.conditions import meaningful_condition, published_condition, random_condition
from ..errors import UsageProblem, usage_message
from ..run.config import read_name_map, read_name_maps
from ..tasks.model import Task
from .toolchain import spec_with_cfg, tools_from
from .workspace import open_workspace



# --------------------------------------------------------------------------- rename / build


def cmd_rename(args: argparse.Namespace) -> int:
    """Rename one spec (its imports beside it included), its cfg and description; optionally verify."""
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
    mapping = read_name_map(args.map) if args.map is not None else None
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
    try:
        return read_name_maps(path, "rename-map")
    except UsageProblem as exc:
        raise UsageProblem(usage_message(exc, "--")) from None


def cmd_build(args: argparse.Namespace) -> int:
    """Rename and verify every task of a suite; write the test set and its summary."""
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
    # Listing needs no toolchain: the suite is read through the run layer, never SANY or TLC.
    workspace = open_workspace(args, suite=args.suite, check=False)
    report = workspace.suite_report(description_kind=args.description_kind, ids=args.ids)
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
