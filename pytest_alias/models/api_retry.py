"""Resilience of the hosted-API backends: exponential backoff around calls that fail transiently."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Callable, Iterator, TypeVar

from .api_config import APIModelError

__all__ = ["Backoff", "call_with_retries", "transient_status"]

log = logging.getLogger("pytest_alias.models.api")

T = TypeVar("T")


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
