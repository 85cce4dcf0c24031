"""Whether a failing verdict rests on the machine: a check of its grade ended by a limit, not the spec.

A check TLC stopped at its time limit, a JVM that ran out of memory or SANY stopped at its limit
says nothing lasting about the output: another try, or a faster machine, may pass. Such a failure
is never stored (the grade memo, the condition cache, a self-check kept across runs) and never lets
the parse grade decide the others. The fact is read from the tool results themselves, as the grade
goes (:class:`NotingTools`), and written into the verdict's evidence (``machine_limit``): never
guessed from the words of a reason, which quote the output's own names (an invariant ``NoCrash``, a
variable ``heap``) as readily as a time limit.

A grade is marked when *any* of its checks ended so, a verdict-preserving shortcut's probe
included: that can only keep a verdict out of the caches, never change one.
"""

from __future__ import annotations

import dataclasses
import threading
from typing import Any

from ..tla.sany import SanyResult
from ..tla.tlc import MACHINE_STATUSES, TlcResult
from .result import Evidence, GradeResult


class MachineEndings:
    """The machine endings seen by one grade's tool runs (noted from any thread the grade uses)."""

    def __init__(self) -> None:
        self._found: set[str] = set()
        self._lock = threading.Lock()

    def note(self, value: Any) -> None:
        """Note the endings in ``value``: a tool result, or a tuple/list holding some (a verdict and its graph)."""
        if isinstance(value, (TlcResult, SanyResult)):
            if value.machine_ending is not None:
                self._add(value.machine_ending)
        elif isinstance(value, (tuple, list)):
            for item in value:
                self.note(item)

    def note_status(self, status: str) -> None:
        """Note a TLC status met without a result in hand (see :func:`note_remembered`)."""
        if status in MACHINE_STATUSES:
            self._add(status)

    def _add(self, ending: str) -> None:
        with self._lock:
            self._found.add(ending)

    @property
    def found(self) -> tuple[str, ...]:
        with self._lock:
            return tuple(sorted(self._found))

    def marked(self, result: GradeResult) -> GradeResult:
        """``result`` with ``details["machine_limit"]`` naming the endings when it failed after some."""
        found = self.found
        if result.passed or not found:
            return result
        return dataclasses.replace(result, details=Evidence(**{**result.details, "machine_limit": list(found)}))


class NotingTools:
    """A view of a :class:`~pytest_alias.tla.runner.TlaTools` for one grade: the same toolchain,
    caches and launcher, each call's result noted in ``endings`` on its way back."""

    def __init__(self, tools: Any, endings: MachineEndings) -> None:
        self._tools = tools
        self.endings = endings

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._tools, name)
        if not callable(found) or isinstance(found, type):
            return found

        def noted(*args: Any, **kwargs: Any) -> Any:
            value = found(*args, **kwargs)
            self.endings.note(value)
            return value

        return noted


def note_remembered(tools: Any, status: str) -> None:
    """Note a machine ending a grade read from a cache instead of meeting it (a reference remembered
    to run past the limit): ``tools`` is the grade's view, or plain tools outside a grade."""
    if isinstance(tools, NotingTools):
        tools.endings.note_status(status)


def noting(tools: Any) -> tuple[Any, MachineEndings]:
    """``tools`` as seen by one grade, and the endings its runs will note."""
    endings = MachineEndings()
    return NotingTools(tools, endings), endings  # a view of a view notes into both


def machine_made(result: GradeResult) -> bool:
    """Whether a failing ``result`` may pass on another try: one of its grade's checks ended by the
    machine (``machine_limit``), or — for a verdict made without the noting view (a test, an older
    record) — its TLC status or one of its behavior search's checks says so."""
    if result.passed:
        return False
    details = result.details
    if details.get("machine_limit") or details.get("tlc_status") in MACHINE_STATUSES:
        return True
    attempts = details.get("attempts") or []
    return any(isinstance(attempt, dict) and attempt.get(check) in MACHINE_STATUSES
               for attempt in attempts for check in ("forward", "reverse", "graph"))

