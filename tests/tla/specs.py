"""Small specs written for the toolchain tests, as ``SpecFiles``."""

from __future__ import annotations

from pytest_alias.tla.specfiles import SpecFiles

COUNTER = """---- MODULE Counter ----
EXTENDS Naturals
CONSTANT Max
VARIABLE n
Init == n = 0
Next == n < Max /\\ n' = n + 1
Spec == Init /\\ [][Next]_n /\\ WF_n(Next)
TypeOK == n \\in 0..Max
Small == n < 2
Reaches == <>(n = Max)
====
"""


def counter(cfg: str, text: str = COUNTER) -> SpecFiles:
    """The Counter module with the given cfg."""
    return SpecFiles("Counter", {"Counter": text}, cfg)


def module(name: str, body: str, cfg: str | None = None, **others: str) -> SpecFiles:
    """A one-off module ``name`` with ``body`` between header and footer (plus other modules)."""
    text = f"---- MODULE {name} ----\n{body}\n====\n"
    return SpecFiles(name, {name: text, **others}, cfg)
