"""The membership signals against hand computations: Min-K%, Min-K%++ on a hand-made distribution, zlib ratio."""

from __future__ import annotations

import math
import zlib

import pytest

from pytest_alias.models.local_likelihood import TokenScores
from pytest_alias.models.membership import lowest_mean, zlib_bytes, zlib_ratio

LN2 = math.log(2)


def test_min_k_averages_the_lowest_share_with_at_least_one_token() -> None:
    values = [-0.5, -3.0, -1.0, -0.1, -2.0, -0.2, -0.3, -0.4, -0.6, -0.7]
    assert lowest_mean(values, 0.2) == pytest.approx((-3.0 - 2.0) / 2)  # floor(0.2 · 10) = 2 tokens
    assert lowest_mean(values, 0.3) == pytest.approx((-3.0 - 2.0 - 1.0) / 3)
    assert lowest_mean(values[:3], 0.2) == pytest.approx(-3.0)  # floor(0.6) = 0: one token all the same
    assert lowest_mean(values, 1.0) == pytest.approx(sum(values) / 10)
    assert lowest_mean([], 0.2) is None
    for bad in (0, -0.1, 1.5, True):
        with pytest.raises(ValueError, match="Min-K% share"):
            lowest_mean(values, bad)


def test_min_k_plus_plus_on_a_hand_made_distribution(monkeypatch: pytest.MonkeyPatch) -> None:
    torch = pytest.importorskip("torch")
    from pytest_alias.models import local_likelihood
    from pytest_alias.models.membership import token_z_scores

    # Vocabulary of four. Positions 0 and 2: p = (1/2, 1/4, 1/4, 0), so log p = (−ln 2, −2 ln 2, −2 ln 2, −inf),
    # mu = ½(−ln 2) + ½(−2 ln 2) = −1.5 ln 2 and sigma² = ½(0.5 ln 2)² + ½(0.5 ln 2)², sigma = 0.5 ln 2:
    # token 1 scores (−2 ln 2 + 1.5 ln 2) / (0.5 ln 2) = −1, token 0 scores +1. Position 1 is uniform
    # (sigma = 0): 0 by rule. Logits are log-probabilities plus a per-position constant (softmax ignores it).
    inf = float("inf")
    logits = torch.tensor([[-LN2 + 3, -2 * LN2 + 3, -2 * LN2 + 3, -inf],
                           [0.7, 0.7, 0.7, 0.7],
                           [-LN2, -2 * LN2, -2 * LN2, -inf]], dtype=torch.float64)
    targets = torch.tensor([1, 3, 0])
    z = token_z_scores(torch.log_softmax(logits, dim=-1), targets)
    assert z.tolist() == pytest.approx([-1.0, 0.0, 1.0], abs=1e-12)
    # The scorer's chunked pass gives the same scores across a chunk boundary, and the log-probabilities.
    monkeypatch.setattr(local_likelihood, "POSITIONS_PER_CHUNK", 2)
    chosen, scores = local_likelihood._score_positions(logits, targets)
    assert scores == pytest.approx([-1.0, 0.0, 1.0], abs=1e-12)
    assert chosen == pytest.approx([-2 * LN2, math.log(0.25), -LN2])
    tokens = TokenScores(tuple((i, i + 1, lp) for i, lp in enumerate(chosen)), tuple(scores))
    assert tokens.min_k_plus_plus(0.2) == pytest.approx(-1.0)  # one token of three
    assert tokens.min_k_plus_plus(0.7) == pytest.approx(-0.5)  # floor(2.1) = 2: (−1 + 0) / 2
    assert tokens.min_k(0.7) == pytest.approx((-2 * LN2 + math.log(0.25)) / 2)
    assert TokenScores(tokens.tokens).min_k_plus_plus() is None  # scored without z-scores


def test_zlib_ratio_divides_the_mean_by_the_compressed_length() -> None:
    text = "---- MODULE M ----\nVARIABLE x\nInit == x = 0\n====\n"
    size = len(zlib.compress(text.encode("utf-8")))
    assert zlib_bytes(text) == size and zlib_bytes("a" * 1000) < zlib_bytes(text * 2)
    assert zlib_ratio(-2.0, text) == pytest.approx(-2.0 / size)
    # Carlini et al. (2021) rank by log-perplexity / zlib entropy, lower = memorized: minus this score.
    log_perplexity = 2.0
    assert -zlib_ratio(-log_perplexity, text) == pytest.approx(log_perplexity / size)
    assert zlib_ratio(None, text) is None and zlib_ratio(-1.0, "") is None
