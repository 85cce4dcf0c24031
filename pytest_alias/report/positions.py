"""Appendix S: the decrease at each sample position separately, and the first sample's pass rate.

The main analysis averages a task's five samples into one rate. Appendix S checks that the decrease
does not depend on that averaging: for each sample position k, a task's value is whether its k-th
sample passes (0 or 1) in each condition, and the decrease original − renamed over tasks gets its own
95% bootstrap CI and sign test. TLA⁺-Bench reports the first sample of each task, so the first
original sample's pass rate, on a given list of task ids (the 100 tasks TLA⁺-Bench reports), is the
number comparable to it.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from .. import stats
from ..atomic import parse_json
from ..records import graded_verdict
from ..vocabulary import BOOTSTRAP_RESAMPLES


def position_passes(records: Iterable[Mapping[str, Any]], model: str, grade: str, condition: str
                    ) -> dict[int, dict[str, float]]:
    """Sample position → task → 1.0 or 0.0 (its sample at that position passes ``grade``); samples
    without a verdict (model or grader errors) and tasks the grade cannot take are left out. With
    several renamings per task (``--alias-rename-seeds``) a task's value is the share of its
    renamings whose sample at that position passes."""
    found: dict[int, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for record in records:
        if record["model"] != model or record["condition"] != condition or grade not in record["grades"]:
            continue
        if (record["grades"][grade] or {}).get("not_applicable"):
            continue
        verdict = graded_verdict(record, grade)
        if verdict is not None:
            found[int(record["sample"])][str(record["task"])].append(1.0 if verdict else 0.0)
    return {position: {task: sum(values) / len(values) for task, values in tasks.items()}
            for position, tasks in found.items()}


def position_decreases(records: Sequence[Mapping[str, Any]], model: str, grade: str, *, renamed: str = "random",
                       resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0) -> list[dict[str, Any]]:
    """One row per sample position present in both conditions: n, both rates (percent), the decrease
    (points) with its 95% CI, tasks that fell and rose, and the sign-test p."""
    original = position_passes(records, model, grade, "original")
    changed = position_passes(records, model, grade, renamed)
    rows = []
    for position in sorted(set(original) & set(changed)):
        shared = sorted(set(original[position]) & set(changed[position]))
        if not shared:
            continue
        a = [original[position][t] for t in shared]
        b = [changed[position][t] for t in shared]
        difference = stats.paired_difference(a, b, resamples=resamples, seed=seed).scaled()
        rows.append({"model": model, "grade": grade, "renamed": renamed, "sample": position, "n": len(shared),
                     "original": 100 * sum(a) / len(a), "renamed_rate": 100 * sum(b) / len(b),
                     "mean": difference.mean, "ci_low": difference.ci_low, "ci_high": difference.ci_high,
                     "now_fail": difference.higher, "now_pass": difference.lower,
                     "sign_p": stats.sign_test(a, b).p_value})
    return rows


def first_sample_rate(records: Sequence[Mapping[str, Any]], model: str, grade: str, *,
                      condition: str = "original", ids: Iterable[str] | None = None) -> dict[str, Any] | None:
    """The share of tasks whose first sample (position 0) passes, over ``ids`` when given; the ids with
    no first sample in the records are counted apart (``missing``), never as failures."""
    first = position_passes(records, model, grade, condition).get(0, {})
    wanted = sorted(set(ids)) if ids is not None else sorted(first)
    present = [t for t in wanted if t in first]
    if not present:
        return None
    return {"model": model, "grade": grade, "condition": condition, "n": len(present),
            "rate": 100 * sum(first[t] for t in present) / len(present),
            "missing": [t for t in wanted if t not in first], "restricted": ids is not None}


def read_ids(path: Path | str) -> list[str]:
    """Task ids from a JSON list (``test_ids.json`` of ``tla-alias build``) or a text file, one per line;
    ValueError with one line saying what is wrong."""
    text = Path(path).read_text(encoding="utf-8")
    stripped = text.strip()
    if stripped.startswith("["):
        try:
            data = parse_json(stripped)
        except ValueError as exc:
            raise ValueError(f"{path}: not a JSON list of task ids ({exc})") from None
        if not all(isinstance(item, (str, int)) for item in data):
            raise ValueError(f"{path}: a JSON id list must hold strings")
        ids = [str(item) for item in data]
    else:
        ids = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    if not ids:
        raise ValueError(f"{path}: no task ids")
    return ids
