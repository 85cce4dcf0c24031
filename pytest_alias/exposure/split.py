"""The exposure split (paper Section 3, "Fine-tuned models"): the test tasks into halves A and B.

The test tasks are shuffled with ``random.Random(seed)`` from their sorted ids and cut into A
(the first ⌊n/2⌋) and B (the rest, ⌈n/2⌉): the paper's 111 tasks with seed 20260926 give 55/56.
An optional training pool (tasks outside the test set, the paper's 292) goes into both training
sets; a pool task whose id or reference text is in the test set is left out with its reason, so no
test task reaches the model that should not have seen it. So is a pool spec the suite loader could
not use (``pool_skipped``), so a pool smaller than the paper's 292 says which specs it lost and why.

The split file records the ids, the seed, the suites and each task's content version, so a later
step (fine-tuning, the analysis) can refuse a suite that changed under it.
"""

from __future__ import annotations

from ..errors import UsageProblem

import hashlib
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from ..tasks.model import Task
from ..atomic import parse_json, write_output_json

#: The paper's split seed.
DEFAULT_SPLIT_SEED = 20260926
SPLIT_FORMAT = "alias-exposure-split"
SPLIT_FORMAT_VERSION = 1
HALVES = ("A", "B")


class SplitError(UsageProblem):
    """A split that cannot be made or read (too few tasks, a bad file, a changed suite)."""


@dataclass(frozen=True)
class ExposureSplit:
    """Halves A and B of the test tasks, the shared training pool, and where they came from."""

    seed: int | None  # None: a published split (tla-alias split --from) that did not say its seed
    suite: str
    halves: Mapping[str, tuple[str, ...]]
    versions: Mapping[str, str]
    pool_suite: str | None = None
    pool: tuple[str, ...] = ()
    pool_versions: Mapping[str, str] = field(default_factory=dict)
    pool_excluded: tuple[tuple[str, str], ...] = ()

    @property
    def test_ids(self) -> tuple[str, ...]:
        """Every test task, A then B."""
        return self.halves["A"] + self.halves["B"]

    def half_of(self, task_id: str) -> str | None:
        """``"A"`` or ``"B"`` for a test task, None for any other id."""
        return next((half for half in HALVES if task_id in self.halves[half]), None)

    @property
    def identity(self) -> str:
        """A short hash of the halves, pool and versions: models trained on one split name it."""
        document = json.dumps([self.seed, {h: list(ids) for h, ids in self.halves.items()}, list(self.pool),
                               dict(sorted(self.versions.items())), dict(sorted(self.pool_versions.items()))])
        return hashlib.sha256(document.encode()).hexdigest()[:16]

    def to_dict(self) -> dict[str, Any]:
        """The JSON document ``tla-alias split`` writes."""
        return {"format": SPLIT_FORMAT, "format_version": SPLIT_FORMAT_VERSION, "identity": self.identity,
                "seed": self.seed, "suite": self.suite, "pool_suite": self.pool_suite,
                "sizes": {"A": len(self.halves["A"]), "B": len(self.halves["B"]), "pool": len(self.pool)},
                "halves": {half: list(self.halves[half]) for half in HALVES}, "pool": list(self.pool),
                "versions": dict(self.versions), "pool_versions": dict(self.pool_versions),
                "pool_excluded": [{"id": task_id, "reason": reason} for task_id, reason in self.pool_excluded]}

    def excluded_lines(self) -> list[str]:
        """One line per pool task left out, with its reason (what ``tla-alias split`` prints)."""
        return [f"  {task_id}: {reason}" for task_id, reason in self.pool_excluded]

    def write(self, path: Path | str) -> None:
        """Write the split atomically to ``path`` (a regular file or none yet: never through a link)."""
        write_output_json(Path(path), self.to_dict())


def split_halves(ids: Sequence[str], seed: int = DEFAULT_SPLIT_SEED) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Halves A (⌊n/2⌋ ids) and B (⌈n/2⌉) of ``ids``, deterministic for ``seed`` whatever the input order."""
    unique = sorted(set(ids))
    if len(unique) != len(ids):
        raise SplitError("task ids must be unique to split them")
    if len(unique) < 2:
        raise SplitError(f"a split needs at least 2 test tasks, not {len(unique)}")
    shuffled = list(unique)
    random.Random(seed).shuffle(shuffled)
    cut = len(shuffled) // 2
    return tuple(sorted(shuffled[:cut])), tuple(sorted(shuffled[cut:]))


def _normalized(text: str) -> str:
    return " ".join(text.split())


def select_pool(test: Sequence[Task], pool: Iterable[Task], size: int | None = None
                ) -> tuple[list[Task], list[tuple[str, str]]]:
    """The pool tasks that may train both models, and ``(id, reason)`` for each one left out.

    Left out: a task whose id is a test id, whose main module's text (whitespace aside) or module
    name equals a test reference's (another copy of the same spec), or that repeats an earlier pool
    task's reference (tlaplus/Examples gives one task per model of a module). ``size`` keeps the
    ``size`` tasks with the shortest modules in all (ties by id), so a CPU run stays short; None
    keeps all, as in the paper.
    """
    test_ids = {task.id for task in test}
    test_texts = {_normalized(task.module_map[task.main]): task.id for task in test}
    test_modules = {task.main: task.id for task in test}
    kept: list[Task] = []
    excluded: list[tuple[str, str]] = []
    seen: dict[str, str] = {}
    for task in sorted(pool, key=lambda t: t.id):
        text = _normalized(task.module_map[task.main])
        if task.id in test_ids:
            excluded.append((task.id, "is a test task"))
        elif text in test_texts:
            excluded.append((task.id, f"same reference as test task {test_texts[text]}"))
        elif task.main in test_modules:
            excluded.append((task.id, f"same module name as test task {test_modules[task.main]}"))
        elif text in seen:
            excluded.append((task.id, f"same reference as pool task {seen[text]}"))
        else:
            seen[text] = task.id
            kept.append(task)
    if size is not None:
        if size < 0:
            raise SplitError(f"pool size must be 0 or more, not {size}")
        ranked = sorted(kept, key=lambda t: (sum(len(text) for _, text in t.modules), t.id))
        dropped = ranked[size:]
        excluded += [(task.id, f"beyond the {size} shortest pool specs") for task in dropped]
        kept = sorted(ranked[:size], key=lambda t: t.id)
    return kept, excluded


def make_split(test: Sequence[Task], *, seed: int = DEFAULT_SPLIT_SEED, suite: str = "",
               pool: Sequence[Task] = (), pool_suite: str | None = None, pool_size: int | None = None,
               pool_skipped: Sequence[tuple[str, str]] = ()) -> ExposureSplit:
    """Split ``test`` into halves and attach the usable part of ``pool``; ``pool_skipped`` are the
    ``(id, reason)`` of the pool suite's specs its loader left out, listed first among the excluded."""
    half_a, half_b = split_halves([task.id for task in test], seed)
    kept, excluded = select_pool(test, pool, pool_size) if pool_suite is not None or pool else ([], [])
    excluded = [*pool_skipped, *excluded]
    return ExposureSplit(seed=seed, suite=suite, halves={"A": half_a, "B": half_b},
                         versions={task.id: task.version for task in sorted(test, key=lambda t: t.id)},
                         pool_suite=pool_suite, pool=tuple(task.id for task in kept),
                         pool_versions={task.id: task.version for task in kept}, pool_excluded=tuple(excluded))


def _id_list(value: Any, what: str, source: Path) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise SplitError(f"{source}: {what} must be a list of task ids")
    if len(set(value)) != len(value):
        raise SplitError(f"{source}: {what} lists a task id twice")
    return tuple(sorted(value))


def _check_published_format(data: Mapping[str, Any], source: Path) -> None:
    """Refuse a file that says it is another format, or a split format version this ALIAS cannot read
    (its fields may mean something else); a plain ``{"A": …, "B": …}`` says neither and is read."""
    form = data.get("format")
    if form is not None and form != SPLIT_FORMAT:
        raise SplitError(f"{source}: format {form!r} is not a split ({SPLIT_FORMAT!r})")
    if (form is not None or "format_version" in data) and data.get("format_version") != SPLIT_FORMAT_VERSION:
        raise SplitError(f"{source}: split format version {data.get('format_version')!r}; "
                         f"this ALIAS reads version {SPLIT_FORMAT_VERSION}")


def _check_published_versions(recorded: Any, tasks: Mapping[str, Task], what: str, source: Path) -> None:
    """Refuse a split whose recorded content versions (``versions``, ``pool_versions``) differ from this
    machine's tasks: it was made for other task texts, and a model trained on them saw other specs."""
    if recorded is None:
        return
    if not isinstance(recorded, dict) or not all(isinstance(v, str) for v in recorded.values()):
        raise SplitError(f"{source}: {what} must map task ids to content versions")
    changed = sorted(task_id for task_id, version in recorded.items()
                     if task_id in tasks and tasks[task_id].version != version)
    if changed:
        raise SplitError(f"{source}: {len(changed)} task(s) differ from the versions the split was made for "
                         f"({', '.join(changed[:3])}); use the suite it was made with, or make a new split")


def published_split(path: Path | str, test: Sequence[Task], *, suite: str = "", pool: Sequence[Task] = (),
                    pool_suite: str | None = None, pool_skipped: Sequence[tuple[str, str]] = ()) -> ExposureSplit:
    """A split someone published, rebuilt on this machine's tasks (``tla-alias split --from FILE``).

    The file is a ``tla-alias split`` file or any JSON object with the halves as id lists,
    ``{"A": [...], "B": [...]}`` or ``{"halves": {"A": [...], "B": [...]}}``, optionally with
    ``"pool": [...]`` (the shared training tasks) and ``"seed"``. Every listed id must be a task of
    the given suites, neither half empty, and the halves and pool disjoint; a file that names its
    format must be this version's, and one that records content versions (a ``tla-alias split``
    file) must match this machine's tasks. The versions written are this machine's, so a later step
    still notices a task that changes. Without a listed pool, ``pool`` is filtered as
    :func:`make_split` does, ``pool_skipped`` included.
    """
    source = Path(path)
    try:
        data = parse_json(source.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SplitError(f"{source}: no such split file") from None
    except (OSError, ValueError) as exc:  # not UTF-8, not JSON, nested too deeply
        raise SplitError(f"{source}: not a JSON split ({exc})") from None
    if not isinstance(data, dict):
        raise SplitError(f"{source}: expected a JSON object with halves A and B")
    _check_published_format(data, source)
    halves_data = data.get("halves", data)
    if not isinstance(halves_data, dict) or not all(half in halves_data for half in HALVES):
        raise SplitError(f"{source}: expected halves A and B ({{\"A\": [ids], \"B\": [ids]}})")
    halves = {half: _id_list(halves_data[half], f"half {half}", source) for half in HALVES}
    for half in HALVES:  # an empty half leaves one model nothing to be exposed to: no experiment
        if not halves[half]:
            raise SplitError(f"{source}: half {half} is empty; each half needs at least one task")
    by_id = {task.id: task for task in test}
    for half in HALVES:
        unknown = [task_id for task_id in halves[half] if task_id not in by_id]
        if unknown:
            raise SplitError(f"{source}: {len(unknown)} id(s) of half {half} are not tasks of {suite or 'the suite'}: "
                             f"{', '.join(unknown[:3])}")
    _check_published_versions(data.get("versions"), by_id, "versions", source)
    shared = set(halves["A"]) & set(halves["B"])
    if shared:
        raise SplitError(f"{source}: halves A and B share {len(shared)} task(s): {', '.join(sorted(shared)[:3])}")
    chosen = [by_id[task_id] for task_id in sorted(halves["A"] + halves["B"])]
    kept: list[Task]
    excluded: list[tuple[str, str]]
    if "pool" in data and data["pool"] is not None:
        listed = _id_list(data["pool"], "pool", source)
        pool_by_id = {task.id: task for task in pool}
        missing = [task_id for task_id in listed if task_id not in pool_by_id]
        if missing:
            raise SplitError(f"{source}: {len(missing)} pool id(s) are not tasks of {pool_suite or 'the pool suite'} "
                             f"(give it with --pool): {', '.join(missing[:3])}")
        if set(listed) & set(by_id):
            raise SplitError(f"{source}: the pool lists test tasks: {', '.join(sorted(set(listed) & set(by_id))[:3])}")
        _check_published_versions(data.get("pool_versions"), pool_by_id, "pool_versions", source)
        kept, excluded = [pool_by_id[task_id] for task_id in listed], []
    else:
        kept, excluded = select_pool(chosen, pool) if pool_suite is not None or pool else ([], [])
        excluded = [*pool_skipped, *excluded]
    seed = data.get("seed")
    return ExposureSplit(seed=seed if isinstance(seed, int) and not isinstance(seed, bool) else None, suite=suite,
                         halves=halves, versions={task.id: task.version for task in chosen}, pool_suite=pool_suite,
                         pool=tuple(task.id for task in kept), pool_versions={task.id: task.version for task in kept},
                         pool_excluded=tuple(excluded))


def load_split(path: Path | str) -> ExposureSplit:
    """Read a split file; a missing, foreign or inconsistent one raises ``SplitError``."""
    source = Path(path)
    try:
        data = parse_json(source.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SplitError(f"{source}: no such split file (make one with tla-alias split)") from None
    except (OSError, ValueError) as exc:  # not UTF-8, not JSON, nested too deeply
        raise SplitError(f"{source}: not a split file ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != SPLIT_FORMAT:
        raise SplitError(f"{source}: not a split file written by tla-alias split")
    if data.get("format_version") != SPLIT_FORMAT_VERSION:
        raise SplitError(f"{source}: split format version {data.get('format_version')!r}; "
                         f"this ALIAS reads version {SPLIT_FORMAT_VERSION}")
    try:
        split = ExposureSplit(
            seed=None if data["seed"] is None else int(data["seed"]), suite=str(data["suite"]),
            halves={half: tuple(str(i) for i in data["halves"][half]) for half in HALVES},
            versions={str(k): str(v) for k, v in data["versions"].items()},
            pool_suite=data.get("pool_suite"), pool=tuple(str(i) for i in data.get("pool", ())),
            pool_versions={str(k): str(v) for k, v in data.get("pool_versions", {}).items()},
            pool_excluded=tuple((str(e["id"]), str(e["reason"])) for e in data.get("pool_excluded", ())))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise SplitError(f"{source}: malformed split file ({exc!r})") from None
    overlap = set(split.halves["A"]) & set(split.halves["B"])
    if overlap or set(split.pool) & set(split.test_ids):
        raise SplitError(f"{source}: halves and pool must be disjoint (shared: {sorted(overlap)[:3]})")
    if data.get("identity") not in (None, split.identity):
        raise SplitError(f"{source}: the file was edited after it was written (identity does not match its content)")
    return split


def check_versions(split: ExposureSplit, tasks: Iterable[Task], *, pool: bool = False) -> None:
    """Raise ``SplitError`` when a task's content changed since the split was made."""
    recorded = split.pool_versions if pool else split.versions
    changed = [task.id for task in tasks if task.id in recorded and recorded[task.id] != task.version]
    if changed:
        raise SplitError(f"{len(changed)} task(s) changed since the split was made ({', '.join(changed[:3])}); "
                         "make a new split")
