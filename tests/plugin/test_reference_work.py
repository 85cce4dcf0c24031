"""Reference work that never blocks: each task's self-check is made by its first item (one process at
a time, under a lock), read by the others, shared within a run even when the machine caused a
failure, and the scheduler's costs put the long poles first."""

from __future__ import annotations

from pathlib import Path

import pytest
from filelock import FileLock

from pytest_alias.records import record_outcome
from pytest_alias.run.costs import SELF_CHECK_WEIGHT, graded_before, item_cost
from pytest_alias.run.coverage import (SELF_CHECK_FOLDER, SelfCheckPending, compute_coverage, self_check_key,
                                       self_check_stored, timed_self_check)
from pytest_alias.run.record import not_gradeable_result, settle_not_gradeable
from pytest_alias.tasks.suites import load_suite
from pytest_alias.tla.cache import RunCache


@pytest.fixture(scope="module")
def die_hard():
    return next(task for task in load_suite("builtin") if task.id == "die-hard")


def _lock(tools, condition, root: Path) -> FileLock:
    key = self_check_key(condition, mode="paper", timeout=60, toolchain=tools.toolchain.identity)
    path = root / SELF_CHECK_FOLDER / "locks" / f"{key}.lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    return FileLock(str(path))


def test_a_self_check_another_process_is_making_is_not_waited_for(tools, die_hard, tmp_path: Path) -> None:
    condition = die_hard.original()
    cache = RunCache(tmp_path / SELF_CHECK_FOLDER)
    with _lock(tools, condition, tmp_path):  # another worker holds the task's lock
        with pytest.raises(SelfCheckPending):
            timed_self_check(condition, tools=tools, mode="paper", timeout=60, cache=cache, wait=False)
        assert not self_check_stored(condition, tools=tools, mode="paper", timeout=60, cache_root=tmp_path)
    reason, seconds = timed_self_check(condition, tools=tools, mode="paper", timeout=60, cache=cache, wait=False)
    assert reason is None and seconds > 0
    assert self_check_stored(condition, tools=tools, mode="paper", timeout=60, cache_root=tmp_path)
    # Stored: a later item (or run) reads it, even while the lock is held.
    with _lock(tools, condition, tmp_path):
        assert timed_self_check(condition, tools=tools, mode="paper", timeout=60, cache=cache, wait=False) == \
            (None, pytest.approx(seconds, abs=0.001))


def test_a_failure_the_machine_caused_is_kept_for_its_run_only(tools, die_hard, tmp_path: Path) -> None:
    condition = die_hard.original()
    cache = RunCache(tmp_path / SELF_CHECK_FOLDER)
    key = self_check_key(condition, mode="paper", timeout=60, toolchain=tools.toolchain.identity)
    cache.put(key, {"reason": "TLC stopped at the time limit (60 s)", "seconds": 60.0, "run": "run-1"})
    assert self_check_stored(condition, tools=tools, mode="paper", timeout=60, cache_root=tmp_path, run_uid="run-1")
    assert not self_check_stored(condition, tools=tools, mode="paper", timeout=60, cache_root=tmp_path,
                                 run_uid="run-2")
    assert timed_self_check(condition, tools=tools, mode="paper", timeout=60, cache=cache, run_uid="run-1") == \
        ("TLC stopped at the time limit (60 s)", 60.0)
    # Another run checks again (and the reference passes there).
    assert timed_self_check(condition, tools=tools, mode="paper", timeout=60, cache=cache, run_uid="run-2")[0] is None


def test_coverage_of_one_task_raises_busy_rather_than_wait(tools, die_hard, tmp_path: Path) -> None:
    with _lock(tools, die_hard.original(), tmp_path), pytest.raises(SelfCheckPending):
        compute_coverage([(die_hard, die_hard.original())], tools=tools, mode="paper", timeout=60,
                         cache_root=tmp_path, live=False, wait=False)


def _record(grades: dict) -> dict:
    record = {"grades": grades}
    record["outcome"] = record_outcome(record)
    return record


def test_a_self_check_known_late_settles_the_grade_as_if_known_before() -> None:
    failed = {"passed": False, "reason": "no mapping passed", "seconds": 3.0, "details": {"stage": "mapping"}}
    record = _record({"parse": {"passed": True, "reason": None, "seconds": 0.1, "details": {}}, "behavior": failed})
    settle_not_gradeable(record, "behavior", "it fails itself")
    assert record["grades"]["behavior"] == not_gradeable_result("it fails itself")
    assert record["outcome"] == _record({**record["grades"]})["outcome"]
    # A model error stays a model error, as evaluate records it whatever the self-check says.
    model_error = {"passed": False, "reason": "model error: x", "seconds": 0.0, "details": {"stage": "model"}}
    record = _record({"behavior": dict(model_error)})
    settle_not_gradeable(record, "behavior", "it fails itself")
    assert record["grades"]["behavior"] == model_error


def test_item_costs_put_the_self_check_and_slow_references_first() -> None:
    grades = ("parse", "name", "behavior")
    plain = item_cost(10.0, grades, makes_self_check=False, graded_before=False)
    first = item_cost(10.0, grades, makes_self_check=True, graded_before=False)
    assert first == pytest.approx(plain + SELF_CHECK_WEIGHT * 10.0)
    assert item_cost(20.0, grades, makes_self_check=False, graded_before=False) > plain
    assert item_cost(10.0, grades, makes_self_check=False, graded_before=True) == 0.0
    assert item_cost(None, ("parse",), makes_self_check=False, graded_before=False) > 0.0


def test_an_output_the_memo_holds_is_known_to_cost_nothing(tools, die_hard) -> None:
    from pytest_alias.grading.cascade import grade_all
    from pytest_alias.grading.context import GradeContext

    condition = die_hard.original()
    text = condition.module_map[condition.main] + "\n\\* a comment no other test writes\n"
    ctx = GradeContext(tools, timeout=60, mode="paper", name_rule="paper", search_budget=None, shortcuts=True)
    assert not graded_before(text, condition, ("parse", "name"), ctx)
    grade_all(text, condition, ["parse", "name"], ctx)
    assert graded_before(text, condition, ("parse", "name"), ctx)


def _workspace(tmp_path: Path, suite_ids: str = "die-hard,hour-clock"):
    from pytest_alias.run import RunConfig
    from pytest_alias.run.options import defaults
    from pytest_alias.run.workspace import Workspace

    return Workspace(RunConfig.from_options({**defaults(), "model": ("reference",), "grade": "behavior",
                                             "suite": f"builtin?ids={suite_ids}", "samples": 1,
                                             "conditions": ("original",), "cache_dir": str(tmp_path)}))


def _not_a_copy(reference: str) -> str:
    """The reference with one more definition: the same behaviors, not a copy."""
    cut = reference.rindex("====")
    return reference[:cut] + "Unused == 1\n" + reference[cut:]


def _graded(workspace, edit=lambda text: text) -> dict[str, dict]:
    from pytest_alias.models.base import Generation

    return {case.id: workspace.grade(case, Generation(edit(case.condition.module_map[case.condition.main]), "reference"))
            for case in workspace.cases()}


def _verdicts(records: dict[str, dict]) -> dict[str, tuple]:
    return {key: (r["grades"]["behavior"]["passed"], r["grades"]["behavior"]["reason"], r["outcome"])
            for key, r in records.items()}


def test_costly_self_checks_made_beside_the_items_give_the_same_records(tmp_path: Path, monkeypatch) -> None:
    from pytest_alias.run import costs

    inline = _workspace(tmp_path / "inline")
    expected = _verdicts(_graded(inline, _not_a_copy))
    monkeypatch.setattr(costs, "in_background", lambda reference_s: True)  # every self-check is costly
    beside = _workspace(tmp_path / "beside")
    assert all(beside.self_check_in_background(case.task) for case in beside.cases())
    assert sorted(beside.start_background_self_checks(beside.cases())) == ["die-hard", "hour-clock"]
    records = _graded(beside, _not_a_copy)
    beside.stop_background_self_checks()
    assert _verdicts(records) == expected
    assert beside.coverage().covered == inline.coverage().covered == {"die-hard", "hour-clock"}
    # No item waited for a self-check before grading.
    assert all(r["timings"]["self_check_s"] < 1.0 for r in records.values())


def test_an_item_whose_self_check_is_still_to_come_grades_then_takes_its_verdict(tmp_path: Path, monkeypatch) -> None:
    """A reference that fails itself: the item grades at once and is settled not gradeable afterwards,
    the same record the item writes when the self-check came first."""
    first = _workspace(tmp_path / "first", "die-hard")
    from pytest_alias.grading import validation

    passed = validation.guarded_grade

    def failing(*args, **kwargs):
        result = passed(*args, **kwargs)
        return type(result)(result.grade, False, "forced", result.details, result.seconds)

    monkeypatch.setattr(validation, "guarded_grade", failing)
    known_first = _verdicts(_graded(first))
    later = _workspace(tmp_path / "later", "die-hard")
    monkeypatch.setattr(later, "self_check_in_background", lambda task: True)  # nobody makes it before the item
    records = _graded(later)
    assert _verdicts(records) == known_first
    assert all(r["grades"]["behavior"].get("not_gradeable") for r in records.values())


def test_a_copy_of_the_reference_waits_for_its_self_check_and_other_outputs_do_not(tmp_path: Path) -> None:
    """A copy's grade reads the self-check (it decides its refinement checks), so the self-check comes
    first; any other output is graded while a thread beside it makes the self-check."""
    from pytest_alias.models.base import Generation

    copy_first = _workspace(tmp_path / "copy", "die-hard")
    (case,) = copy_first.cases()
    record = copy_first.grade(case, Generation(case.condition.module_map[case.condition.main], "reference"))
    assert record["timings"]["self_check_s"] > 0 and record["timings"]["self_check_wait_s"] == 0
    assert record["grades"]["behavior"]["details"]["attempts"][0].get("by_copy")

    other = _workspace(tmp_path / "other", "die-hard")
    (case,) = other.cases()
    text = _not_a_copy(case.condition.module_map[case.condition.main])
    record = other.grade(case, Generation(text, "reference"))
    assert record["timings"]["self_check_s"] < 0.5  # nothing made before grading
    assert other.coverage().covered == {"die-hard"}  # the thread beside the grades made it
    assert record["grades"]["behavior"]["passed"]


def test_a_reference_without_a_cached_check_is_costed_by_its_distinct_states() -> None:
    from pytest_alias.run.costs import in_background, reference_seconds

    assert reference_seconds(12.0, 10) == 12.0  # the cached check time wins
    assert reference_seconds(None, None) is None
    small, large = reference_seconds(None, 1_000), reference_seconds(None, 1_000_000)
    assert small is not None and large is not None and large > 100 * small / 2
    assert in_background(large) and not in_background(small) and not in_background(None)


def test_the_payload_tells_workers_to_let_the_controllers_self_checks_go_first() -> None:
    from pytest_alias.models.base import Generation
    from pytest_alias.plugin.transport import decode_payload, encode_payload

    generations = {("t", "original", 0, "m"): Generation("text", "m")}
    decoded, yield_cpu = decode_payload(encode_payload(generations, yield_cpu=True))
    assert yield_cpu and decoded[("t", "original", 0, "m")].text == "text"
    assert decode_payload(encode_payload(generations))[1] is False


def test_a_failure_with_a_timed_out_check_is_the_machines_even_when_its_reason_is_another_mappings() -> None:
    """The search ranks a violation above a time limit: a failing search whose identity mapping timed out
    quotes another mapping's violation, and may pass on a faster try, so it is never stored for good."""
    from pytest_alias.grading.endings import machine_made
    from pytest_alias.grading.memo import storable
    from pytest_alias.grading.result import GradeResult

    violated = {"attempts": [{"forward": "timeout"}, {"forward": "violated"}], "stage": "mapping"}
    failing = GradeResult("behavior", False, "none of 2 mappings passed; forward check failed under mapping "
                                             "{x->y}: invariant Inv is violated", violated, 300.0)
    assert machine_made(failing) and not storable(failing)
    plain = GradeResult("behavior", False, "none of 2 mappings passed; invariant Inv is violated",
                        {"attempts": [{"forward": "violated"}], "stage": "mapping"}, 1.0)
    assert not machine_made(plain) and storable(plain)
    assert not machine_made(GradeResult("behavior", True, None, violated, 1.0))


def test_a_model_error_neither_makes_nor_waits_for_its_tasks_self_check(tmp_path: Path) -> None:
    """Its record is a model error whatever the self-check says, so its worker goes on at once; the
    scheduler expects it to cost nothing."""
    from pytest_alias.models.base import Generation

    workspace = _workspace(tmp_path, "die-hard")
    case = workspace.cases()[0]
    record = workspace.grade(case, Generation.failed("reference", "the provider refused"))
    assert record["grades"]["behavior"]["reason"].startswith("model error:")
    assert record["timings"]["self_check_wait_s"] == 0.0
    assert not self_check_stored(case.task.original(), tools=workspace.tools, mode="paper", timeout=300,
                                 cache_root=workspace.cache_root, run_uid=workspace.run_uid)
    assert workspace.expected_costs([case], {case.key: Generation.failed("reference", "x")}) == {case.id: 0.0}
