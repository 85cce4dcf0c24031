"""Grader integrity: a check TLC passed counts as a pass only when it checked something.

TLC reports "no error" for three kinds of run that prove nothing about an output:

* a run the output stopped itself (``TLCSet("exit", TRUE)``): read from TLC's final statistics, in
  :func:`pytest_alias.tla.tlc.classify` (status ``stopped_early``);
* a run with no initial state (``Init == … /\\ FALSE``): every invariant and property holds of no
  behavior at all (:func:`no_initial_state`);
* a run whose spec formula admits no behavior, because its fairness can never be met
  (``WF_v(x' = 100)`` where Next never sets ``x`` to 100, or ``[]<>FALSE``): every temporal property
  then holds vacuously, while the invariants are still checked on every reachable state
  (:func:`vacuous_behaviors`).

The last two are asked only of a run that passed, so they cost nothing for a failing output; the third
runs TLC once more, on the same spec and constants with the one property ``<>FALSE``, which every
behavior violates: TLC finds a violation exactly when the formula admits a behavior.
"""

from __future__ import annotations

import hashlib

from ..tla.cfg import Cfg, CfgError, parse_cfg, render_cfg
from ..tla.runner import TlaTools
from ..tla.specfiles import SpecFiles
from ..tla.tlc import TlcResult
from .refinement import mentions_liveness

__all__ = ["integrity_failure", "no_initial_state", "vacuous_behaviors"]

#: The property no behavior satisfies, checked to learn whether the spec formula admits a behavior.
NO_BEHAVIOR = "<>FALSE"


def _parsed(spec: SpecFiles) -> Cfg | None:
    try:
        return parse_cfg(spec.cfg) if spec.cfg is not None else None
    except CfgError:
        return None


def no_initial_state(spec: SpecFiles, result: TlcResult) -> str | None:
    """Why a passing ``result`` of ``spec`` checked nothing because no state satisfies its initial
    predicate, or None. Only for a behavior check (the cfg names INIT or a SPECIFICATION): a constant-only
    model (ASSUMEs alone) has no states by design."""
    return _no_initial_state(_parsed(spec), result)


def _no_initial_state(cfg: Cfg | None, result: TlcResult) -> str | None:
    if cfg is None or not (cfg.init or cfg.specification) or result.distinct_states != 0:
        return None
    return ("no state satisfies the output's initial predicate under the cfg's constants, so TLC had no "
            "behavior to check and every invariant and property held vacuously")


def _probe(spec: SpecFiles, cfg: Cfg) -> SpecFiles:
    """``spec`` with its cfg checking the one property :data:`NO_BEHAVIOR` (its constants, constraints and
    spec formula kept), defined in a wrapper module that extends the spec's main module."""
    digest = hashlib.sha256("\0".join([spec.main, *spec.modules.values()]).encode()).hexdigest()[:10]
    wrapper, name = f"AliasVacuity_{digest}", f"AliasNoBehavior_{digest}"
    text = f"---- MODULE {wrapper} ----\nEXTENDS {spec.main}\n{name} == {NO_BEHAVIOR}\n====\n"
    probe_cfg = cfg.without("INVARIANT", "PROPERTY").with_added("PROPERTY", name)
    return SpecFiles(wrapper, {**spec.modules, wrapper: text}, render_cfg(probe_cfg))


def vacuous_behaviors(tools: TlaTools, spec: SpecFiles, timeout: float, output: SpecFiles) -> str | None:
    """Why the temporal properties a passing check of ``spec`` verified hold only vacuously (its spec
    formula admits no behavior), or None. ``output`` holds the output's own modules, where its spec
    formula is read. Asked only where the cfg checks a PROPERTY under a SPECIFICATION whose formula
    writes a fairness or other temporal condition (Init and [][Next]_v alone always admit a behavior
    once an initial state exists). A probe TLC cannot finish (a time limit, an error) leaves the
    verdict as TLC gave it."""
    return _vacuous_behaviors(tools, spec, _parsed(spec), timeout, output)


def _vacuous_behaviors(tools: TlaTools, spec: SpecFiles, cfg: Cfg | None, timeout: float,
                       output: SpecFiles) -> str | None:
    if cfg is None or not cfg.specification or not cfg.properties:
        return None
    if not mentions_liveness(output.modules, output.main, cfg.specification):
        return None
    result = tools.tlc(_probe(spec, cfg), timeout=timeout, deadlock=False)
    if result.status != "ok":
        return None
    return (f"the output's specification {cfg.specification} admits no behavior (its fairness or temporal "
            "conditions can never be met), so every temporal property held vacuously: TLC found no behavior "
            f"violating {NO_BEHAVIOR}")


def integrity_failure(tools: TlaTools, spec: SpecFiles, result: TlcResult, timeout: float) -> str | None:
    """Why TLC's pass of ``spec`` (``result``) is no evidence about the output, or None."""
    if not result.ok:
        return None
    cfg = _parsed(spec)  # read once for both rules
    return _no_initial_state(cfg, result) or _vacuous_behaviors(tools, spec, cfg, timeout, spec)
