"""Log-likelihood of a reference given a prompt on a tiny offline Llama, and the span arithmetic."""

from __future__ import annotations

import math
import os

import pytest

from pytest_alias.models.local_likelihood import TokenScores

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from tinylm_builder import MODULE_LINES, PROMPT_LINES, build_tiny_lm  # noqa: E402

from pytest_alias.models import log_likelihood  # noqa: E402
from pytest_alias.models.local import LocalModel, create_local  # noqa: E402

os.environ["HF_HUB_OFFLINE"] = "1"


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> LocalModel:
    return create_local(str(build_tiny_lm(tmp_path_factory.mktemp("tiny-lm-ll"))), prompt_style="raw")


def test_mean_matches_a_hand_computation(tiny: LocalModel) -> None:
    prompt, continuation = PROMPT_LINES[0], "".join(MODULE_LINES[:3]) + "hr' = 2\n"
    prompt_ids = tiny.tokenizer(prompt)["input_ids"]
    continuation_ids = tiny.tokenizer(continuation, add_special_tokens=False)["input_ids"]
    ids = torch.tensor([prompt_ids + continuation_ids])
    with torch.no_grad():
        logprobs = torch.log_softmax(tiny.model(ids).logits[0].double(), dim=-1)
    by_hand = [logprobs[len(prompt_ids) - 1 + i, token].item() for i, token in enumerate(continuation_ids)]
    value = log_likelihood(tiny, prompt, continuation)
    assert value is not None and math.isfinite(value) and value < 0
    assert value == pytest.approx(sum(by_hand) / len(by_hand), abs=1e-4)


def test_offsets_cover_the_continuation(tiny: LocalModel) -> None:
    continuation = "".join(MODULE_LINES[:5]) + "an unknown line"
    scores = tiny.token_log_likelihoods(PROMPT_LINES[0], continuation)
    spans = [(start, end) for start, end, _ in scores]
    assert spans[0][0] == 0 and spans[-1][1] == len(continuation)
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))
    assert [continuation[s:e] for s, e in spans] == [*MODULE_LINES[:5], "an unknown line"]
    assert all(score <= 0 for _, _, score in scores) and scores.mean() < 0
    # The chained lines are likely, the unknown one is not: excluding it raises the mean.
    unknown = (len(continuation) - 3, len(continuation))
    assert scores.mean_outside([unknown]) > scores.mean()
    assert scores.mean_outside([(0, len(continuation))]) is None


def test_scoring_keeps_the_first_2048_tokens(tiny: LocalModel) -> None:
    long = MODULE_LINES[1] * 3000
    scores = tiny.token_log_likelihoods(PROMPT_LINES[0], long)
    assert len(scores) == 2048 - 1  # one prompt token
    assert tiny.log_likelihood(MODULE_LINES[1] * 2048, "x") is None  # the prompt fills the window


def test_token_scores_span_arithmetic() -> None:
    scores = TokenScores(((0, 3, -1.0), (3, 4, -3.0), (4, 9, -2.0)))
    assert scores.mean() == pytest.approx(-2.0) and scores.total() == pytest.approx(-6.0)
    assert scores.mean_outside([(3, 4)]) == pytest.approx(-1.5)
    assert scores.mean_outside([(2, 3)]) == pytest.approx(-2.5)  # overlapping one character is enough
    assert scores.mean_outside([(3, 3), (9, 12)]) == pytest.approx(-2.0)  # empty and outside spans
    assert TokenScores(()).mean() is None
