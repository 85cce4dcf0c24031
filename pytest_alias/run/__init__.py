"""The run layer: a validated :class:`RunConfig` and the :class:`Workspace` that does the work.

Both doors — the pytest plugin and the ``tla-alias`` command line — build a ``RunConfig`` and ask a
``Workspace`` for tasks, cases, generations, grades and the covered set. Nothing here imports pytest.
Importing this package loads nothing else: the plugin reads the option table (``run.options``) in
every pytest run, so the workspace and what it grades with are imported on first use.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .config import RunConfig, selected_grades
    from .coverage import Coverage
    from .workspace import Workspace

_WHERE = {"RunConfig": "config", "selected_grades": "config", "Coverage": "coverage", "Workspace": "workspace"}
__all__ = ["Coverage", "RunConfig", "Workspace", "selected_grades"]


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{_WHERE[name]}", __name__), name)
