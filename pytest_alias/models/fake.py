"""``fake``: an offline, deterministic model for tests of the plugin and the store."""

from __future__ import annotations

import hashlib
from typing import Sequence

from .base import DecodingParams, Generation, GenerationRequest


class FakeModel:
    """Answers with ``text`` (or a tiny module named after the request), counting calls and requests."""

    def __init__(self, text: str | None = None, name: str = "fake") -> None:
        self.text = text
        self.identity = f"fake:{name}"
        self.calls = 0
        self.requests_seen = 0

    def generate(self, requests: Sequence[GenerationRequest], params: DecodingParams) -> list[Generation]:
        """One deterministic generation per request; the same request always gets the same text."""
        self.calls += 1
        self.requests_seen += len(requests)
        out = []
        for request in requests:
            text = self.text if self.text is not None else self._module(request)
            out.append(Generation(text=text, model=self.identity, finish_reason="stop",
                                  usage={"input_tokens": len(request.prompt.split()),
                                         "output_tokens": len(text.split())}))
        return out

    @staticmethod
    def _module(request: GenerationRequest) -> str:
        digest = hashlib.sha256(f"{request.prompt}\0{request.sample}\0{request.seed}".encode()).hexdigest()[:8]
        return f"---- MODULE Fake ----\n\\* {request.task_id} {request.kind} s{request.sample} {digest}\n====\n"


def create_fake(argument: str = "", text: str | None = None) -> FakeModel:
    """Registry factory for ``fake`` and ``fake:NAME``."""
    return FakeModel(text=text, name=argument or "fake")
