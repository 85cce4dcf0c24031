"""Suites: turn one string into a sorted list of ``Task``.

A suite is named by one string (what ``alias tasks SUITE`` and the plugin take):

* ``builtin`` (the default): the tasks shipped in ``pytest_alias/data/tasks/``.
* ``PATH``: a folder of task folders, or one task folder (``task.toml`` + modules + description).
* ``examples:PATH``: a clone of tlaplus/Examples; one task per (module, model) that its
  ``specifications/*/manifest.json`` records as an exhaustive TLC run with result ``success``.
  ``PATH`` may also be one spec folder of such a clone (``…/specifications/CoffeeCan``).
* ``tlabench:PATH``: a clone of the TLA+-Bench release; one task per ``specs/gold/{id}_*.tla``.

Two optional suffixes refine a suite (in either order):

* ``#KIND`` chooses the TLA+-Bench description kind (``declarative_gpt`` by default,
  ``declarative_claude``, ``intent_gpt``, ``intent_claude``); ``?kind=KIND`` says the same.
* ``?ids=X`` keeps only the listed task ids.  ``X`` is a JSON file holding a list of ids (read
  relative to the suite's folder first, then to the current directory) or a comma-separated list.

The keyword arguments ``description_kind=`` and ``ids=`` (an iterable of ids, or such a file)
do the same and win over the suffixes.  Asking for an id the suite does not have is an error.

Models a third-party clone cannot use (simulation modes, failing or unfinished runs, missing
files, imports nothing provides, cfgs that do not parse) are left out with a reason:
:func:`load_suite_report` returns them as ``skipped``.  Bad input in a task folder is a
:class:`SuiteError` instead, because the user wrote it and can fix it.
"""

from __future__ import annotations

import json
import re
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from ..tla.cfg import CfgError, parse_cfg
from ..tla.specfiles import IDENTIFIER, SpecError, imported_modules, module_header_name, read_source
from ..tla.syntax import STANDARD_MODULES
from .model import Task

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

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
]

#: The suite schemes a suite string may start with (a bare path needs none).
SUITE_SCHEMES: tuple[str, ...] = ("builtin", "examples", "tlabench")
#: The description kinds a TLA+-Bench release ships (``descriptions/<kind>/{id}.txt``).
DESCRIPTION_KINDS: tuple[str, ...] = ("declarative_gpt", "declarative_claude", "intent_gpt", "intent_claude")
DEFAULT_DESCRIPTION_KIND = "declarative_gpt"
#: Where the built-in tasks live (inside the installed package).
BUILTIN_TASKS_DIR = Path(__file__).resolve().parent.parent / "data" / "tasks"

EXAMPLES_LICENSE = "MIT (tlaplus/Examples)"
_EXHAUSTIVE = "exhaustive search"

_TASK_KEYS_REQUIRED = ("id", "main", "modules", "description")
_TASK_KEYS_OPTIONAL = ("title", "cfg", "source", "license", "tags", "expected")
_EXPECTED_KEYS = ("distinct_states", "states_generated")
_SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-/]*")
# A module header anywhere in a text: every module a file defines inline (TLA+ allows nesting).
_HEADER_LINE = re.compile(r"^[ \t]*-{4,}[ \t]*MODULE[ \t]+(\w+)[ \t]*-{4,}[^\n]*", re.M)
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9_+.-]+):(.*)", re.S)


class SuiteError(ValueError):
    """A suite that cannot be loaded as given; the message is one line naming the file and the fault."""


@dataclass(frozen=True)
class Skipped:
    """Something a suite left out: the task id it would have had (or ``""``), the file, and why."""

    id: str
    path: str
    reason: str

    def __str__(self) -> str:
        where = f"{self.id} ({self.path})" if self.id else self.path
        return f"{where}: {self.reason}"


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


# --------------------------------------------------------------------------- public entry points


def load_suite(spec: str = "builtin", *, description_kind: str | None = None,
               ids: Iterable[str | int] | str | Path | None = None) -> list[Task]:
    """Load the suite named by ``spec`` (see the module docstring) as a list of tasks sorted by id."""
    return list(load_suite_report(spec, description_kind=description_kind, ids=ids).tasks)


def load_suite_report(spec: str = "builtin", *, description_kind: str | None = None,
                      ids: Iterable[str | int] | str | Path | None = None) -> SuiteReport:
    """Load a suite and say what it skipped; raises :class:`SuiteError` on bad input."""
    parsed = _parse_spec(spec)
    kind = description_kind or parsed.kind
    if kind is not None and parsed.scheme != "tlabench":
        raise SuiteError(f"{spec}: a description kind applies only to tlabench: suites")
    wanted = _wanted_ids(ids if ids is not None else parsed.ids, parsed.path)
    if parsed.scheme == "tlabench":
        wanted = None if wanted is None else [_tlabench_id(i) for i in wanted]
    skipped: list[Skipped] = []
    if parsed.scheme == "builtin":
        tasks = _load_task_folders(BUILTIN_TASKS_DIR)
    elif parsed.scheme == "folder":
        assert parsed.path is not None
        tasks = _load_task_folders(parsed.path, skipped)
    elif parsed.scheme == "examples":
        assert parsed.path is not None
        tasks = _load_examples(parsed.path, skipped)
    else:
        assert parsed.path is not None
        tasks = _load_tlabench(parsed.path, kind or DEFAULT_DESCRIPTION_KIND, wanted, skipped)
    _check_unique(tasks)
    if wanted is not None:
        tasks, skipped = _restrict(tasks, skipped, wanted, spec)
    if not tasks:
        raise SuiteError(f"{parsed.path or spec}: the suite has no tasks" + _first_reasons(skipped))
    ordered = tuple(sorted(tasks, key=lambda task: _natural_key(task.id)))
    return SuiteReport(spec, ordered, tuple(sorted(skipped, key=lambda s: (_natural_key(s.id), s.path))),
                       parsed.path if parsed.scheme != "builtin" else BUILTIN_TASKS_DIR)


def load_task_folder(path: str | Path) -> Task:
    """Read one task folder (``task.toml``, its modules, cfg and description) as a ``Task``."""
    folder = Path(path)
    toml_path = folder / "task.toml"
    if not toml_path.is_file():
        raise SuiteError(f"{folder}: no task.toml here (a task folder holds task.toml, its modules and a description)")
    data = _read_toml(toml_path)
    for key in _TASK_KEYS_REQUIRED:
        if key not in data:
            raise SuiteError(f"{toml_path}: missing key {key!r}")
    unknown = sorted(set(data) - set(_TASK_KEYS_REQUIRED) - set(_TASK_KEYS_OPTIONAL) - {"extra"})
    if unknown:
        allowed = ", ".join((*_TASK_KEYS_REQUIRED, *_TASK_KEYS_OPTIONAL, "extra"))
        raise SuiteError(f"{toml_path}: unknown key {unknown[0]!r} (allowed: {allowed})")
    task_id = _string(data, "id", toml_path)
    if not _SAFE_ID.fullmatch(task_id) or ".." in task_id:
        raise SuiteError(f"{toml_path}: id {task_id!r} must be letters, digits and _ . - / only")
    main = _string(data, "main", toml_path)
    files = _string_list(data, "modules", toml_path)
    if not files:
        raise SuiteError(f"{toml_path}: 'modules' is empty; list the main module's file first")

    modules: dict[str, str] = {}
    origin: dict[str, Path] = {}
    for rel in files:
        module_path = _member(folder, rel, toml_path, "module")
        if module_path.suffix != ".tla":
            raise SuiteError(f"{toml_path}: module file {rel!r} does not end in .tla")
        text = _read_text(module_path)
        header = module_header_name(text)
        if header is None:
            raise SuiteError(f"{module_path}: no '---- MODULE {module_path.stem} ----' header")
        if header != module_path.stem:
            raise SuiteError(f"{module_path}: the header names module {header} but the file is {module_path.stem}.tla")
        if not IDENTIFIER.fullmatch(header):
            raise SuiteError(f"{module_path}: {header!r} is not a TLA+ identifier, so it cannot name a module")
        if header in modules:
            raise SuiteError(f"{toml_path}: module {header} is listed twice")
        modules[header] = text
        origin[header] = module_path
    if main not in modules:
        raise SuiteError(f"{toml_path}: main {main!r} is not one of its modules ({', '.join(modules)})")
    for name, text in modules.items():
        for imported in _unresolved(text, modules):
            raise SuiteError(f"{origin[name]}: imports module {imported}, which is neither standard "
                             f"nor listed in {toml_path.name}'s modules")
    ordered = {main: modules[main], **{n: t for n, t in modules.items() if n != main}}  # main first

    cfg_text: str | None = None
    cfg_rel = data.get("cfg")
    if cfg_rel is not None:
        cfg_path = _member(folder, _string(data, "cfg", toml_path), toml_path, "cfg")
        cfg_text = _read_text(cfg_path)
        try:
            parse_cfg(cfg_text)
        except CfgError as exc:
            raise SuiteError(f"{cfg_path}: {exc}") from None
    description_path = _member(folder, _string(data, "description", toml_path), toml_path, "description")
    distinct, generated = _expected(data.get("expected"), toml_path)
    return Task(
        id=task_id,
        description=_read_text(description_path).strip(),
        modules=ordered,
        cfg=cfg_text,
        source=_string(data, "source", toml_path, ""),
        license=_string(data, "license", toml_path, ""),
        tags=tuple(_string_list(data, "tags", toml_path)),
        title=_string(data, "title", toml_path, ""),
        expected_distinct=distinct,
        expected_generated=generated,
        extra=(("folder", str(folder)), *_extra_table(data.get("extra"), toml_path)),
    )


def module_header_comment(text: str) -> str:
    """The module's header comment as plain text, or ``""`` when it has none.

    That is the run of ``(* ... *)`` (or ``\\*``) comments right after the ``---- MODULE ----``
    line, or failing that the ``(* ... *)`` comments right before it, with the comment frames, runs
    of ``*`` and a leading ``*`` on each line removed.  A PlusCal algorithm comment is code, not a
    description, and ends the run.
    """
    header = _HEADER_LINE.search(text)
    if header is None:
        return ""
    after, _ = _comment_run(text, header.end(), line_comments=True)
    if after:
        return _clean_comment(after)
    before, end = _comment_run(text, 0, line_comments=False)
    if before and not text[end : header.start()].strip():
        return _clean_comment(before)
    return ""


# --------------------------------------------------------------------------- suite strings


def _parse_spec(spec: str) -> _SuiteSpec:
    text = spec.strip()
    if not text:
        raise SuiteError("empty suite name; use builtin, a task folder, examples:PATH or tlabench:PATH")
    if text in ("builtin", "builtin:"):
        return _SuiteSpec("builtin", None)
    match = _SCHEME.fullmatch(text)
    if match and not Path(text).exists():
        scheme, rest = match.group(1), match.group(2)
        if scheme not in SUITE_SCHEMES:
            raise SuiteError(f"unknown suite scheme {scheme!r} in {spec!r}; use one of "
                             f"{', '.join(s + ':PATH' if s != 'builtin' else s for s in SUITE_SCHEMES)} or a folder path")
        if scheme == "builtin":
            raise SuiteError(f"{spec!r}: the builtin suite takes no path; write just 'builtin'")
        path_text, kind, ids = _split_suffixes(rest, spec)
        if not path_text:
            raise SuiteError(f"{spec!r}: {scheme}: needs a path, as in {scheme}:PATH")
        path = Path(path_text).expanduser()
        if not path.is_dir():
            raise SuiteError(f"{path}: no such folder (from suite {spec!r})")
        return _SuiteSpec(scheme, path, kind, ids)
    path_text, kind, ids = _split_suffixes(text, spec) if not Path(text).exists() else (text, None, None)
    path = Path(path_text).expanduser()
    if not path.exists():
        raise SuiteError(f"{path}: no such folder; a suite is builtin, a task folder, examples:PATH or tlabench:PATH")
    if not path.is_dir():
        raise SuiteError(f"{path}: not a folder; a suite is builtin, a task folder, examples:PATH or tlabench:PATH")
    return _SuiteSpec("folder", path, kind, ids)


def _split_suffixes(rest: str, spec: str) -> tuple[str, str | None, str | None]:
    """Split ``PATH[#KIND][?key=value&...]`` (suffixes in either order)."""
    cut = min((i for i in (rest.find("?"), rest.find("#")) if i >= 0), default=len(rest))
    path, tail = rest[:cut], rest[cut:]
    kind: str | None = None
    ids: str | None = None
    for part in re.findall(r"[?#][^?#]*", tail):
        if part.startswith("#"):
            kind = part[1:] or None
            continue
        for pair in filter(None, part[1:].split("&")):
            key, _, value = pair.partition("=")
            if key == "ids":
                ids = value
            elif key == "kind":
                kind = value or None
            else:
                raise SuiteError(f"{spec!r}: unknown suite option {key!r}; use ?ids=FILE_OR_LIST or #KIND")
    return path, kind, ids


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
            if candidate.is_file():
                return _ids_from_file(candidate)
        if isinstance(ids, Path) or text.endswith((".json", ".txt")):
            raise SuiteError(f"{text}: no such id file")
        return [part.strip() for part in text.split(",") if part.strip()]
    return [str(item).strip() for item in ids]


def _ids_from_file(path: Path) -> list[str]:
    text = _read_text(path)
    if path.suffix == ".json":
        try:
            data = json.loads(text)
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


# --------------------------------------------------------------------------- task folders


def _load_task_folders(path: Path, skipped: list[Skipped] | None = None) -> list[Task]:
    """One task folder, or every immediate subfolder holding a ``task.toml``."""
    if (path / "task.toml").is_file():
        return [load_task_folder(path)]
    tasks: list[Task] = []
    for child in sorted(path.iterdir()):
        if not child.is_dir() or child.name.startswith((".", "_")):
            continue
        if (child / "task.toml").is_file():
            tasks.append(load_task_folder(child))
        elif skipped is not None:
            skipped.append(Skipped("", str(child), "no task.toml"))
    if not tasks:
        raise SuiteError(f"{path}: no task folders here (each needs a task.toml)")
    return tasks


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise SuiteError(f"{path}: not valid TOML ({exc})") from None
    except OSError as exc:
        raise SuiteError(f"{path}: cannot read ({exc.strerror})") from None


def _string(data: Mapping[str, Any], key: str, where: Path, default: str | None = None) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise SuiteError(f"{where}: {key!r} must be a string")
    return value


def _string_list(data: Mapping[str, Any], key: str, where: Path) -> list[str]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise SuiteError(f"{where}: {key!r} must be a list of strings")
    return value


def _expected(table: Any, where: Path) -> tuple[int | None, int | None]:
    if table is None:
        return None, None
    if not isinstance(table, dict):
        raise SuiteError(f"{where}: [expected] must be a table")
    for key, value in table.items():
        if key not in _EXPECTED_KEYS:
            raise SuiteError(f"{where}: unknown key {key!r} in [expected] (allowed: {', '.join(_EXPECTED_KEYS)})")
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise SuiteError(f"{where}: expected.{key} must be a whole number >= 0")
    return table.get("distinct_states"), table.get("states_generated")


def _extra_table(table: Any, where: Path) -> tuple[tuple[str, Any], ...]:
    if table is None:
        return ()
    if not isinstance(table, dict):
        raise SuiteError(f"{where}: [extra] must be a table")
    return tuple(sorted(table.items()))


def _member(folder: Path, rel: str, toml_path: Path, what: str) -> Path:
    """``folder / rel``, which must exist and lie inside the folder (no ``..`` escapes)."""
    path = folder / rel
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        raise SuiteError(f"{toml_path}: {what} file {rel!r} lies outside the task folder") from None
    if not path.is_file():
        raise SuiteError(f"{path}: no such {what} file (named in {toml_path})")
    return path


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


# --------------------------------------------------------------------------- module imports


def _defined_inline(text: str) -> set[str]:
    return {match.group(1) for match in _HEADER_LINE.finditer(text)}


def _unresolved(text: str, available: Mapping[str, str]) -> list[str]:
    """Imports of ``text`` that are neither standard, nor in ``available``, nor defined in ``text``."""
    inline = _defined_inline(text)
    return [name for name in imported_modules(text)
            if name not in available and name not in inline and name not in STANDARD_MODULES]


def _gather_modules(main: str, main_text: str,
                    lookup: Callable[[str], tuple[str, str] | None]) -> tuple[dict[str, str], list[str], dict[str, str]]:
    """The main module plus every module it imports transitively that ``lookup`` finds.

    ``lookup(name)`` returns ``(text, where)`` or None.  Returns the modules (main first), the
    names found nowhere (standard modules never count as missing) and where each module came from.
    """
    modules = {main: main_text}
    where: dict[str, str] = {}
    missing: list[str] = []
    pending = [main]
    while pending:
        text = modules[pending.pop(0)]
        inline = _defined_inline(text)
        for name in imported_modules(text):
            if name in modules or name in inline or name in missing:
                continue
            found = lookup(name)
            if found is None:
                if name not in STANDARD_MODULES:
                    missing.append(name)
                continue
            modules[name], where[name] = found
            pending.append(name)
    return modules, missing, where


# --------------------------------------------------------------------------- tlaplus/Examples


def _load_examples(path: Path, skipped: list[Skipped]) -> list[Task]:
    root, spec_dirs = _examples_layout(path)
    tasks: list[Task] = []
    for spec_dir in spec_dirs:
        manifest_path = spec_dir / "manifest.json"
        try:
            manifest = json.loads(_read_text(manifest_path))
            entries = manifest["modules"]
            if not isinstance(entries, list):
                raise TypeError("'modules' is not a list")
        except (SuiteError, ValueError, KeyError, TypeError) as exc:
            skipped.append(Skipped("", _rel(manifest_path, root), f"unreadable manifest ({exc})"))
            continue
        for entry in entries:
            for model in entry.get("models") or []:
                task = _examples_task(root, spec_dir, manifest, entry, model, skipped)
                if task is not None:
                    tasks.append(task)
    return tasks


def _examples_layout(path: Path) -> tuple[Path, list[Path]]:
    """The clone's root and the spec folders to read (all, or the one ``path`` names)."""
    if (path / "manifest.json").is_file() and path.parent.name == "specifications":
        return path.parent.parent, [path]
    spec_root = path / "specifications"
    if not spec_root.is_dir():
        raise SuiteError(f"{path}: no specifications/ folder; examples: wants a clone of tlaplus/Examples")
    spec_dirs = sorted(p.parent for p in spec_root.glob("*/manifest.json"))
    if not spec_dirs:
        raise SuiteError(f"{spec_root}: no */manifest.json; examples: wants a clone of tlaplus/Examples")
    return path, spec_dirs


def _examples_task(root: Path, spec_dir: Path, manifest: Mapping[str, Any], entry: Mapping[str, Any],
                   model: Mapping[str, Any], skipped: list[Skipped]) -> Task | None:
    module_rel = str(entry.get("path", ""))
    model_rel = str(model.get("path", ""))
    module_path, model_path = root / module_rel, root / model_rel
    task_id = _examples_id(spec_dir, module_path, model_path)

    def skip(reason: str, where: str = model_rel) -> None:
        skipped.append(Skipped(task_id, where, reason))

    mode = model.get("mode")
    if mode != _EXHAUSTIVE:
        shown = next(iter(mode)) if isinstance(mode, dict) and mode else mode
        skip(f"mode {shown!r} is not exhaustive search")
        return None
    if model.get("result") != "success":
        skip(f"result {model.get('result')!r}, not success")
        return None
    if not module_path.is_file():
        skip("module file missing from the clone", module_rel)
        return None
    if not model_path.is_file():
        skip("model file missing from the clone")
        return None
    main_text = _read_text(module_path)
    main = module_header_name(main_text)
    if main != module_path.stem or not IDENTIFIER.fullmatch(main or ""):
        skip(f"header names module {main} but the file is {module_path.name}", module_rel)
        return None
    modules, missing, origin = _gather_modules(main, main_text, _examples_lookup(spec_dir, module_path.parent))
    if missing:
        skip(f"imports {', '.join(missing)}, found neither beside it, in the spec folder nor among standard modules",
             module_rel)
        return None
    cfg_text = _read_text(model_path)
    try:
        parse_cfg(cfg_text)
    except CfgError as exc:
        skip(f"cfg does not parse ({exc})")
        return None
    description, description_from = _examples_description(spec_dir, main, modules)
    tags = [str(t) for t in (manifest.get("tags") or [])] + [str(f) for f in (entry.get("features") or [])]
    extra = {
        "path": module_rel,
        "model": model_rel,
        "mode": _EXHAUSTIVE,
        "runtime": model.get("runtime"),
        "state_depth": model.get("stateDepth"),
        "authors": tuple(manifest.get("authors") or ()),
        "sources": tuple(manifest.get("sources") or ()),
        "module_files": tuple(sorted(origin.items())),
        "description_from": description_from,
    }
    return Task(
        id=task_id,
        description=description,
        modules=modules,
        cfg=cfg_text,
        source=module_rel,
        license=_examples_license(spec_dir, manifest),
        tags=tuple(dict.fromkeys(tags)),
        title=f"{spec_dir.name}: {main}" + (f" ({model_path.stem})" if model_path.stem != main else ""),
        expected_distinct=_count(model.get("distinctStates")),
        expected_generated=_count(model.get("totalStates")),
        extra=tuple(extra.items()),
    )


def _examples_description(spec_dir: Path, main: str, modules: Mapping[str, str]) -> tuple[str, str]:
    """The description and where it came from.

    The main module's header comment; else the spec folder's README; else (for model wrappers
    such as ``MC.tla`` in a folder without a README) the header comment of a module it imports.
    """
    comment = module_header_comment(modules[main])
    if comment:
        return comment, f"header comment of {main}"
    readme, readme_name = _readme_paragraph(spec_dir)
    if readme:
        return readme, f"first paragraph of {spec_dir.name}/{readme_name}"
    for name, text in modules.items():
        comment = module_header_comment(text) if name != main else ""
        if comment:
            return comment, f"header comment of {name}"
    return "", "none"


def _examples_id(spec_dir: Path, module_path: Path, model_path: Path) -> str:
    """``<spec dir>/<module path in it>[-<model stem>]`` as a lowercase slug."""
    try:
        inner = module_path.relative_to(spec_dir).with_suffix("")
    except ValueError:
        inner = Path(module_path.stem)
    parts = [_slug(spec_dir.name), *(_slug(part) for part in inner.parts)]
    task_id = "/".join(parts)
    if model_path.stem.lower() != module_path.stem.lower():
        task_id += "-" + _slug(model_path.stem)
    return task_id


def _examples_lookup(spec_dir: Path, start: Path) -> Callable[[str], tuple[str, str] | None]:
    """Find ``Name.tla`` beside the main module, then in each folder up to the spec folder.

    A local file wins over a standard module of the same name, as in SANY's own lookup.
    """
    folders = [start]
    while folders[-1] != spec_dir and spec_dir in folders[-1].parents:
        folders.append(folders[-1].parent)

    def lookup(name: str) -> tuple[str, str] | None:
        for folder in folders:
            candidate = folder / f"{name}.tla"
            if candidate.is_file():
                text = _read_text(candidate)
                if module_header_name(text) == name:
                    return text, str(candidate.relative_to(spec_dir.parent.parent))
        return None

    return lookup


def _examples_license(spec_dir: Path, manifest: Mapping[str, Any]) -> str:
    if isinstance(manifest.get("license"), str) and manifest["license"].strip():
        return manifest["license"].strip()
    for name in ("LICENSE", "LICENSE.md", "LICENSE.txt", "COPYING"):
        path = spec_dir / name
        if path.is_file():
            first = next((line.strip(" #\t") for line in _read_text(path).splitlines() if line.strip()), "")
            return f"{first} ({spec_dir.name}/{name})" if first else f"see {spec_dir.name}/{name}"
    return EXAMPLES_LICENSE


def _readme_paragraph(spec_dir: Path) -> tuple[str, str]:
    """The first prose paragraph of the spec folder's README (headings skipped) and the file's name."""
    for name in ("README.md", "README"):
        path = spec_dir / name
        if not path.is_file():
            continue
        for block in re.split(r"\n[ \t]*\n", _read_text(path).strip()):
            lines = [line.rstrip() for line in block.splitlines() if line.strip()]
            lines = [line for line in lines if not line.lstrip().startswith("#")]
            if len(lines) >= 2 and re.fullmatch(r"\s*[-=]{3,}\s*", lines[1]):
                lines = lines[2:]  # a setext heading: "Title" underlined with --- or ===
            if lines:
                return " ".join(line.strip() for line in lines), name
    return "", ""


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


# --------------------------------------------------------------------------- TLA+-Bench


def _tlabench_id(value: str | int) -> str:
    """TLA+-Bench ids as strings without leading zeros (``spec_id`` is an int in some files, a str in others)."""
    text = str(value).strip()
    return str(int(text)) if text.isdigit() else text


def _load_tlabench(root: Path, kind: str, wanted: list[str] | None, skipped: list[Skipped]) -> list[Task]:
    gold = root / "specs" / "gold"
    if not gold.is_dir():
        raise SuiteError(f"{root}: no specs/gold/ folder; tlabench: wants a clone of the TLA+-Bench release")
    rows = _tlabench_manifest(root / "manifest.jsonl")
    _check_kind(root, kind, rows)
    index, texts = _tlabench_index(root / "specs")
    by_id: dict[str, list[Path]] = {}
    for path in sorted(gold.glob("*.tla")):
        prefix, sep, _ = path.stem.partition("_")
        if not sep:
            skipped.append(Skipped("", _rel(path, root), "file name lacks the '{id}_' prefix"))
            continue
        by_id.setdefault(_tlabench_id(prefix), []).append(path)
    if wanted is not None:
        for spec_id in dict.fromkeys(wanted):
            if spec_id not in by_id and spec_id in rows:
                tier = rows[spec_id].get("tier")
                skipped.append(Skipped(spec_id, "manifest.jsonl", f"tier {tier!r}: no gold reference in specs/gold"))
    tasks: list[Task] = []
    for spec_id, paths in by_id.items():
        if wanted is not None and spec_id not in wanted:
            continue
        task = _tlabench_task(root, spec_id, paths, rows.get(spec_id, {}), kind, index, texts, skipped)
        if task is not None:
            tasks.append(task)
    return tasks


def _tlabench_manifest(path: Path) -> dict[str, dict[str, Any]]:
    """``manifest.jsonl`` rows by id (none when the file is absent)."""
    if not path.is_file():
        return {}
    rows: dict[str, dict[str, Any]] = {}
    for number, line in enumerate(_read_text(path).splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as exc:
            raise SuiteError(f"{path}:{number}: not JSON ({exc})") from None
        if not isinstance(row, dict) or "spec_id" not in row:
            raise SuiteError(f"{path}:{number}: a row needs a spec_id")
        rows[_tlabench_id(row["spec_id"])] = row
    return rows


def _check_kind(root: Path, kind: str, rows: Mapping[str, Mapping[str, Any]]) -> None:
    folders = {p.name for p in (root / "descriptions").glob("*") if p.is_dir()}
    inline = {key[len("desc_"):] for row in rows.values() for key in row if key.startswith("desc_")}
    if kind not in folders and kind not in inline:
        available = sorted(folders | inline) or list(DESCRIPTION_KINDS)
        raise SuiteError(f"{root / 'descriptions' / kind}: no such description kind; this release has "
                         f"{', '.join(available)}")


def _tlabench_index(specs: Path) -> tuple[dict[str, list[Path]], dict[Path, str]]:
    """Every ``specs/**/*.tla`` by its header's module name (file names may differ)."""
    index: dict[str, list[Path]] = {}
    texts: dict[Path, str] = {}
    for path in sorted(specs.rglob("*.tla")):
        text = _read_text(path)
        texts[path] = text
        name = module_header_name(text)
        if name is not None:
            index.setdefault(name, []).append(path)
    return index, texts


def _tlabench_task(root: Path, spec_id: str, paths: list[Path], row: Mapping[str, Any], kind: str,
                   index: Mapping[str, list[Path]], texts: Mapping[Path, str], skipped: list[Skipped]) -> Task | None:
    main_path = _tlabench_main(paths)
    rel = _rel(main_path, root)
    main_text = texts[main_path]
    main = module_header_name(main_text)
    if main is None or not IDENTIFIER.fullmatch(main):
        skipped.append(Skipped(spec_id, rel, "no '---- MODULE Name ----' header"))
        return None

    def lookup(name: str) -> tuple[str, str] | None:
        candidates = [p for p in index.get(name, ()) if p != main_path]
        ranked = sorted(candidates, key=lambda p: (_tlabench_rank(p, spec_id, root), str(p)))
        if name in STANDARD_MODULES:
            # A spec in the corpus that happens to share a standard module's name must not replace it.
            ranked = [p for p in ranked if _tlabench_rank(p, spec_id, root) < 2]
        return (texts[ranked[0]], _rel(ranked[0], root)) if ranked else None

    modules, missing, origin = _gather_modules(main, main_text, lookup)
    if missing:
        skipped.append(Skipped(spec_id, rel, f"imports {', '.join(missing)}, which no spec under specs/ defines"))
        return None
    cfg_path = main_path.with_suffix(".cfg")
    cfg_text = _read_text(cfg_path) if cfg_path.is_file() else None
    if cfg_text is not None:
        try:
            parse_cfg(cfg_text)
        except CfgError as exc:
            skipped.append(Skipped(spec_id, _rel(cfg_path, root), f"cfg does not parse ({exc})"))
            return None
    description_path = root / "descriptions" / kind / f"{spec_id}.txt"
    if description_path.is_file():
        description = _read_text(description_path).strip()
    elif isinstance(row.get(f"desc_{kind}"), str):
        description = row[f"desc_{kind}"].strip()
    else:
        skipped.append(Skipped(spec_id, _rel(description_path, root), f"no {kind} description"))
        return None
    tags = ["tlabench", *(f"{key}:{row[key]}" for key in ("tier", "category", "complexity") if row.get(key))]
    if cfg_text is None:
        tags.append("no-cfg")
    repo, source_path = row.get("source_repo"), row.get("source_path")
    extra = {
        "path": rel,
        "description_kind": kind,
        "tier": row.get("tier"),
        "category": row.get("category"),
        "complexity": row.get("complexity"),
        "source_repo_url": row.get("source_repo_url"),
        "spec_sha256": row.get("spec_sha256"),
        "module_files": tuple(sorted(origin.items())),
    }
    return Task(
        id=spec_id,
        description=description,
        modules=modules,
        cfg=cfg_text,
        source=f"{repo}:{source_path}" if repo and source_path else rel,
        license=str(row.get("license") or (f"upstream licence of {repo}" if repo else "see the TLA+-Bench release")),
        tags=tuple(tags),
        title=f"TLA+-Bench {spec_id}: {main}",
        extra=tuple(extra.items()),
    )


def _tlabench_main(paths: list[Path]) -> Path:
    """The gold file of an id; when an id has several, the one with a cfg (else the first by name)."""
    with_cfg = [p for p in paths if p.with_suffix(".cfg").is_file()]
    return (with_cfg or paths)[0]


def _tlabench_rank(path: Path, spec_id: str, root: Path) -> int:
    """Where a dependency is looked for first: the same id, ``specs/deps``, then gold, silver, elsewhere."""
    parts = path.relative_to(root / "specs").parts
    if _tlabench_id(path.stem.partition("_")[0]) == spec_id and "_" in path.stem:
        return 0
    order = {"deps": 1, "gold": 2, "silver": 3}
    return order.get(parts[0], 4) if len(parts) > 1 else 4


# --------------------------------------------------------------------------- text helpers


def _comment_run(text: str, start: int, *, line_comments: bool) -> tuple[str, int]:
    """The comments from ``start`` on, separated only by blank or ``----`` lines; and where they end."""
    pieces: list[str] = []
    i = start
    while True:
        gap = re.match(r"(?:\s|^-{4,}[ \t]*$)*", text[i:], re.M)
        j = i + (gap.end() if gap else 0)
        if line_comments and text.startswith("\\*", j):
            end = text.find("\n", j)
            end = len(text) if end < 0 else end
            pieces.append(text[j:end])
            i = end
            continue
        if not text.startswith("(*", j):
            return "\n".join(pieces), i
        end = _comment_end(text, j)
        body = text[j:end]
        if re.match(r"\(\*+\s*--(?:fair\s+)?algorithm\b", body):
            return "\n".join(pieces), i  # PlusCal code, not prose
        pieces.append(body)
        i = end


def _comment_end(text: str, start: int) -> int:
    """The index just past the ``*)`` closing the comment opened at ``start`` (comments nest)."""
    depth = 0
    i = start
    while i < len(text):
        pair = text[i : i + 2]
        if pair == "(*":
            depth += 1
            i += 2
        elif pair == "*)":
            depth -= 1
            i += 2
            if depth == 0:
                return i
        else:
            i += 1
    return len(text)


def _clean_comment(raw: str) -> str:
    lines: list[str] = []
    for line in raw.splitlines():
        line = line.strip()
        line = re.sub(r"^\\\*|^\(\*", "", line)
        line = re.sub(r"\*\)$", "", line.rstrip())
        line = re.sub(r"\(\*|\*\)", "", line)  # frames of nested comments
        line = re.sub(r"\*{2,}", "", line)
        line = re.sub(r"^(\s*)\*(?!\w) ?", r"\1", line)  # a leading '*' frame, not '*emphasis*'
        lines.append(line.rstrip())
    text = textwrap.dedent("\n".join(lines)).strip()
    return re.sub(r"\n{3,}", "\n\n", text)


def _natural_key(text: str) -> tuple[Any, ...]:
    """Sort ``2`` before ``10`` (TLA+-Bench ids are numbers) and stay total with the text itself."""
    parts = re.split(r"(\d+)", text)
    return (tuple(int(p) if k % 2 else p for k, p in enumerate(parts)), text)


def _slug(text: str) -> str:
    slug = re.sub(r"[^a-z0-9_]+", "_", text.lower())
    return re.sub(r"_+", "_", slug).strip("_") or "x"


def _rel(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def _first_reasons(skipped: list[Skipped]) -> str:
    if not skipped:
        return ""
    return f" ({len(skipped)} skipped, e.g. {skipped[0]})"


def _read_text(path: Path) -> str:
    try:
        return read_source(path)
    except SpecError as exc:
        raise SuiteError(str(exc)) from None
