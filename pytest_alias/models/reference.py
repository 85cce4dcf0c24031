"""``reference``: answers every request with its condition's own reference module (a positive control)."""

from __future__ import annotations

import time
from typing import Sequence

from .base import DecodingParams, Generation, GenerationRequest


class ReferenceModel:
    """Returns the main module text of ``request.condition``; every grade should pass it.

    The output depends on local task files rather than the prompt, so the store must not keep it.
    """

    identity = "reference"
    cacheable = False

    def generate(self, requests: Sequence[GenerationRequest], params: DecodingParams) -> list[Generation]:
        """The reference main module of each request's condition, in request order."""
        generations = []
        for request in requests:
            start = time.perf_counter()
            if request.condition is None:
                raise ValueError(f"the reference model needs the condition of each request; {request.label()} has none")
            text = request.condition.modules[0][1]
            generations.append(Generation(text=text, model=self.identity, finish_reason="stop",
                                          seconds=time.perf_counter() - start))
        return generations


def create_reference(**options: object) -> ReferenceModel:
    """Registry factory for ``reference`` (takes no options)."""
    if options:
        raise TypeError(f"the reference model takes no options, got {', '.join(sorted(options))}")
    return ReferenceModel()
