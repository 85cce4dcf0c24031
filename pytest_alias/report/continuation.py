"""Appendix L from saved files: does a model's file continuation predict which tasks lose correctness?

Inputs are ``tla-alias continuation`` rows (the longest token run each model shares with the real
remainder of a reference file and of its renamed copy) and plugin records (each task's renaming
decrease). Three tests per continuation model, records model and grade, each over the tasks with
both runs and both rates:

* Spearman's rho of (run on the original − run on the renamed copy) with the decrease;
* the tasks with a long run (≥ 50 tokens) on the original against the others (permutation test);
* the tasks whose original run lies above the 95th percentile of the runs on renamed copies — copies
  nobody can have seen, so that percentile is what common TLA⁺ text alone reaches — against the others.

A test its data cannot support (a constant input makes rho undefined; an empty group has no mean)
is reported as not applicable with the reason, never as an error: a model whose decrease is the same
on every task (the ``reference`` positive control) is a valid input.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Mapping, Sequence

import numpy as np

from .. import stats
from .aggregate import task_rates
from ..vocabulary import BOOTSTRAP_RESAMPLES

LONG_RUN = 50  # tokens; the same threshold as ``tla-alias continuation``'s ``long_run``
PERCENTILE = 95


def continuation_runs(rows: Sequence[Mapping[str, Any]], model: str) -> dict[str, dict[str, int]]:
    """Condition → task → longest shared run, for one continuation model."""
    runs: dict[str, dict[str, int]] = defaultdict(dict)
    for row in rows:
        if str(row["model"]) == model:
            runs[str(row["condition"])][str(row["task"])] = int(row["longest_run"])
    return runs


def spearman_or_reason(x: Sequence[float], y: Sequence[float], *, resamples: int, seed: int) -> dict[str, Any]:
    """Spearman's rho with its permutation p, or ``{"not_applicable": reason}`` when rho is undefined."""
    if len(x) < 2:
        return {"not_applicable": "fewer than two tasks"}
    for name, values in (("the run difference", x), ("the decrease", y)):
        if len(set(values)) == 1:
            return {"not_applicable": f"{name} is the same on every task ({values[0]:g}), so rho is undefined"}
    return stats.spearman(x, y, resamples=resamples, seed=seed).to_dict()


def group_comparison(decrease: Mapping[str, float], chosen: set[str], *, resamples: int, seed: int) -> dict[str, Any]:
    """Mean decrease of the ``chosen`` tasks against the rest, with a permutation p on the difference;
    ``not_applicable`` (with the counts) when either group is empty."""
    inside = [d for t, d in decrease.items() if t in chosen]
    outside = [d for t, d in decrease.items() if t not in chosen]
    out: dict[str, Any] = {"n": len(inside), "other_n": len(outside)}
    if not inside or not outside:
        out["not_applicable"] = f"{'no' if not inside else 'every'} task is in the group"
        return out
    out.update(decrease=sum(inside) / len(inside), other_decrease=sum(outside) / len(outside),
               permutation=stats.permutation_test(inside, outside, resamples=resamples, seed=seed).to_dict())
    return out


def renamed_percentile(runs: Mapping[str, int], percentile: float = PERCENTILE) -> float:
    """The ``percentile``-th percentile (linear interpolation) of the runs on renamed copies."""
    return float(np.percentile(np.asarray(list(runs.values()), dtype=float), percentile))


def predicts(runs: Mapping[str, Mapping[str, int]], records: Sequence[Mapping[str, Any]], graded: str, grade: str, *,
             renamed: str = "random", resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0) -> dict[str, Any] | None:
    """The three tests for one records model and grade, or None when fewer than 3 tasks have everything."""
    original = task_rates(records, graded, grade, "original")
    changed = task_rates(records, graded, grade, renamed)
    tasks = sorted(t for t in set(runs.get("original", {})) & set(runs.get(renamed, {}))
                   if t in original and t in changed)
    if len(tasks) < 3:
        return None
    gap = [runs["original"][t] - runs[renamed][t] for t in tasks]
    decrease = {t: 100 * (original[t] - changed[t]) for t in tasks}
    found: dict[str, Any] = {"records_model": graded, "grade": grade, "n": len(tasks),
                             "spearman": spearman_or_reason(gap, list(decrease.values()), resamples=resamples,
                                                            seed=seed)}
    long_tasks = {t for t in tasks if runs["original"][t] >= LONG_RUN}
    found["long_vs_other"] = group_comparison(decrease, long_tasks, resamples=resamples, seed=seed)
    threshold = renamed_percentile({t: runs[renamed][t] for t in tasks})
    above = {t for t in tasks if runs["original"][t] > threshold}
    found["above_percentile"] = {"percentile": PERCENTILE, "threshold": threshold, "tasks": sorted(above),
                                 **group_comparison(decrease, above, resamples=resamples, seed=seed)}
    return found


def continuation_analysis(rows: Sequence[Mapping[str, Any]], records: Sequence[Mapping[str, Any]], *,
                          grades: Sequence[str] = ("name", "behavior"), renamed: str = "random",
                          resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0) -> list[dict[str, Any]]:
    """Appendix L per continuation model: long runs on originals and renamed copies, and for each
    records model and grade the three tests of :func:`predicts`."""
    out = []
    for model in sorted({str(r["model"]) for r in rows}):
        runs = continuation_runs(rows, model)
        entry: dict[str, Any] = {"model": model, "files": {c: len(v) for c, v in runs.items()},
                                 "long_runs": {c: sum(run >= LONG_RUN for run in v.values()) for c, v in runs.items()},
                                 "predicts": []}
        for graded in sorted({str(r["model"]) for r in records}):
            for grade in grades:
                found = predicts(runs, records, graded, grade, renamed=renamed, resamples=resamples, seed=seed)
                if found is not None:
                    entry["predicts"].append(found)
        out.append(entry)
    return out
