"""Files and folders ALIAS writes: the user's umask, and no leftovers of killed builds (issue #26)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_alias.atomic import atomic_write, current_umask
from pytest_alias.cir.build import remove_leftovers, staging_dir


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_atomic_files_and_build_folders_follow_the_umask(tmp_path: Path, umask_022: None) -> None:
    assert current_umask() == 0o022
    atomic_write(tmp_path / "run.json", lambda handle: handle.write("{}"))
    assert _mode(tmp_path / "run.json") == 0o644
    staging = staging_dir(tmp_path / "OUT")
    assert _mode(staging) == 0o755
    os.umask(0o077)
    atomic_write(tmp_path / "private.json", lambda handle: handle.write("{}"))
    assert _mode(tmp_path / "private.json") == 0o600


def test_a_killed_builds_temporaries_are_removed_by_the_next_build(tmp_path: Path) -> None:
    out = tmp_path / "OUT"
    # A build killed mid-way: its process is gone, its staging folder stays.
    code = (f"import os, sys; sys.path.insert(0, {str(Path(__file__).parents[1])!r}); "
            f"from pathlib import Path; from pytest_alias.cir.build import staging_dir; "
            f"d = staging_dir(Path({str(out)!r})); (d / 'half.json').write_text('{{'); os._exit(9)")
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 9
    legacy = tmp_path / ".OUT.tmp-abc123"  # named by an older version: no process id
    legacy.mkdir()
    unrelated = tmp_path / ".OTHER.tmp-1-x"
    unrelated.mkdir()
    left = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".OUT."))
    assert len(left) == 2
    mine = staging_dir(out)  # the next build cleans up first
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".OUT.")) == [mine.name]
    assert unrelated.is_dir()
    assert remove_leftovers(out) == [], "a running build's own staging folder is kept"


# --------------------------------------------------------------------------- only regular files (issue 48)

def _special(tmp_path: Path, kind: str) -> Path:
    """A path holding something that is not a regular file."""
    path = tmp_path / f"{kind}.json"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "link":
        (tmp_path / "target.json").write_text("precious")
        path.symlink_to(tmp_path / "target.json")
    elif kind == "device":  # a copy of /dev/null's node: os.replace swapped it for a file as root
        try:
            os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        except (PermissionError, OSError):
            pytest.skip("making a device node needs root")
    return path


@pytest.mark.parametrize("kind, said", [("fifo", "device, FIFO or socket"), ("device", "device, FIFO or socket"),
                                        ("folder", "is a folder"), ("link", "symbolic link")])
def test_a_user_chosen_output_is_only_ever_a_regular_file(kind: str, said: str, tmp_path: Path) -> None:
    from pytest_alias.atomic import write_output
    from pytest_alias.errors import UsageProblem
    from pytest_alias.report.files import write_report

    path = _special(tmp_path, kind)
    before = os.lstat(path)
    with pytest.raises(UsageProblem, match=said):
        write_output(path, lambda handle: handle.write("{}"))
    with pytest.raises(UsageProblem, match=said):
        write_report(path, [], {"models": {}}, {})
    after = os.lstat(path)
    assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino), "the node itself is untouched"
    if kind == "link":
        assert (tmp_path / "target.json").read_text() == "precious", "never written through"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == [], "no temporary file left"


@pytest.mark.parametrize("path", ["/proc/self/status", "/sys/kernel/x.json", "/dev/null", "/dev/shm/x.json"])
def test_a_system_path_fails_the_start_up_check(path: str) -> None:
    from pytest_alias.errors import UsageProblem
    from pytest_alias.run.generation import check_writable_file

    with pytest.raises(UsageProblem) as caught:
        check_writable_file(Path(path))
    assert caught.value.for_flag("--alias-").startswith(f"--alias-save-outputs {path}: ")


@pytest.mark.parametrize("kind", ["fifo", "link"])
def test_report_options_and_save_outputs_are_refused_at_start_up(kind: str, tmp_path: Path) -> None:
    from pytest_alias.errors import UsageProblem
    from pytest_alias.run.generation import check_writable_file
    from pytest_alias.run.options import defaults
    from pytest_alias.run.config import RunConfig

    path = _special(tmp_path, kind)
    with pytest.raises(UsageProblem) as caught:
        RunConfig.from_options({**defaults(), "report": (str(path),)})
    assert caught.value.for_flag("--alias-").startswith(f"--alias-report {path}: ")
    with pytest.raises(UsageProblem):
        check_writable_file(path)


def test_command_outputs_refuse_a_link(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``tla-alias split --out`` and ``rename --out``: a link is refused in one line, its target untouched."""
    from pytest_alias.cli import main

    link = _special(tmp_path, "link")
    assert main(["split", "builtin", "--out", str(link)]) == 2
    assert "symbolic link" in capsys.readouterr().err
    assert (tmp_path / "target.json").read_text() == "precious" and link.is_symlink()
    (tmp_path / "real").mkdir()
    (tmp_path / "folder-link").symlink_to(tmp_path / "real")
    (tmp_path / "M.tla").write_text("---- MODULE M ----\nVARIABLE x\nInit == x = 0\nNext == x' = x\n====\n")
    assert main(["rename", str(tmp_path / "M.tla"), "--out", str(tmp_path / "folder-link")]) == 2
    assert "--out" in capsys.readouterr().err and list((tmp_path / "real").iterdir()) == []
