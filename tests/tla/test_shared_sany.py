"""SANY in one loader kept for a server's life reports each module exactly as a fresh loader does."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_alias.tla import server_classes
from pytest_alias.tla.runner import TlaTools
from pytest_alias.tla.specfiles import SpecFiles
from pytest_alias.tla.toolchain import find_toolchain

GOOD = """---- MODULE M ----
EXTENDS Naturals, Sequences
(* a comment (* nested *) closed *)
VARIABLE q
Init == q = <<>>
Next == q' = Append(q, Len(q) + 1)
====
"""
#: Each module parsed after the one before it in the same loader: a module that ends inside a
#: comment two deep (a token limit hit mid-comment) leaves SANY's lexer a comment deep (without the
#: server's reset, the next module's comments then never close), a semantic error
#: leaves errors behind, a level error and a duplicate definition reach SANY's later passes.
SEQUENCE = [
    GOOD,
    "---- MODULE M ----\nEXTENDS Naturals\n(* cut off here (* inside a nested comment",
    GOOD,
    GOOD.replace("Init == q = <<>>", "Init == q = Undefined"),
    GOOD,
    GOOD.replace("====", "Lvl == (q' = q)'\n===="),
    GOOD.replace("====", "Dup == 1\nDup == 2\n===="),
    GOOD.replace("EXTENDS Naturals, Sequences", "EXTENDS Naturals, NoSuchModule"),
    GOOD.replace("Next == q' = Append(q, Len(q) + 1)", "Next == q' = Append(q, (Len(q) + 1)"),
    GOOD,
]


def _reports(tools: TlaTools) -> list[tuple[bool, int | None, list[str], str]]:
    results = [tools.sany(SpecFiles("M", {"M": text})) for text in SEQUENCE]
    return [(r.ok, r.exit_code, [str(e) for e in r.errors], r.output) for r in results]


def test_a_shared_sany_loader_reports_each_module_as_a_fresh_loader_does(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    toolchain = find_toolchain()
    if toolchain.identity not in server_classes.SHARED_SANY_JARS:
        pytest.skip("SANY shares a loader only for the jar it was checked with (ALIAS_TLA2TOOLS names another)")
    server = TlaTools(toolchain, cache_dir=tmp_path / "server", use_cache=False, launcher="server")
    assert server.launcher.shared_sany  # the launcher looks the jar up when it is made
    monkeypatch.setattr(server_classes, "SHARED_SANY_JARS", frozenset())
    fresh = TlaTools(toolchain, cache_dir=tmp_path / "fresh", use_cache=False, launcher="server")
    try:
        assert not fresh.launcher.shared_sany
        shared, plain = _reports(server), _reports(fresh)
        servers = [s for tier in server.launcher._idle.values() for s in tier]
    finally:
        server.launcher.close()
        fresh.launcher.close()
    assert [ok for ok, *_ in plain] == [True, False, True, False, True, False, False, False, False, True]
    assert shared == plain
    assert "Naturals" in plain[0][3] and str(tmp_path) not in plain[0][3]  # the unpacked modules' folder is stripped
    # Every request ran on one server, none of them counted among the runs that leave classes behind.
    assert [(s.runs, s.released_runs, s.shared_sany_runs) for s in servers] == [(0, 0, len(SEQUENCE))]


def test_another_jar_keeps_a_fresh_loader_per_sany_request(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server_classes, "SHARED_SANY_JARS", frozenset())
    tools = TlaTools(find_toolchain(), cache_dir=tmp_path, use_cache=False, launcher="server")
    try:
        assert not tools.launcher.shared_sany
        assert tools.sany(SpecFiles("M", {"M": GOOD})).ok
        servers = [s for tier in tools.launcher._idle.values() for s in tier]
    finally:
        tools.launcher.close()
    # A fresh loader per request, released afterwards (SANY exports nothing through RMI).
    assert [(s.runs + s.released_runs, s.shared_sany_runs) for s in servers] == [(1, 0)]
