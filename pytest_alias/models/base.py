"""The model contract: requests in, generations out, one batch at a time.

Every backend (reference, replay, API, local HF) implements ``Model``; the generation store, the
plugin and the command line only ever talk to this protocol.
"""

from __future__ import annotations

from ..errors import RunStopped, UsageProblem

import math
import traceback
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Protocol, Sequence, runtime_checkable

from .prompts import PromptStyle, render_prompt
from .redact import redact, redact_json, redact_values, shorten

if TYPE_CHECKING:  # models stand alone: a Condition is only carried, never required at import
    from ..tasks.model import Condition


class StopRunError(RunStopped):
    """A model failure that every other request would meet too (an unreachable provider, a replay file
    recorded for other conditions): the run stops with one message instead of failing item by item."""


class ModelUnreachableError(StopRunError):
    """No connection to the model's provider could be made, even after a short retry."""


@dataclass(frozen=True)
class DecodingParams:
    """Sampling settings; ``None`` (or no stop sequences given) means the provider's default."""

    temperature: float | None = None
    top_p: float | None = None
    max_new_tokens: int | None = None
    stop: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        # Normalise so that 1 and 1.0, or a list and a tuple, give the same store key.
        for name in ("temperature", "top_p"):
            value = getattr(self, name)
            if value is not None:
                try:
                    value = float(value)
                except (TypeError, ValueError):
                    raise UsageProblem(f"{name} must be a finite number >= 0, not {value!r}") from None
                if not math.isfinite(value) or value < 0:
                    raise UsageProblem(f"{name} must be a finite number >= 0, not {value!r}")
                object.__setattr__(self, name, value)
        if self.max_new_tokens is not None:
            if isinstance(self.max_new_tokens, bool) or int(self.max_new_tokens) != self.max_new_tokens \
                    or self.max_new_tokens < 1:
                raise UsageProblem(f"max_new_tokens must be a positive integer, not {self.max_new_tokens!r}")
            object.__setattr__(self, "max_new_tokens", int(self.max_new_tokens))
        if self.stop is not None:
            if isinstance(self.stop, str):  # a bare string would otherwise become one stop per character
                object.__setattr__(self, "stop", (self.stop,))
            else:
                object.__setattr__(self, "stop", tuple(self.stop))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form (part of every store key)."""
        return {"temperature": self.temperature, "top_p": self.top_p, "max_new_tokens": self.max_new_tokens,
                "stop": list(self.stop) if self.stop is not None else None}


@dataclass(frozen=True)
class GenerationRequest:
    """One sample to generate: which case it belongs to and the exact prompt text.

    ``condition`` carries the whole ``Condition`` for models that need more than the prompt (the
    reference model returns its main module); it is not part of any store key.
    """

    task_id: str
    kind: str
    sample: int
    prompt: str
    seed: int | None = None
    condition: Condition | None = field(default=None, repr=False)
    #: The start of the answer, written for the model (models with ``supports_prefix`` only).
    prefix: str = ""

    @classmethod
    def from_condition(cls, condition: Condition, sample: int, *,
                       style: PromptStyle | str = PromptStyle.FRONTIER, seed: int | None = None,
                       prefix: str = "") -> GenerationRequest:
        """The request for ``sample`` of ``condition``, its description rendered in ``style``."""
        return cls(condition.task_id, condition.kind, sample, render_prompt(condition.description, style),
                   seed, condition, prefix)

    def label(self) -> str:
        """``task=… condition=… sample=…``: how errors and logs name this request."""
        return f"task={self.task_id} condition={self.kind} sample={self.sample}"


@dataclass(frozen=True)
class Generation:
    """What a model returned for one request, with enough metadata to audit cost and truncation.

    ``raw`` is the provider's response in JSON-able form; ``from_store`` says whether the generation
    store supplied it (it is not saved).
    """

    text: str
    model: str
    finish_reason: str | None = None
    truncated: bool = False
    usage: Mapping[str, int] = field(default_factory=dict)
    cost_usd: float | None = None
    raw: Any = None
    seconds: float = 0.0
    from_store: bool = field(default=False, compare=False)
    #: The answer's start that was written for the model (and begins ``text``), "" when none.
    prefix: str = ""
    #: Why the model gave no answer for this request (one line), None for an answer. Such a
    #: generation is never stored, and its item is a "model error", not a failing grade.
    error: str | None = None

    def __post_init__(self) -> None:
        # The one redaction step for what a provider sent: nothing below reaches a record, the store,
        # a report or the console with a key in it (gateways echo keys in their error messages).
        if self.error is not None:
            object.__setattr__(self, "error", redact(self.error))
        if self.raw is not None:
            object.__setattr__(self, "raw", redact_json(self.raw))
        if self.text:
            object.__setattr__(self, "text", redact_values(self.text))

    @classmethod
    def failed(cls, model: str, error: BaseException | str) -> Generation:
        """The stand-in for a request the model could not answer: one line, and for an exception its
        traceback in ``raw["error_detail"]`` (shown behind ``-v``)."""
        text = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
        line = shorten(text, 300) or "unknown error"  # redacted whole, then cut: a cut key would survive
        detail = "" if isinstance(error, str) else "".join(traceback.format_exception(error, limit=6))
        return cls(text="", model=model, finish_reason="error", error=line,
                   raw={"error_detail": detail} if detail else None)

    def to_dict(self) -> dict[str, Any]:
        """The JSON-able form the generation store writes."""
        data = {"text": self.text, "model": self.model, "finish_reason": self.finish_reason,
                "truncated": self.truncated, "usage": dict(self.usage), "cost_usd": self.cost_usd,
                "raw": self.raw, "seconds": self.seconds, "prefix": self.prefix}
        if self.error is not None:
            data["error"] = self.error
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, from_store: bool = False) -> Generation:
        """Rebuild a generation written by ``to_dict``; raises ``ValueError`` on a wrong shape."""
        if not isinstance(data.get("text"), str) or not isinstance(data.get("model"), str):
            raise ValueError("a generation needs string fields 'text' and 'model'")
        return cls(text=data["text"], model=data["model"], finish_reason=data.get("finish_reason"),
                   truncated=bool(data.get("truncated", False)), usage=dict(data.get("usage") or {}),
                   cost_usd=data.get("cost_usd"), raw=data.get("raw"), seconds=float(data.get("seconds", 0.0)),
                   from_store=from_store, prefix=str(data.get("prefix") or ""),
                   error=str(data["error"]) if data.get("error") is not None else None)


@runtime_checkable
class Model(Protocol):
    """A text generator for benchmark prompts.

    ``identity`` names everything that decides the output (provider, model id, revision, adapter
    and its hash) and must be stable across processes: the generation store keys on it. A model may
    set ``cacheable = False`` (outputs derived from local files, such as ``reference``) so the store
    never serves stale copies of it.
    """

    identity: str

    def generate(self, requests: Sequence[GenerationRequest], params: DecodingParams) -> list[Generation]:
        """One generation per request, in request order."""
        ...


@runtime_checkable
class ScoringModel(Protocol):
    """A model that can also score text (local models; used for the likelihood analysis)."""

    def log_likelihood(self, prompt: str, continuation: str) -> float | None:
        """Sum of log-probabilities of ``continuation`` given ``prompt``, or None when unsupported."""
        ...


def log_likelihood(model: Model, prompt: str, continuation: str) -> float | None:
    """``model.log_likelihood`` when the model has one, else None (API models cannot score)."""
    if isinstance(model, ScoringModel):
        return model.log_likelihood(prompt, continuation)
    return None


def module_header(name: str) -> str:
    """The header line that opens module ``name`` (the prefix the ``header`` prefill gives)."""
    return f"---- MODULE {name} ----\n"


def supports_prefix(model: Model) -> bool:
    """Whether ``model`` continues a request's ``prefix`` (local models; API models never get one)."""
    return bool(getattr(model, "supports_prefix", False))


def is_cacheable(model: Model) -> bool:
    """Whether the generation store may keep this model's outputs (default: yes)."""
    return bool(getattr(model, "cacheable", True))


def close_model(model: Model) -> None:
    """Release a model's resources (clients, GPU memory) when it has a ``close`` method."""
    close = getattr(model, "close", None)
    if callable(close):
        close()
