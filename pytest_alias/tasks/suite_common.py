"""What every suite loader shares: the error type, the record of a skipped model and file helpers."""

from __future__ import annotations

from ..errors import UsageProblem

from dataclasses import dataclass
from pathlib import Path

from ..tla.specfiles import SpecError, read_source

__all__ = ["Skipped", "SuiteError", "read_text", "rel_path"]


class SuiteError(UsageProblem):
    """A suite that cannot be loaded as given; the message is one line naming the file and the fault."""


@dataclass(frozen=True)
class Skipped:
    """Something a suite left out: the task id it would have had (or ``""``), the file, and why."""

    id: str
    path: str
    reason: str

    def __str__(self) -> str:
        where = f"{self.id} ({self.path})" if self.id else self.path
        return f"{where}: {self.reason}"


def rel_path(path: Path, root: Path) -> str:
    """``path`` relative to ``root`` in POSIX form, or the whole path when it lies elsewhere."""
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def read_text(path: Path) -> str:
    """The text of a source file; an unreadable one is a :class:`SuiteError`."""
    try:
        return read_source(path)
    except SpecError as exc:
        raise SuiteError(str(exc)) from None
