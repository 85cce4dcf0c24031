"""Say in one line why TLC failed an output under the name grade."""

from __future__ import annotations

import re

from ..tla.cfg import CfgError, parse_cfg
from ..tla.launcher import heap_cap
from ..tla.tlc import TlcResult, TraceState
from ..tla.values import format_value
from .bind import CfgBinding

#: Longest state summary a reason carries; the full trace stays in the TLC output.
STATE_LIMIT = 240
#: Traces longer than this show their first and last steps only.
STEP_LIMIT = 6

_NOT_DEFINED = re.compile(r"The (?:[\w ]+ )?(\S+) specified in the configuration file\s+is not defined", re.S)
_NOT_ASSIGNED = re.compile(r"constant parameter (\S+) is not assigned a value")


_TOOL_MARKER = re.compile(r"@!@!@(?:STARTMSG \d+:\d+|ENDMSG \d+) @!@!@")


def _plain(message: str | None) -> str:
    """``message`` without TLC's ``-tool`` markers, on one line."""
    return " ".join(_TOOL_MARKER.sub(" ", message or "").split())


def _clip(text: str, limit: int = STATE_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _step(state: TraceState) -> str:
    """The action's name: TLC prints ``<Arrive line 3, col 5 to ... of module M>``."""
    label = state.action.strip().strip("<>").strip()
    return label.split(" line ", 1)[0] or "?"


def _state(state: TraceState) -> str:
    if not state.values:
        return _clip(" ".join(state.text.split())) or "(unparsed)"
    parts = []
    for name, value in state.values.items():
        try:
            parts.append(f"{name} = {format_value(value)}")
        except TypeError:
            parts.append(f"{name} = {value!r}")
    return _clip(", ".join(parts))


def trace_summary(result: TlcResult) -> str:
    """A short counterexample summary: its length, its steps and its last state."""
    trace = result.counterexample
    if not trace:
        return "no counterexample printed"
    steps = [_step(s) for s in trace]
    if len(steps) > STEP_LIMIT:
        steps = steps[:2] + ["…"] + steps[-3:]
    summary = f"counterexample of {len(trace)} state{'s' if len(trace) != 1 else ''} ({' → '.join(steps)})"
    summary += f"; last state: {_state(trace[-1])}"
    if result.loops_to is not None:
        summary += f"; loops back to state {result.loops_to}"
    elif result.stutters:
        summary += "; then stutters forever"
    return summary


def _stand_in(name: str, binding: CfgBinding) -> str:
    """`` (standing in for X)`` when the binding substituted ``name`` for a missing cfg name."""
    replaced = [old for keyword, old, new in binding.changes if new == name and keyword not in
                ("INIT", "NEXT", "SPECIFICATION")]
    return f" (standing in for {', '.join(replaced)})" if replaced else ""


def _properties(binding: CfgBinding) -> tuple[str, ...]:
    try:
        return parse_cfg(binding.text).properties
    except CfgError:
        return ()


def _listed(names: list[str] | tuple[str, ...]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _config_reason(result: TlcResult, binding: CfgBinding) -> str:
    message = result.message or ""
    undefined = _NOT_DEFINED.search(message)
    if undefined is not None:
        name = undefined.group(1)
        # TLC stops at the first undefined name; the static check lists all of them.
        names = list(binding.missing) if name in binding.missing else [name]
        return f"output does not define {_listed(names)}, which the cfg requires"
    unassigned = _NOT_ASSIGNED.search(message)
    if unassigned is not None:
        return f"output declares constant {unassigned.group(1)}, to which the cfg assigns no value"
    if message.startswith("cfg: "):  # raised before TLC ran: the jar cannot take this cfg
        return f"the task's cfg cannot run on this TLC: {message[5:]}"
    return f"TLC rejected the cfg: {message or 'no message'}"


def tlc_reason(result: TlcResult, binding: CfgBinding, timeout: float) -> str | None:
    """Why TLC failed the output (None when it passed)."""
    status = result.status
    if status == "ok":
        return None
    if status == "timeout":
        return f"TLC ran past the {timeout:g} s limit"
    if status == "out_of_memory":
        return f"TLC ran out of memory under the {heap_cap()} heap cap (ALIAS_JAVA_HEAP raises it): {result.message}"
    if status == "too_large":  # stopped over a budget while TLC ran (see tla/streams.py)
        message = result.message or "run went over its budget"
        if message.startswith("TLC printed "):  # "TLC printed more than 64 MB (…)"
            return "the output made TLC print " + message.removeprefix("TLC printed ")
        return f"the output's {message.removeprefix('the ')}"
    if status == "stopped_early":  # the output ended TLC's search itself (see tla/tlc.py)
        return result.message or "the output stopped TLC before it had explored every state"
    if status == "config_error":
        return _config_reason(result, binding)
    if status == "invariant_violation":
        name = result.violated or "an invariant"
        return f"invariant {name}{_stand_in(name, binding)} is violated: {trace_summary(result)}"
    if status == "property_violation":
        violated = result.violated
        # TLC names no property when a temporal property fails: list the ones the cfg checks.
        checked = _properties(binding)
        what = (f"property {violated}{_stand_in(violated, binding)}" if violated
                else f"property {checked[0]}{_stand_in(checked[0], binding)}" if len(checked) == 1
                else f"one of the properties {_listed(checked)}" if checked
                else "a temporal property")
        return f"{what} is violated: {trace_summary(result)}"
    if status == "deadlock":
        return f"TLC reached a deadlock: {trace_summary(result)}"
    if status in ("parse_error", "semantic_error"):
        return f"TLC could not parse the output: {result.message or 'no message'}"
    if status == "assumption_failure":
        return f"an ASSUME fails under the cfg's constants: {result.message or 'no message'}"
    return f"TLC failed: {_plain(result.message) or 'no message'}"
