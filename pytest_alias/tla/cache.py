"""A content-addressed on-disk cache of tool runs (SANY, TLC, state-graph dumps).

A key is the SHA-256 of a canonical JSON document naming everything a verdict depends on: the jar's
hash, the flags, and the bytes of every module and cfg. Entries are JSON files written to a temporary
name and moved into place with ``os.replace``, so a reader never sees half an entry and parallel
processes (pytest-xdist workers, ``tla-alias build --workers``) can share one cache without locks: two
writers of one key write the same content.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import shutil
import tempfile
import warnings
from pathlib import Path
from typing import Any, Mapping

import platformdirs

from ..switches import flag

from ..atomic import parse_json, write_json_atomic

CACHE_SCHEMA = 1


def default_cache_dir() -> Path:
    """``ALIAS_CACHE_DIR`` when set, else the platform's user cache folder for ALIAS."""
    override = os.environ.get("ALIAS_CACHE_DIR")
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_cache_dir("alias", appauthor=False))


class CacheFolderWarning(UserWarning):
    """The cache folder cannot be written: ALIAS runs with a private temporary one instead."""


_USABLE: dict[Path, Path] = {}


def usable_cache_dir(path: Path) -> Path:
    """``path`` when ALIAS can create and write files there; otherwise, once per path, a warning and a
    private temporary folder removed at exit, so an unusable cache (read-only, another user's, a
    file in the way) costs speed, never a verdict."""
    if path in _USABLE:
        return _USABLE[path]
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".probe-"):
            pass
        _USABLE[path] = path
    except OSError as exc:
        fallback = Path(tempfile.mkdtemp(prefix="alias-cache-"))
        atexit.register(shutil.rmtree, fallback, True)
        warnings.warn(f"cache folder {path} is not usable ({exc.strerror or exc}); running without a lasting "
                      f"cache (set ALIAS_CACHE_DIR or --cache-dir to a writable folder)", CacheFolderWarning,
                      stacklevel=2)
        _USABLE[path] = fallback
    return _USABLE[path]


def cache_disabled() -> bool:
    """``ALIAS_CACHE=off`` turns the run cache off (every check runs the tools)."""
    return not flag("ALIAS_CACHE", True)  # anything but a yes or a no is a one-line usage error


def content_key(kind: str, **parts: Any) -> str:
    """The key of one run: a hash of ``kind`` and JSON-serialisable ``parts`` (file texts included)."""
    document = json.dumps({"schema": CACHE_SCHEMA, "kind": kind, **parts}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(document.encode("utf-8")).hexdigest()


def files_digest(files: Mapping[str, str]) -> dict[str, str]:
    """Name → SHA-256 of the text, the form in which file contents enter a key."""
    return {name: hashlib.sha256(text.encode("utf-8")).hexdigest() for name, text in sorted(files.items())}


class RunCache:
    """Entries under ``root/runs/ab/abcdef….json``."""

    def __init__(self, root: Path | str | None = None) -> None:
        self.root = Path(root) if root is not None else default_cache_dir()

    def _path(self, key: str) -> Path:
        return self.root / "runs" / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored entry, or None when absent or unreadable (a damaged entry is a miss)."""
        try:
            with self._path(key).open(encoding="utf-8") as handle:
                entry = parse_json(handle.read())  # nested too deeply: a ValueError, so a miss
        except (OSError, ValueError):
            return None
        return entry if isinstance(entry, dict) else None

    def put(self, key: str, entry: Mapping[str, Any]) -> None:
        """Store an entry atomically; a cache that cannot be written is skipped, never fatal."""
        try:
            write_json_atomic(self._path(key), entry)
        except OSError:
            pass

    def clear(self) -> int:
        """Remove every entry; returns how many were removed."""
        removed = 0
        for path in (self.root / "runs").glob("*/*.json"):
            path.unlink(missing_ok=True)
            removed += 1
        return removed
