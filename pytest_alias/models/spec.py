"""A model spec's ``?key=value`` options, parsed in one place (standard library only).

``smollm2?lora=DIR``, ``hf:PATH?lora=DIR&prompt_style=chat``, ``claude:ID?batch=0&max_tokens=N``:
the text before the first ``?`` names the model (an exact name, or a prefix's argument such as
``PATH`` or ``ID``) and the query after it carries options. The registry looks the head up with
:func:`spec_head`; it and every factory that takes options read them with :func:`with_spec_options`.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

from .api_config import ModelConfigError

__all__ = ["spec_head", "split_spec", "with_spec_options"]


def spec_head(spec: str) -> str:
    """The text before the first ``?``; the options are not checked (a lookup never raises)."""
    return spec.partition("?")[0]


def split_spec(text: str) -> tuple[str, dict[str, str]]:
    """``"ID?batch=0&max_tokens=16000"`` → ``("ID", {"batch": "0", "max_tokens": "16000"})``.

    The head is stripped and must not be empty; a malformed query or an option given twice is a
    one-line ``ModelConfigError``.
    """
    head, _, query = text.partition("?")
    head = head.strip()
    if not head:
        raise ModelConfigError(f"model spec {text!r} names no model id")
    try:
        pairs = parse_qsl(query, keep_blank_values=True, strict_parsing=bool(query))
    except ValueError as error:  # urllib's own text ("bad query field: 'lora'") names no spec
        raise ModelConfigError(f"model spec {text!r}: each option after '?' must be key=value ({error})") from None
    options: dict[str, str] = {}
    for name, value in pairs:
        if name in options:
            raise ModelConfigError(f"model spec {text!r} sets {name!r} twice")
        options[name] = value
    return head, options


def with_spec_options(text: str, options: dict[str, Any], *, spec_wins: bool = False) -> tuple[str, dict[str, Any]]:
    """The head of ``text`` and ``options`` merged with those its query carries.

    An option given both in the spec and as a keyword is an error, unless ``spec_wins``: a local
    model's spec (``smollm2?lora=DIR``) overrides the run's defaults, while an API model's keyword
    options come from code that must not be silently overruled.
    """
    head, carried = split_spec(text)
    clash = sorted(set(carried) & set(options))
    if clash and not spec_wins:
        raise ModelConfigError(f"option(s) {', '.join(clash)} given both in the spec and as keywords")
    return head, {**options, **carried}
