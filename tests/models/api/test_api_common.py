"""The provider-independent helpers of the API backends: options, prices, backoff, the journal."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_alias.models.api_batch import BatchJournal, custom_id, default_journal_dir, request_set_key
from pytest_alias.models.api_config import APIModelError, ModelConfigError, as_bool, as_int
from pytest_alias.models.api_retry import Backoff, call_with_retries, transient_status
from pytest_alias.models.api_usage import Price, estimate_cost, int_fields
from pytest_alias.models.spec import split_spec


def test_spec_options_and_coercion() -> None:
    assert split_spec("claude-opus-4-8?batch=0&max_tokens=9") == ("claude-opus-4-8", {"batch": "0", "max_tokens": "9"})
    assert split_spec(" gpt-5 ") == ("gpt-5", {})
    for bad in ("?batch=0", "x?batch=0&batch=1"):
        with pytest.raises(ModelConfigError):
            split_spec(bad)
    assert as_bool("batch", "off") is False and as_bool("batch", "YES") is True and as_bool("batch", True)
    assert as_int("n", "12") == 12
    for bad in ("1.5", True, -1, None):
        with pytest.raises(ModelConfigError, match="option n"):
            as_int("n", bad)


def test_prices_usage_and_cost() -> None:
    assert Price.parse("4,20") == Price(4.0, 20.0) == Price.parse((4, 20))
    with pytest.raises(ModelConfigError):
        Price.parse("4")
    usage = int_fields({"prompt_tokens": 1000, "completion_tokens": 2000, "details": {"reasoning": 5}, "tier": "batch"},
                       {"prompt_tokens": "input_tokens", "completion_tokens": "output_tokens"})
    assert usage == {"input_tokens": 1000, "output_tokens": 2000, "details.reasoning": 5}
    assert estimate_cost(usage, Price(4.0, 20.0)) == pytest.approx(0.044)
    assert estimate_cost(usage, Price(4.0, 20.0), 0.5) == pytest.approx(0.022)
    assert estimate_cost(usage, None) is None


def test_backoff_and_retries() -> None:
    assert [d for d, _ in zip(Backoff(1.0, 2.0, 5.0).delays(), range(5))] == [1.0, 2.0, 4.0, 5.0, 5.0]

    class Status(Exception):
        def __init__(self, status_code: int) -> None:
            super().__init__(f"status {status_code}")
            self.status_code = status_code

    assert transient_status(Status(429)) and transient_status(Status(503)) and not transient_status(Status(400))
    waits: list[float] = []
    failures = [Status(429), Status(500)]

    def flaky() -> str:
        if failures:
            raise failures.pop(0)
        return "ok"

    assert call_with_retries(flaky, transient=transient_status, retries=3, backoff=Backoff(0.5), what="x",
                             sleep=waits.append) == "ok"
    assert waits == [0.5, 1.0]
    with pytest.raises(APIModelError, match="x failed after 2 attempts"):
        call_with_retries(lambda: (_ for _ in ()).throw(Status(502)), transient=transient_status, retries=1,
                          backoff=Backoff(0.0), what="x", sleep=waits.append)
    with pytest.raises(Status):  # not transient: no retry
        call_with_retries(lambda: (_ for _ in ()).throw(Status(401)), transient=transient_status, retries=5,
                          backoff=Backoff(0.0), what="x", sleep=waits.append)


def test_ids_keys_and_journal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "p"}]}
    cid = custom_id(3, body)
    assert cid.startswith("r00003-") and len(cid) <= 64 and cid == custom_id(3, dict(reversed(body.items())))
    key = request_set_key("anthropic", "anthropic:m", {cid: body})
    assert key != request_set_key("anthropic", "anthropic:m;max_tokens=1", {cid: body})
    journal = BatchJournal.open(tmp_path, "anthropic", "anthropic:m", key)
    assert journal.batches == [] and not journal.path.exists()
    journal.record("b1", [cid])
    again = BatchJournal.open(tmp_path, "anthropic", "anthropic:m", key)
    assert [b["id"] for b in again.batches] == ["b1"] and again.batches[0]["custom_ids"] == [cid]
    again.forget("b1")
    assert BatchJournal.open(tmp_path, "anthropic", "anthropic:m", key).batches == []
    again.remove()
    assert not again.path.exists()
    journal.path.write_text("{not json")
    assert BatchJournal.open(tmp_path, "anthropic", "anthropic:m", key).batches == []
    monkeypatch.setenv("ALIAS_BATCH_JOURNAL_DIR", str(tmp_path / "j"))
    assert default_journal_dir() == tmp_path / "j"
    monkeypatch.delenv("ALIAS_BATCH_JOURNAL_DIR")
    monkeypatch.setenv("ALIAS_CACHE_DIR", str(tmp_path / "cache"))
    assert default_journal_dir() == tmp_path / "cache" / "batches"
