"""Byte budgets on what SANY and TLC write, held while the tools run (issue #26, majors 1 and 2)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from pytest_alias.tla.runner import TlaTools
from pytest_alias.tla.streams import Kept, budgets, read_kept
from specs import module

#: An infinite state space: the dump grows until something stops it.
UNBOUNDED = module("Unbounded", "EXTENDS Naturals\nVARIABLE x\nInit == x = 0\nNext == x' = x + 1\n"
                                "TypeOK == x \\in Nat", "INIT Init\nNEXT Next\nINVARIANT TypeOK\n")
#: A PrintT flood: every state prints a long line, forever.
FLOOD = module("Flood", "EXTENDS Naturals, TLC\nVARIABLE x\nInit == x = 0\n"
                        "Next == PrintT(<<x, \"" + "y" * 400 + "\">>) /\\ x' = x + 1",
               "INIT Init\nNEXT Next\n")


def test_kept_stream_keeps_head_and_tail_only() -> None:
    kept = Kept(head=10, tail=20)
    for i in range(1000):
        kept.feed(f"line {i}\n".encode())
    text = kept.text()
    assert kept.total == sum(len(f"line {i}\n") for i in range(1000))
    assert text.startswith("line 0\n") and text.endswith("line 999\n")
    assert "bytes of tool output cut here" in text and len(text) < 100
    small = Kept(head=10, tail=20)
    small.feed(b"short\n")
    assert small.text() == "short\n"


def test_read_kept_reads_only_the_ends_of_a_big_file(tmp_path: Path) -> None:
    path = tmp_path / "out.txt"
    path.write_bytes(b"first\n" + b"x" * 5_000_000 + b"\nlast\n")
    text, size = read_kept(path, head=100, tail=100)
    assert size == path.stat().st_size and text.startswith("first\n") and text.endswith("last\n")
    assert read_kept(tmp_path / "missing") == ("", 0)


@pytest.mark.parametrize("value", ["0", "-1", "lots", "1.5"])
def test_a_budget_setting_that_is_not_a_whole_number_is_one_line(value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from pytest_alias.tla.launcher import check_environment
    from pytest_alias.tla.toolchain import ToolchainError

    monkeypatch.setenv("ALIAS_GRAPH_LIMIT_MB", value)
    with pytest.raises(ToolchainError, match="ALIAS_GRAPH_LIMIT_MB must be a whole number"):
        check_environment()


@pytest.mark.parametrize("launcher", ["fresh", "server"])
def test_an_infinite_state_graph_is_stopped_at_its_budget(launcher: str, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ALIAS_GRAPH_LIMIT_MB", "1")
    tools = TlaTools(cache_dir=tmp_path, launcher=launcher)
    if tools.launcher.kind != launcher:
        pytest.skip(f"no tool server here: {tools.launcher.note}")
    start = time.perf_counter()
    result, graph = tools.state_graph(UNBOUNDED, deadlock=False, timeout=120)
    assert time.perf_counter() - start < 60, "stopped at the budget, not at the time limit"
    assert graph is None
    assert result.status == "too_large"
    assert result.message == "the state graph exceeded 1 MB (ALIAS_GRAPH_LIMIT_MB)"
    # Cached with the budget in its key: the same verdict again, and a larger budget runs anew.
    again, _ = tools.state_graph(UNBOUNDED, deadlock=False, timeout=120)
    assert again.cached and again.status == "too_large"


@pytest.mark.parametrize("launcher", ["fresh", "server"])
def test_a_printing_flood_is_stopped_at_its_budget_in_bounded_memory(launcher: str, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ALIAS_OUTPUT_LIMIT_MB", "8")
    tools = TlaTools(cache_dir=tmp_path, use_cache=False, launcher=launcher)
    if tools.launcher.kind != launcher:
        pytest.skip(f"no tool server here: {tools.launcher.note}")
    result = tools.tlc(FLOOD, deadlock=False, timeout=120)
    assert result.status == "too_large"
    assert result.message == "TLC printed more than 8 MB (ALIAS_OUTPUT_LIMIT_MB)"
    assert len(result.output) < 4_200_000, "only the head and the tail are kept"
    assert "bytes of tool output cut here" in result.output
    assert budgets().output_bytes == 8 * 1024 * 1024


def test_the_grade_blames_the_output_for_an_infinite_state_graph(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from pytest_alias.grading.tlc_reason import tlc_reason
    from pytest_alias.grading.bind import CfgBinding

    monkeypatch.setenv("ALIAS_GRAPH_LIMIT_MB", "1")
    result, _ = TlaTools(cache_dir=tmp_path).state_graph(UNBOUNDED, deadlock=False, timeout=120)
    assert tlc_reason(result, CfgBinding(""), 120) == "the output's state graph exceeded 1 MB (ALIAS_GRAPH_LIMIT_MB)"


def test_the_grade_blames_the_output_for_a_printing_flood(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pytest_alias.grading.bind import CfgBinding
    from pytest_alias.grading.tlc_reason import tlc_reason

    monkeypatch.setenv("ALIAS_OUTPUT_LIMIT_MB", "1")
    result = TlaTools(cache_dir=tmp_path).tlc(FLOOD, deadlock=False, timeout=120)
    assert result.status == "too_large"
    # Said in plain English (it once read "the output made TLC printed more than …", issue #48).
    assert tlc_reason(result, CfgBinding(""), 120) == "the output made TLC print more than 1 MB (ALIAS_OUTPUT_LIMIT_MB)"
