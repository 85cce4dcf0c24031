"""A watchdog process per grading process: no JVM and no staging folder outlives the process that made it.

A JVM runs in a session of its own (so a time limit can kill its whole process group), which also
means no signal aimed at the Python process reaches it, and a Python process killed with SIGKILL
(a CI cancel, the OOM killer, a crashed xdist worker) runs no clean-up code at all. So each process
that launches SANY or TLC starts one small janitor: a separate Python process that reads a pipe
from its parent. The parent tells it which process groups (JVMs) and folders (staging) it holds,
and the time limit of each run; the janitor

* kills a process group whose limit (plus a grace period) has passed, even when the parent is
  stuck or stopped and cannot enforce the limit itself;
* on end of input (the parent exited, however it died) kills every group it still holds and
  removes every folder, then exits.

It works on Linux and macOS alike (a pipe and ``select``); where it cannot start, runs go on
without it and the parent's own clean-up (limits, ``finally`` blocks, the parent-death signal on
Linux) still applies.
"""

from __future__ import annotations

import atexit
import math
import os
import subprocess
import sys
import threading

__all__ = ["GRACE_SECONDS", "Janitor", "janitor"]

#: How long after a run's own limit the janitor kills it (the parent normally acts first).
GRACE_SECONDS = 5.0

# The janitor's whole program: standard library only, no import of this package (it must start fast
# and must not depend on the parent's environment). Commands, one per line:
#   group PGID [SECONDS]   hold a process group; kill it SECONDS from now (no SECONDS: no limit)
#   ungroup PGID           the group ended: forget it
#   folder PATH            remove PATH when the parent dies
#   unfolder PATH          the parent removed PATH itself
_PROGRAM = r"""
import os, select, shutil, signal, sys, time
signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the parent; the janitor cleans up after it
groups, folders, pending = {}, set(), b""

def kill(pgid):
    try:
        os.killpg(pgid, signal.SIGKILL)
    except OSError:
        pass

while True:
    limits = [deadline for deadline in groups.values() if deadline is not None]
    wait = max(0.0, min(limits) - time.monotonic()) if limits else None
    if select.select([0], [], [], wait)[0]:
        chunk = os.read(0, 65536)
        if not chunk:
            break
        pending += chunk
        *lines, pending = pending.split(b"\n")
        for line in lines:
            verb, _, argument = line.decode("utf-8", "surrogateescape").partition(" ")
            if verb == "group":
                pgid, _, seconds = argument.partition(" ")
                groups[int(pgid)] = time.monotonic() + float(seconds) if seconds else None
            elif verb == "ungroup":
                groups.pop(int(argument), None)
            elif verb == "folder":
                folders.add(argument)
            elif verb == "unfolder":
                folders.discard(argument)
    now = time.monotonic()
    for pgid, deadline in list(groups.items()):
        if deadline is not None and now >= deadline:
            kill(pgid)
            del groups[pgid]
for pgid in groups:
    kill(pgid)
for folder in folders:
    shutil.rmtree(folder, ignore_errors=True)
"""


class Janitor:
    """The parent's side of the pipe. Every method is cheap (one short write) and never raises: a
    janitor that cannot start or has died only means the parent's own clean-up is all there is."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._owner = -1
        self._broken = False

    @property
    def pid(self) -> int | None:
        """The janitor's process id, once started in this process."""
        return self._process.pid if self._process is not None and self._owner == os.getpid() else None

    def _start(self) -> subprocess.Popen[bytes] | None:
        try:
            # Its own session: a Ctrl-C or a kill of the parent's process group must not take it too.
            return subprocess.Popen([sys.executable, "-I", "-S", "-c", _PROGRAM], stdin=subprocess.PIPE,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        except OSError:
            return None

    def _send(self, line: str) -> None:
        if "\n" in line:  # a path with a newline cannot be told; the parent's own clean-up covers it
            return
        with self._lock:
            if self._owner != os.getpid():  # a forked child needs a janitor of its own
                self._process, self._owner, self._broken = self._start(), os.getpid(), False
            if self._process is None or self._broken or self._process.stdin is None:
                return
            try:
                self._process.stdin.write(line.encode("utf-8", "surrogateescape") + b"\n")
                self._process.stdin.flush()
            except OSError:
                self._broken = True

    def hold_group(self, pgid: int, limit: float | None = None) -> None:
        """Kill process group ``pgid`` when the parent dies, or ``limit`` + grace seconds from now."""
        if limit is None or not math.isfinite(limit):
            self._send(f"group {pgid}")
        else:
            self._send(f"group {pgid} {max(limit, 0.0) + GRACE_SECONDS:.3f}")

    def release_group(self, pgid: int) -> None:
        """The group has ended: forget it."""
        self._send(f"ungroup {pgid}")

    def hold_folder(self, path: os.PathLike[str] | str) -> None:
        """Remove ``path`` when the parent dies."""
        self._send(f"folder {os.fspath(path)}")

    def release_folder(self, path: os.PathLike[str] | str) -> None:
        """The parent removed ``path`` itself: forget it."""
        self._send(f"unfolder {os.fspath(path)}")


    def close(self) -> None:
        """End the janitor's input (it removes nothing the parent still lists, then exits)."""
        with self._lock:
            process, self._process = self._process, None
        if process is None or self._owner != os.getpid():
            return
        try:
            if process.stdin is not None:
                process.stdin.close()
            process.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            pass


_janitor = Janitor()
# Registered when this module is first imported, before the launchers' own exit handler: handlers
# run last-in first-out, so the servers are closed before the janitor is told to finish.
atexit.register(_janitor.close)


def janitor() -> Janitor:
    """This process's janitor (started on first use, again after a fork)."""
    return _janitor
