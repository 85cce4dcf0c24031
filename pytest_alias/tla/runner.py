"""Run SANY and TLC on a ``SpecFiles``: cache lookup, staging, launch, classification.

``TlaTools`` is the one entry point the rest of ALIAS uses::

    tools = TlaTools()
    tools.sany(spec)                          # -> SanyResult (strict)
    tools.tlc(spec, timeout=300)              # -> TlcResult
    tools.state_graph(spec)                   # -> (TlcResult, StateGraph | None)
"""

from __future__ import annotations

import base64
import collections
import contextlib
import dataclasses
import functools
import os
import zlib
from pathlib import Path
from typing import Any, Sequence

from .cache import RunCache, cache_disabled, content_key, default_cache_dir, files_digest, usable_cache_dir
from .cfg import CfgError, UnsupportedKeyword, adapt_for_tlc, parse_cfg, render_cfg
from .graph import LabelGraph, StateGraph, parse_dot, parse_dot_labels
from .launcher import (EXPECTATION, PROBE_CAP, Expectation, Launcher, ToolRun, ToolRunError, environment_fault, expected_seconds,
                       get_launcher, heap_cap, learn_ran_long, machine_fault, probe_cap, slot_priority)
from .library import needed_library
from .modsplit import significant_text
from .sany import SanyError, SanyResult, parse_sany_output
from .slots import SLOTS_FOLDER, tlc_slot
from .specfiles import SpecFiles, Staged, stage
from .streams import GRAPH_CAP, MB, budgets, disk_fault, graph_cap, tree_size
from .tlc import TlcResult, classify
from .toolchain import Toolchain, ToolchainError, find_toolchain
from ..vocabulary import TLC_TIMEOUT_S

DEFAULT_SANY_TIMEOUT = 60.0
#: Fixed fingerprint polynomial and seed: the same spec gives the same run.
PINNED_FLAGS = ("-fp", "0", "-seed", "0")
#: Default largest ``-dump dot`` file (about 500,000 small states); the budget in force is
#: ``ALIAS_GRAPH_LIMIT_MB`` (see :mod:`.streams`), held while TLC runs.
MAX_DOT_BYTES = 64 * 1024 * 1024
#: Graphs :meth:`TlaTools.kept_graph` keeps parsed per process (a task's reference graph serves all its outputs).
KEPT_GRAPHS = 16


def over_budget_message(exceeded: str, tool: str = "TLC") -> str:
    """What a run stopped over a budget says (``exceeded``: ``output`` or ``graph``)."""
    limits = budgets()
    if exceeded == "graph":
        return f"the state graph exceeded {limits.graph_bytes // MB} MB (ALIAS_GRAPH_LIMIT_MB)"
    if exceeded == "disk":
        return (f"the files {tool} kept on disk (its state queue and fingerprints) exceeded "
                f"{limits.disk_bytes // MB} MB (ALIAS_DISK_LIMIT_MB)")
    return f"{tool} printed more than {limits.output_bytes // MB} MB (ALIAS_OUTPUT_LIMIT_MB)"


#: A module every SANY parses: the start-up check that the launcher can drive the jar.
DRIVE_PROBE = ("---- MODULE AliasDriveCheck ----\nEXTENDS Naturals, Sequences\nVARIABLE x\n"
               "Init == x = <<0>>\nNext == x' = Append(x, Len(x))\n====\n")


def prepare_cfg(cfg_text: str, supported: frozenset[str]) -> tuple[str, list[str]]:
    """The cfg text the jar accepts, plus TLC flags standing in for keywords it lacks.

    Raises ``CfgError`` when the cfg is malformed or needs a keyword this jar cannot run.
    """
    cfg = parse_cfg(cfg_text)
    adapted, flags = adapt_for_tlc(cfg, supported)
    # Keep the author's text when nothing had to change: TLC reads exactly what was written.
    return (cfg_text if adapted == cfg else render_cfg(adapted)), list(flags)


def unsupported_keyword_message(keyword: str, toolchain: Toolchain) -> str:
    """One line saying that the jar predates a cfg keyword, and how to use a newer one."""
    jar = toolchain.jar
    return (f"the cfg uses {keyword}, which this tla2tools.jar (TLC {jar.tlc_version}, {jar.source}) predates; "
            f"point ALIAS_TLA2TOOLS at a newer tla2tools.jar (export ALIAS_TLA2TOOLS=/path/to/tla2tools.jar) "
            f"to check it")


class TlaTools:
    """SANY and TLC with one toolchain, one run cache and one launcher."""

    def __init__(
        self,
        toolchain: Toolchain | None = None,
        cache_dir: Path | str | None = None,
        *,
        use_cache: bool | None = None,
        launcher: str | None = None,
    ) -> None:
        self.toolchain = toolchain or find_toolchain()
        self.cache_dir = usable_cache_dir(Path(cache_dir) if cache_dir is not None else default_cache_dir())
        self.cache = RunCache(self.cache_dir)
        self.use_cache = (not cache_disabled()) if use_cache is None else use_cache
        self._launcher_mode = launcher
        #: Tool runs actually launched (cache hits excluded), by tool: what a grade really cost.
        self.launches: collections.Counter[str] = collections.Counter()
        #: Seconds those runs took, by tool (JVM start-up included where a run started a JVM).
        self.tool_seconds: collections.defaultdict[str, float] = collections.defaultdict(float)
        #: State graphs read from cached dumps (see :meth:`kept_graph`), oldest first.
        self._graphs: dict[str, LabelGraph | None] = {}
        #: Kept graphs with their verdicts by cache key (only found ones: a later check may add one).
        self._kept: dict[str, tuple[TlcResult, LabelGraph]] = {}

    @functools.cached_property
    def launcher(self) -> Launcher:
        return get_launcher(self.toolchain, self.cache_dir, self._launcher_mode)

    def check_drivable(self) -> None:
        """Raise ``ToolchainError`` (one line) unless the chosen launcher can drive the jar: one SANY
        parse of a known module, never cached. Once per launcher and process: a run checks it at
        start-up, so a jar the launcher cannot use stops the run instead of failing every grade."""
        launcher = self.launcher
        if launcher.drivable:
            return
        probe = SpecFiles("AliasDriveCheck", {"AliasDriveCheck": DRIVE_PROBE})
        jar = self.toolchain.jar.path
        try:
            with stage(probe, library=self.library(probe)) as staged:
                run = _unstaged(launcher.run("sany", [str(staged.main)], staged.workdir, staged.tmpdir,
                                             DEFAULT_SANY_TIMEOUT), staged)
            _raise_environment_fault("SANY", run)
        except ToolRunError as exc:
            raise ToolchainError(f"{jar} cannot be driven by the {launcher.kind} launcher: {exc}") from None
        ok, errors = parse_sany_output(run.output, run.exit_code, probe.main)
        if run.timed_out or not ok:
            why = "it ran past its limit" if run.timed_out else (str(errors[0]) if errors else "it failed")
            raise ToolchainError(f"{jar} cannot be driven by the {launcher.kind} launcher: SANY rejects a known-good "
                                 f"module ({why[:200]})")
        launcher.drivable = True

    @staticmethod
    @contextlib.contextmanager
    def expecting(seconds: float | None) -> Any:
        """Within this block, checks are expected to take about ``seconds`` (None: unknown): long ones
        skip the quick server tier (see :data:`~.launcher.QUICK_EXPECTED_SECONDS`). Never a verdict's input."""
        token = EXPECTATION.set(Expectation(seconds))
        try:
            yield
        finally:
            EXPECTATION.reset(token)

    @staticmethod
    @contextlib.contextmanager
    def probing(seconds: float) -> Any:
        """Within this block, every TLC run stops after ``seconds`` at most (a timeout, never cached): a
        look at how long an output's check runs. A run that ends sooner is cached under its own limit, as
        if it had run outside the block, so the grade that asks for it later reads it."""
        token = PROBE_CAP.set(seconds)
        try:
            yield
        finally:
            PROBE_CAP.reset(token)

    # ------------------------------------------------------------------ shared plumbing

    def _cached(self, key: str) -> dict[str, Any] | None:
        entry = self.cache.get(key) if self.use_cache else None
        # Valid JSON of the wrong shape (a damaged or foreign file) is a miss, like unreadable JSON.
        return entry if entry is not None and _entry_shape_ok(entry) else None

    def _store(self, key: str, run: ToolRun, extra: dict[str, Any] | None = None) -> None:
        # A timeout, a JVM out of memory or unable to start, a kill from outside: the machine's doing,
        # not the inputs' — never cached.
        if self.use_cache and not machine_fault(run):
            self.cache.put(
                key,
                {"exit_code": run.exit_code, "output": run.output, "seconds": run.seconds, "launcher": run.launcher,
                 **(extra or {})},
            )

    def library(self, spec: SpecFiles) -> dict[str, str]:
        """The ALIAS library modules a run of ``spec`` stages (see :mod:`.library`): those it imports
        that neither the spec nor the jar brings."""
        return needed_library(spec.modules, self.toolchain.jar.modules)

    def _digest(self, spec: SpecFiles) -> dict[str, str]:
        """The digest of every module a run stages, library modules included, so a change to a
        library module misses old cache entries (each as SANY reads it: see :func:`significant_text`)."""
        return files_digest({name: significant_text(text) for name, text in {**self.library(spec), **spec.modules}.items()})

    # ------------------------------------------------------------------ SANY

    def sany(self, spec: SpecFiles, *, timeout: float = DEFAULT_SANY_TIMEOUT) -> SanyResult:
        """Strict SANY on ``spec.main`` (imported modules staged beside it)."""
        key = content_key("sany", jar=self.toolchain.identity, main=spec.main, files=self._digest(spec),
                          heap=heap_cap(), output_limit=budgets().output_bytes)
        entry = self._cached(key)
        if entry is not None:
            ok, errors = parse_sany_output(entry["output"], entry["exit_code"], spec.main)
            return SanyResult(ok, entry["exit_code"], errors, entry["output"], entry["seconds"], False, True)
        with stage(spec, library=self.library(spec)) as staged:
            self.launches["sany"] += 1
            run = _unstaged(self.launcher.run("sany", [str(staged.main)], staged.workdir, staged.tmpdir, timeout), staged)
            self.tool_seconds["sany"] += run.seconds
            _raise_disk_fault("SANY", staged)
        _raise_environment_fault("SANY", run)
        if run.exceeded is not None:
            error = SanyError("fatal", over_budget_message(run.exceeded, "SANY"))
            return SanyResult(False, None, (error,), run.output, run.seconds)
        self._store(key, run)
        if run.timed_out:
            error = SanyError("fatal", f"SANY ran past its {timeout:g} s limit")
            return SanyResult(False, None, (error,), run.output, run.seconds, True)
        ok, errors = parse_sany_output(run.output, run.exit_code, spec.main)
        return SanyResult(ok, run.exit_code, errors, run.output, run.seconds)

    # ------------------------------------------------------------------ TLC

    def tlc(
        self,
        spec: SpecFiles,
        *,
        workers: int = 1,
        deadlock: bool = True,
        timeout: float = TLC_TIMEOUT_S,
        dump_graph: bool = False,
        flags: Sequence[str] = (),
    ) -> TlcResult:
        """Model-check ``spec`` with its cfg. ``deadlock=False`` turns deadlock checking off."""
        result, _ = self._tlc(spec, workers=workers, deadlock=deadlock, timeout=timeout, dump_graph=dump_graph,
                              flags=flags)
        return result

    def state_graph(
        self, spec: SpecFiles, *, workers: int = 1, deadlock: bool = True, timeout: float = TLC_TIMEOUT_S
    ) -> tuple[TlcResult, StateGraph | None]:
        """Run TLC with ``-dump dot`` and return its verdict and the reachable state graph (None when TLC
        wrote none, was stopped by ``timeout``, or wrote more than :data:`MAX_DOT_BYTES`)."""
        result, dot = self._tlc(spec, workers=workers, deadlock=deadlock, timeout=timeout, dump_graph=True, flags=())
        return result, (parse_dot(dot) if dot else None)

    def cached_tlc_seconds(self, spec: SpecFiles, *, timeout: float = TLC_TIMEOUT_S) -> float | None:
        """The seconds a cached plain TLC check of ``spec`` (its cfg, one worker, deadlock checked) took,
        or None when none is cached; never runs TLC. The same check run with its graph kept on the side
        counts (a reference's verification keeps one; its seconds include the dump)."""
        entry = self._cached_plain_entry(spec, timeout)
        return float(entry["seconds"]) if entry is not None else None

    def cached_check(self, spec: SpecFiles, *, timeout: float = TLC_TIMEOUT_S) -> TlcResult | None:
        """The verdict of a cached plain TLC check of ``spec`` (as :meth:`cached_tlc_seconds` finds it),
        or None when none is cached; never runs TLC."""
        entry = self._cached_plain_entry(spec, timeout)
        if entry is None:
            return None
        return classify(entry["output"], entry["exit_code"], False, entry["seconds"], launcher=entry["launcher"],
                        cached=True)

    def _cached_plain_entry(self, spec: SpecFiles, timeout: float) -> dict[str, Any] | None:
        entry = self._cached_plain_check(spec, timeout, dump_graph=False)
        return entry if entry is not None else self._kept_graph_entry(spec, timeout, GRAPH_CAP)

    def graph_kept(self, spec: SpecFiles, *, timeout: float = TLC_TIMEOUT_S, cap: int) -> bool:
        """Whether a cached :meth:`check_keeping_graph` run of ``spec`` kept its graph within ``cap``
        (read from the cache entry alone: never runs TLC, never parses the graph)."""
        return self._kept_graph_entry(spec, timeout, cap) is not None

    def _kept_graph_entry(self, spec: SpecFiles, timeout: float, cap: int) -> dict[str, Any] | None:
        """The cache entry of a :meth:`check_keeping_graph` run of ``spec`` that its cap did not stop."""
        with graph_cap(cap):
            entry = self._cached_plain_check(spec, timeout, dump_graph=True)
        return entry if entry is not None and not entry.get("exceeded") else None

    def _cached_plain_check(self, spec: SpecFiles, timeout: float, *, dump_graph: bool) -> dict[str, Any] | None:
        """The cache entry of a plain check of ``spec`` (its cfg, one worker, deadlock checked), or None."""
        key = self._plain_check_key(spec, timeout, dump_graph=dump_graph)
        return self._cached(key) if key is not None else None

    def _plain_check_key(self, spec: SpecFiles, timeout: float, *, dump_graph: bool) -> str | None:
        """The cache key of a plain check of ``spec`` (None: its cfg cannot run on this jar)."""
        if spec.cfg is None:
            return None
        try:
            cfg_text, cfg_flags = prepare_cfg(spec.cfg, self.toolchain.jar.cfg_keywords)
        except (UnsupportedKeyword, CfgError):
            return None
        return self._tlc_key(spec, cfg_text, _tlc_flags(1, cfg_flags, (), True), dump_graph, timeout)

    def check_keeping_graph(self, spec: SpecFiles, *, timeout: float = TLC_TIMEOUT_S,
                            cap: int) -> TlcResult:
        """:meth:`tlc`'s verdict on ``spec`` (its cfg, one worker, deadlock checked), with the state
        graph dumped on the side and cached with it (see :meth:`kept_graph`) when the dump stays
        within ``cap`` bytes. The verdict never depends on the dump: a run its cap stops runs again
        without one."""
        return self.tlc_keeping_graph(spec, timeout=timeout, cap=cap, parse=False)[0]

    def tlc_keeping_graph(self, spec: SpecFiles, *, timeout: float = TLC_TIMEOUT_S, cap: int,
                          deadlock: bool = True, parse: bool = True,
                          rerun: bool = True) -> tuple[TlcResult, LabelGraph | None]:
        """:meth:`tlc`'s verdict (one worker) and, when ``parse`` and the run ended without error with a
        dump of at most ``cap`` bytes, its complete state graph, read by label (see
        :class:`~.graph.LabelGraph`). A run the cap stops runs again without a dump, so the verdict
        never depends on it; with ``rerun=False`` (a caller that wants the graph, not the verdict) it
        does not, and the capped run's ``too_large`` result comes back."""
        with graph_cap(cap):
            result, dot = self._tlc(spec, workers=1, deadlock=deadlock, timeout=timeout, dump_graph=True, flags=())
        if result.status == "too_large" and not rerun:
            return result, None
        if result.status == "too_large":  # the cap (or the output budget, which a plain run meets again)
            # The plain run explores at least as far as the one the cap stopped: at least as long.
            with self.expecting(max(result.seconds, expected_seconds() or 0.0)):
                return self.tlc(spec, timeout=timeout, deadlock=deadlock), None
        return result, (self._parsed(dot) if parse and dot and result.ok else None)

    def _parsed(self, dot: str) -> LabelGraph | None:
        """``dot`` read as a graph by label, kept per process (a task's reference graph serves all its
        outputs); None for a dump whose labels this reader cannot read (a graph on the side is never a
        verdict)."""
        key = content_key("kept-graph", dot=files_digest({"dot": dot}))
        if key not in self._graphs:
            try:
                graph: LabelGraph | None = parse_dot_labels(dot)
            except ValueError:
                graph = None
            if len(self._graphs) >= KEPT_GRAPHS:
                self._graphs.pop(next(iter(self._graphs)))
            self._graphs[key] = graph
        return self._graphs[key]

    def kept_graph(self, spec: SpecFiles, *, timeout: float = TLC_TIMEOUT_S,
                   cap: int) -> tuple[TlcResult, LabelGraph] | None:
        """The verdict and complete state graph of a cached :meth:`check_keeping_graph` run of ``spec``
        that ended without error, or None; never runs TLC. Graphs read once are kept per process."""
        with graph_cap(cap):
            key = self._plain_check_key(spec, timeout, dump_graph=True)
        if key is None:
            return None
        if key in self._kept:  # a task's reference graph is read for each of its outputs
            return self._kept[key]
        entry = self._cached(key)
        dot = _entry_dot(entry) if entry is not None else None
        if entry is None or not dot or entry.get("exceeded"):
            return None
        result = classify(entry["output"], entry["exit_code"], False, entry["seconds"], launcher=entry["launcher"],
                          cached=True)
        if not result.ok:
            return None
        graph = self._parsed(dot)
        if graph is None:
            return None
        if len(self._kept) >= KEPT_GRAPHS:
            self._kept.pop(next(iter(self._kept)))
        self._kept[key] = (result, graph)
        return self._kept[key]

    def _tlc_key(self, spec: SpecFiles, cfg_text: str, tlc_flags: Sequence[str], dump_graph: bool,
                 timeout: float) -> str:
        return content_key(
            "tlc", jar=self.toolchain.identity, main=spec.main, files=self._digest(spec),
            cfg=files_digest({"cfg": cfg_text}), flags=list(tlc_flags), graph=dump_graph,
            timeout=float(timeout),  # 300 and 300.0 are one limit
            heap=heap_cap(),  # a verdict such as "Java heap space" can change with it
            limits=[budgets().output_bytes, budgets().graph_bytes],  # and "too large" with these
        )

    def _cached_beside_graph(self, spec: SpecFiles, cfg_text: str, tlc_flags: list[str],
                             timeout: float) -> dict[str, Any] | None:
        """The cache entry of the same check run with its graph kept on the side (see :mod:`.sidegraph`),
        when that run ended within the graph's cap: a check without a dump has its verdict, as the dump
        changes nothing TLC prints (a reference's verification keeps its graph, and a copy of the
        reference's name check then needs no TLC run of its own)."""
        with graph_cap(GRAPH_CAP):
            entry = self._cached(self._tlc_key(spec, cfg_text, tlc_flags, True, timeout))
        return entry if entry is not None and entry.get("exceeded") is None else None

    def _outlasted_probe(self, key: str) -> bool:
        """Whether the look ahead (:meth:`probing`) stopped the check of ``key`` at its cap: a mark in the
        run cache, which the controller's probe writes and the workers read."""
        return self.use_cache and self.cache.get(_outlasted_key(key)) is not None

    def _tlc(
        self, spec: SpecFiles, *, workers: int, deadlock: bool, timeout: float, dump_graph: bool, flags: Sequence[str]
    ) -> tuple[TlcResult, str | None]:
        if spec.cfg is None:
            return _failed("config_error", f"module {spec.main} has no cfg to model-check with"), None
        try:
            cfg_text, cfg_flags = prepare_cfg(spec.cfg, self.toolchain.jar.cfg_keywords)
        except UnsupportedKeyword as exc:
            message = f"cfg: {unsupported_keyword_message(exc.keyword, self.toolchain)}"
            return dataclasses.replace(_failed("config_error", message), unsupported_keyword=exc.keyword), None
        except CfgError as exc:
            return _failed("config_error", f"cfg: {exc}"), None
        tlc_flags = _tlc_flags(workers, cfg_flags, flags, deadlock)
        key = self._tlc_key(spec, cfg_text, tlc_flags, dump_graph, timeout)
        entry = self._cached(key) or (None if dump_graph else self._cached_beside_graph(spec, cfg_text, tlc_flags, timeout))
        if entry is not None:
            result = classify(entry["output"], entry["exit_code"], False, entry["seconds"],
                              launcher=entry["launcher"], cached=True, flags=tuple(tlc_flags))
            return _too_large(result, entry.get("exceeded")), _entry_dot(entry)
        cap = probe_cap(timeout)
        probing = cap is not None
        if not probing and self._outlasted_probe(key):
            learn_ran_long()  # the look ahead saw this very check outlast its cap: no try on the quick tier
        with stage(spec, cfg_text, self.library(spec)) as staged:
            assert staged.cfg is not None
            # The cfg is staged as MAIN.cfg beside MAIN.tla, where every TLC version looks by default
            # (TLC 2.15 mishandles an absolute -config path).
            args = ["-tool", *tlc_flags]
            dot_base = staged.root / "states"
            if dump_graph:
                args += ["-dump", "dot", str(dot_base)]
            args.append(str(staged.main))
            self.launches["tlc"] += 1
            dot_file = dot_base.with_suffix(".dot")
            # The dump is held to its budget while TLC writes it: an infinite state space is stopped
            # at the budget, never left to fill the disk until the time limit. One run per core (see
            # .slots): the limit measures this run's work, not its neighbours'. The look ahead's runs
            # take no slot: one thread, each run stopped after a few seconds, and waiting behind a
            # self-check that holds a slot for minutes is what kept it from finding a long output early.
            slot = contextlib.nullcontext(0.0) if probing else tlc_slot(self.cache_dir / SLOTS_FOLDER, slot_priority())
            with slot as waited:
                self.tool_seconds["tlc_slot_wait"] += waited
                run = _unstaged(self.launcher.run("tlc", args, staged.workdir, staged.tmpdir, timeout,
                                                  dump=dot_file if dump_graph else None), staged)
            self.tool_seconds["tlc"] += run.seconds
            if run.exceeded is None:  # a run its disk budget stopped filled the disk itself
                _raise_disk_fault("TLC", staged)
            _raise_environment_fault("TLC", run)
            if run.exceeded is None and dump_graph and dot_file.is_file() \
                    and dot_file.stat().st_size > budgets().graph_bytes:
                run = dataclasses.replace(run, exceeded="graph")  # it grew past the budget as TLC ended
            # A run stopped by its time limit or a budget leaves a partial dump of no use.
            wanted = dump_graph and not run.timed_out and run.exceeded is None and dot_file.is_file()
            dot = dot_file.read_text("utf-8", "replace") if wanted else None
        self._store(key, run, {**_stored_dot(dot), "exceeded": run.exceeded})
        if probing and run.timed_out and self.use_cache:
            self.cache.put(_outlasted_key(key), {"cap_seconds": cap})
        result = classify(run.output, run.exit_code, run.timed_out, run.seconds, launcher=run.launcher,
                          flags=tuple(tlc_flags))
        return _too_large(result, run.exceeded), dot


def _outlasted_key(key: str) -> str:
    """The run-cache key of the mark that a look ahead stopped the check of ``key`` (a choice of JVM tier,
    never a verdict)."""
    return content_key("tlc-outlasted-probe", run=key)


def _tlc_flags(workers: int, cfg_flags: Sequence[str], flags: Sequence[str], deadlock: bool) -> list[str]:
    """TLC's command-line flags for a check (the run cache keys on them)."""
    tlc_flags = ["-workers", str(workers), *PINNED_FLAGS, *cfg_flags, *flags]
    if not deadlock and "-deadlock" not in tlc_flags:
        tlc_flags.append("-deadlock")
    return tlc_flags


#: Tool output kept per run (characters): a spec that prints every state (``PrintT``) can write tens of
#: megabytes. The start (parse and start-up messages) and the end (verdict, counterexample, state
#: counts) are kept; the middle is replaced by one line saying how much was cut.
MAX_OUTPUT_CHARS = 4_000_000
KEPT_HEAD_CHARS = 1_000_000


def cap_output(output: str, limit: int = MAX_OUTPUT_CHARS, head: int = KEPT_HEAD_CHARS) -> str:
    """``output`` within ``limit`` characters: its first ``head`` and its last lines, cut at line ends."""
    if len(output) <= limit:
        return output
    start = output[:head]
    start = start[:start.rfind("\n") + 1] or start
    end = output[-(limit - head):]
    end = end[end.find("\n") + 1:] if "\n" in end else end
    cut = len(output) - len(start) - len(end)
    return f"{start}[ALIAS: {cut} characters of tool output cut here]\n{end}"


def _entry_shape_ok(entry: dict[str, Any]) -> bool:
    """Whether a run-cache entry has the fields and types a cached verdict is read from."""
    def number(value: Any) -> bool:
        return isinstance(value, (int, float)) and not isinstance(value, bool)

    return (isinstance(entry.get("output"), str) and (entry.get("exit_code") is None or
            (isinstance(entry["exit_code"], int) and not isinstance(entry["exit_code"], bool)))
            and number(entry.get("seconds")) and isinstance(entry.get("launcher", "fresh"), str)
            and isinstance(entry.get("dot"), (str, type(None))) and isinstance(entry.get("dot_zlib"), (str, type(None)))
            and entry.get("exceeded") in (None, "output", "graph", "disk"))


#: Dumps larger than this are stored compressed in the run cache (a 35 MB dump of a large graph takes
#: about 3 MB compressed; most dumps are far smaller and stay plain text).
COMPRESS_DOT_BYTES = 1 * MB


def _stored_dot(dot: str | None) -> dict[str, str | None]:
    """How a run's dump is stored in its cache entry: as is, or zlib-compressed and base64-encoded."""
    if dot is None or len(dot) <= COMPRESS_DOT_BYTES:
        return {"dot": dot}
    return {"dot": None, "dot_zlib": base64.b64encode(zlib.compress(dot.encode("utf-8"), 1)).decode("ascii")}


def _entry_dot(entry: dict[str, Any]) -> str | None:
    """The dump a cache entry holds (None: none, or a compressed one that does not decode)."""
    if entry.get("dot_zlib"):
        try:
            return zlib.decompress(base64.b64decode(entry["dot_zlib"])).decode("utf-8")
        except (ValueError, zlib.error):
            return None
    dot = entry.get("dot")
    return dot if isinstance(dot, str) else None


def _too_large(result: TlcResult, exceeded: str | None) -> TlcResult:
    """The verdict of a run stopped over a budget: ``too_large``, saying which (the spec's doing)."""
    if exceeded is None:
        return result
    return dataclasses.replace(result, status="too_large", message=over_budget_message(exceeded), violated=None,
                               counterexample=())


def _raise_environment_fault(tool: str, run: ToolRun) -> None:
    """A run that never became a verdict is an error of the machine (``ToolRunError``), not of the spec."""
    fault = environment_fault(run)
    if fault is not None:
        raise ToolRunError(f"{tool} could not run: {fault}")


def _raise_disk_fault(tool: str, staged: Staged) -> None:
    """A run whose folders could not be written (a full or read-only disk, a folder removed under it)
    is an error of the machine (``ToolRunError``), never cached as a verdict: the next run grades again."""
    fault = disk_fault(staged.root, tree_size(staged.workdir, staged.tmpdir))
    if fault is not None:
        raise ToolRunError(f"{tool} could not run: {fault}")


def _unstaged(run: ToolRun, staged: Staged) -> ToolRun:
    """The run with staging paths removed from its output (so messages and cache entries are stable)
    and its output capped (so a chatty spec cannot fill memory or the cache)."""
    output = run.output.replace(f"{staged.workdir}{os.sep}", "").replace(f"{staged.tmpdir}{os.sep}", "")
    return dataclasses.replace(run, output=cap_output(output))


def _failed(status: str, message: str) -> TlcResult:
    """A verdict reached without running TLC (no cfg, a cfg this jar cannot run)."""
    return TlcResult(status=status, violated=None, counterexample=(), distinct_states=None,  # type: ignore[arg-type]
                     states_generated=None, depth=None, seconds=0.0, output="", message=message)


_default: TlaTools | None = None


def default_tools() -> TlaTools:
    """A process-wide ``TlaTools`` with the default toolchain and cache (created on first use)."""
    if _default is None or _default_pid != os.getpid():
        _set_default(TlaTools())
    assert _default is not None
    return _default


_default_pid = -1


def _set_default(tools: TlaTools) -> None:
    global _default, _default_pid
    _default, _default_pid = tools, os.getpid()
