"""The adversarial suite: bad inputs, faults and interruptions against ALIAS, with what each leaves behind.

    python benchmarks/adversarial.py [--only SUBSTRING] [--json OUT.json]

Each case runs ``tla-alias`` (``python -m pytest_alias``) in a child process with a private
``TMPDIR`` and a private cache, the way a user or CI would, and is judged on three things:

* **verdict**: the exit code and the one line that came back (a grade's reason, an error message);
* **expected**: whether that is what a careful tool does (fail closed, a clear line, the right side
  blamed);
* **leaks**: after the child has exited (or was killed), any JVM still running from its folders,
  any file left in its ``TMPDIR``, or a traceback printed to the user.

It prints one row per case and exits 1 when any case is unexpected or leaks. It takes a few
minutes on two cores (most cases start a JVM; the interruption cases wait for TLC to start).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parent.parent
TASKS = REPO / "pytest_alias" / "data" / "tasks"
CLOCK = TASKS / "hour-clock" / "HourClock.tla"
CLOCK_TEXT = CLOCK.read_text(encoding="utf-8")
#: A spec whose Init keeps TLC busy for minutes while printing nothing.
BUSY = ("---- MODULE HourClock ----\nEXTENDS Naturals\nVARIABLE hr\n"
        "Init == hr = 1 /\\ \\A a, b \\in 1..30000 : a + b > 1\nNext == hr' = hr\nSpec == Init /\\ [][Next]_hr\n"
        "TypeOK == TRUE\nNoonRecurs == TRUE\n====\n")


@dataclass
class Outcome:
    code: int | None
    line: str
    output: str
    leaks: list[str] = field(default_factory=list)


@dataclass
class Case:
    """One adversarial input: how to run it and which outcome is the right one."""

    name: str
    run: Callable[[Path], Outcome]
    expect: Callable[[Outcome], bool]
    wanted: str


# --------------------------------------------------------------------------- running a child


def _env(folder: Path, **extra: str) -> dict[str, str]:
    env = {**os.environ, "TMPDIR": str(folder / "tmp"), "ALIAS_CACHE_DIR": str(folder / "cache"), **extra}
    env.pop("PYTEST_XDIST_WORKER", None)
    return env


def _cli(folder: Path, *args: str, env: dict[str, str] | None = None, timeout: float = 300) -> Outcome:
    proc = subprocess.run([sys.executable, "-m", "pytest_alias", *args], capture_output=True, text=True,
                          env=env or _env(folder), cwd=folder, timeout=timeout)
    output = proc.stdout + proc.stderr
    return Outcome(proc.returncode, _first_line(proc.stdout, proc.stderr), output)


def _first_line(stdout: str, stderr: str) -> str:
    for text in (stdout, stderr):
        text = text.strip()
        if text.startswith("{"):
            try:
                data = json.loads(text.splitlines()[0])
                # tla-alias grade --json prints the record a pytest item writes: its one grade's verdict
                entry = next(iter(data["grades"].values())) if isinstance(data.get("grades"), dict) else data
                return f"passed={entry.get('passed')}: {entry.get('reason') or data.get('status') or ''}"
            except ValueError:
                pass
        if text:
            return text.splitlines()[0]
    return ""


def _grade(text: str | bytes, grade: str = "name", *, timeout: float = 20, env_extra: dict[str, str] | None = None,
           reference: Path = CLOCK) -> Callable[[Path], Outcome]:
    def run(folder: Path) -> Outcome:
        output = folder / "output.txt"
        output.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
        return _cli(folder, "grade", "--reference", str(reference), "--output", str(output), "--grade", grade,
                    "--timeout", str(timeout), "--json", env=_env(folder, **(env_extra or {})))
    return run


def _interrupt(sig: int, launcher: str, *, plugin: bool = False) -> Callable[[Path], Outcome]:
    """Grade a spec that keeps TLC busy, and send ``sig`` once TLC runs: to the ``grade`` command, or
    (``plugin``) to a whole ``pytest -n 2`` run's process group, as a terminal's Ctrl-C or a CI
    cancel does (the JVMs and janitors run in sessions of their own, out of its reach)."""
    def run(folder: Path) -> Outcome:
        _grade(CLOCK_TEXT, env_extra={"ALIAS_LAUNCHER": launcher})(folder)  # warm: class archive, server build
        output = folder / "output.txt"
        output.write_text(BUSY)
        if plugin:
            replay = folder / "busy.jsonl"
            replay.write_text(json.dumps({"task": "hour-clock", "condition": "original", "sample": 0, "text": BUSY}))
            command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--alias-suite=builtin?ids=hour-clock",
                       f"--alias-model=replay:{replay}", "--alias-conditions=original", "--alias-samples=1",
                       "--alias-grade=name", "--alias-timeout=120", "-n", "2", "-q", "-W", "ignore"]
        else:
            command = [sys.executable, "-m", "pytest_alias", "grade", "--reference", str(CLOCK), "--output",
                       str(output), "--grade", "name", "--timeout", "120", "--json"]
        child = subprocess.Popen(command, env=_env(folder, ALIAS_LAUNCHER=launcher), cwd=folder, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, start_new_session=True,
                                 preexec_fn=terminal_signals)
        deadline = time.monotonic() + 90
        # Wait for TLC on the busy output itself (staged with its cfg), not for any JVM: the run's
        # set-up (condition checks, self-checks) starts JVMs of its own before it grades.
        while time.monotonic() < deadline and not (_jvms(folder) and _busy_tlc_staged(folder)):
            time.sleep(0.2)
        time.sleep(2.0)
        started = bool(_jvms(folder))
        if plugin:
            os.killpg(child.pid, sig)
        else:
            child.send_signal(sig)
        stdout, stderr = child.communicate(timeout=90)
        if plugin:  # the last thing the run printed (pytest's interruption banner, or nothing after a kill)
            printed = [text.strip() for text in (stdout + stderr).splitlines() if text.strip()]
            line = f"exit {child.returncode}; last printed: {printed[-1][:70] if printed else '(nothing)'}"
        else:
            line = _first_line(stdout, stderr) or f"exit {child.returncode}"
        return Outcome(child.returncode, line if started else f"TLC never started; {line}", stdout + stderr)
    return run


def terminal_signals() -> None:
    """In a child about to start: SIGINT as a terminal gives it (default, not blocked). A process
    that launches it may ignore or block SIGINT (a test runner's worker), and a child inherits both,
    so a Ctrl-C sent to the child would never reach it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})


def _busy_tlc_staged(folder: Path) -> bool:
    """Whether a TLC run of :data:`BUSY` is staged under ``folder``'s temporary folder (a module with
    BUSY's Init beside a cfg: SANY stages no cfg)."""
    try:
        cfgs = list((folder / "tmp").rglob("*.cfg"))
    except OSError:  # a staging folder went away while it was listed: look again at the next poll
        return False
    for cfg in cfgs:
        module = cfg.with_suffix(".tla")
        try:
            if module.is_file() and "1..30000" in module.read_text(errors="replace"):
                return True
        except OSError:
            continue
    return False


def _jvms(folder: Path) -> list[str]:
    """Java processes started from ``folder`` (its staging folders or tool-server home), via /proc."""
    found = []
    for pid in subprocess.run(["pgrep", "java"], capture_output=True, text=True).stdout.split():
        try:
            command = Path(f"/proc/{pid}/cmdline").read_text(errors="replace")
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            continue
        if str(folder) in command or cwd.startswith(str(folder)):
            found.append(pid)
    return found


def _leaks(folder: Path, outcome: Outcome) -> list[str]:
    deadline = time.monotonic() + 10  # a janitor or a parent-death signal acts within moments
    while time.monotonic() < deadline and (_jvms(folder) or any(p for p in (folder / "tmp").iterdir()
                                                                 if not p.name.startswith("pytest-of-"))):
        time.sleep(0.2)
    leaks = [f"JVM {pid}" for pid in _jvms(folder)]
    # pytest keeps its own last three base folders (pytest-of-USER) by design: not a leak of ALIAS's.
    leaks += [f"tmp/{p.name}" for p in sorted((folder / "tmp").iterdir()) if not p.name.startswith("pytest-of-")]
    if "Traceback (most recent call last)" in outcome.output:
        leaks.append("traceback printed")
    for pid in _jvms(folder):
        subprocess.run(["kill", "-9", pid], check=False)
    return leaks


# --------------------------------------------------------------------------- the cases


def _fails(*words: str) -> Callable[[Outcome], bool]:
    return lambda o: o.code == 1 and all(w.lower() in o.line.lower() for w in words)


def _usage(*words: str) -> Callable[[Outcome], bool]:
    return lambda o: o.code == 2 and all(w.lower() in o.output.lower() for w in words)


def _unwritable_cache(folder: Path) -> Outcome:
    cache = folder / "ro-cache"
    cache.mkdir()
    cache.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        return _grade(CLOCK_TEXT, env_extra={"ALIAS_CACHE_DIR": str(cache)})(folder)
    finally:
        cache.chmod(stat.S_IRWXU)


def _decoy_in_working_folder(folder: Path) -> Outcome:
    """An output that EXTENDS a module lying in the caller's folder (the reference's own folder)."""
    decoy = folder / "Secret.tla"
    decoy.write_text("---- MODULE Secret ----\nSecretValue == 42\n====\n")
    text = CLOCK_TEXT.replace("EXTENDS Naturals", "EXTENDS Naturals, Secret", 1)
    return _grade(text, "parse")(folder)


def _offline_api(folder: Path) -> Outcome:
    """The plugin with an API model and no network (a closed local port): one message, quickly."""
    with socket_closed_port() as port:
        start = time.monotonic()
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--pyargs", "pytest_alias.plugin.test_tla",
             f"--alias-model=openai:gpt-test?batch=0&base_url=http://127.0.0.1:{port}/v1",
             "--alias-suite=builtin?ids=hour-clock", "--alias-samples=1", "--alias-grade=parse",
             "--alias-conditions=original", "-q"],
            capture_output=True, text=True, env=_env(folder, OPENAI_API_KEY="sk-test"), cwd=folder, timeout=600)
    output = proc.stdout + proc.stderr
    lines = [line for line in output.splitlines() if "alias:" in line or "ERROR" in line]
    return Outcome(proc.returncode, f"{time.monotonic() - start:.0f} s; " + (lines[0] if lines else output[-120:]),
                   output)


class socket_closed_port:
    """A local port nothing listens on (bound, then closed)."""

    def __enter__(self) -> int:
        import socket

        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            return sock.getsockname()[1]

    def __exit__(self, *exc: object) -> None:
        return None


CASES = [
    Case("empty output", _grade(""), _fails("empty"), "fails: empty"),
    Case("prose, no module", _grade("I cannot write TLA+ today."), _fails("no '---- MODULE"), "fails: no module"),
    Case("binary bytes", _grade(bytes(range(256)) * 64), _fails(), "fails with a reason"),
    Case("invalid UTF-8 inside a module", _grade(CLOCK_TEXT.encode().replace(b"hour", b"h\xff\xfeur", 1)),
         lambda o: o.code in (0, 1) and o.line.startswith("passed="), "a verdict, no crash"),
    Case("5 MB output", _grade("x" * 5_000_000), _fails(), "fails: too large"),
    Case("module named ../../etc/x", _grade("---- MODULE ../../etc/x ----\nX == 1\n====\n"), _fails(),
         "fails, nothing written outside"),
    Case("300-character module name", _grade(f"---- MODULE {'M' * 300} ----\nX == 1\n====\n"), _fails(),
         "fails with a reason"),
    Case("no closing ====", _grade(CLOCK_TEXT.replace("=" * 77, "")), lambda o: o.code in (0, 1),
         "a verdict (graded or failed)"),
    Case("two modules", _grade(CLOCK_TEXT + "\n---- MODULE Other ----\nY == 2\n====\n"),
         lambda o: o.code == 0, "passes on the matching module"),
    Case('writer guard: "(*" string pair', _grade(CLOCK_TEXT.replace(
        "EXTENDS Naturals", 'EXTENDS Naturals\nA == "(*"\nINSTANCE IOUtils\nB == "*)"', 1)), _fails("IOUtils"),
        "refused unrun"),
    Case("writer guard: \\* (* line comment", _grade(CLOCK_TEXT.replace(
        "EXTENDS Naturals", "\\* (*\nEXTENDS Naturals, IOUtils", 1)), _fails("IOUtils"), "refused unrun"),
    Case('writer guard: "\\\\*" string', _grade(CLOCK_TEXT.replace(
        "EXTENDS Naturals", 'EXTENDS Naturals, IOUtils\nM == "\\\\*"', 1)), _fails("IOUtils"), "refused unrun"),
    Case("infinite state space", _grade(CLOCK_TEXT.replace("Tick == hr' = IF hr = 12 THEN 1 ELSE hr + 1",
                                                           "Tick == hr' = hr + 1").replace("hr \\in 1..12", "hr \\in Nat", 1),
                                        timeout=8), _fails("limit"), "fails at the limit"),
    Case("deep recursion", _grade(CLOCK_TEXT.replace(
        "TypeOK == hr \\in 1..12", "RECURSIVE F(_)\nF(n) == IF n = 0 THEN 0 ELSE 1 + F(n - 1)\n"
                                   "TypeOK == hr \\in 1..12 /\\ F(100000) > 0", 1), timeout=30), _fails(),
         "fails with a reason"),
    Case("PrintT on every state", _grade(CLOCK_TEXT.replace(
        "TypeOK == hr \\in 1..12", "TypeOK == hr \\in 1..12 /\\ PrintT(<<hr, \"x\">>)", 1).replace(
        "EXTENDS Naturals", "EXTENDS Naturals, TLC", 1)), lambda o: o.code in (0, 1), "a verdict"),
    Case("module in the caller's folder", _decoy_in_working_folder, _fails("Secret"), "fails: Secret not found"),
    Case("ALIAS_LAUNCHER=bogus", _grade(CLOCK_TEXT, env_extra={"ALIAS_LAUNCHER": "bogus"}),
         lambda o: o.code == 2 and "ALIAS_LAUNCHER" in o.line, "one-line usage error"),
    Case("ALIAS_JAVA_HEAP=lots", _grade(CLOCK_TEXT, env_extra={"ALIAS_JAVA_HEAP": "lots"}),
         lambda o: o.code == 2 and "ALIAS_JAVA_HEAP" in o.line, "one-line usage error"),
    Case("ALIAS_JAVA_HEAP=1k (JVM cannot start)", _grade(CLOCK_TEXT, env_extra={"ALIAS_JAVA_HEAP": "1k",
                                                                                "ALIAS_LAUNCHER": "fresh"}),
         lambda o: o.code != 0 and "did not start" in o.line, "the machine blamed, not the output"),
    Case("read-only cache folder", _unwritable_cache, lambda o: o.code == 0, "one warning, graded uncached"),
    Case("check --timeout -1", lambda f: _cli(f, "check", str(CLOCK), "--timeout", "-1"), _usage("timeout"),
         "exit 2"),
    Case("check --timeout nan", lambda f: _cli(f, "check", str(CLOCK), "--timeout", "nan"), _usage("timeout"),
         "exit 2"),
    Case("rename --out unwritable", lambda f: _cli(f, "rename", str(CLOCK), "--out", "/proc/alias-nope"),
         lambda o: o.code not in (0, None) and "Traceback" not in o.output, "one line, no traceback"),
    Case("Ctrl-C mid-TLC (fresh JVM)", _interrupt(signal.SIGINT, "fresh"), lambda o: o.code not in (0, None),
         "stops; nothing left"),
    Case("SIGKILL mid-TLC (fresh JVM)", _interrupt(signal.SIGKILL, "fresh"), lambda o: o.code == -9,
         "killed; janitor cleans up"),
    Case("SIGKILL mid-TLC (tool server)", _interrupt(signal.SIGKILL, "server"), lambda o: o.code == -9,
         "killed; janitor cleans up"),
    Case("SIGTERM mid-TLC (tool server)", _interrupt(signal.SIGTERM, "server"), lambda o: o.code not in (0, None),
         "stops; nothing left"),
    Case("pytest -n 2: Ctrl-C mid-TLC (tool server)", _interrupt(signal.SIGINT, "server", plugin=True),
         lambda o: o.code not in (0, None), "stops; nothing left"),
    Case("pytest -n 2: SIGKILL of the run (fresh JVM)", _interrupt(signal.SIGKILL, "fresh", plugin=True),
         lambda o: o.code == -9, "killed; janitors clean up"),
    Case("pytest -n 2: SIGKILL of the run (tool server)", _interrupt(signal.SIGKILL, "server", plugin=True),
         lambda o: o.code == -9, "killed; janitors clean up"),
    Case("API model, no network", _offline_api, lambda o: o.code == 4 and "no connection" in o.output,
         "stops in seconds, one message"),
]


# --------------------------------------------------------------------------- flooding outputs: ceilings

#: An output whose state space never ends (its state-graph dump grows until something stops it).
ENDLESS = ("---- MODULE HourClock ----\nEXTENDS Naturals\nVARIABLE hr\nTypeOK == hr \\in Nat\n"
           "Init == hr \\in 1..12\nTick == hr' = hr + 1\nNext == Tick\nSpec == Init /\\ [][Next]_hr /\\ WF_hr(Tick)\n"
           "NoonRecurs == []<>(hr = 12)\n====\n")
#: The same, printing a long line in every state (a PrintT flood).
FLOOD = ENDLESS.replace("EXTENDS Naturals", "EXTENDS Naturals, TLC").replace(
    "Tick == hr' = hr + 1", "Tick == hr' = hr + 1 /\\ PrintT(<<hr, \"" + "x" * 400 + "\">>)")
#: The ceilings a ``-n 2`` run on flooding outputs must stay under (ALIAS's default budgets: 64 MB of
#: printed output and 64 MB of state graph per run, one run per worker at a time, plus the cache and
#: the kept output): disk written under the run's folders, and the resident memory of its Python processes.
DISK_CEILING_MB = 400
PYTHON_MEMORY_CEILING_MB = 1200


def _tree_size(folder: Path) -> int:
    total = 0
    for root, _, files in os.walk(folder):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                pass
    return total


def measure_flood(folder: Path, *, code: Path = REPO, workers: int = 2, timeout: float = 30,
                  extra_env: dict[str, str] | None = None) -> dict[str, object]:
    """Grade flooding outputs (an endless state graph, a PrintT flood) with ``pytest -n WORKERS`` in
    extended mode and sample, every 0.2 s, the disk used under ``folder`` (temporary files and the
    cache) and the resident memory of the run's Python processes and JVMs. ``code`` is the checkout
    whose ALIAS runs (to compare with an earlier version)."""
    import psutil

    replay = folder / "flood.jsonl"
    lines = [{"task": "hour-clock", "condition": "original", "sample": i, "text": text}
             for i, text in enumerate([ENDLESS, FLOOD])]
    replay.write_text("".join(json.dumps(line) + "\n" for line in lines))
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--alias-suite=builtin?ids=hour-clock",
               f"--alias-model=replay:{replay}", "--alias-conditions=original", f"--alias-samples={len(lines)}",
               "--alias-grade=behavior", "--alias-mode=extended", f"--alias-timeout={timeout:g}", "-n", str(workers),
               "-q", "-W", "ignore", f"--alias-report={folder / 'run.json'}", "--pyargs", "pytest_alias.plugin.test_tla"]
    env = _env(folder, PYTHONPATH=str(code), **(extra_env or {}))
    start = time.monotonic()
    child = subprocess.Popen(command, env=env, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    peaks = {"disk_mb": 0.0, "python_mb": 0.0, "python_process_mb": 0.0, "jvm_mb": 0.0}
    output: list[str] = []
    reader = __import__("threading").Thread(target=lambda: output.extend(child.stdout or []), daemon=True)
    reader.start()
    root = psutil.Process(child.pid)
    while child.poll() is None:
        python = jvm = largest = 0
        try:
            processes = [root, *root.children(recursive=True)]
        except psutil.Error:
            processes = []
        for process in processes:
            try:
                rss = process.memory_info().rss
                name = process.name()
            except psutil.Error:
                continue
            if "java" in name:
                jvm += rss
            else:
                python += rss
                largest = max(largest, rss)
        mb = 1024 * 1024
        peaks["python_mb"] = max(peaks["python_mb"], python / mb)
        peaks["python_process_mb"] = max(peaks["python_process_mb"], largest / mb)
        peaks["jvm_mb"] = max(peaks["jvm_mb"], jvm / mb)
        peaks["disk_mb"] = max(peaks["disk_mb"], _tree_size(folder) / mb)
        time.sleep(0.2)
    reader.join(5)
    text = "".join(output)
    try:
        records = json.loads((folder / "run.json").read_text())["records"]
        reasons = [f"s{r['sample']}: {r['grades']['behavior']['reason']}"[:200] for r in records]
    except (OSError, ValueError, KeyError, TypeError):
        reasons = [line.strip()[:160] for line in text.splitlines() if "FAILED" in line]
    return {**{k: round(v, 1) for k, v in peaks.items()}, "seconds": round(time.monotonic() - start, 1),
            "exit": child.returncode, "verdicts": reasons, "output": text}


def _flood_case(folder: Path) -> Outcome:
    peaks = measure_flood(folder)
    over = sum(1 for reason in peaks["verdicts"] if "exceeded" in reason or "print more than" in reason or "printed more than" in reason)  # type: ignore[union-attr]
    line = (f"peak disk {peaks['disk_mb']} MB, Python {peaks['python_mb']} MB (largest process "
            f"{peaks['python_process_mb']} MB), JVMs {peaks['jvm_mb']} MB, {peaks['seconds']} s; "
            f"{over} of {len(peaks['verdicts'])} over budget")  # type: ignore[arg-type]
    return Outcome(peaks["exit"], line, str(peaks["output"]))  # type: ignore[arg-type]


def _within_ceilings(outcome: Outcome) -> bool:
    import re

    numbers = [float(n) for n in re.findall(r"([\d.]+) MB", outcome.line)]
    return (outcome.code == 1 and len(numbers) >= 2 and "2 of 2 over budget" in outcome.line and numbers[0] <= DISK_CEILING_MB
            and numbers[1] <= PYTHON_MEMORY_CEILING_MB and "over budget" in outcome.line)


def _undrivable_jar(launcher: str) -> Callable[[Path], Outcome]:
    """A tla2tools.jar lacking classes the tools need (as a jar of another make may): the run stops at
    start-up with one line blaming the jar, never a parse verdict on the output."""
    def run(folder: Path) -> Outcome:
        import zipfile

        from pytest_alias.tla.toolchain import find_jar

        jar = folder / "tla2tools.jar"
        with zipfile.ZipFile(find_jar().path) as source, zipfile.ZipFile(jar, "w") as out:
            for info in source.infolist():
                if not info.filename.startswith("tla2sany/modanalyzer/SpecObj"):
                    out.writestr(info, source.read(info))
        return _grade(CLOCK_TEXT, "parse", env_extra={"ALIAS_TLA2TOOLS": str(jar), "ALIAS_LAUNCHER": launcher})(folder)
    return run


def _hanging_java(folder: Path) -> Outcome:
    """An ALIAS_JAVA that never answers (and starts a child): stopped at a short limit, child and all."""
    java = folder / "bin" / "java"
    java.parent.mkdir()
    java.write_text(f"#!/bin/sh\nsleep 300 &\necho $! > {folder / 'child.pid'}\nwait\n")
    java.chmod(0o755)
    start = time.monotonic()
    outcome = _grade(CLOCK_TEXT, env_extra={"ALIAS_JAVA": str(java)})(folder)
    child = (folder / "child.pid").read_text().strip() if (folder / "child.pid").exists() else ""
    alive = bool(child) and Path(f"/proc/{child}").exists() and \
        Path(f"/proc/{child}/stat").read_text().split()[2] != "Z"
    outcome.line = f"{time.monotonic() - start:.0f} s; child {'ALIVE' if alive else 'gone'}; {outcome.line}"
    return outcome


CASES += [
    Case("jar the tool server cannot drive", _undrivable_jar("server"),
         lambda o: o.code == 2 and "cannot be driven" in o.line, "one line blaming the jar"),
    Case("jar the fresh JVM cannot drive", _undrivable_jar("fresh"),
         lambda o: o.code == 2 and "cannot be driven" in o.line, "one line blaming the jar"),
    Case("ALIAS_JAVA hangs", _hanging_java,
         lambda o: o.code == 2 and "child gone" in o.line and int(o.line.split(" s;")[0]) < 20,
         "stopped in seconds, its child killed"),
]
CASES.append(Case("pytest -n 2: flooding outputs (ceilings)", _flood_case, _within_ceilings,
                  f"fail over budget; disk <= {DISK_CEILING_MB} MB, Python <= {PYTHON_MEMORY_CEILING_MB} MB"))


def run_case(case: Case, root: Path) -> tuple[Outcome, float]:
    folder = Path(tempfile.mkdtemp(prefix="case-", dir=root))
    (folder / "tmp").mkdir()
    start = time.monotonic()
    try:
        outcome = case.run(folder)
    except subprocess.TimeoutExpired as exc:
        outcome = Outcome(None, f"did not finish in {exc.timeout:g} s", "")
    seconds = time.monotonic() - start
    outcome.leaks = _leaks(folder, outcome)
    shutil.rmtree(folder, ignore_errors=True)
    return outcome, seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="run only the cases whose name contains this text")
    parser.add_argument("--json", type=Path, help="also write the rows as JSON")
    parser.add_argument("--flood", type=Path, metavar="CHECKOUT",
                        help="only measure the flooding outputs' peak disk and memory with the ALIAS in CHECKOUT")
    args = parser.parse_args(argv)
    if args.flood:
        with tempfile.TemporaryDirectory(prefix="alias-flood-") as scratch:
            (Path(scratch) / "tmp").mkdir()
            peaks = measure_flood(Path(scratch), code=args.flood.resolve())
        print(json.dumps({k: v for k, v in peaks.items() if k != "output"}, indent=1))
        return 0
    if not sys.platform.startswith("linux"):
        print("adversarial suite: finding leaked JVMs reads /proc (Linux only)", file=sys.stderr)
        return 2
    rows = []
    with tempfile.TemporaryDirectory(prefix="alias-adversarial-") as scratch:
        for case in CASES:
            if args.only.lower() not in case.name.lower():
                continue
            outcome, seconds = run_case(case, Path(scratch))
            ok = case.expect(outcome)
            rows.append({"case": case.name, "exit": outcome.code, "verdict": outcome.line[:110], "wanted": case.wanted,
                         "as_wanted": ok, "leaks": outcome.leaks, "seconds": round(seconds, 1)})
            row = rows[-1]
            print(f"{'ok ' if ok and not outcome.leaks else 'BAD'} {case.name:34} exit={str(outcome.code):4} "
                  f"{seconds:5.1f}s leaks={','.join(outcome.leaks) or 'none':8} | {row['verdict']}", flush=True)
    bad = [row for row in rows if not row["as_wanted"] or row["leaks"]]
    print(f"\n{len(rows)} cases, {len(bad)} unexpected or leaking; "
          f"{sum(r['seconds'] for r in rows):.0f} s in all")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
