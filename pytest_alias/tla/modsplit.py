"""Split a text (a file, or a model's whole answer) into its top-level TLA+ modules, by text alone.

Comment- and string-aware, and robust to Markdown fences and to PlusCal between the module's lines;
the tree-sitter parse (:mod:`.syntax`) then reads each module found here."""

from __future__ import annotations

import functools
import re
from typing import NamedTuple


def _as_bytes(source: str | bytes) -> bytes:
    if isinstance(source, str):
        return source.encode("utf-8", errors="surrogatepass")
    return bytes(source)


class ModuleSpan(NamedTuple):
    """Where one top-level module lies in a text (see :func:`split_modules`)."""

    name: str
    start: int
    end: int
    complete: bool


# ---- module splitting (textual, comment- and string-aware) ---------------

_HEADER = rb"(?P<header>-{4,}[ \t]*MODULE[ \t\r\n]+(?P<name>[A-Za-z0-9_]+)[ \t\r\n]*-{4,})"
_FENCE = rb"(?P<fence>^[ \t]*```)"
_OUTSIDE_RE = re.compile(_HEADER, re.M)
_INSIDE_RE = re.compile(
    _HEADER
    + rb"|(?P<footer>={4,})|(?P<open>\(\*)|(?P<close>\*\))"
    + rb'|(?P<line>\\\*[^\n]*)|(?P<string>"(?:[^"\\\n]|\\.)*")|'
    + _FENCE,
    re.M,
)
_COMMENT_RE = re.compile(rb"(?P<open>\(\*)|(?P<close>\*\))|" + _FENCE, re.M)

# Textual PlusCal markers, for algorithms tree-sitter does not parse.
_PCAL_START = re.compile(rb"--(?:fair[ \t\r\n]+)?algorithm\b")
_PCAL_END_P = re.compile(rb"\bend[ \t\r\n]+algorithm\b")
_PCAL_NAME = re.compile(rb"algorithm[ \t\r\n]+([A-Za-z0-9_]+)")


def _scan_modules(data: bytes) -> list[ModuleSpan]:
    """Top-level modules of ``data`` with byte offsets.

    Outside modules only headers count (prose may hold anything); inside a
    module, comments and strings are skipped so a ``====`` in a comment does
    not end the module.  A header inside an open module opens a nested module.
    A module left open ends at a closing Markdown fence or the end of text
    (trailing whitespace trimmed) and is marked incomplete.
    """
    out: list[ModuleSpan] = []
    stack: list[tuple[str, int]] = []
    depth = 0  # block-comment nesting
    pos = 0

    def close_all(at: int) -> None:
        end = at
        while end > 0 and data[end - 1 : end].isspace():
            end -= 1
        if stack:
            name, start = stack[0]
            out.append(ModuleSpan(name, start, max(end, start), False))
        stack.clear()

    while True:
        if not stack:
            m = _OUTSIDE_RE.search(data, pos)
            if m is None:
                break
            stack.append((m.group("name").decode("ascii"), m.start()))
            pos = m.end()
            continue
        m = (_COMMENT_RE if depth else _INSIDE_RE).search(data, pos)
        if m is None:
            close_all(len(data))
            break
        pos = m.end()
        kind = m.lastgroup if m.lastgroup != "name" else "header"
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth = max(0, depth - 1)
        elif kind == "fence":
            depth = 0
            close_all(m.start())
        elif kind == "header":
            stack.append((m.group("name").decode("ascii"), m.start()))
        elif kind == "footer":
            name, start = stack.pop()
            if not stack:
                out.append(ModuleSpan(name, start, m.end(), True))
        # line comments and strings: nothing to do, just skipped over
    return out


def _byte_to_char_offsets(data: bytes, offsets: list[int]) -> list[int]:
    if data.isascii():
        return offsets
    return [len(data[:o].decode("utf-8", errors="replace")) for o in offsets]


def split_modules(text: str | bytes) -> list[ModuleSpan]:
    """The top-level modules in ``text`` as ``(name, start, end, complete)``.

    Offsets are in the units of ``text`` itself (characters for ``str``, bytes
    for ``bytes``), so ``text[start:end]`` is the module from its header to
    its ``====`` footer.  Text before, between and after modules (an LLM's
    prose, Markdown fences) is skipped.  A module without a footer ends where
    a closing fence or the text ends and has ``complete=False``.
    """
    data = _as_bytes(text)
    spans = _scan_modules(data)
    if isinstance(text, bytes):
        return spans
    out = []
    for s in spans:
        start, end = _byte_to_char_offsets(data, [s.start, s.end])
        out.append(ModuleSpan(s.name, start, end, s.complete))
    return out


#: A cfg written into a ``.tla`` file after its module (``---- CONFIG Name ----``), which TLC's tests read.
_EMBEDDED_CONFIG = re.compile(r"^\s*-{4,}\s*CONFIG\b", re.MULTILINE)


@functools.lru_cache(maxsize=512)  # every run's cache key reads each of its modules: the same texts again and again
def significant_text(text: str) -> str:
    """``text`` as SANY and TLC read it: through its first module's ``====`` footer, ending with one
    newline. Both tools ignore whatever follows the footer (the Toolbox's modification history, notes
    on past runs, even another module: checked with SANY and TLC 2.15), so a reference with notes
    after its module and the copy of it taken out of a model's answer share a cache key and count as
    the same module. Text before the header stays (it moves the line numbers that errors quote), as do
    a module without a footer and a text with a ``---- CONFIG`` block after it (TLC's tests embed a
    model's cfg there: tlaplus issue 776)."""
    spans = split_modules(text)
    if not spans or not spans[0].complete or _EMBEDDED_CONFIG.search(text, spans[0].end):
        return text
    return text[:spans[0].end] + "\n"

