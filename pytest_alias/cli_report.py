"""``tla-alias report``: the paper's tables from saved plugin reports (a thin door onto ``report.paper``)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from .cli import UserError  # one error type for every command: one sentence, exit code 2



def _read_json(path: Path, what: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UserError(f"{path}: not a readable {what} ({exc})") from None


def cmd_report(args: argparse.Namespace) -> int:
    """Render every table the given files support into ``--out``."""
    from .exposure.analysis import is_likelihood_row, read_rows
    from .report.paper import build_paper_report, render_markdown_report, write_paper_report
    from .deviations import recorded_deviations
    from .report.positions import read_ids

    from .controls.continuation import CONTINUATION_FORMAT

    records: list[dict[str, Any]] = []
    exposure_rows: list[dict[str, Any]] = []
    continuation_rows: list[dict[str, Any]] = []
    for path in args.files:
        rows = read_rows(path)
        exposure_rows += [row for row in rows if is_likelihood_row(row)]
        continuation_rows += [row for row in rows if row.get("format") == CONTINUATION_FORMAT]
        records += [row for row in rows if not is_likelihood_row(row) and "grades" in row]
    if not records and not exposure_rows and not continuation_rows:
        raise UserError("no records in the given files (save them with --alias-report run.json)")
    validation = _read_json(args.validation, "validate-grader --json file") if args.validation else None
    split = None
    if args.split:
        from .exposure.split import load_split

        split = load_split(args.split)
    try:
        ids = read_ids(args.ids) if args.ids else None
        report = build_paper_report(records, validation=validation, exposure_rows=exposure_rows, split=split,
                                    continuation_rows=continuation_rows, ids=ids,
                                    resamples=args.resamples, seed=args.seed)
    except (ValueError, OSError) as exc:
        raise UserError(str(exc)) from None
    for path in args.files:  # what the plugin printed in its summary header, the report says too
        found = recorded_deviations(path)
        if found:
            report.notes.insert(0, f"{path} ran with deviations from the paper: {'; '.join(found)}.")
    written = write_paper_report(report, records, args.out)
    print(render_markdown_report(report), end="")
    print(f"wrote {', '.join(str(p) for p in written)}")
    return 0


def add_report_command(commands: Any) -> None:
    """Register ``report`` on ``commands`` (an argparse subparsers object)."""
    from .options import integer

    report = commands.add_parser("report", help="render the paper's tables from saved plugin reports")
    report.add_argument("files", nargs="+", type=Path,
                        help="plugin reports (--alias-report run.json, or JSON lines), likelihood and continuation files")
    report.add_argument("--out", type=Path, default=Path("alias-report"), help="folder for report.md/.json/.html")
    report.add_argument("--validation", type=Path, default=None,
                        help="tla-alias validate-grader --json output: restricts Table U.1 to covered tasks")
    report.add_argument("--split", type=Path, default=None, help="an exposure split: adds Table 2")
    report.add_argument("--ids", type=Path, default=None,
                        help="task ids (JSON list or one per line): the first-sample rate of appendix S over them")
    report.add_argument("--resamples", type=integer(100), default=10_000, help="bootstrap resamples (default 10,000)")
    report.add_argument("--seed", type=integer(0), default=0, help="bootstrap seed (default 0)")
    report.set_defaults(handler=cmd_report)
