"""Mutants for grader validation (paper, Appendix J) on built-in tasks."""

from __future__ import annotations

from collections import Counter

import pytest

from pytest_alias.grading.mutants import (
    MUTANT_KINDS,
    Mutant,
    behavior_cfg,
    check_mutant,
    generate_mutants,
    keep_mutant,
    reference_distinct,
)
from pytest_alias.tasks.model import Task
from pytest_alias.tasks.suites import load_suite
from pytest_alias.tla.cfg import parse_cfg
from pytest_alias.tla.runner import TlaTools, default_tools
from pytest_alias.tla.specfiles import SpecFiles, strip_comments
from pytest_alias.tla.syntax import parse_module

TASKS = ["hour-clock", "barrier", "traffic-light"]
# Short: a mutant with an unbounded state space (hr counting past 12) only has to time out, and
# the mutants each test checks are chosen to finish in well under a second.
TIMEOUT = 20.0


@pytest.fixture(scope="module")
def tasks() -> dict[str, Task]:
    return {task.id: task for task in load_suite("builtin")}


@pytest.fixture(scope="module")
def tools() -> TlaTools:
    return default_tools()


def _mutants(task: Task) -> list[Mutant]:
    return generate_mutants(task.module_map, task.main, task.cfg)


def _comment_texts(text: str) -> list[str]:
    syntax = parse_module(text)
    return [syntax.text(span) for span in syntax.comments]


def _checked_definitions(task: Task) -> list[str]:
    cfg = parse_cfg(task.cfg or "")
    return [*cfg.invariants, *cfg.properties, *([cfg.specification] if cfg.specification else [])]


@pytest.mark.parametrize("task_id", TASKS)
def test_mutants_are_deterministic_and_sorted(tasks: dict[str, Task], task_id: str) -> None:
    first, second = _mutants(tasks[task_id]), _mutants(tasks[task_id])
    assert first == second
    assert [dict(m.modules) for m in first] == [dict(m.modules) for m in second]
    assert [m.line for m in first] == sorted(m.line for m in first)
    assert len({m.modules[m.main] for m in first}) == len(first), "no two mutants are the same text"


def test_several_kinds_per_task(tasks: dict[str, Task]) -> None:
    kinds = {task_id: Counter(m.kind for m in _mutants(tasks[task_id])) for task_id in TASKS}
    assert set(kinds["hour-clock"]) == {"number", "comparison"}
    assert set(kinds["barrier"]) == set(MUTANT_KINDS)
    assert {"init_string", "comparison", "guard", "conjunct", "disjunct"} <= set(kinds["traffic-light"])


@pytest.mark.parametrize("task_id", TASKS)
def test_mutants_differ_in_code_only(tasks: dict[str, Task], task_id: str) -> None:
    task = tasks[task_id]
    reference = task.module_map[task.main]
    for mutant in _mutants(task):
        text = mutant.modules[mutant.main]
        assert strip_comments(text) != strip_comments(reference), mutant.description
        assert _comment_texts(text) == _comment_texts(reference), mutant.description
        assert mutant.cfg == task.cfg
        assert not parse_module(text).has_errors, mutant.description
        # Only the main module changes; the line points at the change.
        assert {k: v for k, v in mutant.modules.items() if k != mutant.main} == {
            k: v for k, v in task.module_map.items() if k != task.main}
        ref_lines, new_lines = reference.splitlines(), text.splitlines()
        assert ref_lines[: mutant.line - 1] == new_lines[: mutant.line - 1]
        assert ref_lines[mutant.line - 1 :] != new_lines[mutant.line - 1 :]


@pytest.mark.parametrize("task_id", TASKS)
def test_checked_definitions_and_assume_are_never_mutated(tasks: dict[str, Task], task_id: str) -> None:
    task = tasks[task_id]
    reference = parse_module(task.module_map[task.main])
    protected = _checked_definitions(task)
    assert protected
    for mutant in _mutants(task):
        mutated = parse_module(mutant.modules[mutant.main])
        for name in protected:
            before, after = reference.definition(name), mutated.definition(name)
            assert before is not None and after is not None
            assert reference.text(before.extent) == mutated.text(after.extent), mutant.description
        assert [mutated.text(d.extent) for d in mutated.definitions if d.kind == "assumption"] == [
            reference.text(d.extent) for d in reference.definitions if d.kind == "assumption"]


def test_limit_keeps_every_kind() -> None:
    text = """---- MODULE Many ----
EXTENDS Naturals
VARIABLES x, s
Init == x = 0 /\\ s = "a"
Step(i) == /\\ x < 10 + i
           /\\ x' = x + i + 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9
           /\\ s' = "b"
Next == \\/ \\E i \\in 1..3 : Step(i)
        \\/ x > 20 /\\ UNCHANGED <<x, s>>
====
"""
    mutants = generate_mutants({"Many": text}, "Many", "INIT Init\nNEXT Next\n", limit=8)
    assert len(mutants) == 8
    assert {"number", "comparison", "init_string", "conjunct", "guard", "disjunct"} <= {m.kind for m in mutants}


def test_behavior_cfg_drops_checks_only(tasks: dict[str, Task]) -> None:
    cfg = parse_cfg(behavior_cfg(tasks["barrier"].cfg or ""))
    assert cfg.invariants == () and cfg.properties == ()
    assert cfg.specification == "Spec"
    assert [e.name for e in cfg.constants] == ["N"]


@pytest.mark.parametrize("task_id", TASKS)
def test_at_least_one_mutant_per_task_is_kept(tasks: dict[str, Task], tools: TlaTools, task_id: str) -> None:
    task = tasks[task_id]
    ref = reference_distinct(task.module_map, task.main, task.cfg or "", tools, timeout=TIMEOUT)
    assert ref is not None
    # The first mutant in order is kept on each of these tasks; stop there to keep the test fast.
    assert any(keep_mutant(m, ref, tools, timeout=TIMEOUT) for m in _mutants(task)[:3])


def test_traffic_light_selection(tasks: dict[str, Task], tools: TlaTools) -> None:
    # Every mutant of this task finishes quickly, so check them all and pin the outcome.
    task = tasks["traffic-light"]
    ref = reference_distinct(task.module_map, task.main, task.cfg or "", tools, timeout=TIMEOUT)
    assert ref == 6
    checks = {m.description: check_mutant(m, ref, tools, timeout=TIMEOUT) for m in _mutants(task)}
    kept = sorted(d for d, c in checks.items() if c.kept)
    assert len(kept) == 7, kept
    # Deleting the only update of a variable leaves it unspecified: TLC fails, so not kept.
    assert not checks["ToRed: delete conjunct turn' = Other(r)"].kept
    # Deleting ToRed leaves the same six states reachable (the lights just stop): not kept.
    assert checks["Next: delete disjunct ToRed(r)"].reason == "same_states"
    assert checks["Next: delete disjunct ToGreen(r)"].kept
    assert all(c.distinct != ref for c in checks.values() if c.kept)


def test_a_reference_with_control_labels_is_counted_on_its_data_variables(tasks: dict[str, Task],
                                                                          tools: TlaTools) -> None:
    task = tasks["racy-counter"]
    full = tools.tlc(SpecFiles(task.main, dict(task.module_map), behavior_cfg(task.cfg or "")), deadlock=False)
    on_data = reference_distinct(task.module_map, task.main, task.cfg or "", tools)
    assert full.ok and full.distinct_states is not None and on_data is not None
    assert on_data < full.distinct_states  # states that differ only in pc count once
    # A mutant that only renames a label everywhere keeps the data behavior: not kept.
    text = task.module_map[task.main].replace('"read"', '"fetch"')
    relabeled = Mutant("init_string", "relabel", {**dict(task.module_map), task.main: text}, 1, task.main, task.cfg)
    assert check_mutant(relabeled, on_data, tools).reason == "same_states"
