"""Report files chosen by suffix: ``.json`` (records + aggregate), ``.csv`` (one row per record),
``.md`` (the tables), ``.html`` (self-contained page with the figures of :mod:`.figures`).

Every file is written to a temporary name beside it and moved into place, so a failed report
never leaves half a file; only a regular file (or none yet) is written: a folder, device, FIFO or
symbolic link at the path is refused (``atomic.write_output``).
"""

from __future__ import annotations

import base64
import csv
import html
import io
import json
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..atomic import write_output
from .agreement import agreement_rows, caption as agreement_caption
from .seeds import SEED_CAPTION, seed_table
from .tables import decrease_rows, not_graded_lines, rate_rows, render_markdown

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


def partial_warning(metadata: dict[str, Any], before: str = "", after: str = "") -> list[str]:
    """A line (and a blank one) saying the results are partial, or nothing for a complete run."""
    if metadata.get("complete", True):
        return []
    parts = ["the run was interrupted" if metadata.get("interrupted") else "",
             f"{len(metadata.get('items_without_record') or [])} item(s) ended without a record"
             if metadata.get("items_without_record") else ""]
    return [f"{before}PARTIAL results: {', '.join(p for p in parts if p)}; every figure covers the records "
            f"present only.{after}", ""]


def markdown(aggregate: Mapping[str, Any], metadata: dict[str, Any]) -> str:
    lines = ["# ALIAS report", "", *partial_warning(metadata, "**", "**"),
             f"Seed {aggregate['seed']}, {aggregate['resamples']:,} bootstrap resamples, "
             f"{aggregate['records']} records, mode {metadata.get('mode')}.", ""]
    for model, entry in aggregate["models"].items():
        lines += [f"## {model}", "", "Pass rates (percent of samples, averaged over tasks):", ""]
        lines += render_markdown(*rate_rows(entry)) + [""]
        for left_out in not_graded_lines(entry):
            lines += [left_out[0].upper() + left_out[1:] + ".", ""]
        header, rows = decrease_rows(entry)
        if rows:
            lines += ["Decreases after renaming (original − renamed, percentage points):", ""]
            lines += render_markdown(header, rows) + [""]
        found = metadata.get("agreement") or {}
        header, rows = agreement_rows(found, model)
        if rows:
            lines += [f"Sample agreement. {agreement_caption(found)}", "", *render_markdown(header, rows), ""]
        header, rows = seed_table(entry)
        if rows:  # several renamings per task
            lines += [SEED_CAPTION, ""] + render_markdown(header, rows) + [""]
    return "\n".join(lines)


def write_markdown(path: Path, aggregate: Mapping[str, Any], metadata: dict[str, Any]) -> None:
    write_output(path, lambda h: h.write(markdown(aggregate, metadata)))


def figure_png(figure: Any) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def write_jsonl(path: Path, rows: Any) -> None:
    """Write ``rows`` (dicts) as JSON lines, atomically."""
    write_output(path, lambda handle: handle.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))


HTML_STYLE = ("body{font-family:sans-serif;margin:2em} table{border-collapse:collapse;margin:1em 0}"
              "td,th{border:1px solid #bbb;padding:3px 8px;text-align:left}"
              "caption{caption-side:top;text-align:left;color:#444;padding:4px 0}")


def html_table(header: list[str], rows: list[list[Any]], caption: str = "") -> str:
    """A captioned HTML table with every cell escaped."""
    return ("<table>" + (f"<caption>{html.escape(caption)}</caption>" if caption else "") + "<tr>"
            + "".join(f"<th>{html.escape(str(h))}</th>" for h in header) + "</tr>"
            + "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
            + "</table>")


def plot_images(records: Sequence[dict[str, Any]], aggregate: Mapping[str, Any]) -> list[str]:
    """The run's figures (S.1, U.1 on the covered tasks or the all-task decreases, per-task maps) as
    HTML, drawn by :mod:`.figures` as ``tla-alias report`` draws them, or a line saying matplotlib is missing."""
    from .figures import figure_html, render_pngs, run_figures

    figures = run_figures(records, aggregate)
    return figure_html(figures, render_pngs(figures))


def write_html(path: Path, records: list[dict[str, Any]], aggregate: Mapping[str, Any], metadata: dict[str, Any]) -> None:
    body = ["<h1>ALIAS report</h1>", *(f"<p><strong>{html.escape(line)}</strong></p>" for line in partial_warning(metadata)),
            html_table(["setting", "value"], [[k, json.dumps(v) if not isinstance(v, str) else v]
                                              for k, v in metadata.items() if k != "agreement"], "Run metadata")]
    for model, entry in aggregate["models"].items():
        body.append(f"<h2>{html.escape(model)}</h2>")
        for (header, rows), caption in ((rate_rows(entry), "Pass rates: percent of samples, mean over tasks"),
                                        (decrease_rows(entry), "Decreases: original − renamed in points, "
                                                               "95% CI, 90% CI and TOST (±5 points)"),
                                        (seed_table(entry), SEED_CAPTION)):
            if rows:
                body.append(html_table(header, rows, caption))
        for left_out in not_graded_lines(entry):
            body.append(f"<p>{html.escape(left_out[0].upper() + left_out[1:])}.</p>")
        found = metadata.get("agreement") or {}
        header, rows = agreement_rows(found, model)
        if rows:
            body.append(html_table(header, rows, f"Sample agreement. {agreement_caption(found)}"))
    def failed(result: dict[str, Any]) -> bool:
        return not result.get("passed") and not result.get("not_applicable")

    failing = [[r["id"], "; ".join(f"{g}: {res.get('reason')}" for g, res in r["grades"].items() if failed(res))]
               for r in records if any(failed(res) for res in r["grades"].values())]
    if failing:
        body.append(html_table(["item", "failure reasons"], failing, "Why each failing item failed"))
    body += plot_images(records, aggregate)
    page = ("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>ALIAS report</title><style>"
            + HTML_STYLE + "</style></head><body>" + "\n".join(body) + "</body></html>\n")
    write_output(path, lambda h: h.write(page))


def write_report(path: Path, records: list[dict[str, Any]], aggregate: Mapping[str, Any], metadata: dict[str, Any]) -> None:
    """Write one report; the format comes from the suffix (ValueError for an unknown one)."""
    suffix = path.suffix.lower()
    if suffix == ".json":
        write_json(path, records, aggregate, metadata)
    elif suffix == ".csv":
        write_csv(path, records)
    elif suffix == ".md":
        write_markdown(path, aggregate, metadata)
    elif suffix == ".html":
        write_html(path, records, aggregate, metadata)
    else:
        raise ValueError(f"report {path}: the suffix must be one of {', '.join(REPORT_SUFFIXES)}")
