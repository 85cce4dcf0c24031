"""Unicode TLA+ read as ASCII, for the 2020 SANY of the default jar.

Current SANY (and TLA+-Bench's grading) accepts the Unicode forms of TLA+ symbols (``∧``, ``≜``,
``∈``, ``⟨ ⟩``, …) and models write them; TLC 2.15 rejects them with a bare lexical error. So
before SANY sees an output, each Unicode symbol outside strings and comments (their spans come
from the tree-sitter parse) becomes its ASCII form, with spaces where a word-like form (``\\in``)
would otherwise run into a neighbouring identifier.

Junction lists are layout-sensitive: ``Init ≜ ∧ x = 0`` followed by a line ``       ∧ y = 0``
keeps its bullets aligned only if the second line moves as far right as the first line's bullet
did (``≜`` became the two characters ``==``). Each line that starts with a bullet is indented to
land where the bullet at the same original column on an earlier line landed.
"""

from __future__ import annotations

import re
from collections import Counter

from .syntax import parse_module

__all__ = ["ASCII_FORMS", "to_ascii"]

#: Each Unicode symbol's ASCII form (the TLA+ Unicode table; the standard sets written as their names).
ASCII_FORMS: dict[str, str] = {
    "≜": "==", "∧": "/\\", "∨": "\\/", "¬": "~", "⇒": "=>", "⟹": "=>", "⇔": "<=>", "≡": "<=>",
    "≠": "#", "≤": "<=", "≥": ">=", "∈": "\\in", "∉": "\\notin", "⊆": "\\subseteq", "⊂": "\\subset",
    "⊇": "\\supseteq", "⊃": "\\supset", "∪": "\\cup", "∩": "\\cap", "∀": "\\A", "∃": "\\E",
    "□": "[]", "◇": "<>", "⟨": "<<", "⟩": ">>", "↦": "|->", "→": "->", "⟶": "->", "←": "<-",
    "×": "\\X", "∘": "\\o", "↝": "~>", "÷": "\\div", "⋅": "\\cdot", "·": "\\cdot", "∖": "\\",
    "≺": "\\prec", "≻": "\\succ", "≼": "\\preceq", "≽": "\\succeq", "≪": "\\ll", "≫": "\\gg",
    "⊏": "\\sqsubset", "⊐": "\\sqsupset", "⊑": "\\sqsubseteq", "⊒": "\\sqsupseteq", "⊓": "\\sqcap",
    "⊔": "\\sqcup", "⊕": "(+)", "⊖": "(-)", "⊙": "(.)", "⊘": "(/)", "⊗": "(\\X)", "∼": "\\sim",
    "≃": "\\simeq", "≈": "\\approx", "≅": "\\cong", "≐": "\\doteq", "∝": "\\propto", "⋆": "\\star",
    "○": "\\circ", "∙": "\\bullet", "⊢": "|-", "⊨": "|=", "‖": "||", "′": "'",
    "‥": "..", "ℕ": "Nat", "ℤ": "Int", "ℝ": "Real", "─": "-", "━": "-", "═": "=",
}
_ANY_BULLET = re.compile(r"/\\|\\/|∧|∨")  # ASCII or Unicode junction bullets
_BULLET_LINE = re.compile(r"[ \t]*(/\\|\\/|∧|∨)")


def _ignored_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of comments and strings, from the tree-sitter parse (byte spans converted)."""
    syntax = parse_module(text, None)
    raw = text.encode("utf-8")
    spans = []
    for start, end in (*syntax.comments, *syntax.strings):
        spans.append((len(raw[:start].decode("utf-8", "replace")), len(raw[:end].decode("utf-8", "replace"))))
    return sorted(spans)


def to_ascii(text: str) -> tuple[str, dict[str, int]]:
    """``text`` with its Unicode TLA+ symbols in ASCII, and how many of each were replaced.

    Text without any such symbol comes back unchanged (and is not parsed).
    """
    if not any(ch in ASCII_FORMS for ch in text):
        return text, {}
    ignored = _ignored_spans(text)
    counts: Counter[str] = Counter()
    out_lines: list[str] = []
    landed: dict[int, int] = {}  # original column of a bullet -> the column it landed at
    offset = 0
    span_index = 0
    for line in text.splitlines(keepends=True):
        pieces: list[str] = []
        for column, ch in enumerate(line):
            position = offset + column
            while span_index < len(ignored) and ignored[span_index][1] <= position:
                span_index += 1
            inside = span_index < len(ignored) and ignored[span_index][0] <= position < ignored[span_index][1]
            form = ASCII_FORMS.get(ch) if not inside else None
            if form is None:
                pieces.append(ch)
                continue
            counts[ch] += 1
            before = line[column - 1] if column else " "
            after = line[column + 1] if column + 1 < len(line) else " "
            word_like = form[-1].isalpha()
            pieces.append((" " if word_like and (before.isalnum() or before == "_") else "") + form
                          + (" " if word_like and (after.isalnum() or after == "_") else ""))
        new_line = "".join(pieces)
        new_line = _realigned(line, new_line, landed)
        out_lines.append(new_line)
        offset += len(line)
    return "".join(out_lines), dict(counts)


def _realigned(original: str, converted: str, landed: dict[int, int]) -> str:
    """``converted`` indented so a leading bullet lands where an earlier bullet of the same original
    column landed; records where this line's bullets land."""
    lead = _BULLET_LINE.match(original)
    if lead is not None:
        column = lead.start(1)
        target = landed.get(column)
        current = len(converted) - len(converted.lstrip(" \t"))
        if target is not None and target > current:
            converted = " " * (target - current) + converted
    # Record every bullet of this line: original column -> converted column.
    for match in _ANY_BULLET.finditer(original):
        landed[match.start()] = _converted_column(original, converted, match.start())
    return converted


def _converted_column(original: str, converted: str, column: int) -> int:
    """Where the bullet at ``column`` of ``original`` ended up in ``converted``: the same bullet,
    counted among the line's bullets."""
    index = sum(1 for _ in _ANY_BULLET.finditer(original[:column]))
    found = [m.start() for m in re.finditer(r"/\\|\\/", converted)]
    return found[index] if index < len(found) else column
