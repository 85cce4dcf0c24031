"""The controller-side aggregator of records (the only part of a run that needs the pytest session).

``AliasSession`` collects one record per item from the test reports (with or without pytest-xdist),
computes the aggregate once, prints the summary, writes reports and checks gates. The run itself —
its settings, cases, generations, coverage and grades — is :mod:`pytest_alias.run`'s. A summary or
report failure is printed and never hides test results.
"""

from __future__ import annotations

import json
import platform
import traceback
from typing import Any, cast

import pytest

from .. import __version__
from ..records import Aggregate
from ..report.cost import actual_usage, spent_lines
from ..report.files import write_report
from ..report.gates import GateError
from ..run import Workspace
from ..run.deviations import deviation_line, deviations
from ..tla.toolchain import find_jar
from .transport import RECORD_PROPERTY



def exposure_summary(records: list[dict[str, Any]], split: Any, resamples: int, seed: int,
                     covered: Any = None) -> list[str]:
    """The exposure analysis of this run's records as summary lines (Table 2 and its cells), its
    behavior rows on ``covered`` when the run asked for a covered set."""
    from ..exposure.analysis import ExposureError, analyse  # numpy: at the summary, not at every xdist worker's start-up
    from ..report.exposure_tables import render_markdown

    try:
        analysis = analyse(records, split, resamples=resamples, seed=seed, covered=covered)
    except ExposureError as exc:
        return [f"alias: exposure analysis: {exc}"]
    return ["", *render_markdown(analysis).splitlines()]


class AliasSession:
    """Collects records on the controller and turns them into the summary, reports and gate verdicts."""

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace
        self.settings = workspace.config
        self.records: dict[str, dict[str, Any]] = {}
        self.aggregate: Aggregate | None = None
        self.messages: list[str] = []
        self.failures: list[str] = []  # violated gates and reports that could not be written: the session fails
        self.exposure_lines: list[str] = []
        self.lost: set[str] = set()  # alias items that ended without a record
        self.interrupted = False
        self.agreement: dict[str, Any] | None = None  # sample agreement of the generated texts

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        recorded = False
        if report.when == "call":
            for name, value in report.user_properties:
                if name == RECORD_PROPERTY:
                    record = json.loads(cast(str, value))  # the test module stores the record as JSON text (plugin.state.record_item)
                    self.records[record["id"]] = record  # keyed by case id, never by nodeid
                    recorded = True
        if recorded:
            self.lost.discard(report.nodeid)
        elif report.failed and ("alias" in report.keywords or "::test_tla[" in report.nodeid):
            # An alias item that failed without a record (a crashed xdist worker, whose report carries
            # no keywords, or an error before grading): the aggregate lacks it, and the reports say so.
            self.lost.add(report.nodeid)

    def sorted_records(self) -> list[dict[str, Any]]:
        return [self.records[key] for key in sorted(self.records)]

    def metadata(self) -> dict[str, Any]:
        """Everything the summary's numbers depend on: versions, settings, deviations from the paper, and
        the covered set with how it was obtained (``tla-alias report`` reads them back)."""
        settings = self.settings
        coverage = self.workspace.coverage()
        return {"alias": __version__, "python": platform.python_version(), "tlc": find_jar().tlc_version,
                "models": list(settings.models),
                "grade": settings.grade, "suite": settings.suite, "conditions": list(settings.conditions),
                "samples": settings.samples, "seed": settings.seed, "mode": settings.mode,
                "resamples": settings.resamples, "settings": settings.settings(),
                "prefill": settings.prefill, "max_new_tokens": settings.max_new_tokens,
                "timeout": settings.timeout, "deviations": deviations(settings, self.sorted_records()),
                "renaming_seeds": settings.renaming_seeds(),  # random condition's seeds: index k is rename_seed k
                "coverage": coverage.to_dict() if coverage is not None else None,
                "covered_restricts_rates": settings.covered is not None,
                "complete": not (self.interrupted or self.lost), "interrupted": self.interrupted,
                "items_without_record": sorted(self.lost),
                "cost": {"estimate": self.workspace.cost_estimate, "actual": actual_usage(self.sorted_records())},
                "look_ahead": self.workspace.probe_report,  # which outputs were found long before they were sent
                "agreement": self.agreement}

    def finish(self, session: pytest.Session) -> None:
        """Aggregate, write reports and apply gates (failures become messages, never exceptions)."""
        from ..report.aggregate import aggregate  # numpy: at the summary, not at every xdist worker's start-up

        records = self.sorted_records()
        if not records:
            return
        self.interrupted = session.exitstatus == pytest.ExitCode.INTERRUPTED or bool(session.shouldstop)
        if self.interrupted or self.lost:
            why = ", ".join(part for part in (
                "the run was interrupted" if self.interrupted else "",
                f"{len(self.lost)} item(s) ended without a record" if self.lost else "") if part)
            self.messages.append(f"alias: PARTIAL results ({why}): the summary and reports cover "
                                 f"{len(records)} records only, and the reports say so")
        try:  # from the texts this run generated or read (no new requests); never hides the results
            from ..report.agreement import add_decreases, agreement, generation_outputs

            self.agreement = add_decreases(agreement(generation_outputs(self.workspace.generations)), records,
                                           self.settings.grade)
        except Exception:
            self.messages.append("alias: the sample agreement could not be computed:\n" + traceback.format_exc(limit=3))
        try:
            self.aggregate = aggregate(records, resamples=self.settings.resamples, seed=self.settings.seed,
                                       covered=self.workspace.covered())
        except Exception:
            self.messages.append("alias: the summary could not be computed:\n" + traceback.format_exc(limit=3))
            return
        for path in self.settings.reports:
            try:
                write_report(path, records, self.aggregate, self.metadata())
                self.messages.append(f"alias: wrote {path}")
            except Exception as exc:  # a report the user asked for and did not get fails the session
                message = f"alias: report {path} failed: {exc}"
                self.messages.append(message)
                self.failures.append(message)
        if self.settings.exposure_split is not None:
            self.exposure_lines = exposure_summary(records, self.settings.exposure_split, self.settings.resamples,
                                                   self.settings.seed, self.workspace.covered())
        for gate in self.settings.gates:
            try:
                passed, _, message = gate.check(self.aggregate)
            except GateError as exc:
                passed, message = False, str(exc)
            self.messages.append(message)
            if not passed:
                self.failures.append(message)
        if self.failures and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def _agreement_lines(self) -> list[str]:
        """Per model, the sample agreement beside the decreases printed above it."""
        from ..report.agreement import agreement_lines  # numpy: at the summary, not at every xdist worker's start-up

        lines = [line for model in self.settings.models for line in agreement_lines(self.agreement, model)]
        return [*lines, ""] if lines else []

    def print_summary(self, terminal: Any) -> None:
        from ..report.outcomes import outcome_lines  # numpy: at the summary, not at every xdist worker's start-up
        from ..report.tables import summary_lines

        try:
            if self.aggregate is not None:
                terminal.section("alias summary")
                terminal.write_line(deviation_line(self.settings, self.sorted_records()))  # with searches cut off
                for line in [*summary_lines(self.aggregate), *self._agreement_lines(),
                             *outcome_lines(self.sorted_records()),
                             *spent_lines(self.workspace.cost_estimate, actual_usage(self.sorted_records())),
                             *self.exposure_lines]:
                    terminal.write_line(line)
            skipped = self.workspace.skipped_line  # tasks the suite could not load
            for message in [*([skipped] if skipped else []), *self.messages]:
                terminal.write_line(message)
        except Exception as exc:  # never hide test results behind a summary error
            terminal.write_line(f"alias: summary failed: {exc}")
