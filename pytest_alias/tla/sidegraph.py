"""Plain TLC checks that keep their state graph on the side, for a later grade to read (a shortcut).

The check that verifies a reference with its cfg and the name grade's check of an output with the
same cfg are plain checks. With the shortcuts on, and a cfg under which the graph says all there is
to say about the behaviors (see :func:`graphs_decide`), each such check also dumps its reachable state
graph, held to :data:`GRAPH_CAP`, into the run cache beside its verdict; the behavior grade reads
both graphs back (``grading.graphpass``). The verdict never depends on the dump: a check the cap
stops runs again without one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import switches
from .cfg import Cfg, CfgError, parse_cfg
from .specfiles import SpecFiles
from .streams import GRAPH_CAP
from .tlc import TlcResult

if TYPE_CHECKING:
    from .runner import TlaTools


def graphs_decide(cfg: Cfg) -> bool:
    """Whether the graphs of checks with ``cfg`` are shaped by Init and Next alone: no CONSTRAINT,
    ACTION_CONSTRAINT, SYMMETRY, VIEW or ALIAS (they change which states TLC explores or how it tells
    them apart), and every constant given an ordinary value (``=``, no parameters, no ``[Mod]``)."""
    if cfg.constraints or cfg.action_constraints or cfg.symmetry or cfg.view or cfg.alias:
        return False
    return all(entry.op == "=" and not entry.params and entry.module is None for entry in cfg.constants)


def dump_is_cheap(tools: TlaTools, *, temporal: bool) -> bool:
    """Whether a check dumps its graph for little: one with no temporal property to check, or one whose
    TLC leaves the liveness graph unwritten (``tools.launcher.quiet_liveness_dump``). TLC 2.15 also
    writes the liveness graph beside a dump where there are temporal properties to check: a 159-state
    spec took 0.30 s instead of 0.19 s with it, more than the check it could save."""
    return not temporal or tools.launcher.quiet_liveness_dump


def cheap_to_keep(cfg: Cfg, tools: TlaTools) -> bool:
    """Whether a plain check with ``cfg`` dumps its graph for little (its PROPERTY entries are its
    temporal properties: see :func:`dump_is_cheap`)."""
    return dump_is_cheap(tools, temporal=bool(cfg.properties))


def keeps_graph(cfg_text: str | None, tools: TlaTools) -> bool:
    """Whether a plain check with ``cfg_text`` keeps its graph: shortcuts on, a cfg whose graphs decide
    and that is cheap to keep."""
    if cfg_text is None or not switches.enabled():
        return False
    try:
        cfg = parse_cfg(cfg_text)
    except CfgError:
        return False
    return graphs_decide(cfg) and cheap_to_keep(cfg, tools)


def plain_check(tools: TlaTools, spec: SpecFiles, *, timeout: float, keep_graph: bool) -> TlcResult:
    """TLC's verdict on ``spec`` with its cfg, its graph kept on the side when ``keep_graph``."""
    if keep_graph:
        return tools.check_keeping_graph(spec, timeout=timeout, cap=GRAPH_CAP)
    return tools.tlc(spec, timeout=timeout)
