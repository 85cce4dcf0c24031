"""``tla-alias report``: the paper's tables from saved plugin reports (a thin door onto ``report.paper``)."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import UsageProblem  # one error type for every command: one sentence, exit code 2
from ..exposure.analysis import analyse
from ..exposure.signals import agreement_rows
from ..exposure.split import load_split
from ..report.agreement import add_decreases, agreement
from ..report.exposure_tables import render_markdown
from ..report.paper import build_paper_report, render_markdown_report, write_paper_report
from ..report.positions import read_ids
from ..report.verdict import membership_evidence
from ..run.saved import read_saved_json, read_saved_runs
from ..vocabulary import BOOTSTRAP_RESAMPLES



def cmd_report(args: argparse.Namespace) -> int:
    """Render every table the given files support into ``--out``."""
    saved = read_saved_runs(args.files)
    records, exposure_rows, continuation_rows = saved.records, saved.exposure_rows, saved.continuation_rows
    outputs = saved.outputs  # saved outputs (--alias-save-outputs): their sample agreement
    if not records and not exposure_rows and not continuation_rows:
        raise UsageProblem("no records in the given files (save them with --alias-report run.json)")
    validation = read_saved_json(args.validation, "validate-grader --json file") if args.validation else None
    exposure = None
    evidence: list[Any] = []
    if args.split:
        split = load_split(args.split)

        def exposure(rows: list[dict[str, Any]], resamples: int, seed: int,
                     covered: set[str] | None) -> tuple[str, dict[str, Any]]:
            # continuation, outputs, agreement: detection rows
            signal_rows = [*continuation_rows, *outputs, *(row for run in saved.runs for row in agreement_rows(run))]
            found = analyse([*rows, *signal_rows], split, resamples=resamples, seed=seed, covered=covered)
            evidence.extend(membership_evidence([row.to_dict() for row in found.membership]))
            return render_markdown(found), found.to_dict()  # the dict: Figure T.1's numbers
    run = saved.run
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
    for file in saved.files:  # what the plugin printed in its summary header, the report says too
        if file.deviations:
            report.notes.insert(0, f"{file.path} ran with deviations from the paper: {'; '.join(file.deviations)}.")
    written = write_paper_report(report, records, args.out)
    print(render_markdown_report(report), end="")
    print(f"wrote {', '.join(str(p) for p in written)}")
    return 0
