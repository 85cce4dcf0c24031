"""The shared model of the hosted-API backends (``anthropic_model``, ``openai_model``).

Nothing here imports a provider SDK. ``APIModel`` takes the options every API model shares and
runs ``generate`` through the batch API or direct calls; the providers fill in its hooks. Its
parts live beside it:

* ``api_config``: errors, API keys from the environment, option values (``spec`` cuts ``claude:ID?batch=0``);
* ``api_usage``: token prices and the cost estimate of one sample;
* ``api_retry``: exponential backoff around calls that fail transiently;
* ``api_batch``: the on-disk batch journal and the submit → poll → collect → re-submit loop that
  both providers' batch APIs share.
"""

from __future__ import annotations

import dataclasses

import json
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from .api_batch import (
    BatchBackend,
    BatchJournal,
    canonical_json,
    custom_id,
    default_journal_dir,
    request_set_key,
    run_batches,
    settings_from_options,
)
from .api_config import BatchFailedError, ModelConfigError, as_bool, as_float, as_int, batch_default, require_env_key
from .api_retry import call_with_retries, transient_status
from .api_usage import Price, estimate_cost
from .base import DecodingParams, Generation, GenerationRequest, StopRunError
from .redact import register_secret

__all__ = ["APIModel", "Parsed"]


@dataclass(frozen=True)
class Parsed:
    """What a provider response says about one sample."""

    text: str
    finish_reason: str | None
    truncated: bool
    usage: dict[str, int]


class APIModel:
    """A hosted model behind a batch API (default) or direct calls; providers fill in the hooks.

    Subclasses set ``provider``, ``key_env``, ``prices`` and ``default_max_tokens`` and implement
    ``make_client``, ``body``, ``call``, ``backend``, ``parse`` and ``is_transient``. Options (keyword
    or spec query strings):

    * ``batch``: batch API (default ``$ALIAS_API_BATCH`` or yes) or direct calls (``0``);
    * ``max_tokens``: the output cap when ``DecodingParams.max_new_tokens`` is unset (part of the identity);
    * ``price``: ``"IN,OUT"`` dollars per million tokens, overriding the built-in table;
      ``batch_discount``: the factor applied to batch costs (default 0.5, both providers' list discount);
    * ``journal_dir``: where batch journals live (default ``default_journal_dir()``);
    * ``concurrency``: parallel direct calls (default 4); ``max_retries``: the SDK's own retries per
      HTTP request (default 4); ``timeout``: seconds per HTTP request (default 900);
    * ``poll_interval``, ``poll_max_interval``, ``poll_factor``, ``resubmissions``, ``error_retries``,
      ``backoff``, ``max_wait``: the batch loop (``BatchSettings``);
    * ``base_url``: another endpoint (tests point it at a local server); ``extra_body``: a mapping
      merged into every request body (part of the identity);
    * ``sleep`` (keyword only): the wait function of polls and backoff (tests inject one).

    A missing key raises ``ModelConfigError`` here, when the model is built, before any request.
    """

    provider: str = ""
    key_env: str = ""
    prices: Mapping[str, Price] = {}
    default_max_tokens: int | None = None

    def __init__(self, model_id: str, *, sleep: Callable[[float], None] | None = None, **options: Any) -> None:
        self.api_key = require_env_key(self.key_env, self.provider)
        register_secret(self.api_key)  # redacted from every provider text from now on
        self.model_id = model_id
        self.batch = as_bool("batch", options.pop("batch")) if "batch" in options else batch_default()
        max_tokens = options.pop("max_tokens", self.default_max_tokens)
        self.max_tokens = None if max_tokens is None else as_int("max_tokens", max_tokens, 1)
        price = options.pop("price", None)
        self.price = Price.parse(price) if price is not None else self.prices.get(model_id)
        self.batch_discount = as_float("batch_discount", options.pop("batch_discount", 0.5))
        journal_dir = options.pop("journal_dir", None)
        self.journal_dir = Path(journal_dir).expanduser() if journal_dir else default_journal_dir()
        self.concurrency = as_int("concurrency", options.pop("concurrency", 4), 1)
        self.max_retries = as_int("max_retries", options.pop("max_retries", 4))
        self.timeout = as_float("timeout", options.pop("timeout", 900.0), 1e-3)
        self.base_url: str | None = options.pop("base_url", None)
        extra = options.pop("extra_body", None) or {}
        if isinstance(extra, str):
            try:
                extra = json.loads(extra)
            except ValueError:
                extra = None
        if not isinstance(extra, Mapping):
            raise ModelConfigError("option extra_body must be a mapping (or a JSON object in a spec)")
        self.extra_body = dict(extra)
        self.settings = settings_from_options(options, sleep)
        if options:
            raise ModelConfigError(f"{self.provider} models take no option(s) {', '.join(sorted(options))}")
        cap = self.max_tokens if self.max_tokens is not None else "default"
        self.identity = f"{self.provider}:{model_id};max_tokens={cap}"
        if self.extra_body:
            self.identity += f";extra={canonical_json(self.extra_body)}"
        self.client = self.make_client()
        #: Told each batch's state while a batch runs (set by the run's progress line).
        self.status_callback: Callable[[str], None] | None = None

    # ----------------------------------------------------------- provider hooks

    def make_client(self) -> Any:
        """The SDK client, built from ``api_key``, ``base_url``, ``max_retries`` and ``timeout``."""
        raise NotImplementedError

    def http_timeout(self, timeout_class: Any) -> Any:
        """The SDK's ``Timeout``: ``timeout`` for an answer, but at most 10 s to connect, so a network
        that is down (a black hole, not a refusal) is known in seconds, not after ``timeout``."""
        return timeout_class(self.timeout, connect=min(self.timeout, 10.0))

    def body(self, request: GenerationRequest, params: DecodingParams) -> dict[str, Any]:
        """The provider request body for one sample."""
        raise NotImplementedError

    def call(self, body: Mapping[str, Any]) -> Any:
        """One direct request; the response as JSON."""
        raise NotImplementedError

    def backend(self) -> BatchBackend:
        """The provider's batch API."""
        raise NotImplementedError

    def parse(self, raw: Any) -> Parsed:
        """Text, stop reason and usage from a direct response or a batch result line."""
        raise NotImplementedError

    def is_transient(self, error: BaseException) -> bool:
        """Whether ``error`` (after the SDK's own retries) is worth retrying later."""
        return transient_status(error)

    # ----------------------------------------------------------- the Model protocol

    def generate(self, requests: Sequence[GenerationRequest], params: DecodingParams) -> list[Generation]:
        """One generation per request, in order, through the batch API or direct calls."""
        requests = list(requests)
        if not requests:
            return []
        bodies = [self.body(request, params) for request in requests]
        started = time.perf_counter()
        if self.batch:
            ids = [custom_id(index, body) for index, body in enumerate(bodies)]
            try:
                raws = self._batched(ids, bodies)
                failed: dict[str, str] = {}
            except BatchFailedError as error:  # the finished items still count; each other one fails alone
                raws, failed = [error.done.get(cid) for cid in ids], error.failed
            each = (time.perf_counter() - started) / len(requests)  # a batch has no per-item latency
            return [Generation.failed(self.identity, f"batch item failed after every re-submission: {failed[cid]}")
                    if cid in failed else self._generation(raw, each, batched=True)
                    for cid, raw in zip(ids, raws)]
        return self._direct(requests, bodies)

    def close(self) -> None:
        """Close the SDK client's connections."""
        close = getattr(self.client, "close", None)
        if callable(close):
            close()

    def _batched(self, ids: list[str], bodies: list[dict[str, Any]]) -> list[Any]:
        items = dict(zip(ids, bodies))
        journal = BatchJournal.open(self.journal_dir, self.provider, self.identity,
                                    request_set_key(self.provider, self.identity, items))
        settings = dataclasses.replace(self.settings, on_status=self.status_callback)
        raws = run_batches(self.backend(), items, journal, settings, self.is_transient)
        return [raws[cid] for cid in ids]

    def _direct(self, requests: list[GenerationRequest], bodies: list[dict[str, Any]]) -> list[Generation]:
        def one(pair: tuple[GenerationRequest, dict[str, Any]]) -> Generation:
            request, body = pair
            started = time.perf_counter()
            try:
                raw = call_with_retries(lambda: self.call(body), transient=self.is_transient,
                                        retries=self.settings.error_retries, backoff=self.settings.backoff,
                                        what=f"{self.identity} for {request.label()}", sleep=self.settings.sleep)
            except StopRunError:  # no connection at all: every other request would meet it too
                raise
            except Exception as error:  # this request alone fails; the answers of the others are kept
                return Generation.failed(self.identity, error)
            return self._generation(raw, time.perf_counter() - started, batched=False)

        if self.concurrency == 1 or len(requests) == 1:
            return [one(pair) for pair in zip(requests, bodies)]
        with ThreadPoolExecutor(max_workers=min(self.concurrency, len(requests))) as pool:
            return list(pool.map(one, zip(requests, bodies)))

    def _generation(self, raw: Any, seconds: float, *, batched: bool) -> Generation:
        parsed = self.parse(raw)
        cost = estimate_cost(parsed.usage, self.price, self.batch_discount if batched else 1.0)
        return Generation(text=parsed.text, model=self.identity, finish_reason=parsed.finish_reason,
                          truncated=parsed.truncated, usage=parsed.usage, cost_usd=cost, raw=raw, seconds=seconds)
