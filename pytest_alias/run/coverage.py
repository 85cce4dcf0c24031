"""Which tasks the behavior grade can judge, and which it covers (appendix J), once per run.

Each task's reference is graded against itself by behavior (the positive control of appendix J)
before its first output is graded: by the first item of the task that runs, never by a barrier
before all items. A task whose reference fails is *not gradeable* by that grade: its items skip the
grade with the reason instead of failing, and its samples count in no rate. The *covered* tasks are
appendix J's: eligible (a cfg, no random values, not a fixture of the TLA+ tools) and passing the
self-check — the same set ``validate-grader`` reports. Each self-check is cached by content (the
reference's modules and cfg, mode, limit, toolchain) under a lock, so one process of a run computes
it and the others (xdist workers, later samples, later runs) read it; a failure that may pass
elsewhere (a time limit, a JVM fault) is kept for the run that saw it only.
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

from filelock import FileLock, Timeout

from ..cir.prepared import parallel_threads
from ..grading.endings import machine_made
from ..grading.validation import reference_self_grade
from ..progress import Progress
from ..tasks.model import Condition, Task
from ..tasks.selection import behavior_exclusion
from ..tla.cache import RunCache, content_key
from ..tla.launcher import seconds_for_states
from ..tla.runner import TlaTools

#: How a run's covered set was obtained (the run's JSON says which).
SELF_CHECK = "self-check"
FROM_FILE = "validate-grader file"
#: The run-cache folder of the self-checks.
SELF_CHECK_FOLDER = "self-checks"


@dataclass(frozen=True)
class Coverage:
    """The behavior grade's reach over a run's tasks, and how it was obtained."""

    source: str
    mode: str
    timeout: float
    covered: frozenset[str] = frozenset()
    not_gradeable: Mapping[str, str] = field(default_factory=dict)  # task → why its reference fails itself
    ineligible: Mapping[str, str] = field(default_factory=dict)  # task → appendix J's reason
    file: str | None = None
    checked: frozenset[str] = frozenset()  # every task this coverage has a word on (those without a cfg too)
    #: task → seconds its self-check took when it ran (stored with it): the controller's cost estimate
    #: for longest-first scheduling; not part of the run's JSON (it is the machine's, not the run's).
    seconds: Mapping[str, float] = field(default_factory=dict, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """JSON data: the run's JSON, the xdist payload and ``tla-alias report`` read it back."""
        return {"source": self.source, "mode": self.mode, "timeout_s": self.timeout, "file": self.file,
                "covered": sorted(self.covered), "not_gradeable": dict(sorted(self.not_gradeable.items())),
                "ineligible": dict(sorted(self.ineligible.items())), "checked": sorted(self.checked)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Coverage:
        return cls(source=str(data["source"]), mode=str(data.get("mode", "paper")),
                   timeout=float(data.get("timeout_s", 0.0)), covered=frozenset(map(str, data.get("covered", ()))),
                   not_gradeable={str(k): str(v) for k, v in (data.get("not_gradeable") or {}).items()},
                   ineligible={str(k): str(v) for k, v in (data.get("ineligible") or {}).items()},
                   file=data.get("file"), checked=frozenset(map(str, data.get("checked", ()))),
                   seconds={str(k): float(v) for k, v in (data.get("seconds") or {}).items()})

    def restricted_to(self, file_tasks: Iterable[str], file: str) -> Coverage:
        """The covered tasks a ``validate-grader`` file names (the self-check still decides what is gradeable)."""
        return Coverage(FROM_FILE, self.mode, self.timeout, frozenset(file_tasks), self.not_gradeable,
                        self.ineligible, file, self.checked, self.seconds)

    def merged(self, other: Coverage) -> Coverage:
        """This coverage with ``other``'s tasks added (a worker that self-checked a task it lacked)."""
        covered = self.covered if self.source == FROM_FILE else self.covered | other.covered
        return Coverage(self.source, self.mode, self.timeout, covered, {**self.not_gradeable, **other.not_gradeable},
                        {**self.ineligible, **other.ineligible}, self.file, self.checked | other.checked,
                        {**self.seconds, **other.seconds})


#: The behavior grade's wording when it finds, while grading an output, that the reference fails itself.
_SELF_FAILURE = re.compile(r"^the reference cannot be graded this way: graded against itself it fails too \((.*)\); "
                           r"the verdict says nothing about the output$", re.DOTALL)


def _own_words(reason: str) -> str:
    """The self-check's failure without the wording meant for an output's verdict."""
    found = _SELF_FAILURE.match(reason)
    return found.group(1) if found else reason.removeprefix("the reference cannot be graded this way: ")


def self_check_key(condition: Condition, *, mode: str, timeout: float, toolchain: str) -> str:
    """The content key of ``condition``'s self-check: its modules and cfg, the mode, limit and toolchain."""
    return content_key("self-check", modules=dict(condition.module_map), main=condition.main, cfg=condition.cfg or "",
                       mode=mode, timeout=timeout, toolchain=toolchain)


def self_check_stored(condition: Condition, *, tools: Any, mode: str, timeout: float, cache_root: Path,
                      run_uid: str | None = None) -> bool:
    """Whether ``condition``'s self-check is stored (never runs one, never waits)."""
    key = self_check_key(condition, mode=mode, timeout=timeout, toolchain=tools.toolchain.identity)
    return _stored(RunCache(cache_root / SELF_CHECK_FOLDER), key, run_uid) is not None


class SelfCheckPending(Exception):
    """The self-check is not stored yet, and the caller asked neither to wait for it nor to make it."""


def _stored(cache: Any, key: str, run_uid: str | None) -> tuple[str | None, float] | None:
    """A stored self-check: any verdict of the inputs, or a failure the machine may have caused (a time
    limit, a JVM fault) when this run stored it (workers share it; a later run checks again)."""
    entry = cache.get(key)
    if not (isinstance(entry, Mapping) and "reason" in entry
            and (entry["reason"] is None or isinstance(entry["reason"], str))):
        return None
    if entry.get("run") is not None and entry.get("run") != run_uid:
        return None
    seconds = entry.get("seconds")
    return entry["reason"], float(seconds) if isinstance(seconds, (int, float)) else 0.0


def timed_self_check(condition: Condition, *, tools: Any, mode: str, timeout: float, cache: Any,
                     shortcuts: bool = True, run_uid: str | None = None, wait: bool = True,
                     make: bool = True) -> tuple[str | None, float]:
    """Why ``condition``'s reference fails the behavior grade against itself (None: it passes) and the
    seconds the check took when it ran, both kept in ``cache``. One process (or thread) of a run makes
    it; the others wait for its entry (``wait``) or get :class:`SelfCheckPending` at once, as does a
    caller that may not make it (``make=False``: it is another thread's to make) when it is not stored."""
    key = self_check_key(condition, mode=mode, timeout=timeout, toolchain=tools.toolchain.identity)
    found = _stored(cache, key, run_uid)
    if found is not None:
        return found
    if not make:
        raise SelfCheckPending(condition.task_id)
    lock_path = cache.root / "locks" / f"{key}.lock"
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(lock_path))
    try:
        lock.acquire(timeout=-1 if wait else 0)
    except Timeout:
        raise SelfCheckPending(condition.task_id) from None
    try:
        found = _stored(cache, key, run_uid)  # stored while this process waited
        if found is not None:
            return found
        result = reference_self_grade(condition, tools=tools, mode=mode, timeout=timeout, shortcuts=shortcuts)
        reason = None if result.passed else _own_words(result.reason or "no reason given")
        by_machine = machine_made(result)
        if not by_machine or run_uid is not None:  # the machine's doing: kept for this run only
            cache.put(key, {"reason": reason, "seconds": round(result.seconds, 3),
                            **({"run": run_uid} if by_machine else {})})
        return reason, result.seconds
    finally:
        lock.release()


def compute_coverage(tasks: Iterable[tuple[Task, Condition]], *, tools: Any, mode: str, timeout: float,
                     cache_root: Path, live: bool, shortcuts: bool = True, run_uid: str | None = None,
                     wait: bool = True, make: bool = True) -> Coverage:
    """Self-check every task with a cfg (its original condition) and apply appendix J's eligibility
    (``run_uid``, ``wait`` and ``make``: see :func:`timed_self_check`)."""
    cache = RunCache(cache_root / SELF_CHECK_FOLDER)
    tasks = list(tasks)
    pairs = [(task, condition) for task, condition in tasks if condition.cfg is not None]
    covered: set[str] = set()
    not_gradeable: dict[str, str] = {}
    ineligible: dict[str, str] = {}

    seconds: dict[str, float] = {}

    def one(pair: tuple[Task, Condition]) -> str | None:
        # The suite's state count of the reference, when it records one, says whether its checks run long.
        with TlaTools.expecting(seconds_for_states(pair[0].expected_distinct)):
            reason, seconds[pair[0].id] = timed_self_check(pair[1], tools=tools, mode=mode, timeout=timeout,
                                                           cache=cache, shortcuts=shortcuts, run_uid=run_uid,
                                                           wait=wait, make=make)
        return reason

    # One thread per core: each self-check is JVM runs, and the workers wait for the coverage.
    pool = ThreadPoolExecutor(max_workers=parallel_threads(len(pairs)))
    # One task's self-check (an item's) shows no progress line: only a batch of them does.
    with Progress("self-checking references (behavior grade)", len(pairs) if len(pairs) > 1 else 0, unit="task",
                  live=live) as progress:
        try:
            for (task, condition), reason in zip(pairs, pool.map(one, pairs)):
                excluded = behavior_exclusion(task)
                # Appendix J's eligibility first, as validate-grader applies it (a random-valued spec is
                # ineligible whether or not its self-check happens to pass); a failed self-check still
                # makes the task not gradeable, so its items skip the grade.
                if excluded is not None:
                    ineligible[task.id] = excluded
                if reason is not None:
                    not_gradeable[task.id] = reason
                if excluded is None and reason is None:
                    covered.add(task.id)
                progress.update(1)
        finally:  # Ctrl-C: the checks not yet started are dropped, not run before the interrupt is seen
            pool.shutdown(wait=True, cancel_futures=True)
    ineligible.update({task.id: "task has no TLC configuration" for task, condition in tasks if condition.cfg is None})
    return Coverage(SELF_CHECK, mode, timeout, frozenset(covered), not_gradeable, ineligible,
                    checked=frozenset(task.id for task, _ in tasks), seconds=seconds)
