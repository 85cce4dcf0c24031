"""The exposure analysis as Markdown (Table 2, Table F.1, Table O.1, appendix N), JSON and HTML."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from ..atomic import check_output_file, write_output
from ..exposure.analysis import Effects, ExposureAnalysis
from ..exposure.detection import BASE_RULE, DROP_RULE, SignalAuroc, group_title
from ..exposure.lengths import length_lines
from .files import figure_png


def _interval(part: Any, unit: str) -> str:
    digits = 1 if unit == "points" else 2
    return f"{part.mean:.{digits}f} [{part.ci_low:.{digits}f}, {part.ci_high:.{digits}f}]"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(row) + " |" for row in rows]


def _effects_of(analysis: ExposureAnalysis, title: str, subset: str = "all") -> list[Effects]:
    return [e for e in analysis.effects if e.title == title and e.subset == subset]


def _titles(analysis: ExposureAnalysis) -> list[str]:
    return list(dict.fromkeys(e.title for e in analysis.effects))


def table2_rows(effects: list[Effects]) -> list[list[str]]:
    """Table 2's columns plus the counts: exposure (original), DiD, unseen cost, n, seen higher, DiD > 0."""
    rows = []
    for e in effects:
        r = e.result
        rows.append([e.label, str(len(e.tasks)), _interval(r.exposure_original, e.unit),
                     _interval(r.exposure_renamed, e.unit), _interval(r.did, e.unit),
                     _interval(r.unseen_cost, e.unit) if e.unit == "points" else "–",
                     f"{r.exposure_original.higher}/{r.exposure_original.n}", f"{r.did.higher}/{r.did.n}"])
    return rows


TABLE2_HEADER = ["Measure", "n", "Exposure, original", "Exposure, renamed", "DiD", "Unseen cost",
                 "Seen higher (tasks)", "DiD > 0 (tasks)"]


def cell_rows(effects: list[Effects]) -> list[list[str]]:
    """Table F.1's cells: original and renamed, seen / unseen."""
    rows = []
    for e in effects:
        digits = 1 if e.unit == "points" else 3
        c = e.cells
        rows.append([e.label, str(len(e.tasks)), f"{c['original_seen']:.{digits}f} / {c['original_unseen']:.{digits}f}",
                     f"{c['renamed_seen']:.{digits}f} / {c['renamed_unseen']:.{digits}f}"])
    return rows


def arms_table(analysis: ExposureAnalysis, family: str, dose: str = "") -> list[str]:
    """Table O.1: one family's two arms (of one dose) side by side on the grade they share and the likelihoods."""
    arms = [arm for arm in ("task-pair", "spec-only") if _effects_of(analysis, group_title(family, arm, dose))]
    if len(arms) < 2:
        return []
    by_arm = {arm: {e.measure: e for e in _effects_of(analysis, group_title(family, arm, dose))} for arm in arms}
    grade = next((g for g in ("behavior", "name", "parse") if all(g in by_arm[a] for a in arms)), None)
    rows: list[list[str]] = []
    if grade is not None:
        for title, part in (("Exposure effect, original descriptions", "exposure_original"),
                            ("Exposure effect, renamed descriptions", "exposure_renamed"),
                            ("Difference in differences", "did"), ("Renaming cost, unseen tasks", "unseen_cost")):
            ns = "/".join(dict.fromkeys(str(len(by_arm[a][grade].tasks)) for a in arms))
            rows.append([f"{title} ({grade}, n={ns})",
                         *(_interval(getattr(by_arm[a][grade].result, part), "points") for a in arms)])
    for measure, title in (("mean", "Log-likelihood, difference in differences"),
                           ("mean_other", "Log-likelihood, tokens outside renamed identifiers")):
        if all(measure in by_arm[a] for a in arms):
            rows.append([title, *(_interval(by_arm[a][measure].result.did, "ll") for a in arms)])
    if all("mean" in by_arm[a] for a in arms):
        rows.append(["Log-likelihood higher when seen (tasks)",
                     *(f"{by_arm[a]['mean'].result.exposure_original.higher}/{by_arm[a]['mean'].result.exposure_original.n}"
                       for a in arms)])
    named = ", ".join(part for part in (family, f"{dose} dose" if dose else "") if part)
    return [f"### {named + ': ' if named else ''}task-pair and specification-only exposure (Table O.1)", "",
            *_table(["Measure", *arms], rows), ""] if rows else []


DETECTION_HEADER = ["Signal", "Compared", "n tasks", "AUROC [95% CI]", "Flagged when", "Seen flagged",
                    "Unseen flagged"]
RULE_WORDS = {DROP_RULE: "original − renamed > 0", BASE_RULE: "above the base model"}


def _signal_label(row: SignalAuroc) -> str:
    return row.label + (f" (k = {row.min_k_ratio:g})" if row.min_k_ratio is not None else "")


def _flags(row: SignalAuroc, found: int | None) -> str:
    return f"{found}/{row.flag_tasks}" if found is not None and row.flag_tasks else "–"


def detection_rows(rows: list[SignalAuroc]) -> list[list[str]]:
    """One table row per signal, form and condition: AUROC with its interval and the flag counts."""
    return [[_signal_label(row), row.condition, str(row.n_seen), f"{row.auroc:.2f} [{row.ci_low:.2f}, {row.ci_high:.2f}]",
             RULE_WORDS.get(row.rule, "–"), _flags(row, row.flagged_seen), _flags(row, row.flagged_unseen)]
            for row in rows]


def auroc_lines(aurocs: list[SignalAuroc]) -> list[str]:
    """The detection table of one family, arm and dose: every signal's power to detect known exposure."""
    if not aurocs:
        return []
    return ["### Detection of known exposure: AUROC of seen versus unseen tasks, and flags", "",
            "Per signal, the chance that a task's score under the model that saw it beats a task's score under "
            "the model that did not (0.5: no signal; ties count one half), on the tasks with all four values, "
            "with a 95% task-bootstrap interval. A signal is rated per condition (its value) and by its drop "
            "after renaming (original − renamed, what a CIR test reads). Flags: the tasks a fixed rule flags "
            "among the seen ones (hits) and the unseen ones (false alarms); a drop is flagged above 0, a value "
            "above the base model's on the same reference (when the base model was scored).", "",
            *_table(DETECTION_HEADER, detection_rows(aurocs)), ""]


def render_markdown(analysis: ExposureAnalysis) -> str:
    """Every table the analysis allows, with the models and the split named."""
    split = analysis.split
    origin = f"seed {split.seed}" if split.seed is not None else "published split"
    lines = [f"# Exposure analysis (split {split.identity}, {origin}: "
             f"A {len(split.halves['A'])} / B {len(split.halves['B'])} tasks, pool {len(split.pool)})", ""]
    for model, slot in sorted(analysis.slots.items(), key=lambda item: (item[1].group, item[1].half)):
        lines.append(f"- half {slot.half}, {group_title(slot.family, slot.arm, slot.dose)}: `{model}`")
    lines.append("")
    lines += [(f"Behavior rows on the {len(analysis.covered)} tasks the behavior grade covers (appendix J); other "
               "rows on every task with all four cells (n per row)." if analysis.covered is not None else
               "Behavior rows on every task with all four cells: no covered set known (the paper's are on the "
               "covered tasks: give tla-alias --covered, or run pytest with --alias-covered)."), ""]
    for title in _titles(analysis):
        chosen = _effects_of(analysis, title)
        if not chosen:
            continue
        lines += [f"## {title} exposure (Table 2)", "",
                  "Correctness in percentage points (pass rates over samples), likelihood in mean token "
                  "log-likelihood; 95% task-bootstrap intervals. Exposure = seen − unseen; "
                  "DiD = (original − renamed)_seen − (original − renamed)_unseen; unseen cost = "
                  "(original − renamed)_unseen.", "", *_table(TABLE2_HEADER, table2_rows(chosen)), "",
                  "### Cells (Table F.1): seen / unseen", "",
                  *_table(["Measure", "n", "Original", "Renamed"], cell_rows(chosen)), "",
                  *auroc_lines([row for row in analysis.detection if row.title == title])]
        clean = _effects_of(analysis, title, "untruncated")
        if title in analysis.untruncated_tasks:
            tasks = analysis.untruncated_tasks[title]
            lines += [f"### Tasks with no truncated output (appendix N): {len(tasks)}", ""]
            lines += (_table(TABLE2_HEADER, table2_rows(clean)) if clean else ["No task is left."]) + [""]
    for family, dose in dict.fromkeys((slot.family, slot.dose) for slot in analysis.slots.values()):
        lines += arms_table(analysis, family, dose)
    if analysis.truncation:
        lines += ["### Truncated outputs (appendix N): reached the token limit or never closed the module", "",
                  *_table(["Model", "Half", "Arm", "Dose", "Condition", "Truncated"],
                          [[f"`{t['model']}`", t["half"], t["arm"], t.get("dose") or "–", t["condition"],
                            f"{t['share']:.1f}% ({t['truncated']}/{t['outputs']})"] for t in analysis.truncation]), ""]
    lines += length_lines(analysis.reference_tokens)
    for note in analysis.missing:
        lines.append(f"Not analysed: {note}.")
    return "\n".join(lines).rstrip() + "\n"


def _forest_png(effects: list[Effects]) -> str | None:
    """A forest plot of exposure, DiD and unseen cost per measure (base64 PNG), or None without matplotlib."""
    try:
        import matplotlib  # heavy and optional: only the HTML page's plot needs it

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None

    parts = (("exposure_original", "exposure (original)"), ("did", "DiD"), ("unseen_cost", "unseen cost"))
    units = sorted({e.unit for e in effects})
    figure, axes = plt.subplots(1, len(units), figsize=(6 * len(units), 0.8 + 0.35 * len(effects) * len(parts)),
                                squeeze=False)
    for axis, unit in zip(axes[0], units):
        labels, means, lows, highs = [], [], [], []
        for e in (e for e in effects if e.unit == unit):
            for name, title in parts:
                part = getattr(e.result, name)
                labels.append(f"{e.label} ({e.title}): {title}")
                means.append(part.mean)
                lows.append(part.ci_low)
                highs.append(part.ci_high)
        positions = list(range(len(labels)))[::-1]
        axis.errorbar(means, positions, xerr=[[m - lo for m, lo in zip(means, lows)], [h - m for m, h in zip(means, highs)]],
                      fmt="o", color="black", capsize=3)
        axis.axvline(0, color="grey", linewidth=0.8)
        axis.set_yticks(positions, labels)
        axis.set_xlabel("points (95% CI)" if unit == "points" else "mean token log-likelihood (95% CI)")
    image = figure_png(figure)
    plt.close(figure)
    return image


def write_outputs(analysis: ExposureAnalysis, *, markdown: Path | None = None, json_path: Path | None = None,
                  html_path: Path | None = None) -> None:
    """Write the chosen files atomically, each checked (regular files only, no links) before the first is written."""
    for chosen_path in (markdown, json_path, html_path):
        if chosen_path is not None:
            check_output_file(chosen_path)

    if markdown is not None:
        text = render_markdown(analysis)
        write_output(markdown, lambda handle: handle.write(text))
    if json_path is not None:
        document = json.dumps(analysis.to_dict(), indent=2)
        write_output(json_path, lambda handle: handle.write(document))
    if html_path is not None:
        body = html.escape(render_markdown(analysis))
        chosen = [e for e in analysis.effects if e.subset == "all"]
        png = _forest_png(chosen) if chosen else None
        figure = f'<img alt="exposure effects" src="data:image/png;base64,{png}">' if png else ""
        page = ("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>ALIAS exposure analysis</title></head>"
                f"<body><h1>ALIAS exposure analysis</h1>{figure}<pre>{body}</pre></body></html>\n")
        write_output(html_path, lambda handle: handle.write(page))
