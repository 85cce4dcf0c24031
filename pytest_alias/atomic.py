"""Files written whole or not at all, only where they were asked for, and JSON read without a crash
(standard library only).

Every file ALIAS writes that someone may read while it is written (cache entries, the generation
store, API batch state, reports) goes through a temporary file in the same folder and ``os.replace``:
a reader sees the old file or the whole new one, and an interrupted write leaves nothing behind.

A path the user chose (a report, ``--alias-save-outputs``, a command's ``--out``) goes through
:func:`write_output`, which writes only a regular file: ``os.replace`` would otherwise swap a
device node, FIFO or symbolic link for a regular file (as root even ``/dev/null``). A name that
comes from input (a module name, a task id) is joined to its folder by :func:`path_inside`.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from pathlib import Path, PurePosixPath
from typing import Any, Callable, TextIO

from .errors import UsageProblem

#: The kernel's pseudo-file systems: no report or output of ALIAS belongs there.
SYSTEM_FOLDERS = (Path("/proc"), Path("/sys"), Path("/dev"))


def current_umask() -> int:
    """The process's umask, read without changing it where the system allows (Linux ``/proc``);
    elsewhere set and restored at once."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def as_umask_allows(path: Path | str, *, folder: bool = False) -> None:
    """Give a file (0666) or folder (0777) made private by ``mkstemp``/``mkdtemp`` the permissions the
    user's umask allows, as a plain ``open``/``mkdir`` would have."""
    os.chmod(path, (0o777 if folder else 0o666) & ~current_umask())


def atomic_write(path: Path, write: Callable[[TextIO], object]) -> None:
    """Write a text file through ``write(handle)`` on a temporary file, then ``os.replace`` it. The file
    gets the permissions the umask allows (``mkstemp`` alone would leave it 0600)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o666 & ~current_umask())
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            write(handle)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def write_json_atomic(path: Path, data: Any, *, indent: int | None = None) -> None:
    """``data`` as JSON (UTF-8, not ASCII-escaped) through :func:`atomic_write`."""
    atomic_write(path, lambda handle: json.dump(data, handle, ensure_ascii=False, indent=indent))


def parse_json(text: str | bytes) -> Any:
    """``json.loads`` whose every failure is a ``ValueError``: a document nested too deeply (a
    ``RecursionError`` inside ``json``) included, so a caller that treats a bad file as a one-line error,
    or a bad cache entry as a miss, catches that one too."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("JSON nested too deeply to read") from None


def read_json(path: Path | str) -> Any:
    """A JSON file's content through :func:`parse_json` (``OSError`` when it cannot be read; a file
    that is not UTF-8 is a ``UnicodeDecodeError``, a ``ValueError``)."""
    return parse_json(Path(path).read_text(encoding="utf-8"))


def _system_path(path: Path) -> Path | None:
    """The pseudo-file system (``/proc``, ``/sys``, ``/dev``) ``path`` lies in, after links, or None."""
    resolved = path.resolve()
    return next((folder for folder in SYSTEM_FOLDERS if resolved.is_relative_to(folder)), None)


def check_output_file(path: Path | str, option: str = "") -> None:
    """Raise :class:`UsageProblem` (one line) unless ``path`` is a regular file or nothing yet.

    Refused: a folder, a device, a FIFO, a socket, anything under ``/proc``, ``/sys`` or ``/dev``, and
    a symbolic link: ALIAS neither writes through a link to its target nor replaces the link, so the
    user names the target itself (or removes the link). ``option`` names the flag in the message."""
    path = Path(path)
    where = f"{{flag}} {path}" if option else str(path)
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        mode = None
    except NotADirectoryError:
        raise UsageProblem(f"{where}: a part of its folder path is a file, not a folder", option=option or None) from None
    except OSError as exc:
        raise UsageProblem(f"{where}: cannot be checked ({exc.strerror})", option=option or None) from None
    if mode is not None and stat.S_ISLNK(mode):
        raise UsageProblem(f"{where}: is a symbolic link; ALIAS does not write through a link or replace it: give "
                           "the target's own path or remove the link", option=option or None)
    if mode is not None and stat.S_ISDIR(mode):
        raise UsageProblem(f"{where}: is a folder; give a file path", option=option or None)
    if mode is not None and not stat.S_ISREG(mode):
        raise UsageProblem(f"{where}: is a device, FIFO or socket, not a regular file; give a file path",
                           option=option or None)
    system = _system_path(path)
    if system is not None:
        raise UsageProblem(f"{where}: lies under {system}, a system folder; give a file path in a folder of "
                           "your own", option=option or None)


def check_output_folder(path: Path | str, option: str = "") -> None:
    """Raise :class:`UsageProblem` unless ``path`` is a folder or nothing yet, and not a symbolic link
    or a system folder: what ALIAS moves into place there must land in the folder named."""
    path = Path(path)
    where = f"{{flag}} {path}" if option else str(path)
    if path.is_symlink():
        raise UsageProblem(f"{where}: is a symbolic link; ALIAS does not write through a link or replace it: give "
                           "the target's own path or remove the link", option=option or None)
    if path.exists() and not path.is_dir():
        raise UsageProblem(f"{where}: exists and is not a folder", option=option or None)
    system = _system_path(path)
    if system is not None:
        raise UsageProblem(f"{where}: lies under {system}, a system folder; choose a folder of your own",
                           option=option or None)


def write_output(path: Path | str, write: Callable[[TextIO], object], option: str = "") -> None:
    """:func:`atomic_write` for a path the user chose, after :func:`check_output_file`."""
    check_output_file(path, option)
    atomic_write(Path(path), write)


def write_output_json(path: Path | str, data: Any, *, indent: int | None = None, option: str = "") -> None:
    """``data`` as JSON through :func:`write_output`."""
    write_output(path, lambda handle: json.dump(data, handle, ensure_ascii=False, indent=indent), option)


def safe_name_problem(name: str) -> str | None:
    """Why ``name`` (a module name, a task id: something that becomes a file or folder name) cannot be
    joined to a folder, or None: parts separated by ``/``, none empty, ``.`` or ``..``, no backslash,
    no NUL, not absolute."""
    if not isinstance(name, str) or not name:
        return "an empty name"
    if "\\" in name or "\0" in name:
        return "a backslash or NUL byte"
    if name.startswith("/"):
        return "an absolute path"
    if any(part in ("", ".", "..") for part in name.split("/")):
        return "a '..', '.' or empty path part"
    return None


def path_inside(folder: Path, name: str) -> Path:
    """``folder / name`` for a name that comes from input, refused (``UsageProblem``) unless it stays
    inside ``folder``: see :func:`safe_name_problem`, and no symbolic link on the way may lead out."""
    problem = safe_name_problem(name)
    if problem is not None:
        raise UsageProblem(f"{name!r} cannot name a file or folder inside {folder}: it has {problem}")
    target = folder.joinpath(*PurePosixPath(name).parts)
    if not target.resolve().is_relative_to(folder.resolve()):
        raise UsageProblem(f"{name!r} leads out of {folder} (through a symbolic link)")
    return target
