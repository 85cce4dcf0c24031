"""Reading TLC's ``-tool`` output: message codes → a verdict, statistics and a counterexample.

With ``-tool`` TLC wraps every message in ``@!@!@STARTMSG code:severity @!@!@ … @!@!@ENDMSG code @!@!@``.
The codes (``tlc2.output.EC``) are stable across TLC versions and say more than the exit code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

from .values import Value, ValueParseError, format_value, parse_state

Status = Literal[
    "ok", "invariant_violation", "property_violation", "deadlock", "assumption_failure", "parse_error",
    "semantic_error", "config_error", "timeout", "out_of_memory", "too_large", "stopped_early", "crash",
]
STATUSES: tuple[str, ...] = Status.__args__  # type: ignore[attr-defined]
#: Statuses of a run the machine ended, not the spec: another try may end otherwise. ("crash" is
#: TLC's word for an error in the spec too, and "too_large" is the spec against fixed budgets.)
MACHINE_STATUSES = frozenset({"timeout", "out_of_memory"})

#: TLC's own messages for a heap it exhausted (``EC.SYSTEM_OUT_OF_MEMORY``, ``…_TOO_MANY_INIT``,
#: ``…_LIVENESS``): message codes, which no text a spec prints can forge.
OUT_OF_MEMORY_CODES = frozenset({1001, 1002, 1003})
#: What a JVM prints when its heap is exhausted, read only at the start of a line: a spec's printed
#: values never start a line with these words (TLC prints a string value in quotes, a record with ``[``,
#: a set with ``{``), so ``PrintT("java.lang.OutOfMemoryError")`` cannot pass its run off as the
#: machine's fault. The first form is the uncaught error of a fresh JVM, the others the last line of
#: an error message in which TLC caught it (the serial collector, which the quick server tier uses, has
#: no GC-overhead limit to stop it first).
_OUT_OF_MEMORY_LINE = re.compile(
    r'^(?:Exception in thread "[^"\n]*" |The exception was a )?(java\.lang\.OutOfMemoryError)\b'
    r"|^(Java heap space|GC overhead limit exceeded)[ \t]*\r?\n@!@!@ENDMSG", re.M)


def out_of_memory_marker(output: str) -> str | None:
    """The words in a run's output that say Java ran out of memory (None: it did not)."""
    if any(message.code in OUT_OF_MEMORY_CODES for message in parse_messages(output)):
        return "Java ran out of memory"
    found = _OUT_OF_MEMORY_LINE.search(output)
    return (found.group(1) or found.group(2)) if found else None

#: A message starts a line (TLC nests a message inside another after ": ", read as the outer one's text).
_MESSAGE = re.compile(r"^@!@!@STARTMSG (\d+):(\d+) @!@!@\n(.*?)@!@!@ENDMSG \1 @!@!@", re.S | re.M)

# Message codes of tlc2.output.EC (stable since TLC 2.x).
SUCCESS = 2193
STATS = 2199
SEARCH_DEPTH = 2194
INIT_GENERATED = 2190
INVARIANT_VIOLATED = {2107, 2110}
PROPERTY_VIOLATED = {2108, 2116, 2112}
DEADLOCK = 2114
ASSUMPTION = {2104, 2105}
STATE_PRINT = {2216, 2217}
INITIAL_VIOLATION = {2107, 2108}
STUTTERING = 2218
BACK_TO_STATE = 2122
PARSING_FAILED = {3002, 2171, 4000, 4001, 4002}
CONFIG_ERRORS = set(range(5001, 5007)) | set(range(2222, 2246)) | {2280, 2281, 2279, 2284, 1102, 3100, 3113}
NO_INITIAL_STATES = 2118
SEVERITY_ERROR = 1


@dataclass(frozen=True)
class Message:
    """One ``-tool`` message."""

    code: int
    severity: int
    text: str


@dataclass(frozen=True)
class TraceState:
    """One state of a counterexample: its 1-based position, the action that led to it, variable values."""

    index: int
    action: str
    values: dict[str, Value] = field(hash=False)
    text: str = field(repr=False, default="")

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "action": self.action, "values": {k: format_value(v) for k, v in self.values.items()}}


@dataclass(frozen=True)
class TlcResult:
    """TLC's verdict on a spec and cfg, with statistics, counterexample and raw output."""

    status: Status
    violated: str | None
    counterexample: tuple[TraceState, ...]
    distinct_states: int | None
    states_generated: int | None
    depth: int | None
    seconds: float
    output: str = field(repr=False)
    exit_code: int | None = None
    message: str | None = None
    loops_to: int | None = None  # for a lasso-shaped (liveness) counterexample: the state it returns to
    stutters: bool = False  # the counterexample ends in stuttering
    launcher: str = "fresh"
    cached: bool = False
    flags: tuple[str, ...] = ()
    #: The cfg keyword the configured jar predates, when that kept TLC from running: a toolchain limit.
    unsupported_keyword: str | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def machine_ending(self) -> str | None:
        """The status when the machine, not the spec, ended the run (see :data:`MACHINE_STATUSES`)."""
        return self.status if self.status in MACHINE_STATUSES else None

    def to_dict(self) -> dict[str, Any]:
        """The JSON object ``tla-alias check --json`` prints under ``"tlc"``."""
        return {
            "status": self.status,
            "distinct_states": self.distinct_states,
            "states_generated": self.states_generated,
            "depth": self.depth,
            "violated": self.violated,
            "seconds": round(self.seconds, 3),
        }

    def explain(self) -> str:
        """One line saying what TLC found."""
        if self.status == "ok":
            return f"TLC passed: {self.distinct_states} distinct states"
        if self.unsupported_keyword is not None:  # TLC did not run: the jar predates the cfg
            return f"toolchain limitation: {(self.message or '').removeprefix('cfg: ')}"
        head = self.status.replace("_", " ")
        if self.violated:
            head += f" of {self.violated}"
        if self.message:
            head += f": {self.message}"
        if self.counterexample:
            head += f" (counterexample of {len(self.counterexample)} states)"
        return head


def parse_messages(output: str) -> list[Message]:
    """All ``-tool`` messages in TLC's output, in order."""
    return [Message(int(m.group(1)), int(m.group(2)), m.group(3).rstrip("\n")) for m in _MESSAGE.finditer(output)]


def _first_int(pattern: str, text: str) -> int | None:
    match = re.search(pattern, text)
    return int(match.group(1).replace(",", "")) if match else None


def _trace_state(message: Message) -> TraceState | None:
    header, _, body = message.text.partition("\n")
    match = re.match(r"(\d+): (.*)", header)
    if not match:
        return None
    try:
        values = parse_state(body) if body.strip() else {}
    except ValueParseError:
        values = {}
    return TraceState(int(match.group(1)), match.group(2).strip(), values, body)


def _violated_name(code: int, text: str) -> str | None:
    patterns = {
        2107: r"Invariant (\S+) is violated",
        2110: r"Invariant (\S+) is violated",
        2112: r"Action property (\S+) is violated",
        2108: r"property (\S+) is violated",
    }
    pattern = patterns.get(code)
    match = re.search(pattern, text) if pattern else None
    return match.group(1).rstrip(".") if match else None


def _short(text: str, limit: int = 300) -> str:
    one_line = " ".join(text.split())
    return one_line if len(one_line) <= limit else one_line[: limit - 1] + "…"


def classify(output: str, exit_code: int | None, timed_out: bool, seconds: float, **extra: Any) -> TlcResult:
    """Turn a TLC run (``-tool`` output, exit code) into a ``TlcResult``."""
    messages = parse_messages(output)
    codes = {m.code for m in messages}
    stats = next((m.text for m in reversed(messages) if m.code == STATS), "")
    distinct = _first_int(r"([\d,]+) distinct states? found", stats)
    generated = _first_int(r"([\d,]+) states? generated", stats)
    if distinct is None:  # stopped before the first progress report, e.g. a violated initial state
        init = next((m.text for m in messages if m.code == INIT_GENERATED), "")
        distinct = _first_int(r"([\d,]+) distinct states? generated", init)
    left_on_queue = _first_int(r"([\d,]+) states? left on queue", stats)
    depth = next((_first_int(r"is (\d+)", m.text) for m in messages if m.code == SEARCH_DEPTH), None)
    trace = _trace(messages)
    loops_to = next((_first_int(r"(\d+)", m.text) for m in messages if m.code == BACK_TO_STATE), None)
    stutters = STUTTERING in codes
    status, violated, message = _status(output, exit_code, timed_out, messages, _incomplete(left_on_queue, stats))
    return TlcResult(
        status=status, violated=violated, counterexample=trace, distinct_states=distinct, states_generated=generated,
        depth=depth, seconds=seconds, output=output, exit_code=exit_code, message=message, loops_to=loops_to,
        stutters=stutters, **extra,
    )


def _trace(messages: list[Message]) -> tuple[TraceState, ...]:
    """The error trace TLC printed, state by state."""
    trace = tuple(s for m in messages if m.code in STATE_PRINT for s in [_trace_state(m)] if s is not None)
    if not trace:  # a violated initial state is printed inside the violation message itself
        found = next((m for m in messages if m.code in INITIAL_VIOLATION), None)
        if found is not None and "\n" in found.text:
            first = _trace_state(Message(found.code, found.severity, "1: <Initial predicate>\n" + found.text.split("\n", 1)[1]))
            trace = (first,) if first is not None else ()
    return trace


def _status(output: str, exit_code: int | None, timed_out: bool, messages: list[Message],
            incomplete: str | None) -> tuple[Status, str | None, str | None]:
    """The run's status, the property it violated (if one) and the message saying why; the first rule
    that matches decides. ``incomplete`` says why a successful run did not explore every state."""
    codes = {m.code for m in messages}
    errors = [m for m in messages if m.severity == SEVERITY_ERROR or m.code in INVARIANT_VIOLATED | PROPERTY_VIOLATED]
    message = _short(errors[0].text) if errors else None  # the rules that name no message of their own
    error_codes = {m.code for m in errors}
    error_texts = "\n".join(m.text for m in errors)
    if timed_out:
        return "timeout", None, "TLC ran past its time limit"
    if not (codes & (INVARIANT_VIOLATED | PROPERTY_VIOLATED)) and (marker := out_of_memory_marker(output)):
        # The heap cap, not the spec's meaning, ended the run: said as such (and never cached).
        return "out_of_memory", None, f"Java ran out of memory ({marker.removeprefix('java.lang.')})"
    if exit_code == 0 and SUCCESS in codes and not errors:
        return ("ok", None, None) if incomplete is None else ("stopped_early", None, incomplete)
    if codes & INVARIANT_VIOLATED:
        found = next(m for m in messages if m.code in INVARIANT_VIOLATED)
        return "invariant_violation", _violated_name(found.code, found.text), _short(found.text)
    if codes & PROPERTY_VIOLATED:
        found = next(m for m in messages if m.code in PROPERTY_VIOLATED)
        return "property_violation", _violated_name(found.code, found.text), _short(found.text)
    if DEADLOCK in codes:
        return "deadlock", None, "deadlock reached"
    if codes & ASSUMPTION:
        return "assumption_failure", None, message
    if "Semantic errors:" in output or "*** Errors:" in output:
        return "semantic_error", None, _short(_after(output, "*** Errors:"))
    if codes & PARSING_FAILED or "***Parse Error***" in output or "Lexical error" in output:
        return "parse_error", None, _short(_after(output, "***Parse Error***") or _after(output, "Lexical error"))
    if error_codes & CONFIG_ERRORS or "ConfigFileException" in output or "configuration file" in error_texts:
        return "config_error", None, message
    return "crash", None, _crash_message(output, exit_code, codes, message)


def _crash_message(output: str, exit_code: int | None, codes: set[int], message: str | None) -> str:
    """What a run that ended in none of the known ways says: its first error, else its last lines."""
    if NO_INITIAL_STATES in codes:
        return "no state satisfies the initial predicate"
    if message is None:
        tail = [line for line in output.splitlines() if line.strip() and not line.startswith("@!@!@")][-3:]
        message = _short(" ".join(tail)) or f"TLC exited with code {exit_code}"
    return message


def _incomplete(left_on_queue: int | None, stats: str) -> str | None:
    """Why a run TLC reported as successful did not explore every reachable state, or None.

    A breadth-first check that ran to its end leaves no state on its queue; one that a spec ended
    (``TLCSet("exit", TRUE)`` in Init, an invariant or an action) reports "no error" with states
    still queued. Only the final statistics, a message TLC itself frames, say which: a check passes
    on that evidence alone."""
    if not stats:
        return "TLC reported success without its final statistics, so nothing shows it explored every state"
    if left_on_queue is None:
        return "TLC's final statistics do not say how many states were left to explore"
    if left_on_queue > 0:
        return (f"the output stopped TLC early: it ended the check with {left_on_queue} states left to explore "
                "(TLCSet(\"exit\", ...) or another early stop), so its properties were not checked on every state")
    return None


def _after(output: str, marker: str) -> str:
    """The few lines after ``marker`` in ``output`` (for a short error message)."""
    position = output.find(marker)
    if position < 0:
        return ""
    return " ".join(output[position + len(marker) :].strip().splitlines()[:4])
