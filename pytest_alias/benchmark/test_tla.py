"""One item per task × condition × sample (× model): grade the model's output for that case."""

from __future__ import annotations

import pytest

from pytest_alias.evaluate import applicable_grades, evaluate, failure_summary
from pytest_alias.generation import generation_fields
from pytest_alias.plugin import record_item


def test_tla(request: pytest.FixtureRequest, alias_case, alias_settings, alias_output) -> None:
    generation = generation_fields(alias_output)
    # Grades a task cannot take (TLC grades without a cfg) are recorded as not applicable, so the
    # summary can give both the rate over tasks with a cfg and the paper's rule that counts them failing.
    record = evaluate(alias_case, alias_output.text, alias_settings.grades, tools=alias_settings.tools,
                      timeout=alias_settings.timeout, mode=alias_settings.mode, generation=generation)
    record["seed"] = alias_settings.seed  # with versions.condition: which renaming the text answered
    record_item(request.node, record)
    if alias_output.error is not None:  # one line; the traceback behind -v
        detail = (alias_output.raw or {}).get("error_detail") if isinstance(alias_output.raw, dict) else None
        message = f"model error: {alias_output.error}"
        if detail and request.config.get_verbosity() > 0:
            message += "\n" + detail
        if alias_settings.no_fail:
            pytest.xfail(message.splitlines()[0])
        pytest.fail(message, pytrace=False)
    if not applicable_grades(alias_case, alias_settings.grades):
        pytest.skip("task has no TLC configuration: only the parse grade applies")
    failure = failure_summary(record)
    if failure is not None:
        if alias_settings.no_fail:  # one short line each: the outcome and the first failing grade's reason
            pytest.xfail(f"{record['outcome']}: {failure.split('; ')[0][:160]}")
        pytest.fail(failure, pytrace=False)
