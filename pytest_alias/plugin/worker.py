"""An xdist worker's role: take the controller's payload (generations and self-checks) off xdist's channel."""

from __future__ import annotations

from typing import Any

import pytest

from .state import GENERATIONS_KEY
from .transport import decode_payload, install_receiver


class AliasWorker:
    """An xdist worker's share: take the controller's payload off xdist's channel."""

    def __init__(self, config: pytest.Config, workspace: Any) -> None:
        self.config = config
        self.workspace = workspace

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        install_receiver(list(self.config.pluginmanager.get_plugins()), self.receive)

    def receive(self, text: str) -> None:
        generations, coverage = decode_payload(text)
        self.config.stash[GENERATIONS_KEY] = generations
        if coverage is not None:
            self.workspace.adopt_coverage(coverage)
