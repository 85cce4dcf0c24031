"""Task folders: a ``task.toml`` with the modules, cfg and description it names, read as a ``Task``."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any, Mapping

from ..atomic import safe_name_problem
from ..tla.cfg import CfgError, parse_cfg
from ..tla.specfiles import IDENTIFIER, module_header_name
from .model import Task
from .suite_common import Skipped, SuiteError, read_text
from .tla_text import unresolved_imports

__all__ = ["load_task_folder", "load_task_folders"]

_TASK_KEYS_REQUIRED = ("id", "main", "modules", "description")
_TASK_KEYS_OPTIONAL = ("title", "cfg", "source", "license", "tags", "expected")
_EXPECTED_KEYS = ("distinct_states", "states_generated")
_SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-/]*")


def load_task_folder(path: str | Path) -> Task:
    """Read one task folder (``task.toml``, its modules, cfg and description) as a ``Task``."""
    folder = Path(path)
    toml_path = folder / "task.toml"
    if not toml_path.is_file():
        raise SuiteError(f"{folder}: no task.toml here (a task folder holds task.toml, its modules and a description)")
    data = _read_toml(toml_path)
    _check_keys(data, toml_path)
    task_id = _task_id(data, toml_path)
    main = _string(data, "main", toml_path)
    files = _string_list(data, "modules", toml_path)
    if not files:
        raise SuiteError(f"{toml_path}: 'modules' is empty; list the main module's file first")
    modules = _read_modules(folder, files, toml_path, main)
    ordered = {main: modules[main], **{n: t for n, t in modules.items() if n != main}}  # main first
    cfg_text = _read_cfg(folder, data, toml_path)
    description_path = _member(folder, _string(data, "description", toml_path), toml_path, "description")
    distinct, generated = _expected(data.get("expected"), toml_path)
    return Task(
        id=task_id,
        description=read_text(description_path).strip(),
        modules=tuple(ordered.items()),
        cfg=cfg_text,
        source=_string(data, "source", toml_path, ""),
        license=_string(data, "license", toml_path, ""),
        tags=tuple(_string_list(data, "tags", toml_path)),
        title=_string(data, "title", toml_path, ""),
        expected_distinct=distinct,
        expected_generated=generated,
        extra=(("folder", str(folder)), *_extra_table(data.get("extra"), toml_path)),
    )


def _check_keys(data: Mapping[str, Any], toml_path: Path) -> None:
    """Every required key present, no key the format does not know."""
    for key in _TASK_KEYS_REQUIRED:
        if key not in data:
            raise SuiteError(f"{toml_path}: missing key {key!r}")
    unknown = sorted(set(data) - set(_TASK_KEYS_REQUIRED) - set(_TASK_KEYS_OPTIONAL) - {"extra"})
    if unknown:
        allowed = ", ".join((*_TASK_KEYS_REQUIRED, *_TASK_KEYS_OPTIONAL, "extra"))
        raise SuiteError(f"{toml_path}: unknown key {unknown[0]!r} (allowed: {allowed})")


def _task_id(data: Mapping[str, Any], toml_path: Path) -> str:
    """The task's id, checked to be usable as a (nested) folder name."""
    task_id = _string(data, "id", toml_path)
    if not _SAFE_ID.fullmatch(task_id):
        raise SuiteError(f"{toml_path}: id {task_id!r} must be letters, digits and _ . - / only, starting with a "
                         "letter or digit (ids become folder names)")
    if ".." in task_id:
        raise SuiteError(f"{toml_path}: id {task_id!r} contains '..': ids become folder names (a '/' makes "
                         "subfolders), and '..' would lead out of the folder")
    problem = safe_name_problem(task_id)
    if problem is not None:  # 'a//b', 'a/./b', 'a/': a part that names no folder
        raise SuiteError(f"{toml_path}: id {task_id!r} has {problem}: ids become folder names, one per '/' part")
    return task_id


def _read_modules(folder: Path, files: list[str], toml_path: Path, main: str) -> dict[str, str]:
    """Module name → text of the listed files, in their order; ``main`` among them and every import
    either standard or listed."""
    modules: dict[str, str] = {}
    origin: dict[str, Path] = {}
    for rel in files:
        module_path = _member(folder, rel, toml_path, "module")
        header, text = _read_module(module_path, rel, toml_path)
        if header in modules:
            raise SuiteError(f"{toml_path}: module {header} is listed twice")
        modules[header] = text
        origin[header] = module_path
    if main not in modules:
        raise SuiteError(f"{toml_path}: main {main!r} is not one of its modules ({', '.join(modules)})")
    for name, text in modules.items():
        for imported in unresolved_imports(text, modules):
            raise SuiteError(f"{origin[name]}: imports module {imported}, which is neither standard "
                             f"nor listed in {toml_path.name}'s modules")
    return modules


def _read_module(module_path: Path, rel: str, toml_path: Path) -> tuple[str, str]:
    """One module file's name (its header, which must match the file name) and text."""
    if module_path.suffix != ".tla":
        raise SuiteError(f"{toml_path}: module file {rel!r} does not end in .tla")
    text = read_text(module_path)
    header = module_header_name(text)
    if header is None:
        raise SuiteError(f"{module_path}: no '---- MODULE {module_path.stem} ----' header")
    if header != module_path.stem:
        raise SuiteError(f"{module_path}: the header names module {header} but the file is {module_path.stem}.tla")
    if not IDENTIFIER.fullmatch(header):
        raise SuiteError(f"{module_path}: {header!r} is not a TLA+ identifier, so it cannot name a module")
    return header, text


def _read_cfg(folder: Path, data: Mapping[str, Any], toml_path: Path) -> str | None:
    """The cfg's text (checked to parse), or None when the task names none."""
    if data.get("cfg") is None:
        return None
    cfg_path = _member(folder, _string(data, "cfg", toml_path), toml_path, "cfg")
    cfg_text = read_text(cfg_path)
    try:
        parse_cfg(cfg_text)
    except CfgError as exc:
        raise SuiteError(f"{cfg_path}: {exc}") from None
    return cfg_text


def load_task_folders(path: Path, skipped: list[Skipped] | None = None) -> list[Task]:
    """One task folder, or every immediate subfolder holding a ``task.toml``.

    With ``skipped`` given, a subfolder that cannot be loaded (a cfg that does not parse, a module
    that is missing...) is left out with its reason, as the other loaders leave out what they
    cannot use, so one bad task never stops a whole suite; without it (the built-in tasks, which
    must all load) the first fault is a :class:`SuiteError`. A single task folder that cannot be
    loaded is always an error: it is the whole suite."""
    if (path / "task.toml").is_file():
        return [load_task_folder(path)]
    tasks: list[Task] = []
    for child in sorted(path.iterdir()):
        if not child.is_dir() or child.name.startswith((".", "_")):
            continue
        if (child / "task.toml").is_file():
            try:
                tasks.append(load_task_folder(child))
            except SuiteError as exc:
                if skipped is None:
                    raise
                skipped.append(Skipped(_declared_id(child), str(child), str(exc)))
        elif skipped is not None:
            skipped.append(Skipped("", str(child), "no task.toml"))
    if not tasks:
        first = f" ({len(skipped)} skipped, e.g. {skipped[0]})" if skipped else ""
        raise SuiteError(f"{path}: no task folders here that load (each needs a task.toml){first}")
    return tasks


def _declared_id(folder: Path) -> str:
    """The id a task folder's ``task.toml`` declares, or ``""`` when it cannot be read."""
    try:
        value = _read_toml(folder / "task.toml").get("id", "")
    except SuiteError:
        return ""
    return value if isinstance(value, str) else ""


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:  # tomllib decodes the bytes itself: not UTF-8
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
