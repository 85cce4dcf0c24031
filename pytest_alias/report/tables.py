"""The aggregate as text tables: the terminal summary and the Markdown report share them."""

from __future__ import annotations

from typing import Any, Mapping

from ..vocabulary import CONDITIONS
from .seeds import SEED_CAPTION, seed_table


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


def p_value(p: float) -> str:
    """A p value as a reader expects it: ``p=0.031``, ``p<0.0001`` (never ``p=0.0000``)."""
    return "p<0.0001" if p < 0.0001 else f"p={p:.4f}" if p < 0.001 else f"p={p:.3f}"


def _points(decrease: Mapping[str, Any] | None) -> str:
    if not decrease:
        return "–"
    text = f"{decrease['mean']:+.1f} [{decrease['ci_low']:.1f}, {decrease['ci_high']:.1f}]"
    if "ci90_low" in decrease:  # aggregates written before the equivalence test have no 90% interval
        verdict = "equivalent" if decrease["equivalent"] else "not shown equivalent"
        text += f" 90% [{decrease['ci90_low']:.1f}, {decrease['ci90_high']:.1f}] {verdict} ±{decrease['margin']:g}"
    tasks = f"n={decrease['n']} task{'' if decrease['n'] == 1 else 's'}"
    text += (f" {tasks}; rate fell on {decrease['now_fail']}, rose on {decrease['now_pass']} "
             f"(sign test {p_value(decrease['sign_p'])})")
    if decrease.get("original") == 0:  # a rate of 0 cannot fall: "no decrease" says nothing here
        text += "; at the floor: 0% before renaming"
    return text


def _meaningful_points(found: Mapping[str, Any]) -> str:
    d = found["random_minus_meaningful"]
    verdict = "equivalent" if d["equivalent"] else "not shown equivalent"
    original = "" if found["original"] is None else f"original {found['original']:.1f}%, "
    return (f"{d['mean']:+.1f} [{d['ci_low']:.1f}, {d['ci_high']:.1f}] 90% [{d['ci90_low']:.1f}, {d['ci90_high']:.1f}] "
            f"{verdict} ±{d['margin']:g} n={found['n']} tasks; {original}random {found['random']:.1f}%, "
            f"meaningful {found['meaningful']:.1f}% on these tasks")


def rate_rows(model_entry: Mapping[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Table 1: one row per grade, one column per condition (pass rates in percent of samples), each
    column headed by the number of tasks it averages over; a cell over fewer tasks says its own n
    (a grade without a cfg to use, or samples without a verdict, leave tasks out)."""
    grades = model_entry["grades"]
    conditions = [c for c in CONDITIONS if any(c in g["rates"] for g in grades.values())]
    counts = {c: max((g["rates"].get(c, {}).get("tasks", 0) for g in grades.values()), default=0) for c in conditions}
    header = ["grade (pass rate)", *(f"{c} (n={counts[c]})" if counts[c] else c for c in conditions)]

    def cells(rates: Mapping[str, Any]) -> list[str]:
        out = []
        for c in conditions:
            rate = rates.get(c, {})
            n = rate.get("tasks", 0)
            out.append(_pct(rate.get("mean")) + (f" (n={n})" if n and n != counts[c] else ""))
        return out

    rows = []
    for grade, entry in grades.items():
        rows.append([grade, *cells(entry["rates"])])
        if "covered" in entry:  # the tasks the behavior grade covers (Table U.1)
            rows.append([f"{grade} (covered tasks)",
                         *(f"{_pct(entry['covered']['rates'].get(c, {}).get('mean'))} "
                           f"(n={entry['covered']['rates'].get(c, {}).get('tasks', 0)})" for c in conditions)])
        if "paper_rule_rates" in entry:  # tasks without a cfg counted as failing, as the paper does
            rows.append([f"{grade} (paper rule: no-cfg tasks fail)", *cells(entry["paper_rule_rates"])])
        if "lenient_rates" in entry:  # SANY's exit code alone, beside the strict verdict
            rows.append(["parse (lenient)", *cells(entry["lenient_rates"])])
    return header, rows


def decrease_rows(model_entry: Mapping[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Each decrease (original − renamed) with its CI, task counts and sign test, overall and split."""
    header = ["grade", "renamed", "tasks", "original − renamed, points [95% CI] (paired over tasks)"]
    rows = []
    for grade, entry in model_entry["grades"].items():
        for renamed, decrease in entry["decreases"].items():
            rows.append([grade, renamed, "all", _points(decrease)])
            for split, value in entry["split"].get(renamed, {}).items():
                rows.append([grade, renamed, split.replace("_", " "), _points(value)])
            if "covered" in entry and entry["covered"]["decreases"].get(renamed):
                rows.append([grade, renamed, "covered tasks", _points(entry["covered"]["decreases"][renamed])])
        # Appendix R: on the meaningful-valid tasks (and those also covered), the three rates and
        # random − meaningful with its 95% CI, 90% CI and TOST verdict at ±5 points.
        for label, key in (("meaningful-valid", "meaningful"), ("meaningful-valid, covered", "meaningful_covered")):
            if entry.get(key):
                rows.append([grade, "random − meaningful", label, _meaningful_points(entry[key])])
    return header, rows


def not_graded_lines(model_entry: Mapping[str, Any]) -> list[str]:
    """Which samples the rates leave out because they hold no verdict on the output (one line per kind)."""
    parts = [f"{grade} {condition} {count}" for grade, entry in model_entry["grades"].items()
             for condition, count in (entry.get("not_graded") or {}).items()]
    lines = []
    if parts:
        lines.append("samples without a verdict (model, reference or grader error, a toolchain limit: a cfg "
                     "keyword the tla2tools.jar predates, or a behavior search cut off by its budget; left out of "
                     "the rates, never counted as failures): "
                     + ", ".join(parts))
    for grade, entry in model_entry["grades"].items():
        unjudged = entry.get("not_gradeable") or {}
        if unjudged:
            lines.append(f"not gradeable by {grade} (the reference fails it against itself; items skipped, left out "
                         f"of the rates): {len(unjudged)} task{'s' if len(unjudged) != 1 else ''} "
                         f"({', '.join(unjudged)}), {sum(unjudged.values())} samples")
    return lines


def render_text(header: list[str], rows: list[list[str]]) -> list[str]:
    """An aligned plain-text table."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows)]
    line = lambda cells: "  ".join(str(c).ljust(w) for c, w in zip(cells, widths)).rstrip()  # noqa: E731
    return [line(header), line(["-" * w for w in widths]), *(line(row) for row in rows)]


def render_markdown(header: list[str], rows: list[list[str]]) -> list[str]:
    """A Markdown table."""
    return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header), *("| " + " | ".join(r) + " |" for r in rows)]


def summary_lines(aggregate: Mapping[str, Any]) -> list[str]:
    """The terminal summary: per model, Table 1 and the decreases."""
    lines: list[str] = []
    for model, entry in aggregate["models"].items():
        lines.append(f"model {model}: {entry['tasks']} tasks ({entry['hidden_name_tasks']} with hidden names, "
                     f"{entry['every_name_stated_tasks']} with every name stated)")
        lines += render_text(*rate_rows(entry))
        lines += not_graded_lines(entry)
        decreases = decrease_rows(entry)
        if decreases[1]:
            lines.append("")
            lines += render_text(*decreases)
        lines += seed_lines(entry)
        lines.append("")
    return lines


def seed_lines(model_entry: Mapping[str, Any]) -> list[str]:
    """The several-renamings table (``--alias-rename-seeds``) with its caption; none for one seed."""
    header, rows = seed_table(model_entry)
    return ["", SEED_CAPTION, *render_text(header, rows)] if rows else []
