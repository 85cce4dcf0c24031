"""``tla-alias report``: the paper's tables from saved plugin reports (a thin door onto ``report.paper``)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..atomic import read_json
from ..controls.continuation import CONTINUATION_FORMAT
from ..errors import UsageProblem  # one error type for every command: one sentence, exit code 2
from ..exposure.analysis import analyse, is_likelihood_row
from ..exposure.signals import agreement_rows
from ..exposure.split import load_split
from ..exposure.tables import render_markdown
from ..report.agreement import add_decreases, agreement
from ..report.paper import build_paper_report, render_markdown_report, run_covered, write_paper_report
from ..report.positions import read_ids
from ..report.validate import RecordError, check_record, read_located_rows
from ..report.verdict import membership_evidence
from ..run.deviations import recorded_deviations
from ..vocabulary import BOOTSTRAP_RESAMPLES



def _read_json(path: Path, what: str) -> Any:
    try:
        return read_json(path)
    except (OSError, ValueError) as exc:  # UnicodeDecodeError is a ValueError
        raise UsageProblem(f"{path}: not a readable {what} ({exc})") from None


def run_metadata(path: Path) -> dict[str, Any] | None:
    """A plugin run file's metadata (settings, coverage), or None for any other file."""
    try:
        document = read_json(path)
    except (OSError, ValueError):  # nested too deeply included
        return None
    metadata = document.get("metadata") if isinstance(document, dict) else None
    return metadata if isinstance(metadata, dict) else None


def shared_coverage(runs: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Several run files that recorded one and the same covered set (the two arms of an exposure run,
    say): a run metadata holding only that coverage, so the report's covered rows and Figure U.1 use
    it as each run's summary did; None when any run recorded none or they differ (pass --covered)."""
    found = [run_covered(run) for run in runs]
    if len(runs) < 2 or any(covered is None or covered != found[0] for covered in found):
        return None
    return {"coverage": runs[0]["coverage"], "covered_restricts_rates": True}


def cmd_report(args: argparse.Namespace) -> int:
    """Render every table the given files support into ``--out``."""
    records: list[dict[str, Any]] = []
    exposure_rows: list[dict[str, Any]] = []
    continuation_rows: list[dict[str, Any]] = []
    runs: list[dict[str, Any]] = []
    outputs: list[dict[str, Any]] = []  # saved outputs (--alias-save-outputs): their sample agreement
    for path in args.files:
        try:  # not UTF-8, nested too deep, a record with wrong field types: one line naming file, line, field
            located = read_located_rows(path)
            for row, where in located:
                if not is_likelihood_row(row) and "grades" in row:
                    check_record(row, where)
        except RecordError as exc:
            raise UsageProblem(str(exc)) from None
        rows = [row for row, _ in located]
        run = run_metadata(path)
        if run is not None:
            runs.append(run)
        exposure_rows += [row for row in rows if is_likelihood_row(row)]
        continuation_rows += [row for row in rows if row.get("format") == CONTINUATION_FORMAT]
        records += [row for row in rows if not is_likelihood_row(row) and "grades" in row]
        outputs += [row for row in rows if "grades" not in row and "format" not in row and not is_likelihood_row(row)
                    and isinstance(row.get("text"), str)]
    if not records and not exposure_rows and not continuation_rows:
        raise UsageProblem("no records in the given files (save them with --alias-report run.json)")
    validation = _read_json(args.validation, "validate-grader --json file") if args.validation else None
    exposure = None
    evidence: list[Any] = []
    if args.split:
        split = load_split(args.split)

        def exposure(rows: list[dict[str, Any]], resamples: int, seed: int,
                     covered: set[str] | None) -> tuple[str, dict[str, Any]]:
            # continuation, outputs, agreement: detection rows
            signal_rows = [*continuation_rows, *outputs, *(row for run in runs for row in agreement_rows(run))]
            found = analyse([*rows, *signal_rows], split, resamples=resamples, seed=seed, covered=covered)
            evidence.extend(membership_evidence([row.to_dict() for row in found.membership]))
            return render_markdown(found), found.to_dict()  # the dict: Figure T.1's numbers
    # One run's settings and coverage; several runs: only a covered set they all recorded.
    run = runs[0] if len(runs) == 1 else shared_coverage(runs)
    if outputs:  # the agreement of the saved texts replaces a run file's own
        texts = [(str(row.get("model", "replay")), str(row.get("task")), str(row.get("condition")), row["text"])
                 for row in outputs]
        run = {**(run or {}), "agreement": add_decreases(agreement(texts), records, str((run or {}).get("grade", "name")))}
    resamples = args.resamples if args.resamples is not None else int((run or {}).get("resamples", BOOTSTRAP_RESAMPLES))
    seed = args.seed if args.seed is not None else int((run or {}).get("seed", 0))
    try:
        ids = read_ids(args.ids) if args.ids else None
        report = build_paper_report(records, validation=validation, exposure_rows=exposure_rows, exposure=exposure,
                                    continuation_rows=continuation_rows, ids=ids, resamples=resamples, seed=seed,
                                    run=run, evidence=evidence)  # filled by exposure() before the verdict is built
    except (ValueError, OSError) as exc:
        raise UsageProblem(str(exc)) from None
    for path in args.files:  # what the plugin printed in its summary header, the report says too
        found = recorded_deviations(path)
        if found:
            report.notes.insert(0, f"{path} ran with deviations from the paper: {'; '.join(found)}.")
    written = write_paper_report(report, records, args.out)
    print(render_markdown_report(report), end="")
    print(f"wrote {', '.join(str(p) for p in written)}")
    return 0
