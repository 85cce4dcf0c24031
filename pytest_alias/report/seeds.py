"""Several renamings per task (``--alias-rename-seeds N``): is the decrease the renaming's, or one draw's?

The paper renames each task once. With N renaming seeds a task has N random conditions, and this
module reads them as perturbation benchmarks do: the rate and the decrease averaged over seeds,
with a 95% CI from a two-level bootstrap (tasks, then seeds within each drawn task:
:func:`stats.two_level_bootstrap`); each seed's own rate and decrease with their spread (min, max,
sample SD across seeds); and the per-task worst case, the largest decrease any seed gave that task.

Inputs are task rates (fractions) the aggregate already computed, so nothing here reads records;
decreases are in percentage points. :func:`seed_rows` gives the results as plain rows for other
report sections (a verdict section can cite them).
"""

from __future__ import annotations

import statistics
from typing import Any, Iterable, Mapping

from .. import stats

#: Which of the run's renamings a record answered (records of one-seed runs carry no field: seed 0).
SEED_FIELD = "rename_seed"


def record_seed(record: Mapping[str, Any]) -> int:
    """The renaming seed index a record answered (0 for the run's own seed and for one-seed runs)."""
    return int(record.get(SEED_FIELD) or 0)


def seed_indices(records: Iterable[Mapping[str, Any]]) -> list[int]:
    """The renaming seed indices the random-condition records hold, sorted."""
    return sorted({record_seed(r) for r in records if r.get("condition") == "random"})


def _spread(values: list[float]) -> dict[str, float | None]:
    """Min, max and sample SD (None for a single value) of per-seed numbers."""
    return {"min": min(values), "max": max(values), "sd": statistics.stdev(values) if len(values) > 1 else None}


def seed_analysis(original: Mapping[str, float], per_seed: Mapping[int, Mapping[str, float]],
                  tasks: Iterable[str] | None = None, *, resamples: int, seed: int) -> dict[str, Any] | None:
    """The multi-seed reading of one grade: ``original`` is task → original rate, ``per_seed`` is
    renaming seed → (task → random rate); ``tasks`` restricts it (e.g. to covered tasks). The tasks
    are those with an original rate and at least one seed's rate; None when there are none.

    Rates are fractions, decreases points. ``per_seed[k]`` rows pair each seed with the original
    over the tasks that seed has (a seed whose renaming did not verify for a task lacks it)."""
    wanted = set(tasks) if tasks is not None else None
    by_task: dict[str, dict[int, float]] = {}
    for index, rates in sorted(per_seed.items()):
        for task, value in rates.items():
            if task in original and (wanted is None or task in wanted):
                by_task.setdefault(task, {})[index] = value
    if not by_task:
        return None
    ids = sorted(by_task)
    rate = stats.two_level_bootstrap([list(by_task[t].values()) for t in ids], resamples=resamples, seed=seed)
    decrease = stats.two_level_bootstrap([[original[t] - r for r in by_task[t].values()] for t in ids],
                                         resamples=resamples, seed=seed).scaled()
    rows = []
    for index in sorted(per_seed):
        mine = [t for t in ids if index in by_task[t]]
        if mine:
            rows.append({"rename_seed": index, "tasks": len(mine),
                         "rate": sum(by_task[t][index] for t in mine) / len(mine),
                         "decrease": stats.POINTS * sum(original[t] - by_task[t][index] for t in mine) / len(mine)})
    worst = {t: max(((stats.POINTS * (original[t] - r), k) for k, r in by_task[t].items()), key=lambda p: (p[0], -p[1]))
             for t in ids}
    worst_mean = stats.paired_difference([w for w, _ in worst.values()], [0.0] * len(ids), resamples=resamples,
                                         seed=seed)
    return {
        "seeds": sorted(per_seed), "tasks": len(ids), "task_ids": ids,
        "rate": {"mean": rate.mean, "ci_low": rate.ci_low, "ci_high": rate.ci_high},
        "original": sum(original[t] for t in ids) / len(ids),
        "decrease": {"mean": decrease.mean, "ci_low": decrease.ci_low, "ci_high": decrease.ci_high},
        "per_seed": rows,
        "spread": {"rate": _spread([r["rate"] for r in rows]), "decrease": _spread([r["decrease"] for r in rows])},
        "worst_case": {"mean": worst_mean.mean, "ci_low": worst_mean.ci_low, "ci_high": worst_mean.ci_high,
                       "tasks_fell": sum(1 for w, _ in worst.values() if w > 0),
                       "by_task": {t: {"decrease": w, "rename_seed": k} for t, (w, k) in worst.items()}},
    }


def seed_rows(aggregate: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every multi-seed analysis of an aggregate as plain rows (model, grade, scope and the numbers):
    what the summary and reports print, for other sections to cite."""
    rows = []
    for model, entry in aggregate.get("models", {}).items():
        for grade, found in entry.get("grades", {}).items():
            for scope, analysis in (("all", found.get("seeds")), ("covered", (found.get("covered") or {}).get("seeds"))):
                if not analysis:
                    continue
                rows.append({
                    "model": model, "grade": grade, "tasks_scope": scope, "tasks": analysis["tasks"],
                    "seeds": len(analysis["seeds"]), "original_rate": analysis["original"],
                    "renamed_rate": analysis["rate"]["mean"], "renamed_rate_ci": [analysis["rate"]["ci_low"],
                                                                                  analysis["rate"]["ci_high"]],
                    "decrease": analysis["decrease"]["mean"],
                    "decrease_ci": [analysis["decrease"]["ci_low"], analysis["decrease"]["ci_high"]],
                    "per_seed": [dict(r) for r in analysis["per_seed"]],  # rename_seed, tasks, rate, decrease
                    "decrease_min": analysis["spread"]["decrease"]["min"],
                    "decrease_max": analysis["spread"]["decrease"]["max"],
                    "decrease_sd": analysis["spread"]["decrease"]["sd"],
                    "worst_case": analysis["worst_case"]["mean"],
                    "worst_case_ci": [analysis["worst_case"]["ci_low"], analysis["worst_case"]["ci_high"]],
                    "worst_case_tasks_fell": analysis["worst_case"]["tasks_fell"],
                })
    return rows


SEED_HEADER = ["grade", "tasks", "seeds", "random rate, averaged [95% CI]", "decrease, averaged [95% CI]",
               "per renaming r<j>: rate / decrease", "decrease across seeds: min, max, SD", "worst case per task"]

#: What the table's numbers are (the report's caption, the summary's note).
SEED_CAPTION = ("Several renamings per task (--alias-rename-seeds): the random rate and original − random decrease "
                "averaged over seeds, 95% CI from a bootstrap resampling tasks, then seeds within each task; each "
                "seed's rate and decrease (over the tasks it has) and their spread; the worst case is the mean over "
                "tasks of the largest decrease any seed gave the task (95% CI over tasks), with how many tasks fell "
                "under some seed. Rates in percent, decreases in points.")


def _sd(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}"


def seed_table(model_entry: Mapping[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The multi-seed rows of one model's aggregate as a text table (no rows: a one-seed run)."""
    rows = []
    for grade, found in model_entry.get("grades", {}).items():
        for label, analysis in ((grade, found.get("seeds")), (f"{grade} (covered tasks)",
                                                               (found.get("covered") or {}).get("seeds"))):
            if not analysis:
                continue
            rate, decrease, worst = analysis["rate"], analysis["decrease"], analysis["worst_case"]
            spread = analysis["spread"]["decrease"]
            per_seed = ", ".join(f"r{r['rename_seed']} {100 * r['rate']:.1f}% / {r['decrease']:+.1f}"
                                 + (f" (n={r['tasks']})" if r["tasks"] != analysis["tasks"] else "")
                                 for r in analysis["per_seed"])
            rows.append([label, str(analysis["tasks"]), str(len(analysis["seeds"])),
                         f"{100 * rate['mean']:.1f}% [{100 * rate['ci_low']:.1f}, {100 * rate['ci_high']:.1f}]",
                         f"{decrease['mean']:+.1f} [{decrease['ci_low']:.1f}, {decrease['ci_high']:.1f}]",
                         per_seed, f"{spread['min']:+.1f}, {spread['max']:+.1f}, {_sd(spread['sd'])}",
                         f"{worst['mean']:+.1f} [{worst['ci_low']:.1f}, {worst['ci_high']:.1f}], "
                         f"fell on {worst['tasks_fell']} task{'' if worst['tasks_fell'] == 1 else 's'}"])
    return SEED_HEADER, rows
