"""A toolchain the launcher cannot drive is the grader's fault, never the spec's (issue #26, major 3)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from pytest_alias.tla.launcher import ServerFault, ToolRunError, ToolServer, broken_jar, build_server
from pytest_alias.tla.runner import TlaTools
from pytest_alias.tla.toolchain import ToolchainError, find_toolchain
from specs import COUNTER, counter


@pytest.fixture(scope="module")
def broken_jar_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tla2tools.jar without the class SANY builds its spec object from (as a jar of another make
    lacks what the tools need)."""
    source = find_toolchain().jar.path
    target = tmp_path_factory.mktemp("jar") / "tla2tools.jar"
    with zipfile.ZipFile(source) as jar, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        for info in jar.infolist():
            if not info.filename.startswith("tla2sany/modanalyzer/SpecObj"):
                out.writestr(info, jar.read(info))
    return target


@pytest.mark.parametrize("launcher", ["fresh", "server"])
def test_a_jar_the_launcher_cannot_drive_is_a_tool_fault_not_a_parse_error(
        launcher: str, broken_jar_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ALIAS_TLA2TOOLS", str(broken_jar_path))
    tools = TlaTools(cache_dir=tmp_path, launcher=launcher)
    if tools.launcher.kind != launcher:
        pytest.skip(f"no tool server here: {tools.launcher.note}")
    with pytest.raises(ToolRunError, match="SpecObj") as raised:
        tools.sany(counter("", COUNTER))
    if launcher == "server":
        assert isinstance(raised.value, ServerFault)
    assert not list((tmp_path / "runs").glob("*/*.json")), "a fault is never cached"


@pytest.mark.parametrize("launcher", ["auto", "fresh"])
def test_the_start_up_check_stops_with_one_line(launcher: str, broken_jar_path: Path, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ALIAS_TLA2TOOLS", str(broken_jar_path))
    tools = TlaTools(cache_dir=tmp_path, launcher=launcher)
    with pytest.raises(ToolchainError) as raised:
        tools.check_drivable()
    message = str(raised.value)
    assert "\n" not in message and str(broken_jar_path) in message and "cannot be driven" in message


def test_the_start_up_check_passes_a_good_jar_once(tmp_path: Path) -> None:
    tools = TlaTools(cache_dir=tmp_path)
    tools.check_drivable()
    assert tools.launcher.drivable
    tools.check_drivable()  # remembered: no second run
    assert tools.launches["sany"] == 0, "the check bypasses the run cache and the launch count"


def test_a_request_the_server_cannot_run_is_a_fault_and_the_server_lives_on(tmp_path: Path) -> None:
    toolchain = find_toolchain()
    class_dir, note = build_server(toolchain, tmp_path)
    if class_dir is None:
        pytest.skip(f"no tool server here: {note}")
    server = ToolServer(toolchain, class_dir)
    try:
        work = tmp_path / "stage" / "work"
        work.mkdir(parents=True)
        with pytest.raises(ServerFault, match="unknown tool"):
            server.run("bogus", [], work, tmp_path, 30)  # type: ignore[arg-type]
        assert server.alive
    finally:
        server.close()


def test_only_the_jvms_last_words_can_blame_the_jar() -> None:
    trace = ('Exception in thread "main" java.lang.NoClassDefFoundError: tla2sany/modanalyzer/SpecObj\n'
             "\tat tla2sany.drivers.SANY.SANYmain(SANY.java:434)\n"
             "Caused by: java.lang.ClassNotFoundException: tla2sany.modanalyzer.SpecObj\n\t... 2 more\n")
    assert broken_jar("SANY2 Version 2.1\n" + trace) == "java.lang.NoClassDefFoundError: tla2sany/modanalyzer/SpecObj"
    # A spec that prints the same line and goes on is judged on what it does, not excused.
    assert broken_jar(trace + "@!@!@STARTMSG 2193:0 @!@!@\nModel checking completed.\n") is None


def test_a_hanging_java_is_killed_with_its_children_at_a_short_limit(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import os
    import time

    from pytest_alias.tla import toolchain

    child = tmp_path / "child.pid"
    java = tmp_path / "bin" / "java"
    java.parent.mkdir()
    java.write_text(f"#!/bin/sh\nsleep 300 &\necho $! > {child}\nwait\n")
    java.chmod(0o755)
    monkeypatch.setenv("ALIAS_JAVA", str(java))
    monkeypatch.setattr(toolchain, "VERSION_PROBE_SECONDS", 1.0)
    toolchain.java_version.cache_clear()
    start = time.monotonic()
    with pytest.raises(ToolchainError, match="did not answer within 1 s"):
        toolchain.find_java()
    assert time.monotonic() - start < 10
    pid = int(child.read_text())
    time.sleep(0.2)
    try:
        os.kill(pid, 0)
        alive = not open(f"/proc/{pid}/stat").read().split()[2] == "Z"
    except (ProcessLookupError, FileNotFoundError):
        alive = False
    assert not alive, "the hanging launcher's child is killed too"
    toolchain.java_version.cache_clear()


def test_a_jvms_own_abort_is_not_a_kill_from_outside() -> None:
    from pytest_alias.tla.launcher import ToolRun, environment_fault

    assert "aborted" in str(environment_fault(ToolRun(-6, "", 0.1)))
    assert "killed from outside" in str(environment_fault(ToolRun(-9, "", 0.1)))


@pytest.mark.parametrize("mode", ["auto", "server"])
def test_a_server_fault_falls_back_to_fresh_jvms_only_in_auto_mode(mode: str, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from pytest_alias.tla import launcher as launch

    class FaultyServer:
        alive = True
        spent = False
        tier = "quick"

        def run(self, *args: object) -> None:
            raise ServerFault("the tool server cannot run SANY with this jar: java.lang.NoSuchMethodException")

        def close(self) -> None:
            pass

    fresh: list[str] = []
    monkeypatch.setattr(launch, "run_fresh", lambda *args, **kwargs: fresh.append(args[1]) or launch.ToolRun(0, "", 0.0))
    runner = launch.Launcher(TlaTools(cache_dir=tmp_path).toolchain, tmp_path, mode)
    if runner.kind != "server":
        pytest.skip(f"no tool server here: {runner.note}")
    monkeypatch.setattr(runner, "_take_server", lambda tier: FaultyServer())
    if mode == "server":
        with pytest.raises(ServerFault):
            runner.run("sany", [], tmp_path, tmp_path, 10)
        assert fresh == [] and runner.kind == "server"
    else:
        runner.run("sany", [], tmp_path, tmp_path, 10)
        assert fresh == ["sany"] and runner.kind == "fresh" and "NoSuchMethodException" in runner.note
