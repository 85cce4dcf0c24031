"""``--alias-timeout-from-reference K``: a per-task TLC limit from the reference's own check (a deviation)."""

from __future__ import annotations

from pytest_alias.run.deviations import deviations
from pytest_alias.run.options import defaults
from pytest_alias.run import RunConfig
from pytest_alias.run.limits import MIN_LIMIT, reference_limit
from pytest_alias.run.workspace import Workspace
from pytest_alias.tasks.suites import load_suite
from pytest_alias.tla.runner import TlaTools


def _task(task_id: str):
    return next(t for t in load_suite("builtin") if t.id == task_id)


def test_the_limit_follows_the_reference_between_the_floor_and_the_fixed_limit(tmp_path) -> None:
    # A cache of its own: the limit reads the reference's check from it, so both see the same seconds.
    tools = TlaTools(cache_dir=tmp_path, use_cache=True)
    task = _task("die-hard")
    check = tools.tlc(task.original().spec(), timeout=300.0)  # the key holds the limit as the run gives it
    assert check.ok
    limit = reference_limit(task, tools, scale=1000.0, ceiling=300.0)
    assert limit == round(min(300.0, max(MIN_LIMIT, 1000.0 * check.seconds)), 1)
    assert reference_limit(task, tools, scale=0.001, ceiling=300.0) == MIN_LIMIT  # a quick reference: the floor
    assert reference_limit(task, tools, scale=1000.0, ceiling=4.0) == 4.0  # never above the fixed limit


def test_a_task_without_a_cfg_keeps_the_fixed_limit(tools) -> None:
    assert reference_limit(_task("ticket-dispenser"), tools, scale=2.0, ceiling=300.0) == 300.0


def test_the_option_is_off_by_default_and_a_named_deviation(tmp_path) -> None:
    plain = RunConfig.from_options({**defaults(), "model": ("reference",)})
    assert plain.timeout_from_reference is None and "timeout_from_reference" not in plain.settings()
    assert Workspace(plain).tlc_limit(_task("die-hard")) == 300.0
    chosen = RunConfig.from_options({**defaults(), "model": ("reference",), "timeout_from_reference": 5.0,
                                     "cache_dir": str(tmp_path)})
    assert chosen.settings()["timeout_from_reference"] == 5.0
    assert any("5 × the reference's own check time" in line for line in deviations(chosen))
    limit = Workspace(chosen).tlc_limit(_task("die-hard"))
    assert MIN_LIMIT <= limit <= 300.0


def test_every_record_names_its_limit(tmp_path) -> None:
    from pytest_alias.run.cases import Case
    from pytest_alias.models.base import Generation

    config = RunConfig.from_options({**defaults(), "model": ("reference",), "grade": "parse",
                                     "timeout_from_reference": 5.0, "cache_dir": str(tmp_path)})
    workspace = Workspace(config)
    task = _task("die-hard")
    condition = task.original()
    record = workspace.grade(Case(task, condition, 0, "reference"),
                             Generation(condition.module_map[condition.main], "reference"))
    assert record["grades"]["parse"]["passed"]
    assert record["tlc_limit"] == {"seconds": workspace.tlc_limit(task), "from_reference": 5.0}
