"""Run settings (validated options) and the controller-side aggregator of records.

``Settings`` turns option strings into a validated run description and builds cases and
generations; ``AliasSession`` collects one record per item from the test reports (with or without
pytest-xdist), computes the aggregate once, prints the summary, writes reports and checks gates.
A summary or report failure is printed and never hides test results.
"""

from __future__ import annotations

import functools
import json
import platform
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import pytest

from . import __version__
from .cases import Case, build_cases
from .evaluate import selected_grades
from .plugin import RECORD_PROPERTY
from .records import Aggregate
from .report.files import REPORT_SUFFIXES
from .report.gates import Gate, GateError, parse_gate



def _meaningful_maps(path: Any) -> dict[str, dict[str, str]]:
    """Proposed meaningful names per task, from a JSON file (empty when no file is given)."""
    if not path:
        return {}
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"--alias-meaningful-maps {path}: not a readable JSON file ({exc})") from None
    if not isinstance(data, dict) or not all(isinstance(m, dict) for m in data.values()):
        raise ValueError(f"--alias-meaningful-maps {path}: expected {{task id: {{old name: new name}}}}")
    return {str(task): {str(k): str(v) for k, v in names.items()} for task, names in data.items()}


def _exposure_split(path: Any) -> Any:
    """The split ``--alias-exposure-split`` names, loaded now so a bad file stops the run before any work."""
    if not path:
        return None
    from .exposure.split import SplitError, load_split

    try:
        return load_split(path)
    except SplitError as exc:
        raise ValueError(f"--alias-exposure-split: {exc}") from None


def _covered(value: Any) -> Any:
    """``auto``, or the covered tasks of a ``validate-grader --json`` file, read now (a bad file is a usage error)."""
    if not value or value == "auto":
        return value or None
    from .report.paper import covered_tasks

    try:
        return frozenset(covered_tasks(json.loads(Path(value).read_text(encoding="utf-8"))))
    except (OSError, ValueError) as exc:
        raise ValueError(f"--alias-covered {value}: {exc}") from None


def covered_now(records: list[dict[str, Any]], settings: Settings) -> frozenset[str]:
    """``--alias-covered=auto``: the run's tasks whose reference passes the behavior grade against
    itself (the positive control of appendix J), graded now through the run cache."""
    from .grading.validation import guarded_grade

    wanted = {r["task"] for r in records}
    covered = set()
    for task, conditions in settings.prepared_conditions(("original",)):
        if task.id in wanted and task.cfg is not None:
            original = conditions[0][0]
            if guarded_grade(original.module_map[original.main], original, "behavior", mode=settings.mode,
                             tools=settings.tools, timeout=settings.timeout).passed:
                covered.add(task.id)
    return frozenset(covered)


@dataclass(frozen=True)
class Settings:
    """The validated options of one benchmark run."""

    models: tuple[str, ...]
    grade: str
    grades: tuple[str, ...]
    suite: str
    conditions: tuple[str, ...]
    samples: int
    seed: int
    timeout: float
    mode: str
    cache_dir: Path | None
    store_mode: str
    reports: tuple[Path, ...]
    gates: tuple[Gate, ...]
    no_fail: bool
    resamples: int
    meaningful_maps: dict[str, dict[str, str]] = field(default_factory=dict)
    lora: str | None = None
    prefill: str = "none"  # the paper gives no prefill; "header" is an explicit deviation
    max_new_tokens: int | None = None
    exposure_split: Any = None  # an ExposureSplit, read and checked at start-up
    covered: Any = None  # None, "auto", or the covered task ids from a validate-grader file
    save_outputs: Path | None = None  # a replay file every generated output is written to
    _memo: dict = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> Settings:
        """Settings from ``options.resolve``'s typed values; raises ValueError saying what is wrong."""
        reports = tuple(Path(p) for p in options["report"] or ())
        for path in reports:
            if path.suffix.lower() not in REPORT_SUFFIXES:
                raise ValueError(f"--alias-report {path}: the suffix must be one of {', '.join(REPORT_SUFFIXES)}")
        try:
            gates = tuple(parse_gate(text) for text in options["gate"] or ())
        except GateError as exc:
            raise ValueError(str(exc)) from None
        conditions = tuple(options["conditions"])
        if "meaningful" in conditions and not options.get("meaningful_maps"):
            raise ValueError("--alias-conditions includes meaningful, which needs --alias-meaningful-maps "
                             "(a JSON file {task id: {old name: new name}})")
        return cls(
            models=tuple(m for m in options["model"] or () if m), grade=options["grade"],
            grades=tuple(selected_grades(options["grade"])), suite=options["suite"], conditions=conditions,
            samples=options["samples"], seed=options["seed"], timeout=options["timeout"], mode=options["mode"],
            cache_dir=Path(options["cache_dir"]).expanduser() if options["cache_dir"] else None,
            store_mode=options["store"], reports=reports, gates=gates, no_fail=bool(options["no_fail"]),
            resamples=options["resamples"], meaningful_maps=_meaningful_maps(options.get("meaningful_maps")),
            lora=options.get("lora") or None, prefill=options.get("prefill") or "none",
            max_new_tokens=options.get("max_new_tokens"), exposure_split=_exposure_split(options.get("exposure_split")),
            covered=_covered(options.get("covered")),
            save_outputs=Path(options["save_outputs"]).expanduser() if options.get("save_outputs") else None,
        )

    # ---------------------------------------------------------------- shared objects (per process)

    @functools.cached_property
    def tools(self) -> Any:
        from .tla.runner import TlaTools, default_tools

        return TlaTools(cache_dir=self.cache_dir) if self.cache_dir else default_tools()

    def condition_cache(self) -> Any:
        """The prepared-condition cache of this run's toolchain (under the cache folder)."""
        if "conditions" not in self._memo:
            from .cir.prepared import ConditionCache
            from .tla.toolchain import find_jar

            self._memo["conditions"] = ConditionCache(self.cache_dir, find_jar().sha256)
        return self._memo["conditions"]

    def cases(self, *, live: bool = False) -> list[Case]:
        """Every case of the run, sorted (the same list in every xdist worker).

        Conditions come from the condition cache; what it lacks is built and verified here, which
        the controller does before any worker starts. A progress line appears once something has
        to be built, so a fully cached run stays silent.
        """
        if "cases" not in self._memo:
            self._memo["cases"] = build_cases(self.prepared_conditions(live=live), self.models, self.samples)
        return self._memo["cases"]

    def prepared_conditions(self, kinds: tuple[str, ...] | None = None, *, live: bool = False) -> list[tuple[Any, Any]]:
        """``(task, [(condition or None, skip reason), …])`` per task of the suite, sorted by id, for
        ``kinds`` (this run's conditions by default), from the condition cache or built and stored."""
        from .cir.prepared import prepare_all
        from .tasks.suites import SuiteError, load_suite

        try:
            tasks = sorted(load_suite(self.suite), key=lambda task: task.id)
        except SuiteError as exc:
            raise ValueError(str(exc)) from None
        return prepare_all(self.condition_cache(), tasks, kinds or self.conditions, seed=self.seed,
                           meaningful_maps=self.meaningful_maps, tools=lambda: self.tools, live=live)

    def _model_options(self, spec: str) -> dict[str, Any]:
        return {"lora": self.lora} if self.lora and spec.startswith("hf:") else {}

    def check_models(self) -> None:
        """Raise ValueError for the first model that cannot be used (unknown, missing extra, key or file)."""
        from .models.registry import default_registry

        registry = default_registry()
        for spec in self.models:
            try:
                model = registry.check(spec, **self._model_options(spec))
            except (ValueError, ImportError, OSError) as exc:  # ModelSpecError, ReplayError, missing extras
                raise ValueError(f"--alias-model {spec}: {exc}") from None
            if model is not None:
                self._memo.setdefault("models", {})[spec] = model

    def model(self, spec: str) -> Any:
        """The model ``spec`` names, created once per process."""
        models = self._memo.setdefault("models", {})
        if spec not in models:
            from .models.registry import default_registry

            try:
                models[spec] = default_registry().create(spec, **self._model_options(spec))
            except (ValueError, ImportError, OSError) as exc:  # unknown model, missing key or extra
                raise ValueError(f"--alias-model {spec}: {exc}") from None
        return models[spec]

    def store(self) -> Any:
        """The generation store in this run's mode."""
        from .models.store import GenerationStore

        return GenerationStore(self.cache_dir / "generations" if self.cache_dir else None, self.store_mode)

    def generate(self, cases: list[Case], *, live: bool) -> dict[tuple[str, str, int, str], Any]:
        """Each case's generation, once, through the store, with a progress line."""
        from .generation import generate_cases

        return generate_cases(cases, model_for=self.model, store=self.store(), seed=self.seed,
                              prefill=self.prefill, max_new_tokens=self.max_new_tokens, live=live)


def exposure_summary(records: list[dict[str, Any]], split: Any, resamples: int, seed: int) -> list[str]:
    """The exposure analysis of this run's records as summary lines (Table 2 and its cells)."""
    from .exposure.analysis import ExposureError, analyse
    from .exposure.tables import render_markdown

    try:
        analysis = analyse(records, split, resamples=resamples, seed=seed)
    except ExposureError as exc:
        return [f"alias: exposure analysis: {exc}"]
    return ["", *render_markdown(analysis).splitlines()]


class AliasSession:
    """Collects records on the controller and turns them into the summary, reports and gate verdicts."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.records: dict[str, dict[str, Any]] = {}
        self.aggregate: Aggregate | None = None
        self.messages: list[str] = []
        self.failures: list[str] = []  # violated gates and reports that could not be written: the session fails
        self.exposure_lines: list[str] = []
        self.lost: set[str] = set()  # alias items that ended without a record
        self.interrupted = False

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        recorded = False
        if report.when == "call":
            for name, value in report.user_properties:
                if name == RECORD_PROPERTY:
                    record = json.loads(cast(str, value))  # plugin.py stores the record as JSON text
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
        from .deviations import deviations

        settings = self.settings
        return {"alias": __version__, "python": platform.python_version(), "models": list(settings.models),
                "grade": settings.grade, "suite": settings.suite, "conditions": list(settings.conditions),
                "samples": settings.samples, "seed": settings.seed, "mode": settings.mode,
                "resamples": settings.resamples, "prefill": settings.prefill, "max_new_tokens": settings.max_new_tokens,
                "timeout": settings.timeout, "deviations": deviations(settings),
                "complete": not (self.interrupted or self.lost), "interrupted": self.interrupted,
                "items_without_record": sorted(self.lost)}

    def finish(self, session: pytest.Session) -> None:
        """Aggregate, write reports and apply gates (failures become messages, never exceptions)."""
        from .report.aggregate import aggregate
        from .report.files import write_report

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
        try:
            covered = self.settings.covered
            if covered == "auto":
                covered = covered_now(records, self.settings)
            self.aggregate = aggregate(records, resamples=self.settings.resamples, seed=self.settings.seed,
                                       covered=covered)
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
                                                   self.settings.seed)
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

    def print_summary(self, terminal: Any) -> None:
        from .deviations import deviation_line
        from .report.outcomes import outcome_lines
        from .report.tables import summary_lines

        try:
            if self.aggregate is not None:
                terminal.section("alias summary")
                terminal.write_line(deviation_line(self.settings))
                for line in [*summary_lines(self.aggregate), *outcome_lines(self.sorted_records()),
                             *self.exposure_lines]:
                    terminal.write_line(line)
            for message in self.messages:
                terminal.write_line(message)
        except Exception as exc:  # never hide test results behind a summary error
            terminal.write_line(f"alias: summary failed: {exc}")
