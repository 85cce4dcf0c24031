"""``gpt-5`` and ``openai:MODEL-ID``: OpenAI models through the official ``openai`` SDK.

By default every ``generate`` call becomes one Batch (appendix A: the paper queried GPT-5 through
the OpenAI Batch API) over ``/v1/chat/completions``: the items are uploaded as a JSONL file
(purpose ``batch``), the batch is polled, and its output and error files are read back and matched
by ``custom_id``. Chat Completions rather than Responses because a one-turn prompt needs nothing
more and its batch lines and direct responses have the same shape. ``batch=0`` (``openai:ID?batch=0``,
or ``ALIAS_API_BATCH=0``) calls the endpoint directly. The key comes only from ``OPENAI_API_KEY``.
"""

from __future__ import annotations

import json
from typing import Any, Final, Mapping, Sequence

from ..errors import MissingExtra

try:
    import openai
except ImportError:  # pragma: no cover - depends on the environment
    raise MissingExtra("the openai models need the openai SDK: pip install 'pytest-alias[api]'") from None

from .api_batch import BatchGone, ItemResult
from .api_common import APIModel, Parsed
from .spec import with_spec_options
from .api_usage import Price, int_fields
from .base import DecodingParams, GenerationRequest

#: What ``gpt-5`` means (the model of appendix A).
GPT5_MODEL = "gpt-5"

ENDPOINT: Final = "/v1/chat/completions"

#: List prices in dollars per million input/output tokens (openai.com, 2025–26): estimates only,
#: overridable with the ``price`` option. Batch costs are halved (``batch_discount``).
PRICES: dict[str, Price] = {
    "gpt-5": Price(1.25, 10.0),
    "gpt-5-2025-08-07": Price(1.25, 10.0),
    "gpt-5-mini": Price(0.25, 2.0),
    "gpt-5-nano": Price(0.05, 0.40),
}

ENDED = frozenset({"completed", "failed", "expired", "cancelled"})
USAGE_NAMES = {"prompt_tokens": "input_tokens", "completion_tokens": "output_tokens"}


class OpenAIModel(APIModel):
    """An OpenAI chat model via the Batch API (default) or direct calls; options as in ``APIModel``.

    ``max_tokens`` (default: none, the provider's limit) is sent as ``max_completion_tokens``, which
    covers reasoning tokens too.
    """

    provider = "openai"
    key_env = "OPENAI_API_KEY"
    prices = PRICES
    default_max_tokens = None

    def make_client(self) -> openai.OpenAI:
        """The SDK client."""
        return openai.OpenAI(api_key=self.api_key, base_url=self.base_url, max_retries=self.max_retries,
                             timeout=self.http_timeout(openai.Timeout))

    def body(self, request: GenerationRequest, params: DecodingParams) -> dict[str, Any]:
        """Chat Completions parameters: the prompt as the one user message, set sampling fields only."""
        body: dict[str, Any] = {"model": self.model_id, "messages": [{"role": "user", "content": request.prompt}]}
        cap = params.max_new_tokens or self.max_tokens
        if cap is not None:
            body["max_completion_tokens"] = cap
        if params.temperature is not None:
            body["temperature"] = params.temperature
        if params.top_p is not None:
            body["top_p"] = params.top_p
        if params.stop:
            body["stop"] = list(params.stop)
        body.update(self.extra_body)
        return body

    def call(self, body: Mapping[str, Any]) -> Any:
        """One Chat Completions call; the completion as JSON."""
        rest = {name: value for name, value in body.items() if name not in ("model", "messages")}
        completion = self.client.chat.completions.create(model=body["model"], messages=body["messages"],
                                                         extra_body=rest or None)
        return completion.to_dict(mode="json")

    def backend(self) -> OpenAIBatches:
        """The Batch API of this model's client."""
        return OpenAIBatches(self.client, self.identity)

    def parse(self, raw: Any) -> Parsed:
        """Text, finish reason and usage of a completion or of a batch output line."""
        completion = raw["response"]["body"] if "response" in raw else raw
        choices = completion.get("choices") or [{}]
        choice = choices[0]
        text = (choice.get("message") or {}).get("content") or ""
        finish = choice.get("finish_reason")
        return Parsed(text=text, finish_reason=finish, truncated=finish == "length",
                      usage=int_fields(completion.get("usage"), USAGE_NAMES))

    def is_transient(self, error: BaseException) -> bool:
        """Connection failures, rate limits and server errors."""
        return isinstance(error, openai.APIConnectionError) or super().is_transient(error)


class OpenAIBatches:
    """The ``BatchBackend`` of the OpenAI Batch API over Chat Completions."""

    provider = "openai"

    def __init__(self, client: openai.OpenAI, identity: str) -> None:
        self.client = client
        self.identity = identity

    def submit(self, items: Mapping[str, Mapping[str, Any]]) -> str:
        """Upload the items as JSONL and create a 24-hour batch over them; the batch id."""
        lines = [json.dumps({"custom_id": cid, "method": "POST", "url": ENDPOINT, "body": body}, ensure_ascii=False)
                 for cid, body in items.items()]
        data = ("\n".join(lines) + "\n").encode("utf-8")
        uploaded = self.client.files.create(file=("alias-batch.jsonl", data, "application/jsonl"), purpose="batch")
        batch = self.client.batches.create(input_file_id=uploaded.id, endpoint=ENDPOINT, completion_window="24h",
                                           metadata={"alias_model": self.identity[:512]})
        return batch.id

    def poll(self, batch_id: str) -> tuple[bool, str]:
        """Whether the batch reached a final status, and the status with its request counts."""
        batch = self._retrieve(batch_id)
        counts = batch.request_counts
        detail = f" ({counts.completed}/{counts.total} completed, {counts.failed} failed)" if counts else ""
        return batch.status in ENDED, f"{batch.status}{detail}"

    def collect(self, batch_id: str, custom_ids: Sequence[str]) -> dict[str, ItemResult]:
        """Each output or error line by custom id; a failed batch fails all its items."""
        batch = self._retrieve(batch_id)
        wanted = set(custom_ids)
        out: dict[str, ItemResult] = {}
        if batch.status == "failed":
            reasons = "; ".join(f"{e.code}: {e.message}" for e in (batch.errors.data or [])) if batch.errors else ""
            return {cid: ItemResult(cid, error=f"batch failed{': ' + reasons if reasons else ''}") for cid in wanted}
        for file_id in (batch.output_file_id, batch.error_file_id):
            if not file_id:
                continue
            for text in self.client.files.content(file_id).text.splitlines():
                if not text.strip():
                    continue
                line = json.loads(text)
                cid = line.get("custom_id")
                if cid in wanted and (cid not in out or not out[cid].ok):
                    out[cid] = self._outcome(cid, line)
        return out

    @staticmethod
    def _outcome(cid: str, line: Mapping[str, Any]) -> ItemResult:
        response = line.get("response") or {}
        if response.get("status_code") == 200 and not line.get("error"):
            return ItemResult(cid, raw=dict(line))
        error = line.get("error") or (response.get("body") or {}).get("error") or {}
        status = response.get("status_code")
        return ItemResult(cid, error=f"status {status}: {error.get('code')}: {error.get('message')}")

    def _retrieve(self, batch_id: str) -> Any:
        try:
            return self.client.batches.retrieve(batch_id)
        except openai.NotFoundError as error:
            raise BatchGone(batch_id) from error


def create_gpt5(**options: Any) -> OpenAIModel:
    """Registry factory for ``gpt-5`` (``GPT5_MODEL``)."""
    return OpenAIModel(GPT5_MODEL, **options)


def create_openai(argument: str, **options: Any) -> OpenAIModel:
    """Registry factory for ``openai:MODEL-ID[?option=value&…]``, e.g. ``openai:gpt-5-mini?batch=0``."""
    model_id, merged = with_spec_options(argument, options)
    return OpenAIModel(model_id, **merged)
