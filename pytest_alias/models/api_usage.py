"""Money of the hosted-API backends: token prices, the cost estimate of one sample and usage counts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from .api_config import ModelConfigError, as_float

__all__ = ["Price", "estimate_cost", "int_fields"]


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
