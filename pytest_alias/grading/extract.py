"""Extract the TLA+ module to grade from a model's raw output.

Models wrap their module in Markdown fences, put prose before and after it, sometimes write
several modules (a draft and a fix, a helper module and the main one) and sometimes stop before
the ``====`` footer. :func:`extract_module` turns any of that into one module text, or a failure
with a reason, which the graders report as a failing grade rather than an exception.

Choosing among several modules: the module that defines the most of ``Init``, ``Next`` and
``Spec`` wins (what the prompt asks for marks the main module); among equals a complete module
beats one without a footer, then the earliest wins (as TLA+-Bench takes the first module).
The other well-named modules are kept in :attr:`Extraction.others`, so a helper module the
chosen one imports can be staged beside it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..tla.syntax import ModuleSpan, is_identifier, parse_module, split_modules

#: Outputs larger than this (UTF-8 bytes) fail extraction: no model answer is legitimately this big.
DEFAULT_MAX_BYTES = 200 * 1024
#: The names the prompt asks for; the module defining them is the one to grade.
ENTRY_NAMES = ("Init", "Next", "Spec")

# Any header, whatever its name: split_modules only sees names made of identifier characters,
# and a header such as "MODULE ../x" must fail with its own reason, not "no header".
_ANY_HEADER = re.compile(r"-{4,}[ \t]*MODULE[ \t\r\n]+(\S+?)[ \t\r\n]*-{4,}")
_FENCE = re.compile(r"^[ \t]*```", re.M)


@dataclass(frozen=True)
class Extraction:
    """The module to grade (``module_name``, ``text``) or a ``failure`` saying why there is none.

    ``notes`` say what extraction did to the output (fences or prose dropped, footer appended,
    which of several modules was chosen); ``others`` holds the output's other modules as
    ``(name, text)`` pairs.
    """

    module_name: str | None
    text: str | None
    failure: str | None = None
    notes: tuple[str, ...] = ()
    others: tuple[tuple[str, str], ...] = ()

    @property
    def ok(self) -> bool:
        """Whether a module was extracted."""
        return self.failure is None

    @property
    def texts(self) -> list[str]:
        """Every module text the output wrote: the graded one first, then its other modules."""
        return [self.text or "", *(text for _, text in self.others)]

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready summary (the module text itself is left out)."""
        return {
            "module": self.module_name,
            "failure": self.failure,
            "notes": list(self.notes),
            "others": [name for name, _ in self.others],
        }


def _failed(reason: str, notes: list[str] | None = None) -> Extraction:
    return Extraction(None, None, reason, tuple(notes or ()))


def _normalized(text: str, notes: list[str]) -> str:
    """Text with ``\\n`` line ends, no BOM, and nothing that cannot be written as UTF-8."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        notes.append("normalised CRLF/CR line endings to LF")
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # Lone surrogates would crash the file write that stages the module for SANY.
        text = text.encode("utf-8", "replace").decode("utf-8")
        notes.append("replaced characters that are not valid Unicode")
    return text


def _entry_names(module_text: str) -> list[str]:
    """Which of Init, Next and Spec the module defines at top level."""
    defined = {d.name for d in parse_module(module_text).definitions if d.scope == "module"}
    return [name for name in ENTRY_NAMES if name in defined]


def _choose(spans: list[ModuleSpan], texts: list[str], notes: list[str]) -> int:
    """Which of several modules to grade (see the module docstring); notes the choice."""
    if len(spans) == 1:
        return 0
    entries = [_entry_names(t) for t in texts]
    chosen = min(range(len(spans)), key=lambda i: (-len(entries[i]), not spans[i].complete, i))
    why = (f"it defines {_listed(entries[chosen])}" if entries[chosen]
           else "it is the first complete module" if spans[chosen].complete else "it is the first module")
    notes.append(f"output holds {len(spans)} modules ({', '.join(s.name for s in spans)}); "
                 f"graded {spans[chosen].name} because {why}")
    return chosen


def _with_footer(module_text: str) -> str:
    return module_text.rstrip() + "\n" + "=" * 4 + "\n"


#: The longest module name a file (``Name.tla``, 255 bytes on common file systems) can carry.
MAX_MODULE_NAME_BYTES = 250


def oversize_reason(size: int, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """Why an output of ``size`` bytes is not graded (its true size, even when only a part was read)."""
    return f"output is {size:,} bytes, over the {max_bytes:,}-byte limit"


def extract_module(output: str | None, *, max_bytes: int = DEFAULT_MAX_BYTES, size: int | None = None) -> Extraction:
    """The module to grade in a model's raw ``output``, or a failure with its reason.

    Failures: empty output, output over ``max_bytes`` UTF-8 bytes, no ``MODULE`` header, and a
    header whose name is not a TLA+ identifier (``../x``, ``a-b``). A module without its
    ``====`` footer gets one appended; the result's text always ends with a newline.
    """
    if output is None or not output.strip():
        return _failed("output is empty")
    size = max(size or 0, len(output.encode("utf-8", "surrogatepass")))  # ``size``: the true size of a part read
    if size > max_bytes:
        return _failed(oversize_reason(size, max_bytes))
    notes: list[str] = []
    text = _normalized(output, notes)

    headers = [m.group(1) for m in _ANY_HEADER.finditer(text)]
    if not headers:
        return _failed("output has no '---- MODULE Name ----' header", notes)
    spans = split_modules(text)
    good = [s for s in spans if is_identifier(s.name)]
    bad = [name for name in headers if not is_identifier(name)]
    if not good:
        # Staging writes NAME.tla: a name such as ../x would become a path, so fail before that.
        return _failed(f"module name {(bad or headers)[0]!r} is not a TLA+ identifier", notes)
    too_long = [s.name for s in good if len(s.name.encode("utf-8")) > MAX_MODULE_NAME_BYTES]
    if len(too_long) == len(good):
        # SANY reads module M from M.tla, and no file system takes a name that long: no tool can check it.
        return _failed(f"module name {too_long[0][:40]}… is {len(too_long[0])} characters long; SANY needs a file "
                       f"named after the module, and file names stop at {MAX_MODULE_NAME_BYTES} bytes", notes)
    good = [s for s in good if s.name not in too_long]
    for name in dict.fromkeys(bad):
        notes.append(f"ignored module header {name!r}: not a TLA+ identifier")

    texts = [text[s.start : s.end] for s in good]
    chosen = _choose(good, texts, notes)
    span = good[chosen]
    module_text = texts[chosen]
    if not span.complete:
        module_text = _with_footer(module_text)
        notes.append(f"appended the missing '====' footer to module {span.name}")
    else:
        module_text += "\n"
    outside = text[: good[0].start] + text[good[-1].end :]
    if _FENCE.search(text):
        notes.append("took the module out of a Markdown code fence")
    elif outside.strip():
        notes.append("dropped text around the module")

    # A second module of the chosen name is a draft or a revision, never a helper: leave it out.
    others: dict[str, str] = {}
    for s, t in zip(good, texts):
        if s.name != span.name and s.name not in others:
            others[s.name] = t if s.complete else _with_footer(t)
    return Extraction(span.name, module_text, None, tuple(notes), tuple(others.items()))


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
