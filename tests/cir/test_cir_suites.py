"""Suites loaded through CIR get CIR's re-verification for the task sets that need it."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_alias.cir import suites as cir_suites
from pytest_alias.cir.prepared import verify_renamed
from pytest_alias.tasks import suites as task_suites


def test_cir_hands_its_verifier_to_the_task_loaders(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[dict[str, Any]] = []

    def loader(spec: str, **kwargs: Any) -> Any:
        calls.append({"spec": spec, **kwargs})
        return task_suites.SuiteReport(spec, (), ())

    monkeypatch.setattr(task_suites, "load_suite_report", loader)
    cir_suites.load_suite_report("tlabench:x#test", ids="1,2")
    assert cir_suites.load_suite("tlabench:x#train", description_kind="intent_claude") == []
    assert calls == [
        {"spec": "tlabench:x#test", "description_kind": None, "ids": "1,2", "verify": verify_renamed},
        {"spec": "tlabench:x#train", "description_kind": "intent_claude", "ids": None, "verify": verify_renamed},
    ]
