"""Re-verification of a renamed spec: it counts only if SANY and TLC agree it is the same spec.

A renamed copy is verified when strict SANY accepts every renamed module, TLC passes with the
renamed cfg, and TLC reports the same distinct and total state counts as on the original. A spec
without a cfg is verified by SANY alone. The result names the first check that failed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from ..tla.cfg import parse_cfg, render_cfg, without_unsupported_checks
from ..tla.runner import TlaTools, default_tools
from ..tla.sidegraph import keeps_graph, plain_check
from ..tla.streams import GRAPH_CAP
from ..tla.specfiles import SpecFiles
from ..tla.tlc import TlcResult
from ..vocabulary import TLC_TIMEOUT_S


@dataclass(frozen=True)
class Counts:
    distinct_states: int | None
    states_generated: int | None

    @classmethod
    def of(cls, result: TlcResult | None) -> Counts | None:
        return None if result is None else cls(result.distinct_states, result.states_generated)

    def to_dict(self) -> dict[str, int | None]:
        return {"distinct_states": self.distinct_states, "states_generated": self.states_generated}


@dataclass(frozen=True)
class Verification:
    """Whether a renamed copy is equivalent to its original, and if not, which check failed."""

    verified: bool
    failure: str | None
    original: Counts | None
    renamed: Counts | None
    #: The machine's limit that ended the failing check (a TLC status such as ``timeout``, or
    #: ``sany_timeout``): another try may verify the copy, so the failure is never cached.
    machine_limit: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "verified": self.verified,
            "failure": self.failure,
            "original": self.original.to_dict() if self.original else None,
            "renamed": self.renamed.to_dict() if self.renamed else None,
            **({"machine_limit": self.machine_limit} if self.machine_limit else {}),
        }


def _spec(modules: Mapping[str, str], cfg: str | None) -> SpecFiles:
    return SpecFiles(next(iter(modules)), dict(modules), cfg)


def verify_renaming(
    original_modules: Mapping[str, str],
    original_cfg: str | None,
    renamed_modules: Mapping[str, str],
    renamed_cfg: str | None,
    *,
    tools: TlaTools | None = None,
    timeout: float = TLC_TIMEOUT_S,
) -> Verification:
    """Check a renamed copy against its original with strict SANY and TLC state counts."""
    tools = tools or default_tools()
    original_spec, renamed_spec = _spec(original_modules, original_cfg), _spec(renamed_modules, renamed_cfg)
    for name in renamed_modules:
        sany = tools.sany(SpecFiles(name, dict(renamed_modules)))
        if not sany.ok:
            first = sany.errors[0] if sany.errors else "SANY failed"
            return Verification(False, f"sany: module {name}: {first}", None, None,
                                sany.machine_ending)
    if original_cfg is None:
        return Verification(True, None, None, None)
    # With the shortcuts on, each copy's graph is kept on the side for the behavior grade (see graphpass).
    before = plain_check(tools, original_spec, timeout=timeout, keep_graph=keeps_graph(original_cfg, tools))
    if before.unsupported_keyword is not None:
        # A check the jar predates (POSTCONDITION, ALIAS…) says nothing about the state space the
        # renaming must keep: both copies are compared without the checks the jar cannot take.
        supported = tools.toolchain.jar.cfg_keywords
        original_spec, renamed_spec = (s.with_cfg(render_cfg(without_unsupported_checks(parse_cfg(s.cfg or ""),
                                                                                           supported)))
                                       for s in (original_spec, renamed_spec))
        before = tools.tlc(original_spec, timeout=timeout)
    if not before.ok:
        return Verification(False, f"original: TLC {before.explain()}", Counts.of(before), None,
                            before.machine_ending)
    # The copy has the original's state space: its check takes about as long (a long one skips the quick
    # tier), and a dump the cap stopped on the original would be stopped again (same names' lengths).
    keep_renamed = keeps_graph(renamed_spec.cfg, tools) and tools.graph_kept(original_spec, timeout=timeout,
                                                                             cap=GRAPH_CAP)
    with tools.expecting(before.seconds):
        after = plain_check(tools, renamed_spec, timeout=timeout, keep_graph=keep_renamed)
    original, renamed = Counts.of(before), Counts.of(after)
    if not after.ok:
        return Verification(False, f"tlc: {after.explain()}", original, renamed, after.machine_ending)
    if original != renamed:
        assert original is not None and renamed is not None
        return Verification(
            False,
            f"states: renamed copy has {renamed.distinct_states} distinct / {renamed.states_generated} total, "
            f"original {original.distinct_states} / {original.states_generated}",
            original, renamed,
        )
    return Verification(True, None, original, renamed)
