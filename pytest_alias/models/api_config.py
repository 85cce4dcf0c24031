"""Configuration of the hosted-API backends: their errors, API keys and option values.

Nothing here imports a provider SDK. A spec such as ``claude:ID?batch=0&max_tokens=16000`` is split
into the model id and its options by ``models/spec.py``; the option values are coerced here, with
one-line ``ModelConfigError`` messages.
"""

from __future__ import annotations

from ..errors import AliasError, UsageProblem

import os
from typing import Any

__all__ = [
    "BATCH_ENV", "APIModelError", "BatchFailedError", "ModelConfigError", "as_bool", "as_float", "as_int",
    "batch_default", "require_env_key",
]

#: Set to 0 to make every API model call the direct (non-batch) endpoint unless its spec says otherwise.
BATCH_ENV = "ALIAS_API_BATCH"


class ModelConfigError(UsageProblem):
    """An API model that cannot be built: a missing key, an unknown option or a bad option value."""


class APIModelError(AliasError, RuntimeError):
    """A provider call that still failed after every retry."""


class BatchFailedError(APIModelError):
    """Batch items that kept failing after every re-submission; ``done`` holds the raw results of the
    items that finished (by custom id) and ``failed`` why each other item did not."""

    def __init__(self, message: str, done: dict[str, Any] | None = None, failed: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.done = dict(done or {})
        self.failed = dict(failed or {})


def require_env_key(variable: str, provider: str) -> str:
    """The API key in ``variable``; raises ``ModelConfigError`` (one line, naming it) when unset or blank."""
    value = os.environ.get(variable, "").strip()
    if not value:
        raise ModelConfigError(f"{provider} models need an API key: set the environment variable {variable}")
    return value


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

