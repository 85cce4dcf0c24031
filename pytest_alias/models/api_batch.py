"""Batches of the hosted-API backends: request ids, the on-disk batch journal and the
submit → poll → collect → re-submit loop that both providers' batch APIs share.

Nothing here imports a provider SDK; a provider plugs in through ``BatchBackend``.
"""

from __future__ import annotations

from ..errors import AliasError

import hashlib
import json
import logging
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Protocol, Sequence, TypeVar

from ..atomic import write_json_atomic
from .api_config import APIModelError, BatchFailedError, as_float, as_int
from .api_retry import Backoff, call_with_retries
from .redact import redact, redacting
from .store import default_store_root

__all__ = [
    "JOURNAL_ENV", "BatchBackend", "BatchGone", "BatchJournal", "BatchSettings", "ItemResult", "canonical_json",
    "custom_id", "default_journal_dir", "request_set_key", "run_batches", "settings_from_options",
    "wait_for_batch",
]

log = redacting(logging.getLogger("pytest_alias.models.api"))

T = TypeVar("T")

#: Where batch journals live when no ``journal_dir`` option is given.
JOURNAL_ENV = "ALIAS_BATCH_JOURNAL_DIR"


def default_journal_dir() -> Path:
    """``$ALIAS_BATCH_JOURNAL_DIR``, else ``batches/`` beside the default generation store."""
    override = os.environ.get(JOURNAL_ENV)
    return Path(override).expanduser() if override else default_store_root().parent / "batches"


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
        except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as error:
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
        document = {"version": 1, "provider": self.provider, "model": self.identity, "batches": self.batches}
        write_json_atomic(self.path, document, indent=1)


# --------------------------------------------------------------------------- the batch loop


class BatchGone(AliasError):
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
    #: Told each batch's state as it is polled (a progress line shows it).
    on_status: Callable[[str], None] | None = None


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
                errors[cid] = redact(result.error or "failed")  # a provider's text: may echo the key

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
                                   f"through the journal {journal.path}; run again to retry the rest",
                                   done=done, failed={cid: errors.get(cid, "not returned") for cid in pending})
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
        if settings.on_status is not None:
            settings.on_status(f"{batch_id[-8:]} {status}")
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
