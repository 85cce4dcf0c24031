"""Records → the aggregate: pass rates per grade and condition, decreases with CIs, sign tests, splits.

The unit of analysis is the task (the paper's "Metrics" paragraph): a task's rate in a condition is
the fraction of its samples that pass; a rate over tasks is the mean of task rates; a decrease is
the mean paired difference original − renamed over the tasks graded in both, with a 10,000-resample
bootstrap CI over tasks and a two-sided sign test over the tasks whose rates differ. Decreases are
in percentage points, rates in fractions. The split by hidden names uses the original condition.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from .. import stats
from ..vocabulary import BOOTSTRAP_RESAMPLES, CONDITIONS, GRADES
from ..records import Aggregate, Decrease, GradeAggregate, ModelAggregate, Rate
from ..records import graded_verdict
from .meaningful import meaningful_comparison
from .seeds import record_seed, seed_analysis, seed_indices

AGGREGATE_SCHEMA = 1
GRADE_ORDER = GRADES


def task_rates(records: Iterable[Mapping[str, Any]], model: str, grade: str, condition: str, *,
               paper_rule: bool = False) -> dict[str, float]:
    """Task → fraction of its samples that pass ``grade`` in ``condition`` (only tasks with samples).

    A grade the task cannot take (no cfg) is left out, unless ``paper_rule``: the paper counts such
    a task as failing every output (its n = 111 rather than 110).
    """
    # Keyed by renaming seed too: with several renamings (--alias-rename-seeds) a task's rate is the
    # mean of its seeds' rates, so a seed with fewer verdicts weighs no less; one seed: as before.
    outcomes: dict[tuple[str, int], list[bool]] = defaultdict(list)
    for record in records:
        if record["model"] != model or record["condition"] != condition or grade not in record["grades"]:
            continue
        key = (record["task"], record_seed(record))
        if record["grades"][grade].get("not_applicable"):
            if paper_rule:
                outcomes[key].append(False)
            continue
        verdict = graded_verdict(record, grade)
        if verdict is not None:  # a model, reference or grader error is no verdict: left out
            outcomes[key].append(verdict)
    by_task: dict[str, list[float]] = defaultdict(list)
    for (task, _), values in sorted(outcomes.items()):
        by_task[task].append(stats.pass_rate(values))
    return {task: sum(rates) / len(rates) for task, rates in sorted(by_task.items())}


def not_graded(records: Iterable[Mapping[str, Any]], grade: str, condition: str) -> int:
    """Samples of ``condition`` whose ``grade`` gave no verdict on the output (model, reference or
    grader error): left out of every rate, and counted so a reader sees how many."""
    return sum(1 for record in records
               if record["condition"] == condition and grade in record["grades"]
               and not record["grades"][grade].get("not_applicable")
               and not record["grades"][grade].get("not_gradeable") and graded_verdict(record, grade) is None)


def not_gradeable_tasks(records: Iterable[Mapping[str, Any]], grade: str) -> dict[str, int]:
    """Task → samples skipped because the task's reference fails ``grade`` against itself."""
    counts: dict[str, int] = defaultdict(int)
    for record in records:
        if (record["grades"].get(grade) or {}).get("not_gradeable"):
            counts[record["task"]] += 1
    return dict(sorted(counts.items()))


def rate_of(task_rates: Mapping[str, float]) -> Rate:
    """The mean of task rates, with how many and which tasks it averages (the run's JSON names them)."""
    return {"mean": sum(task_rates.values()) / len(task_rates) if task_rates else None, "tasks": len(task_rates),
            "task_ids": sorted(task_rates)}


def paired_decrease(original: dict[str, float], renamed: dict[str, float], tasks: Iterable[str] | None,
              resamples: int, seed: int, margin: float = 0.05) -> Decrease | None:
    """Original − renamed over the shared tasks: mean and 95% CI (points), the 90% CI and TOST
    against ±``margin`` (appendix P/R's equivalence test), task counts and the sign test."""
    shared = sorted(set(original) & set(renamed) & (set(tasks) if tasks is not None else set(original)))
    if not shared:
        return None
    a = [original[t] for t in shared]
    b = [renamed[t] for t in shared]
    difference = stats.paired_difference(a, b, resamples=resamples, seed=seed).scaled()
    tost = stats.equivalence(a, b, margin, resamples=resamples, seed=seed).scaled()
    sign = stats.sign_test(a, b)
    return {
        "mean": difference.mean, "ci_low": difference.ci_low, "ci_high": difference.ci_high, "n": len(shared),
        "ci90_low": tost.ci_low, "ci90_high": tost.ci_high, "margin": tost.margin, "equivalent": tost.equivalent,
        "now_fail": difference.higher, "now_pass": difference.lower, "sign_p": sign.p_value,
        "original": 100 * sum(a) / len(a), "renamed": 100 * sum(b) / len(b), "task_ids": shared,
    }


def lenient_parse_rates(records: Iterable[dict[str, Any]], model: str, condition: str) -> dict[str, float]:
    """Task → fraction of samples whose SANY run exited 0 (the lenient verdict the paper reports
    beside the strict one; an output that never reached SANY counts as failing)."""
    outcomes: dict[str, list[bool]] = defaultdict(list)
    for record in records:
        result = record["grades"].get("parse")
        if (record["model"] == model and record["condition"] == condition and result is not None
                and graded_verdict(record, "parse") is not None):
            outcomes[record["task"]].append(bool((result.get("details") or {}).get("lenient_ok")))
    return {task: stats.pass_rate(values) for task, values in sorted(outcomes.items())}


@dataclass(frozen=True)
class _Reading:
    """What every step of one aggregate shares: the bootstrap settings and the covered tasks."""

    resamples: int
    seed: int
    margin: float
    covered: frozenset[str] | None

    def decrease(self, original: dict[str, float], renamed: dict[str, float],
                 tasks: Iterable[str] | None) -> Decrease | None:
        return paired_decrease(original, renamed, tasks, self.resamples, self.seed, self.margin)


def aggregate(records: list[dict[str, Any]], *, resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0,
              margin: float = 0.05, covered: Iterable[str] | None = None) -> Aggregate:
    """The whole aggregate (JSON-ready) of a run's records; with ``covered`` (the tasks the behavior
    grade covers), the name and behavior grades also get their rates and decreases on those tasks."""
    reading = _Reading(resamples, seed, margin, frozenset(covered) if covered is not None else None)
    out: Aggregate = {"schema": AGGREGATE_SCHEMA, "seed": seed, "resamples": resamples, "margin": margin,
                      "records": len(records), "models": {}}
    for model in sorted({r["model"] for r in records}):
        out["models"][model] = _model_aggregate([r for r in records if r["model"] == model], model, reading)
    return out


def _model_aggregate(mine: list[dict[str, Any]], model: str, reading: _Reading) -> ModelAggregate:
    """One model's grades (each through :func:`_grade_aggregate`), similarity and task counts."""
    grades = [g for g in GRADE_ORDER if any(g in r["grades"] for r in mine)]
    conditions = [c for c in CONDITIONS if any(r["condition"] == c for r in mine)]
    # A record without the field (hand-made, older) joins neither side of the split.
    hidden = {r["task"] for r in mine if r["condition"] == "original" and r.get("has_hidden_names") is True}
    stated = {r["task"] for r in mine if r["condition"] == "original" and r.get("has_hidden_names") is False}
    per_grade = {grade: _grade_aggregate(mine, model, grade, conditions, (hidden, stated), reading)
                 for grade in grades}
    return {"grades": per_grade, "similarity": _similarity_means(mine, conditions),
            "tasks": len({r["task"] for r in mine}),
            "hidden_name_tasks": len(hidden), "every_name_stated_tasks": len(stated)}


def _grade_aggregate(mine: list[dict[str, Any]], model: str, grade: str, conditions: list[str],
                     split: tuple[set[str], set[str]], reading: _Reading) -> GradeAggregate:
    """One grade of one model; the steps below add their keys in the order the JSON has always had."""
    rates = {c: task_rates(mine, model, grade, c) for c in conditions}
    entry: GradeAggregate = {"rates": {c: rate_of(r) for c, r in rates.items()}, "decreases": {}, "split": {}}
    _add_left_out(entry, mine, grade, conditions)
    _add_other_rules(entry, mine, model, grade, conditions)
    for renamed in _renamed_pairs(rates):
        entry["decreases"][renamed] = reading.decrease(rates["original"], rates[renamed], None)
        entry["split"][renamed] = {part: reading.decrease(rates["original"], rates[renamed], tasks)
                                   for part, tasks in _split_parts(split)}
    if reading.covered is not None and grade in ("name", "behavior"):
        entry["covered"] = _covered_entry(rates, split, reading.covered, reading)
    _add_seeds(entry, mine, model, grade, rates, reading)
    if "random" in rates and "meaningful" in rates:
        _add_meaningful(entry, grade, rates, reading)
    return entry


def _renamed_pairs(rates: Mapping[str, Any]) -> list[str]:
    """The renamed conditions that a decrease compares with the original (both must be graded)."""
    return [renamed for renamed in ("random", "meaningful") if "original" in rates and renamed in rates]


def _split_parts(split: tuple[set[str], set[str]]) -> tuple[tuple[str, set[str]], ...]:
    hidden, stated = split
    return ("hidden_names", hidden), ("every_name_stated", stated)


def _add_left_out(entry: GradeAggregate, mine: list[dict[str, Any]], grade: str, conditions: list[str]) -> None:
    """How many samples gave no verdict, and which tasks the grade cannot judge (zeros left out)."""
    skipped = {c: not_graded(mine, grade, c) for c in conditions}
    if any(skipped.values()):
        entry["not_graded"] = {c: n for c, n in skipped.items() if n}
    unjudged = not_gradeable_tasks(mine, grade)
    if unjudged:
        entry["not_gradeable"] = unjudged


def _add_other_rules(entry: GradeAggregate, mine: list[dict[str, Any]], model: str, grade: str,
                     conditions: list[str]) -> None:
    """The rates under the paper's no-cfg rule and SANY's lenient verdict, where they differ in kind."""
    if any((r["grades"].get(grade) or {}).get("not_applicable") for r in mine):
        paper = {c: task_rates(mine, model, grade, c, paper_rule=True) for c in conditions}
        entry["paper_rule_rates"] = {c: rate_of(r) for c, r in paper.items()}
    if grade == "parse":
        lenient = {c: lenient_parse_rates(mine, model, c) for c in conditions}
        entry["lenient_rates"] = {c: rate_of(r) for c, r in lenient.items()}


def _covered_entry(rates: dict[str, dict[str, float]], split: tuple[set[str], set[str]], covered: frozenset[str],
                   reading: _Reading) -> dict[str, Any]:
    """Rates and decreases on the tasks the behavior grade covers, and appendix U's split of them."""
    kept = {c: {t: v for t, v in r.items() if t in covered} for c, r in rates.items()}
    pairs = _renamed_pairs(rates)
    return {
        "tasks": len(covered),
        "rates": {c: rate_of(r) for c, r in kept.items()},
        "decreases": {renamed: reading.decrease(rates["original"], rates[renamed], covered) for renamed in pairs},
        # Appendix U: the covered tasks with a hidden required name and those stating every one.
        "split": {renamed: {part: reading.decrease(rates["original"], rates[renamed], covered & tasks)
                            for part, tasks in _split_parts(split)}
                  for renamed in pairs}}


def _add_seeds(entry: GradeAggregate, mine: list[dict[str, Any]], model: str, grade: str,
               rates: dict[str, dict[str, float]], reading: _Reading) -> None:
    """Several renamings per task: each seed's random-condition rates read on their own."""
    renamings = seed_indices(mine)
    if len(renamings) <= 1 or "original" not in rates:
        return
    per_seed = {k: task_rates([r for r in mine if record_seed(r) == k], model, grade, "random") for k in renamings}
    found_seeds = seed_analysis(rates["original"], per_seed, resamples=reading.resamples, seed=reading.seed)
    if found_seeds is not None:
        entry["seeds"] = found_seeds
    if "covered" in entry:
        entry["covered"]["seeds"] = seed_analysis(rates["original"], per_seed, reading.covered,
                                                  resamples=reading.resamples, seed=reading.seed)


def _add_meaningful(entry: GradeAggregate, grade: str, rates: dict[str, dict[str, float]], reading: _Reading) -> None:
    """Random against meaningful names: their equivalence test and appendix R in full."""
    shared = sorted(set(rates["random"]) & set(rates["meaningful"]))
    if shared:
        tost = stats.equivalence([rates["random"][t] for t in shared], [rates["meaningful"][t] for t in shared],
                                 reading.margin, resamples=reading.resamples, seed=reading.seed)
        entry["equivalence_random_meaningful"] = tost.scaled().to_dict()  # points, like every decrease
    # Appendix R in full: every rate on the meaningful-valid tasks (and those also covered).
    found = meaningful_comparison(rates, None, resamples=reading.resamples, seed=reading.seed, margin=reading.margin)
    if found is not None:
        entry["meaningful"] = found
    if reading.covered is not None and grade in ("name", "behavior"):
        found = meaningful_comparison(rates, reading.covered, resamples=reading.resamples, seed=reading.seed,
                                      margin=reading.margin)
        if found is not None:
            entry["meaningful_covered"] = found


def _similarity_means(records: list[dict[str, Any]], conditions: list[str]) -> dict[str, Any]:
    """Mean BLEU-4 and ROUGE-L per condition, averaged over samples and then tasks (Table V.1)."""
    out: dict[str, Any] = {}
    for condition in conditions:
        per_task: dict[str, list[tuple[float, float]]] = defaultdict(list)
        for record in records:
            sim = record.get("similarity")
            if record["condition"] == condition and sim:
                per_task[record["task"]].append((sim["bleu4"], sim["rouge_l"]))
        if per_task:
            bleu = [sum(s[0] for s in v) / len(v) for v in per_task.values()]
            rouge = [sum(s[1] for s in v) / len(v) for v in per_task.values()]
            out[condition] = {"bleu4": sum(bleu) / len(bleu), "rouge_l": sum(rouge) / len(rouge)}
    return out
