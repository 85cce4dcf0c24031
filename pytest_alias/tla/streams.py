"""Byte budgets for what SANY and TLC write, enforced while they run.

A spec can print without end (``PrintT`` in every state) or have an infinite state space whose
``-dump dot`` file grows until the time limit. Both are read as streams here: printed output is kept
as a bounded head and tail (memory stays a few megabytes whatever the spec prints), and the bytes
written — printed output and the state-graph dump — are counted while the tool runs; when either
passes its budget the run is stopped and the verdict says so (the output's fault, not the grader's).

Budgets are settings (environment variables, checked at start-up, recorded in every record):

* ``ALIAS_OUTPUT_LIMIT_MB`` — bytes a SANY or TLC run may print (default 64 MB);
* ``ALIAS_GRAPH_LIMIT_MB`` — bytes a state-graph dump may have (default 64 MB, about 500,000 small states);
* ``ALIAS_DISK_LIMIT_MB`` — bytes a run may keep in its own folders (default 2048 MB): TLC's state queue
  and fingerprint files in its metadata folder (``states/`` beside the spec) and what SANY and TLC
  unpack into their ``java.io.tmpdir``, both inside the run's staging folder. A wide state space once
  wrote 902 MB there in 90 s.

A run that cannot write its folders at all (a full or read-only disk) is the machine's fault, never
the spec's: :func:`disk_fault` tells the two apart once the run has ended.
"""

from __future__ import annotations

from ..errors import UsageProblem

import os
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

__all__ = ["Budgets", "DEFAULT_DISK_MB", "DEFAULT_GRAPH_MB", "DEFAULT_OUTPUT_MB", "KEPT_HEAD_BYTES", "KEPT_TAIL_BYTES",
           "Kept", "budgets", "check_budgets", "disk_fault", "graph_cap", "read_kept", "size_of", "tree_size"]

DEFAULT_OUTPUT_MB = 64
DEFAULT_GRAPH_MB = 64
DEFAULT_DISK_MB = 2048
OUTPUT_VARIABLE = "ALIAS_OUTPUT_LIMIT_MB"
GRAPH_VARIABLE = "ALIAS_GRAPH_LIMIT_MB"
DISK_VARIABLE = "ALIAS_DISK_LIMIT_MB"
#: Free space below which a failed write is the disk's doing (checked after a run, see :func:`disk_fault`).
LOW_FREE_BYTES = 1024 * 1024
#: Printed output kept per run: the start (parse and start-up messages) and the end (verdict,
#: counterexample, state counts); the middle is replaced by one line saying how much was cut.
KEPT_HEAD_BYTES = 1_000_000
KEPT_TAIL_BYTES = 3_000_000
MB = 1024 * 1024


@dataclass(frozen=True)
class Budgets:
    """Bytes one tool run may print, one state-graph dump may have, and one run may keep on disk."""

    output_bytes: int
    graph_bytes: int
    disk_bytes: int = DEFAULT_DISK_MB * 1024 * 1024

    def to_record(self) -> dict[str, int]:
        """The budgets as a record states them (in MB, as they are set)."""
        return {"output_mb": self.output_bytes // MB, "graph_mb": self.graph_bytes // MB, "disk_mb": self.disk_bytes // MB}


def _megabytes(variable: str, default: int) -> int:
    raw = os.environ.get(variable, "").strip()
    if not raw:
        return default
    if not raw.isdigit() or int(raw) < 1:
        raise UsageProblem(f"{variable} must be a whole number of megabytes (at least 1), not {raw!r}")
    return int(raw)


#: The largest dump kept on the side of a check (about 65,000 states of a 16x16 grid, or far more small
#: ones). Read by label (see :class:`~.graph.LabelGraph`), such a graph costs less than the refinement
#: checks it can decide: measured on GameOfLife (65,536 states, a 35 MB dump), the dump added 1.1 s to
#: a 9.2 s check and reading it took 1.6-2.2 s, where the identity mapping's forward and reverse
#: checks took 21-29 s each. Dumps above 1 MB are stored compressed in the run cache.
GRAPH_CAP = 48 * 1024 * 1024

#: A tighter dump budget for the runs started in a context (see :func:`graph_cap`); None: the setting.
_GRAPH_CAP: ContextVar[int | None] = ContextVar("alias_graph_cap", default=None)


def budgets() -> Budgets:
    """The budgets in force (``ValueError`` for a setting that is not a positive whole number)."""
    graph = _megabytes(GRAPH_VARIABLE, DEFAULT_GRAPH_MB) * MB
    cap = _GRAPH_CAP.get()
    return Budgets(_megabytes(OUTPUT_VARIABLE, DEFAULT_OUTPUT_MB) * MB, graph if cap is None else min(graph, cap),
                   _megabytes(DISK_VARIABLE, DEFAULT_DISK_MB) * MB)


@contextmanager
def graph_cap(limit: int) -> Iterator[None]:
    """Hold the state-graph dumps of the runs started here to ``limit`` bytes (never above the setting).

    For a dump taken on the side of a check whose verdict must not depend on it: the caller reruns
    the check without the dump when the cap stops it."""
    token = _GRAPH_CAP.set(limit)
    try:
        yield
    finally:
        _GRAPH_CAP.reset(token)


def check_budgets() -> str | None:
    """Why the budget settings cannot be used, or None."""
    try:
        budgets()
    except ValueError as exc:
        return str(exc)
    return None


class Kept:
    """A stream of bytes kept as its first and last bytes only: memory stays bounded by
    ``head + tail`` however much is fed; ``total`` counts everything."""

    def __init__(self, head: int = KEPT_HEAD_BYTES, tail: int = KEPT_TAIL_BYTES) -> None:
        self._head_limit, self._tail_limit = head, tail
        self._head = bytearray()
        self._tail: deque[bytes] = deque()
        self._tail_bytes = 0
        self.total = 0

    def feed(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = self._head_limit - len(self._head)
        if room > 0:
            self._head += chunk[:room]
            chunk = chunk[room:]
        if not chunk:
            return
        self._tail.append(chunk)
        self._tail_bytes += len(chunk)
        while self._tail and self._tail_bytes - len(self._tail[0]) >= self._tail_limit:
            self._tail_bytes -= len(self._tail.popleft())

    def text(self) -> str:
        """What was kept, decoded; a cut is marked by one line saying how many bytes are missing,
        and the kept parts are cut at line ends."""
        tail = b"".join(self._tail)
        if len(self._head) + len(tail) == self.total:
            return (bytes(self._head) + tail).decode("utf-8", "replace")
        tail = tail[-self._tail_limit:]
        head = bytes(self._head)
        head = head[: head.rfind(b"\n") + 1] or head
        tail = tail[tail.find(b"\n") + 1:] if b"\n" in tail else tail
        cut = self.total - len(head) - len(tail)
        return (head.decode("utf-8", "replace") + f"[ALIAS: {cut} bytes of tool output cut here]\n"
                + tail.decode("utf-8", "replace"))


def read_kept(path: Path, head: int = KEPT_HEAD_BYTES, tail: int = KEPT_TAIL_BYTES) -> tuple[str, int]:
    """A file's kept text (as :class:`Kept` keeps it) and its size, reading only what is kept."""
    kept = Kept(head, tail)
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            kept.feed(handle.read(head))
            if size > head + tail:
                kept.total += size - head - tail  # the skipped middle: counted, never read
                handle.seek(size - tail)
            kept.feed(_read_rest(handle, tail))
    except FileNotFoundError:
        return "", 0
    return kept.text(), kept.total


def _read_rest(handle: BinaryIO, limit: int) -> bytes:
    # The file may still grow (a tool killed a moment ago): never read more than ``limit``.
    return handle.read(limit)


def size_of(path: Path | None) -> int:
    """A file's size in bytes (0 when it does not exist, or no path)."""
    if path is None:
        return 0
    try:
        return path.stat().st_size
    except OSError:
        return 0


def tree_size(*folders: Path) -> int:
    """The bytes of every file under ``folders`` (what a run keeps on disk); files that vanish while it
    counts (TLC rotates its queue pages) count as 0."""
    total = 0
    pending = [str(folder) for folder in folders]
    while pending:
        try:
            entries = list(os.scandir(pending.pop()))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    pending.append(entry.path)
                elif entry.is_file(follow_symlinks=False):
                    total += entry.stat(follow_symlinks=False).st_size
            except OSError:
                continue
    return total


def disk_fault(root: Path, own_bytes: int) -> str | None:
    """Why the folder a run staged in (``root``) could not be written, when that is the machine's doing
    and not the run's: the folder is gone, read-only, or its disk is full while the run itself kept
    little there (``own_bytes`` below a quarter of the disk budget; a run that filled the disk with its
    own state queue is its spec's doing, and its budget says so). None when the folder is fine."""
    if not root.is_dir():
        return f"its temporary folder {root} disappeared while it ran"
    probe = root / ".alias-write-check"
    try:
        with open(probe, "wb") as handle:
            handle.write(b"\0" * 65536)
    except OSError as exc:
        return f"its temporary folder cannot be written ({exc.strerror or exc}): {root.parent}"
    finally:
        try:
            probe.unlink()
        except OSError:
            pass
    try:
        stats = os.statvfs(root)
    except OSError:
        return None
    free = stats.f_bavail * stats.f_frsize
    if free < LOW_FREE_BYTES and own_bytes < budgets().disk_bytes // 4:
        return f"the disk of its temporary folder {root.parent} is full ({free // 1024} KB free)"
    return None
