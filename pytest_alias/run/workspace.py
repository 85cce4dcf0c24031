"""``Workspace``: the one path from either door (plugin, command line) to the work.

It owns the run's shared objects — the toolchain, the condition cache, one model registry and the
models it made, the generation store — and offers the run's steps: ``tasks()``, ``cases()``,
``generate()``, ``coverage()`` and ``grade()``. It knows nothing of pytest: the plugin turns its
cases into items and its records into a summary; a command calls the same methods.
"""

from __future__ import annotations

import functools
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from .cases import Case, build_cases
from ..cir.prepared import ConditionCache, prepare_all
from ..cir.suites import load_suite_report
from ..errors import AliasError, UsageProblem
from ..grading.behavior import copies_reference
from ..grading.context import GradeContext
from ..models.base import Generation
from ..models.redact import redact
from ..models.registry import process_registry
from ..models.store import GenerationStore
from ..records import Record
from ..tasks.suites import SuiteReport
from ..tla.cache import default_cache_dir
from ..tla.launcher import seconds_for_states
from ..tla.runner import TlaTools, default_tools
from ..tla.toolchain import find_jar
from .config import RunConfig
from .costs import graded_before, item_cost
from .coverage import FROM_FILE, Coverage, SelfCheckPending, compute_coverage, self_check_stored
from .estimate import estimate_cases
from .generation import generate_cases, generation_fields
from .limits import reference_limit
from .record import evaluate, settle_not_gradeable


class Workspace:
    """The shared objects and steps of one run, created once per process from a :class:`RunConfig`."""

    def __init__(self, config: RunConfig, *, tasks: Sequence[Any] | None = None) -> None:
        self.config = config
        # Tasks given by the caller instead of the config's suite (``tla-alias grade``: one reference).
        self._given_tasks = sorted(tasks, key=lambda task: task.id) if tasks is not None else None
        self._cases: list[Case] | None = None
        self._prepared: list[tuple[Any, Any]] | None = None  # the run's conditions, prepared once
        self._models: dict[str, Any] = {}
        self._coverage: Coverage | None = None
        self._limits: dict[str, float] = {}  # task → its TLC limit under --alias-timeout-from-reference
        self._expected: dict[tuple[str, str, float], float | None] = {}  # condition → its reference's check seconds
        self.skipped_line: str | None = None  # tasks the suite could not load, said once in the summary
        self.cost_estimate: dict[str, Any] | None = None  # made before generating (the run's JSON keeps it)
        self.probe_report: dict[str, Any] | None = None  # the look ahead at outputs' costs (run.probe), under xdist
        self.generations: dict[tuple[str, str, int, str], Any] = {}  # every text this process generated or read
        #: This run's identity, the same in every xdist worker: a self-check failure the machine may have
        #: caused (a time limit) is shared between the run's processes under it, never with later runs.
        self.run_uid = uuid.uuid4().hex
        self._coverage_lock = threading.Lock()  # items and the background self-checks both add to it
        self._background: Any = None  # the executor making the costly self-checks beside the items
        self._in_background: set[str] = set()  # tasks whose self-check the background thread is still to make

    # ---------------------------------------------------------------- shared objects

    @functools.cached_property
    def tools(self) -> Any:
        """SANY and TLC of this run's toolchain, with the run cache under the cache folder."""
        if self.config.cache_dir is None and self.config.use_cache:
            return default_tools()
        return TlaTools(cache_dir=self.config.cache_dir, use_cache=self.config.use_cache)

    @functools.cached_property
    def cache_root(self) -> Path:
        return self.config.cache_dir if self.config.cache_dir is not None else default_cache_dir()

    @functools.cached_property
    def condition_cache(self) -> Any:
        """The prepared-condition cache of this run's toolchain (under the cache folder)."""
        return ConditionCache(self.config.cache_dir, find_jar().sha256)

    @functools.cached_property
    def registry(self) -> Any:
        """The model registry (built-in models and every plugin's), built once per process."""
        return process_registry()

    def store(self) -> Any:
        """The generation store in this run's mode."""
        folder = self.config.cache_dir / "generations" if self.config.cache_dir else None
        return GenerationStore(folder, self.config.store_mode)

    # ---------------------------------------------------------------- tasks and cases

    def suite_report(self, suite: str | None = None, *, description_kind: str | None = None,
                     ids: Iterable[str | int] | str | Path | None = None) -> SuiteReport:
        """``suite`` (this run's by default) as its loader reads it: tasks in the suite's natural order
        and what it skipped, with CIR's re-verification for the task sets that need it. A command that
        lists a suite (``tasks``, ``split``) reads it here; a suite that cannot be read is a usage problem."""
        return load_suite_report(self.config.suite if suite is None else suite, description_kind=description_kind,
                                 ids=ids)

    def tasks(self) -> list[Any]:
        """The suite's tasks, sorted by id (a suite that cannot be read is a usage problem)."""
        if self._given_tasks is not None:
            return list(self._given_tasks)
        report = self.suite_report()
        if report.skipped:  # said once in the summary
            self.skipped_line = (f"alias: suite {self.config.suite}: {len(report.skipped)} task(s) skipped, e.g. "
                                 f"{report.skipped[0]}; 'tla-alias tasks {self.config.suite} --skipped' lists why")
        return sorted(report.tasks, key=lambda task: task.id)

    def prepared_conditions(self, kinds: tuple[str, ...] | None = None, *, live: bool = False) -> list[tuple[Any, Any]]:
        """``(task, [(condition or None, skip reason), …])`` per task, sorted by id, for ``kinds``
        (this run's conditions by default), from the condition cache or built and stored."""
        own = kinds is None or tuple(kinds) == tuple(self.config.conditions)
        if own and self._prepared is not None:
            return self._prepared
        prepared = prepare_all(self.condition_cache, self.tasks(), kinds or self.config.conditions,
                               seed=self.config.seed, meaningful_maps=self.config.meaningful_maps,
                               tools=lambda: self.tools, live=live, rename_maps=self.config.rename_maps,
                               renamings=self.config.rename_seeds)
        if own:
            self._prepared = prepared
        return prepared

    def adopt_prepared(self, prepared: list[tuple[Any, Any]]) -> None:
        """Use the conditions the controller prepared (an xdist worker gets them at start-up, so it
        needs neither the suite's files nor the controller's condition cache)."""
        self._prepared = prepared

    def cases(self, *, live: bool = False) -> list[Case]:
        """Every case of the run, sorted (the same list in every xdist worker). Conditions come from
        the condition cache; what it lacks is built and verified here (by the controller, before
        any worker starts), with a progress line only when something has to be built."""
        if self._cases is None:
            self._cases = build_cases(self.prepared_conditions(live=live), self.config.models, self.config.samples)
        return self._cases

    # ---------------------------------------------------------------- models and generation

    def _model_options(self, spec: str) -> dict[str, Any]:
        return {"lora": self.config.lora} if self.config.lora and spec.startswith("hf:") else {}

    def check_models(self) -> None:
        """Raise :class:`UsageProblem` for the first model that cannot be used (unknown, missing
        extra, key or file); a model the check had to create is kept for the run."""
        for name in self.config.models:
            model = self._built(name, self.registry.check)
            if model is not None:
                self._models[name] = model

    def model(self, name: str) -> Any:
        """The model ``name`` names (a run's model name or a spec), created once per process."""
        if name not in self._models:
            self._models[name] = self._built(name, self.registry.create)
        return self._models[name]

    def _built(self, name: str, make: Any) -> Any:
        """``make`` (the registry's ``create`` or ``check``) on the full spec behind ``name``."""
        spec = self.config.model_spec(name)  # with the credentials the shown name hides
        try:
            return make(spec, **self._model_options(spec))
        except AliasError as exc:  # ModelSpecError, ReplayError, a missing key or extra: the user's to fix
            # The registry's message quotes the full spec: its credentials stay out of the line.
            raise UsageProblem(redact(f"{{flag}} {name}: {exc}"), option="model") from None

    def generate(self, cases: Sequence[Case], *, live: bool) -> dict[tuple[str, str, int, str], Any]:
        """Each case's generation, once, through the store, with a progress line."""
        found = generate_cases(list(cases), model_for=self.model, store=self.store(), seed=self.config.seed,
                               prefill=self.config.prefill, max_new_tokens=self.config.max_new_tokens, live=live)
        self.generations.update(found)  # the sample agreement reads the texts at the end of the run
        return found

    def estimate(self, cases: Sequence[Case]) -> dict[str, Any]:
        """What generating ``cases`` will send and cost, per model, from the store as it is now
        (nothing is sent: ``run.estimate``); kept as ``cost_estimate`` for the run's JSON."""
        self.cost_estimate = estimate_cases(list(cases), model_for=self.model, store=self.store(),
                                            seed=self.config.seed, prefill=self.config.prefill,
                                            max_new_tokens=self.config.max_new_tokens)
        return self.cost_estimate

    # ---------------------------------------------------------------- coverage and grading

    def needs_coverage(self) -> bool:
        """Whether the run grades by behavior or restricts its rates to covered tasks."""
        return "behavior" in self.config.grades or self.config.covered is not None

    def check_references(self, task_ids: Sequence[str] | None = None, *, live: bool = False,
                         wait: bool = True, make: bool = True) -> Coverage | None:
        """Self-check the references of ``task_ids`` (every task of the run by default) once (cached by
        content), and keep the coverage; None when not needed. ``wait=False``: a self-check another
        process or thread is making raises :class:`~.coverage.SelfCheckPending` instead of waiting;
        ``make=False``: so does one that is not stored (it is another thread's to make)."""
        if not self.needs_coverage():
            return None
        wanted = set(task_ids) if task_ids is not None else {case.task.id for case in self.cases()}
        known = self._coverage
        if known is not None:
            wanted -= known.checked
        if wanted or known is None:
            originals = [(task, task.original()) for task, _ in self.prepared_conditions() if task.id in wanted]
            found = compute_coverage(originals, tools=self.tools, mode=self.config.mode, timeout=self.config.timeout,
                                     cache_root=self.cache_root, live=live, shortcuts=self.config.shortcuts,
                                     run_uid=self.run_uid, wait=wait, make=make)
            self.merge_coverage(found)
        return self._coverage

    def merge_coverage(self, found: Coverage) -> None:
        """Add self-checks made elsewhere (by this process, or an xdist worker's at its end)."""
        if isinstance(self.config.covered, frozenset) and found.source != FROM_FILE:  # a validate-grader file's set
            found = found.restricted_to(self.config.covered, self.config.covered_source or "")
        with self._coverage_lock:
            self._coverage = found if self._coverage is None else self._coverage.merged(found)

    def self_check_in_background(self, task: Any) -> bool:
        """Whether ``task``'s self-check is costly enough to start at once in the controller's thread
        (:meth:`start_background_self_checks`) rather than when its first item runs."""
        from .costs import in_background  # looked up per call: tests patch run.costs.in_background

        return in_background(self.reference_seconds(task))

    def reference_seconds(self, task: Any) -> float | None:
        """How long ``task``'s reference check runs, as far as the caches and the suite tell (never runs it)."""
        from .costs import reference_seconds  # here: at module level it would share its name with this method

        return reference_seconds(self._expected_seconds(task.original(), self.config.timeout), task.expected_distinct)

    def start_background_self_checks(self, cases: Sequence[Case]) -> list[str]:
        """Make the costly self-checks of ``cases``' tasks in one thread beside the items, costliest first
        (a self-check another process is making, or has stored, is skipped). Returns their task ids."""
        if not self.needs_coverage() or self._background is not None:
            return []
        tasks = {case.task.id: case.task for case in cases if case.condition.cfg is not None}
        chosen = sorted((task for task in tasks.values() if self.self_check_in_background(task)
                         and not self_check_stored(task.original(), tools=self.tools, mode=self.config.mode,
                                                   timeout=self.config.timeout, cache_root=self.cache_root,
                                                   run_uid=self.run_uid)),
                        key=lambda task: (-(self.reference_seconds(task) or 0.0), task.id))
        if not chosen:
            return []

        def make(task_id: str) -> None:
            try:
                self.check_references([task_id], wait=False)
            except SelfCheckPending:  # an item is making it
                pass
            finally:
                self._in_background.discard(task_id)

        self._in_background.update(task.id for task in chosen)
        self._background = ThreadPoolExecutor(max_workers=1, thread_name_prefix="alias-self-check")
        for task in chosen:
            self._background.submit(make, task.id)
        return [task.id for task in chosen]

    def self_check_coming(self, task_id: str) -> bool:
        """Whether ``task_id``'s self-check is still to be made by this process's background thread: its
        items would only wait for it at their end, holding a worker (the scheduler sends them later)."""
        return task_id in self._in_background

    def stop_background_self_checks(self, *, wait: bool = True) -> None:
        """Let the background self-checks finish (``wait``), or drop those not started (an interrupt)."""
        if self._background is not None:
            self._background.shutdown(wait=wait, cancel_futures=not wait)
            self._background = None

    def coverage(self) -> Coverage | None:
        """The coverage found so far (None before any self-check, or when the run needs none)."""
        return self._coverage

    def covered(self) -> frozenset[str] | None:
        """The covered tasks the rates are restricted to (None: the run did not ask for them)."""
        if self.config.covered is None or self._coverage is None:
            return None
        return self._coverage.covered

    def grade_text(self, task_id: str, text: str, *, condition: str = "original", output_bytes: int | None = None) -> Record:
        """Grade a text no model of the run generated (``tla-alias grade``) as sample 0 of ``task_id``'s
        ``condition``: the record a pytest item of that case writes. ``output_bytes`` is the text's true
        size where only a part of it was read (an oversize output keeps its size in the reason)."""
        case = next((c for c in self.cases() if c.task.id == task_id and c.condition.label == condition
                     and c.sample == 0), None)
        if case is None:
            raise UsageProblem(f"no case of task {task_id!r} in condition {condition!r} in this run")
        return self.grade(case, Generation(text=text, model=case.model), output_bytes=output_bytes)

    def grade(self, case: Case, generation: Any, *, output_bytes: int | None = None) -> Record:
        """Grade ``generation``'s text for ``case`` with the run's grades and return its record. The
        grades do not wait for the task's self-check (see :meth:`_reference_check`): when it is still
        to come, its verdict is applied once it is known — the same record either way."""
        started = time.perf_counter()
        # A model error is recorded as one whatever the task's self-check says: its item neither makes
        # nor waits for it, so its worker goes on to the next item (the run checks what no item did).
        coverage, finish = ((self._coverage, None) if getattr(generation, "error", None)
                            else self._reference_check(case, generation.text or ""))
        self_check_s = time.perf_counter() - started
        not_gradeable = ({"behavior": coverage.not_gradeable[case.task.id]}
                         if coverage is not None and case.task.id in coverage.not_gradeable else {})
        timeout = self.tlc_limit(case.task)
        with self.tools.expecting(self.expected_check_seconds(case, timeout)):
            record = evaluate(case, generation.text, self.config.grades, self.grade_context(case, timeout, coverage),
                              generation=generation_fields(generation), not_gradeable=not_gradeable,
                              output_bytes=output_bytes)
        waited_s = 0.0
        if finish is not None:
            waited = time.perf_counter()
            coverage = finish()
            waited_s = time.perf_counter() - waited
            if coverage is not None and case.task.id in coverage.not_gradeable:
                settle_not_gradeable(record, "behavior", coverage.not_gradeable[case.task.id])
        record["timings"].update({"self_check_s": round(self_check_s, 3), "self_check_wait_s": round(waited_s, 3)})
        record["seed"] = self.config.seed  # with versions.condition: which renaming the text answered
        if self.config.rename_seeds > 1 and case.condition.kind == "random":  # which of the run's renamings
            record["rename_seed"] = case.condition.rename_seed
        if self.config.timeout_from_reference is not None:  # a deviation from the paper: each verdict names it
            record["tlc_limit"] = {"seconds": timeout, "from_reference": self.config.timeout_from_reference}
        return record

    def expected_check_seconds(self, case: Case, timeout: float) -> float | None:
        """How long ``case``'s checks are expected to run, which picks the tool server's tier (never part
        of a verdict): the reference's own check (cached when the condition was verified), else the state
        count the suite records."""
        expected = self._expected_seconds(case.condition, timeout)
        return expected if expected is not None else seconds_for_states(case.task.expected_distinct)

    def expected_costs(self, cases: Sequence[Case], generations: Mapping[tuple[str, str, int, str], Any]
                       ) -> dict[str, float]:
        """Each case's expected seconds (case id → seconds; see :mod:`.costs`): the controller sends the
        costliest items first. Reads caches only; never runs a tool."""
        costs: dict[str, float] = {}
        first_seen: set[str] = set()
        timeout = self.config.timeout
        # A task's first item (original condition, lowest sample) is the one expected to self-check it.
        for case in sorted(cases, key=lambda c: (c.task.id, c.condition.kind != "original", c.sample, c.id)):
            generation = generations.get(case.key)
            if generation is not None and getattr(generation, "error", None):
                costs[case.id] = 0.0  # recorded as a model error: no tool runs, no self-check (see grade)
                continue
            makes = (self.needs_coverage() and case.task.id not in first_seen and case.condition.cfg is not None
                     and not self.self_check_in_background(case.task)
                     and not self_check_stored(case.task.original(), tools=self.tools, mode=self.config.mode,
                                               timeout=timeout, cache_root=self.cache_root, run_uid=self.run_uid))
            first_seen.add(case.task.id)
            known = (generation is not None and self.config.shortcuts and bool(generation.text)
                     and graded_before(generation.text, case.condition, self.config.grades,
                                       self.grade_context(case, timeout, None)))
            reference = self._expected_seconds(case.condition, timeout)
            costs[case.id] = item_cost(reference if reference is not None else self.reference_seconds(case.task),
                                       self.config.grades, makes_self_check=makes, graded_before=known)
        return costs

    def _reference_check(self, case: Case, text: str) -> tuple[Coverage | None, Any]:
        """The coverage with ``case``'s task self-check when it is known, else the coverage so far and a
        function to call once the grades ran, which returns the coverage with it. Only an output that
        is the reference itself waits for a self-check to be made first (its grade then reads it);
        otherwise this item makes it in a thread beside its grades, unless another process or thread
        (the controller's, for a costly one) is making it, which the item waits for only at its end."""
        if not self.needs_coverage():
            return None, None
        task = case.task
        try:
            return self.check_references([task.id], wait=False, make=False), None  # stored, or known here
        except SelfCheckPending:
            pass
        if case.condition.kind == "original":
            if copies_reference(text, case.condition):
                return self.check_references([task.id]), None
        beside = threading.Thread(target=self._make_self_check, args=(task.id,), name="alias-item-self-check",
                                  daemon=True)
        beside.start()

        def finish() -> Coverage | None:
            beside.join()
            return self.check_references([task.id])  # waits for the maker, or makes it when none did

        return self._coverage, finish

    def _make_self_check(self, task_id: str) -> None:
        """A thread's share: make ``task_id``'s self-check unless another is making it (its errors surface
        when the item asks again)."""
        try:
            self.check_references([task_id], wait=False)
        except Exception:  # noqa: BLE001 - the item's own check_references reports it
            pass

    def grade_context(self, case: Case, timeout: float, coverage: Coverage | None) -> Any:
        """The grade's context: the run's settings, and whether the run's self-check showed this task's
        reference passing its behavior grade at this limit (it stands for every condition of the task:
        a renamed condition is the original under other names, verified when it was prepared)."""
        passed = (coverage is not None and case.task.id in coverage.checked
                  and case.task.id not in coverage.not_gradeable)
        return GradeContext(self.tools, timeout=timeout, mode=self.config.mode, name_rule=self.config.name_rule,
                            search_budget=self.config.search_budget, shortcuts=self.config.shortcuts,
                            reference_passed=(coverage.mode, coverage.timeout) if passed and coverage is not None else None)

    def _expected_seconds(self, condition: Any, timeout: float) -> float | None:
        """How long ``condition``'s reference check took (cached by its verification), once per process."""
        key = (condition.task_id, str(condition.version), timeout)
        if key not in self._expected:
            self._expected[key] = self.tools.cached_tlc_seconds(condition.spec(), timeout=timeout)
        return self._expected[key]

    def tlc_limit(self, task: Any) -> float:
        """The TLC limit for ``task``'s outputs: the fixed limit, or the per-task one of
        ``--alias-timeout-from-reference`` (see :mod:`.limits`), computed once per task and process."""
        if self.config.timeout_from_reference is None:
            return self.config.timeout
        if task.id not in self._limits:
            self._limits[task.id] = reference_limit(task, self.tools, scale=self.config.timeout_from_reference,
                                                    ceiling=self.config.timeout)
        return self._limits[task.id]
