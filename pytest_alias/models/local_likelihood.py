"""Token log-likelihoods of a continuation (a reference spec) given a prompt, for local models.

The paper (Section 3, "Log-likelihood") scores the first 2,048 tokens of description and reference
together and reports the mean token log-likelihood of the reference, and also the mean over the
tokens that do not overlap a renamed identifier. ``TokenScores`` keeps one score per continuation
token with its character span, so a caller can take either mean, and (from the same forward pass)
each token's Min-K%++ score, so the membership signals of :mod:`.membership` need no second pass.

torch is imported inside the functions that need it; the span arithmetic is plain Python.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Sequence

from .membership import DEFAULT_MIN_K, lowest_mean, token_z_scores

#: The length limit used in training (appendix E) and for scoring.
MAX_SCORED_TOKENS = 2048
#: Positions whose full next-token distributions are held at once (bounds memory: 128 × vocabulary).
POSITIONS_PER_CHUNK = 128

Span = tuple[int, int]


@dataclass(frozen=True)
class TokenScores:
    """Per-token log-probabilities of a continuation: ``(char_start, char_end, logprob)`` each.

    Offsets index the continuation string; tokens past the 2,048-token limit are absent.
    ``z_scores`` holds each token's Min-K%++ score (:func:`.membership.token_z_scores`), or None
    when the scorer did not compute them.
    """

    tokens: tuple[tuple[int, int, float], ...]
    z_scores: tuple[float, ...] | None = None

    def __iter__(self) -> Iterator[tuple[int, int, float]]:
        return iter(self.tokens)

    def __len__(self) -> int:
        return len(self.tokens)

    def mean(self) -> float | None:
        """Mean log-probability over every scored token, or None when none was scored."""
        return _mean(score for _, _, score in self.tokens)

    def min_k(self, ratio: float = DEFAULT_MIN_K) -> float | None:
        """Min-K%: the mean of the lowest ``ratio`` share of the token log-probabilities."""
        return lowest_mean((score for _, _, score in self.tokens), ratio)

    def min_k_plus_plus(self, ratio: float = DEFAULT_MIN_K) -> float | None:
        """Min-K%++: the mean of the lowest ``ratio`` share of the per-token z-scores (None without them)."""
        return lowest_mean(self.z_scores, ratio) if self.z_scores is not None else None

    def total(self) -> float:
        """Sum of the log-probabilities of the scored tokens."""
        return math.fsum(score for _, _, score in self.tokens)

    def mean_outside(self, spans_to_exclude: Iterable[Span]) -> float | None:
        """Mean over the tokens that overlap none of ``spans_to_exclude`` (half-open char spans).

        A token overlaps a span when they share at least one character; None when no token is left.
        """
        spans = [(start, end) for start, end in spans_to_exclude if end > start]
        return _mean(score for start, end, score in self.tokens if not _overlaps(start, end, spans))

    def mean_inside(self, spans: Iterable[Span]) -> float | None:
        """Mean over the tokens that overlap at least one of ``spans`` (the renamed identifiers
        alone, appendix T); None when no token does."""
        chosen = [(start, end) for start, end in spans if end > start]
        return _mean(score for start, end, score in self.tokens if _overlaps(start, end, chosen))

    def count_inside(self, spans: Iterable[Span]) -> int:
        """How many tokens overlap at least one of ``spans``."""
        chosen = [(start, end) for start, end in spans if end > start]
        return sum(_overlaps(start, end, chosen) for start, end, _ in self.tokens)


def mean_inside(tokens: Iterable[tuple[int, int, float]], spans: Iterable[Span]) -> float | None:
    """``TokenScores.mean_inside`` for a plain list of ``(char_start, char_end, logprob)``."""
    return TokenScores(tuple(tokens)).mean_inside(spans)


def mean_outside(tokens: Iterable[tuple[int, int, float]], spans_to_exclude: Iterable[Span]) -> float | None:
    """``TokenScores.mean_outside`` for a plain list of ``(char_start, char_end, logprob)``."""
    return TokenScores(tuple(tokens)).mean_outside(spans_to_exclude)


def _overlaps(start: int, end: int, spans: Sequence[Span]) -> bool:
    """Whether the half-open ``[start, end)`` shares a character with any span (linear: spans are few)."""
    return any(start < span_end and span_start < end for span_start, span_end in spans)


def _mean(values: Iterable[float]) -> float | None:
    collected = list(values)
    return math.fsum(collected) / len(collected) if collected else None


def continuation_offsets(tokenizer: Any, continuation: str, ids: Sequence[int]) -> list[Span]:
    """Character spans of ``ids`` (the tokens of ``continuation``) inside ``continuation``.

    Fast tokenizers report offsets directly; otherwise spans come from decoding growing prefixes,
    which assumes decoding round-trips the text (clamped to its length).
    """
    if getattr(tokenizer, "is_fast", False):
        encoded = tokenizer(continuation, add_special_tokens=False, return_offsets_mapping=True)
        if list(encoded["input_ids"]) == list(ids):
            return [(int(start), int(end)) for start, end in encoded["offset_mapping"]]
    spans: list[Span] = []
    previous = 0
    for index in range(len(ids)):
        end = min(len(tokenizer.decode(ids[:index + 1])), len(continuation))
        spans.append((previous, max(end, previous)))
        previous = max(end, previous)
    return spans


def score_continuation(model: Any, tokenizer: Any, prompt_text: str, continuation: str, *,
                       prompt_has_special_tokens: bool = False,
                       max_tokens: int = MAX_SCORED_TOKENS) -> TokenScores:
    """Score ``continuation`` after ``prompt_text`` with a causal LM, one entry per scored token.

    The prompt is tokenized with the tokenizer's special tokens (a BOS) unless it already carries
    them (a rendered chat template); the continuation without. Prompt and continuation together are
    cut to their first ``max_tokens`` tokens.
    """
    return score_batch(model, tokenizer, [(prompt_text, continuation)],
                       prompt_has_special_tokens=prompt_has_special_tokens, max_tokens=max_tokens)[0]


@dataclass(frozen=True)
class _Encoded:
    prompt: list[int]
    continuation: list[int]
    spans: list[Span]


def _encode(tokenizer: Any, prompt_text: str, continuation: str, prompt_has_special_tokens: bool,
            max_tokens: int) -> _Encoded:
    prompt_ids = list(tokenizer(prompt_text, add_special_tokens=not prompt_has_special_tokens)["input_ids"])
    continuation_ids = list(tokenizer(continuation, add_special_tokens=False)["input_ids"])
    spans = continuation_offsets(tokenizer, continuation, continuation_ids)
    room = max(max_tokens - len(prompt_ids), 0)
    return _Encoded(prompt_ids, continuation_ids[:room], spans[:room])


def score_batch(model: Any, tokenizer: Any, items: Sequence[tuple[str, str]], *,
                prompt_has_special_tokens: bool = False,
                max_tokens: int = MAX_SCORED_TOKENS) -> list[TokenScores]:
    """``score_continuation`` for many ``(prompt, continuation)`` pairs in one forward pass.

    Rows are right-padded, so every row's positions start at 0 as in an unbatched pass; a pair
    whose prompt alone fills ``max_tokens`` scores no token.
    """
    import torch  # heavy, optional: the 'local' extra

    encoded = [_encode(tokenizer, prompt, continuation, prompt_has_special_tokens, max_tokens)
               for prompt, continuation in items]
    results: list[TokenScores] = [TokenScores(()) for _ in items]
    live = [i for i, e in enumerate(encoded) if e.prompt and e.continuation]
    if not live:
        return results
    device = next(model.parameters()).device
    rows = [encoded[i].prompt + encoded[i].continuation for i in live]
    width = max(len(row) for row in rows)
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
    ids = torch.tensor([row + [pad] * (width - len(row)) for row in rows], device=device)
    mask = torch.tensor([[1] * len(row) + [0] * (width - len(row)) for row in rows], device=device)
    with torch.no_grad():
        logits = model(input_ids=ids, attention_mask=mask).logits
        for row_index, item in enumerate(live):
            e = encoded[item]
            first = len(e.prompt) - 1
            # Position i predicts token i + 1: the continuation is predicted from len(prompt) - 1 on.
            chosen, z_scores = _score_positions(logits[row_index, first:first + len(e.continuation)],
                                                torch.tensor(e.continuation, device=device))
            results[item] = TokenScores(tuple((start, end, score) for (start, end), score in zip(e.spans, chosen)),
                                        tuple(z_scores))
    return results


def _score_positions(logits: Any, targets: Any) -> tuple[list[float], list[float]]:
    """Each target's log-probability and Min-K%++ z-score from one row's ``logits`` (positions ×
    vocabulary), a chunk of positions at a time so no full set of distributions is held."""
    import torch  # heavy, optional: the 'local' extra

    chosen: list[float] = []
    z_scores: list[float] = []
    for start in range(0, len(targets), POSITIONS_PER_CHUNK):
        stop = start + POSITIONS_PER_CHUNK
        # Single precision, as the scores always were: the moments' relative error stays ~1e-6.
        logprobs = torch.log_softmax(logits[start:stop].float(), dim=-1)
        chunk_targets = targets[start:stop]
        chosen += logprobs.gather(1, chunk_targets.unsqueeze(1)).squeeze(1).tolist()
        z_scores += token_z_scores(logprobs, chunk_targets).tolist()
    return [float(x) for x in chosen], [float(z) for z in z_scores]
