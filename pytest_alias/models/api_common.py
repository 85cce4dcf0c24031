"""Shared pieces of the hosted-API backends (``anthropic_model``, ``openai_model``).

Nothing here imports a provider SDK. The module holds:

* configuration: API keys from the environment, spec options (``claude:ID?batch=0``), errors;
* money: token prices and the cost estimate of one sample;
* resilience: exponential backoff around calls that fail transiently;
* batches: the on-disk batch journal and the submit → poll → collect → re-submit loop that both
  providers' batch APIs share.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Protocol, Sequence, TypeVar
from urllib.parse import parse_qsl

from .base import DecodingParams, Generation, GenerationRequest
from .store import default_store_root

log = logging.getLogger("pytest_alias.models.api")

T = TypeVar("T")

#: Set to 0 to make every API model call the direct (non-batch) endpoint unless its spec says otherwise.
BATCH_ENV = "ALIAS_API_BATCH"
#: Where batch journals live when no ``journal_dir`` option is given.
JOURNAL_ENV = "ALIAS_BATCH_JOURNAL_DIR"


# --------------------------------------------------------------------------- errors and configuration


class ModelConfigError(ValueError):
    """An API model that cannot be built: a missing key, an unknown option or a bad option value."""


class APIModelError(RuntimeError):
    """A provider call that still failed after every retry."""


class BatchFailedError(APIModelError):
    """Batch items that kept failing after every re-submission."""


def require_env_key(variable: str, provider: str) -> str:
    """The API key in ``variable``; raises ``ModelConfigError`` (one line, naming it) when unset or blank."""
    value = os.environ.get(variable, "").strip()
    if not value:
        raise ModelConfigError(f"{provider} models need an API key: set the environment variable {variable}")
    return value


def split_spec(argument: str) -> tuple[str, dict[str, str]]:
    """``"ID?batch=0&max_tokens=16000"`` → ``("ID", {"batch": "0", "max_tokens": "16000"})``."""
    model_id, _, query = argument.partition("?")
    model_id = model_id.strip()
    if not model_id:
        raise ModelConfigError(f"model spec {argument!r} names no model id")
    options: dict[str, str] = {}
    for name, value in parse_qsl(query, keep_blank_values=True, strict_parsing=bool(query)):
        if name in options:
            raise ModelConfigError(f"model spec {argument!r} sets {name!r} twice")
        options[name] = value
    return model_id, options


def as_bool(name: str, value: Any) -> bool:
    """``True``/``False`` from a bool or a spec string (``1/0``, ``true/false``, ``yes/no``, ``on/off``)."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in {"1", "true", "yes", "on"}:
        return True
    if text in {"0", "false", "no", "off"}:
        return False
    raise ModelConfigError(f"option {name} must be a yes/no value such as 1 or 0, not {value!r}")


def as_int(name: str, value: Any, minimum: int = 0) -> int:
    """An integer option (``>= minimum``) from an int or a spec string."""
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and value.strip().lstrip("-").isdigit():
        number = int(value)
    if number is None or number < minimum:
        raise ModelConfigError(f"option {name} must be an integer >= {minimum}, not {value!r}")
    return number


def as_float(name: str, value: Any, minimum: float = 0.0) -> float:
    """A number option (``>= minimum``) from a number or a spec string."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = None
    if number is None or isinstance(value, bool) or not number >= minimum:
        raise ModelConfigError(f"option {name} must be a number >= {minimum}, not {value!r}")
    return number


def batch_default() -> bool:
    """Whether to use the batch API when a spec does not say: ``$ALIAS_API_BATCH`` (default yes)."""
    value = os.environ.get(BATCH_ENV)
    return True if value is None or not value.strip() else as_bool(BATCH_ENV, value)


def default_journal_dir() -> Path:
    """``$ALIAS_BATCH_JOURNAL_DIR``, else ``batches/`` beside the default generation store."""
    override = os.environ.get(JOURNAL_ENV)
    return Path(override).expanduser() if override else default_store_root().parent / "batches"


# --------------------------------------------------------------------------- prices and usage


@dataclass(frozen=True)
class Price:
    """US dollars per million input and output tokens (list prices; estimates, not invoices)."""

    input_per_mtok: float
    output_per_mtok: float

    @classmethod
    def parse(cls, value: Price | str | Sequence[float]) -> Price:
        """A ``Price`` from itself, ``"IN,OUT"`` (a spec option) or a pair of numbers."""
        if isinstance(value, Price):
            return value
        parts = value.split(",") if isinstance(value, str) else list(value)
        if len(parts) != 2:
            raise ModelConfigError(f"a price is two numbers, input and output dollars per million tokens, "
                                   f"not {value!r}")
        return cls(as_float("price (input)", parts[0]), as_float("price (output)", parts[1]))


def estimate_cost(usage: Mapping[str, int], price: Price | None, discount: float = 1.0) -> float | None:
    """Dollars for ``usage`` (``input_tokens``, ``output_tokens``) at ``price`` times ``discount``; None if unpriced."""
    if price is None:
        return None
    dollars = (usage.get("input_tokens", 0) * price.input_per_mtok
               + usage.get("output_tokens", 0) * price.output_per_mtok) / 1_000_000
    return round(dollars * discount, 12)


def int_fields(data: Mapping[str, Any] | None, renames: Mapping[str, str] | None = None) -> dict[str, int]:
    """The integer entries of a usage object (nested ones flattened as ``outer.inner``), optionally renamed."""
    out: dict[str, int] = {}
    renames = renames or {}
    for name, value in (data or {}).items():
        if isinstance(value, Mapping):
            for inner, number in int_fields(value).items():
                out[f"{name}.{inner}"] = number
        elif isinstance(value, int) and not isinstance(value, bool):
            out[renames.get(name, name)] = value
    return out


# --------------------------------------------------------------------------- backoff


@dataclass(frozen=True)
class Backoff:
    """Exponential waits: ``initial``, ``initial * factor``, … capped at ``maximum`` seconds."""

    initial: float = 2.0
    factor: float = 2.0
    maximum: float = 120.0

    def delays(self) -> Iterator[float]:
        """An endless sequence of waits."""
        delay = self.initial
        while True:
            yield min(delay, self.maximum)
            delay *= self.factor


def transient_status(error: BaseException) -> bool:
    """Whether an SDK error carries an HTTP status worth retrying: 408, 409, 429 or any 5xx."""
    status = getattr(error, "status_code", None)
    return isinstance(status, int) and (status in (408, 409, 429) or status >= 500)


def call_with_retries(call: Callable[[], T], *, transient: Callable[[BaseException], bool], retries: int,
                      backoff: Backoff, what: str, sleep: Callable[[float], None] = time.sleep) -> T:
    """``call()``, retried up to ``retries`` more times with backoff while it raises a ``transient`` error.

    The SDKs already retry each HTTP request a few times; this loop covers longer outages (a rate
    limit that outlasts them, a provider restart). The last transient failure becomes
    ``APIModelError``; any other error propagates at once.
    """
    delays = backoff.delays()
    for attempt in range(retries + 1):
        try:
            return call()
        except Exception as error:
            if not transient(error):
                raise
            if attempt == retries:
                raise APIModelError(f"{what} failed after {retries + 1} attempts: {error}") from error
            delay = next(delays)
            log.warning("%s failed (%s); retrying in %.1fs", what, error, delay)
            sleep(delay)
    raise AssertionError("unreachable")  # the loop returns or raises


# --------------------------------------------------------------------------- request ids and keys


def canonical_json(value: Any) -> str:
    """Key-sorted, compact JSON: the form every hash here is taken over."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def custom_id(index: int, body: Mapping[str, Any]) -> str:
    """A batch item id: position plus a digest of the body, valid for both providers (``[A-Za-z0-9_-]``)."""
    digest = hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()[:16]
    return f"r{index:05d}-{digest}"


def request_set_key(provider: str, identity: str, bodies: Mapping[str, Mapping[str, Any]]) -> str:
    """The journal key of one ``generate`` call: a hash over the provider, model and every item body."""
    document = {"provider": provider, "model": identity, "items": bodies}
    return hashlib.sha256(canonical_json(document).encode("utf-8")).hexdigest()


# --------------------------------------------------------------------------- batch journal


@dataclass
class BatchJournal:
    """The batches submitted for one request set, on disk so an interrupted run resumes them.

    The file (``<dir>/<provider>-<key>.json``) lists each batch id with the custom ids it holds. It
    is written right after each submission and deleted once every item has succeeded; a run that
    ends in failure keeps it, so a rerun collects the finished items instead of paying for them again.
    """

    path: Path
    provider: str
    identity: str
    batches: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def open(cls, directory: Path, provider: str, identity: str, key: str) -> BatchJournal:
        """The journal for ``key`` under ``directory``: as recorded, or empty (unreadable files count as empty)."""
        path = Path(directory) / f"{provider}-{key}.json"
        journal = cls(path, provider, identity)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            batches = data["batches"]
            if isinstance(batches, list) and all(isinstance(b.get("id"), str) and isinstance(b.get("custom_ids"), list)
                                                 for b in batches):
                journal.batches = batches
        except FileNotFoundError:
            pass
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
            log.warning("ignoring unreadable batch journal %s: %s", path, error)
        return journal

    def record(self, batch_id: str, custom_ids: Sequence[str], **extra: Any) -> None:
        """Add a just-submitted batch and write the file atomically.

        A failed write only warns: the batch is already paid for, so this run goes on collecting
        it (an interruption would then submit it again).
        """
        self.batches.append({"id": batch_id, "custom_ids": list(custom_ids), "submitted_at": time.time(), **extra})
        try:
            self._write()
        except OSError as error:
            log.warning("could not record batch %s in %s (%s); an interrupted run cannot resume it",
                        batch_id, self.path, error)

    def forget(self, batch_id: str) -> None:
        """Drop a batch the provider no longer knows (its items are submitted again)."""
        self.batches = [b for b in self.batches if b["id"] != batch_id]
        try:
            self._write()
        except OSError as error:
            log.warning("could not update %s: %s", self.path, error)

    def remove(self) -> None:
        """Delete the file: every item is done."""
        self.path.unlink(missing_ok=True)

    def _write(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        document = {"version": 1, "provider": self.provider, "model": self.identity, "batches": self.batches}
        fd, temp = tempfile.mkstemp(dir=self.path.parent, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(document, handle, indent=1)
            os.replace(temp, self.path)
        finally:
            Path(temp).unlink(missing_ok=True)


# --------------------------------------------------------------------------- the batch loop


class BatchGone(Exception):
    """The provider no longer has a recorded batch (deleted, or its results expired)."""


@dataclass(frozen=True)
class ItemResult:
    """One batch item's outcome: its raw JSON on success, else an error message."""

    custom_id: str
    raw: Any = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        """Whether the item succeeded."""
        return self.error is None


class BatchBackend(Protocol):
    """What the shared loop needs from a provider's batch API."""

    provider: str

    def submit(self, items: Mapping[str, Mapping[str, Any]]) -> str:
        """Create one batch of ``custom_id → body`` items; return its id."""
        ...

    def poll(self, batch_id: str) -> tuple[bool, str]:
        """``(ended, status text)``; raises ``BatchGone`` for an unknown batch."""
        ...

    def collect(self, batch_id: str, custom_ids: Sequence[str]) -> dict[str, ItemResult]:
        """The outcome of each of ``custom_ids`` in an ended batch (missing ones count as failed)."""
        ...


@dataclass(frozen=True)
class BatchSettings:
    """Polling and retry settings of the batch loop (tests shrink the intervals)."""

    poll_interval: float = 30.0
    poll_max_interval: float = 300.0
    poll_factor: float = 1.5
    resubmissions: int = 2
    error_retries: int = 6
    backoff: Backoff = Backoff()
    max_wait: float | None = None
    sleep: Callable[[float], None] = time.sleep


def run_batches(backend: BatchBackend, items: Mapping[str, Mapping[str, Any]], journal: BatchJournal,
                settings: BatchSettings, transient: Callable[[BaseException], bool]) -> dict[str, Any]:
    """Raw JSON of every item, by custom id, through the provider's batch API.

    Batches recorded in ``journal`` (an interrupted earlier run) are collected first; items still
    missing are submitted as one new batch, and items that fail are re-submitted, up to
    ``settings.resubmissions`` times per run. Raises ``BatchFailedError`` naming what still failed.
    """
    done: dict[str, Any] = {}
    errors: dict[str, str] = {}

    def retried(call: Callable[[], T], what: str) -> T:
        return call_with_retries(call, transient=transient, retries=settings.error_retries,
                                 backoff=settings.backoff, what=what, sleep=settings.sleep)

    def take(batch_id: str, custom_ids: Sequence[str]) -> None:
        try:
            wait_for_batch(backend, batch_id, settings, retried)
        except BatchGone:
            log.warning("%s batch %s is gone; its items will be submitted again", backend.provider, batch_id)
            journal.forget(batch_id)
            return
        results = retried(lambda: backend.collect(batch_id, custom_ids),
                          f"collecting {backend.provider} batch {batch_id}")
        for cid in custom_ids:
            result = results.get(cid) or ItemResult(cid, error="missing from the batch results")
            if result.ok:
                done[cid] = result.raw
                errors.pop(cid, None)
            elif cid not in done:
                errors[cid] = result.error or "failed"

    for recorded in list(journal.batches):
        wanted = [cid for cid in recorded["custom_ids"] if cid in items]
        if wanted:
            log.info("resuming %s batch %s (%d items)", backend.provider, recorded["id"], len(wanted))
            take(recorded["id"], wanted)
    submissions = 0
    limit = settings.resubmissions + 1
    while True:
        pending = [cid for cid in items if cid not in done]
        if not pending:
            break
        if submissions >= limit:
            shown = "; ".join(f"{cid}: {errors.get(cid, 'not returned')}" for cid in pending[:5])
            more = f"; and {len(pending) - 5} more" if len(pending) > 5 else ""
            raise BatchFailedError(f"{len(pending)} of {len(items)} {backend.provider} batch items failed after "
                                   f"{submissions} submission(s): {shown}{more}. The finished items are kept "
                                   f"through the journal {journal.path}; run again to retry the rest")
        batch = {cid: items[cid] for cid in pending}
        batch_id = retried(lambda: backend.submit(batch), f"submitting a {backend.provider} batch")
        journal.record(batch_id, pending)
        submissions += 1
        log.info("submitted %s batch %s with %d items", backend.provider, batch_id, len(pending))
        take(batch_id, pending)
    journal.remove()
    return done


def wait_for_batch(backend: BatchBackend, batch_id: str, settings: BatchSettings,
                   retried: Callable[[Callable[[], tuple[bool, str]], str], tuple[bool, str]]) -> None:
    """Poll ``batch_id`` until it ends, waiting longer between polls (``poll_interval`` × ``poll_factor``…)."""
    started = time.monotonic()
    interval = settings.poll_interval
    while True:
        ended, status = retried(lambda: backend.poll(batch_id), f"polling {backend.provider} batch {batch_id}")
        if ended:
            return
        if settings.max_wait is not None and time.monotonic() - started > settings.max_wait:
            raise APIModelError(f"{backend.provider} batch {batch_id} still {status} after {settings.max_wait:.0f}s; "
                                f"run again later to pick it up from the journal")
        log.debug("%s batch %s: %s", backend.provider, batch_id, status)
        settings.sleep(interval)
        interval = min(interval * settings.poll_factor, settings.poll_max_interval)


def settings_from_options(options: dict[str, Any], sleep: Callable[[float], None] | None = None) -> BatchSettings:
    """Pop the batch-loop options (``poll_interval``, ``resubmissions``, ``error_retries``, ``backoff``…)."""
    base = BatchSettings()
    backoff_initial = as_float("backoff", options.pop("backoff", base.backoff.initial))
    max_wait = options.pop("max_wait", None)
    return BatchSettings(
        poll_interval=as_float("poll_interval", options.pop("poll_interval", base.poll_interval)),
        poll_max_interval=as_float("poll_max_interval", options.pop("poll_max_interval", base.poll_max_interval)),
        poll_factor=as_float("poll_factor", options.pop("poll_factor", base.poll_factor), 1.0),
        resubmissions=as_int("resubmissions", options.pop("resubmissions", base.resubmissions)),
        error_retries=as_int("error_retries", options.pop("error_retries", base.error_retries)),
        backoff=Backoff(initial=backoff_initial, maximum=max(backoff_initial, base.backoff.maximum)),
        max_wait=None if max_wait is None else as_float("max_wait", max_wait),
        sleep=sleep or time.sleep,
    )


# --------------------------------------------------------------------------- the shared model


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

    # ----------------------------------------------------------- provider hooks

    def make_client(self) -> Any:
        """The SDK client, built from ``api_key``, ``base_url``, ``max_retries`` and ``timeout``."""
        raise NotImplementedError

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
            raws = self._batched(bodies)
            each = (time.perf_counter() - started) / len(requests)  # a batch has no per-item latency
            return [self._generation(raw, each, batched=True) for raw in raws]
        return self._direct(requests, bodies)

    def close(self) -> None:
        """Close the SDK client's connections."""
        close = getattr(self.client, "close", None)
        if callable(close):
            close()

    def _batched(self, bodies: list[dict[str, Any]]) -> list[Any]:
        ids = [custom_id(index, body) for index, body in enumerate(bodies)]
        items = dict(zip(ids, bodies))
        journal = BatchJournal.open(self.journal_dir, self.provider, self.identity,
                                    request_set_key(self.provider, self.identity, items))
        raws = run_batches(self.backend(), items, journal, self.settings, self.is_transient)
        return [raws[cid] for cid in ids]

    def _direct(self, requests: list[GenerationRequest], bodies: list[dict[str, Any]]) -> list[Generation]:
        def one(pair: tuple[GenerationRequest, dict[str, Any]]) -> Generation:
            request, body = pair
            started = time.perf_counter()
            raw = call_with_retries(lambda: self.call(body), transient=self.is_transient,
                                    retries=self.settings.error_retries, backoff=self.settings.backoff,
                                    what=f"{self.identity} for {request.label()}", sleep=self.settings.sleep)
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


def merge_spec_options(argument: str, options: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The model id of a prefix spec (``ID?opt=value``) and its query options merged with keyword ones."""
    model_id, query = split_spec(argument)
    clash = sorted(set(query) & set(options))
    if clash:
        raise ModelConfigError(f"option(s) {', '.join(clash)} given both in the spec and as keywords")
    return model_id, {**options, **query}
