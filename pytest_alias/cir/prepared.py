"""Prepared conditions: each renamed condition built and verified once, then read from a content-addressed cache.

Renaming and its SANY/TLC re-verification cost seconds per task, so a run prepares its conditions
once (the pytest controller before workers start, or ``tla-alias build`` ahead of time) and every
later reader (xdist workers at collection, the next run) only reads the cache. A key covers
everything that decides the result: the task's content version, the condition kind, the seed, the
proposed map (meaningful names), the renaming code's version and the toolchain (jar hash), so a
change to any of them is a miss, never a stale condition.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, Mapping

from .. import switches
from ..progress import Progress
from ..tasks.model import Condition, Task
from ..tla.cache import RunCache, content_key, default_cache_dir
from ..tla.runner import default_tools
from ..tla.slots import machine_cores
from .conditions import RenamedCondition, meaningful_condition, published_condition, random_condition, rename_seeds

#: Bump when renaming or verification would give a different condition for the same inputs.
#: 3: a multi-module task's description follows the paper's three-part rule for its provided modules.
RENAMING_VERSION = 3

#: A condition and the reason it cannot be graded (None when it can).
Prepared = tuple[Condition | None, str | None]


def condition_from_dict(data: Mapping[str, Any]) -> Condition:
    """Rebuild a condition written by ``Condition.to_dict`` (module order kept: main first)."""
    return Condition(str(data["task"]), str(data["condition"]), str(data["description"]),
                     tuple((str(k), str(v)) for k, v in dict(data["modules"]).items()), data.get("cfg"),
                     tuple((str(k), str(v)) for k, v in dict(data.get("map") or {}).items()), data.get("seed"),
                     int(data.get("rename_seed") or 0))


def condition_key(task: Task, kind: str, seed: int, proposed: Mapping[str, str] | None, jar: str, *,
                  published: bool = False) -> str:
    """The cache key of one condition of ``task``. A ``published`` renamed condition comes from a
    given map (``--alias-rename-map``), not the seed: its key holds the map, so the two never mix."""
    proposal = hashlib.sha256(json.dumps(sorted((proposed or {}).items())).encode()).hexdigest()[:16]
    from_map = kind == "meaningful" or published
    extra = {"published": True} if published else {}  # absent otherwise: generated conditions keep their keys
    return content_key("condition", renaming=RENAMING_VERSION, task=task.version, condition_kind=kind,
                       seed=seed if kind == "random" and not published else None,
                       proposal=proposal if from_map else None, jar=jar, **extra)


class ConditionCache:
    """Prepared conditions under ``root/conditions``; ``built`` counts what had to be built."""

    def __init__(self, root: Path | str | None, jar: str) -> None:
        self.cache = RunCache((Path(root) if root is not None else default_cache_dir()) / "conditions")
        self.jar = jar
        self.built = 0

    def prepare(self, task: Task, kinds: tuple[str, ...] | list[str], *, seed: int,
                meaningful_maps: Mapping[str, Mapping[str, str]] | None,
                tools: Callable[[], Any],
                rename_maps: Mapping[str, Mapping[str, str]] | None = None, renamings: int = 1) -> list[Prepared]:
        """The requested conditions of ``task``, read from the cache or built, verified and stored;
        ``random`` once per renaming seed (``renamings`` of them, the first being ``seed``).

        With ``rename_maps`` (published maps, task → old → new) the ``random`` condition is built
        from the task's map instead of the seed; a task the maps leave out has no renamed condition.
        ``tools`` is called only when something must be built, so a fully cached run starts no JVM.
        """
        prepared: list[Prepared] = []
        for kind in kinds:
            if kind == "original":
                prepared.append((task.original(), None))
                continue
            published = kind == "random" and rename_maps is not None
            if kind == "random" and not published:
                prepared += [self._random(task, value, index, tools)
                             for index, value in enumerate(rename_seeds(seed, renamings))]
                continue
            proposed = (rename_maps if published else meaningful_maps or {}).get(task.id)  # type: ignore[union-attr]
            if kind == "meaningful" and proposed is None:
                prepared.append((None, "no meaningful name map for this task"))
                continue
            if published and proposed is None:
                prepared.append((None, "the rename map has no entry for this task"))
                continue
            key = condition_key(task, kind, seed, proposed, self.jar, published=published)
            cached = _cached_condition(self.cache.get(key))
            if cached is not None:
                prepared.append(cached)
                continue
            if published:
                renamed = published_condition(task, dict(proposed or {}), tools=tools())
            else:
                renamed = meaningful_condition(task, dict(proposed or {}), tools=tools())
            self.built += 1
            prepared.append(self.store(task, renamed, seed=seed, proposed=proposed, published=published))
        return prepared

    def _random(self, task: Task, seed: int, index: int, tools: Callable[[], Any]) -> Prepared:
        """The random condition with renaming ``seed``, marked as the run's ``index``-th seed. The
        cache is keyed by the seed alone (another run may give the same seed another index)."""
        cached = _cached_condition(self.cache.get(condition_key(task, "random", seed, None, self.jar)))
        if cached is None:
            self.built += 1
            cached = self.store(task, random_condition(task, seed, tools=tools()), seed=seed)
        condition, reason = cached
        return (dataclasses.replace(condition, rename_seed=index) if condition is not None else None), reason

    def store(self, task: Task, renamed: RenamedCondition, *, seed: int,
              proposed: Mapping[str, str] | None = None, published: bool = False) -> Prepared:
        """Keep a condition built elsewhere (``tla-alias build``); returns it with its skip reason."""
        reason = None if renamed.valid else f"renamed copy not verified: {renamed.verification.failure}"  # type: ignore[union-attr]
        if reason is None or not renamed.verification.machine_limit:  # type: ignore[union-attr]  # may verify on another try
            key = condition_key(task, renamed.condition.kind, seed, proposed, self.jar, published=published)
            self.cache.put(key, {"condition": renamed.condition.to_dict(), "skip_reason": reason})
        return renamed.condition, reason


def _cached_condition(entry: Mapping[str, Any] | None) -> Prepared | None:
    """The condition a cache entry holds, or None for a miss: a damaged or wrong-shaped entry (valid
    JSON, say ``{}`` or a condition without modules) is rebuilt, never an error at collection."""
    if not isinstance(entry, Mapping) or not isinstance(entry.get("condition"), Mapping):
        return None
    reason = entry.get("skip_reason")
    try:
        return condition_from_dict(entry["condition"]), (str(reason) if reason is not None else None)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def prepare_all(cache: ConditionCache, tasks: list[Task], kinds: tuple[str, ...] | list[str], *, seed: int,
                meaningful_maps: Mapping[str, Mapping[str, str]] | None, tools: Callable[[], Any],
                live: bool, description: str = "preparing conditions",
                rename_maps: Mapping[str, Mapping[str, str]] | None = None,
                renamings: int = 1) -> list[tuple[Task, list[Prepared]]]:
    """Each task with its prepared ``kinds`` (``random`` with ``renamings`` seeds, or from the
    published ``rename_maps``), read from ``cache`` or built; a progress line appears once something
    has to be built, so a fully cached run stays silent."""
    prepared: list[tuple[Task, list[Prepared]]] = []
    progress: Progress | None = None

    lock = threading.Lock()
    made: list[Any] = []

    def shared_tools() -> Any:  # made once, on first need (a fully cached run needs no toolchain)
        with lock:
            if not made:
                made.append(tools())
        return made[0]

    def one(task: Task) -> list[Prepared]:
        return cache.prepare(task, kinds, seed=seed, meaningful_maps=meaningful_maps, tools=shared_tools,
                             rename_maps=rename_maps, renamings=renamings)

    # Tasks are independent and each verification is a JVM run: one thread per core (results in order).
    pool = ThreadPoolExecutor(max_workers=parallel_threads(len(tasks)))
    try:
        for done, (task, conditions) in enumerate(zip(tasks, pool.map(one, tasks)), start=1):
            prepared.append((task, conditions))
            if progress is None and cache.built:
                progress = Progress(description, len(tasks), unit="task", live=live)
                progress.update(done - 1)
            if progress is not None:
                progress.update(1, built=cache.built)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        if progress is not None:
            progress.close()
    return prepared


def parallel_threads(jobs: int) -> int:
    """How many threads run ``jobs`` independent tool-bound jobs: one per core, at most one per job
    (one with ``ALIAS_SHORTCUTS=off``: the plain way, one job at a time)."""
    if not switches.enabled():
        return 1
    return max(1, min(jobs, machine_cores()))


def verify_renamed(tasks: list[Task], seed: int, *, tools: Any = None, live: bool | None = None) -> dict[str, str | None]:
    """Why each task's random renaming with ``seed`` fails SANY/TLC re-verification (None: verified).

    Reads the condition cache a run or ``tla-alias build`` filled and builds (and stores) only what
    it lacks.
    """
    own = tools or default_tools()
    cache = ConditionCache(own.cache_dir, own.toolchain.jar.sha256)
    prepared = prepare_all(cache, tasks, ["random"], seed=seed, meaningful_maps=None, tools=lambda: own,
                           live=sys.stderr.isatty() if live is None else live, description="verifying renamed copies")
    return {task.id: conditions[0][1] for task, conditions in prepared}
