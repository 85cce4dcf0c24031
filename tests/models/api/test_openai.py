"""The OpenAI backend against a local fake of the OpenAI API, through the real ``openai`` SDK."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest

openai = pytest.importorskip("openai")

from fake_server import OUTPUT_TOKENS, FakeAPIServer, input_tokens, provider_fixtures, reply_text  # noqa: E402

from pytest_alias.models import DecodingParams, GenerationRequest, ModelRegistry  # noqa: E402
from pytest_alias.models.api_config import ModelConfigError  # noqa: E402
from pytest_alias.models.openai_model import GPT5_MODEL, OpenAIModel, create_gpt5, create_openai  # noqa: E402
from pytest_alias.models.prompts import frontier_prompt  # noqa: E402

BATCHES = "/v1/batches"

Make = Callable[..., OpenAIModel]


server, make = provider_fixtures("OPENAI_API_KEY", "sk-test", create_gpt5, "/v1")


def requests(n: int = 3) -> list[GenerationRequest]:
    return [GenerationRequest("clock", "random", sample, frontier_prompt(f"A renamed clock {sample}."), seed=sample)
            for sample in range(n)]


def uploaded_lines(server: FakeAPIServer, batch_number: int) -> list[dict[str, Any]]:
    batch = list(server.state.batches.values())[batch_number]
    return batch["items"]


def journals(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "journal").glob("*.json")) if (tmp_path / "journal").is_dir() else []


def test_batch_completes_through_an_uploaded_jsonl_file(server: FakeAPIServer, tmp_path: Path, make: Make) -> None:
    model = make()
    batch = requests()
    out = model.generate(batch, DecodingParams())
    assert [g.text for g in out] == [reply_text(r.prompt) for r in batch]
    assert server.state.count("POST", "/v1/files") == 1 and server.state.count("POST", BATCHES) == 1
    created = next(body for path, body in server.state.bodies if path == BATCHES)
    assert created["endpoint"] == "/v1/chat/completions" and created["completion_window"] == "24h"
    line = uploaded_lines(server, 0)[0]
    assert line["method"] == "POST" and line["url"] == "/v1/chat/completions"
    assert line["body"] == {"model": "gpt-5", "messages": [{"role": "user", "content": batch[0].prompt}]}
    first = out[0]
    assert first.model == model.identity == "openai:gpt-5;max_tokens=default"
    assert first.finish_reason == "stop" and not first.truncated
    assert first.usage["input_tokens"] == input_tokens(batch[0].prompt)
    assert first.usage["output_tokens"] == OUTPUT_TOKENS
    assert first.usage["completion_tokens_details.reasoning_tokens"] == 40
    assert first.cost_usd == pytest.approx((input_tokens(batch[0].prompt) * 1.25 + OUTPUT_TOKENS * 10.0) / 1e6 * 0.5)
    assert first.raw["response"]["status_code"] == 200 and first.raw["custom_id"] == line["custom_id"]
    json.dumps(first.to_dict())
    assert journals(tmp_path) == []


def test_failed_lines_are_resubmitted_alone(server: FakeAPIServer, tmp_path: Path, make: Make) -> None:
    batch = requests(4)
    server.state.fail_prompts = {batch[0].prompt: 1, batch[2].prompt: 1}
    out = make().generate(batch, DecodingParams())
    assert [g.text for g in out] == [reply_text(r.prompt) for r in batch]
    assert server.state.batch_sizes() == [4, 2]
    first_ids = [line["custom_id"] for line in uploaded_lines(server, 0)]
    assert [line["custom_id"] for line in uploaded_lines(server, 1)] == [first_ids[0], first_ids[2]]


def test_lasting_line_failure_raises_with_the_error(server: FakeAPIServer, tmp_path: Path, make: Make) -> None:
    batch = requests(2)
    server.state.fail_prompts = {batch[1].prompt: 5}
    out = make(resubmissions=0).generate(batch, DecodingParams())
    assert out[0].error is None and out[0].text == reply_text(batch[0].prompt)
    assert out[1].error is not None and "server_error" in out[1].error
    assert server.state.batch_sizes() == [2] and len(journals(tmp_path)) == 1


def test_interrupted_run_resumes_the_same_batch(server: FakeAPIServer, tmp_path: Path, make: Make) -> None:
    server.state.pending_polls = 3
    batch = requests()

    def interrupt(seconds: float) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        make(sleep=interrupt).generate(batch, DecodingParams())
    [journal] = journals(tmp_path)
    batch_id = json.loads(journal.read_text())["batches"][0]["id"]
    out = make().generate(batch, DecodingParams())
    assert [g.text for g in out] == [reply_text(r.prompt) for r in batch]
    assert server.state.count("POST", BATCHES) == 1 and server.state.count("POST", "/v1/files") == 1
    assert server.state.count("GET", f"{BATCHES}/{batch_id}") >= 3
    assert journals(tmp_path) == []


def test_missing_key_is_one_clear_error_at_creation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    for build in (lambda: create_gpt5(), lambda: create_openai("gpt-5-mini")):
        with pytest.raises(ModelConfigError, match="OPENAI_API_KEY") as caught:
            build()
        assert "\n" not in str(caught.value)


def test_direct_mode_and_sampling_parameters(server: FakeAPIServer, tmp_path: Path, make: Make) -> None:
    model = make(batch="0", max_tokens="4000")
    batch = requests(2)
    out = model.generate(batch, DecodingParams(temperature=1.0, stop="===="))
    assert [g.text for g in out] == [reply_text(r.prompt) for r in batch]
    assert server.state.count("POST", "/v1/chat/completions") == 2 and server.state.count("POST", BATCHES) == 0
    sent = [body for path, body in server.state.bodies if path == "/v1/chat/completions"]
    assert {(b["max_completion_tokens"], b["temperature"], tuple(b["stop"])) for b in sent} == {(4000, 1.0, ("====",))}
    assert model.identity == "openai:gpt-5;max_tokens=4000"
    assert out[0].raw["object"] == "chat.completion"
    assert out[0].cost_usd == pytest.approx((input_tokens(batch[0].prompt) * 1.25 + OUTPUT_TOKENS * 10.0) / 1e6)


def test_transient_errors_are_retried(server: FakeAPIServer, tmp_path: Path, make: Make) -> None:
    server.inject("POST", "/v1/files", 500, times=3)
    server.inject("GET", BATCHES, 429, times=3)
    out = make().generate(requests(2), DecodingParams())
    assert len(out) == 2 and server.state.count("POST", BATCHES) == 1


def test_registration_lines(server: FakeAPIServer, tmp_path: Path) -> None:
    registry = ModelRegistry()
    registry.register("gpt-5", "pytest_alias.models.openai_model:create_gpt5")
    registry.register("openai", "pytest_alias.models.openai_model:create_openai", prefix=True)
    assert registry.create("gpt-5").model_id == GPT5_MODEL
    model = registry.create(f"openai:gpt-5-mini?batch=no&base_url={server.url}/v1")
    assert isinstance(model, OpenAIModel) and not model.batch and model.price is not None
    out = model.generate(requests(1), DecodingParams())
    model.close()
    assert out[0].text == reply_text(requests(1)[0].prompt)
