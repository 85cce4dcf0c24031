"""One redaction step for every text a provider sends back, before it reaches a record, the store,
a report, the console or a log.

Gateways reached through ``base_url`` often echo the request's credentials in their error messages
(``Incorrect API key provided: Bearer sk-…``). So every error message, traceback and response body
from a provider passes :func:`redact` (or :func:`redact_json`): the values of the configured keys
(the API models register theirs; environment variables named like keys, tokens or secrets count
too), the common shapes of keys (``sk-…``, ``Bearer …``, ``x-api-key: …``) and the credentials of
a URL (``https://user:password@host``, ``?api_key=…``, ``&token=…``) become ``[redacted]``.

Redaction comes before any shortening: a text is cut only by :func:`shorten`, which redacts it
whole first (a key cut in half no longer matches, and its first half would survive). What someone
else's cut left of a registered key (its start or end, 8 characters or more) is redacted too.
"""

from __future__ import annotations

import logging
import os
import re
import threading
from typing import Any

__all__ = ["REDACTED", "RedactingFilter", "redact", "redact_json", "redact_values", "redacting", "register_secret",
           "shorten"]

REDACTED = "[redacted]"
#: Shorter values are not treated as secrets (they would redact ordinary words).
MIN_SECRET_LENGTH = 8
#: Environment variables whose values are secrets, by name.
_SECRET_NAME = re.compile(r"(?i)(API_?KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL)")
_SHAPES = (
    # OpenAI- and Anthropic-style keys (sk-…, sk-proj-…, sk-ant-…).
    re.compile(r"\bsk-[A-Za-z0-9_\-]{6,}"),
    # An Authorization header's value.
    re.compile(r"(?i)\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=\-]{6,}"),
    # key=value and "key": "value" forms of api keys and tokens.
    re.compile(r"""(?i)((?:x-)?api[_-]?key|access[_-]?token|auth[_-]?token|authorization)(["']?\s*[:=]\s*["']?)"""
               r"""[^\s"',;}&]{6,}"""),  # up to a URL's next parameter
)
#: A URL's user information (``scheme://user:password@``): all of it, the user name can be the token.
_URL_USER = re.compile(r"""(?i)\b([a-z][a-z0-9+.\-]*://)[^\s/?#@"'<>]+@""")
#: A URL query parameter that carries a credential (``?api_key=…``, ``&token=…``, ``&sig=…``).
_URL_PARAM = re.compile(r"""(?i)([?&;](?:[\w.\-]*[_\-])?(?:key|apikey|token|secret|password|passwd|pwd|sig|signature|auth))"""
                        r"""=[^&#\s"'<>]+""")
#: The shortest part of a registered key that is still redacted where it stands alone.
MIN_FRAGMENT = 8
_registered: set[str] = set()
_lock = threading.Lock()


def register_secret(value: str | None) -> None:
    """Have :func:`redact` hide ``value`` wherever it appears (an API model's key, once built)."""
    if value and len(value) >= MIN_SECRET_LENGTH:
        with _lock:
            _registered.add(value)


def _secret_values() -> list[str]:
    values = set(_registered)
    values.update(value for name, value in os.environ.items()
                  if _SECRET_NAME.search(name) and len(value) >= MIN_SECRET_LENGTH)
    return sorted(values, key=len, reverse=True)  # a longer secret first: a shorter one may be inside it


def redact(text: str) -> str:
    """``text`` with every known secret value and every key-shaped token replaced by ``[redacted]``."""
    if not text:
        return text
    text = redact_values(text)
    text = _URL_USER.sub(lambda m: f"{m.group(1)}{REDACTED}@", text)
    text = _URL_PARAM.sub(lambda m: f"{m.group(1)}={REDACTED}", text)
    text = _SHAPES[0].sub(REDACTED, text)
    text = _SHAPES[1].sub(lambda m: f"{m.group(1)} {REDACTED}", text)
    return _SHAPES[2].sub(lambda m: f"{m.group(1)}{m.group(2)}{REDACTED}", text)


def redact_values(text: str) -> str:
    """``text`` with the known secret values replaced, key shapes left alone: for a model's answer,
    which may legitimately hold words like ``Bearer``, but never a configured key."""
    for value in _secret_values():
        if value in text:
            text = text.replace(value, REDACTED)
    with _lock:
        registered = sorted(_registered, key=len, reverse=True)
    for value in registered:
        text = _redact_fragments(text, value)
    return text


def shorten(text: str, limit: int) -> str:
    """The first line of ``text``, at most ``limit`` characters, redacted whole *before* it is cut:
    the one way to shorten a text that may hold what a provider sent."""
    line = (redact(text).strip().splitlines() or [""])[0]
    return line[:limit]


def _redact_fragments(text: str, secret: str) -> str:
    """``text`` with what is left of ``secret`` after someone else's cut replaced: any start or end
    of it of ``MIN_FRAGMENT`` characters or more, and any longer run inside it. Each run holds one of
    the key's ``MIN_FRAGMENT``-character blocks (at multiples of it, and its last block), found by
    plain substring search and grown while the text goes on as the key does."""
    size = MIN_FRAGMENT
    if len(secret) < size or len(text) < size:
        return text
    spans: list[tuple[int, int]] = []
    for j in sorted({*range(0, len(secret) - size + 1, size), len(secret) - size}):
        found = text.find(secret[j:j + size])
        while found >= 0:
            spans.append(_grown(text, secret, found, j))
            found = text.find(secret[j:j + size], found + 1)
    for start, end in reversed(_merged(spans)):
        text = text[:start] + REDACTED + text[end:]
    return text


def _grown(text: str, secret: str, at: int, j: int) -> tuple[int, int]:
    """The span of ``text`` around ``at`` (where ``secret[j:]`` begins to match) that matches ``secret``."""
    start, k = at, j
    while start > 0 and k > 0 and text[start - 1] == secret[k - 1]:
        start, k = start - 1, k - 1
    end, k = at + MIN_FRAGMENT, j + MIN_FRAGMENT
    while end < len(text) and k < len(secret) and text[end] == secret[k]:
        end, k = end + 1, k + 1
    return start, end


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def redact_json(value: Any) -> Any:
    """A JSON-able value with :func:`redact` applied to every string in it (keys included)."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {redact(k) if isinstance(k, str) else k: redact_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact_json(v) for v in value]
    return value


class RedactingFilter(logging.Filter):
    """A logging filter that redacts each record's message (its arguments formatted in first)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        return True


def redacting(logger: logging.Logger) -> logging.Logger:
    """``logger`` with a :class:`RedactingFilter` (once)."""
    if not any(isinstance(f, RedactingFilter) for f in logger.filters):
        logger.addFilter(RedactingFilter())
    return logger
