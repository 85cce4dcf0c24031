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
from typing import Any

import pytest

from . import __version__
from .cases import Case, build_cases, parse_conditions
from .evaluate import MODES, selected_grades
from .report.files import REPORT_SUFFIXES
from .report.gates import Gate, GateError, parse_gate

RECORD_PROPERTY = "alias_record"


def _int(name: str, value: Any, minimum: int) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ValueError(f"--alias-{name} must be an integer, not {value!r}") from None
    if number < minimum:
        raise ValueError(f"--alias-{name} must be at least {minimum}, not {number}")
    return number


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
    _memo: dict = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> Settings:
        """Validate option values; raises ValueError with what is allowed."""
        models = tuple(m for m in options["model"] or [] if m)
        grade = options["grade"] or "name"
        grades = tuple(selected_grades(grade))
        mode = options["mode"] or "paper"
        if mode not in MODES:
            raise ValueError(f"--alias-mode must be one of {', '.join(MODES)}, not {mode!r}")
        try:
            timeout = float(options["timeout"])
        except (TypeError, ValueError):
            raise ValueError(f"--alias-timeout must be a number of seconds, not {options['timeout']!r}") from None
        if timeout <= 0:
            raise ValueError("--alias-timeout must be positive")
        store = options["store"] or "rw"
        if store not in ("rw", "ro", "refresh", "off"):
            raise ValueError(f"--alias-store must be one of rw, ro, refresh, off, not {store!r}")
        reports = tuple(Path(p) for p in options["report"] or [])
        for path in reports:
            if path.suffix.lower() not in REPORT_SUFFIXES:
                raise ValueError(f"--alias-report {path}: the suffix must be one of {', '.join(REPORT_SUFFIXES)}")
        try:
            gates = tuple(parse_gate(text) for text in options["gate"] or [])
        except GateError as exc:
            raise ValueError(str(exc)) from None
        return cls(
            models=models, grade=grade, grades=grades, suite=options["suite"] or "builtin",
            conditions=tuple(parse_conditions(options["conditions"] or "original,random")),
            samples=_int("samples", options["samples"], 1), seed=_int("seed", options["seed"], 0), timeout=timeout,
            mode=mode, cache_dir=Path(options["cache_dir"]) if options["cache_dir"] else None, store_mode=store,
            reports=reports, gates=gates, no_fail=bool(options["no_fail"]),
            resamples=_int("resamples", options["resamples"], 100),
            meaningful_maps=_meaningful_maps(options.get("meaningful_maps")),
            lora=options.get("lora") or None,
        )

    # ---------------------------------------------------------------- shared objects (per process)

    @functools.cached_property
    def tools(self) -> Any:
        from .tla.runner import TlaTools, default_tools

        return TlaTools(cache_dir=self.cache_dir) if self.cache_dir else default_tools()

    def cases(self) -> list[Case]:
        """Every case of the run, sorted (the same list in every xdist worker)."""
        if "cases" not in self._memo:
            from .tasks.suites import SuiteError, load_suite

            try:
                tasks = load_suite(self.suite)
            except SuiteError as exc:
                raise ValueError(str(exc)) from None
            self._memo["cases"] = build_cases(tasks, self.conditions, self.models, self.samples, seed=self.seed,
                                              tools=self.tools, meaningful_maps=self.meaningful_maps)
        return self._memo["cases"]

    def model(self, spec: str) -> Any:
        models = self._memo.setdefault("models", {})
        if spec not in models:
            from .models.registry import ModelSpecError, default_registry

            options = {"lora": self.lora} if self.lora and spec.startswith("hf:") else {}
            try:
                models[spec] = default_registry().create(spec, **options)
            except (ModelSpecError, ValueError, ImportError) as exc:  # unknown model, missing key or extra
                raise pytest.UsageError(f"--alias-model {spec}: {exc}") from None
        return models[spec]

    def generations_for(self, cases: list[Case]) -> dict[tuple[str, str, int, str], Any]:
        """Each case's generation, through the store, one batch per model."""
        from .models.base import DecodingParams, GenerationRequest
        from .models.store import GenerationStore

        store = GenerationStore(self.cache_dir / "generations" if self.cache_dir else None, self.store_mode)
        out: dict[tuple[str, str, int, str], Any] = {}
        for spec in dict.fromkeys(case.model for case in cases):
            mine = [case for case in cases if case.model == spec]
            requests = [GenerationRequest.from_condition(case.condition, case.sample, seed=self.seed + case.sample)
                        for case in mine]
            model = self.model(spec)
            # Every xdist worker collects the same cases: the first to take this lock generates them
            # (one batch), the others wait and then read them all from the store, so no sample is
            # paid for twice.
            with _batch_lock(store.root, model.identity, requests):
                generations = store.generate(model, requests, DecodingParams())
            out.update({case.key: generation for case, generation in zip(mine, generations)})
        return out


def _batch_lock(root: Path, identity: str, requests: list[Any]) -> Any:
    """A file lock named after the model and the exact request set."""
    import contextlib
    import hashlib

    from filelock import FileLock

    digest = hashlib.sha256(json.dumps([identity, [(r.prompt, r.sample, r.seed) for r in requests]]).encode()).hexdigest()
    try:
        (root / "locks").mkdir(parents=True, exist_ok=True)
    except OSError:
        return contextlib.nullcontext()
    return FileLock(str(root / "locks" / f"{digest[:32]}.lock"))


class AliasSession:
    """Collects records on the controller and turns them into the summary, reports and gate verdicts."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.records: dict[str, dict[str, Any]] = {}
        self.aggregate: dict[str, Any] | None = None
        self.messages: list[str] = []
        self.gate_failures: list[str] = []

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when != "call":
            return
        for name, value in report.user_properties:
            if name == RECORD_PROPERTY:
                record = json.loads(value)
                self.records[record["id"]] = record  # keyed by case id, never by nodeid

    def sorted_records(self) -> list[dict[str, Any]]:
        return [self.records[key] for key in sorted(self.records)]

    def metadata(self) -> dict[str, Any]:
        settings = self.settings
        return {"alias": __version__, "python": platform.python_version(), "models": list(settings.models),
                "grade": settings.grade, "suite": settings.suite, "conditions": list(settings.conditions),
                "samples": settings.samples, "seed": settings.seed, "mode": settings.mode,
                "resamples": settings.resamples}

    def finish(self, session: pytest.Session) -> None:
        """Aggregate, write reports and apply gates (failures become messages, never exceptions)."""
        from .report.aggregate import aggregate
        from .report.files import write_report

        records = self.sorted_records()
        if not records:
            return
        try:
            self.aggregate = aggregate(records, resamples=self.settings.resamples, seed=self.settings.seed)
        except Exception:
            self.messages.append("alias: the summary could not be computed:\n" + traceback.format_exc(limit=3))
            return
        for path in self.settings.reports:
            try:
                write_report(path, records, self.aggregate, self.metadata())
                self.messages.append(f"alias: wrote {path}")
            except Exception as exc:
                self.messages.append(f"alias: report {path} failed: {exc}")
        for gate in self.settings.gates:
            try:
                passed, _, message = gate.check(self.aggregate)
            except GateError as exc:
                passed, message = False, str(exc)
            self.messages.append(message)
            if not passed:
                self.gate_failures.append(message)
        if self.gate_failures and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def print_summary(self, terminal: Any) -> None:
        from .report.tables import summary_lines

        try:
            if self.aggregate is not None:
                terminal.section("alias summary")
                for line in summary_lines(self.aggregate):
                    terminal.write_line(line)
            for message in self.messages:
                terminal.write_line(message)
        except Exception as exc:  # never hide test results behind a summary error
            terminal.write_line(f"alias: summary failed: {exc}")
