"""What generating a run's samples will cost, before anything is sent (``--alias-dry-run``).

Per model: how many requests the generation store already answers and how many would go to the
model, their input tokens, their output tokens, and the dollars at list price and with the batch
discount. Nothing here calls a model or the network:

* **input tokens** come from the model's own tokenizer where it has a local one (local Hugging Face
  models); the installed ``anthropic`` and ``openai`` SDKs have none (Anthropic's ``count_tokens``
  is an API call), so for API models they are the prompt's characters divided by the characters per
  token of the model's stored answers to this run's prompts (their reported ``input_tokens``), or
  by ``CHARS_PER_TOKEN`` when the store has none;
* **output tokens** are the mean ``output_tokens`` of the model's earlier stored answers where the
  store has some, else its cap (``max_tokens``), an upper bound.

A real run computes the same estimate before it generates and writes it, beside the usage it then
spent, into the run's JSON (``metadata.cost``), so the estimate can be checked.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .cases import Case
from .generation import prefills, request_for
from ..models.api_usage import Price, estimate_cost
from ..models.base import DecodingParams, Generation, GenerationRequest
from ..models.store import GenerationStore

ESTIMATE_FORMAT = "alias-cost-estimate"

#: Characters per token when neither a local tokenizer nor stored usage tells: English prose and
#: TLA+ run at about 3.5 characters per token in current BPE vocabularies (a documented guess).
CHARS_PER_TOKEN = 3.5


def sent_text(model: Any, request: GenerationRequest) -> str:
    """The text the model reads for ``request``: a local model's rendering, else the prompt."""
    render = getattr(model, "render", None)
    return render(request) if callable(render) else request.prompt


def local_tokenizer(model: Any) -> Callable[[str], int] | None:
    """A token counter from the model's own local tokenizer, or None (API models have none)."""
    tokenizer = getattr(model, "tokenizer", None)
    encode = getattr(tokenizer, "encode", None)
    if not callable(encode):
        return None
    return lambda text: len(encode(text))


def output_cap(model: Any, params: DecodingParams) -> int | None:
    """The most output tokens one request may produce: the run's budget, else the model's own cap."""
    defaults = getattr(model, "defaults", None)
    for cap in (params.max_new_tokens, getattr(model, "max_tokens", None), getattr(defaults, "max_new_tokens", None)):
        if isinstance(cap, int) and not isinstance(cap, bool):
            return cap
    return None


def _usage_sum(generations: Sequence[Generation], field: str) -> tuple[int, int]:
    """(sum of ``usage[field]``, how many generations report it)."""
    values = [int(g.usage[field]) for g in generations if isinstance(g.usage.get(field), int) and g.usage[field] > 0]
    return sum(values), len(values)


def input_estimate(model: Any, pending: Sequence[GenerationRequest], hits: Sequence[tuple[GenerationRequest, Generation]]
                   ) -> tuple[int, str]:
    """Input tokens of the ``pending`` requests and where the count comes from."""
    count = local_tokenizer(model)
    if count is not None:
        return sum(count(sent_text(model, request)) for request in pending), "the model's local tokenizer"
    tokens, reported = _usage_sum([generation for _, generation in hits], "input_tokens")
    chars = sum(len(sent_text(model, request)) for request, generation in hits
                if isinstance(generation.usage.get("input_tokens"), int) and generation.usage["input_tokens"] > 0)
    if reported and tokens:
        ratio = chars / tokens
        source = f"{ratio:.2f} characters per token, from {reported} stored answers' reported input tokens"
    else:
        ratio = CHARS_PER_TOKEN
        source = f"{CHARS_PER_TOKEN:g} characters per token: no local tokenizer, no stored usage"
    return round(sum(len(sent_text(model, request)) for request in pending) / ratio), source


def output_estimate(model: Any, params: DecodingParams, earlier: Sequence[Generation]) -> tuple[float | None, str]:
    """Output tokens per request and where the number comes from."""
    tokens, reported = _usage_sum(earlier, "output_tokens")
    if reported:
        return tokens / reported, f"mean of {reported} stored answers of the model"
    cap = output_cap(model, params)
    if cap is not None:
        return float(cap), f"max_tokens {cap} (an upper bound: no stored answers of the model)"
    return None, "unknown: no max_tokens and no stored answers of the model"


def model_estimate(spec: str, model: Any, requests: Sequence[GenerationRequest], store: GenerationStore,
                   params: DecodingParams) -> dict[str, Any]:
    """The estimate for one model's ``requests`` (JSON data; see the module docstring)."""
    stored = store.stored(model, requests, params)
    hits = [(request, found) for request, found in zip(requests, stored) if found is not None]
    pending = [request for request, found in zip(requests, stored) if found is None]
    # Only a model the store keeps has earlier answers, and they matter only when something is sent.
    earlier = store.answers_of(model.identity) if pending and store.keeps(model) else []
    input_tokens, input_source = input_estimate(model, pending, hits)
    per_request, output_source = output_estimate(model, params, earlier)
    output_tokens = None if per_request is None else round(per_request * len(pending))
    price: Price | None = getattr(model, "price", None)
    discount = getattr(model, "batch_discount", None)
    usage = {"input_tokens": input_tokens, "output_tokens": output_tokens or 0}
    list_cost = estimate_cost(usage, price) if price is not None and output_tokens is not None else None
    batch_cost = (estimate_cost(usage, price, discount)
                  if list_cost is not None and isinstance(discount, float) else None)
    return {"model": spec, "identity": model.identity, "requests": len(requests), "stored": len(hits),
            "to_send": len(pending), "input_tokens": input_tokens, "input_source": input_source,
            "output_tokens_per_request": per_request, "output_tokens": output_tokens, "output_source": output_source,
            "price": None if price is None else {"input_per_mtok": price.input_per_mtok,
                                                  "output_per_mtok": price.output_per_mtok},
            "cost_usd": list_cost, "batch_discount": discount, "cost_batch_usd": batch_cost,
            "batch": getattr(model, "batch", None)}


def estimate_cases(cases: Sequence[Case], *, model_for: Callable[[str], Any], store: GenerationStore, seed: int,
                   prefill: str, max_new_tokens: int | None) -> dict[str, Any]:
    """The estimate for generating ``cases`` (the same requests ``generation.generate_cases`` sends)."""
    params = DecodingParams(max_new_tokens=max_new_tokens)
    models = []
    for spec in dict.fromkeys(case.model for case in cases):
        model = model_for(spec)
        prefix = prefills(model, prefill)
        requests = [request_for(case, seed=seed, prefix=prefix) for case in cases if case.model == spec]
        models.append(model_estimate(spec, model, requests, store, params))
    return {"format": ESTIMATE_FORMAT, "store": store.mode.value, "chars_per_token": CHARS_PER_TOKEN,
            "models": models}
