"""``opus`` and ``claude:MODEL-ID``: Claude through the official ``anthropic`` SDK.

By default every ``generate`` call becomes one Message Batch (appendix A: the paper queried Opus
through the Message Batches API); ``batch=0`` (``claude:ID?batch=0``, or ``ALIAS_API_BATCH=0`` for
every API model) sends one Messages API call per sample instead. The rendered appendix-A prompt is
the single user message; sampling settings are the provider's defaults unless ``DecodingParams``
sets them. The key comes only from ``ANTHROPIC_API_KEY``.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..errors import MissingExtra

try:
    import anthropic
except ImportError:  # pragma: no cover - depends on the environment
    raise MissingExtra("the claude models need the anthropic SDK: pip install 'pytest-alias[api]'") from None

from .api_batch import BatchGone, ItemResult
from .api_common import APIModel, Parsed
from .spec import with_spec_options
from .api_usage import Price, int_fields
from .base import DecodingParams, GenerationRequest

#: What ``opus`` means: the newest Opus id in the installed SDK's ``anthropic.types.Model`` literals
#: (anthropic 2.14.0). The paper used Claude Opus 4.8; ask for it as ``claude:claude-opus-4-8``.
OPUS_MODEL = "claude-opus-5-5"

#: Required by the Messages API. Thinking tokens count against it, and current Opus models think
#: adaptively by default, so it is set well above the length of a typical specification.
DEFAULT_MAX_TOKENS = 16384

#: List prices in dollars per million input/output tokens (platform.claude.com, 2026): estimates
#: only, overridable with the ``price`` option. Batch costs are halved (``batch_discount``).
PRICES: dict[str, Price] = {
    "claude-opus-5-5": Price(4.0, 20.0),
    "claude-opus-5": Price(5.0, 25.0),
    "claude-opus-4-8": Price(5.0, 25.0),
    "claude-opus-4-7": Price(5.0, 25.0),
    "claude-opus-4-6": Price(5.0, 25.0),
    "claude-opus-4-5": Price(5.0, 25.0),
}

TRUNCATED_STOPS = frozenset({"max_tokens", "model_context_window_exceeded"})


class AnthropicModel(APIModel):
    """Claude via the Message Batches API (default) or the Messages API; options as in ``APIModel``."""

    provider = "anthropic"
    key_env = "ANTHROPIC_API_KEY"
    prices = PRICES
    default_max_tokens = DEFAULT_MAX_TOKENS

    def make_client(self) -> anthropic.Anthropic:
        """The SDK client; an explicit timeout also lifts the SDK's refusal of long non-streaming calls."""
        return anthropic.Anthropic(api_key=self.api_key, base_url=self.base_url, max_retries=self.max_retries,
                                   timeout=self.http_timeout(anthropic.Timeout))

    def body(self, request: GenerationRequest, params: DecodingParams) -> dict[str, Any]:
        """Messages API parameters: the prompt as the one user message, set sampling fields only."""
        body: dict[str, Any] = {"model": self.model_id,
                                "max_tokens": params.max_new_tokens or self.max_tokens,
                                "messages": [{"role": "user", "content": request.prompt}]}
        if params.temperature is not None:
            body["temperature"] = params.temperature
        if params.top_p is not None:
            body["top_p"] = params.top_p
        if params.stop:
            body["stop_sequences"] = list(params.stop)
        body.update(self.extra_body)
        return body

    def call(self, body: Mapping[str, Any]) -> Any:
        """One Messages API call; the Message as JSON."""
        core = {name: body[name] for name in ("model", "max_tokens", "messages")}
        rest = {name: value for name, value in body.items() if name not in core}
        message = self.client.messages.create(**core, extra_body=rest or None)
        return message.to_dict(mode="json")

    def backend(self) -> AnthropicBatches:
        """The Message Batches API of this model's client."""
        return AnthropicBatches(self.client)

    def parse(self, raw: Any) -> Parsed:
        """Text blocks joined (thinking blocks skipped), stop reason and usage of a Message or result line."""
        message = raw["result"]["message"] if "result" in raw else raw
        text = "".join(block.get("text", "") for block in message.get("content") or [] if block.get("type") == "text")
        stop = message.get("stop_reason")
        return Parsed(text=text, finish_reason=stop, truncated=stop in TRUNCATED_STOPS,
                      usage=int_fields(message.get("usage")))

    def is_transient(self, error: BaseException) -> bool:
        """Connection failures, rate limits, overloads and server errors."""
        return isinstance(error, anthropic.APIConnectionError) or super().is_transient(error)


class AnthropicBatches:
    """The ``BatchBackend`` of the Message Batches API."""

    provider = "anthropic"

    def __init__(self, client: anthropic.Anthropic) -> None:
        self.client = client

    def submit(self, items: Mapping[str, Mapping[str, Any]]) -> str:
        """Create one batch, one request per item; its id."""
        requests = [{"custom_id": cid, "params": dict(body)} for cid, body in items.items()]
        return self.client.messages.batches.create(requests=requests).id  # type: ignore[arg-type]

    def poll(self, batch_id: str) -> tuple[bool, str]:
        """Whether processing has ended, and the status with its request counts."""
        try:
            batch = self.client.messages.batches.retrieve(batch_id)
        except anthropic.NotFoundError as error:
            raise BatchGone(batch_id) from error
        counts = batch.request_counts
        return batch.processing_status == "ended", (
            f"{batch.processing_status} (processing {counts.processing}, succeeded {counts.succeeded}, "
            f"errored {counts.errored}, expired {counts.expired}, canceled {counts.canceled})")

    def collect(self, batch_id: str, custom_ids: Sequence[str]) -> dict[str, ItemResult]:
        """Each result line by custom id; errored, expired and canceled items become failures."""
        wanted = set(custom_ids)
        out: dict[str, ItemResult] = {}
        try:
            lines = self.client.messages.batches.results(batch_id)
        except anthropic.NotFoundError as error:
            raise BatchGone(batch_id) from error
        for line in lines:
            item: dict[str, Any] = line.to_dict(mode="json")
            cid = item.get("custom_id")
            if cid not in wanted:
                continue
            result = item.get("result") or {}
            kind = result.get("type")
            if kind == "succeeded":
                out[cid] = ItemResult(cid, raw=item)
            else:
                failure = (result.get("error") or {}).get("error") or {}
                detail = f": {failure.get('type')}: {failure.get('message')}" if failure else ""
                out[cid] = ItemResult(cid, error=f"{kind}{detail}")
        return out


def create_opus(**options: Any) -> AnthropicModel:
    """Registry factory for ``opus`` (``OPUS_MODEL``)."""
    return AnthropicModel(OPUS_MODEL, **options)


def create_claude(argument: str, **options: Any) -> AnthropicModel:
    """Registry factory for ``claude:MODEL-ID[?option=value&…]``, e.g. ``claude:claude-opus-4-8?batch=0``."""
    model_id, merged = with_spec_options(argument, options)
    return AnthropicModel(model_id, **merged)
