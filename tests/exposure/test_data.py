"""Training examples and the loss mask: only specification tokens carry labels (appendix E)."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_alias.exposure.data import (IGNORED_LABEL, TrainingExample, encode_example, pair_example,
                                        training_examples)
from pytest_alias.models.prompts import finetune_prompt
from pytest_alias.tasks.model import Task

SPEC = "---- MODULE Clock ----\nEXTENDS Naturals\nVARIABLE hr\nInit == hr = 1\nNext == hr' = hr % 12 + 1\n====\n"


def clock(task_id: str = "clock") -> Task:
    return Task(task_id, "A clock that shows the hour.", (("Clock", SPEC),))


@pytest.fixture(scope="module")
def smollm2_tokenizer(tokenizer: Any) -> Any:
    """SmolLM2's real tokenizer (the session's, see conftest.py); skipped without it."""
    pytest.importorskip("transformers")
    return tokenizer


def test_task_pair_and_spec_only_arms_hold_what_the_paper_says() -> None:
    pool, half = [clock("pool-task")], [clock("seen-task")]
    pairs = training_examples(pool, half, "A", "task-pair")
    assert [(e.task_id, e.source) for e in pairs] == [("pool-task", "pool"), ("seen-task", "A")]
    assert all(e.prompt == finetune_prompt("A clock that shows the hour.") and e.target == SPEC for e in pairs)
    raw = training_examples(pool, half, "B", "spec-only")
    assert raw[0] == pair_example(pool[0], "pool")  # the pool stays as description-specification pairs
    assert raw[1] == TrainingExample("seen-task", "B", "", SPEC)  # the half as the raw file alone
    with pytest.raises(ValueError, match="unknown arm"):
        training_examples(pool, half, "A", "both")


def test_only_specification_tokens_carry_labels_on_the_real_tokenizer(smollm2_tokenizer: object) -> None:
    tokenizer = smollm2_tokenizer
    example = pair_example(clock(), "A")
    encoded = encode_example(tokenizer, example)
    prompt_ids = tokenizer(example.prompt)["input_ids"]
    spec_ids = tokenizer(SPEC, add_special_tokens=False)["input_ids"]
    assert list(encoded.input_ids) == list(prompt_ids) + list(spec_ids)
    assert list(encoded.labels[:len(prompt_ids)]) == [IGNORED_LABEL] * len(prompt_ids)
    assert list(encoded.labels[len(prompt_ids):]) == list(spec_ids)
    labelled = [token for token in encoded.labels if token != IGNORED_LABEL]
    assert tokenizer.decode(labelled) == SPEC and encoded.target_tokens == len(spec_ids)
    assert not encoded.truncated


def test_sequences_are_cut_to_the_token_limit(smollm2_tokenizer: object) -> None:
    example = pair_example(Task("long", "A clock.", (("Clock", SPEC * 40),)), "A")
    encoded = encode_example(smollm2_tokenizer, example, max_tokens=64)
    assert len(encoded.input_ids) == len(encoded.labels) == 64 and encoded.truncated
    raw = encode_example(smollm2_tokenizer, TrainingExample("clock", "A", "", SPEC))
    # A raw file has no prompt: every token but a first one that nothing precedes carries a label.
    assert raw.target_tokens >= len(raw.input_ids) - 1
    assert smollm2_tokenizer.decode([t for t in raw.labels if t != IGNORED_LABEL]).strip() in SPEC
