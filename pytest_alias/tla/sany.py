"""Strict reading of SANY's output.

SANY exits 0 even when semantic analysis fails (an undefined operator, a duplicate definition), so
exit code alone overstates parsing. A module parses *strictly* only when SANY exits 0, prints no
parse, lexical, semantic or fatal error, and reports semantic processing of the main module.
The lenient exit-code verdict is kept too, since the paper reports both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_LOCATION = re.compile(r"line (\d+), col (\d+) to line (\d+), col (\d+) of module (\w+)")
_AT_LINE = re.compile(r"at line (\d+), column (\d+)")
_COUNT_HEADER = re.compile(r"^\*\*\* (Errors|Warnings|Abort messages): \d+\s*$")


def _line_column(at: re.Match[str] | None) -> tuple[int | None, int | None]:
    """The line and column of an ``_AT_LINE`` match, or (None, None) without one."""
    return (int(at.group(1)), int(at.group(2))) if at else (None, None)


@dataclass(frozen=True)
class SanyError:
    """One error SANY reported: kind (parse/lexical/semantic/fatal), message, and where, when known."""

    kind: str
    message: str
    line: int | None = None
    column: int | None = None
    module: str | None = None

    def __str__(self) -> str:
        where = f"line {self.line}, col {self.column}" if self.line is not None else "unknown location"
        module = f" of module {self.module}" if self.module else ""
        return f"{self.kind} error at {where}{module}: {self.message}"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "message": self.message, "line": self.line, "column": self.column, "module": self.module}


#: How a SANY run its time limit stopped is named where a verdict records the machine's limit.
SANY_TIMEOUT = "sany_timeout"


@dataclass(frozen=True)
class SanyResult:
    """SANY's verdict on one module: strict ``ok``, the lenient exit-code verdict, errors, raw output."""

    ok: bool
    exit_code: int | None
    errors: tuple[SanyError, ...]
    output: str = field(repr=False)
    seconds: float = 0.0
    timed_out: bool = False
    cached: bool = False

    @property
    def machine_ending(self) -> str | None:
        """:data:`SANY_TIMEOUT` when SANY's time limit, not the module, ended the run."""
        return SANY_TIMEOUT if self.timed_out else None

    @property
    def lenient_ok(self) -> bool:
        """The exit-code verdict (what TLA+-Bench's plain check uses)."""
        return self.exit_code == 0

    def to_dict(self) -> dict[str, object]:
        return {"ok": self.ok, "lenient_ok": self.lenient_ok, "errors": [e.to_dict() for e in self.errors]}


def _blocks(lines: list[str]) -> list[list[str]]:
    """Split lines into blank-line-separated blocks."""
    blocks: list[list[str]] = [[]]
    for line in lines:
        if line.strip():
            blocks[-1].append(line.rstrip())
        elif blocks[-1]:
            blocks.append([])
    return [block for block in blocks if block]


def _located_messages(section: list[str], kind: str) -> list[SanyError]:
    """Errors in a ``*** Errors: N`` / ``*** Abort messages: N`` section: a location block, then message blocks."""
    errors: list[SanyError] = []
    location: tuple[int, int, str] | None = None
    pending_location = False
    for block in _blocks(section):
        first = block[0].strip()
        match = _LOCATION.fullmatch(first)
        if match and len(block) == 1:
            location = (int(match.group(1)), int(match.group(2)), match.group(5))
            pending_location = True
            continue
        if first.startswith("In module ") and len(block) == 1:
            location, pending_location = (None, None, first[len("In module ") :]), True  # type: ignore[assignment]
            continue
        if first == "Unknown location" and len(block) == 1:
            location, pending_location = None, True
            continue
        message = " ".join(line.strip() for line in block)
        if pending_location and location is not None:
            line, column, module = location
            errors.append(SanyError(kind, message, line, column, module))
        else:
            errors.append(SanyError(kind, message))
        pending_location = False
    return errors


def parse_sany_output(output: str, exit_code: int | None, main: str) -> tuple[bool, tuple[SanyError, ...]]:
    """Strict verdict and errors from SANY's printed output."""
    lines = output.splitlines()
    errors: list[SanyError] = []
    # Sections introduced by "*** Errors: N" (semantic) and "*** Abort messages: N" (fatal).
    index = 0
    while index < len(lines):
        header = _COUNT_HEADER.match(lines[index].strip())
        if not header:
            index += 1
            continue
        end = index + 1
        while end < len(lines) and not _COUNT_HEADER.match(lines[end].strip()) and not lines[end].startswith(
            ("Semantic errors:", "Fatal errors", "Parsing file", "Semantic processing")
        ):
            end += 1
        kind = {"Errors": "semantic", "Abort messages": "fatal"}.get(header.group(1))
        if kind:
            errors.extend(_located_messages(lines[index + 1 : end], kind))
        index = end
    for number, line in enumerate(lines):
        if line.startswith("***Parse Error***"):
            detail = [text.strip() for text in lines[number + 1 : number + 4] if text.strip()]
            at = _AT_LINE.search(" ".join(detail))
            message = " ".join(text for text in detail if not text.startswith("Residual stack trace"))
            errors.append(SanyError("parse", message, *_line_column(at), main))
        elif line.startswith("Lexical error"):
            at = _AT_LINE.search(line)
            errors.append(SanyError("lexical", line.strip(), *_line_column(at), main))
        elif line.startswith("File does not exist:") or line.startswith("Cannot find source file"):
            errors.append(SanyError("fatal", line.strip()))
    processed = re.search(rf"^Semantic processing of module {re.escape(main)}\s*$", output, re.M) is not None
    if exit_code not in (0, None) and not errors:
        tail = [line.strip() for line in lines if line.strip()][-3:]
        errors.append(SanyError("fatal", " ".join(tail) or f"SANY exited with code {exit_code}"))
    if exit_code == 0 and not errors and not processed:
        errors.append(SanyError("fatal", f"SANY did not reach semantic processing of module {main}"))
    # Most specific first: a parse error explains the "could not parse module" abort that follows it.
    rank = {"parse": 0, "lexical": 0, "semantic": 1, "fatal": 2}
    unique = tuple(sorted(dict.fromkeys(errors), key=lambda error: rank.get(error.kind, 3)))
    return exit_code == 0 and not unique, unique
