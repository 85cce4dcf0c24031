"""``fake``: an offline, deterministic model for tests of the plugin and the store.

``fake:NAME?delay=S&batch_size=N&count=FILE`` makes it slow (``delay`` seconds per request), makes
the store hand it requests ``batch_size`` at a time, and appends one line per request it answers to
``FILE`` (so tests can count model calls across processes).
"""

from __future__ import annotations

import hashlib
import time
from pathlib import Path
from typing import Sequence

from ..errors import UsageProblem

from .api_config import as_float, as_int
from .base import DecodingParams, Generation, GenerationRequest
from .spec import with_spec_options


class FakeModel:
    """Answers with ``text`` (or a tiny module named after the request), counting calls and requests."""

    supports_prefix = False  # its answers are whole modules of its own

    def __init__(self, text: str | None = None, name: str = "fake", *, delay: float = 0.0,
                 batch_size: int | None = None, count: str | Path | None = None) -> None:
        self.text = text
        self.identity = f"fake:{name}"
        self.delay = delay
        self.batch_size = batch_size
        self.count = Path(count) if count else None
        self.calls = 0
        self.requests_seen = 0

    def generate(self, requests: Sequence[GenerationRequest], params: DecodingParams) -> list[Generation]:
        """One deterministic generation per request; the same request always gets the same text."""
        self.calls += 1
        self.requests_seen += len(requests)
        out = []
        for request in requests:
            if self.delay:
                time.sleep(self.delay)
            text = self.text if self.text is not None else self._module(request)
            if self.count is not None:
                with self.count.open("a", encoding="utf-8") as handle:
                    handle.write(f"{request.task_id} {request.kind} {request.sample}\n")
            out.append(Generation(text=text, model=self.identity, finish_reason="stop",
                                  usage={"input_tokens": len(request.prompt.split()),
                                         "output_tokens": len(text.split())}))
        return out

    @staticmethod
    def _module(request: GenerationRequest) -> str:
        digest = hashlib.sha256(f"{request.prompt}\0{request.sample}\0{request.seed}".encode()).hexdigest()[:8]
        return f"---- MODULE Fake ----\n\\* {request.task_id} {request.kind} s{request.sample} {digest}\n====\n"


def create_fake(argument: str = "", text: str | None = None, **options: str) -> FakeModel:
    """Registry factory for ``fake`` and ``fake:NAME[?delay=S&batch_size=N&count=FILE]``."""
    name, query = with_spec_options(argument, options) if argument else ("fake", options)
    unknown = sorted(set(query) - {"delay", "batch_size", "count"})
    if unknown:
        raise UsageProblem(f"fake model: unknown option(s) {', '.join(unknown)}")
    return FakeModel(text=text, name=name, delay=as_float("delay", query.get("delay", 0.0)),
                     batch_size=as_int("batch_size", query["batch_size"], 1) if "batch_size" in query else None,
                     count=query.get("count"))
