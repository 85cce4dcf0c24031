"""Resilience of the hosted-API backends: exponential backoff around calls that fail transiently."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Callable, Iterator, TypeVar

from .api_config import APIModelError
from .base import ModelUnreachableError
from .redact import redact, redacting

__all__ = ["Backoff", "call_with_retries", "connection_failed", "transient_status"]

log = redacting(logging.getLogger("pytest_alias.models.api"))

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


def connection_failed(error: BaseException) -> bool:
    """Whether no connection could be made at all (refused, unknown host, connect timeout), as opposed
    to a slow or failed answer. The SDKs wrap their HTTP library's error (httpx, or httpx2 in newer
    releases), which they keep as the cause; matched by name so either library is recognized."""
    for candidate in (error, error.__cause__ or error.__context__):
        for kind in type(candidate).__mro__ if candidate is not None else ():
            if kind.__name__ in ("ConnectError", "ConnectTimeout") and kind.__module__.startswith("httpx"):
                return True
    return False


#: Further attempts after the SDK's own when no connection can be made: a network that is down
#: stays down, so a run stops within seconds instead of backing off for minutes per request.
CONNECT_RETRIES = 1


def call_with_retries(call: Callable[[], T], *, transient: Callable[[BaseException], bool], retries: int,
                      backoff: Backoff, what: str, sleep: Callable[[float], None] = time.sleep,
                      unreachable: Callable[[BaseException], bool] = connection_failed,
                      connect_retries: int = CONNECT_RETRIES) -> T:
    """``call()``, retried up to ``retries`` more times with backoff while it raises a ``transient`` error.

    The SDKs already retry each HTTP request a few times; this loop covers longer outages (a rate
    limit that outlasts them, a provider restart). The last transient failure becomes
    ``APIModelError``; any other error propagates at once. An ``unreachable`` error (no connection at
    all) gets only ``connect_retries`` more attempts and then stops the run: ``ModelUnreachableError``.
    """
    delays = backoff.delays()
    failed_connections = 0
    for attempt in range(retries + 1):
        try:
            return call()
        except Exception as error:
            if unreachable(error):
                failed_connections += 1
                if failed_connections > connect_retries:
                    raise ModelUnreachableError(
                        f"{what}: no connection to the provider after {failed_connections} attempts "
                        f"({redact(str(error))}); "
                        f"check the network, the proxy or base_url") from error
            if not transient(error):
                raise
            if attempt == retries:
                raise APIModelError(f"{what} failed after {retries + 1} attempts: {redact(str(error))}") from error
            delay = next(delays)
            log.warning("%s failed (%s); retrying in %.1fs", what, error, delay)
            sleep(delay)
    raise AssertionError("unreachable")  # the loop returns or raises
