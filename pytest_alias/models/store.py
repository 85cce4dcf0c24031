"""The generation store: every sample is generated once and kept, content-addressed, on disk.

A key is the SHA-256 of canonical JSON over the store schema version, the model identity, the
decoding parameters, the rendered prompt, the sample index and the seed. Each entry is one JSON
file written to a temporary name and moved into place with ``os.replace``: a reader never sees half
an entry, and several processes (pytest-xdist workers) share one store without locks, because two
writers of one key write equivalent entries and the last rename wins.
"""

from __future__ import annotations

from ..errors import RunStopped, UsageProblem

import hashlib
import json
import logging
import warnings
from enum import Enum
from pathlib import Path
from typing import Any, Callable, Sequence


from ..atomic import parse_json, write_json_atomic
from ..tla.cache import default_cache_dir
from .base import DecodingParams, Generation, GenerationRequest, Model, StopRunError, is_cacheable
from .redact import redacting

log = redacting(logging.getLogger("pytest_alias.models.store"))

#: Bump when the meaning of a stored entry or of a key part changes: old entries stop matching.
STORE_SCHEMA_VERSION = 1


class StoreMode(str, Enum):
    """``rw`` read and fill misses; ``ro`` read only (offline grading); ``refresh`` regenerate; ``off``."""

    RW = "rw"
    RO = "ro"
    REFRESH = "refresh"
    OFF = "off"


class StoreMissError(RunStopped, LookupError):
    """Read-only mode met requests the store does not hold."""


class StoreWriteWarning(UserWarning):
    """A generation could not be written to the store (it is still returned)."""


def default_store_root() -> Path:
    """``$ALIAS_CACHE_DIR/generations`` when set, else the user cache folder ``alias/generations``."""
    return default_cache_dir() / "generations"


def generation_key(identity: str, params: DecodingParams, request: GenerationRequest) -> str:
    """The store key of ``request`` sent to the model ``identity`` with ``params``."""
    document = {"schema": STORE_SCHEMA_VERSION, "model": identity, "params": params.to_dict(),
                "prompt": request.prompt, "sample": request.sample, "seed": request.seed}
    if request.prefix:  # only when given, so keys of requests without a prefix stay as they were
        document["prefix"] = request.prefix
    canonical = json.dumps(document, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class GenerationStore:
    """Stored generations under ``root/ab/abcdef….json``, with hit and miss counters."""

    def __init__(self, root: Path | str | None = None, mode: StoreMode | str = StoreMode.RW) -> None:
        try:
            self.mode = StoreMode(mode)
        except ValueError:
            known = ", ".join(m.value for m in StoreMode)
            raise UsageProblem(f"unknown store mode {mode!r}; choose one of {known}") from None
        self.root = Path(root).expanduser() if root is not None else default_store_root()
        self.hits = 0
        self.misses = 0
        self.writes = 0

    def counters(self) -> dict[str, int]:
        """Hits, misses and writes so far (per process; xdist workers report their own)."""
        return {"hits": self.hits, "misses": self.misses, "writes": self.writes}

    def path(self, key: str) -> Path:
        """Where the entry for ``key`` lives."""
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> Generation | None:
        """The stored generation, or None when absent or damaged (a damaged entry is a miss)."""
        try:
            with self.path(key).open(encoding="utf-8") as handle:
                entry = parse_json(handle.read())  # nested too deeply: a ValueError, so a miss
            if entry.get("schema") != STORE_SCHEMA_VERSION:
                return None
            return Generation.from_dict(entry["generation"], from_store=True)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None

    def put(self, key: str, generation: Generation, request: GenerationRequest | None = None) -> None:
        """Write one entry atomically; a failed write warns rather than losing the returned result."""
        entry: dict[str, Any] = {"schema": STORE_SCHEMA_VERSION, "key": key, "generation": generation.to_dict()}
        if request is not None:  # for people browsing the store; not part of the key
            entry["request"] = {"task": request.task_id, "condition": request.kind, "sample": request.sample,
                                "seed": request.seed}
        try:
            write_json_atomic(self.path(key), entry)  # interrupted or failed: no temporary file stays
            self.writes += 1
        except (OSError, TypeError, ValueError) as error:
            warnings.warn(f"could not store generation {key[:12]} under {self.root}: {error}",
                          StoreWriteWarning, stacklevel=2)

    def keeps(self, model: Model) -> bool:
        """Whether this store reads or writes ``model``'s generations at all (not ``off``, a cacheable model)."""
        return self.mode is not StoreMode.OFF and is_cacheable(model)

    def stored(self, model: Model, requests: Sequence[GenerationRequest],
               params: DecodingParams) -> list[Generation | None]:
        """The stored generation of each request, None where a run would ask the model (a miss, the
        ``refresh`` and ``off`` modes, a model the store never keeps); counts nothing."""
        if not self.keeps(model) or self.mode is StoreMode.REFRESH:
            return [None] * len(requests)
        return [self.get(generation_key(model.identity, params, request)) for request in requests]

    def answers_of(self, identity: str) -> list[Generation]:
        """Every stored generation of the model ``identity`` (a scan of the whole store; damaged
        entries are skipped): what a cost estimate learns the model's answer lengths from."""
        found = []
        for path in sorted(self.root.glob("??/*.json")) if self.root.is_dir() else []:
            generation = self.get(path.stem)
            if generation is not None and generation.model == identity:
                found.append(generation)
        return found

    def generate(self, model: Model, requests: Sequence[GenerationRequest], params: DecodingParams, *,
                 chunk_size: int | None = None,
                 on_done: Callable[[list[Generation]], None] | None = None) -> list[Generation]:
        """Generations for ``requests`` in order: stored ones read back, misses sent to ``model``.

        Misses go to the model in one batch, or in batches of ``chunk_size`` so a long local run
        saves its progress as it goes: each result is written as soon as its batch returns, and
        an interruption loses only the batch in flight. ``on_done`` is called with the stored
        generations first and then with each batch's results (for progress lines).
        """
        requests = list(requests)
        keep = self.keeps(model)
        keys = [generation_key(model.identity, params, request) for request in requests] if keep else []
        results = self.stored(model, requests, params)
        pending = [index for index, found in enumerate(results) if found is None]
        self.hits += len(requests) - len(pending)
        self.misses += len(pending)
        if pending and keep and self.mode is StoreMode.RO:
            raise StoreMissError(self._miss_message(model, [requests[i] for i in pending]))
        if on_done is not None and len(pending) < len(requests):
            on_done([found for found in results if found is not None])
        step = chunk_size if chunk_size and chunk_size > 0 else max(len(pending), 1)
        for start in range(0, len(pending), step):
            batch = pending[start:start + step]
            generated = self._call_each_on_failure(model, [requests[i] for i in batch], params)
            for index, generation in zip(batch, generated):
                if keep and generation.error is None:  # a failed request is asked again next run
                    self.put(keys[index], generation, requests[index])
                results[index] = generation
            if on_done is not None:
                on_done(generated)
        done = [generation for generation in results if generation is not None]
        assert len(done) == len(requests), "every request was either a hit or sent to the model"
        return done

    def _call_each_on_failure(self, model: Model, requests: list[GenerationRequest],
                              params: DecodingParams) -> list[Generation]:
        """The batch's generations; when the batch fails, each request alone, so one bad request
        becomes one failed generation (``Generation.failed``) and its neighbours still get answers.
        A ``StopRunError`` (the provider is unreachable…) stops at once: every request would meet it."""
        try:
            return self._call(model, requests, params)
        except StopRunError:
            raise
        except Exception as error:
            if len(requests) == 1:
                return [Generation.failed(model.identity, error)]
            first = error
        log.warning("model %s failed on a batch of %d (%s); asking each request alone", model.identity,
                    len(requests), first)
        return [self._call_each_on_failure(model, [request], params)[0] for request in requests]

    @staticmethod
    def _call(model: Model, requests: list[GenerationRequest], params: DecodingParams) -> list[Generation]:
        if not requests:
            return []
        generations = list(model.generate(requests, params))
        if len(generations) != len(requests):  # a silent mismatch would pair outputs with wrong cases
            raise StopRunError(f"model {model.identity} returned {len(generations)} generations "
                               f"for {len(requests)} requests")
        return generations

    def _miss_message(self, model: Model, missing: list[GenerationRequest]) -> str:
        shown = "; ".join(r.label() for r in missing[:5])
        if len(missing) > 5:
            shown += f"; and {len(missing) - 5} more"
        return (f"the generation store at {self.root} (mode ro) holds no output of {model.identity} for {shown}; "
                f"generate them first with mode rw, or grade a different model")
