"""The look ahead at outputs' costs (``run.probe``): a capped TLC run is never cached and one that ends
is the run its own limit allows; the probe marks an output whose check outlasts its cap as long (the
scheduler then sends it next) and leaves what it checked for the item to read; under ``-n`` the run's
JSON says what it found, and every verdict is the one the item would give alone."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from pytest_alias.run import probe
from pytest_alias.run.probe import OutputProbe, long_output_cost, probe_order
from pytest_alias.tla.runner import TlaTools
from pytest_alias.tla.specfiles import SpecFiles

pytest_plugins = ["pytester"]

COUNTER = """---- MODULE Counter ----
EXTENDS Naturals
VARIABLE n
Init == n = 0
Next == n' = n + 1
====
"""


def _die_hard_reference() -> str:
    from pytest_alias.tasks.suites import load_suite

    task = next(t for t in load_suite("builtin") if t.id == "die-hard")
    condition = task.original()
    return condition.module_map[condition.main]


def endless_die_hard() -> str:
    """Die-hard with a move counter: every invariant of its cfg holds, and its states never end."""
    text = _die_hard_reference()
    text = text.replace("VARIABLES small, big, last", "VARIABLES small, big, last, moves", 1)
    text = text.replace("vars == <<small, big, last>>", "vars == <<small, big, last, moves>>", 1)
    text = text.replace("    /\\ last = \"none\"\n", "    /\\ last = \"none\"\n    /\\ moves = 0\n", 1)
    text = text.replace("Next ==", "Step ==", 1)
    text = text.replace("Spec ==", "Next == Step /\\ moves' = moves + 1\n\nSpec ==", 1)
    assert text.count("moves") >= 4
    return text


def test_a_capped_run_stops_there_and_is_never_cached(tmp_path: Path) -> None:
    tools = TlaTools(cache_dir=tmp_path)
    spec = SpecFiles("Counter", {"Counter": COUNTER}, "INIT Init\nNEXT Next\n")
    with tools.probing(2.0):
        result = tools.tlc(spec, timeout=120)
    assert result.status == "timeout" and result.seconds < 30
    assert tools.cached_check(spec, timeout=120) is None  # the cap's doing, not the spec's: nothing kept


def test_a_check_the_probe_stopped_skips_the_quick_tier_when_it_runs_for_real(tmp_path: Path) -> None:
    tools = TlaTools(cache_dir=tmp_path)
    spec = SpecFiles("Counter", {"Counter": COUNTER}, "INIT Init\nNEXT Next\n")
    with tools.probing(1.0):
        assert tools.tlc(spec, timeout=4).status == "timeout"
    with tools.expecting(None):  # an item's grade: nothing known of the reference
        result = tools.tlc(spec, timeout=4)
    # Without the probe's mark the quick tier would try it for its whole 4 s first, then retry it.
    assert result.status == "timeout" and not result.cached
    assert getattr(tools.launcher, "quick_retries", 0) == 0


def test_a_run_that_ends_under_the_cap_is_the_one_its_limit_allows(tmp_path: Path) -> None:
    tools = TlaTools(cache_dir=tmp_path)
    bounded = COUNTER.replace("Next == n' = n + 1", "Next == n < 40 /\\ n' = n + 1")
    spec = SpecFiles("Counter", {"Counter": bounded}, "INIT Init\nNEXT Next\n")
    with tools.probing(30.0):
        probed = tools.tlc(spec, timeout=120, deadlock=False)
    assert probed.ok and probed.distinct_states == 41 and not probed.cached
    later = tools.tlc(spec, timeout=120, deadlock=False)  # outside the probe, under the same limit
    assert later.cached and later.ok and later.distinct_states == 41


def test_the_probe_looks_first_at_what_the_scheduler_sends_last() -> None:
    cases = [SimpleNamespace(id=name) for name in ("a", "b", "c", "d")]
    costs = {"a": 9.0, "b": 1.0, "c": 1.0, "d": 5.0}
    # The scheduler sends a, d, b, c (costliest first, ties in collection order): the probe c, b, d, a.
    assert [case.id for case in probe_order(cases, costs)] == ["c", "b", "d", "a"]


def _workspace(tmp_path: Path, samples: int) -> Any:
    from pytest_alias.run import RunConfig
    from pytest_alias.run.options import defaults
    from pytest_alias.run.workspace import Workspace

    return Workspace(RunConfig.from_options({**defaults(), "model": ("reference",), "grade": "name",
                                             "suite": "builtin?ids=die-hard", "samples": samples,
                                             "conditions": ("original",), "cache_dir": str(tmp_path),
                                             "timeout": 60}))


def test_the_probe_marks_a_long_output_and_leaves_a_short_ones_check_to_its_item(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pytest_alias.models.base import Generation

    monkeypatch.setattr(probe, "PROBE_SECONDS", 2.0)
    workspace = _workspace(tmp_path, samples=2)
    short, endless = workspace.cases()
    texts = {short.id: _die_hard_reference() + "\n\\* sample one\n", endless.id: endless_die_hard()}
    costs = {short.id: 0.1, endless.id: 0.1}
    look = OutputProbe(workspace, [short, endless], texts, costs, sent=lambda case_id: False)
    look._run()  # the thread's work, here in the test's thread
    assert look.report.probed == 2 and look.report.long == [endless.id]
    assert costs[endless.id] == long_output_cost(60, ("name",)) > costs[short.id] > 0.1  # its measured seconds
    record = workspace.grade(short, Generation(texts[short.id], "reference"))
    name = record["grades"]["name"]
    assert name["passed"] and name["details"]["tlc_cached"]  # the probe's run, read back: not run again


def test_the_probe_stops_at_the_items_already_sent(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path, samples=2)
    cases = workspace.cases()
    costs = {case.id: 1.0 for case in cases}
    look = OutputProbe(workspace, cases, {case.id: endless_die_hard() for case in cases}, costs,
                       sent=lambda case_id: True)
    look._run()
    assert look.report.probed == 0 and costs == {case.id: 1.0 for case in cases}


def test_under_xdist_the_run_reports_the_long_output_and_grades_it_as_alone(
        pytester: pytest.Pytester, tmp_path: Path) -> None:
    """Twelve outputs of die-hard under ``-n 2``, the last one endless: the look ahead finds it long, and
    its verdict is TLC's time limit, as without the look ahead; the others pass."""
    replay = tmp_path / "outputs.jsonl"
    rows = [{"task": "die-hard", "condition": "original", "sample": sample,
             "text": endless_die_hard() if sample == 11 else _die_hard_reference() + f"\n\\* sample {sample}\n"}
            for sample in range(12)]
    replay.write_text("".join(json.dumps(row) + "\n" for row in rows))
    report = tmp_path / "run.json"
    result = pytester.runpytest_subprocess(
        "--alias-suite=builtin?ids=die-hard", f"--alias-cache-dir={tmp_path / 'cache'}", "-p", "no:cacheprovider",
        f"--alias-model=replay:{replay}", "--alias-conditions=original", "--alias-samples=12",
        "--alias-grade=name", "--alias-timeout=12", f"--alias-report={report}", "--alias-no-fail", "-n", "2",
        timeout=600)
    assert result.ret == 0, result.stdout.str()[-2000:]
    run = json.loads(report.read_text())
    records = {r["sample"]: r for r in run["records"]}
    long_id = records[11]["id"]
    assert run["metadata"]["look_ahead"]["long"] == [long_id]
    assert records[11]["grades"]["name"]["details"]["tlc_status"] == "timeout"
    assert all(records[s]["grades"]["name"]["passed"] for s in range(11))
