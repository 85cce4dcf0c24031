"""The cost estimate: its formula on known cases, and ``--alias-dry-run`` against the local fake API
server (through the real ``anthropic`` SDK): it counts the requests, stored ones apart, sends
nothing, and a real run's JSON sets the estimate beside the usage it spent."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from fake_server import OUTPUT_TOKENS, FakeAPIServer, serving

from pytest_alias.models.api_usage import Price
from pytest_alias.models.base import DecodingParams, Generation, GenerationRequest
from pytest_alias.models.store import GenerationStore, generation_key
from pytest_alias.report.cost import actual_usage, estimate_lines, spent_lines
from pytest_alias.run.estimate import CHARS_PER_TOKEN, model_estimate

pytest_plugins = ["pytester"]


def _requests(n: int, chars: int = 35) -> list[GenerationRequest]:
    return [GenerationRequest("clock", "original", sample, "p" * chars, seed=sample) for sample in range(n)]


def actual_cost(report: Path) -> float:
    """The dollars a run's JSON says it spent (one model)."""
    (spent,) = json.loads(report.read_text())["metadata"]["cost"]["actual"].values()
    return spent["cost_usd"]


def _api_stub() -> Any:
    """What the estimate reads of an API model: identity, price, discount, cap, batch."""
    return SimpleNamespace(identity="stub:api", price=Price(5.0, 25.0), batch_discount=0.5, max_tokens=1000,
                           batch=True)


def test_estimate_without_stored_answers_uses_the_documented_ratio_and_max_tokens(tmp_path: Path) -> None:
    found = model_estimate("stub", _api_stub(), _requests(3), GenerationStore(tmp_path), DecodingParams())
    assert (found["requests"], found["stored"], found["to_send"]) == (3, 0, 3)
    assert found["input_tokens"] == round(3 * 35 / CHARS_PER_TOKEN) == 30
    assert found["output_tokens_per_request"] == 1000 and found["output_tokens"] == 3000
    assert found["cost_usd"] == pytest.approx((30 * 5 + 3000 * 25) / 1e6)
    assert found["cost_batch_usd"] == pytest.approx(found["cost_usd"] * 0.5)
    # The run's budget beats the model's cap.
    capped = model_estimate("stub", _api_stub(), _requests(3), GenerationStore(tmp_path), DecodingParams(max_new_tokens=10))
    assert capped["output_tokens"] == 30


def test_estimate_learns_from_stored_answers(tmp_path: Path) -> None:
    """One stored answer (70 input tokens for 35 characters, 40 output tokens): 0.5 characters per
    token for the other two prompts, and 40 output tokens each."""
    model, params, requests = _api_stub(), DecodingParams(), _requests(3)
    store = GenerationStore(tmp_path)
    store.put(generation_key(model.identity, params, requests[0]),
              Generation(text="x", model=model.identity, usage={"input_tokens": 70, "output_tokens": 40}))
    found = model_estimate("stub", model, requests, store, params)
    assert (found["stored"], found["to_send"]) == (1, 2)
    assert found["input_tokens"] == 140 and "0.50 characters per token" in found["input_source"]
    assert found["output_tokens"] == 80 and "mean of 1 stored" in found["output_source"]
    assert found["cost_usd"] == pytest.approx((140 * 5 + 80 * 25) / 1e6)
    # An unpriced local model with its own tokenizer: tokens counted by it, no dollars.
    local = SimpleNamespace(identity="stub:local", tokenizer=SimpleNamespace(encode=str.split),
                            defaults=SimpleNamespace(max_new_tokens=64), render=lambda r: "one two " + r.prompt)
    counted = model_estimate("local", local, requests, store, params)
    assert counted["input_tokens"] == 9 and counted["output_tokens"] == 192 and counted["cost_usd"] is None


def test_actual_usage_counts_sent_stored_and_failed_apart() -> None:
    records = [{"model": "m", "generation": {"usage": {"input_tokens": 10, "output_tokens": 5}, "cost_usd": 0.5}},
               {"model": "m", "generation": {"from_store": True, "usage": {"input_tokens": 99}, "cost_usd": 9.0}},
               {"model": "m", "generation": {"error": "boom", "usage": {}}}]
    assert actual_usage(records) == {"m": {"sent": 1, "stored": 1, "failed": 1, "input_tokens": 10,
                                           "output_tokens": 5, "cost_usd": 0.5}}


def test_estimate_and_spent_lines(tmp_path: Path) -> None:
    estimate = {"format": "alias-cost-estimate", "store": "ro", "chars_per_token": CHARS_PER_TOKEN,
                "models": [model_estimate("stub", _api_stub(), _requests(3), GenerationStore(tmp_path), DecodingParams())]}
    lines = estimate_lines(estimate)
    assert lines[1] == "model stub (stub:api): 3 request(s) to send, 0 already stored (of 3)"
    assert "a real run would stop" in lines[2]
    assert lines[-1].startswith("  cost: $0.0751 at list price ($5/$25 per million input/output tokens), "
                                "$0.0376 with the batch discount (x0.5); this run would use batch")
    spent = {"stub": {"sent": 3, "stored": 0, "failed": 0, "input_tokens": 1, "output_tokens": 1, "cost_usd": 0.01}}
    assert spent_lines(estimate, spent) == [
        "cost of stub: estimated $0.0751 at list price, $0.0376 with the batch discount, for 3 request(s); "
        "spent $0.0100 on 3 (0 stored, 0 failed; metadata.cost in the run's JSON)"]
    assert spent_lines(None, spent) == []


def _run(pytester: pytest.Pytester, suite: Path, tmp_path: Path, url: str, samples: int, *args: str) -> pytest.RunResult:
    spec = (f"claude:claude-opus-4-8?base_url={url}&journal_dir={tmp_path / 'journal'}&poll_interval=0.001"
            "&backoff=0.001&max_retries=0")
    return pytester.runpytest_subprocess(
        f"--alias-suite={suite}", f"--alias-cache-dir={tmp_path / 'cache'}", "-p", "no:cacheprovider",
        f"--alias-model={spec}", f"--alias-samples={samples}", "--alias-grade=parse", "--alias-no-fail",
        "--alias-conditions=original", *args, timeout=600)


def test_dry_run_sends_nothing_and_matches_the_real_run(pytester: pytest.Pytester, small_suite: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("anthropic")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    tasks = len(list(small_suite.iterdir()))
    with serving(monkeypatch, "ANTHROPIC_API_KEY", "sk-ant-test") as server:
        server: FakeAPIServer
        dry = _run(pytester, small_suite, tmp_path, server.url, 1, "--alias-dry-run")
        printed = dry.stdout.str()
        assert dry.ret == 0, printed[-3000:]
        assert f"{tasks} request(s) to send, 0 already stored (of {tasks})" in printed
        assert "max_tokens 16384" in printed and "with the batch discount" in printed
        assert server.state.requests == []  # no HTTP request at all
        assert "no tests ran" in printed  # no item ran

        report = tmp_path / "run1.json"
        real = _run(pytester, small_suite, tmp_path, server.url, 1, f"--alias-report={report}")
        assert real.ret == 0, real.stdout.str()[-3000:]
        cost = json.loads(report.read_text())["metadata"]["cost"]
        (estimate,) = cost["estimate"]["models"]
        (actual,) = cost["actual"].values()
        assert (estimate["to_send"], actual["sent"], actual["stored"]) == (tasks, tasks, 0)
        assert actual["output_tokens"] == tasks * OUTPUT_TOKENS
        sent = len(server.state.requests)

        # Twice the samples: the first ones are stored, and their usage calibrates the estimate (the
        # fake server counts one token per character and answers with OUTPUT_TOKENS tokens).
        dry = _run(pytester, small_suite, tmp_path, server.url, 2, "--alias-dry-run")
        assert dry.ret == 0
        assert f"{tasks} request(s) to send, {tasks} already stored (of {2 * tasks})" in dry.stdout.str()
        assert len(server.state.requests) == sent

        report = tmp_path / "run2.json"
        real = _run(pytester, small_suite, tmp_path, server.url, 2, f"--alias-report={report}")
        assert real.ret == 0
        assert f"spent ${actual_cost(report):.4f} on {tasks} ({tasks} stored" in real.stdout.str()
        metadata = json.loads(report.read_text())["metadata"]
        (estimate,) = metadata["cost"]["estimate"]["models"]
        (actual,) = metadata["cost"]["actual"].values()
        assert (estimate["stored"], actual["stored"], actual["sent"]) == (tasks, tasks, tasks)
        assert estimate["input_tokens"] == actual["input_tokens"]
        assert estimate["output_tokens"] == actual["output_tokens"] == tasks * OUTPUT_TOKENS
        assert estimate["cost_batch_usd"] == pytest.approx(actual["cost_usd"])
        # The fake server answers a prompt the same way every time: every sample pair agrees.
        agreement = metadata["agreement"]["models"]
        assert all(found["conditions"]["original"] == {"samples": 2, "pairs": 1, "mean_distance": 0.0, "identical": 1.0}
                   for found in next(iter(agreement.values()))["tasks"].values())
