"""How well each likelihood signal tells seen from unseen tasks: AUROC with a task bootstrap.

The exposure experiment makes membership *known*: the model trained on half A saw A's tasks and not
B's, and the other way round. For one family and arm, every test task therefore has a score under
the model that saw it (a positive) and one under the model that did not (a negative). The AUROC of a
signal is the chance that a seen score beats an unseen one (:func:`pytest_alias.stats.task_auroc`:
Mann–Whitney, ties one half), pooled over both models so every task is once a positive and once a
negative and a task's intrinsic difficulty cannot separate the groups. The interval resamples tasks
(10,000 times by default); the original and the renamed condition are rated on the same tasks (those
with all four values), so the two AUROCs compare directly.

Every signal is oriented "higher = seen"; perplexity ``exp(-mean)`` ranks tasks exactly in reverse
of the mean log-likelihood, so its AUROC is the log-likelihood's row.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Iterable, Mapping

from .. import stats
from .split import ExposureSplit

#: Likelihood-row field → label, each higher for text the model saw.
SIGNALS = {"mean": "Log-likelihood (= perplexity)", "min_k": "Min-K%", "min_k_plus_plus": "Min-K%++",
           "zlib_ratio": "zlib ratio"}
#: The signals computed over the lowest ``min_k_ratio`` share of the tokens.
SHARE_SIGNALS = ("min_k", "min_k_plus_plus")

Values = Mapping[tuple[str, str, str], float]  # (model, task, condition) → score


@dataclass(frozen=True)
class SignalAuroc:
    """One signal in one condition of one family and arm: AUROC of seen versus unseen, 95% CI."""

    signal: str
    condition: str
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

    @property
    def title(self) -> str:
        """The family and arm, as the tables head their sections."""
        return f"{self.family} {self.arm}".strip()

    def to_dict(self) -> dict[str, Any]:
        """Plain fields, ready for JSON."""
        return {**asdict(self), "tasks": list(self.tasks)}


def signal_aurocs(values: Mapping[str, Values], split: ExposureSplit, slots: Mapping[str, str], *,
                  renamed: str = "random", family: str = "", arm: str = "", min_k_ratio: float | None = None,
                  resamples: int = stats.DEFAULT_RESAMPLES, seed: int = 0) -> list[SignalAuroc]:
    """Per signal in ``values`` (field → its values) and per condition (original, ``renamed``) the
    AUROC over the tasks with all four values; ``slots``: half → the model trained on it."""
    found: list[SignalAuroc] = []
    for signal, label in SIGNALS.items():
        if signal not in values:
            continue
        tasks, columns = _four_cells(values[signal], split, slots, renamed)
        if not tasks:
            continue
        for condition in ("original", renamed):
            seen, unseen = columns[condition]
            result = stats.task_auroc(seen, unseen, resamples=resamples, seed=seed)
            found.append(SignalAuroc(signal, condition, result.auroc, result.ci_low, result.ci_high,
                                     result.n_seen, result.n_unseen, label, family, arm,
                                     min_k_ratio if signal in SHARE_SIGNALS else None, resamples, tuple(tasks)))
    return found


def _four_cells(values: Values, split: ExposureSplit, slots: Mapping[str, str], renamed: str
                ) -> tuple[list[str], dict[str, tuple[list[float], list[float]]]]:
    """The tasks with a seen and an unseen value in both conditions, and per condition those values."""
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


def share_of(rows: Iterable[Mapping[str, Any]]) -> float | None:
    """The one Min-K% share the rows were scored with (None if none says); ValueError if several."""
    shares = {float(row["min_k_ratio"]) for row in rows if row.get("min_k_ratio") is not None}
    if len(shares) > 1:
        raise ValueError("likelihood rows scored with different Min-K% shares "
                         f"({', '.join(f'{s:g}' for s in sorted(shares))}); score them all with one --min-k")
    return shares.pop() if shares else None
