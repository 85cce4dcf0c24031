"""Table J.1 (``tla-alias validate-grader``) as Markdown or aligned text.

``grading/validation.py`` computes the table (rows, wrong verdicts, left-out tasks); this module only
lays it out, as every other table of a run is laid out in ``report/``.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only the type: rendering needs no grader code loaded
    from ..grading.validation import ValidationTable

__all__ = ["table_j1_markdown", "table_j1_text"]


def _summary(table: ValidationTable) -> list[str]:
    """The lines under the table: eligibility, left-out tasks and copies, wrong verdicts, errors."""
    eligible = [t for t in table.tasks if t.eligible]
    skipped = Counter(t.notes["operator_renamed"] for t in eligible if "operator_renamed" in t.notes)
    lines = [f"{len(eligible)}/{len(table.tasks)} tasks eligible; "
             f"{sum(t.covered for t in eligible)} covered (reference passes against itself)."]
    lines += [f"Left out: {t.task_id}: {t.notes.get('eligible', 'not eligible')}"
              for t in table.tasks if not t.eligible]
    if skipped:
        lines.append("Operator-renamed copies left out: "
                     + ", ".join(f"{n} {why}" for why, n in sorted(skipped.items())) + ".")
    for task_id, case in table.wrong():
        lines.append(f"WRONG: {task_id} {case.control} ({case.label}): "
                     f"{'passed' if case.passed else 'failed: ' + str(case.reason)}")
    for task in eligible:
        if "error" in task.notes:
            lines.append(f"ERROR: {task.task_id}: {task.notes['error']}")
    return lines


def table_j1_markdown(table: ValidationTable) -> str:
    """The table as Markdown, with a summary line per left-out group and per wrong verdict."""
    lines = [f"Table J.1 (behavior grade, mode {table.mode}). A positive control should pass and a "
             "negative control should fail.", "", "| Control | n | Passed |", "|---|---:|---:|"]
    lines += [f"| {r.label} | {r.n} | {r.passed} |" for r in table.rows()]
    return "\n".join(lines + [""] + _summary(table)) + "\n"


def table_j1_text(table: ValidationTable) -> str:
    """The table as aligned plain text."""
    rows = [("Control", "n", "Passed")] + [(r.label, str(r.n), str(r.passed)) for r in table.rows()]
    width = max(len(r[0]) for r in rows)
    lines = [f"Table J.1 (behavior grade, mode {table.mode})"]
    lines += [f"{a.ljust(width)}  {b.rjust(4)}  {c.rjust(6)}" for a, b, c in rows]
    return "\n".join(lines + [""] + _summary(table)) + "\n"
