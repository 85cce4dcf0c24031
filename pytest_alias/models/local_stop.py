"""Where a generated TLA+ module ends: pure text rules shared by local generation and its tests.

A module opens with a header line (``---- MODULE Name ----``) and closes with a line of four or
more ``=``. Generation stops once every module opened so far has been closed (so a nested module
does not stop it early); text after the closing line is dropped.
"""

from __future__ import annotations

import re
from typing import Sequence

_HEADER = re.compile(r"^\s*-{4,}\s*MODULE\b.*$")
_CLOSING = re.compile(r"^\s*={4,}")


def module_end(text: str) -> int | None:
    """The index just past the closing ``====`` line of the first complete module, or None.

    The closing line counts as soon as it holds four ``=`` (the generator may still be writing
    the rest of that line); the returned index includes its newline when one follows.
    """
    depth = 0
    position = 0
    for line in text.splitlines(keepends=True):
        start, position = position, position + len(line)
        if _HEADER.match(line):
            depth += 1
        elif depth and _CLOSING.match(line):
            depth -= 1
            if depth == 0:
                return start + len(line.rstrip("\r\n")) + (1 if line.endswith("\n") else 0)
    return None


def first_stop(text: str, stops: Sequence[str]) -> int | None:
    """The index of the earliest occurrence of any of ``stops`` in ``text``, or None."""
    found = [index for index in (text.find(stop) for stop in stops if stop) if index >= 0]
    return min(found) if found else None


def cut_text(text: str, stops: Sequence[str] = ()) -> tuple[str, bool]:
    """``text`` cut after the module's closing line or before a stop string, and whether it was cut.

    A stop string is excluded from the result, as API providers do; the closing line is kept.
    """
    ends = [end for end in (module_end(text), first_stop(text, stops)) if end is not None]
    if not ends:
        return text, False
    return text[:min(ends)], True
