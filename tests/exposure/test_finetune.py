"""LoRA fine-tuning on a tiny randomly initialised Llama: the loss falls, the adapter loads, training resumes exactly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_alias.exposure.data import pair_example
from pytest_alias.exposure.finetune import (CHECKPOINT_DIR, TRAINING_FILE, FinetuneError, FinetuneSettings,
                                            epoch_order, mean_loss, schedule, train_lora)
from pytest_alias.tasks.model import Task

torch = pytest.importorskip("torch")
pytest.importorskip("peft")
pytest.importorskip("gguf")

SPEC = "---- MODULE Clock ----\nEXTENDS Naturals\nVARIABLE hr\nInit == hr = 1\nNext == hr' = hr % 12 + 1\n====\n"
EXAMPLES = [pair_example(Task("clock", "A clock that shows the hour.", (("Clock", SPEC),)), "A")]
# fp32: a CPU refuses fp16 (mixed precision needs CUDA); tests/exposure/test_finetune_precision.py runs it anyway.
FAST = FinetuneSettings(rank=8, alpha=16, epochs=6, learning_rate=5e-2, warmup_steps=0, checkpoint_every=2,
                        dtype="fp32")


def tiny_model(tokenizer: Any) -> Any:
    """The same tiny random Llama every call (seeded), with SmolLM2's vocabulary."""
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(1)
    config = LlamaConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=512,
                         initializer_range=0.5)  # peaked outputs, so attention changes move the loss
    return LlamaForCausalLM(config)


def test_a_few_steps_lower_the_loss_on_the_training_pair(tokenizer: Any, tmp_path: Path) -> None:
    from peft import PeftModel

    before = mean_loss(tiny_model(tokenizer), tokenizer, EXAMPLES[0])
    result = train_lora(tiny_model(tokenizer), tokenizer, EXAMPLES, tmp_path, settings=FAST,
                        info={"half": "A", "arm": "task-pair", "split": "s1"})
    assert result.steps == 6 and len(result.losses) == 6 and not result.already_done
    tuned = PeftModel.from_pretrained(tiny_model(tokenizer), str(tmp_path)).eval()  # the saved adapter
    after = mean_loss(tuned, tokenizer, EXAMPLES[0])
    assert after < before - 0.5, (before, after, result.losses)
    record = json.loads((tmp_path / TRAINING_FILE).read_text())
    assert record["half"] == "A" and record["settings"]["rank"] == 8 and record["steps"] == 6
    assert record["losses"] == result.losses and record["example_hashes"] == {"A:clock": EXAMPLES[0].digest()}
    assert record["target_tokens"] == len(tokenizer(SPEC, add_special_tokens=False)["input_ids"])
    assert not (tmp_path / CHECKPOINT_DIR).exists()
    again = train_lora(tiny_model(tokenizer), tokenizer, EXAMPLES, tmp_path, settings=FAST,
                       info={"half": "A", "arm": "task-pair", "split": "s1"})
    assert again.already_done and again.losses == result.losses and again.precision == result.precision
    assert result.precision["mode"] == "fp32" and record["precision"] == result.precision
    with pytest.raises(FinetuneError, match="other settings or data"):
        train_lora(tiny_model(tokenizer), tokenizer, EXAMPLES, tmp_path, settings=FAST, info={"half": "B"})


class StopAfter:
    """A progress meter that interrupts training after ``steps`` steps, as Ctrl-C would."""

    def __init__(self, steps: int) -> None:
        self.left = steps

    def update(self, count: int, **fields: Any) -> None:
        self.left -= count
        if self.left <= 0:
            raise KeyboardInterrupt

    def close(self) -> None:
        pass


def test_an_interrupted_training_resumes_from_its_checkpoint_exactly(tokenizer: Any, tmp_path: Path) -> None:
    whole = train_lora(tiny_model(tokenizer), tokenizer, EXAMPLES, tmp_path / "whole", settings=FAST)
    with pytest.raises(KeyboardInterrupt):
        train_lora(tiny_model(tokenizer), tokenizer, EXAMPLES, tmp_path / "cut", settings=FAST,
                   progress=lambda done, total: StopAfter(5))
    assert (tmp_path / "cut" / CHECKPOINT_DIR / "state.pt").is_file()
    assert not (tmp_path / "cut" / TRAINING_FILE).exists()
    resumed = train_lora(tiny_model(tokenizer), tokenizer, EXAMPLES, tmp_path / "cut", settings=FAST)
    assert resumed.resumed_at == 4  # the last checkpoint before the interruption
    assert resumed.losses == pytest.approx(whole.losses, abs=1e-6)


def test_warmup_is_capped_on_small_sets_and_the_schedule_decays_linearly() -> None:
    settings = FinetuneSettings()
    assert settings.warmup_for(1041) == 100  # the paper's 347 examples × 3 epochs: unchanged
    assert settings.warmup_for(51) == 6
    factor = schedule(settings, 51)
    assert factor(0) == pytest.approx(1 / 6) and factor(5) == pytest.approx(1.0)
    assert factor(6) == pytest.approx(45 / 45) and factor(50) == pytest.approx(1 / 45)
    assert epoch_order(10, 0, 0) == epoch_order(10, 0, 0) != epoch_order(10, 1, 0)
    assert sorted(epoch_order(10, 2, 0)) == list(range(10))
    with pytest.raises(FinetuneError, match="batch size 1"):
        FinetuneSettings(batch_size=4)
