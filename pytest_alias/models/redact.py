"""One redaction step for every text a provider sends back, before it reaches a record, the store,
a report, the console or a log.

Gateways reached through ``base_url`` often echo the request's credentials in their error messages
(``Incorrect API key provided: Bearer sk-…``). So every error message, traceback and response body
from a provider passes :func:`redact` (or :func:`redact_json`): the values of the configured keys
(the API models register theirs; environment variables named like keys, tokens or secrets count
too) and the common shapes of keys (``sk-…``, ``Bearer …``, ``x-api-key: …``) become ``[redacted]``.
"""

from __future__ import annotations

import logging
import os
import re
import threading
from typing import Any

__all__ = ["REDACTED", "RedactingFilter", "redact", "redact_json", "redact_values", "redacting", "register_secret"]

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
               r"""[^\s"',;}]{6,}"""),
)
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
    text = _SHAPES[0].sub(REDACTED, text)
    text = _SHAPES[1].sub(lambda m: f"{m.group(1)} {REDACTED}", text)
    return _SHAPES[2].sub(lambda m: f"{m.group(1)}{m.group(2)}{REDACTED}", text)


def redact_values(text: str) -> str:
    """``text`` with the known secret values replaced, key shapes left alone: for a model's answer,
    which may legitimately hold words like ``Bearer``, but never a configured key."""
    for value in _secret_values():
        if value in text:
            text = text.replace(value, REDACTED)
    return text


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
