"""A specification as data: the main module, the modules it imports, and an optional cfg.

Tools never run on a user's folder: ``stage`` writes these texts into a fresh temporary directory
(``work/`` for the modules and cfg, ``tmp/`` for the JVM's ``java.io.tmpdir``) and removes it after.
"""

from __future__ import annotations

import functools

from ..errors import BadInput

import contextlib
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import AnyStr, Iterator, Mapping

from .janitor import janitor

IDENTIFIER = re.compile(r"[A-Za-z0-9_]*[A-Za-z][A-Za-z0-9_]*")
_HEADER = re.compile(r"^\s*-{4,}\s*MODULE\s+(\S+)\s*-{4,}", re.M)
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_EXTENDS = re.compile(r"\bEXTENDS\s+(\w+(?:\s*,\s*\w+)*)")
_INSTANCE = re.compile(r"\bINSTANCE\s+(\w+)")
_WORD = re.compile(r"\w+")


class SpecError(BadInput):
    """A module or cfg file that cannot be used as given; the message is one plain sentence."""


_BLOCK_MARKS = re.compile(r"\(\*|\*\)")
_BLOCK_MARKS_BYTES = re.compile(rb"\(\*|\*\)")


def block_comment_end(text: AnyStr, start: int) -> int | None:
    """The index just past the ``*)`` that closes the ``(*`` comment opened at ``start`` (comments
    nest), or None when it never closes. Works on ``str`` and on ``bytes`` (tree-sitter offsets)."""
    marks = _BLOCK_MARKS if isinstance(text, str) else _BLOCK_MARKS_BYTES
    opener = "(*" if isinstance(text, str) else b"(*"
    depth = 0
    for mark in marks.finditer(text, start):  # type: ignore[call-overload]
        depth += 1 if mark.group() == opener else -1
        if depth == 0:
            return mark.end()
    return None


def comment_spans(text: str) -> list[tuple[int, int]]:
    """Spans of ``text``'s comments: ``(* … *)`` (nesting) and ``\\*`` to the end of the line.

    The one TLA+ comment scanner of this package's text helpers: string literals are skipped, so
    ``"(*"`` or ``"\\*"`` inside a string opens no comment (and cannot hide code that follows).
    An unclosed block comment runs to the end of the text.
    """
    return list(_comment_spans(text))


@functools.lru_cache(maxsize=512)
def _comment_spans(text: str) -> tuple[tuple[int, int], ...]:
    """:func:`comment_spans`, kept per text: a grade scans the same modules many times."""
    spans: list[tuple[int, int]] = []
    i, n = 0, len(text)
    while i < n:
        two = text[i:i + 2]
        if text[i] == '"':
            j = i + 1
            while j < n and text[j] not in '"\n':
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        elif two == "(*":
            end = block_comment_end(text, i)
            spans.append((i, n if end is None else end))
            i = n if end is None else end
        elif two == "\\*":
            end = text.find("\n", i)
            end = n if end < 0 else end
            spans.append((i, end))
            i = end
        else:
            i += 1
    return tuple(spans)


def blank_comments(text: str) -> str:
    """``text`` with every comment character replaced by a space (offsets and newlines kept)."""
    out = list(text)
    for start, end in comment_spans(text):
        for k in range(start, end):
            if out[k] != "\n":
                out[k] = " "
    return "".join(out)


def strip_comments(text: str) -> str:
    """TLA+ text without comments (string literals are kept intact, and never open one)."""
    pieces: list[str] = []
    pos = 0
    for start, end in comment_spans(text):
        pieces.append(text[pos:start])
        pos = end
    pieces.append(text[pos:])
    return "".join(pieces)


def code_text(text: str) -> str:
    """``text`` without comments and with every string literal emptied (``""``): only code is left."""
    return _STRING.sub('""', strip_comments(text))


def module_header_name(text: str) -> str | None:
    """The name in the first ``---- MODULE Name ----`` header, or None when there is none."""
    match = _HEADER.search(text)
    return match.group(1) if match else None


def imported_modules(text: str) -> list[str]:
    """Names the module EXTENDS or INSTANCEs (standard modules included), in order of appearance."""
    code = code_text(text)
    names: list[str] = []
    for match in _EXTENDS.finditer(code):
        names.extend(_WORD.findall(match.group(1)))
    names.extend(match.group(1) for match in _INSTANCE.finditer(code))
    return list(dict.fromkeys(names))  # unique, in order of first appearance


@dataclass(frozen=True)
class SpecFiles:
    """Module texts by name (``main`` among them) and the cfg text, if any."""

    main: str
    modules: Mapping[str, str] = field(hash=False)
    cfg: str | None = None

    def __post_init__(self) -> None:
        if not IDENTIFIER.fullmatch(self.main):
            raise SpecError(f"module name {self.main!r} is not a TLA+ identifier")
        if self.main not in self.modules:
            raise SpecError(f"module {self.main} is missing from the spec's modules")
        for name in self.modules:
            if not IDENTIFIER.fullmatch(name):
                raise SpecError(f"module name {name!r} is not a TLA+ identifier")

    def with_cfg(self, cfg: str | None) -> SpecFiles:
        return SpecFiles(self.main, self.modules, cfg)

    @classmethod
    def from_path(cls, module: Path | str, cfg: Path | str | None = None, *, default_cfg: bool = True) -> SpecFiles:
        """Read a module file, the modules it imports that lie beside it (transitively) and its cfg.

        The cfg defaults to ``MODULE.cfg`` beside the module when ``default_cfg`` and it exists.
        """
        path = Path(module)
        if not path.is_file():
            raise SpecError(f"{path}: no such file")
        if path.suffix != ".tla":
            raise SpecError(f"{path}: a TLA+ module file must end in .tla")
        name = path.stem
        modules = {name: read_source(path)}
        header = module_header_name(modules[name])
        if header is None:
            raise SpecError(f"{path}: no '---- MODULE {name} ----' header")
        if header != name:
            raise SpecError(f"{path}: the module is named {header} but the file is {name}.tla; rename one of them")
        if not IDENTIFIER.fullmatch(name):
            raise SpecError(f"{path}: {name!r} is not a TLA+ identifier, so it cannot name a module")
        pending = [name]
        while pending:
            for imported in imported_modules(modules[pending.pop()]):
                sibling = path.with_name(f"{imported}.tla")
                if imported not in modules and sibling.is_file():
                    modules[imported] = read_source(sibling)
                    pending.append(imported)
        cfg_text: str | None = None
        if cfg is not None:
            cfg_path = Path(cfg)
            if not cfg_path.is_file():
                raise SpecError(f"{cfg_path}: no such cfg file")
            cfg_text = read_source(cfg_path)
        elif default_cfg and path.with_suffix(".cfg").is_file():
            cfg_text = read_source(path.with_suffix(".cfg"))
        return cls(name, modules, cfg_text)


def read_source(path: Path) -> str:
    """A TLA+ or cfg file's text (UTF-8, else Latin-1); an unreadable file is a ``SpecError``."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return path.read_text(encoding="latin-1")
    except OSError as exc:
        raise SpecError(f"{path}: cannot read ({exc.strerror})") from None


@dataclass(frozen=True)
class Staged:
    """Where a staged spec lies: ``main`` and ``cfg`` inside ``workdir``; ``tmpdir`` for the JVM."""

    root: Path
    workdir: Path
    tmpdir: Path
    main: Path
    cfg: Path | None


@contextlib.contextmanager
def stage(spec: SpecFiles, cfg_text: str | None = None, library: Mapping[str, str] | None = None) -> Iterator[Staged]:
    """Write the spec into a new temporary directory, with the shipped ``library`` modules it needs
    (the caller finds them with :func:`.library.needed_library`); remove it when the block ends."""
    root = Path(tempfile.mkdtemp(prefix="alias-run-"))
    janitor().hold_folder(root)  # removed even if this process is killed while the block runs
    try:
        workdir, tmpdir = root / "work", root / "tmp"
        workdir.mkdir()
        tmpdir.mkdir()
        # The spec's own modules last: a module it brings wins over a shipped one of the same name.
        for name, text in {**(library or {}), **spec.modules}.items():
            (workdir / f"{name}.tla").write_text(text, encoding="utf-8")
        cfg_path = None
        if cfg_text is not None:
            cfg_path = workdir / f"{spec.main}.cfg"
            cfg_path.write_text(cfg_text, encoding="utf-8")
        yield Staged(root, workdir, tmpdir, workdir / f"{spec.main}.tla", cfg_path)
    finally:
        shutil.rmtree(root, ignore_errors=True)
        janitor().release_folder(root)
