"""The fine-tuning settings the paper names: precision, weight decay and which layers LoRA adapts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_alias.exposure.finetune import (TRAINING_FILE, FinetuneError, FinetuneSettings, lora_targets,
                                            matched_modules, train_lora)

torch = pytest.importorskip("torch")
pytest.importorskip("peft")


def test_defaults_are_appendix_e() -> None:
    settings = FinetuneSettings()
    assert settings.dtype == "fp16" and settings.weight_decay == 0.0 and settings.lora_layers == "all"
    assert settings.target_modules == ("q_proj", "k_proj", "v_proj", "o_proj")
    assert settings.to_dict()["dtype"] == "fp16"


@pytest.mark.parametrize(("field", "value", "message"), [
    ("dtype", "fp8", "dtype must be one of fp16, bf16, fp32"),
    ("lora_layers", "vision", "lora_layers must be one of all, text"),
    ("weight_decay", 1.5, "weight_decay must lie in"),
    ("target_modules", (), "target_modules must name"),
])
def test_bad_settings_are_one_error(field: str, value: Any, message: str) -> None:
    with pytest.raises(FinetuneError, match=message):
        FinetuneSettings(**{field: value})


class _Attention(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.q_proj, self.v_proj = torch.nn.Linear(4, 4), torch.nn.Linear(4, 4)


class _Layers(torch.nn.Module):
    def __init__(self, count: int) -> None:
        super().__init__()
        self.layers = torch.nn.ModuleList(torch.nn.ModuleDict({"self_attn": _Attention()}) for _ in range(count))


class _Multimodal(torch.nn.Module):
    """The shape of Gemma's multimodal model: a vision tower beside the language model, both with q/v."""

    def __init__(self) -> None:
        super().__init__()
        self.model = torch.nn.ModuleDict({"vision_tower": _Layers(2), "language_model": _Layers(3),
                                          "multi_modal_projector": torch.nn.ModuleDict({"q_proj": torch.nn.Linear(4, 4)})})


def test_text_layers_leave_the_vision_tower_and_projector_out() -> None:
    model = _Multimodal()
    every = matched_modules(model, ("q_proj", "v_proj"), "all")
    text = matched_modules(model, ("q_proj", "v_proj"), "text")
    assert len(every) == 2 * 2 + 3 * 2 + 1 and len(text) == 3 * 2
    assert all(name.startswith("model.language_model.layers.") for name in text)
    assert lora_targets(model, ("q_proj", "v_proj"), "text") == text  # full names: PEFT adapts exactly these
    assert lora_targets(model, ("q_proj", "v_proj"), "all") == ["q_proj", "v_proj"]  # suffixes, as before


def test_a_module_name_the_model_lacks_is_an_error() -> None:
    with pytest.raises(FinetuneError, match="no module named k_proj"):
        matched_modules(_Multimodal(), ("k_proj",))
    only_vision = torch.nn.ModuleDict({"vision_tower": _Layers(1)})
    with pytest.raises(FinetuneError, match="in the text layers"):
        matched_modules(only_vision, ("q_proj",), "text")


def _tiny(tokenizer: Any) -> Any:
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(1)
    return LlamaForCausalLM(LlamaConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64,
                                        num_hidden_layers=1, num_attention_heads=2, num_key_value_heads=2,
                                        max_position_embeddings=512, initializer_range=0.5))


def test_weight_decay_reaches_the_optimizer_and_training_json(tokenizer: Any, tmp_path: Path) -> None:
    """A decay shrinks the LoRA weights: the two adapters differ, and training.json says which decay and dtype."""
    from safetensors.torch import load_file

    from pytest_alias.exposure.data import pair_example
    from pytest_alias.tasks.model import Task

    spec = "---- MODULE Clock ----\nVARIABLE hr\nInit == hr = 1\nNext == hr' = hr\n====\n"
    examples = [pair_example(Task("clock", "A clock.", (("Clock", spec),)), "A")]
    norms = {}
    for decay in (0.0, 0.9):
        settings = FinetuneSettings(rank=4, alpha=8, epochs=3, learning_rate=5e-2, warmup_steps=0,
                                    weight_decay=decay, dtype="fp32", gradient_checkpointing=False)
        out = tmp_path / str(decay)
        train_lora(_tiny(tokenizer), tokenizer, examples, out, settings=settings)
        recorded = json.loads((out / TRAINING_FILE).read_text())
        assert recorded["settings"]["weight_decay"] == decay and recorded["settings"]["dtype"] == "fp32"
        assert recorded["weights_dtype"] == "float32" and recorded["lora_modules"] == 4  # q, k, v, o of one layer
        assert recorded["precision"]["mode"] == "fp32" and recorded["precision"]["autocast"] is None
        assert recorded["precision"]["loss_scaling"] is None and recorded["precision"]["final_loss_scale"] is None
        weights = load_file(str(out / "adapter_model.safetensors"))
        norms[decay] = sum(float(w.float().norm()) for w in weights.values())
    assert norms[0.9] < norms[0.0]  # decoupled decay pulls the weights toward 0


def test_fp16_is_mixed_precision_over_fp16_base_weights_with_fp32_lora_weights(tokenizer: Any,
                                                                              tmp_path: Path) -> None:
    """Appendix E's default, as the Trainer's fp16=True: fp16 base weights, fp32 LoRA weights, fp16 autocast,
    dynamic loss scaling, a finite loss — all of it in training.json (on the CPU through ``allow_cpu_fp16``)."""
    import math

    from safetensors.torch import load_file

    from pytest_alias.exposure.data import pair_example
    from pytest_alias.tasks.model import Task

    spec = "---- MODULE Clock ----\nVARIABLE hr\nInit == hr = 1\nNext == hr' = hr\n====\n"
    examples = [pair_example(Task("clock", "A clock.", (("Clock", spec),)), "A")]
    settings = FinetuneSettings(rank=4, alpha=8, epochs=2, learning_rate=1e-2, warmup_steps=0)
    result = train_lora(_tiny(tokenizer).to(torch.float16), tokenizer, examples, tmp_path, settings=settings,
                        allow_cpu_fp16=True)
    assert len(result.losses) == 2 and all(math.isfinite(loss) for loss in result.losses)
    recorded = json.loads((tmp_path / TRAINING_FILE).read_text())
    assert recorded["weights_dtype"] == "float16" and recorded["settings"]["dtype"] == "fp16"
    assert recorded["precision"] == {"mode": "mixed-fp16", "device": "cpu", "base_weights": "float16",
                                     "trainable_weights": "float32", "autocast": "float16",
                                     "loss_scaling": "dynamic", "skipped_steps": [], "initial_loss_scale": 65536.0,
                                     "final_loss_scale": 65536.0}
    assert {str(w.dtype) for w in load_file(str(tmp_path / "adapter_model.safetensors")).values()} == {"torch.float32"}
