"""The paper's figures as data (Figures S.1, T.1 and U.1, plus a per-task map), drawn by one function.

A :class:`Figure` holds exactly the numbers it plots, each with its n, so ``report.json`` carries them
and a test can check them; the builders read the aggregate or the exposure analysis (as its JSON
dict) and never recompute a grade. :func:`draw` is the one place matplotlib is imported (lazily: a
plugin that is installed but not asked for stays light), and each renderer embeds (HTML), links
(Markdown) or writes (PNG beside the report) what it draws.
"""

from __future__ import annotations

import base64
import html
import io
import os
import re
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..atomic import check_output_file, current_umask
from ..vocabulary import CONDITIONS
from .aggregate import task_rates

BARS, FOREST, HEATMAP = "bars", "forest", "heatmap"

#: Table 2's parts as Figure T.1 (b) plots them, in the paper's order.
EXPOSURE_PARTS = (("exposure_original", "exposure, original descriptions"),
                  ("exposure_renamed", "exposure, renamed descriptions"),
                  ("did", "difference in differences"),
                  ("unseen_cost", "renaming cost, unseen tasks"))
#: Which correctness measure T.1 plots: the paper's is the behavior grade; a run without it falls back.
T1_GRADES = ("behavior", "name", "parse")


@dataclass(frozen=True)
class Panel:
    """One set of axes. ``rows`` are the plotted numbers: for bars ``label``, ``n`` and ``values``
    (series → percent); for a forest ``label``, ``n``, ``mean``, ``ci_low``, ``ci_high`` (points);
    for a heatmap ``label`` and ``values`` (column → rate, None where the grade does not apply)."""

    kind: str
    title: str
    axis: str
    rows: list[dict[str, Any]]


@dataclass(frozen=True)
class Figure:
    """One figure of the report: ``title`` states its n, ``key`` is its file name without ``.png``."""

    key: str
    title: str
    caption: str
    panels: list[Panel]

    @property
    def file(self) -> str:
        return f"{self.key}.png"

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "file": self.file, "title": self.title, "caption": self.caption,
                "panels": [asdict(panel) for panel in self.panels]}


def slug(text: str) -> str:
    """A file-name-safe form of a model or arm name (model names may hold ``:``, ``/`` and ``?``)."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40] or "x"


def _interval(d: Mapping[str, Any]) -> dict[str, float]:
    return {"mean": d["mean"], "ci_low": d["ci_low"], "ci_high": d["ci_high"]}


# --------------------------------------------------------------------------- builders


def hidden_name_figure(aggregate: Mapping[str, Any]) -> Figure | None:
    """Figure S.1: the name grade's original and renamed pass rates, split by whether the task's
    description hides a required cfg name (the aggregate's split, from the records' hidden-name
    analysis); None when no model has the split."""
    rows, counts = [], []
    for model, entry in aggregate.get("models", {}).items():
        split = (((entry["grades"].get("name") or {}).get("split") or {}).get("random")) or {}
        found = [(label, split.get(part)) for part, label in (("hidden_names", "hidden names"),
                                                              ("every_name_stated", "every name stated"))]
        if not any(d for _, d in found):
            continue
        counts.append(f"{model}: n = {' / '.join(str(d['n']) if d else '0' for _, d in found)}")
        rows += [{"label": f"{model}: {label}", "model": model, "tasks": label, "n": d["n"],
                  "values": {"original": d["original"], "renamed": d["renamed"]}, "decrease": _interval(d)}
                 for label, d in found if d]
    if not rows:
        return None
    return Figure("figure-S1", "Figure S.1: name-grade pass rate by hidden required names\n"
                  f"(tasks with a hidden name / stating every name; {'; '.join(counts)})",
                  "Name-grade pass rate (percent of samples, mean over tasks) in the original and renamed "
                  "conditions, on the tasks whose description hides a name the cfg requires and on those that "
                  "state every one; n = tasks with both conditions graded.",
                  [Panel(BARS, "", "name-grade pass rate (%)", rows)])


def _covered_rows(aggregate: Mapping[str, Any]) -> tuple[list[dict[str, Any]], int | None]:
    """U.1's rows (model × name/behavior grade on the covered tasks) and the covered set's size."""
    rows, size = [], None
    for model, entry in aggregate.get("models", {}).items():
        for grade in ("name", "behavior"):
            covered = (entry["grades"].get(grade) or {}).get("covered")
            d = ((covered or {}).get("decreases") or {}).get("random")
            if covered is not None:
                size = covered["tasks"]
            if d:
                rows.append({"label": f"{model}, {grade} grade", "model": model, "grade": grade, "n": d["n"],
                             "original": d["original"], "renamed": d["renamed"], **_interval(d)})
    return rows, size


def covered_figure(aggregate: Mapping[str, Any]) -> Figure | None:
    """Figure U.1: original − renamed under each grade on the covered tasks (the run's or the
    validation file's covered set, which the aggregate was built with); None without one."""
    rows, size = _covered_rows(aggregate)
    if not rows:
        return None
    return Figure("figure-U1", f"Figure U.1: decrease after renaming on the {size} covered tasks\n"
                  "(name and behavior grade, 95% CI; n = tasks with both conditions graded)",
                  "Each decrease is the original minus the renamed pass rate in points, paired over the tasks "
                  "the behavior grade covers (appendix J), with its 95% bootstrap CI over tasks.",
                  [Panel(FOREST, "", "decrease after renaming, points (95% CI)", rows)])


def all_task_figure(aggregate: Mapping[str, Any]) -> Figure | None:
    """Without a covered set: every grade's decrease on every task with a verdict (not Figure U.1,
    whose scope is the covered tasks: the title says so)."""
    rows = []
    for model, entry in aggregate.get("models", {}).items():
        for grade, grade_entry in entry["grades"].items():
            for renamed, d in grade_entry["decreases"].items():
                if d:
                    rows.append({"label": f"{model}, {grade} ({renamed})", "model": model, "grade": grade,
                                 "renamed": renamed, "n": d["n"], **_interval(d)})
    if not rows:
        return None
    return Figure("decreases", "Decreases after renaming on every task with a verdict\n"
                  "(no covered set known, so not Figure U.1: run with --alias-covered or pass --covered)",
                  "Original − renamed pass rate in points, paired over the tasks graded in both conditions, with "
                  "95% bootstrap CIs; n per row.",
                  [Panel(FOREST, "", "decrease after renaming, points (95% CI)", rows)])


def _t1_effect(effects: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    by_measure = {e["measure"]: e for e in effects}
    return next((by_measure[g] for g in T1_GRADES if g in by_measure), None)


def exposure_figures(analysis: Mapping[str, Any] | None) -> list[Figure]:
    """Figure T.1 per family and arm: (a) the four pass rates (seen / unseen × original / renamed),
    (b) Table 2's effects with 95% CIs over tasks; the behavior grade (on the covered tasks when the
    analysis was restricted to them), else the first correctness grade the records have."""
    effects = [e for e in (analysis or {}).get("effects", ()) if e["subset"] == "all" and e["unit"] == "points"]
    covered = (analysis or {}).get("covered")
    figures = []
    # One figure per family, arm and exposure dose (two doses of one family are two experiments).
    for family, arm, dose in dict.fromkeys((e["family"], e["arm"], e.get("dose", "")) for e in effects):
        effect = _t1_effect([e for e in effects if (e["family"], e["arm"], e.get("dose", "")) == (family, arm, dose)])
        if effect is None:
            continue
        name, n, cells = f"{family} {arm}".strip() + (f", {dose} dose" if dose else ""), effect["n"], effect["cells"]
        scope = f"the {n} covered tasks" if effect["measure"] == "behavior" and covered is not None else f"{n} tasks"
        rates = [{"label": condition, "n": n, "values": {"seen": cells[f"{condition}_seen"],
                                                          "unseen": cells[f"{condition}_unseen"]}}
                 for condition in ("original", "renamed")]
        parts = [{"label": label, "part": part, "n": effect[part]["n"], **_interval(effect[part])}
                 for part, label in EXPOSURE_PARTS]
        figures.append(Figure(f"figure-T1-{slug(name)}", f"Figure T.1: randomized exposure ({name}), "
                              f"{effect['measure']} grade on {scope}",
                              "Two models trained on disjoint halves of the tasks: each task is seen by one and "
                              "unseen by the other. (a) Pass rate in percent of samples, mean over tasks. (b) "
                              "Exposure = seen − unseen; DiD = (original − renamed) seen − (original − renamed) "
                              "unseen; renaming cost on unseen tasks; points with 95% bootstrap CIs over tasks.",
                              [Panel(BARS, f"(a) {effect['measure']}-grade pass rate", "pass rate (%)", rates),
                               Panel(FOREST, "(b) effects with 95% CIs over tasks", "points (95% CI)", parts)]))
    return figures


def task_rate_figures(records: Sequence[Mapping[str, Any]], aggregate: Mapping[str, Any]) -> list[Figure]:
    """Per model, each task's pass rate per grade and condition (beyond the paper: where a decrease comes from)."""
    figures = []
    for index, (model, entry) in enumerate(aggregate.get("models", {}).items(), 1):
        conditions = [c for c in CONDITIONS if any(r["condition"] == c for r in records)]
        columns = [f"{g}, {c}" for g in entry["grades"] for c in conditions]
        rates = {f"{g}, {c}": task_rates(records, model, g, c) for g in entry["grades"] for c in conditions}
        tasks = sorted({r["task"] for r in records if r["model"] == model})
        if not tasks or not columns:
            continue
        rows = [{"label": task, "values": {column: rates[column].get(task) for column in columns}} for task in tasks]
        figures.append(Figure(f"task-rates-{index}-{slug(model)}", f"{model}: pass rate per task (n = {len(tasks)} "
                              "tasks)", "Blank cells: the grade does not apply to that task (e.g. no cfg for the "
                              "name grade) or gave no verdict.", [Panel(HEATMAP, "", "pass rate", rows)]))
    return figures


def run_figures(records: Sequence[Mapping[str, Any]], aggregate: Mapping[str, Any],
                exposure: Mapping[str, Any] | None = None) -> list[Figure]:
    """Every figure a run supports, in the paper's order: S.1, T.1, U.1 (or the all-task decreases
    without a covered set), then the per-task maps."""
    found: list[Figure | None] = [hidden_name_figure(aggregate), *exposure_figures(exposure),
                                  covered_figure(aggregate) or all_task_figure(aggregate)]
    return [figure for figure in found if figure is not None] + task_rate_figures(records, aggregate)


# --------------------------------------------------------------------------- drawing


def _pyplot() -> Any:
    import matplotlib  # deferred: slow to load, and only drawing needs it

    matplotlib.use("Agg")  # no display: files and inline images only
    import matplotlib.pyplot as plt

    return plt


def _draw_bars(axis: Any, panel: Panel) -> None:
    series = list(dict.fromkeys(name for row in panel.rows for name in row["values"]))
    width = 0.8 / len(series)
    for i, name in enumerate(series):
        offsets = [j + (i - (len(series) - 1) / 2) * width for j in range(len(panel.rows))]
        heights = [row["values"].get(name) for row in panel.rows]
        bars = axis.bar(offsets, [h if h is not None else 0.0 for h in heights], width, label=name)
        axis.bar_label(bars, labels=["–" if h is None else f"{h:.1f}" for h in heights], fontsize=7)
    axis.set_xticks(range(len(panel.rows)), [f"{row['label']}\n(n={row['n']})" for row in panel.rows], fontsize=8)
    axis.set_ylim(0, 110)
    axis.set_ylabel(panel.axis)
    axis.legend(fontsize=8)


def _draw_forest(axis: Any, panel: Panel) -> None:
    means = [row["mean"] for row in panel.rows]
    lows = [row["mean"] - row["ci_low"] for row in panel.rows]
    highs = [row["ci_high"] - row["mean"] for row in panel.rows]
    positions = list(range(len(panel.rows)))[::-1]  # the first row on top
    axis.errorbar(means, positions, xerr=[lows, highs], fmt="o", color="black", capsize=3)
    axis.axvline(0, color="grey", linewidth=0.8)
    axis.set_yticks(positions, [f"{row['label']} (n={row['n']})" for row in panel.rows], fontsize=8)
    axis.set_xlabel(panel.axis)


def _draw_heatmap(axis: Any, panel: Panel) -> None:
    columns = list(panel.rows[0]["values"])
    matrix = [[float("nan") if row["values"][c] is None else row["values"][c] for c in columns] for row in panel.rows]
    image = axis.imshow(matrix, aspect="auto", cmap="viridis", vmin=0, vmax=1)
    axis.set_xticks(range(len(columns)), [c.replace(", ", "\n") for c in columns], fontsize=8)
    axis.set_yticks(range(len(panel.rows)), [row["label"] for row in panel.rows], fontsize=8)
    axis.figure.colorbar(image, ax=axis, label=panel.axis)


DRAWERS: dict[str, Callable[[Any, Panel], None]] = {BARS: _draw_bars, FOREST: _draw_forest, HEATMAP: _draw_heatmap}


def _size(panel: Panel) -> tuple[float, float]:
    """Width and height (inches) a panel needs for its rows to stay readable."""
    if panel.kind == FOREST:
        return 6.0, 1.2 + 0.45 * len(panel.rows)
    if panel.kind == HEATMAP:
        return 1.5 + 0.9 * len(panel.rows[0]["values"]), 1.0 + 0.28 * len(panel.rows)
    return max(4.5, 1.6 * len(panel.rows)), 4.0


def draw(figure: Figure) -> Any:
    """The figure as a matplotlib figure (the caller closes it), title on top."""
    plt = _pyplot()
    sizes = [_size(panel) for panel in figure.panels]
    drawn, axes = plt.subplots(1, len(sizes), figsize=(sum(w for w, _ in sizes), max(h for _, h in sizes)),
                               squeeze=False)
    for axis, panel in zip(axes[0], figure.panels):
        DRAWERS[panel.kind](axis, panel)
        if panel.title:
            axis.set_title(panel.title, fontsize=9)
    drawn.suptitle(figure.title, fontsize=10)
    drawn.tight_layout()
    return drawn


def png_bytes(figure: Figure) -> bytes:
    """The figure drawn as PNG."""
    plt = _pyplot()
    drawn = draw(figure)
    try:
        buffer = io.BytesIO()
        drawn.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
        return buffer.getvalue()
    finally:
        plt.close(drawn)


def render_pngs(figures: Iterable[Figure]) -> dict[str, bytes] | None:
    """Each figure's PNG by key, or None when matplotlib is missing."""
    try:
        return {figure.key: png_bytes(figure) for figure in figures}
    except ImportError:
        return None


# --------------------------------------------------------------------------- renderers


MISSING_MATPLOTLIB = "Figures need matplotlib (pip install matplotlib)."


def figure_html(figures: Sequence[Figure], pngs: Mapping[str, bytes] | None) -> list[str]:
    """Each figure inline (title, image, caption), or one line saying matplotlib is missing."""
    if figures and pngs is None:
        return [f"<p>{MISSING_MATPLOTLIB}</p>"]
    out = []
    for figure in figures:
        source = base64.b64encode((pngs or {})[figure.key]).decode("ascii")
        title = html.escape(figure.title.replace("\n", " "))
        out.append(f'<figure id="{figure.key}"><h3>{title}</h3><img alt="{title}" '
                   f'src="data:image/png;base64,{source}"><figcaption>{html.escape(figure.caption)}'
                   "</figcaption></figure>")
    return out


def _markdown_rows(panel: Panel) -> list[str]:
    """The plotted numbers as a Markdown table, so a text reader sees what the image shows."""
    if panel.kind == BARS:
        series = list(dict.fromkeys(name for row in panel.rows for name in row["values"]))
        header, rows = ["", "n", *(f"{s} %" for s in series)], [
            [row["label"], str(row["n"]), *("–" if row["values"].get(s) is None else f"{row['values'][s]:.1f}"
                                            for s in series)] for row in panel.rows]
    elif panel.kind == FOREST:
        header, rows = ["", "n", "points [95% CI]"], [
            [row["label"], str(row["n"]), f"{row['mean']:.1f} [{row['ci_low']:.1f}, {row['ci_high']:.1f}]"]
            for row in panel.rows]
    else:
        return []  # a per-task map is its image
    return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header),
            *("| " + " | ".join(row) + " |" for row in rows), ""]


def figure_markdown(figures: Sequence[Figure]) -> list[str]:
    """Each figure as a heading, its image (the PNG beside the report), caption and numbers."""
    lines = ["## Figures", ""] if figures else []
    for figure in figures:
        title = figure.title.replace("\n", " ")
        lines += [f"### {title}", "", f"![{title}]({figure.file})", "", figure.caption, ""]
        for panel in figure.panels:
            lines += ([f"{panel.title}:", ""] if panel.title else []) + _markdown_rows(panel)
    return lines


def write_png(path: Path, data: bytes) -> None:
    """``data`` to ``path`` through a temporary file and ``os.replace`` (the report's other files are
    written the same way; ``atomic_write`` is for text), with the permissions the umask allows."""
    check_output_file(path)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o666 & ~current_umask())
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
