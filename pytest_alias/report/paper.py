"""``tla-alias report``: the paper's tables from saved files, without running a model or a grade.

Inputs: plugin reports (``--alias-report run.json``: records), optionally ``tla-alias
validate-grader --json`` output (which tasks the behavior grade covers), an exposure split with
likelihood files. Each section is a titled table with a caption; the same sections render as
Markdown, JSON and one self-contained HTML page with the plots.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field
from operator import methodcaller
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from ..atomic import check_output_file, check_output_folder, read_json, write_output
from .aggregate import paired_decrease, aggregate, task_rates
from .agreement import agreement_rows, caption as agreement_caption
from .continuation import continuation_analysis
from .figures import Figure, figure_html, figure_markdown, render_pngs, run_figures, write_png
from .meaningful import MEANINGFUL_HEADER, meaningful_comparison, meaningful_row
from .positions import first_sample_rate, position_decreases
from ..cir.known_names import LISTS
from .controls import disagreements, known_name_comparison
from .cost import COST_CAPTION, COST_HEADER, actual_usage, cost_rows
from .outcomes import CAPTION as OUTCOME_CAPTION, outcome_table
from .seeds import SEED_CAPTION, seed_rows, seed_table
from .tables import decrease_rows, p_value, rate_rows
from ..grading.validation import covered_tasks
from .verdict import CAPTION as VERDICT_CAPTION, EXPOSURE_TABLE, VerdictEvidence, agreement_evidence, anchor, \
    upper_bound, verdict_data, verdict_evidence, verdict_header, verdict_reading, with_detection
from ..vocabulary import BOOTSTRAP_RESAMPLES


@dataclass
class Section:
    """One table of the report: a title, a caption saying what the numbers are, a header and rows."""

    title: str
    caption: str
    header: list[str]
    rows: list[list[str]]
    data: Any = None
    #: Paragraphs rendered under the table (the verdict's reading).
    text: list[str] = field(default_factory=list)
    #: A column whose cells are other sections' titles, rendered as links to them.
    link_column: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"title": self.title, "caption": self.caption, "header": self.header, "rows": self.rows,
                "data": self.data, "text": self.text}


@dataclass
class PaperReport:
    """Every section the inputs support, plus the aggregate they came from."""

    sections: list[Section] = field(default_factory=list)
    aggregate: Mapping[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    exposure_markdown: str = ""
    #: The figures (S.1, T.1, U.1, per-task maps) as the numbers they plot; rendered by every format.
    figures: list[Figure] = field(default_factory=list)
    #: Said first in every format: the results are partial (an interrupted run, items without a record).
    warning: str | None = None


def _section(title: str, caption: str, header: list[str], rows: list[list[str]], data: Any = None) -> Section | None:
    """A section, or None when the inputs gave it no row (the report leaves it out)."""
    return Section(title, caption, header, rows, data) if rows else None


def _rate(value: float | None) -> str:
    """A percentage, or a dash for a group without tasks (never a misleading 0.0)."""
    return "–" if value is None else f"{value:.1f}%"


def _interval(d: Mapping[str, Any] | None) -> str:
    if not d:
        return "–"
    return f"{d['mean']:.1f} [{d['ci_low']:.1f}, {d['ci_high']:.1f}]"


def _interval90(d: Mapping[str, Any] | None) -> str:
    if not d or "ci90_low" not in d:
        return "–"
    return f"[{d['ci90_low']:.1f}, {d['ci90_high']:.1f}] {'yes' if d['equivalent'] else 'no'}"


def _hidden_split(records: Sequence[dict[str, Any]], model: str) -> dict[str, set[str]]:
    """The model's tasks with a hidden required name, and those whose description states every one
    (from the original condition's records, as the aggregate splits them)."""
    originals = [r for r in records if r["model"] == model and r["condition"] == "original"]
    # A record without the field joins neither side, as in the aggregate (and Figure S.1 drawn from it).
    return {"hidden names": {r["task"] for r in originals if r.get("has_hidden_names") is True},
            "every name stated": {r["task"] for r in originals if r.get("has_hidden_names") is False}}


def coverage_section(records: Sequence[dict[str, Any]], covered: set[str], *, resamples: int, seed: int) -> Section:
    """Table U.1: both grades on the tasks the behavior grade covers, original − renamed with CIs,
    overall and split by hidden names (appendix U: the covered tasks with and without a hidden name)."""
    rows, data = [], []
    for model in sorted({r["model"] for r in records}):
        split = _hidden_split(records, model)
        for grade in ("name", "behavior"):
            original = task_rates(records, model, grade, "original")
            renamed = task_rates(records, model, grade, "random")
            for tasks_kind, tasks in (("covered", covered), *((f"covered, {k}", covered & v) for k, v in split.items())):
                decrease = paired_decrease(original, renamed, tasks, resamples, seed)
                if decrease is None:
                    continue
                rows.append([model, grade, tasks_kind, str(decrease["n"]), f"{decrease['original']:.1f}",
                             f"{decrease['renamed']:.1f}", _interval(decrease), _interval90(decrease)])
                data.append({"model": model, "grade": grade, "tasks_kind": tasks_kind, **decrease})
    return Section("Both grades on the covered tasks (Table U.1, appendix U)",
                   f"Tasks whose reference passes the behavior grade against itself: {len(covered)}; also split "
                   "into the covered tasks with a hidden required name and those whose description states "
                   "every one. Rates in percent of samples (mean over tasks); decrease = original − renamed in "
                   "points, 95% bootstrap CI; 90% CI and TOST equivalence within ±5 points.",
                   ["model", "grade", "tasks", "n", "original %", "renamed %", "decrease [95% CI]",
                    "90% CI, equivalent"], rows, data)


def _scope(covered: set[str] | None) -> str:
    """How a section's caption names its tasks."""
    return (f"on the {len(covered)} covered tasks (appendix J)" if covered is not None
            else "on every task graded by both grades (no covered set known: pass --covered or run with "
                 "--alias-covered)")


def disagreement_section(records: Sequence[dict[str, Any]], covered: set[str] | None, *, resamples: int,
                         seed: int) -> Section | None:
    """Appendix P: samples passing only one grade, and the upper bound crediting every name-only pass,
    on the covered tasks when they are known (the paper's 450 samples = 90 covered tasks × 5)."""
    rows, data = [], []
    for model in sorted({r["model"] for r in records}):
        found = disagreements(records, model, tasks=covered, resamples=resamples, seed=seed)
        if found is None:
            continue
        data.append(found)
        bound = upper_bound(found.get("upper_bound"))
        for condition, counts in found["conditions"].items():
            first = bool(bound) and condition == "original"  # one bound per model, on its first row
            rows.append([model, condition, str(found["tasks"]), str(counts["samples"]), str(counts["both"]),
                         str(counts["behavior_only"]), str(counts["behavior_only_hidden_name"]),
                         str(counts["name_only"]), _interval(bound) if first else "",
                         _interval90(bound) if first else ""])
    return _section("Grade disagreements (appendix P)",
                    f"Samples {_scope(covered)} passing both grades, only the behavior grade (of which on tasks "
                    "with a hidden name), only the name grade; upper bound: the decrease (points, 95% CI) when "
                    "every name-only pass also counts as correct, with its 90% CI and whether that lies inside "
                    "±5 points (TOST: an upper end beyond the margin does not rule out an effect).",
                    ["model", "condition", "n tasks", "samples", "both", "behavior only", "… hidden name",
                     "name only", "upper-bound decrease [95% CI]", "upper bound 90% CI, equivalent"], rows, data)


def known_names_section(records: Sequence[dict[str, Any]], covered: set[str] | None, *, resamples: int,
                        seed: int) -> Section | None:
    """Appendix M: marked vs other tasks, original rate and decrease, permutation p; the behavior
    grade on the covered tasks when they are known (the paper's 32 + 58 = 90)."""
    if not any(isinstance(r.get("known_names"), dict) for r in records):
        return None
    rows, data = [], []
    for model in sorted({r["model"] for r in records}):
        grades = sorted({g for r in records if r["model"] == model for g in r["grades"]} & {"name", "behavior"})
        for grade in grades:
            for kind in LISTS:
                found = known_name_comparison(records, model, grade, kind=kind, resamples=resamples, seed=seed,
                                              tasks=covered if grade == "behavior" else None)
                if found is None:
                    continue
                data.append(found)
                marked, other = found["marked"], found["other"]
                rows.append([model, grade, kind, str(marked["n"]), _rate(marked.get("original")),
                             _interval(marked.get("decrease")), str(other["n"]), _rate(other.get("original")),
                             _interval(other.get("decrease")),
                             p_value(found["permutation"]["p_value"]) if "permutation" in found else "–"])
    return _section("Known algorithm names (appendix M)",
                    "Tasks whose renamed description still names a published algorithm, protocol or problem "
                    "(fixed list; broader adds problem words) against the others: original rate (%), decrease "
                    "(points, 95% CI), permutation p for the difference of mean decreases. The name grade on "
                    f"every task; the behavior grade {_scope(covered)}.",
                    ["model", "grade", "list", "marked n", "marked original", "marked decrease", "other n",
                     "other original", "other decrease", "p"], rows, data)


def _spearman_cell(rho: Mapping[str, Any]) -> str:
    if "not_applicable" in rho:
        return f"not applicable: {rho['not_applicable']}"
    return f"{rho['rho']:.2f} ({p_value(rho['p_value'])}, n={rho['n']})"


def _group_cells(group: Mapping[str, Any]) -> list[str]:
    """Mean decrease of a group / of the others (points) and the permutation p, or why not."""
    if "not_applicable" in group:
        return [f"n={group['n']}/{group['n'] + group['other_n']}: not applicable ({group['not_applicable']})", "–"]
    return [f"{group['decrease']:.1f} (n={group['n']}) / {group['other_decrease']:.1f} (n={group['other_n']})",
            p_value(group["permutation"]["p_value"])]


def continuation_section(rows: Sequence[dict[str, Any]], records: Sequence[dict[str, Any]], *, resamples: int,
                         seed: int) -> Section | None:
    """Appendix L: long runs per condition, and whether they predict the decrease (three tests)."""
    table, data = [], continuation_analysis(rows, records, resamples=resamples, seed=seed)
    for entry in data:
        counts = f"{entry['long_runs'].get('original', 0)}/{entry['files'].get('original', 0)} original, " \
                 f"{entry['long_runs'].get('random', 0)}/{entry['files'].get('random', 0)} renamed"
        if not entry["predicts"]:
            table.append([entry["model"], counts, "–", "–", "–", "–", "–", "–"])
        for found in entry["predicts"]:
            above = found["above_percentile"]
            table.append([entry["model"], counts, f"{found['records_model']} {found['grade']}",
                          _spearman_cell(found["spearman"]), *_group_cells(found["long_vs_other"]),
                          f"{above['threshold']:.1f}: " + _group_cells(above)[0], _group_cells(above)[1]])
    return _section("File continuation (appendix L)",
                    "Files continued with a shared run of at least 50 tokens; Spearman of (original − renamed "
                    "run) with each task's decrease (permutation p); mean decrease (points) of long-run vs "
                    "other tasks and the permutation p of their difference; the same for the tasks whose run "
                    "on the original lies above the 95th percentile of the runs on renamed copies (threshold "
                    "in tokens). A test the data cannot support says why.",
                    ["continuation model", "long runs", "records, grade", "Spearman", "decrease long / other", "p",
                     "above 95th pct of renamed: decrease / other", "p"],
                    table, data)


def meaningful_section(records: Sequence[dict[str, Any]], covered: set[str] | None, *, resamples: int,
                       seed: int) -> Section | None:
    """Appendix R: original, random and meaningful rates on the meaningful-valid tasks, and on those the
    behavior grade also covers; random − meaningful with 95% and 90% CIs and TOST."""
    rows, data = [], []
    for model in sorted({r["model"] for r in records}):
        for grade in ("name", "behavior"):
            rates = {c: task_rates(records, model, grade, c) for c in ("original", "random", "meaningful")}
            if not rates["meaningful"]:
                continue
            for label, tasks in (("meaningful-valid", None), ("meaningful-valid and covered", covered)):
                if label.endswith("covered") and covered is None:
                    continue
                if grade == "behavior" and covered is not None and tasks is None:
                    continue  # the paper compares the behavior grade on covered ∩ meaningful-valid only
                found = meaningful_comparison(rates, tasks, resamples=resamples, seed=seed)
                if found is not None:
                    rows.append([model, *meaningful_row(f"{grade}, {label}", found)])
                    data.append({"model": model, "grade": grade, "tasks_kind": label, **found})
    return _section("Meaningful names (appendix R)",
                    "On the tasks whose meaningful renaming passed SANY and TLC (and, in the second row, that the "
                    "behavior grade also covers; with a covered set known, the behavior grade only there): pass "
                    "rates in percent of samples, mean over exactly these "
                    "tasks; random − meaningful in points with its 95% bootstrap CI, 90% CI and TOST at ±5 points.",
                    ["model", *MEANINGFUL_HEADER], rows, data)


def positions_section(records: Sequence[dict[str, Any]], ids: Sequence[str] | None, *, resamples: int,
                      seed: int) -> Section | None:
    """Appendix S: the decrease at each sample position, and the first original sample's pass rate
    (on ``ids`` when given, the tasks TLA⁺-Bench reports)."""
    rows, data = [], []
    for model in sorted({r["model"] for r in records}):
        for grade in ("name", "behavior"):
            found = position_decreases(records, model, grade, resamples=resamples, seed=seed)
            if len(found) < 2:  # one sample per task: the main table already is the per-position analysis
                continue
            first = first_sample_rate(records, model, grade, ids=ids)
            data.append({"model": model, "grade": grade, "positions": found, "first_sample": first})
            for row in found:
                rows.append([model, grade, str(row["sample"] + 1), str(row["n"]), f"{row['original']:.1f}%",
                             f"{row['renamed_rate']:.1f}%", _interval(row),
                             f"{row['now_fail']}/{row['now_pass']} ({p_value(row['sign_p'])})"])
            if first is not None:
                scope = f"{first['n']} listed tasks" if first["restricted"] else f"{first['n']} tasks"
                if first["missing"]:
                    scope += f" ({len(first['missing'])} listed without a first sample)"
                rows.append([model, grade, "first, original", scope, f"{first['rate']:.1f}%", "", "", ""])
    return _section("Per sample position (appendix S)",
                    "For each sample position, a task passes or fails by that one sample: original and renamed "
                    "rates (percent of tasks), the decrease in points with its 95% bootstrap CI, tasks that fell/"
                    "rose and the sign-test p; the first original sample's pass rate, the number TLA⁺-Bench "
                    "reports (over the --ids list when given).",
                    ["model", "grade", "sample", "n", "original", "renamed", "decrease [95% CI]", "fell/rose (p)"],
                    rows, data)


def similarity_section(summary: Mapping[str, Any]) -> Section | None:
    """Table V.1: mean BLEU-4 and ROUGE-L per model and condition."""
    rows = []
    for model, entry in summary["models"].items():
        for condition, values in entry.get("similarity", {}).items():
            rows.append([model, condition, f"{values['bleu4']:.1f}", f"{values['rouge_l']:.1f}"])
    return _section("Text similarity (Table V.1)", "BLEU-4 and ROUGE-L (0–100) of each output against the "
                    "reference of its condition, averaged over samples, then tasks.",
                    ["model", "condition", "BLEU-4", "ROUGE-L"], rows)


def run_covered(run: Mapping[str, Any] | None) -> set[str] | None:
    """The covered tasks a plugin run's metadata restricts its rates to (None: it asked for none)."""
    coverage = (run or {}).get("coverage") or None
    if coverage is None or not (run or {}).get("covered_restricts_rates", True):
        return None
    return set(coverage.get("covered") or ())


def covered_origin(run: Mapping[str, Any] | None) -> str:
    """How a run obtained its covered set, in words (for a report's note)."""
    coverage = (run or {}).get("coverage") or {}
    return (f"the run's {coverage.get('source')}" + (f" ({coverage['file']})" if coverage.get("file") else "")
            + f", behavior mode {coverage.get('mode')}")


def build_paper_report(records: Sequence[dict[str, Any]], *, validation: Mapping[str, Any] | None = None,
                       exposure_rows: Sequence[dict[str, Any]] = (),
                       exposure: Callable[[list[dict[str, Any]], int, int, set[str] | None],
                                          tuple[str, Mapping[str, Any]]] | None = None,
                       continuation_rows: Sequence[dict[str, Any]] = (), ids: Sequence[str] | None = None,
                       resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0, run: Mapping[str, Any] | None = None,
                       evidence: Sequence[VerdictEvidence] = (),
                       computed: Mapping[str, Any] | None = None) -> PaperReport:
    """Every section the inputs support. ``run`` is a plugin run's metadata (its settings and
    coverage): with it the rates and decreases are the run's summary's, covered-task rows included;
    a ``validation`` file's covered tasks take precedence over the run's. ``exposure`` renders Table 2
    from the records and likelihood rows (given ``resamples``, ``seed`` and the covered tasks, which
    its behavior rows are restricted to) when a split was given, and returns it with the analysis as
    a JSON dict (Figure T.1 is drawn from it);
    ``ids`` adds appendix S's first-sample rate over those tasks; ``computed`` is the aggregate of these
    records the run already computed (the plugin's reports), used instead of computing it again. The verdict section comes first: the
    evidence rows of the other sections (plus ``evidence`` from analyses outside this package), read
    conservatively."""
    report = PaperReport()
    report.warning = partial_note(run)
    coverage = (run or {}).get("coverage") or None
    covered: set[str] | None = None
    if validation is not None:
        covered = covered_tasks(validation)
        report.notes.append(f"Covered tasks: the {len(covered)} of the validate-grader file.")
    elif (covered := run_covered(run)) is not None:
        report.notes.append(f"Covered tasks: {len(covered)}, from {covered_origin(run)}.")
    if coverage is not None and coverage.get("not_gradeable"):
        report.notes.append("Not gradeable by behavior (the reference fails against itself; left out of every rate): "
                            + ", ".join(coverage["not_gradeable"]) + ".")
    report.aggregate = (computed if computed is not None  # the run's own aggregate, already computed
                        else aggregate(list(records), resamples=resamples, seed=seed, covered=covered) if records
                        else {"models": {}})
    for model, entry in report.aggregate["models"].items():
        header, rows = rate_rows(entry)
        report.sections.append(Section(f"Pass rates: {model} (Table 1)", "Percent of samples, mean over tasks; "
                                       "parse (lenient) is SANY's exit code alone.", header, rows))
        header, rows = decrease_rows(entry)
        if rows:
            report.sections.append(Section(f"Decreases: {model} (Table 1, Figure S.1)",
                                           "Original − renamed in points with 95% CI, 90% CI and TOST (±5 points), "
                                           "overall and split by hidden names.", header, rows))
        found = (run or {}).get("agreement") or {}
        header, rows = agreement_rows(found, model)
        if rows:  # from the run's outputs, which records do not carry: only a run file has it
            report.sections.append(Section(f"Sample agreement: {model}", agreement_caption(found), header, rows))
        header, rows = seed_table(entry)
        if rows:  # several renamings per task (beyond the paper)
            report.sections.append(Section(f"Several renamings: {model}", SEED_CAPTION, header, rows,
                                           [row for row in seed_rows(report.aggregate) if row["model"] == model]))
    report.sections += run_sections(records, run)
    if covered is not None:
        report.sections.append(coverage_section(records, covered, resamples=resamples, seed=seed))
    else:
        report.notes.append("Table U.1 needs the behavior grade's coverage: run with --alias-covered=auto, or pass "
                            "--covered (tla-alias validate-grader SUITE --json > validation.json).")
    for section in (positions_section(records, ids, resamples=resamples, seed=seed),
                    meaningful_section(records, covered, resamples=resamples, seed=seed),
                    disagreement_section(records, covered, resamples=resamples, seed=seed),
                    known_names_section(records, covered, resamples=resamples, seed=seed),
                    continuation_section(continuation_rows, records, resamples=resamples, seed=seed)
                    if continuation_rows else None,
                    similarity_section(report.aggregate)):
        if section is not None:
            report.sections.append(section)
    exposure_data: Mapping[str, Any] | None = None
    if exposure is not None:  # rendered by the exposure package (it sits beside this one, not below)
        report.exposure_markdown, exposure_data = exposure([*records, *exposure_rows], resamples, seed, covered)
    report.figures = run_figures(records, report.aggregate, exposure_data)
    verdict = verdict_section(report, [*agreement_evidence((run or {}).get("agreement")), *evidence],
                              (exposure_data or {}).get("detection"))  # a split: each row's detection of known exposure
    if verdict is not None:
        report.sections.insert(0, verdict)
    return report


def run_sections(records: Sequence[dict[str, Any]], run: Mapping[str, Any] | None) -> list[Section]:
    """The run's own tables, in every format as in the terminal summary: outcomes, cost, why each failing
    item failed, and (from a run file) its settings."""
    sections = []
    header, rows = outcome_table(records)
    if rows:
        sections.append(Section("Outcomes", OUTCOME_CAPTION[0].upper() + OUTCOME_CAPTION[1:] + ".", header, rows))
    cost = cost_rows(((run or {}).get("cost") or {}).get("estimate"), actual_usage(records))
    if cost:
        sections.append(Section("Cost", COST_CAPTION, COST_HEADER, cost))
    failing = [[str(r.get("id")), "; ".join(f"{grade}: {result.get('reason')}" for grade, result in r["grades"].items()
                                           if _failed(result))]
               for r in records if any(_failed(result) for result in r["grades"].values())]
    if failing:
        sections.append(Section("Why each failing item failed", "The reason of every failing grade, per item.",
                                ["item", "failure reasons"], failing))
    settings = (run or {}).get("settings")
    if isinstance(settings, Mapping) and settings:
        sections.append(Section("Run settings", "What the run was asked for (metadata.settings in the run's JSON).",
                                ["setting", "value"],
                                [[str(k), v if isinstance(v, str) else json.dumps(v)] for k, v in settings.items()]))
    return sections


def _failed(result: Mapping[str, Any]) -> bool:
    return not result.get("passed") and not result.get("not_applicable") and not result.get("not_gradeable")


def partial_note(run: Mapping[str, Any] | None) -> str | None:
    """A note saying the results are partial, or None for a complete run (or no run file)."""
    if run is None or run.get("complete", True):
        return None
    parts = ["the run was interrupted" if run.get("interrupted") else "",
             f"{len(run.get('items_without_record') or [])} item(s) ended without a record"
             if run.get("items_without_record") else ""]
    return f"PARTIAL results: {', '.join(p for p in parts if p)}; every figure covers the records present only."


def verdict_section(report: PaperReport, extra: Sequence[VerdictEvidence] = (),
                    detection: Sequence[Mapping[str, Any]] | None = None) -> Section | None:
    """The contamination verdict: one table of the evidence rows with the reading they support; with
    ``detection`` (the exposure analysis's rows) a column says how well each row detects known exposure."""
    rows = verdict_evidence(report.aggregate, report.sections, extra)
    if not rows:
        return None
    rows = with_detection(rows, detection) if detection else rows
    header = verdict_header(rows)
    return Section("What this run shows about memorization (verdict)", VERDICT_CAPTION, header,
                   [row.cells() for row in rows], verdict_data(rows), text=verdict_reading(rows),
                   link_column=header.index("table"))


HTML_STYLE = ("body{font-family:sans-serif;margin:2em} table{border-collapse:collapse;margin:1em 0}"
              "td,th{border:1px solid #bbb;padding:3px 8px;text-align:left}"
              "caption{caption-side:top;text-align:left;color:#444;padding:4px 0}")


def _markdown_cell(section: Section, index: int, cell: str) -> str:
    return f"[{cell}](#{anchor(cell)})" if index == section.link_column else cell


def _html_cell(section: Section, index: int, cell: str) -> str:
    text = html.escape(str(cell))
    return f'<a href="#{anchor(str(cell))}">{text}</a>' if index == section.link_column else text


def render_markdown_report(report: PaperReport) -> str:
    """The report as Markdown."""
    lines = ["# ALIAS report", "", *([f"**{report.warning}**", ""] if report.warning else [])]
    for section in report.sections:
        lines += [f"## {section.title}", "", section.caption, "",
                  "| " + " | ".join(section.header) + " |", "|" + "---|" * len(section.header),
                  *("| " + " | ".join(_markdown_cell(section, i, c) for i, c in enumerate(row)) + " |"
                    for row in section.rows), ""]
        lines += [line for paragraph in section.text for line in (paragraph, "")]
    if report.exposure_markdown:
        # An explicit anchor: the heading carries the split's identity, which the verdict's links cannot know.
        lines += [f'<a id="{anchor(EXPOSURE_TABLE)}"></a>', "",
                  report.exposure_markdown.replace("# Exposure", "## Exposure", 1)]
    lines += figure_markdown(report.figures)
    lines += [f"Note: {note}" for note in report.notes]
    return "\n".join(lines).rstrip() + "\n"


def render_html_report(report: PaperReport, records: Sequence[dict[str, Any]],
                       pngs: Mapping[str, bytes] | None = None) -> str:
    """One self-contained page: captioned tables, then the figures (``pngs``: already drawn, by key;
    drawn here when not given). ``records`` is kept for callers: every figure is in ``report.figures``."""
    body = ["<h1>ALIAS report</h1>", *([f"<p><strong>{html.escape(report.warning)}</strong></p>"] if report.warning else [])]
    for section in report.sections:
        body.append(f"<h2 id=\"{anchor(section.title)}\">{html.escape(section.title)}</h2><table><caption>"
                    f"{html.escape(section.caption)}</caption><tr>"
                    + "".join(f"<th>{html.escape(h)}</th>" for h in section.header) + "</tr>"
                    + "".join("<tr>" + "".join(f"<td>{_html_cell(section, i, c)}</td>" for i, c in enumerate(row))
                              + "</tr>" for row in section.rows) + "</table>"
                    + "".join(f"<p>{html.escape(paragraph)}</p>" for paragraph in section.text))
    if report.exposure_markdown:
        body.append(f"<h2 id=\"{anchor(EXPOSURE_TABLE)}\">{EXPOSURE_TABLE}</h2>"
                    f"<pre>{html.escape(report.exposure_markdown)}</pre>")
    body += [f"<p>{html.escape(note)}</p>" for note in report.notes]
    body += figure_html(report.figures, pngs if pngs is not None else render_pngs(report.figures))
    return ("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>ALIAS report</title><style>"
            + HTML_STYLE + "</style></head><body>" + "\n".join(body) + "</body></html>\n")


def _read_previous(path: Path) -> Any:
    """An earlier ``report.json`` in the output folder (None when absent or unreadable)."""
    try:
        return read_json(path) if path.is_file() and not path.is_symlink() else None
    except (OSError, ValueError):
        return None


def write_paper_report(report: PaperReport, records: Sequence[dict[str, Any]], out: Path) -> list[Path]:
    """``report.md``, ``report.json``, ``report.html`` and each figure's PNG in ``out``, each written
    atomically; ``out`` and every path are checked before the first is written (regular files only,
    no links). Each figure is drawn once, for its file and the page."""
    check_output_folder(out)
    previous = _read_previous(out / "report.json")
    pngs = render_pngs(report.figures)
    figure_files = {figure.file: (pngs or {}).get(figure.key) for figure in report.figures}
    for name in ("report.md", "report.json", "report.html", *(f for f, png in figure_files.items() if png)):
        check_output_file(out / name)
    written = []
    markdown = render_markdown_report(report)
    document = json.dumps({"sections": [s.to_dict() for s in report.sections], "aggregate": report.aggregate,
                           "figures": [figure.to_dict() for figure in report.figures],
                           "exposure_markdown": report.exposure_markdown, "notes": report.notes,
                           "warning": report.warning}, indent=2)
    page = render_html_report(report, records, pngs)
    for name, text in (("report.md", markdown), ("report.json", document), ("report.html", page)):
        write_output(out / name, methodcaller("write", text))  # handle.write(text), with this text bound now
        written.append(out / name)
    for name, png in figure_files.items():
        if png is not None:  # None: matplotlib is missing, and the page says so
            write_png(out / name, png)
            written.append(out / name)
    for name in stale_figures(previous, set(figure_files)):
        (out / name).unlink(missing_ok=True)
    return written


def stale_figures(previous: Any, keep: set[str]) -> list[str]:
    """The PNG files an earlier report in the same folder listed (its ``report.json``) that this one
    does not write: left there, a figure-U1.png of another covered set would pass for this run's."""
    listed = previous.get("figures") if isinstance(previous, dict) else None
    names = [entry.get("file") for entry in listed or () if isinstance(entry, dict)]
    return [name for name in names if isinstance(name, str) and re.fullmatch(r"[A-Za-z0-9-]+\.png", name)
            and name not in keep]
