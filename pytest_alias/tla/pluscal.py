"""Where a PlusCal algorithm lies when tree-sitter did not parse it: a textual search inside the
comment that holds it (P-syntax up to ``end algorithm``, C-syntax up to the matching brace), and
the parse issues that lie inside that comment, re-tagged as PlusCal's."""

from __future__ import annotations

import dataclasses
from typing import Optional

__all__ = ["tag_pluscal_issues", "textual_pluscal_span", "unparsed_pluscal"]

from .modsplit import _PCAL_END_P, _PCAL_NAME, _PCAL_START
from .specfiles import block_comment_end
from .syntax_facts import PlusCalBlock, Span, SyntaxIssue


def tag_pluscal_issues(issues: list[SyntaxIssue], data: bytes,
                        span: Span) -> list[SyntaxIssue]:
    """Re-tag the parse errors that lie inside the PlusCal algorithm's comment."""
    opener = data.rfind(b"(*", 0, span[0])
    lo = opener if opener >= 0 else span[0]
    hi = max(_comment_end(data, span[0]) + 2, span[1])
    return [
        _replace_issue(i, kind="pluscal")
        if i.kind in ("error", "missing") and lo <= i.span[0] and i.span[1] <= hi else i
        for i in issues
    ]


def _replace_issue(issue: SyntaxIssue, **changes: object) -> SyntaxIssue:
    return dataclasses.replace(issue, **changes)  # type: ignore[arg-type]


def unparsed_pluscal(data: bytes, lo: int, hi: int,
                      comments: list[Span]) -> Optional[PlusCalBlock]:
    """A PlusCal block tree-sitter did not parse, found by text inside a comment."""
    m = _PCAL_START.search(data, lo, hi)
    if m is None or not any(a <= m.start() < b for a, b in comments):
        return None
    span = textual_pluscal_span(data[:hi], m.start())
    if span is None:
        return None
    name = _PCAL_NAME.match(data, m.end() - len(b"algorithm"))
    after = data[name.end() if name else m.end(): span[1]].lstrip()
    return PlusCalBlock(
        span,
        name.group(1).decode("ascii") if name else None,
        (name.start(1), name.end(1)) if name else None,
        b"fair" in m.group(), "c" if after.startswith(b"{") else "p", parsed=False,
        has_errors=True)


def textual_pluscal_span(data: bytes, pos: int = 0) -> Optional[Span]:
    """Locate an algorithm by text (from ``pos``) when tree-sitter did not parse it."""
    m = _PCAL_START.search(data, pos)
    if m is None:
        return None
    start = m.start()
    end_p = _PCAL_END_P.search(data, m.end())
    brace = data.find(b"{", m.end())
    comment_end = _comment_end(data, start)
    if end_p is not None and (brace < 0 or end_p.start() < brace or brace > comment_end):
        return (start, end_p.end())
    if 0 <= brace < comment_end:
        depth = 0
        i = brace
        while i < comment_end:
            ch = data[i : i + 1]
            if ch == b'"':  # skip strings: braces in them do not count
                j = i + 1
                while j < comment_end and data[j : j + 1] != b'"':
                    j += 2 if data[j : j + 1] == b"\\" else 1
                i = j + 1
                continue
            if ch == b"{":
                depth += 1
            elif ch == b"}":
                depth -= 1
                if depth == 0:
                    return (start, i + 1)
            i += 1
    return (start, comment_end)


def _comment_end(data: bytes, pos: int) -> int:
    """Where the ``(*`` comment enclosing ``pos`` closes (before its ``*)``)."""
    opener = data.rfind(b"(*", 0, pos)
    end = block_comment_end(data, opener) if opener >= 0 else None
    return len(data) if end is None else end - 2
