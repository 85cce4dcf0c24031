"""Appendix N: reference token lengths per condition, from likelihood rows."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from pytest_alias.exposure.lengths import length_lines, reference_lengths


def _row(model: str, task: str, condition: str, tokens: Any) -> dict[str, Any]:
    return {"format": "alias-likelihood", "model": model, "task": task, "condition": condition,
            "reference_tokens": tokens}


def test_means_compare_the_same_tasks_in_every_condition() -> None:
    rows = [_row("a", "t1", "original", 100), _row("a", "t1", "random", 130),
            _row("b", "t2", "original", 200), _row("b", "t2", "random", 260),
            _row("b", "t3", "original", 50),  # no renamed count: left out of both means
            _row("a", "t4", "random", None)]  # an old row without a count
    lengths = reference_lengths(rows, {"a": "qwen", "b": "qwen"})
    assert lengths == [{"family": "qwen", "condition": "original", "tasks": 2, "mean_tokens": 150.0},
                       {"family": "qwen", "condition": "random", "tasks": 2, "mean_tokens": 195.0}]
    assert "| `qwen` | random | 2 | 195 |" in length_lines(lengths)
    assert reference_lengths([]) == [] and length_lines([]) == []


def test_random_names_cost_tokens_under_a_real_tokenizer(tokenizer: Any) -> None:
    """The paper's premise, checked: SmolLM2's tokenizer splits the renamed references into more tokens."""
    from pytest_alias.cir.conditions import random_condition
    from pytest_alias.exposure.likelihood import reference_tokens
    from pytest_alias.tasks.suites import load_suite

    model = SimpleNamespace(tokenizer=tokenizer)  # what reference_tokens reads of a model (conftest's tokenizer)
    rows = []
    for task in load_suite("builtin")[:6]:
        for condition in (task.original(), random_condition(task, 0, verify=False).condition):
            rows.append(_row("smollm2", task.id, condition.kind,
                             reference_tokens(model, condition.module_map[condition.main])))
    original, renamed = reference_lengths(rows)
    assert original["condition"] == "original" and renamed["condition"] == "random" and original["tasks"] == 6
    assert renamed["mean_tokens"] > original["mean_tokens"]
    assert reference_tokens(object(), "x") is None  # a model without a tokenizer has no count
