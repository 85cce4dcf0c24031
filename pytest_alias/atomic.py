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


def atomic_write(path: Path, write: Callable[[TextIO], object]) -> None:
    """Write a text file through ``write(handle)`` on a temporary file, then ``os.replace`` it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            write(handle)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def write_json_atomic(path: Path, data: Any, *, indent: int | None = None) -> None:
    """``data`` as JSON (UTF-8, not ASCII-escaped) through :func:`atomic_write`."""
    atomic_write(path, lambda handle: json.dump(data, handle, ensure_ascii=False, indent=indent))
