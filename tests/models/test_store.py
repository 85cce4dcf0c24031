"""The generation store: keys, modes, atomic writes, parallel writers, and resuming without repeats."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Sequence

import pytest

from pytest_alias.models.base import StopRunError
from pytest_alias.models import (
    DecodingParams,
    Generation,
    GenerationRequest,
    GenerationStore,
    StoreMissError,
    StoreMode,
    generation_key,
)
from pytest_alias.models.reference import ReferenceModel
from pytest_alias.models.store import StoreWriteWarning
from pytest_alias.tasks import Task

PARAMS = DecodingParams(temperature=0.7, top_p=0.95, max_new_tokens=1024)


class CountingModel:
    """Remembers every batch it was sent; answers deterministically."""

    identity = "counting:v1"

    def __init__(self) -> None:
        self.batches: list[list[tuple[str, int]]] = []

    def generate(self, requests: Sequence[GenerationRequest], params: DecodingParams) -> list[Generation]:
        self.batches.append([(r.task_id, r.sample) for r in requests])
        return [Generation(f"out {r.task_id} {r.sample}", self.identity, "stop",
                           usage={"input_tokens": 1, "output_tokens": 2}) for r in requests]

    @property
    def requests_seen(self) -> int:
        return sum(len(batch) for batch in self.batches)


def requests(n: int, task: str = "t") -> list[GenerationRequest]:
    return [GenerationRequest(task, "original", k, f"prompt for {task}", seed=0) for k in range(n)]


def entries(root: Path) -> list[Path]:
    return sorted(root.glob("*/*.json"))


def leftovers(root: Path) -> list[Path]:
    return sorted(root.glob("*/.tmp-*"))


# --------------------------------------------------------------------------- keys


def test_key_is_deterministic_and_covers_every_part() -> None:
    request = GenerationRequest("t", "original", 0, "p", seed=1)
    base = generation_key("m", PARAMS, request)
    # Pinned: a change here silently orphans every stored generation, so bump STORE_SCHEMA_VERSION.
    assert base == "3c7863e31e1901b7de285dfdbc3f9bc1f29f041e35bbb6bf4db7f95fd79a4077"
    assert base == generation_key("m", DecodingParams(temperature=0.7, top_p=0.95, max_new_tokens=1024), request)
    variants = [
        generation_key("m2", PARAMS, request),
        generation_key("m", DecodingParams(temperature=0.8, top_p=0.95, max_new_tokens=1024), request),
        generation_key("m", DecodingParams(temperature=0.7, top_p=0.95, max_new_tokens=1024, stop=("====",)), request),
        generation_key("m", PARAMS, GenerationRequest("t", "original", 0, "p ", seed=1)),
        generation_key("m", PARAMS, GenerationRequest("t", "original", 1, "p", seed=1)),
        generation_key("m", PARAMS, GenerationRequest("t", "original", 0, "p", seed=2)),
    ]
    assert len({base, *variants}) == 7
    # Which task asked does not matter: the model saw the same input.
    assert base == generation_key("m", PARAMS, GenerationRequest("other", "random", 0, "p", seed=1))


def test_key_is_stable_across_processes() -> None:
    code = textwrap.dedent("""
        from pytest_alias.models import DecodingParams, GenerationRequest, generation_key
        print(generation_key("m", DecodingParams(temperature=0.7), GenerationRequest("t", "original", 0, "p", 1)))
    """)
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={"PYTHONHASHSEED": "123", "PATH": ""}).stdout.strip()
    assert other == generation_key("m", DecodingParams(temperature=0.7), GenerationRequest("t", "original", 0, "p", 1))


# --------------------------------------------------------------------------- hits, misses, resuming


def test_second_run_calls_the_model_zero_times(tmp_path: Path) -> None:
    model = CountingModel()
    first = GenerationStore(tmp_path).generate(model, requests(4), PARAMS)
    assert model.batches == [[("t", 0), ("t", 1), ("t", 2), ("t", 3)]]  # one batch
    store = GenerationStore(tmp_path)
    second = store.generate(model, requests(4), PARAMS)
    assert len(model.batches) == 1 and store.counters() == {"hits": 4, "misses": 0, "writes": 0}
    assert second == first and all(g.from_store for g in second) and not any(g.from_store for g in first)
    assert len(entries(tmp_path)) == 4 and not leftovers(tmp_path)


def test_partially_filled_store_sends_only_the_misses_in_order(tmp_path: Path) -> None:
    model = CountingModel()
    store = GenerationStore(tmp_path)
    store.generate(model, [requests(5)[i] for i in (1, 3)], PARAMS)
    out = store.generate(model, requests(5), PARAMS)
    assert model.batches[-1] == [("t", 0), ("t", 2), ("t", 4)]
    assert [g.text for g in out] == [f"out t {k}" for k in range(5)]
    assert [g.from_store for g in out] == [False, True, False, True, False]
    assert store.counters() == {"hits": 2, "misses": 5, "writes": 5}


def test_chunked_run_keeps_finished_chunks_after_an_interrupt(tmp_path: Path) -> None:
    class Interrupted(CountingModel):
        def generate(self, requests: Sequence[GenerationRequest], params: DecodingParams) -> list[Generation]:
            if len(self.batches) == 1:
                raise KeyboardInterrupt
            return super().generate(requests, params)

    with pytest.raises(KeyboardInterrupt):
        GenerationStore(tmp_path).generate(Interrupted(), requests(4), PARAMS, chunk_size=2)
    assert len(entries(tmp_path)) == 2 and not leftovers(tmp_path)
    model = CountingModel()
    GenerationStore(tmp_path).generate(model, requests(4), PARAMS)
    assert model.batches == [[("t", 2), ("t", 3)]]  # the finished chunk is not repeated


def test_damaged_entry_is_a_miss_and_is_rewritten(tmp_path: Path) -> None:
    model = CountingModel()
    GenerationStore(tmp_path).generate(model, requests(1), PARAMS)
    entries(tmp_path)[0].write_text("{half an entr", encoding="utf-8")
    out = GenerationStore(tmp_path).generate(model, requests(1), PARAMS)
    assert model.requests_seen == 2 and out[0].text == "out t 0"
    assert json.loads(entries(tmp_path)[0].read_text())["request"] == {
        "task": "t", "condition": "original", "sample": 0, "seed": 0}


def test_wrong_number_of_outputs_is_an_error(tmp_path: Path) -> None:
    class Short(CountingModel):
        def generate(self, requests: Sequence[GenerationRequest], params: DecodingParams) -> list[Generation]:
            return super().generate(requests, params)[:-1]

    with pytest.raises(StopRunError, match="returned 1 generations for 2 requests"):
        GenerationStore(tmp_path).generate(Short(), requests(2), PARAMS)


def test_a_failing_request_fails_alone_and_is_not_stored(tmp_path: Path) -> None:
    class Picky(CountingModel):
        def generate(self, requests: Sequence[GenerationRequest], params: DecodingParams) -> list[Generation]:
            if any(r.sample == 1 for r in requests):
                raise ConnectionResetError("the server hung up")
            return super().generate(requests, params)

    store = GenerationStore(tmp_path)
    out = store.generate(Picky(), requests(3), PARAMS)
    assert [g.error for g in out] == [None, "ConnectionResetError: the server hung up", None]
    assert out[0].text and out[2].text and out[1].text == "" and "Traceback" in out[1].raw["error_detail"]
    assert store.writes == 2  # the failed request is asked again next run
    again = store.generate(Picky(), requests(3), PARAMS)
    assert [g.from_store for g in again] == [True, False, True]


# --------------------------------------------------------------------------- modes


def test_read_only_serves_hits_and_names_the_misses(tmp_path: Path) -> None:
    model = CountingModel()
    GenerationStore(tmp_path).generate(model, requests(2), PARAMS)
    ro = GenerationStore(tmp_path, "ro")
    assert [g.text for g in ro.generate(model, requests(2), PARAMS)] == ["out t 0", "out t 1"]
    with pytest.raises(StoreMissError, match=r"mode ro.*counting:v1.*task=t condition=original sample=2"):
        ro.generate(model, requests(3), PARAMS)
    assert model.requests_seen == 2 and len(entries(tmp_path)) == 2


def test_refresh_regenerates_and_overwrites(tmp_path: Path) -> None:
    model = CountingModel()
    GenerationStore(tmp_path).generate(model, requests(2), PARAMS)
    store = GenerationStore(tmp_path, StoreMode.REFRESH)
    out = store.generate(model, requests(2), PARAMS)
    assert model.batches == [[("t", 0), ("t", 1)]] * 2 and not any(g.from_store for g in out)
    assert store.counters() == {"hits": 0, "misses": 2, "writes": 2} and len(entries(tmp_path)) == 2


def test_off_writes_nothing(tmp_path: Path) -> None:
    model = CountingModel()
    store = GenerationStore(tmp_path / "store", "off")
    store.generate(model, requests(2), PARAMS)
    store.generate(model, requests(2), PARAMS)
    assert model.requests_seen == 4 and not (tmp_path / "store").exists()


def test_uncacheable_model_bypasses_the_store(tmp_path: Path) -> None:
    condition = Task("c", "d", {"M": "---- MODULE M ----\n====\n"}).original()
    request = GenerationRequest.from_condition(condition, 0)
    out = GenerationStore(tmp_path).generate(ReferenceModel(), [request], DecodingParams())
    assert out[0].text == condition.modules[0][1] and not entries(tmp_path)


def test_unknown_mode_and_default_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="rw, ro, refresh, off"):
        GenerationStore(tmp_path, "readonly")
    monkeypatch.setenv("ALIAS_CACHE_DIR", str(tmp_path / "cache"))
    assert GenerationStore().root == tmp_path / "cache" / "generations"


# --------------------------------------------------------------------------- concurrency


WRITER = textwrap.dedent("""
    import sys
    from pytest_alias.models import DecodingParams, Generation, GenerationRequest, GenerationStore, generation_key
    store = GenerationStore(sys.argv[1])
    request = GenerationRequest("t", "original", 0, "p", seed=0)
    key = generation_key("m", DecodingParams(), request)
    for _ in range(100):
        store.put(key, Generation("x" * 20000, "m", "stop"), request)
        got = store.get(key)
        assert got is None or got.text == "x" * 20000, "a reader saw a partial entry"
    print(key)
""")


def test_three_processes_writing_one_key(tmp_path: Path) -> None:
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(3)]
    results = [proc.communicate(timeout=60) for proc in procs]
    assert all(proc.returncode == 0 for proc in procs), [err for _, err in results]
    keys = {out.strip() for out, _ in results}
    assert len(keys) == 1
    store = GenerationStore(tmp_path, "ro")
    assert store.get(keys.pop()).text == "x" * 20000
    assert len(entries(tmp_path)) == 1 and not leftovers(tmp_path)


def test_unwritable_store_warns_and_still_returns(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    with pytest.warns(StoreWriteWarning, match="could not store generation"):
        out = GenerationStore(blocker).generate(CountingModel(), requests(1), PARAMS)
    assert out[0].text == "out t 0"
