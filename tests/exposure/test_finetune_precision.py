"""fp16 training as the Trainer's ``fp16=True`` does it: autocast, a GradScaler, skipped steps, the CPU's refusal.

The mixed-precision path runs here on the CPU through ``allow_cpu_fp16`` (torch's CPU fp16 kernels) on a
tiny random Llama; on a real run it needs CUDA.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest

from pytest_alias.exposure.data import pair_example
from pytest_alias.exposure.finetune import (CHECKPOINT_DIR, TRAINING_FILE, FinetuneError, FinetuneSettings,
                                            check_precision_device, train_lora)
from pytest_alias.tasks.model import Task

torch = pytest.importorskip("torch")
pytest.importorskip("peft")

SPEC = "---- MODULE Clock ----\nEXTENDS Naturals\nVARIABLE hr\nInit == hr = 1\nNext == hr' = hr % 12 + 1\n====\n"
EXAMPLES = [pair_example(Task("clock", "A clock that shows the hour.", (("Clock", SPEC),)), "A")]
MIXED = FinetuneSettings(rank=4, alpha=8, epochs=4, learning_rate=5e-2, warmup_steps=0, checkpoint_every=2,
                         gradient_checkpointing=False)


def tiny_model(tokenizer: Any, dtype: Any = None) -> Any:
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(1)
    model = LlamaForCausalLM(LlamaConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64,
                                         num_hidden_layers=1, num_attention_heads=2, num_key_value_heads=2,
                                         max_position_embeddings=512, initializer_range=0.5))
    return model.to(dtype) if dtype is not None else model


_GradScaler: Any = torch.amp.GradScaler


class SpyScaler(_GradScaler):
    """A GradScaler that counts what train_lora asks of it."""

    made: list["SpyScaler"] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.calls: dict[str, int] = {"scale": 0, "unscale_": 0, "step": 0, "update": 0}
        SpyScaler.made.append(self)

    def scale(self, outputs: Any) -> Any:
        self.calls["scale"] += 1
        return super().scale(outputs)

    def unscale_(self, optimizer: Any) -> None:
        self.calls["unscale_"] += 1
        super().unscale_(optimizer)

    def step(self, optimizer: Any, *args: Any, **kwargs: Any) -> Any:
        self.calls["step"] += 1
        return super().step(optimizer, *args, **kwargs)

    def update(self, new_scale: Any = None) -> None:
        self.calls["update"] += 1
        super().update(new_scale)


def _autocast_seen(model: Any) -> list[Any]:
    """The autocast dtype (or None) each forward pass of ``model``'s first attention ran under."""
    seen: list[Any] = []
    layer = next(module for name, module in model.named_modules() if name.endswith("self_attn"))

    def hook(module: Any, inputs: Any) -> None:
        seen.append(torch.get_autocast_dtype("cpu") if torch.is_autocast_enabled("cpu") else None)

    layer.register_forward_pre_hook(hook)
    return seen


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> type[SpyScaler]:
    SpyScaler.made = []
    monkeypatch.setattr(torch.amp, "GradScaler", SpyScaler)
    return SpyScaler


def test_fp16_scales_the_loss_and_autocasts_the_forward_pass(tokenizer: Any, tmp_path: Path,
                                                            spy: type[SpyScaler]) -> None:
    model = tiny_model(tokenizer, torch.float16)
    seen = _autocast_seen(model)
    result = train_lora(model, tokenizer, EXAMPLES, tmp_path, settings=MIXED, allow_cpu_fp16=True)
    assert len(spy.made) == 1 and spy.made[0].calls == {"scale": 4, "unscale_": 4, "step": 4, "update": 4}
    assert seen == [torch.float16] * 4
    assert result.skipped_steps == [] and result.losses[-1] < result.losses[0]
    assert result.precision["mode"] == "mixed-fp16" and result.precision["loss_scaling"] == "dynamic"


def test_fp32_trains_without_a_scaler_or_autocast(tokenizer: Any, tmp_path: Path, spy: type[SpyScaler]) -> None:
    model = tiny_model(tokenizer)
    seen = _autocast_seen(model)
    settings = FinetuneSettings(rank=4, alpha=8, epochs=2, warmup_steps=0, dtype="fp32", gradient_checkpointing=False)
    result = train_lora(model, tokenizer, EXAMPLES, tmp_path, settings=settings)
    assert spy.made == [] and seen == [None, None]
    assert result.precision["mode"] == "fp32" and result.precision["base_weights"] == "float32"


def test_an_overflowing_step_is_skipped_and_leaves_the_schedule(tokenizer: Any, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A loss scale of 2^40 overflows fp16 gradients: the scaler skips the update, halves the scale, and the
    learning rate stays where it was (the Trainer's rule); the adapter keeps LoRA's zero B matrices."""
    from safetensors.torch import load_file

    monkeypatch.setattr(torch.amp, "GradScaler", functools.partial(torch.amp.GradScaler, init_scale=2.0 ** 40))
    settings = FinetuneSettings(rank=4, alpha=8, epochs=3, warmup_steps=0, gradient_checkpointing=False)
    result = train_lora(tiny_model(tokenizer, torch.float16), tokenizer, EXAMPLES, tmp_path, settings=settings,
                        allow_cpu_fp16=True)
    assert result.skipped_steps == [0, 1, 2]
    recorded = json.loads((tmp_path / TRAINING_FILE).read_text())
    assert recorded["precision"]["skipped_steps"] == [0, 1, 2]
    assert recorded["precision"]["final_loss_scale"] == 2.0 ** 37
    lora_b = [w for name, w in load_file(str(tmp_path / "adapter_model.safetensors")).items() if "lora_B" in name]
    assert lora_b and all(float(w.abs().max()) == 0.0 for w in lora_b)


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


def test_a_mixed_precision_training_resumes_with_its_loss_scale(tokenizer: Any, tmp_path: Path) -> None:
    whole = train_lora(tiny_model(tokenizer, torch.float16), tokenizer, EXAMPLES, tmp_path / "whole",
                       settings=MIXED, allow_cpu_fp16=True)
    with pytest.raises(KeyboardInterrupt):
        train_lora(tiny_model(tokenizer, torch.float16), tokenizer, EXAMPLES, tmp_path / "cut", settings=MIXED,
                   allow_cpu_fp16=True, progress=lambda done, total: StopAfter(3))
    state = torch.load(tmp_path / "cut" / CHECKPOINT_DIR / "state.pt", weights_only=False)
    assert state["scaler"]["scale"] == 65536.0 and state["step"] == 2
    resumed = train_lora(tiny_model(tokenizer, torch.float16), tokenizer, EXAMPLES, tmp_path / "cut",
                         settings=MIXED, allow_cpu_fp16=True)
    assert resumed.resumed_at == 2 and resumed.losses == pytest.approx(whole.losses, abs=1e-6)
    assert resumed.precision == whole.precision


def test_fp16_on_a_cpu_is_one_error_naming_fp32(tokenizer: Any, tmp_path: Path) -> None:
    with pytest.raises(FinetuneError, match="needs a CUDA GPU; on a CPU pass --dtype fp32 \\(or bf16\\)"):
        train_lora(tiny_model(tokenizer, torch.float16), tokenizer, EXAMPLES, tmp_path, settings=MIXED)
    assert not any(tmp_path.iterdir())  # refused before anything was written
    check_precision_device("fp16", "cuda")
    check_precision_device("fp32", "cpu")
    check_precision_device("bf16", "cpu")


@pytest.mark.skipif(torch.cuda.is_available(), reason="the refusal is a CPU's")
def test_the_finetune_command_refuses_fp16_on_a_cpu_before_loading_weights(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("gguf")
    from pytest_alias.cli import main
    from pytest_alias.exposure.split import make_split
    from pytest_alias.models.local import LocalModel
    from pytest_alias.tasks.suites import load_suite

    split = tmp_path / "split.json"
    make_split(load_suite("builtin"), suite="builtin").write(split)

    def no_weights(self: Any) -> Any:
        raise AssertionError("the weights were loaded")

    monkeypatch.setattr(LocalModel, "model", property(no_weights))
    code = main(["finetune", "--base", "smollm2", "--split", str(split), "--half", "A", "--out", str(tmp_path / "a")])
    err = capsys.readouterr().err
    assert code == 2 and "--dtype fp32" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_records_of_an_adapter_repeat_its_precision() -> None:
    from pytest_alias.models.local import _training_settings

    trained = {"settings": {"dtype": "fp16", "weight_decay": 0.0}, "precision": {"mode": "mixed-fp16"}}
    assert _training_settings(trained) == {"training": {"dtype": "fp16", "weight_decay": 0.0,
                                                        "precision": "mixed-fp16"}}
    assert _training_settings({"settings": {"dtype": "fp16"}}) == {"training": {"dtype": "fp16"}}


def test_only_fp16_changes_the_fingerprint_so_finished_fp32_and_bf16_adapters_stay_valid() -> None:
    from pytest_alias.exposure.finetune import _fingerprint, _precision_key

    for dtype, changed in (("fp32", False), ("bf16", False), ("fp16", True)):
        settings = FinetuneSettings(dtype=dtype)
        before = _fingerprint(settings, "digest", "base", {"half": "A"})  # what the old loop wrote
        now = _fingerprint(settings, "digest", "base", {"half": "A", **_precision_key(settings)})
        assert (now != before) is changed
