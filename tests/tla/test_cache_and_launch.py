"""Run cache, launch paths, and isolation under parallel use."""

from __future__ import annotations

import concurrent.futures
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pytest_alias.tla.cache import RunCache, content_key, files_digest
from pytest_alias.tla.runner import TlaTools
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
    assert first.status == "crash" and not first.cached
    assert not list((tmp_path / "runs").glob("*/*.json"))
