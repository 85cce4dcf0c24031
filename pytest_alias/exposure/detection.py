"""How well each contamination signal tells seen from unseen tasks: AUROC, interval, and flag counts.

The exposure experiment makes membership *known*: the model trained on half A saw A's tasks and not
B's, and the other way round. For one family, arm and dose, every test task therefore has a score
under the model that saw it (a positive) and one under the model that did not (a negative). The
AUROC of a signal is the chance that a seen score beats an unseen one (:func:`pytest_alias.stats.task_auroc`:
Mann–Whitney, ties one half), pooled over both models so every task is once a positive and once a
negative and a task's intrinsic difficulty cannot separate the groups. The interval resamples tasks
(10,000 times by default). Every row of one signal is on the same tasks (those with all four
values: seen and unseen model, original and renamed condition), so its rows compare directly.

A signal is rated in up to two forms:

* ``value``, per condition: the signal itself (a reference's log-likelihood, Min-K%, …), what a
  membership test reads;
* ``drop``: original − renamed per task, what a CIR test reads (a pass rate's drop is the
  per-task decrease; the mean of the seen drops minus the unseen drops is Table 2's DiD).

Flags. An AUROC needs both groups; a contamination test meets one task at a time and must decide.
Each row therefore also counts the tasks a fixed, label-free rule flags, among the seen tasks (hits)
and among the unseen ones (false alarms):

* a ``drop`` is flagged when it is above 0: the verdict reads a decrease that excludes 0 as a
  decrease, and one task's drop is a single number, so its sign is the decision;
* a ``value`` is flagged when it is above the base model's value on the same reference and condition
  (the model the adapters were trained from, scored alongside them), the usual calibration of a
  membership score against a reference model; without base rows a ``value`` row has no flags.

Every signal is oriented "higher = seen"; perplexity ``exp(-mean)`` ranks tasks exactly in reverse
of the mean log-likelihood, so its AUROC is the log-likelihood's row.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Iterable, Mapping, Sequence

from .. import stats
from .split import ExposureSplit

#: Likelihood-row field → label, each higher for text the model saw.
SIGNALS = {"mean": "Log-likelihood (= perplexity)", "min_k": "Min-K%", "min_k_plus_plus": "Min-K%++",
           "zlib_ratio": "zlib ratio"}
#: The signals computed over the lowest ``min_k_ratio`` share of the tokens.
SHARE_SIGNALS = ("min_k", "min_k_plus_plus")
#: Every signal the detection table rates, in its order: key → (label, where its values come from).
DETECTION_SIGNALS: dict[str, tuple[str, str]] = {
    "name": ("Name-grade pass rate", "grade"),
    "behavior": ("Behavior-grade pass rate", "grade"),
    **{key: (label, "likelihood") for key, label in SIGNALS.items()},
    "continuation": ("File continuation: longest verbatim run (tokens)", "continuation"),
    "agreement": ("Sample agreement (1 − mean pairwise edit distance)", "agreement"),
}
#: Signals rated only by their drop: a grade's per-condition pass rate is the exposure effect itself (Table 2).
DROP_ONLY = ("name", "behavior")
FORMS = ("value", "drop")
DROP_RULE = "drop > 0"
DROP_DIGITS = 12
BASE_RULE = "above base model"

Values = Mapping[tuple[str, str, str], float]  # (model, task, condition) → score
Baseline = Mapping[tuple[str, str], float]  # (task, condition) → the base model's score


@dataclass(frozen=True)
class SignalAuroc:
    """One signal in one form and condition of one family, arm and dose: AUROC of seen versus unseen
    with its 95% CI, and the tasks its flag rule flags among the seen and the unseen ones."""

    signal: str
    condition: str  # "original", the renamed condition, or "original − random" for a drop
    auroc: float
    ci_low: float
    ci_high: float
    n_seen: int
    n_unseen: int
    label: str = ""
    family: str = ""
    arm: str = ""
    min_k_ratio: float | None = None  # the share Min-K% and Min-K%++ averaged (None: not a share signal)
    resamples: int = stats.DEFAULT_RESAMPLES
    tasks: tuple[str, ...] = ()
    dose: str = ""
    kind: str = "likelihood"  # grade, likelihood, continuation or agreement
    form: str = "value"  # value (per condition) or drop (original − renamed)
    rule: str = ""  # the flag rule (DROP_RULE, BASE_RULE), "" when no rule applies
    flagged_seen: int | None = None
    flagged_unseen: int | None = None
    flag_tasks: int | None = None  # the tasks the rule could decide (a base value present)

    @property
    def title(self) -> str:
        """The family, arm and dose, as the tables head their sections."""
        return group_title(self.family, self.arm, self.dose)

    def to_dict(self) -> dict[str, Any]:
        """Plain fields, ready for JSON."""
        return {**asdict(self), "tasks": list(self.tasks)}


def group_title(family: str, arm: str, dose: str = "") -> str:
    """``smollm2 task-pair, strong dose``: how tables name one family, arm and dose."""
    return f"{family} {arm}".strip() + (f", {dose} dose" if dose else "")


def flag_counts(seen: Sequence[float], unseen: Sequence[float], thresholds: Sequence[float | None]
                ) -> tuple[int, int, int]:
    """(seen flagged, unseen flagged, tasks decided): a task's score is flagged when it is strictly
    above the task's threshold; a task without a threshold is not decided."""
    decided = [(s, u, t) for s, u, t in zip(seen, unseen, thresholds) if t is not None]
    return sum(s > t for s, _, t in decided), sum(u > t for _, u, t in decided), len(decided)


def four_cells(values: Values, split: ExposureSplit, slots: Mapping[str, str], renamed: str
               ) -> tuple[list[str], dict[str, tuple[list[float], list[float]]]]:
    """The tasks with a seen and an unseen value in both conditions, and per condition those values
    (seen, unseen), aligned by task; ``slots``: half → the model trained on it."""
    tasks: list[str] = []
    columns: dict[str, tuple[list[float], list[float]]] = {"original": ([], []), renamed: ([], [])}
    for task in sorted(split.test_ids):
        half = split.half_of(task)
        if half is None:
            continue
        seen, unseen = slots[half], slots["B" if half == "A" else "A"]
        keys = [(model, task, condition) for condition in ("original", renamed) for model in (seen, unseen)]
        if all(key in values for key in keys):
            tasks.append(task)
            for condition in ("original", renamed):
                columns[condition][0].append(values[(seen, task, condition)])
                columns[condition][1].append(values[(unseen, task, condition)])
    return tasks, columns


def rate_signal(values: Values, split: ExposureSplit, slots: Mapping[str, str], *, signal: str,
                renamed: str = "random", forms: Iterable[str] = FORMS, baseline: Baseline | None = None,
                family: str = "", arm: str = "", dose: str = "", min_k_ratio: float | None = None,
                resamples: int = stats.DEFAULT_RESAMPLES, seed: int = 0) -> list[SignalAuroc]:
    """The rows of one signal: per condition its ``value`` (unless the signal is drop-only) and its
    ``drop``, each with its AUROC, interval and flag counts (see the module's docstring)."""
    label, kind = DETECTION_SIGNALS.get(signal, (signal, "likelihood"))
    tasks, columns = four_cells(values, split, slots, renamed)
    if not tasks:
        return []
    common: dict[str, Any] = {"label": label, "family": family, "arm": arm, "dose": dose, "kind": kind,
                              "min_k_ratio": min_k_ratio if signal in SHARE_SIGNALS else None,
                              "resamples": resamples, "tasks": tuple(tasks)}
    chosen = [form for form in forms if not (form == "value" and signal in DROP_ONLY)]
    found: list[SignalAuroc] = []
    if "value" in chosen:
        for condition in ("original", renamed):
            seen, unseen = columns[condition]
            limits = [baseline.get((task, condition)) for task in tasks] if baseline else None
            found.append(_row(signal, condition, seen, unseen, limits, BASE_RULE if limits else "", "value",
                              resamples, seed, common))
    if "drop" in chosen:
        (cs, cu), (rs, ru) = columns["original"], columns[renamed]
        # Rounded: 0.6 − 0.4 and 0.4 − 0.2 are one drop, not a tie broken by floating-point noise.
        seen = [round(o - r, DROP_DIGITS) for o, r in zip(cs, rs)]
        unseen = [round(o - r, DROP_DIGITS) for o, r in zip(cu, ru)]
        found.append(_row(signal, f"original − {renamed}", seen, unseen, [0.0] * len(tasks), DROP_RULE, "drop",
                          resamples, seed, common))
    return found


def _row(signal: str, condition: str, seen: list[float], unseen: list[float], limits: list[float | None] | None,
         rule: str, form: str, resamples: int, seed: int, common: Mapping[str, Any]) -> SignalAuroc:
    result = stats.task_auroc(seen, unseen, resamples=resamples, seed=seed)
    counts: tuple[int | None, int | None, int | None] = (None, None, None)
    if limits is not None:
        counts = flag_counts(seen, unseen, limits)
        if counts[2] == 0:  # no task had a threshold (base rows for other tasks): no rule applied
            counts, rule = (None, None, None), ""
    return SignalAuroc(signal, condition, result.auroc, result.ci_low, result.ci_high, result.n_seen,
                       result.n_unseen, form=form, rule=rule, flagged_seen=counts[0], flagged_unseen=counts[1],
                       flag_tasks=counts[2], **common)


def signal_aurocs(values: Mapping[str, Values], split: ExposureSplit, slots: Mapping[str, str], *,
                  renamed: str = "random", family: str = "", arm: str = "", dose: str = "",
                  min_k_ratio: float | None = None, resamples: int = stats.DEFAULT_RESAMPLES,
                  seed: int = 0) -> list[SignalAuroc]:
    """The likelihood signals' ``value`` rows (the membership table): per signal in ``values``
    (field → its values) and per condition the AUROC over the tasks with all four values."""
    found: list[SignalAuroc] = []
    for signal in SIGNALS:
        if signal in values:
            found += rate_signal(values[signal], split, slots, signal=signal, renamed=renamed, forms=("value",),
                                 family=family, arm=arm, dose=dose, min_k_ratio=min_k_ratio, resamples=resamples,
                                 seed=seed)
    return found


def share_of(rows: Iterable[Mapping[str, Any]]) -> float | None:
    """The one Min-K% share the rows were scored with (None if none says); ValueError if several."""
    shares = {float(row["min_k_ratio"]) for row in rows if row.get("min_k_ratio") is not None}
    if len(shares) > 1:
        raise ValueError("likelihood rows scored with different Min-K% shares "
                         f"({', '.join(f'{s:g}' for s in sorted(shares))}); score them all with one --min-k")
    return shares.pop() if shares else None
