"""``stats.two_level_bootstrap``: tasks resampled, then seeds within each drawn task."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from pytest_alias import stats


def test_one_task_two_seeds_matches_the_hand_computed_distribution() -> None:
    # One task with seed values 0 and 1: every resample draws the task, then two seeds with
    # replacement, so the resampled mean is 0, 0.5 or 1 with probabilities 1/4, 1/2, 1/4. The 95%
    # percentile interval therefore spans [0, 1] and the point estimate is 0.5.
    result = stats.two_level_bootstrap([[0.0, 1.0]], resamples=20_000, seed=3)
    assert (result.mean, result.ci_low, result.ci_high, result.tasks, result.seeds) == (0.5, 0.0, 1.0, 1, 2)


def test_seed_level_draws_follow_the_hand_computed_frequencies(monkeypatch: pytest.MonkeyPatch) -> None:
    # Capture the bootstrap distribution to check the seed level's frequencies, not just the ends.
    captured = {}
    original = stats._percentile_interval

    def keep(boot: np.ndarray, confidence: float) -> tuple[float, float]:
        captured["boot"] = boot.copy()
        return original(boot, confidence)

    monkeypatch.setattr(stats, "_percentile_interval", keep)
    stats.two_level_bootstrap([[0.0, 1.0]], resamples=40_000, seed=11)
    shares = {value: count / 40_000 for value, count in Counter(np.round(captured["boot"], 6)).items()}
    assert shares.keys() == {0.0, 0.5, 1.0}
    assert shares[0.5] == pytest.approx(0.5, abs=0.01) and shares[0.0] == pytest.approx(0.25, abs=0.01)


def test_one_seed_per_task_is_exactly_the_task_bootstrap() -> None:
    values = [0.2, 0.5, 0.9, 0.0, 1.0, 0.4]
    two_level = stats.two_level_bootstrap([[v] for v in values], resamples=2_000, seed=5)
    tasks_only = stats.paired_difference(values, [0.0] * len(values), resamples=2_000, seed=5)
    assert (two_level.mean, two_level.ci_low, two_level.ci_high) == (tasks_only.mean, tasks_only.ci_low,
                                                                     tasks_only.ci_high)


def test_mean_is_of_task_means_and_the_interval_contains_it_and_is_seeded() -> None:
    values = [[0.2, 0.4, 0.0], [0.5], [0.9, 1.0], [0.1, 0.3, 0.2, 0.6]]
    first = stats.two_level_bootstrap(values, resamples=3_000, seed=7)
    # Each task weighs the same whatever its number of seeds: (0.2 + 0.5 + 0.95 + 0.3) / 4.
    assert first.mean == pytest.approx(0.4875)
    assert first.ci_low <= first.mean <= first.ci_high and first.ci_low < first.ci_high
    assert stats.two_level_bootstrap(values, resamples=3_000, seed=7) == first
    assert stats.two_level_bootstrap(values, resamples=3_000, seed=8) != first


def test_seed_variation_widens_the_interval_over_the_task_bootstrap_of_seed_means() -> None:
    # Tasks alike on average but with very different seeds: the task-only bootstrap of the seed
    # means sees no variation at all, the two-level one does.
    values = [[0.0, 1.0]] * 5
    assert stats.paired_difference([0.5] * 5, [0.0] * 5, resamples=1_000, seed=0).ci_high == 0.5
    result = stats.two_level_bootstrap(values, resamples=1_000, seed=0)
    assert result.ci_low < 0.5 < result.ci_high


def test_degenerate_inputs() -> None:
    constant = stats.two_level_bootstrap([[0.25, 0.25], [0.25]], resamples=500, seed=0)
    assert (constant.mean, constant.ci_low, constant.ci_high) == (0.25, 0.25, 0.25)
    scaled = stats.two_level_bootstrap([[0.1, 0.3]], resamples=500, seed=0).scaled()
    assert scaled.mean == pytest.approx(20.0) and scaled.ci_high == pytest.approx(30.0)
    with pytest.raises(ValueError, match="empty"):
        stats.two_level_bootstrap([], resamples=500, seed=0)
    with pytest.raises(ValueError, match=r"values\[1\] is empty"):
        stats.two_level_bootstrap([[0.1], []], resamples=500, seed=0)
    with pytest.raises(ValueError, match="NaN"):
        stats.two_level_bootstrap([[float("nan")]], resamples=500, seed=0)
    with pytest.raises(ValueError, match="seed"):
        stats.two_level_bootstrap([[0.1]], resamples=500, seed=-1)
