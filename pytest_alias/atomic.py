"""Files written whole or not at all (standard library only).

Every file ALIAS writes that someone may read while it is written (cache entries, the generation
store, API batch state, reports) goes through a temporary file in the same folder and ``os.replace``:
a reader sees the old file or the whole new one, and an interrupted write leaves nothing behind.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Callable, TextIO


def current_umask() -> int:
    """The process's umask, read without changing it where the system allows (Linux ``/proc``);
    elsewhere set and restored at once."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def as_umask_allows(path: Path | str, *, folder: bool = False) -> None:
    """Give a file (0666) or folder (0777) made private by ``mkstemp``/``mkdtemp`` the permissions the
    user's umask allows, as a plain ``open``/``mkdir`` would have."""
    os.chmod(path, (0o777 if folder else 0o666) & ~current_umask())


def atomic_write(path: Path, write: Callable[[TextIO], object]) -> None:
    """Write a text file through ``write(handle)`` on a temporary file, then ``os.replace`` it. The file
    gets the permissions the umask allows (``mkstemp`` alone would leave it 0600)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o666 & ~current_umask())
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            write(handle)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def write_json_atomic(path: Path, data: Any, *, indent: int | None = None) -> None:
    """``data`` as JSON (UTF-8, not ASCII-escaped) through :func:`atomic_write`."""
    atomic_write(path, lambda handle: json.dump(data, handle, ensure_ascii=False, indent=indent))
