"""Suites loaded with CIR's re-verification plugged in, for the task sets that need it.

``tlabench:PATH#test`` (and ``#train``, ``#eligible``) keeps the specs whose renamed copy passes
SANY and TLC. The task loaders (:mod:`pytest_alias.tasks.suites`) sit below CIR and take that check
as an argument; this module is where it is supplied, so every caller above CIR loads suites here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from ..tasks import suites
from ..tasks.model import Task
from ..tasks.suites import SuiteReport
from .prepared import verify_renamed

__all__ = ["load_suite", "load_suite_report"]


def load_suite(spec: str = "builtin", *, description_kind: str | None = None,
               ids: Iterable[str | int] | str | Path | None = None) -> list[Task]:
    """:func:`pytest_alias.tasks.suites.load_suite`, renamed copies verified through the condition cache."""
    return suites.load_suite(spec, description_kind=description_kind, ids=ids, verify=verify_renamed)


def load_suite_report(spec: str = "builtin", *, description_kind: str | None = None,
                      ids: Iterable[str | int] | str | Path | None = None) -> SuiteReport:
    """:func:`pytest_alias.tasks.suites.load_suite_report`, renamed copies verified through the condition cache."""
    return suites.load_suite_report(spec, description_kind=description_kind, ids=ids, verify=verify_renamed)
