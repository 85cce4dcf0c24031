"""The Claude backend against a local fake of the Anthropic API, through the real ``anthropic`` SDK."""

from __future__ import annotations

import json
import typing
from pathlib import Path
from typing import Callable

import pytest

anthropic = pytest.importorskip("anthropic")

from fake_server import OUTPUT_TOKENS, FakeAPIServer, input_tokens, provider_fixtures, reply_text  # noqa: E402

from pytest_alias.models import DecodingParams, GenerationRequest, GenerationStore, ModelRegistry  # noqa: E402
from pytest_alias.models.anthropic_model import (  # noqa: E402
    DEFAULT_MAX_TOKENS,
    OPUS_MODEL,
    AnthropicModel,
    create_claude,
    create_opus,
)
from pytest_alias.models.api_config import ModelConfigError  # noqa: E402
from pytest_alias.models.prompts import frontier_prompt  # noqa: E402
from pytest_alias.models.base import ModelUnreachableError  # noqa: E402

BATCHES = "/v1/messages/batches"

Make = Callable[..., AnthropicModel]


server, make = provider_fixtures("ANTHROPIC_API_KEY", "sk-ant-test", lambda **o: create_claude("claude-opus-4-8", **o))


def requests(n: int = 3) -> list[GenerationRequest]:
    return [GenerationRequest("clock", "original", sample, frontier_prompt(f"A clock number {sample}."), seed=sample)
            for sample in range(n)]


def journals(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "journal").glob("*.json")) if (tmp_path / "journal").is_dir() else []


def test_batch_completes_in_order_with_usage_cost_and_raw(server: FakeAPIServer, tmp_path: Path, make: Make) -> None:
    model = make()
    batch = requests()
    out = model.generate(batch, DecodingParams())
    assert [g.text for g in out] == [reply_text(r.prompt) for r in batch]  # thinking blocks are left out
    assert server.state.count("POST", BATCHES) == 1 and server.state.batch_sizes() == [3]
    assert server.state.count("POST", "/v1/messages") == 0
    params = server.state.bodies[0][1]["requests"][0]["params"]
    assert params == {"model": "claude-opus-4-8", "max_tokens": DEFAULT_MAX_TOKENS,
                      "messages": [{"role": "user", "content": batch[0].prompt}]}  # provider defaults otherwise
    first = out[0]
    assert first.model == model.identity == f"anthropic:claude-opus-4-8;max_tokens={DEFAULT_MAX_TOKENS}"
    assert first.finish_reason == "end_turn" and not first.truncated
    assert first.usage["input_tokens"] == input_tokens(batch[0].prompt)
    assert first.usage["output_tokens"] == OUTPUT_TOKENS
    expected = (input_tokens(batch[0].prompt) * 5.0 + OUTPUT_TOKENS * 25.0) / 1e6 * 0.5  # batch: half price
    assert first.cost_usd == pytest.approx(expected)
    assert first.raw["result"]["type"] == "succeeded" and first.raw["custom_id"].startswith("r00000-")
    json.dumps(first.to_dict())  # the store can write it
    assert journals(tmp_path) == []  # done: nothing left to resume


def test_partly_failed_batch_resubmits_only_the_failed_items(server: FakeAPIServer, tmp_path: Path, make: Make) -> None:
    batch = requests(4)
    server.state.fail_prompts = {batch[1].prompt: 1, batch[3].prompt: 1}
    out = make().generate(batch, DecodingParams())
    assert [g.text for g in out] == [reply_text(r.prompt) for r in batch]
    assert server.state.batch_sizes() == [4, 2]
    first_ids = [item["custom_id"] for item in server.state.bodies[0][1]["requests"]]
    second_ids = [item["custom_id"] for item in server.state.bodies[1][1]["requests"]]
    assert second_ids == [first_ids[1], first_ids[3]]


def test_expired_items_are_resubmitted_too(server: FakeAPIServer, tmp_path: Path, make: Make) -> None:
    batch = requests(2)
    server.state.fail_prompts = {batch[0].prompt: 1}
    server.state.fail_kind = "expired"
    out = make().generate(batch, DecodingParams())
    assert out[0].text == reply_text(batch[0].prompt) and server.state.batch_sizes() == [2, 1]


def test_lasting_failure_raises_keeps_journal_and_rerun_resubmits_only_failures(
        server: FakeAPIServer, tmp_path: Path, make: Make) -> None:
    batch = requests(3)
    server.state.fail_prompts = {batch[2].prompt: 2}
    # The finished items are answers; the lasting failure fails alone (its item becomes a model error).
    first = make(resubmissions=1).generate(batch, DecodingParams())
    assert [g.text for g in first[:2]] == [reply_text(r.prompt) for r in batch[:2]] and first[2].error
    assert "batch item failed after every re-submission" in first[2].error and not first[0].error
    assert server.state.batch_sizes() == [3, 1] and len(journals(tmp_path)) == 1
    out = make(resubmissions=1).generate(batch, DecodingParams())
    assert [g.text for g in out] == [reply_text(r.prompt) for r in batch]
    assert server.state.batch_sizes() == [3, 1, 1]  # the finished items came from the recorded batches
    assert journals(tmp_path) == []


def test_interrupted_run_resumes_the_same_batch(server: FakeAPIServer, tmp_path: Path, make: Make) -> None:
    server.state.pending_polls = 2
    batch = requests()

    def interrupt(seconds: float) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        make(sleep=interrupt).generate(batch, DecodingParams())
    [journal] = journals(tmp_path)
    recorded = json.loads(journal.read_text())["batches"]
    assert len(recorded) == 1 and len(recorded[0]["custom_ids"]) == 3
    batch_id = recorded[0]["id"]

    out = make().generate(batch, DecodingParams())
    assert [g.text for g in out] == [reply_text(r.prompt) for r in batch]
    assert server.state.count("POST", BATCHES) == 1  # picked up by id, never submitted again
    assert server.state.count("GET", f"{BATCHES}/{batch_id}") >= 2
    assert journals(tmp_path) == []


def test_a_vanished_recorded_batch_is_submitted_again(server: FakeAPIServer, tmp_path: Path, make: Make) -> None:
    batch = requests(2)
    model = make()

    def interrupt(seconds: float) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        make(sleep=interrupt).generate(batch, DecodingParams())
    server.state.batches.clear()  # the provider forgot it
    assert [g.text for g in model.generate(batch, DecodingParams())] == [reply_text(r.prompt) for r in batch]
    assert server.state.count("POST", BATCHES) == 2


def test_missing_key_is_one_clear_error_at_creation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    for build in (lambda: create_opus(), lambda: create_claude("claude-opus-4-8?batch=0")):
        with pytest.raises(ModelConfigError) as caught:
            build()
        message = str(caught.value)
        assert "ANTHROPIC_API_KEY" in message and "\n" not in message
    monkeypatch.setenv("ANTHROPIC_API_KEY", "  ")
    with pytest.raises(ModelConfigError, match="ANTHROPIC_API_KEY"):
        create_opus()


def test_direct_mode_calls_the_messages_api(server: FakeAPIServer, tmp_path: Path, make: Make) -> None:
    model = make(batch=False, concurrency=2)
    batch = requests()
    params = DecodingParams(temperature=0.7, top_p=0.95, max_new_tokens=2000, stop=("====",))
    out = model.generate(batch, params)
    assert [g.text for g in out] == [reply_text(r.prompt) for r in batch]
    assert server.state.count("POST", "/v1/messages") == 3 and server.state.count("POST", BATCHES) == 0
    sent = [body for path, body in server.state.bodies if path == "/v1/messages"]
    assert {(b["temperature"], b["top_p"], b["max_tokens"], tuple(b["stop_sequences"])) for b in sent} == {
        (0.7, 0.95, 2000, ("====",))}
    assert out[0].raw["type"] == "message" and out[0].seconds > 0
    assert out[0].cost_usd == pytest.approx((input_tokens(batch[0].prompt) * 5.0 + OUTPUT_TOKENS * 25.0) / 1e6)
    assert journals(tmp_path) == []


def test_rate_limits_and_server_errors_are_retried(server: FakeAPIServer, tmp_path: Path, make: Make) -> None:
    server.inject("POST", "/v1/messages", 429, times=3)  # beyond the SDK's one retry: our loop takes over
    out = make(batch=False).generate(requests(1), DecodingParams())
    assert out[0].text == reply_text(requests(1)[0].prompt)
    server.inject("GET", BATCHES, 500, times=3)
    server.inject("POST", BATCHES, 529, times=1)
    out = make().generate(requests(2), DecodingParams())
    assert len(out) == 2 and server.state.count("POST", BATCHES) == 2  # a 529, then the SDK's retry


def test_exhausted_retries_and_client_errors_fail_only_their_request(server: FakeAPIServer, tmp_path: Path,
                                                                     make: Make) -> None:
    server.inject("POST", "/v1/messages", 503, times=10)
    exhausted = make(batch=False, error_retries=2).generate(requests(1), DecodingParams())
    assert exhausted[0].error is not None and "failed after 3 attempts" in exhausted[0].error
    assert "APIModelError" in exhausted[0].error and "Traceback" in exhausted[0].raw["error_detail"]
    server.state.injected.clear()
    server.inject("POST", "/v1/messages", 400, times=1)
    out = make(batch=False, concurrency=1).generate(requests(2), DecodingParams())
    assert out[0].error is not None and "BadRequestError" in out[0].error
    assert out[1].error is None and out[1].text == reply_text(requests(2)[1].prompt)  # its neighbour is answered
    assert server.state.count("POST", "/v1/messages") == 3 * 2 + 2  # no retry after a 400


def test_store_rerun_submits_nothing(server: FakeAPIServer, tmp_path: Path, make: Make) -> None:
    store = GenerationStore(tmp_path / "store")
    model = make()
    first = store.generate(model, requests(), DecodingParams())
    seen = len(server.state.requests)
    again = store.generate(make(), requests(), DecodingParams())
    assert [g.text for g in again] == [g.text for g in first] and all(g.from_store for g in again)
    assert len(server.state.requests) == seen


def test_spec_options_identity_and_registration(server: FakeAPIServer, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    registry = ModelRegistry()
    registry.register("opus", "pytest_alias.models.anthropic_model:create_opus")
    registry.register("claude", "pytest_alias.models.anthropic_model:create_claude", prefix=True)
    model = registry.create(f"claude:claude-opus-4-8?batch=0&max_tokens=100&price=1,2&base_url={server.url}")
    assert isinstance(model, AnthropicModel) and not model.batch and model.max_tokens == 100
    assert model.identity == "anthropic:claude-opus-4-8;max_tokens=100"
    out = model.generate(requests(1), DecodingParams())
    model.close()
    assert out[0].cost_usd == pytest.approx((input_tokens(requests(1)[0].prompt) * 1 + OUTPUT_TOKENS * 2) / 1e6)
    opus = registry.create("opus")
    assert opus.model_id == OPUS_MODEL and opus.batch and opus.price is not None
    assert OPUS_MODEL in typing.get_args(typing.get_args(anthropic.types.Model)[0])
    monkeypatch.setenv("ALIAS_API_BATCH", "0")
    assert not create_opus().batch
    with pytest.raises(ModelConfigError, match="no option"):
        create_claude("claude-opus-4-8?colour=blue")
    with pytest.raises(ModelConfigError, match="max_tokens"):
        create_claude("claude-opus-4-8?max_tokens=lots")
    with pytest.raises(ModelConfigError, match="both"):
        create_claude("claude-opus-4-8?batch=0", batch=True)
    assert create_claude("claude-opus-4-8", extra_body={"thinking": {"type": "disabled"}}).identity.endswith(
        ';extra={"thinking":{"type":"disabled"}}')
    unknown = create_claude("claude-someday-9")
    assert unknown.price is None


def test_connection_failures_stop_after_one_retry(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    with FakeAPIServer() as closed:
        url = closed.url
    model = create_claude("claude-opus-4-8", base_url=url, batch=False, max_retries=0, error_retries=6,
                          backoff=0.001, journal_dir=tmp_path)
    # No connection at all: one more attempt, then the run stops (not six backoffs per request).
    with pytest.raises(ModelUnreachableError, match="no connection to the provider after 2 attempts") as caught:
        model.generate(requests(1), DecodingParams())
    model.close()
    assert isinstance(caught.value.__cause__, anthropic.APIConnectionError)


def test_what_opus_means_is_said_where_users_look() -> None:
    """``opus`` is the newest Opus, not the paper's Opus 4.8: --help and the model list say so and how to ask for 4.8."""
    from pytest_alias.models.anthropic_model import OPUS_MODEL
    from pytest_alias.models.registry import OPUS_ID, OPUS_MEANS
    from pytest_alias.run.options import OPTIONS_BY_NAME

    assert OPUS_ID == OPUS_MODEL  # the listing's copy cannot drift from what the factory asks for
    for text in (OPUS_MEANS, OPTIONS_BY_NAME["model"].help):
        assert OPUS_MODEL in text and "claude:claude-opus-4-8" in text
