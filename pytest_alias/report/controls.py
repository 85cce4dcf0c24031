"""Controls from saved records: known algorithm names (appendix M) and grade disagreements (appendix P).

Both work on plugin records alone (what ``--alias-report run.json`` saves), so ``tla-alias report``
can render them later without re-running a model or a grade.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Iterable, Mapping, Sequence

from .. import stats
from .aggregate import task_rates
from ..records import graded_verdict
from ..vocabulary import BOOTSTRAP_RESAMPLES

# --------------------------------------------------------------------------- appendix M


def marked_tasks(records: Iterable[Mapping[str, Any]], kind: str = "fixed") -> set[str]:
    """Tasks whose renamed description (else the original's) carries a name of list ``kind``."""
    by_task: dict[str, tuple[int, bool]] = {}
    for record in records:
        names = record.get("known_names")
        if not isinstance(names, dict):
            continue
        priority = 0 if record["condition"] == "original" else 1  # the renamed description decides
        if priority >= by_task.get(record["task"], (-1, False))[0]:
            by_task[record["task"]] = (priority, bool(names.get(kind)))
    return {task for task, (_, marked) in by_task.items() if marked}


def known_name_comparison(records: Sequence[Mapping[str, Any]], model: str, grade: str, *, kind: str = "fixed",
                          renamed: str = "random", tasks: Iterable[str] | None = None, resamples: int = BOOTSTRAP_RESAMPLES,
                          seed: int = 0) -> dict[str, Any] | None:
    """Appendix M for one model and grade: original rate and decrease of marked vs other tasks, and a
    permutation test on the difference between the two mean decreases (points); only over ``tasks``
    when given (the paper compares the behavior grade on the covered tasks)."""
    original = task_rates(records, model, grade, "original")
    changed = task_rates(records, model, grade, renamed)
    shared = sorted(set(original) & set(changed) & (set(tasks) if tasks is not None else set(original)))
    if not shared:
        return None
    marked = marked_tasks([r for r in records if r["model"] == model], kind)
    groups = {"marked": [t for t in shared if t in marked], "other": [t for t in shared if t not in marked]}
    out: dict[str, Any] = {"model": model, "grade": grade, "list": kind, "renamed": renamed}
    for name, tasks in groups.items():
        entry: dict[str, Any] = {"n": len(tasks), "tasks": tasks}
        if tasks:
            decrease = stats.paired_difference([original[t] for t in tasks], [changed[t] for t in tasks],
                                               resamples=resamples, seed=seed).scaled()
            entry.update(original=100 * sum(original[t] for t in tasks) / len(tasks), decrease=decrease.to_dict())
        out[name] = entry
    if groups["marked"] and groups["other"]:
        test = stats.permutation_test([100 * (original[t] - changed[t]) for t in groups["marked"]],
                                      [100 * (original[t] - changed[t]) for t in groups["other"]],
                                      resamples=resamples, seed=seed)
        out["permutation"] = test.to_dict()
    return out


# --------------------------------------------------------------------------- appendix P


def disagreements(records: Sequence[Mapping[str, Any]], model: str, *, renamed: str = "random",
                  tasks: Iterable[str] | None = None, resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0,
                  margin: float = 5.0) -> dict[str, Any] | None:
    """Appendix P for one model: samples that pass only the behavior or only the name grade, per
    condition (behavior-only passes with the hidden names their task requires), and the upper bound:
    the decrease when every name-only pass also counts as correct. With ``tasks`` (the covered set:
    the paper's 450 samples per condition are 90 tasks × 5), only their samples count."""
    chosen = set(tasks) if tasks is not None else None
    mine = [r for r in records if r["model"] == model and graded_verdict(r, "name") is not None
            and graded_verdict(r, "behavior") is not None and (chosen is None or r["task"] in chosen)]
    if not mine:
        return None
    out: dict[str, Any] = {"model": model, "conditions": {}, "tasks": len({r["task"] for r in mine}),
                           "restricted": chosen is not None}
    for condition in sorted({r["condition"] for r in mine}):
        rows = [r for r in mine if r["condition"] == condition]
        behavior_only = [r for r in rows if graded_verdict(r, "behavior") and not graded_verdict(r, "name")]
        name_only = [r for r in rows if graded_verdict(r, "name") and not graded_verdict(r, "behavior")]
        out["conditions"][condition] = {
            "samples": len(rows),
            "both": sum(bool(graded_verdict(r, "name") and graded_verdict(r, "behavior")) for r in rows),
            "behavior_only": len(behavior_only), "name_only": len(name_only),
            "behavior_only_hidden_name": sum(bool(r.get("has_hidden_names")) for r in behavior_only),
            "behavior_only_items": [{"task": r["task"], "sample": r["sample"],
                                     "hidden_names": list(r.get("hidden_names") or ()),
                                     "name_reason": (r["grades"]["name"] or {}).get("reason")} for r in behavior_only],
            "name_only_items": [{"task": r["task"], "sample": r["sample"],
                                 "behavior_reason": (r["grades"]["behavior"] or {}).get("reason")} for r in name_only],
        }
    lenient: dict[str, dict[str, list[bool]]] = {"original": defaultdict(list), renamed: defaultdict(list)}
    for record in mine:
        if record["condition"] in lenient:
            # The upper bound credits every name-only pass: correct if either grade passes.
            either = graded_verdict(record, "name") or graded_verdict(record, "behavior")
            lenient[record["condition"]][record["task"]].append(bool(either))
    shared = sorted(set(lenient["original"]) & set(lenient[renamed]))
    if shared:
        a = [sum(lenient["original"][t]) / len(lenient["original"][t]) for t in shared]
        b = [sum(lenient[renamed][t]) / len(lenient[renamed][t]) for t in shared]
        out["upper_bound"] = {
            "decrease": stats.paired_difference(a, b, resamples=resamples, seed=seed).scaled().to_dict(),
            "equivalence": stats.equivalence(a, b, margin / 100, resamples=resamples, seed=seed).scaled().to_dict(),
            "original": 100 * sum(a) / len(a), "renamed": 100 * sum(b) / len(b), "n": len(shared)}
    return out
