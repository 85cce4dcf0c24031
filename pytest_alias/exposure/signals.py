"""The contamination signals' per-task values, from the rows ``tla-alias exposure`` reads.

Each function returns ``(model, task, condition)`` → one number, higher for what a model saw:

* grades: the pass rate over samples (:func:`.analysis.grade_values` computes it from records);
* likelihood: a field of the likelihood rows (mean, Min-K%, Min-K%++, zlib ratio);
* continuation: the longest verbatim token run of ``tla-alias continuation`` (appendix L);
* agreement: 1 − the mean pairwise edit distance of the samples, from saved outputs
  (``--alias-save-outputs``) or from a run file's own agreement table.

The base model's values (the model the adapters were trained from, scored or run beside them) are
the thresholds of the ``value`` rows' flags (:mod:`.detection`).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Iterable, Mapping

AGREEMENT_FORMAT = "alias-agreement"
CONTINUATION_FORMAT = "alias-continuation"  # controls.continuation's rows (the string, so no import)

Values = dict[tuple[str, str, str], float]


def _key(row: Mapping[str, Any]) -> tuple[str, str, str]:
    return str(row["model"]), str(row["task"]), str(row["condition"])


def is_output_row(row: Mapping[str, Any]) -> bool:
    """A saved output (``--alias-save-outputs`` line): a text with no grades and no row format."""
    return isinstance(row.get("text"), str) and "grades" not in row and "format" not in row


def continuation_values(rows: Iterable[Mapping[str, Any]]) -> Values:
    """The longest verbatim run per model, task and condition (the mean if a file was continued twice)."""
    runs: dict[tuple[str, str, str], list[float]] = defaultdict(list)
    for row in rows:
        if row.get("format") == CONTINUATION_FORMAT and row.get("longest_run") is not None:
            runs[_key(row)].append(float(row["longest_run"]))
    return {key: sum(found) / len(found) for key, found in runs.items()}


def agreement_values(rows: Iterable[Mapping[str, Any]]) -> Values:
    """1 − mean pairwise normalised edit distance per model, task and condition with two or more
    samples: from saved outputs, else from agreement rows (a run file's table, :func:`agreement_rows`)."""
    from ..report.agreement import sample_agreement  # rapidfuzz: only when agreement is asked for

    texts: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    given: Values = {}
    for row in rows:
        if is_output_row(row):
            texts[_key(row)].append(str(row["text"]))
        elif row.get("format") == AGREEMENT_FORMAT and row.get("mean_distance") is not None:
            given[_key(row)] = 1.0 - float(row["mean_distance"])
    computed: Values = {}
    for key, found in texts.items():
        agreement = sample_agreement(found)
        if agreement is not None:
            computed[key] = 1.0 - float(agreement["mean_distance"])
    return {**given, **computed}  # the texts themselves win over a table computed from them


def agreement_rows(run: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """A plugin run file's agreement table (``metadata.agreement``) as one row per model, task and
    condition, so a run file alone gives the agreement signal."""
    models = ((run or {}).get("agreement") or {}).get("models") or {}
    rows = []
    for model, entry in models.items():
        for task, found in (entry.get("tasks") or {}).items():
            for condition, cell in (found.get("conditions") or {}).items():
                rows.append({"format": AGREEMENT_FORMAT, "model": model, "task": task, "condition": condition,
                             "mean_distance": cell.get("mean_distance"), "samples": cell.get("samples")})
    return rows


def baseline(values: Mapping[tuple[str, str, str], float], base: str) -> dict[tuple[str, str], float]:
    """``(task, condition)`` → the value of model ``base`` (the base model's own rows)."""
    return {(task, condition): value for (model, task, condition), value in values.items() if model == base}
