"""One item per task × condition × sample (× model): grade the model's output for that case."""

from __future__ import annotations

import pytest

from pytest_alias.run.record import applicable_grades, failure_summary
from pytest_alias.models.redact import shorten  # cuts a line only after redacting it whole
from pytest_alias.plugin.state import record_item
from pytest_alias.records import Outcome


def test_tla(request: pytest.FixtureRequest, alias_case, alias_workspace, alias_output) -> None:
    settings = alias_workspace.config
    # Grades a task cannot take (TLC grades without a cfg) are recorded as not applicable, so the
    # summary can give both the rate over tasks with a cfg and the paper's rule that counts them failing;
    # a grade the task's reference fails against itself is recorded as not gradeable.
    record = alias_workspace.grade(alias_case, alias_output)
    record_item(request.node, record)
    if alias_output.error is not None:  # one line; the traceback behind -v
        detail = (alias_output.raw or {}).get("error_detail") if isinstance(alias_output.raw, dict) else None
        message = f"model error: {alias_output.error}"
        if detail and request.config.get_verbosity() > 0:
            message += "\n" + detail
        if settings.no_fail:
            pytest.xfail(message.splitlines()[0])
        pytest.fail(message, pytrace=False)
    if not applicable_grades(alias_case, settings.grades):
        pytest.skip("task has no TLC configuration: only the parse grade applies")
    failure = failure_summary(record)
    if failure is not None:
        if settings.no_fail:  # one short line each: the outcome and the first failing grade's reason
            pytest.xfail(f"{Outcome(record['outcome']).label}: {shorten(failure.split('; ')[0], 160)}")
        pytest.fail(failure, pytrace=False)
    unjudged = [f"{grade}: {result['reason']}" for grade, result in record["grades"].items()
                if result.get("not_gradeable")]
    if unjudged:  # the task says nothing about the model under this grade: neither pass nor fail
        pytest.skip(shorten("; ".join(unjudged), 300))
