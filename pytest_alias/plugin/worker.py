"""An xdist worker's role: take the controller's payload (the generations) off xdist's channel, and
return the references' self-checks it made when it finishes."""

from __future__ import annotations

from typing import Any

import pytest

from .state import GENERATIONS_KEY
from .transport import COVERAGE_OUTPUT, decode_payload, encode_coverage, install_receiver


class AliasWorker:
    """An xdist worker's share: take the controller's payload off xdist's channel; hand back its self-checks."""

    def __init__(self, config: pytest.Config, workspace: Any) -> None:
        self.config = config
        self.workspace = workspace

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        install_receiver(list(self.config.pluginmanager.get_plugins()), self.receive)

    def receive(self, text: str) -> None:
        self.config.stash[GENERATIONS_KEY] = decode_payload(text)

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        coverage = self.workspace.coverage()
        output = getattr(self.config, "workeroutput", None)
        if coverage is not None and isinstance(output, dict):
            output[COVERAGE_OUTPUT] = encode_coverage(coverage)
