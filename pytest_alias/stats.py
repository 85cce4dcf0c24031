"""Pure, seeded statistics for ALIAS (paper Section 3 "Metrics" and "Analysis").

The unit of analysis is the task.  Every function takes per-task values that
are *aligned by task* (index ``i`` of every argument is the same task) and
returns a small frozen dataclass with a ``to_dict`` for reports.

* :func:`pass_rate` and :func:`pass_at_k` turn a task's sample outcomes into a
  rate (the pass rate over five samples estimates pass@1, Chen et al. 2021).
* :func:`paired_difference` gives the mean of ``a - b`` over tasks with a
  percentile bootstrap interval from resampling tasks (10,000 resamples).
* :func:`sign_test` is the two-sided exact sign test over the tasks that differ.
* :func:`equivalence` is TOST read off the 90% bootstrap interval (margin 5
  points, Appendix R).
* :func:`difference_in_differences` is the paper's DiD with the renaming cost
  on unseen tasks and the exposure effect in each condition (Table 2).
* :func:`permutation_test` and :func:`spearman` back Appendices L and M.
* :func:`auroc` (Mann–Whitney: the chance a positive outscores a negative,
  ties counting one half) and :func:`task_auroc` (seen versus unseen scores
  aligned by task, with a bootstrap over tasks) rate membership signals.
* :func:`two_level_bootstrap` gives a mean over tasks of per-task means over
  renaming seeds with an interval from resampling tasks, then seeds within
  each drawn task (several renamings per task, beyond the paper).

Units: rates are fractions in ``[0, 1]`` and every difference, interval and
margin here is in the same units.  Reports multiply by :data:`POINTS` (100) to
print percentage points (``scaled(POINTS)`` on a result does it).  Log-likelihood
inputs are used as they are.

Nothing here prints, reads files or touches global random state: all
randomness comes from ``numpy.random.default_rng(seed)``, so the same seed
gives identical intervals.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .vocabulary import BOOTSTRAP_RESAMPLES, MAX_RESAMPLES

__all__ = [
    "POINTS",
    "Auroc",
    "auroc",
    "task_auroc",
    "DifferenceInDifferences",
    "Equivalence",
    "PairedDifference",
    "PermutationTest",
    "SignTest",
    "Spearman",
    "difference_in_differences",
    "equivalence",
    "paired_difference",
    "pass_at_k",
    "pass_rate",
    "permutation_test",
    "sign_test",
    "spearman",
    "TwoLevelMean",
    "two_level_bootstrap",
]


def _scipy_stats() -> Any:
    """``scipy.stats``, imported on first use: importing it takes 1-2 s, and every process of a run
    imports this module (through the run's configuration) while only the summary's tests use it."""
    from scipy import stats  # heavy: see above

    return stats


#: Factor that turns a fraction (rate or rate difference) into percentage points.
POINTS = 100.0

DEFAULT_RESAMPLES = BOOTSTRAP_RESAMPLES

Outcome = bool | int | float


# --- validation --------------------------------------------------------------


def _vector(values: ArrayLike, name: str) -> np.ndarray:
    """Return *values* as a finite 1-D float array, or raise a clear ValueError."""
    try:
        arr = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a sequence of numbers: {exc}") from None
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one value per task (1-D), got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} is empty: need at least one task")
    bad = ~np.isfinite(arr)
    if bad.any():
        where = int(np.flatnonzero(bad)[0])
        kind = "NaN" if math.isnan(arr[where]) else "an infinite value"
        raise ValueError(f"{name} contains {kind} at index {where}; drop or fix that task first")
    return arr


def _aligned(**named: ArrayLike) -> list[np.ndarray]:
    """Validate several per-task vectors and insist they have the same length."""
    arrays = [_vector(v, k) for k, v in named.items()]
    lengths = {k: a.size for k, a in zip(named, arrays)}
    if len(set(lengths.values())) > 1:
        shown = ", ".join(f"{k}={n}" for k, n in lengths.items())
        raise ValueError(f"inputs must be aligned by task (same length), got {shown}")
    return arrays


def _check_resamples(resamples: int) -> int:
    if isinstance(resamples, bool) or not isinstance(resamples, (int, np.integer)) or resamples < 1:
        raise ValueError(f"resamples must be a positive integer, got {resamples!r}")
    if resamples > MAX_RESAMPLES:  # a run file's or caller's count: time and memory grow with it
        raise ValueError(f"resamples must be at most {MAX_RESAMPLES:,} (the limit), got {int(resamples):,}")
    return int(resamples)


def _check_seed(seed: int) -> int:
    # None would draw OS entropy and break the same-seed-same-interval rule.
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    return int(seed)


def _check_confidence(confidence: float) -> float:
    if not (isinstance(confidence, (int, float)) and 0.0 < float(confidence) < 1.0):
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence!r}")
    return float(confidence)


def _tolerance(values: np.ndarray) -> float:
    # Permuted statistics that equal the observed one in exact arithmetic can
    # differ from it by rounding; count them as "as extreme" all the same.
    return 1e-10 * max(1.0, float(np.max(np.abs(values))))


# --- pass rates --------------------------------------------------------------


def pass_rate(outcomes: Sequence[Outcome] | np.ndarray) -> float:
    """Fraction of a task's samples that pass: the pass@1 estimate for that task.

    *outcomes* holds one value per sample, each a bool or a number in ``[0, 1]``.
    """
    arr = _vector(outcomes, "outcomes")
    if ((arr < 0) | (arr > 1)).any():
        raise ValueError("outcomes must be booleans or numbers in [0, 1]")
    return float(arr.mean())


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k from *n* samples of which *c* pass (Chen et al. 2021).

    Computes ``1 - C(n-c, k) / C(n, k)`` as a product of ratios so that large
    *n* neither overflows nor loses precision.
    """
    for name, value in (("n", n), ("c", c), ("k", k)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise ValueError(f"{name} must be an integer, got {value!r}")
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    if not 0 <= c <= n:
        raise ValueError(f"c must lie in [0, n={n}], got {c}")
    if not 1 <= k <= n:
        raise ValueError(f"k must lie in [1, n={n}], got {k}")
    if n - c < k:
        # Every k-subset must contain a passing sample.
        return 1.0
    # C(n-c, k)/C(n, k) = prod_{i=n-c+1}^{n} (1 - k/i)
    i = np.arange(n - c + 1, n + 1, dtype=float)
    return float(1.0 - np.prod(1.0 - k / i))


# --- bootstrap core ----------------------------------------------------------


def _bootstrap_means(values: np.ndarray, resamples: int, seed: int) -> np.ndarray:
    """Means of *values* over ``resamples`` resamples of tasks with replacement."""
    rng = np.random.default_rng(seed)
    # One (resamples x n) index matrix: the same seed and n give the same task
    # resamples for every quantity, so related intervals stay consistent.
    idx = rng.integers(0, values.size, size=(resamples, values.size))
    return values[idx].mean(axis=1)


def _percentile_interval(boot: np.ndarray, confidence: float) -> tuple[float, float]:
    alpha = 1.0 - confidence
    low, high = np.percentile(boot, [100.0 * alpha / 2.0, 100.0 * (1.0 - alpha / 2.0)])
    return float(low), float(high)


# --- paired difference -------------------------------------------------------


@dataclass(frozen=True)
class PairedDifference:
    """Mean over tasks of ``a - b`` with a bootstrap interval.

    ``higher``/``lower`` count tasks with ``a > b``/``a < b``; the rest are ties.
    """

    mean: float
    ci_low: float
    ci_high: float
    n: int
    higher: int
    lower: int
    confidence: float = 0.95

    @property
    def ties(self) -> int:
        """Number of tasks where ``a == b``."""
        return self.n - self.higher - self.lower

    def scaled(self, factor: float = POINTS) -> PairedDifference:
        """The same result with mean and interval multiplied (e.g. into points)."""
        return replace(
            self, mean=self.mean * factor, ci_low=self.ci_low * factor, ci_high=self.ci_high * factor
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python fields, ready for JSON."""
        return asdict(self)


def _paired(d: np.ndarray, resamples: int, seed: int, confidence: float) -> PairedDifference:
    boot = _bootstrap_means(d, resamples, seed)
    low, high = _percentile_interval(boot, confidence)
    return PairedDifference(
        mean=float(d.mean()),
        ci_low=low,
        ci_high=high,
        n=int(d.size),
        higher=int((d > 0).sum()),
        lower=int((d < 0).sum()),
        confidence=confidence,
    )


def paired_difference(
    a: ArrayLike,
    b: ArrayLike,
    *,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
    confidence: float = 0.95,
) -> PairedDifference:
    """Mean of ``a - b`` over tasks with a percentile bootstrap CI over tasks.

    *a* and *b* hold one value per task (pass rates or log-likelihoods),
    aligned by task.  The interval comes from *resamples* resamples of the
    tasks with replacement drawn from ``numpy.random.default_rng(seed)``.
    """
    a_arr, b_arr = _aligned(a=a, b=b)
    return _paired(
        a_arr - b_arr, _check_resamples(resamples), _check_seed(seed), _check_confidence(confidence)
    )


# --- two-level bootstrap (tasks, then seeds) ---------------------------------


@dataclass(frozen=True)
class TwoLevelMean:
    """Mean over tasks of each task's mean over its seeds, with a two-level bootstrap interval."""

    mean: float
    ci_low: float
    ci_high: float
    tasks: int
    seeds: int  # the most seeds any task has
    confidence: float = 0.95

    def scaled(self, factor: float = POINTS) -> TwoLevelMean:
        """The same result with mean and interval multiplied (e.g. into points)."""
        return replace(self, mean=self.mean * factor, ci_low=self.ci_low * factor, ci_high=self.ci_high * factor)

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python fields, ready for JSON."""
        return asdict(self)


#: Seed draws held in memory at once by :func:`two_level_bootstrap` (part of its definition: the
#: draws are made chunk by chunk, so changing it changes the intervals).
_TWO_LEVEL_CHUNK = 2_000_000


def two_level_bootstrap(
    values: Sequence[Sequence[float]],
    *,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
    confidence: float = 0.95,
) -> TwoLevelMean:
    """Mean over tasks of per-task seed means, with a percentile CI from a two-level bootstrap.

    ``values[i]`` holds task ``i``'s value under each of its seeds (tasks may have different numbers
    of seeds, at least one each).  Each resample draws the tasks with replacement, then, for every
    drawn task, as many of its seeds as it has, with replacement; the statistic is the mean over the
    drawn tasks of their drawn seeds' mean.  So the interval carries both the variation between
    tasks and the variation between renamings of one task.  With one seed per task it is exactly the
    task bootstrap of :func:`paired_difference` (same seed, same task draws).
    """
    resamples, seed, confidence = _check_resamples(resamples), _check_seed(seed), _check_confidence(confidence)
    rows = [_vector(list(task), f"values[{i}]") for i, task in enumerate(values)]
    if not rows:
        raise ValueError("values is empty: need at least one task")
    counts = np.array([row.size for row in rows])
    # A task × seed matrix, padded; padding is never drawn (indices stay below each task's count).
    matrix = np.zeros((len(rows), int(counts.max())))
    for i, row in enumerate(rows):
        matrix[i, : row.size] = row
    rng = np.random.default_rng(seed)
    # Tasks first, drawn exactly as _bootstrap_means draws them.
    tasks = rng.integers(0, len(rows), size=(resamples, len(rows)))
    drawn_counts = counts[tasks]
    if counts.max() == 1:
        boot = matrix[tasks, 0].mean(axis=1)
    else:
        boot = np.empty(resamples)
        width = matrix.shape[1]
        step = max(1, _TWO_LEVEL_CHUNK // (len(rows) * width))  # bounded memory for large runs
        for start in range(0, resamples, step):
            chosen, counts_here = tasks[start:start + step], drawn_counts[start:start + step, :, None]
            picks = np.floor(rng.random((chosen.shape[0], len(rows), width)) * counts_here).astype(int)
            used = np.arange(width) < counts_here  # a task with m seeds draws m of them
            drawn = np.where(used, matrix[chosen[..., None], picks], 0.0)
            boot[start:start + step] = (drawn.sum(axis=2) / counts_here[..., 0]).mean(axis=1)
    low, high = _percentile_interval(boot, confidence)
    return TwoLevelMean(mean=float(np.mean([row.mean() for row in rows])), ci_low=low, ci_high=high,
                        tasks=len(rows), seeds=int(counts.max()), confidence=confidence)


# --- sign test ---------------------------------------------------------------


@dataclass(frozen=True)
class SignTest:
    """Two-sided exact sign test over the tasks where ``a != b``."""

    p_value: float
    n: int
    higher: int
    lower: int

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python fields, ready for JSON."""
        return asdict(self)


def sign_test(a: ArrayLike, b: ArrayLike) -> SignTest:
    """Exact two-sided sign test of ``a`` against ``b`` over tasks that differ.

    Ties are dropped; the count of tasks with ``a > b`` is tested against
    Binomial(differing, 1/2).  With no differing task the p-value is 1.0.
    """
    a_arr, b_arr = _aligned(a=a, b=b)
    higher = int((a_arr > b_arr).sum())
    lower = int((a_arr < b_arr).sum())
    if higher + lower == 0:
        p = 1.0
    else:
        p = float(_scipy_stats().binomtest(higher, higher + lower, 0.5, alternative="two-sided").pvalue)
    return SignTest(p_value=min(p, 1.0), n=int(a_arr.size), higher=higher, lower=lower)


# --- equivalence (TOST) ------------------------------------------------------


@dataclass(frozen=True)
class Equivalence:
    """TOST verdict: equivalent when the ``1 - 2*alpha`` interval lies inside ±margin."""

    mean: float
    ci_low: float
    ci_high: float
    margin: float
    equivalent: bool
    n: int
    confidence: float = 0.90

    def scaled(self, factor: float = POINTS) -> Equivalence:
        """The same result with mean, interval and margin multiplied (e.g. into points)."""
        return replace(
            self,
            mean=self.mean * factor,
            ci_low=self.ci_low * factor,
            ci_high=self.ci_high * factor,
            margin=self.margin * factor,
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python fields, ready for JSON."""
        return asdict(self)


def equivalence(
    a: ArrayLike,
    b: ArrayLike,
    margin: float = 0.05,
    *,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
    alpha: float = 0.05,
) -> Equivalence:
    """Two one-sided tests of ``|mean(a - b)| < margin`` from the bootstrap.

    Each one-sided test at level *alpha* rejects when the matching end of the
    ``1 - 2*alpha`` (90% by default) percentile interval is inside the margin,
    so the verdict is "equivalent" when that interval lies within
    ``(-margin, +margin)``.  *margin* is in the units of the inputs (0.05 is
    five points for rates).
    """
    if not (isinstance(margin, (int, float)) and math.isfinite(margin) and margin > 0):
        raise ValueError(f"margin must be a positive number, got {margin!r}")
    if not (isinstance(alpha, (int, float)) and 0.0 < alpha < 0.5):
        raise ValueError(f"alpha must be strictly between 0 and 0.5, got {alpha!r}")
    confidence = 1.0 - 2.0 * float(alpha)
    diff = paired_difference(a, b, resamples=resamples, seed=seed, confidence=confidence)
    margin = float(margin)
    inside = -margin < diff.ci_low and diff.ci_high < margin
    return Equivalence(
        mean=diff.mean,
        ci_low=diff.ci_low,
        ci_high=diff.ci_high,
        margin=margin,
        equivalent=bool(inside),
        n=diff.n,
        confidence=confidence,
    )


# --- difference in differences ----------------------------------------------


@dataclass(frozen=True)
class DifferenceInDifferences:
    """The exposure analysis of Table 2, each part with its bootstrap interval.

    * ``did``: mean over tasks of ``(c - r)_seen - (c - r)_unseen``; ``higher``
      counts tasks where renaming costs more on the seen model.
    * ``unseen_cost`` / ``seen_cost``: mean of ``c - r`` for the model that did
      not / did see each task.
    * ``exposure_original`` / ``exposure_renamed``: seen minus unseen in each
      condition; ``higher`` counts tasks where the seen model scores higher.
    """

    did: PairedDifference
    unseen_cost: PairedDifference
    seen_cost: PairedDifference
    exposure_original: PairedDifference
    exposure_renamed: PairedDifference

    def scaled(self, factor: float = POINTS) -> DifferenceInDifferences:
        """Every part multiplied by *factor* (e.g. into points)."""
        return DifferenceInDifferences(
            did=self.did.scaled(factor),
            unseen_cost=self.unseen_cost.scaled(factor),
            seen_cost=self.seen_cost.scaled(factor),
            exposure_original=self.exposure_original.scaled(factor),
            exposure_renamed=self.exposure_renamed.scaled(factor),
        )

    def to_dict(self) -> dict[str, Any]:
        """Nested plain-Python fields, ready for JSON."""
        return asdict(self)


def difference_in_differences(
    orig_seen: ArrayLike,
    ren_seen: ArrayLike,
    orig_unseen: ArrayLike,
    ren_unseen: ArrayLike,
    *,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
    confidence: float = 0.95,
) -> DifferenceInDifferences:
    """DiD of renaming under exposure, as in the paper's "Analysis" paragraph.

    For each task ``s``: ``c_s``/``r_s`` are its original/renamed values (pass
    rates or mean log-likelihoods); "seen" values come from the model trained
    on ``s``, "unseen" from the model that was not.  All parts share one seed,
    so they are bootstrapped over the same task resamples and stay consistent
    (``did`` equals ``exposure_original - exposure_renamed`` per resample).
    """
    cs, rs, cu, ru = _aligned(
        orig_seen=orig_seen, ren_seen=ren_seen, orig_unseen=orig_unseen, ren_unseen=ren_unseen
    )
    resamples = _check_resamples(resamples)
    seed = _check_seed(seed)
    confidence = _check_confidence(confidence)
    seen_cost = cs - rs
    unseen_cost = cu - ru
    return DifferenceInDifferences(
        did=_paired(seen_cost - unseen_cost, resamples, seed, confidence),
        unseen_cost=_paired(unseen_cost, resamples, seed, confidence),
        seen_cost=_paired(seen_cost, resamples, seed, confidence),
        exposure_original=_paired(cs - cu, resamples, seed, confidence),
        exposure_renamed=_paired(rs - ru, resamples, seed, confidence),
    )


# --- permutation test --------------------------------------------------------


@dataclass(frozen=True)
class PermutationTest:
    """Difference of group means ``mean(a) - mean(b)`` with a two-sided permutation p."""

    difference: float
    p_value: float
    n_a: int
    n_b: int
    resamples: int

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python fields, ready for JSON."""
        return asdict(self)


def permutation_test(
    group_a: ArrayLike,
    group_b: ArrayLike,
    *,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
) -> PermutationTest:
    """Two-sided permutation test on the difference of means of two task groups.

    Task labels are shuffled *resamples* times; the p-value is
    ``(count + 1) / (resamples + 1)`` where ``count`` is the number of
    shuffles whose absolute difference is at least the observed one (the +1
    counts the observed split, so p is never 0).
    """
    a = _vector(group_a, "group_a")
    b = _vector(group_b, "group_b")
    resamples = _check_resamples(resamples)
    rng = np.random.default_rng(_check_seed(seed))
    pooled = np.concatenate([a, b])
    n_a, n_b = a.size, b.size
    observed = float(a.mean() - b.mean())
    shuffled = rng.permuted(np.broadcast_to(pooled, (resamples, pooled.size)), axis=1)
    sum_a = shuffled[:, :n_a].sum(axis=1)
    # mean(b) from the total avoids summing the second block again.
    perm = sum_a / n_a - (pooled.sum() - sum_a) / n_b
    count = int((np.abs(perm) >= abs(observed) - _tolerance(pooled)).sum())
    return PermutationTest(
        difference=observed,
        p_value=(count + 1) / (resamples + 1),
        n_a=int(n_a),
        n_b=int(n_b),
        resamples=resamples,
    )


# --- Spearman ----------------------------------------------------------------


@dataclass(frozen=True)
class Spearman:
    """Spearman's rho with a two-sided permutation p-value (y permuted)."""

    rho: float
    p_value: float
    n: int
    resamples: int

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python fields, ready for JSON."""
        return asdict(self)


def spearman(
    x: ArrayLike,
    y: ArrayLike,
    *,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
) -> Spearman:
    """Spearman correlation of paired per-task values with a permutation p-value.

    ``rho`` is :func:`scipy.stats.spearmanr`; the p-value is
    ``(count + 1) / (resamples + 1)`` over *resamples* shuffles of *y*.
    Both inputs need at least two distinct values (rho is undefined otherwise).
    """
    x_arr, y_arr = _aligned(x=x, y=y)
    resamples = _check_resamples(resamples)
    rng = np.random.default_rng(_check_seed(seed))
    if x_arr.size < 2:
        raise ValueError("spearman needs at least two tasks")
    for name, arr in (("x", x_arr), ("y", y_arr)):
        if np.ptp(arr) == 0:
            raise ValueError(f"{name} is constant, so the Spearman correlation is undefined")
    rho = float(_scipy_stats().spearmanr(x_arr, y_arr)[0])
    # Spearman's rho is Pearson's r on average ranks, and permuting y only
    # permutes its centred ranks, so every shuffle is one dot product.
    rx = _scipy_stats().rankdata(x_arr)
    ry = _scipy_stats().rankdata(y_arr)
    rx -= rx.mean()
    ry -= ry.mean()
    denom = math.sqrt(float(rx @ rx) * float(ry @ ry))
    shuffled = rng.permuted(np.broadcast_to(ry, (resamples, ry.size)), axis=1)
    perm = shuffled @ rx / denom
    count = int((np.abs(perm) >= abs(rho) - 1e-10).sum())
    return Spearman(
        rho=rho, p_value=(count + 1) / (resamples + 1), n=int(x_arr.size), resamples=resamples
    )


# --- AUROC -------------------------------------------------------------------


def _wins(positive: np.ndarray, negative: np.ndarray) -> np.ndarray:
    """``[i, j]``: 1 if ``positive[i] > negative[j]``, 0.5 on a tie, else 0."""
    return (positive[:, None] > negative[None, :]) + 0.5 * (positive[:, None] == negative[None, :])


def auroc(positive: ArrayLike, negative: ArrayLike) -> float:
    """Area under the ROC curve of scores where higher means positive.

    The Mann–Whitney form: the share of (positive, negative) pairs in which the
    positive scores higher, a tie counting one half (so a constant score gives 0.5).
    """
    return float(_wins(_vector(positive, "positive"), _vector(negative, "negative")).mean())


@dataclass(frozen=True)
class Auroc:
    """AUROC of seen versus unseen scores with a percentile bootstrap interval over tasks."""

    auroc: float
    ci_low: float
    ci_high: float
    n_seen: int
    n_unseen: int
    resamples: int
    confidence: float = 0.95

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python fields, ready for JSON."""
        return asdict(self)


def task_auroc(
    seen: ArrayLike,
    unseen: ArrayLike,
    *,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
    confidence: float = 0.95,
) -> Auroc:
    """:func:`auroc` of ``seen`` (positives) against ``unseen`` with a bootstrap over tasks.

    Index ``i`` of both is task ``i`` (its score under the model that saw it and
    under the one that did not): a resample draws tasks with replacement, as
    :func:`paired_difference` does, and keeps both of a drawn task's scores.
    """
    pos, neg = _aligned(seen=seen, unseen=unseen)
    resamples = _check_resamples(resamples)
    confidence = _check_confidence(confidence)
    rng = np.random.default_rng(_check_seed(seed))
    n = pos.size
    wins = _wins(pos, neg)
    idx = rng.integers(0, n, size=(resamples, n))
    # How often each task is drawn in each resample (c_i).  A draw's seen score
    # meets the unseen scores of the *other* draws: sum_ij c_i c_j wins_ij minus
    # the sum_i c_i wins_ii of each draw against itself, over n(n - 1) pairs.
    # Counting a draw against itself would weight a task's own seen-unseen pair
    # by c_i^2 (twice, on average) and shift every interval toward it; without
    # it the resampled AUROC is centred on the observed one.
    counts = np.bincount((idx + n * np.arange(resamples)[:, None]).ravel(), minlength=resamples * n)
    counts = counts.reshape(resamples, n).astype(float)
    pairs = ((counts @ wins) * counts).sum(axis=1) - counts @ np.diag(wins)
    boot = pairs / (n * (n - 1)) if n > 1 else np.full(resamples, float(wins.mean()))
    low, high = _percentile_interval(boot, confidence)
    return Auroc(auroc=float(wins.mean()), ci_low=low, ci_high=high, n_seen=n, n_unseen=n,
                 resamples=resamples, confidence=confidence)
