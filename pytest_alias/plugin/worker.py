"""An xdist worker's role: take the controller's payload (the generations) off xdist's channel, and
return the references' self-checks it made when it finishes.

While the controller makes costly self-checks beside the items, the workers run at a lower CPU
priority (``nice`` +:data:`YIELD_NICENESS`): those self-checks are the run's longest poles, and a TLC
run slowed past its time limit would make a task not gradeable; the workers still use every cycle
the self-checks leave. Only the order of work changes, never what an item does.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from .state import GENERATIONS_KEY
from .transport import COVERAGE_OUTPUT, decode_payload, encode_coverage, install_receiver


#: How much a worker lowers its CPU priority while the controller makes costly self-checks.
YIELD_NICENESS = 5


class AliasWorker:
    """An xdist worker's share: take the controller's payload off xdist's channel; hand back its self-checks."""

    def __init__(self, config: pytest.Config, workspace: Any) -> None:
        self.config = config
        self.workspace = workspace

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        install_receiver(list(self.config.pluginmanager.get_plugins()), self.receive)

    def receive(self, text: str) -> None:
        self.config.stash[GENERATIONS_KEY], yield_cpu = decode_payload(text)
        if yield_cpu and hasattr(os, "nice"):
            try:
                os.nice(YIELD_NICENESS)
            except OSError:  # not permitted here: the work is the same, only its order may differ
                pass

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        coverage = self.workspace.coverage()
        output = getattr(self.config, "workeroutput", None)
        if coverage is not None and isinstance(output, dict):
            output[COVERAGE_OUTPUT] = encode_coverage(coverage)
