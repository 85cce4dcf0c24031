"""Modules that the TLA+ community's tools ship but the bundled tla2tools.jar lacks (``TLAPS``).

The Toolbox and the TLA+ Proof System put ``TLAPS.tla`` on SANY's and TLC's module path, so a spec
that writes ``EXTENDS TLAPS`` for its proofs parses and model-checks there. The 2020 jar ALIAS
bundles has no such module, and such a spec would fail every grade for a file that is not its own.
ALIAS ships its own version (``data/library``, written for this project: every backend pragma is
``TRUE``) and stages it beside a spec that imports it, directly or through another module, unless
the spec brings a module of that name itself or the configured jar ships one. Run-cache keys include the staged texts, so a change
to a library module is never answered from an old entry.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Iterable, Mapping

from .specfiles import imported_modules

LIBRARY_DIR = Path(__file__).resolve().parent.parent / "data" / "library"


@functools.lru_cache(maxsize=1)
def library_modules() -> dict[str, str]:
    """Every module ALIAS ships, by name (read once)."""
    return {path.stem: path.read_text(encoding="utf-8") for path in sorted(LIBRARY_DIR.glob("*.tla"))}


def needed_library(modules: Mapping[str, str], provided: Iterable[str] = ()) -> dict[str, str]:
    """The shipped modules that ``modules`` import (transitively) and do not bring themselves; none
    that the jar already ``provided`` (a newer tla2tools.jar may ship its own TLAPS)."""
    shipped = {name: text for name, text in library_modules().items() if name not in set(provided)}
    needed: dict[str, str] = {}
    pending = list(modules.values())
    while pending:
        for name in imported_modules(pending.pop()):
            if name in shipped and name not in modules and name not in needed:
                needed[name] = shipped[name]
                pending.append(shipped[name])
    return needed
