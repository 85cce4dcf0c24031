"""Tests for pytest_alias.stats against scipy and hand-computed values."""
from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from pytest_alias import stats

# Small resample counts keep property tests fast; exactness checks use more.
FAST = 500

rates5 = st.sampled_from([0.0, 0.2, 0.4, 0.6, 0.8, 1.0])


@st.composite
def paired_rates(draw: st.DrawFn) -> tuple[list[float], list[float]]:
    n = draw(st.integers(min_value=1, max_value=30))
    a = draw(st.lists(rates5, min_size=n, max_size=n))
    b = draw(st.lists(rates5, min_size=n, max_size=n))
    return a, b


# --- pass rates --------------------------------------------------------------


def test_pass_rate_is_mean_of_outcomes() -> None:
    assert stats.pass_rate([True, False, True, True, False]) == pytest.approx(0.6)
    assert stats.pass_rate([0, 0, 0, 0, 0]) == 0.0
    assert stats.pass_rate(np.ones(5)) == 1.0


@pytest.mark.parametrize("bad", [[], [0.5, float("nan")], [1, 2]])
def test_pass_rate_rejects_bad_outcomes(bad: list[float]) -> None:
    with pytest.raises(ValueError):
        stats.pass_rate(bad)


def _pass_at_k_by_enumeration(n: int, c: int, k: int) -> float:
    samples = [True] * c + [False] * (n - c)
    subsets = list(itertools.combinations(range(n), k))
    return sum(any(samples[i] for i in s) for s in subsets) / len(subsets)


@pytest.mark.parametrize("n", range(1, 8))
def test_pass_at_k_matches_subset_enumeration(n: int) -> None:
    for c in range(n + 1):
        for k in range(1, n + 1):
            assert stats.pass_at_k(n, c, k) == pytest.approx(_pass_at_k_by_enumeration(n, c, k))


def test_pass_at_1_is_the_pass_rate_and_large_n_is_stable() -> None:
    assert stats.pass_at_k(5, 2, 1) == pytest.approx(stats.pass_rate([1, 1, 0, 0, 0]))
    # math.comb would make huge integers here; the product form stays exact enough.
    expected = 1 - math.comb(1800, 100) / math.comb(2000, 100)
    assert stats.pass_at_k(2000, 200, 100) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("args", [(0, 0, 1), (5, 6, 1), (5, -1, 1), (5, 2, 0), (5, 2, 6), (5.0, 2, 1)])
def test_pass_at_k_rejects_bad_arguments(args: tuple[int, int, int]) -> None:
    with pytest.raises(ValueError):
        stats.pass_at_k(*args)


# --- paired difference -------------------------------------------------------


def test_paired_difference_mean_and_counts() -> None:
    a = [1.0, 0.8, 0.4, 0.2, 0.6]
    b = [0.6, 0.8, 0.6, 0.0, 0.6]
    res = stats.paired_difference(a, b, resamples=FAST)
    assert res.mean == pytest.approx(np.mean(np.subtract(a, b)))
    assert (res.n, res.higher, res.lower, res.ties) == (5, 2, 1, 2)
    assert res.ci_low <= res.mean <= res.ci_high
    assert res.confidence == 0.95


def test_constant_difference_gives_degenerate_interval() -> None:
    b = np.linspace(0, 0.5, 40)
    res = stats.paired_difference(b + 0.25, b, resamples=FAST)
    assert res.ci_low == res.ci_high
    assert res.ci_low == pytest.approx(0.25)
    assert res.mean == pytest.approx(0.25)
    assert res.higher == 40 and res.lower == 0


def test_interval_agrees_with_scipy_bootstrap_percentile() -> None:
    rng = np.random.default_rng(7)
    a = rng.normal(0.3, 1.0, 300)
    b = rng.normal(0.0, 1.0, 300)
    ours = stats.paired_difference(a, b, resamples=10_000, seed=3)
    theirs = sps.bootstrap(
        (a - b,),
        np.mean,
        n_resamples=10_000,
        method="percentile",
        confidence_level=0.95,
        random_state=np.random.default_rng(11),
    ).confidence_interval
    assert ours.ci_low == pytest.approx(theirs.low, abs=0.01)
    assert ours.ci_high == pytest.approx(theirs.high, abs=0.01)


def test_same_seed_is_identical_and_other_seeds_are_close() -> None:
    rng = np.random.default_rng(0)
    a, b = rng.random(100), rng.random(100)
    first = stats.paired_difference(a, b, seed=5)
    assert stats.paired_difference(a, b, seed=5) == first
    other = stats.paired_difference(a, b, seed=6)
    assert other != first
    assert other.ci_low == pytest.approx(first.ci_low, abs=0.01)
    assert other.ci_high == pytest.approx(first.ci_high, abs=0.01)


def test_higher_confidence_gives_wider_interval() -> None:
    rng = np.random.default_rng(1)
    a, b = rng.random(60), rng.random(60)
    narrow = stats.paired_difference(a, b, confidence=0.90, resamples=2000)
    wide = stats.paired_difference(a, b, confidence=0.99, resamples=2000)
    assert wide.ci_low <= narrow.ci_low and narrow.ci_high <= wide.ci_high


def test_scaled_and_to_dict() -> None:
    res = stats.paired_difference([0.4, 0.2], [0.2, 0.2], resamples=FAST)
    pts = res.scaled(stats.POINTS)
    assert pts.mean == pytest.approx(10.0)
    assert pts.ci_high == pytest.approx(res.ci_high * 100)
    assert (pts.n, pts.higher) == (res.n, res.higher)
    data = res.to_dict()
    assert set(data) >= {"mean", "ci_low", "ci_high", "n", "higher", "lower"}
    json.dumps(data)  # plain Python types only


def test_log_likelihoods_are_accepted() -> None:
    res = stats.paired_difference([-0.5, -0.7, -1.1], [-0.9, -0.8, -1.2], resamples=FAST)
    assert res.mean == pytest.approx(0.2)
    assert res.higher == 3


@pytest.mark.parametrize(
    ("a", "b", "message"),
    [
        ([0.1, 0.2], [0.1], "aligned"),
        ([], [], "empty"),
        ([0.1, float("nan")], [0.1, 0.2], "NaN"),
        ([0.1, float("inf")], [0.1, 0.2], "infinite"),
        ([[0.1], [0.2]], [[0.1], [0.2]], "1-D"),
        (["x"], [0.1], "numbers"),
    ],
)
def test_bad_input_is_a_clear_value_error(a: list, b: list, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        stats.paired_difference(a, b, resamples=FAST)


@pytest.mark.parametrize(
    "kwargs",
    [{"resamples": 0}, {"resamples": 1.5}, {"seed": -1}, {"seed": None}, {"confidence": 1.0}],
)
def test_bad_options_are_value_errors(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        stats.paired_difference([0.1, 0.2], [0.0, 0.1], **kwargs)


@settings(max_examples=40, deadline=None)
@given(paired_rates(), st.integers(min_value=0, max_value=2**32))
def test_swapping_negates_mean_and_mirrors_interval(
    pair: tuple[list[float], list[float]], seed: int
) -> None:
    a, b = pair
    ab = stats.paired_difference(a, b, resamples=FAST, seed=seed)
    ba = stats.paired_difference(b, a, resamples=FAST, seed=seed)
    assert ba.mean == pytest.approx(-ab.mean, abs=1e-12)
    assert ba.ci_low == pytest.approx(-ab.ci_high, abs=1e-12)
    assert ba.ci_high == pytest.approx(-ab.ci_low, abs=1e-12)
    assert (ba.higher, ba.lower) == (ab.lower, ab.higher)


@settings(max_examples=40, deadline=None)
@given(paired_rates(), st.integers(min_value=0, max_value=2**32))
def test_interval_is_ordered_and_within_range_of_task_differences(
    pair: tuple[list[float], list[float]], seed: int
) -> None:
    a, b = pair
    d = np.subtract(a, b)
    res = stats.paired_difference(a, b, resamples=FAST, seed=seed)
    eps = 1e-12
    assert d.min() - eps <= res.ci_low <= res.ci_high <= d.max() + eps
    assert res.higher + res.lower + res.ties == res.n == len(a)


# --- sign test ---------------------------------------------------------------


def test_sign_test_matches_hand_computed_binomial() -> None:
    # 5 tasks up, 1 down, 2 ties: p = 2 * P(X <= 1 | Bin(6, 1/2)) = 2 * 7/64
    a = [1, 1, 1, 1, 1, 0, 0.4, 0.4]
    b = [0, 0, 0, 0, 0, 1, 0.4, 0.4]
    res = stats.sign_test(a, b)
    assert (res.n, res.higher, res.lower) == (8, 5, 1)
    assert res.p_value == pytest.approx(14 / 64)


def test_sign_test_reproduces_the_papers_opus_result() -> None:
    # Section 4: 18 tasks now fail and two now pass, sign test p = 0.0004.
    a = [0.6] * 18 + [0.0] * 2 + [0.2] * 91
    b = [0.0] * 18 + [0.4] * 2 + [0.2] * 91
    res = stats.sign_test(a, b)
    expected = 2 * (1 + 20 + 190) / 2**20
    assert res.p_value == pytest.approx(expected)
    assert round(res.p_value, 4) == 0.0004


def test_sign_test_is_one_without_differing_tasks() -> None:
    res = stats.sign_test([0.2, 0.4], [0.2, 0.4])
    assert res.p_value == 1.0
    assert (res.higher, res.lower) == (0, 0)


def test_sign_test_is_symmetric_and_validates() -> None:
    a, b = [1, 1, 0, 1], [0, 0, 1, 0]
    assert stats.sign_test(a, b).p_value == stats.sign_test(b, a).p_value
    with pytest.raises(ValueError, match="aligned"):
        stats.sign_test([1, 0], [1])


# --- equivalence -------------------------------------------------------------


def test_equivalence_accepts_nearly_identical_conditions() -> None:
    rng = np.random.default_rng(2)
    b = rng.choice([0.0, 0.2, 0.4, 0.6, 0.8, 1.0], size=80)
    a = b.copy()
    a[:4] += 0.2  # a few tasks differ by one sample
    a[4:8] -= 0.2
    res = stats.equivalence(a, b, 0.05, resamples=2000)
    assert res.equivalent
    assert -0.05 < res.ci_low <= res.ci_high < 0.05
    assert res.confidence == pytest.approx(0.90)
    assert res.margin == 0.05


def test_equivalence_rejects_clearly_different_conditions() -> None:
    rng = np.random.default_rng(3)
    b = rng.random(80) * 0.5
    res = stats.equivalence(b + 0.2, b, 0.05, resamples=2000)
    assert not res.equivalent
    assert res.mean == pytest.approx(0.2)


def test_equivalence_uses_the_90_percent_interval() -> None:
    rng = np.random.default_rng(4)
    a, b = rng.random(50), rng.random(50)
    tost = stats.equivalence(a, b, 0.05, resamples=2000, seed=9)
    ninety = stats.paired_difference(a, b, resamples=2000, seed=9, confidence=0.90)
    assert (tost.ci_low, tost.ci_high) == (ninety.ci_low, ninety.ci_high)
    assert tost.equivalent == (-0.05 < ninety.ci_low and ninety.ci_high < 0.05)
    assert tost.scaled().margin == pytest.approx(5.0)
    json.dumps(tost.to_dict())


@pytest.mark.parametrize("margin", [0, -0.05, float("nan")])
def test_equivalence_rejects_bad_margin(margin: float) -> None:
    with pytest.raises(ValueError, match="margin"):
        stats.equivalence([0.1], [0.1], margin, resamples=FAST)


# --- difference in differences -----------------------------------------------

# Four tasks; seen costs (c - r) = [0.4, 0, 0.4, 0], unseen costs = [0, 0.2, 0, 0].
ORIG_SEEN = [1.0, 0.8, 0.6, 0.4]
REN_SEEN = [0.6, 0.8, 0.2, 0.4]
ORIG_UNSEEN = [0.4, 0.6, 0.2, 0.0]
REN_UNSEEN = [0.4, 0.4, 0.2, 0.0]


def test_did_on_a_hand_made_four_task_example() -> None:
    res = stats.difference_in_differences(
        ORIG_SEEN, REN_SEEN, ORIG_UNSEEN, REN_UNSEEN, resamples=2000, seed=1
    )
    # per-task DiD = [0.4, -0.2, 0.4, 0.0]
    assert res.did.mean == pytest.approx(0.15)
    assert (res.did.n, res.did.higher, res.did.lower) == (4, 2, 1)
    assert -0.2 - 1e-12 <= res.did.ci_low <= res.did.ci_high <= 0.4 + 1e-12
    assert res.unseen_cost.mean == pytest.approx(0.05)
    assert res.seen_cost.mean == pytest.approx(0.2)
    assert res.exposure_original.mean == pytest.approx(0.4)  # [0.6, 0.2, 0.4, 0.4]
    assert res.exposure_renamed.mean == pytest.approx(0.25)  # [0.2, 0.4, 0.0, 0.4]
    assert res.exposure_original.higher == 4
    assert res.did.mean == pytest.approx(res.exposure_original.mean - res.exposure_renamed.mean)
    assert res.did.mean == pytest.approx(res.seen_cost.mean - res.unseen_cost.mean)


def test_did_parts_match_paired_difference_with_the_same_seed() -> None:
    rng = np.random.default_rng(5)
    cs, rs, cu, ru = (rng.random(110) for _ in range(4))
    res = stats.difference_in_differences(cs, rs, cu, ru, resamples=3000, seed=4)
    assert res.did == stats.paired_difference(cs - rs, cu - ru, resamples=3000, seed=4)
    assert res.unseen_cost == stats.paired_difference(cu, ru, resamples=3000, seed=4)
    assert res.exposure_renamed == stats.paired_difference(rs, ru, resamples=3000, seed=4)
    pts = res.scaled()
    assert pts.did.mean == pytest.approx(res.did.mean * 100)
    json.dumps(res.to_dict())


def test_did_validates_alignment() -> None:
    with pytest.raises(ValueError, match="ren_unseen=3"):
        stats.difference_in_differences(ORIG_SEEN, REN_SEEN, ORIG_UNSEEN, REN_UNSEEN[:3])


# --- permutation test --------------------------------------------------------


def test_permutation_test_on_separated_groups_is_small() -> None:
    a = np.arange(10, 20, dtype=float)
    b = np.arange(0, 10, dtype=float)
    res = stats.permutation_test(a, b, resamples=2000, seed=0)
    assert res.difference == pytest.approx(10.0)
    # Only 2 of C(20, 10) splits are as extreme, so almost no shuffle counts.
    assert res.p_value <= 3 / 2001
    assert res.p_value >= 1 / 2001


def test_permutation_test_on_identical_groups_is_one() -> None:
    a = [0.2, 0.4, 0.6, 0.0, 1.0]
    res = stats.permutation_test(a, list(a), resamples=1000)
    assert res.difference == 0.0
    assert res.p_value == 1.0
    assert (res.n_a, res.n_b, res.resamples) == (5, 5, 1000)


def test_permutation_test_agrees_with_scipy_exact() -> None:
    rng = np.random.default_rng(8)
    a = rng.normal(0.5, 1.0, 6)
    b = rng.normal(0.0, 1.0, 6)
    ours = stats.permutation_test(a, b, resamples=20_000, seed=2)
    exact = sps.permutation_test(
        (a, b),
        lambda x, y, axis: np.mean(x, axis=axis) - np.mean(y, axis=axis),
        permutation_type="independent",
        vectorized=True,
        n_resamples=np.inf,
        alternative="two-sided",
    )
    assert ours.difference == pytest.approx(exact.statistic)
    assert ours.p_value == pytest.approx(exact.pvalue, abs=0.015)


def test_permutation_test_is_deterministic_and_allows_unequal_groups() -> None:
    a, b = [0.1, 0.5, 0.9], [0.2, 0.3, 0.4, 0.8, 0.6]
    first = stats.permutation_test(a, b, resamples=FAST, seed=3)
    assert first == stats.permutation_test(a, b, resamples=FAST, seed=3)
    assert (first.n_a, first.n_b) == (3, 5)
    assert 0 < first.p_value <= 1
    with pytest.raises(ValueError, match="group_b is empty"):
        stats.permutation_test(a, [], resamples=FAST)


# --- Spearman ----------------------------------------------------------------


def test_spearman_rho_equals_scipy() -> None:
    rng = np.random.default_rng(9)
    x = rng.integers(0, 200, 111).astype(float)  # ties, like token-run lengths
    y = 0.3 * x / 200 + rng.random(111)
    res = stats.spearman(x, y, resamples=FAST)
    assert res.rho == pytest.approx(sps.spearmanr(x, y)[0])
    assert res.n == 111


def test_spearman_p_agrees_with_scipy_exact_permutation() -> None:
    rng = np.random.default_rng(10)
    x = rng.random(7)
    y = x + rng.normal(0, 0.4, 7)
    ours = stats.spearman(x, y, resamples=20_000, seed=1)
    rx = sps.rankdata(x) - 4.0  # ranks 1..7 centred

    def rho(yy: np.ndarray, axis: int = -1) -> np.ndarray:
        # Pearson on ranks, vectorised so scipy's exact enumeration is quick.
        ry = sps.rankdata(yy, axis=axis) - 4.0
        return (ry * rx).sum(axis=axis) / np.sqrt((rx**2).sum() * (ry**2).sum(axis=axis))

    exact = sps.permutation_test(
        (y,),
        rho,
        permutation_type="pairings",
        vectorized=True,
        n_resamples=np.inf,
        alternative="two-sided",
    )
    assert exact.statistic == pytest.approx(ours.rho)
    assert ours.p_value == pytest.approx(exact.pvalue, abs=0.015)


def test_spearman_monotone_is_significant_and_shuffled_is_not() -> None:
    x = np.arange(30, dtype=float)
    strong = stats.spearman(x, x**3, resamples=2000)
    assert strong.rho == pytest.approx(1.0)
    assert strong.p_value == pytest.approx(1 / 2001)
    rng = np.random.default_rng(11)
    weak = stats.spearman(x, rng.permutation(x), resamples=2000)
    assert weak.p_value > 0.01


@pytest.mark.parametrize(
    ("x", "y", "message"),
    [([1.0, 2.0, 3.0], [1.0, 1.0, 1.0], "constant"), ([1.0], [2.0], "two"), ([1, 2], [1], "aligned")],
)
def test_spearman_rejects_undefined_cases(x: list, y: list, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        stats.spearman(x, y, resamples=FAST)


# --- AUROC -------------------------------------------------------------------


def test_auroc_counts_pairs_and_ties_by_hand() -> None:
    # Positive 3 and 2 beat both negatives (4 pairs), 1 beats 0 and ties 1: (4 + 1 + 0.5) / 6.
    assert stats.auroc([3, 2, 1], [1, 0]) == pytest.approx(5.5 / 6)
    assert stats.auroc([1, 1], [1, 1, 1]) == 0.5
    assert stats.auroc([2, 3], [0, 1]) == 1.0 and stats.auroc([0, 1], [2, 3]) == 0.0
    with pytest.raises(ValueError):
        stats.auroc([], [1.0])


def test_auroc_equals_the_mann_whitney_u_over_its_pairs() -> None:
    from scipy.stats import mannwhitneyu

    rng = np.random.default_rng(3)
    pos, neg = rng.integers(0, 6, size=17), rng.integers(0, 5, size=11)  # many ties
    u = mannwhitneyu(pos, neg).statistic
    assert stats.auroc(pos, neg) == pytest.approx(u / (17 * 11))


def test_task_auroc_bootstraps_tasks_and_stays_centred() -> None:
    seen, unseen = [0.9, 0.2, 0.7, 0.5, 0.4], [0.1, 0.3, 0.7, 0.2, 0.6]
    result = stats.task_auroc(seen, unseen, resamples=3000, seed=5)
    assert result.auroc == pytest.approx(stats.auroc(seen, unseen))
    assert (result.n_seen, result.n_unseen, result.resamples) == (5, 5, 3000)
    assert result.ci_low <= result.auroc <= result.ci_high
    assert result == stats.task_auroc(seen, unseen, resamples=3000, seed=5)
    assert stats.task_auroc([2, 3, 4], [0, 0.5, 1.5], resamples=500).to_dict()["ci_low"] == 1.0
    # Each task's seen score beats its own unseen score, and nothing else decides: AUROC 0.51 on
    # 50 tasks. Counting a drawn task against itself would put the whole interval above 0.51.
    shifted = stats.task_auroc(np.arange(50) + 0.3, np.arange(50), resamples=4000)
    assert shifted.auroc == pytest.approx(0.51)
    assert shifted.ci_low <= 0.51 <= shifted.ci_high
    with pytest.raises(ValueError, match="aligned by task"):
        stats.task_auroc([1, 2], [1])
