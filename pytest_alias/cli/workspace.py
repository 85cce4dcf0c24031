"""How a command opens the run layer: one :class:`~pytest_alias.run.Workspace` per command, built
from the command's own arguments (``--cache-dir``, ``--no-cache`` and what the command sets), so
every command reads the same toolchain, caches and suites a pytest run does."""

from __future__ import annotations

import argparse
from typing import Any, Sequence

from ..run.config import RunConfig
from ..run.workspace import Workspace


def open_workspace(args: argparse.Namespace, *, tasks: Sequence[Any] | None = None, check: bool = True,
                   **settings: Any) -> Workspace:
    """A workspace for this command; ``check`` makes sure SANY and TLC can be driven (one line now, not a
    grader error per run). ``settings`` are :class:`RunConfig` fields (suite, seed, timeout, mode, …)."""
    settings.setdefault("use_cache", not getattr(args, "no_cache", False))
    config = RunConfig(cache_dir=getattr(args, "cache_dir", None), **settings)
    workspace = Workspace(config, tasks=tasks)
    if check:
        workspace.tools.check_drivable()
    return workspace
