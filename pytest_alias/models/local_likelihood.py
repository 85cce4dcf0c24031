"""Token log-likelihoods of a continuation (a reference spec) given a prompt, for local models.

The paper (Section 3, "Log-likelihood") scores the first 2,048 tokens of description and reference
together and reports the mean token log-likelihood of the reference, and also the mean over the
tokens that do not overlap a renamed identifier. ``TokenScores`` keeps one score per continuation
token with its character span, so a caller can take either mean.

torch is imported inside the functions that need it; the span arithmetic is plain Python.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Sequence

#: The length limit used in training (appendix E) and for scoring.
MAX_SCORED_TOKENS = 2048

Span = tuple[int, int]


@dataclass(frozen=True)
class TokenScores:
    """Per-token log-probabilities of a continuation: ``(char_start, char_end, logprob)`` each.

    Offsets index the continuation string; tokens past the 2,048-token limit are absent.
    """

    tokens: tuple[tuple[int, int, float], ...]

    def __iter__(self) -> Iterator[tuple[int, int, float]]:
        return iter(self.tokens)

    def __len__(self) -> int:
        return len(self.tokens)

    def mean(self) -> float | None:
        """Mean log-probability over every scored token, or None when none was scored."""
        return _mean(score for _, _, score in self.tokens)

    def total(self) -> float:
        """Sum of the log-probabilities of the scored tokens."""
        return math.fsum(score for _, _, score in self.tokens)

    def mean_outside(self, spans_to_exclude: Iterable[Span]) -> float | None:
        """Mean over the tokens that overlap none of ``spans_to_exclude`` (half-open char spans).

        A token overlaps a span when they share at least one character; None when no token is left.
        """
        spans = [(start, end) for start, end in spans_to_exclude if end > start]
        kept = (score for start, end, score in self.tokens
                if not any(start < span_end and span_start < end for span_start, span_end in spans))
        return _mean(kept)


def mean_outside(tokens: Iterable[tuple[int, int, float]], spans_to_exclude: Iterable[Span]) -> float | None:
    """``TokenScores.mean_outside`` for a plain list of ``(char_start, char_end, logprob)``."""
    return TokenScores(tuple(tokens)).mean_outside(spans_to_exclude)


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
    import torch

    prompt_ids = list(tokenizer(prompt_text, add_special_tokens=not prompt_has_special_tokens)["input_ids"])
    continuation_ids = list(tokenizer(continuation, add_special_tokens=False)["input_ids"])
    spans = continuation_offsets(tokenizer, continuation, continuation_ids)
    room = max(max_tokens - len(prompt_ids), 0)
    continuation_ids, spans = continuation_ids[:room], spans[:room]
    if not continuation_ids or not prompt_ids:
        return TokenScores(())
    device = next(model.parameters()).device
    ids = torch.tensor([prompt_ids + continuation_ids], device=device)
    with torch.no_grad():
        logits = model(input_ids=ids, attention_mask=torch.ones_like(ids)).logits[0]
    # Position i predicts token i + 1: the continuation's tokens are predicted from len(prompt) - 1 on.
    predicting = logits[len(prompt_ids) - 1:ids.shape[1] - 1].float()
    logprobs = torch.log_softmax(predicting, dim=-1)
    targets = torch.tensor(continuation_ids, device=device).unsqueeze(1)
    chosen = logprobs.gather(1, targets).squeeze(1).tolist()
    return TokenScores(tuple((start, end, float(score)) for (start, end), score in zip(spans, chosen)))
