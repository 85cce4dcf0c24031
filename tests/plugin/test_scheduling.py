"""Longest-first scheduling: xdist's load scheduler, with the costliest pending items sent first."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_alias.plugin.scheduling import longest_first_scheduler

pytest_plugins = ["pytester"]


class FakeNode:
    """What the scheduler calls on a worker: the items sent to it, in order."""

    def __init__(self, name: str) -> None:
        self.gateway = type("Gateway", (), {"id": name})()
        self.sent: list[int] = []
        self.shutting_down = False

    def send_runtest_some(self, indices: list[int]) -> None:
        self.sent.extend(indices)

    def shutdown(self) -> None:
        self.shutting_down = True


def _scheduled(config: Any, collection: list[str], cost: Any, on_sent: Any = None) -> tuple[Any, list[FakeNode]]:
    """The longest-first scheduler over two fake workers that collected ``collection``, after its first sends."""
    scheduler: Any = longest_first_scheduler(config, None, cost, on_sent)
    assert scheduler is not None
    nodes = [FakeNode("gw0"), FakeNode("gw1")]
    for node in nodes:
        scheduler.add_node(node)
        scheduler.add_node_collection(node, collection)
    scheduler.schedule()
    return scheduler, nodes


def test_the_costliest_items_go_out_first(pytester: pytest.Pytester) -> None:
    config = pytester.parseconfig("-p", "xdist", "--tx=2*popen", "--dist=load")
    collection = [f"test_tla.py::test_tla[item{i}]" for i in range(12)]
    costs = {collection[3]: 50.0, collection[9]: 40.0, collection[10]: 40.0}
    scheduler, nodes = _scheduled(config, collection, lambda nodeid: costs.get(nodeid, 0.0))
    # Two items per worker at first (xdist's chunk): the slowest three lead, then collection order.
    assert nodes[0].sent == [3, 9] and nodes[1].sent == [10, 0]
    while scheduler.pending:  # as items finish, the scheduler refills in the same order
        for node in nodes:
            for index in list(scheduler.node2pending[node]):
                scheduler.mark_test_complete(node, index)
    assert sorted(i for node in nodes for i in node.sent) == list(range(12))  # every item exactly once


def test_the_self_check_time_is_kept_with_the_cached_check(tools, tmp_path) -> None:
    """The scheduler's cost is the reference self-check's time: measured once, then read from the cache."""
    from pytest_alias.run.coverage import compute_coverage
    from pytest_alias.tasks.suites import load_suite

    task = next(t for t in load_suite("builtin") if t.id == "die-hard")
    first = compute_coverage([(task, task.original())], tools=tools, mode="paper", timeout=60, cache_root=tmp_path,
                             live=False)
    again = compute_coverage([(task, task.original())], tools=tools, mode="paper", timeout=60, cache_root=tmp_path,
                             live=False)
    assert first.covered == {"die-hard"} and first.seconds["die-hard"] > 0
    assert again.seconds["die-hard"] == pytest.approx(first.seconds["die-hard"], abs=0.001)
    assert "seconds" not in first.to_dict()  # the machine's, not the run's: not in the run's JSON


def test_a_cost_raised_between_sends_counts_and_each_sent_item_is_heard(pytester: pytest.Pytester) -> None:
    """The look ahead raises an item's cost while items run: the next send takes it; ``on_sent`` hears
    each node id as it goes out, once."""
    config = pytester.parseconfig("-p", "xdist", "--tx=2*popen", "--dist=load")
    collection = [f"test_tla.py::test_tla[item{i}]" for i in range(8)]
    costs: dict[str, float] = {}
    heard: list[str] = []
    scheduler, nodes = _scheduled(config, collection, lambda nodeid: costs.get(nodeid, 0.0), heard.append)
    assert nodes[0].sent == [0, 1] and nodes[1].sent == [2, 3]
    costs[collection[7]] = 300.0  # found long meanwhile
    scheduler.mark_test_complete(nodes[0], 0)
    assert nodes[0].sent[-1] == 7
    assert heard == [collection[i] for i in (0, 1, 2, 3, 7)]


def test_items_whose_self_check_is_still_to_come_go_after_the_others() -> None:
    """While the controller's thread has a task's self-check still to make, its items would only grade and
    then hold their worker waiting for it: the other items go first, and once it is made, the costs hold."""
    from types import SimpleNamespace

    from pytest_alias.plugin.controller import AliasController

    coming = {"big"}
    controller = AliasController(None, SimpleNamespace(self_check_coming=coming.__contains__))  # type: ignore[arg-type]
    controller._costs = {"big-s0": 500.0, "big-s1": 400.0, "small-s0": 2.0, "error-s0": 0.0}
    controller._task_of = {"big-s0": "big", "big-s1": "big", "small-s0": "small", "error-s0": "error"}
    ids = [f"test_tla.py::test_tla[{case}]" for case in controller._costs]
    order = sorted(ids, key=lambda nodeid: -controller.item_cost(nodeid))
    assert [nodeid.split("[")[1][:-1] for nodeid in order] == ["small-s0", "error-s0", "big-s0", "big-s1"]
    coming.clear()  # the self-check is made
    assert controller.item_cost(ids[0]) == 500.0
