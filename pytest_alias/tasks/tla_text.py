"""TLA+ source text helpers of the suite loaders: module header comments and import gathering."""

from __future__ import annotations

import re
import textwrap
from typing import Callable, Mapping

from ..tla.specfiles import block_comment_end, imported_modules
from ..tla.syntax import STANDARD_MODULES

__all__ = ["gather_modules", "module_header_comment", "unresolved_imports"]

# A module header anywhere in a text: every module a file defines inline (TLA+ allows nesting).
_HEADER_LINE = re.compile(r"^[ \t]*-{4,}[ \t]*MODULE[ \t]+(\w+)[ \t]*-{4,}[^\n]*", re.M)


def module_header_comment(text: str) -> str:
    """The module's header comment as plain text, or ``""`` when it has none.

    That is the run of ``(* ... *)`` (or ``\\*``) comments right after the ``---- MODULE ----``
    line, or failing that the ``(* ... *)`` comments right before it, with the comment frames, runs
    of ``*`` and a leading ``*`` on each line removed.  A PlusCal algorithm comment is code, not a
    description, and ends the run.
    """
    header = _HEADER_LINE.search(text)
    if header is None:
        return ""
    after, _ = _comment_run(text, header.end(), line_comments=True)
    if after:
        return _clean_comment(after)
    before, end = _comment_run(text, 0, line_comments=False)
    if before and not text[end : header.start()].strip():
        return _clean_comment(before)
    return ""


# --------------------------------------------------------------------------- text helpers


def _comment_run(text: str, start: int, *, line_comments: bool) -> tuple[str, int]:
    """The comments from ``start`` on, separated only by blank or ``----`` lines; and where they end."""
    pieces: list[str] = []
    i = start
    while True:
        gap = re.match(r"(?:\s|^-{4,}[ \t]*$)*", text[i:], re.M)
        j = i + (gap.end() if gap else 0)
        if line_comments and text.startswith("\\*", j):
            end = text.find("\n", j)
            end = len(text) if end < 0 else end
            pieces.append(text[j:end])
            i = end
            continue
        if not text.startswith("(*", j):
            return "\n".join(pieces), i
        closed = block_comment_end(text, j)
        end = len(text) if closed is None else closed
        body = text[j:end]
        if re.match(r"\(\*+\s*--(?:fair\s+)?algorithm\b", body):
            return "\n".join(pieces), i  # PlusCal code, not prose
        pieces.append(body)
        i = end


def _clean_comment(raw: str) -> str:
    lines: list[str] = []
    for line in raw.splitlines():
        line = line.strip()
        line = re.sub(r"^\\\*|^\(\*", "", line)
        line = re.sub(r"\*\)$", "", line.rstrip())
        line = re.sub(r"\(\*|\*\)", "", line)  # frames of nested comments
        line = re.sub(r"\*{2,}", "", line)
        line = re.sub(r"^(\s*)\*(?!\w) ?", r"\1", line)  # a leading '*' frame, not '*emphasis*'
        lines.append(line.rstrip())
    text = textwrap.dedent("\n".join(lines)).strip()
    return re.sub(r"\n{3,}", "\n\n", text)


# --------------------------------------------------------------------------- module imports


def _defined_inline(text: str) -> set[str]:
    return {match.group(1) for match in _HEADER_LINE.finditer(text)}


def unresolved_imports(text: str, available: Mapping[str, str]) -> list[str]:
    """Imports of ``text`` that are neither standard, nor in ``available``, nor defined in ``text``."""
    inline = _defined_inline(text)
    return [name for name in imported_modules(text)
            if name not in available and name not in inline and name not in STANDARD_MODULES]


def gather_modules(main: str, main_text: str,
                   lookup: Callable[[str], tuple[str, str] | None]) -> tuple[dict[str, str], list[str], dict[str, str]]:
    """The main module plus every module it imports transitively that ``lookup`` finds.

    ``lookup(name)`` returns ``(text, where)`` or None.  Returns the modules (main first), the
    names found nowhere (standard modules never count as missing) and where each module came from.
    """
    modules = {main: main_text}
    where: dict[str, str] = {}
    missing: list[str] = []
    pending = [main]
    while pending:
        text = modules[pending.pop(0)]
        inline = _defined_inline(text)
        for name in imported_modules(text):
            if name in modules or name in inline or name in missing:
                continue
            found = lookup(name)
            if found is None:
                if name not in STANDARD_MODULES:
                    missing.append(name)
                continue
            modules[name], where[name] = found
            pending.append(name)
    return modules, missing, where
