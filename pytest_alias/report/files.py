"""Report files chosen by suffix: ``.json`` (records + aggregate), ``.csv`` (one row per record),
``.md`` (the tables), ``.html`` (self-contained page with the figures of :mod:`.figures`).

Every file is written to a temporary name beside it and moved into place, so a failed report
never leaves half a file; only a regular file (or none yet) is written: a folder, device, FIFO or
symbolic link at the path is refused (``atomic.write_output``).
"""

from __future__ import annotations

import base64
import csv
import io
import json
from pathlib import Path
from typing import Any, Mapping

from ..atomic import write_output
from ..vocabulary import BOOTSTRAP_RESAMPLES

REPORT_SUFFIXES = (".json", ".csv", ".md", ".html")


def write_json(path: Path, records: list[dict[str, Any]], aggregate: Mapping[str, Any], metadata: dict[str, Any]) -> None:
    write_output(path, lambda h: json.dump({"metadata": metadata, "aggregate": aggregate, "records": records}, h,
                                            indent=2, sort_keys=False))


def write_csv(path: Path, records: list[dict[str, Any]]) -> None:
    grades = sorted({g for r in records for g in r["grades"]})
    columns = ["id", "task", "condition", "sample", "model", "has_hidden_names", "hidden_names"]
    columns += [f"{g}_{field}" for g in grades for field in ("passed", "reason")]
    columns += ["bleu4", "rouge_l", "mode", "grading_s"]

    def write(handle: Any) -> None:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        for record in records:
            row = {key: record.get(key) for key in columns[:6]}
            row["hidden_names"] = " ".join(record.get("hidden_names", []))
            for grade in grades:
                result = record["grades"].get(grade, {})
                row[f"{grade}_passed"] = result.get("passed")
                row[f"{grade}_reason"] = result.get("reason")
            similarity = record.get("similarity") or {}
            row.update(bleu4=similarity.get("bleu4"), rouge_l=similarity.get("rouge_l"), mode=record.get("mode"),
                       grading_s=record.get("timings", {}).get("grading_s"))
            writer.writerow(row)

    write_output(path, write)


def figure_png(figure: Any) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def write_jsonl(path: Path, rows: Any) -> None:
    """Write ``rows`` (dicts) as JSON lines, atomically."""
    write_output(path, lambda handle: handle.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))


def write_report(path: Path, records: list[dict[str, Any]], aggregate: Mapping[str, Any], metadata: dict[str, Any]) -> None:
    """Write one report; the format comes from the suffix (ValueError for an unknown one)."""
    suffix = path.suffix.lower()
    if suffix == ".json":
        write_json(path, records, aggregate, metadata)
    elif suffix == ".csv":
        write_csv(path, records)
    elif suffix in (".md", ".html"):  # the one report document, as ``tla-alias report RUN.json`` renders it
        # Deferred: the paper document loads the grading package (covered_tasks) and the figures;
        # a run writing its JSON or CSV report needs none of it.
        from .paper import build_paper_report, render_html_report, render_markdown_report

        report = build_paper_report(records, run=metadata, resamples=int(aggregate.get("resamples", BOOTSTRAP_RESAMPLES)),
                                    seed=int(aggregate.get("seed", 0)), computed=aggregate)
        text = render_markdown_report(report) if suffix == ".md" else render_html_report(report, records)
        write_output(path, lambda handle: handle.write(text))
    else:
        raise ValueError(f"report {path}: the suffix must be one of {', '.join(REPORT_SUFFIXES)}")
