"""Records read back from files are checked before anything is computed from them.

``tla-alias report`` and the replay loader read files a person may have edited, truncated or
mixed up. A file that is not UTF-8, a JSON document nested past any sensible depth, or a record
whose fields have the wrong types is one ``RecordError`` naming the file, the line and the field,
never a traceback and never a table computed from wrong data.
"""

from __future__ import annotations

from ..errors import UsageProblem

import json
from pathlib import Path
from typing import Any, Callable, Mapping

__all__ = ["RecordError", "check_record", "loads", "read_located_rows"]


class RecordError(UsageProblem):
    """A file or record that cannot be used, said in one line (``FILE:LINE: field …``)."""


def loads(text: str, where: str) -> Any:
    """``json.loads`` whose every failure (malformed, nested too deep) is a ``RecordError``."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{where}: not valid JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise RecordError(f"{where}: JSON nested too deeply to read") from None


def read_located_rows(path: Path) -> list[tuple[dict[str, Any], str]]:
    """The JSON objects of a report (its ``records``), a JSON list, or JSON lines, each with where it
    stands (``FILE:LINE`` for JSON lines, ``FILE: record N`` inside a document)."""
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise RecordError(f"{path}: cannot read ({exc.strerror or exc})") from None
    stripped = text.lstrip()
    located: list[tuple[Any, str]]
    if stripped.startswith("[") or (stripped.startswith("{") and "\n{" not in stripped.rstrip()):
        document = loads(text, str(path))
        rows = document.get("records") if isinstance(document, dict) and "records" in document else (
            document if isinstance(document, list) else [document])
        if not isinstance(rows, list):
            raise RecordError(f"{path}: field records must be a list, not {type(rows).__name__}")
        located = [(row, f"{path}: record {index + 1}") for index, row in enumerate(rows)]
    else:
        located = [(loads(line, f"{path}:{number}"), f"{path}:{number}")
                   for number, line in enumerate(text.splitlines(), start=1) if line.strip()]
    for row, where in located:
        if not isinstance(row, dict):
            raise RecordError(f"{where}: expected a JSON object, not {type(row).__name__}")
    return located


def _string(value: Any) -> bool:
    return isinstance(value, str)


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _optional(check: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda value: value is None or check(value)


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


_TYPES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "schema": (_integer, "an integer"), "id": (_string, "a string"), "task": (_string, "a string"),
    "condition": (_string, "a string"), "model": (_string, "a string"), "mode": (_string, "a string"),
    "sample": (lambda v: _integer(v) and v >= 0, "a non-negative integer"), "grades": (lambda v: isinstance(v, dict), "an object"),
    "similarity": (_optional(lambda v: isinstance(v, dict) and all(_number(x) for x in v.values())),
                   "null or an object of numbers"),
    "hidden_names": (_strings, "a list of strings"), "has_hidden_names": (lambda v: isinstance(v, bool), "true or false"),
    "known_names": (lambda v: isinstance(v, dict) and all(_strings(x) for x in v.values()), "an object of string lists"),
    "generation": (lambda v: isinstance(v, dict), "an object"), "timings": (lambda v: isinstance(v, dict), "an object"),
    "versions": (lambda v: isinstance(v, dict), "an object"), "outcome": (_string, "a string"),
    "seed": (_integer, "an integer"), "rename_seed": (lambda v: _integer(v) and v >= 0, "a non-negative integer"),
    "limits": (lambda v: isinstance(v, dict), "an object"),
}
_REQUIRED = ("task", "condition", "model", "sample", "grades")
_GRADE_TYPES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "passed": (lambda v: isinstance(v, bool), "true or false"), "reason": (_optional(_string), "null or a string"),
    "seconds": (_number, "a number"), "details": (lambda v: isinstance(v, dict), "an object"),
    "not_applicable": (lambda v: isinstance(v, bool), "true or false"),
}


def check_record(row: Mapping[str, Any], where: str) -> None:
    """Raise ``RecordError`` naming ``where`` and the field when ``row`` is not a usable record."""
    for name in _REQUIRED:
        if name not in row:
            raise RecordError(f"{where}: field {name} is missing")
    for name, (check, wanted) in _TYPES.items():
        if name in row and not check(row[name]):
            raise RecordError(f"{where}: field {name} must be {wanted}, not {_shown(row[name])}")
    for grade, entry in row["grades"].items():
        if not isinstance(entry, dict):
            raise RecordError(f"{where}: field grades.{grade} must be an object, not {_shown(entry)}")
        if "passed" not in entry:
            raise RecordError(f"{where}: field grades.{grade}.passed is missing")
        for name, (check, wanted) in _GRADE_TYPES.items():
            if name in entry and not check(entry[name]):
                raise RecordError(f"{where}: field grades.{grade}.{name} must be {wanted}, not {_shown(entry[name])}")


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 40 else text[:39] + "…"
