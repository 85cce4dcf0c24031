"""Suites: turn one string into a sorted list of ``Task``.

A suite is named by one string (what ``tla-alias tasks SUITE`` and the plugin take):

* ``builtin`` (the default): the tasks shipped in ``pytest_alias/data/tasks/``.
* ``PATH``: a folder of task folders, or one task folder (``task.toml`` + modules + description).
* ``examples:PATH``: a clone of tlaplus/Examples; one task per (module, model) that its
  ``specifications/*/manifest.json`` records as an exhaustive TLC run with result ``success``.
  ``PATH`` may also be one spec folder of such a clone (``…/specifications/CoffeeCan``).
* ``tlabench:PATH``: a clone of the TLA+-Bench release; one task per ``specs/gold/{id}_*.tla``.

Optional suffixes refine a suite (in any order):

* ``#SET`` keeps one of the paper's TLA+-Bench task sets (``gold``, ``system``, ``utility``, ``test``,
  ``train``, ``eligible``; see :mod:`.selection`); ``?set=SET`` says the same and ``?seed=N`` sets the renaming
  seed ``test`` verifies with (0 by default, the plugin's default ``--alias-seed``).
* ``#KIND`` chooses the TLA+-Bench description kind (``declarative_gpt`` by default,
  ``declarative_claude``, ``intent_gpt``, ``intent_claude``); ``?kind=KIND`` says the same.
* ``?ids=X`` keeps only the listed task ids.  ``X`` is a JSON file holding a list of ids (read
  relative to the suite's folder first, then to the current directory) or a comma-separated list.

The keyword arguments ``description_kind=`` and ``ids=`` (an iterable of ids, or such a file)
do the same and win over the suffixes.  Asking for an id the suite does not have is an error.

Models a third-party clone cannot use (simulation modes, failing or unfinished runs, missing
files, imports nothing provides, cfgs that do not parse) are left out with a reason:
:func:`load_suite_report` returns them as ``skipped``.  So is a task folder of a folder suite that
cannot be loaded (its reason names the file and the fault), so one bad task never stops a suite;
a suite named by one task folder that cannot be loaded is a :class:`SuiteError`.

This module parses suite strings and hands each to its loader: :mod:`.folders` (task folders),
:mod:`.examples` (tlaplus/Examples) or :mod:`.tlabench` (TLA+-Bench); :mod:`.suite_common` and
:mod:`.tla_text` hold what the loaders share.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from ..atomic import parse_json
from .examples import load_examples
from .folders import load_task_folder, load_task_folders
from .model import Task
from .suite_common import Skipped, SuiteError, read_text
from .tla_text import module_header_comment
from .selection import SELECTIONS, Verifier, select
from .tlabench import DEFAULT_DESCRIPTION_KIND, DESCRIPTION_KINDS, load_tlabench, tlabench_id

__all__ = [
    "BUILTIN_TASKS_DIR",
    "DESCRIPTION_KINDS",
    "DEFAULT_DESCRIPTION_KIND",
    "SUITE_SCHEMES",
    "Skipped",
    "SuiteError",
    "SuiteReport",
    "load_suite",
    "load_suite_report",
    "load_task_folder",
    "module_header_comment",
    "suite_selection",
]

#: The suite schemes a suite string may start with (a bare path needs none).
SUITE_SCHEMES: tuple[str, ...] = ("builtin", "examples", "tlabench")
#: Where the built-in tasks live (inside the installed package).
BUILTIN_TASKS_DIR = Path(__file__).resolve().parent.parent / "data" / "tasks"

_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9_+.-]+):(.*)", re.S)


@dataclass(frozen=True)
class SuiteReport:
    """A loaded suite: its tasks sorted by id and what it skipped (with reasons)."""

    spec: str
    tasks: tuple[Task, ...]
    skipped: tuple[Skipped, ...] = ()
    root: Path | None = None

    @property
    def ids(self) -> list[str]:
        return [task.id for task in self.tasks]


@dataclass(frozen=True)
class _SuiteSpec:
    scheme: str  # "builtin", "folder", "examples" or "tlabench"
    path: Path | None
    kind: str | None = None
    ids: str | None = None  # the raw ``?ids=`` value
    selection: str | None = None  # a task set of :mod:`.selection` (``#test``)
    seed: int = 0  # the renaming seed ``#test`` verifies with


# --------------------------------------------------------------------------- public entry points


def load_suite(spec: str = "builtin", *, description_kind: str | None = None,
               ids: Iterable[str | int] | str | Path | None = None, verify: Verifier | None = None) -> list[Task]:
    """Load the suite named by ``spec`` (see the module docstring) as a list of tasks sorted by id."""
    return list(load_suite_report(spec, description_kind=description_kind, ids=ids, verify=verify).tasks)


def load_suite_report(spec: str = "builtin", *, description_kind: str | None = None,
                      ids: Iterable[str | int] | str | Path | None = None,
                      verify: Verifier | None = None) -> SuiteReport:
    """Load a suite and say what it skipped; raises :class:`SuiteError` on bad input. ``verify``
    re-verifies renamed copies for the task sets that need it (``#test``; see :func:`.selection.select`)."""
    parsed = _parse_spec(spec)
    kind = description_kind or parsed.kind
    if kind is not None and parsed.scheme != "tlabench":
        raise SuiteError(f"{spec}: a description kind applies only to tlabench: suites")
    if parsed.selection is not None and parsed.scheme != "tlabench":
        raise SuiteError(f"{spec}: a task set (#{parsed.selection}) applies only to tlabench: suites")
    wanted = _wanted_ids(ids if ids is not None else parsed.ids, parsed.path)
    if parsed.scheme == "tlabench":
        wanted = None if wanted is None else [tlabench_id(i) for i in wanted]
    skipped: list[Skipped] = []
    if parsed.scheme == "builtin":
        tasks = load_task_folders(BUILTIN_TASKS_DIR)
    elif parsed.scheme == "folder":
        assert parsed.path is not None
        tasks = load_task_folders(parsed.path, skipped)
    elif parsed.scheme == "examples":
        assert parsed.path is not None
        tasks = load_examples(parsed.path, skipped)
    else:
        assert parsed.path is not None
        tasks = load_tlabench(parsed.path, kind or DEFAULT_DESCRIPTION_KIND, wanted, skipped)
        if parsed.selection is not None:
            tasks = select(tasks, parsed.selection, skipped, seed=parsed.seed, verify=verify)
    _check_unique(tasks)
    if wanted is not None:
        tasks, skipped = _restrict(tasks, skipped, wanted, spec)
    if not tasks:
        raise SuiteError(f"{parsed.path or spec}: the suite has no tasks" + _first_reasons(skipped))
    ordered = tuple(sorted(tasks, key=lambda task: _natural_key(task.id)))
    return SuiteReport(spec, ordered, tuple(sorted(skipped, key=lambda s: (_natural_key(s.id), s.path))),
                       parsed.path if parsed.scheme != "builtin" else BUILTIN_TASKS_DIR)



def suite_selection(spec: str) -> str | None:
    """The task set (``#utility``, ``?set=test``…) a ``tlabench:`` suite string names, or None; reads
    the string alone (no file system), so a summary can name the set of a suite read elsewhere."""
    match = _SCHEME.fullmatch(spec.strip())
    if match is None or match.group(1) != "tlabench":
        return None
    try:
        return _split_suffixes(match.group(2), spec, "tlabench").selection
    except SuiteError:
        return None


# --------------------------------------------------------------------------- suite strings


def _parse_spec(spec: str) -> _SuiteSpec:
    text = spec.strip()
    if not text:
        raise SuiteError("empty suite name; use builtin, a task folder, examples:PATH or tlabench:PATH")
    if text in ("builtin", "builtin:"):
        return _SuiteSpec("builtin", None)
    if re.match(r"builtin:?[?#]", text):  # builtin?ids=a,b keeps some built-in tasks
        parsed = _split_suffixes("." + text[len("builtin"):].lstrip(":"), spec, "builtin")
        return _SuiteSpec("builtin", None, parsed.kind, parsed.ids, parsed.selection, parsed.seed)
    match = _SCHEME.fullmatch(text)
    if match and not Path(text).exists():
        scheme, rest = match.group(1), match.group(2)
        if scheme not in SUITE_SCHEMES:
            raise SuiteError(f"unknown suite scheme {scheme!r} in {spec!r}; use one of "
                             f"{', '.join(s + ':PATH' if s != 'builtin' else s for s in SUITE_SCHEMES)} or a folder path")
        if scheme == "builtin":
            raise SuiteError(f"{spec!r}: the builtin suite takes no path; write just 'builtin'")
        parsed = _split_suffixes(rest, spec, scheme)
        if parsed.path is None or not parsed.path.is_dir():
            raise SuiteError(f"{parsed.path}: no such folder (from suite {spec!r})")
        return parsed
    parsed = _split_suffixes(text, spec, "folder") if not Path(text).exists() else _SuiteSpec("folder", Path(text))
    path = parsed.path or Path(text)
    if not path.exists():
        raise SuiteError(f"{path}: no such folder; a suite is builtin, a task folder, examples:PATH or tlabench:PATH")
    if not path.is_dir():
        raise SuiteError(f"{path}: not a folder; a suite is builtin, a task folder, examples:PATH or tlabench:PATH")
    return parsed


def _split_suffixes(rest: str, spec: str, scheme: str) -> _SuiteSpec:
    """Split ``PATH[#KIND][#SET][?key=value&...]`` (suffixes in any order)."""
    cut = min((i for i in (rest.find("?"), rest.find("#")) if i >= 0), default=len(rest))
    path, tail = rest[:cut], rest[cut:]
    if not path.strip():
        raise SuiteError(f"{spec!r}: {scheme}: needs a path, as in {scheme}:PATH")
    kind: str | None = None
    selection: str | None = None
    ids: str | None = None
    seed = 0
    for part in re.findall(r"[?#][^?#]*", tail):
        if part.startswith("#"):
            if part[1:] in SELECTIONS:
                selection = part[1:]
            else:
                kind = part[1:] or None
            continue
        for pair in filter(None, part[1:].split("&")):
            key, _, value = pair.partition("=")
            if key == "ids":
                ids = value
            elif key == "kind":
                kind = value or None
            elif key == "set":
                selection = value or None
            elif key == "seed" and value.isdigit():
                seed = int(value)
            else:
                raise SuiteError(f"{spec!r}: unknown or bad suite option {pair!r}; "
                                 "use ?ids=FILE_OR_LIST, ?seed=N, #KIND or #SET")
    if selection is not None and selection not in SELECTIONS:
        raise SuiteError(f"{spec!r}: unknown task set {selection!r}; use one of {', '.join(SELECTIONS)}")
    return _SuiteSpec(scheme, Path(path).expanduser(), kind, ids, selection, seed)


def _wanted_ids(ids: Iterable[str | int] | str | Path | None, root: Path | None) -> list[str] | None:
    """The ids to keep, from a list, a JSON/text file of ids, or a comma-separated string."""
    if ids is None:
        return None
    if isinstance(ids, (str, Path)):
        text = str(ids).strip()
        if not text:
            raise SuiteError("an empty id list selects no task; give ids=FILE or ids=ID,ID,...")
        candidates = [Path(text)] if Path(text).is_absolute() or root is None else [root / text, Path(text)]
        for candidate in candidates:
            if _is_file(candidate):
                return _ids_from_file(candidate)
        if isinstance(ids, Path) or text.endswith((".json", ".txt")):
            raise SuiteError(f"{text}: no such id file")
        return [part.strip() for part in text.split(",") if part.strip()]
    return [str(item).strip() for item in ids]


def _is_file(path: Path) -> bool:
    """Whether ``path`` is a file; False for text no file can be named (a long ``ID,ID,…`` list is
    "File name too long" to the operating system)."""
    try:
        return path.is_file()
    except OSError:
        return False


def _ids_from_file(path: Path) -> list[str]:
    text = read_text(path)
    if path.suffix == ".json":
        try:
            data = parse_json(text)
        except ValueError as exc:
            raise SuiteError(f"{path}: not JSON ({exc})") from None
        if not isinstance(data, list) or not all(isinstance(item, (str, int)) for item in data):
            raise SuiteError(f"{path}: expected a JSON list of ids")
        return [str(item).strip() for item in data]
    return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def _restrict(tasks: list[Task], skipped: list[Skipped], wanted: list[str], spec: str) -> tuple[list[Task], list[Skipped]]:
    keep = set(wanted)
    known = {task.id for task in tasks} | {s.id for s in skipped}
    missing = [i for i in dict.fromkeys(wanted) if i not in known]
    if missing:
        shown = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
        raise SuiteError(f"{spec}: no task with id {shown}")
    return [t for t in tasks if t.id in keep], [s for s in skipped if s.id in keep]


# --------------------------------------------------------------------------- checks and order


def _check_unique(tasks: list[Task]) -> None:
    seen: dict[str, Task] = {}
    for task in tasks:
        if task.id in seen:
            first, second = _where(seen[task.id]), _where(task)
            raise SuiteError(f"{second}: duplicate task id {task.id!r} (also used by {first})")
        seen[task.id] = task


def _where(task: Task) -> str:
    extra = dict(task.extra)
    if "folder" in extra:
        return str(Path(extra["folder"]) / "task.toml")
    return str(extra.get("path") or task.source or task.id)


def _natural_key(text: str) -> tuple[Any, ...]:
    """Sort ``2`` before ``10`` (TLA+-Bench ids are numbers) and stay total with the text itself."""
    parts = re.split(r"(\d+)", text)
    return (tuple(int(p) if k % 2 else p for k, p in enumerate(parts)), text)


def _first_reasons(skipped: list[Skipped]) -> str:
    if not skipped:
        return ""
    return f" ({len(skipped)} skipped, e.g. {skipped[0]})"
