"""Likelihood-based membership signals: Min-K%, Min-K%++ and the zlib ratio.

Each is a score that should be *higher* for text the model was trained on:

* **Min-K%** (Shi et al. 2024): the mean of the lowest ``k`` share of the text's token
  log-probabilities ``log p(x_t | x_<t)``. Seen text has fewer surprising tokens.
* **Min-K%++** (Zhang et al. 2025): each token's log-probability standardised by the model's own
  next-token distribution ``p_t`` at that position, ``(log p_t(x_t) - mu_t) / sigma_t`` with
  ``mu_t = E_{z~p_t}[log p_t(z)]`` and ``sigma_t^2 = E_{z~p_t}[(log p_t(z) - mu_t)^2]``; then the
  mean of the lowest ``k`` share of those. Training pushes ``x_t`` toward a local maximum of the
  likelihood, so it stands out against the whole distribution, not only in absolute terms.
* **zlib ratio** (Carlini et al. 2021): the mean token log-likelihood divided by the length in bytes
  of the text compressed with zlib. Compression calibrates for text that is easy for any model
  (repetitive boilerplate). Carlini et al. rank by log-perplexity / zlib entropy, where *lower*
  means memorized; that is exactly minus this score, which keeps "higher = seen" like the others.

The lowest-``k`` rule counts ``max(1, floor(k * n))`` tokens of ``n`` (at least one, so a short text
still has a score). torch is imported only by :func:`token_z_scores`.
"""

from __future__ import annotations

import math
import zlib
from typing import Any, Iterable

from ..errors import UsageProblem

#: The share of tokens Min-K% and Min-K%++ average (20%, the published default).
DEFAULT_MIN_K = 0.2


def check_ratio(ratio: float) -> float:
    """``ratio`` if it is a share in (0, 1], else a ValueError naming the rule."""
    if isinstance(ratio, bool) or not isinstance(ratio, (int, float)) or not 0 < float(ratio) <= 1:
        raise UsageProblem(f"the Min-K% share must lie in (0, 1], not {ratio!r}")
    return float(ratio)


def lowest_mean(values: Iterable[float], ratio: float = DEFAULT_MIN_K) -> float | None:
    """The mean of the ``max(1, floor(ratio * n))`` smallest of ``values``; None when there are none."""
    ordered = sorted(values)
    if not ordered:
        return None
    # A small epsilon keeps floor(0.2 * 10) at 2 where binary floating point gives 1.999….
    count = max(1, math.floor(check_ratio(ratio) * len(ordered) + 1e-9))
    return math.fsum(ordered[:count]) / count


def zlib_bytes(text: str) -> int:
    """The length of ``text`` (UTF-8) compressed by zlib at its default level."""
    return len(zlib.compress(text.encode("utf-8")))


def zlib_ratio(mean_log_likelihood: float | None, text: str) -> float | None:
    """Mean token log-likelihood / zlib-compressed byte length of ``text`` (higher = more likely seen)."""
    if mean_log_likelihood is None or not text:
        return None
    return mean_log_likelihood / zlib_bytes(text)


def token_z_scores(logprobs: Any, targets: Any) -> Any:
    """Min-K%++'s per-token score from log-probabilities ``logprobs`` (positions × vocabulary) and
    the tokens that followed, ``targets`` (one per position): ``(log p(x_t) - mu_t) / sigma_t``.

    A position whose distribution has no spread (``sigma_t = 0``, one token certain) scores 0.
    Tokens of probability 0 (log-probability -inf) add nothing to ``mu_t`` or ``sigma_t``.
    """
    import torch  # heavy, optional: the 'local' extra

    probs = logprobs.exp()
    # Where p = 0 the log-probability may be -inf and 0 · -inf is NaN: such terms count as 0.
    mu = torch.nan_to_num(probs * logprobs, nan=0.0).sum(dim=-1)
    sigma = torch.nan_to_num(probs * (logprobs - mu.unsqueeze(-1)).square(), nan=0.0).sum(dim=-1).sqrt()
    chosen = logprobs.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    spread = sigma > 0
    return torch.where(spread, (chosen - mu) / torch.where(spread, sigma, torch.ones_like(sigma)),
                       torch.zeros_like(sigma))
