"""Why outputs fail: one outcome per record, from the first failing grade's evidence.

The summary counts outcomes per model and condition, so a user sees at a glance whether a model
writes no module at all, modules SANY rejects, or modules TLC finds wrong.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from ..records import OUTCOMES, outcome_counts
from .tables import render_text


#: What the outcome table counts (its caption in every format).
CAPTION = "outcomes (samples; the first failing grade decides)"


def outcome_table(records: Iterable[Mapping[str, Any]]) -> tuple[list[str], list[list[str]]]:
    """The outcome table: one row per model and condition, one column per outcome seen (no rows: none)."""
    counts = outcome_counts(records)
    seen = [o for o in OUTCOMES if any(o in c for conditions in counts.values() for c in conditions.values())]
    if not seen:
        return [], []
    header = ["model", "condition", *(outcome.label for outcome in seen)]
    rows = [[model, condition, *(str(c.get(o, 0)) for o in seen)]
            for model, conditions in counts.items() for condition, c in conditions.items()]
    return header, rows


def outcome_lines(records: Iterable[Mapping[str, Any]]) -> list[str]:
    """The outcome table as the terminal summary prints it."""
    header, rows = outcome_table(records)
    return [f"{CAPTION}:", *render_text(header, rows)] if rows else []
