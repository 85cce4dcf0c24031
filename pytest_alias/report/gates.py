"""CI gates on the aggregate: ``"behavior.decrease.ci_low<=5"``, ``"name.original>=20"``.

A gate is ``[MODEL:]PATH OP NUMBER``. PATH walks the model's aggregate: ``<grade>.<condition>`` is a
pass rate in percent of samples (0–100); ``<grade>.decrease.<field>`` is original − random in percentage points
(``mean``, ``ci_low``, ``ci_high``, ``ci90_low``, ``ci90_high``, ``equivalent`` (1 when the 90%
interval lies within ±5 points), ``sign_p``, ``now_fail``, ``now_pass``); ``decrease_meaningful``
compares original and meaningful names; with several renamings per task ``<grade>.seeds.decrease.<field>``
and ``<grade>.seeds.worst_case.mean`` (points) read the multi-seed analysis. MODEL may be left out
when one model ran.

Units are checked: a rate takes ``60`` or ``60%`` (a bare ``0.6``, the old fraction form, is refused
as ambiguous), a decrease takes points (``5`` or ``5pt``; ``5%`` is refused), counts and p values no unit.
"""

from __future__ import annotations

from ..errors import UsageProblem

import operator
import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping
from ..vocabulary import GRADES

_GATE = re.compile(r"^\s*(?:(?P<model>[^:\s]+(?::[^:\s]+)*?):(?=[a-z]+\.))?(?P<path>[A-Za-z_][\w.]*)\s*"
                   r"(?P<op><=|>=|==|!=|<|>)\s*(?P<value>-?\d+(?:\.\d*)?(?:[eE]-?\d+)?)\s*"
                   r"(?P<unit>%|pts?|points?)?\s*$")
_OPS: dict[str, Callable[[float, float], bool]] = {
    "<=": operator.le, ">=": operator.ge, "<": operator.lt, ">": operator.gt, "==": operator.eq, "!=": operator.ne,
}


class GateError(UsageProblem):
    """A gate that cannot be parsed or names nothing in the aggregate."""


@dataclass(frozen=True)
class Gate:
    """One threshold on the aggregate."""

    text: str
    model: str | None
    path: tuple[str, ...]
    op: str
    value: float

    def check(self, aggregate: Mapping[str, Any]) -> tuple[bool, float | None, str]:
        """(passed, the value found, a one-line message)."""
        models = aggregate.get("models", {})
        model = self.model
        if model is None:
            if len(models) != 1:
                raise GateError(f"gate {self.text!r}: several models ran; prefix the gate with MODEL:")
            model = next(iter(models))
        node: Any = models.get(model)
        if node is None:
            raise GateError(f"gate {self.text!r}: no model {model!r} in this run")
        node = node.get("grades", {})
        for part in self.path:
            node = _step(node, part)
            if node is None:
                raise GateError(f"gate {self.text!r}: nothing at {'.'.join(self.path)} for model {model}")
        if not isinstance(node, (int, float)):
            raise GateError(f"gate {self.text!r}: {'.'.join(self.path)} is not a number")
        found = 100 * float(node) if _unit_of(self.path) == "percent" else float(node)  # rates are stored as fractions
        passed = _OPS[self.op](found, self.value)
        verdict = "holds" if passed else "VIOLATED"
        unit = {"percent": "%", "points": " points"}.get(_unit_of(self.path), "")
        return passed, found, f"gate {self.text} {verdict} ({'.'.join(self.path)} = {found:g}{unit})"


def _step(node: Any, part: str) -> Any:
    if not isinstance(node, dict):
        return None
    if part in node:
        return node[part]
    # "<grade>.<condition>" is shorthand for the condition's rate.
    rates = node.get("rates", {})
    if part in rates:
        return rates[part]["mean"]
    return node.get("decreases", {}).get({"decrease": "random", "decrease_meaningful": "meaningful"}.get(part, ""))


def parse_gate(text: str) -> Gate:
    """Parse one gate; raises GateError saying the expected form."""
    match = _GATE.match(text)
    if not match:
        raise GateError(f"gate {text!r} is not of the form [MODEL:]GRADE.PATH OP NUMBER, e.g. behavior.decrease.ci_low<=5")
    path = tuple(match.group("path").split("."))
    if path[0] not in GRADES:
        raise GateError(f"gate {text!r}: the path must start with parse, name or behavior")
    value, unit = float(match.group("value")), match.group("unit")
    kind = _unit_of(path)
    if kind == "percent":
        if unit is not None and unit.startswith("p"):
            raise GateError(f"gate {text!r}: {'.'.join(path)} is a pass rate in percent of samples, not points; "
                            f"write {value:g} or {value:g}%")
        if unit is None and 0 < value < 1:
            # Rates used to be fractions: 0.6 is ambiguous between 60% and 0.6%, so it is refused.
            raise GateError(f"gate {text!r}: {'.'.join(path)} is a pass rate in percent (0–100); write "
                            f"{100 * value:g} for {100 * value:g}%, or {value:g}% if you mean under one percent")
    elif kind == "points" and unit == "%":
        raise GateError(f"gate {text!r}: {'.'.join(path)} is in percentage points (original − renamed); "
                        f"write {value:g} or {value:g}pt")
    elif kind == "count" and unit is not None:
        raise GateError(f"gate {text!r}: {'.'.join(path)} has no unit; write {value:g}")
    return Gate(text.strip(), match.group("model"), path, match.group("op"), value)


#: Decrease fields that are not in points.
_UNITLESS = frozenset({"sign_p", "now_fail", "now_pass", "equivalent", "n", "tasks", "margin_ok"})


def _unit_of(path: tuple[str, ...]) -> str:
    """``percent`` (a pass rate), ``points`` (a decrease) or ``count`` (a p value, a count, a flag)."""
    if path[-1] in _UNITLESS:
        return "count"
    if any(part in ("decrease", "decrease_meaningful", "decreases", "worst_case") for part in path):
        return "points"
    if len(path) == 2 or "rates" in path:
        return "percent"
    return "count"
