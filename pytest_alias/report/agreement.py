"""Sample agreement: how alike a model's samples for one task and condition are, from the outputs a
run already generated (no new requests).

For each model, task and condition with at least two answered samples: the mean normalised edit
distance over every pair of samples (Levenshtein distance over characters divided by the longer
text's length: 0 for identical texts, 1 for texts with nothing in common) and the share of outputs
identical to at least one other sample. A model that reproduces a memorised specification tends to
give the same text every time on the original task and to drift apart after renaming; the numbers
sit beside each task's decrease so a reader can look for that pattern.

Caveat: agreement is weak evidence. A model sampled at a low temperature agrees with itself whatever
it learned from, and a small model's samples disagree (or collapse into the same degenerate text)
for reasons unrelated to memorisation, so on small models the numbers say little. No published
threshold separates memorised from reasoned outputs.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import combinations
from typing import Any, Iterable, Mapping, Sequence

from rapidfuzz.distance import Levenshtein

from .aggregate import CONDITIONS, task_rates

def caption(found: Mapping[str, Any]) -> str:
    """What an agreement table's numbers are, with the caveat."""
    return ("Per task: the decrease after renaming, then per condition the mean normalised edit distance over pairs "
            "of samples (0 = identical texts) / the share of outputs identical to another sample, from the run's "
            f"outputs (no new requests). Caveat: {found.get('caveat', CAVEAT)}.")


CAVEAT = ("sample agreement is weak evidence: low-temperature sampling agrees with itself whatever the model "
          "learned from, and small models' samples differ (or repeat one degenerate text) for reasons unrelated "
          "to memorisation")


def edit_distance(a: str, b: str) -> int:
    """The Levenshtein distance (insertions, deletions, substitutions of one character each), from
    rapidfuzz (bit-parallel, in C++: milliseconds for a pair of specifications)."""
    return int(Levenshtein.distance(a, b))


def normalised_edit_distance(a: str, b: str) -> float:
    """The edit distance divided by the longer text's length (0.0 for two empty texts)."""
    longest = max(len(a), len(b))
    return edit_distance(a, b) / longest if longest else 0.0


def sample_agreement(texts: Sequence[str]) -> dict[str, Any] | None:
    """Agreement among one task's and condition's samples, or None for fewer than two."""
    if len(texts) < 2:
        return None
    distances = [normalised_edit_distance(a, b) for a, b in combinations(texts, 2)]
    counts: dict[str, int] = defaultdict(int)
    for text in texts:
        counts[text] += 1
    repeated = sum(n for n in counts.values() if n > 1)
    return {"samples": len(texts), "pairs": len(distances), "mean_distance": sum(distances) / len(distances),
            "identical": repeated / len(texts)}


def _ordered(conditions: Iterable[str]) -> list[str]:
    """The conditions in the reports' order (original first)."""
    present = set(conditions)
    return [c for c in CONDITIONS if c in present] + sorted(present - set(CONDITIONS))


def agreement(outputs: Iterable[tuple[str, str, str, str]]) -> dict[str, Any]:
    """Per model: each task's agreement per condition, and per condition the mean over tasks.

    ``outputs`` are ``(model, task, condition, text)`` of the answered samples (model errors left out).
    """
    grouped: dict[str, dict[str, dict[str, list[str]]]] = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    for model, task, condition, text in outputs:
        grouped[model][task][condition].append(text)
    models: dict[str, Any] = {}
    for model, tasks in sorted(grouped.items()):
        per_task: dict[str, dict[str, Any]] = {}
        for task, conditions in sorted(tasks.items()):
            found = {condition: sample_agreement(conditions[condition]) for condition in _ordered(conditions)}
            kept = {condition: value for condition, value in found.items() if value is not None}
            if kept:
                per_task[task] = {"conditions": kept}
        means: dict[str, Any] = {}
        for condition in _ordered({c for found in per_task.values() for c in found["conditions"]}):
            values = [found["conditions"][condition] for found in per_task.values() if condition in found["conditions"]]
            means[condition] = {"tasks": len(values),
                                "mean_distance": sum(v["mean_distance"] for v in values) / len(values),
                                "identical": sum(v["identical"] for v in values) / len(values)}
        if per_task:
            models[model] = {"conditions": means, "tasks": per_task}
    return {"caveat": CAVEAT, "models": models}


def generation_outputs(generations: Mapping[tuple[str, str, int, str], Any]) -> list[tuple[str, str, str, str]]:
    """``(model, task, condition, text)`` of each answered generation of a run (keys as ``Case.key``)."""
    return [(model, task, condition, generation.text)
            for (task, condition, _, model), generation in sorted(generations.items(), key=lambda item: item[0])
            if getattr(generation, "error", None) is None]


def _cell(found: Mapping[str, Any] | None) -> str:
    if not found:
        return "–"
    return f"{found['mean_distance']:.3f} / {100 * found['identical']:.0f}%"


def add_decreases(found: dict[str, Any], records: Sequence[Mapping[str, Any]], grade: str) -> dict[str, Any]:
    """``found`` with each task's decrease under ``grade`` (original − each renamed condition, in
    points, from the records' task rates) beside its agreement; returns ``found``."""
    found["grade"] = grade
    for model, entry in found["models"].items():
        rates = {c: task_rates(records, model, grade, c) for c in entry["conditions"]}
        for task, per_task in entry["tasks"].items():
            before = rates.get("original", {}).get(task)
            per_task["decrease"] = {
                renamed: None if before is None or rates[renamed].get(task) is None
                else 100 * (before - rates[renamed][task]) for renamed in rates if renamed != "original"}
    return found


def agreement_rows(found: Mapping[str, Any], model: str) -> tuple[list[str], list[list[str]]]:
    """One row per task: its decrease (points, when ``add_decreases`` gave them) and its agreement per
    condition (mean normalised edit distance / identical outputs)."""
    entry = (found.get("models") or {}).get(model)
    if not entry:
        return [], []
    conditions = list(entry["conditions"])
    renamed = [c for c in conditions if c != "original"] if "grade" in found else []
    header = ["task", *(f"{found['grade']} decrease vs {c} (points)" for c in renamed),
              *(f"{c}: distance / identical" for c in conditions)]
    rows = []
    for task, per_task in entry["tasks"].items():
        decreases = [(per_task.get("decrease") or {}).get(c) for c in renamed]
        rows.append([task, *("–" if d is None else f"{d:+.1f}" for d in decreases),
                     *(_cell(per_task["conditions"].get(c)) for c in conditions)])
    return header, rows


def agreement_lines(found: Mapping[str, Any] | None, model: str) -> list[str]:
    """The summary's line for ``model``: per condition the mean over tasks, and the caveat."""
    entry = ((found or {}).get("models") or {}).get(model)
    if not entry:
        return []
    parts = [f"{condition} {value['mean_distance']:.3f} / {100 * value['identical']:.0f}% (n={value['tasks']} tasks)"
             for condition, value in entry["conditions"].items()]
    return [f"sample agreement (mean pairwise normalised edit distance / identical outputs, mean over tasks): "
            f"{'; '.join(parts)}", f"  caveat: {(found or {}).get('caveat', CAVEAT)}"]
