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

TLC's final statistics do not catch every self-stop: when ``TLCSet("exit", TRUE)`` is evaluated
while TLC checks a successor state, TLC ends at once, reports "no error" even for a violation it had
just found, and may leave nothing on its queue (measured on die-hard: a wrong spec, and a right one
under a wrong mapping, both passed). So a pass of an output that can ask TLC to stop
(:func:`self_stopping`, read from its text) is no evidence either, whatever TLC printed; this holds
for the name grade and for every refinement check of the behavior grade.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

from ..tla.cfg import Cfg, CfgError, parse_cfg, render_cfg
from ..tla.runner import TlaTools
from ..tla.specfiles import SpecFiles, blank_comments
from ..tla.tlc import TlcResult
from ..vocabulary import Side
from .extract import Extraction
from .refinement import mentions_liveness
from .result import GradeResult

__all__ = ["integrity_failure", "no_initial_state", "self_stopping", "unless_self_stopping", "vacuous_behaviors"]

#: The property no behavior satisfies, checked to learn whether the spec formula admits a behavior.
NO_BEHAVIOR = "<>FALSE"


#: A string literal (skipped: a name inside one is not code) or an occurrence of TLC's ``TLCSet``.
_STRING_OR_TLCSET = re.compile(r'"(?:[^"\\\n]|\\.)*"|\bTLCSet\b')
#: ``TLCSet``'s first argument when it is a literal: a register number or a string key.
_LITERAL_KEY = re.compile(r'\s*\(\s*(?:(?P<number>\d+)|"(?P<key>(?:[^"\\\n]|\\.)*)")\s*,')
#: The string key with which ``TLCSet`` ends TLC's search.
EXIT_KEY = "exit"


def self_stopping(texts: Iterable[str]) -> str | None:
    """Why an output whose modules are ``texts`` may have ended TLC's check itself, or None.

    ``TLCSet(k, v)`` writes TLC's register ``k``; the key ``"exit"`` stops the search. A literal number
    or any other literal string key is a register and harmless; ``"exit"``, a key TLC computes (it may
    be ``"exit"``) and ``TLCSet`` passed on as an operator argument are not. Comments and strings are
    skipped, so only code counts."""
    for text in texts:
        code = blank_comments(text)
        for found in _STRING_OR_TLCSET.finditer(code):
            if found.group().startswith('"'):
                continue
            key = _LITERAL_KEY.match(code, found.end())
            if key is not None and key.group("key") != EXIT_KEY:
                continue
            line = code.count("\n", 0, found.start()) + 1
            use = (f'TLCSet("{EXIT_KEY}", ...)' if key is not None
                   else "TLCSet with a key that is not a literal (it may be \"exit\")")
            return (f"the output calls {use} at line {line}, which can end TLC's search early with no error "
                    "reported, even for a violation TLC had just found: no TLC check of it is evidence")
    return None


def unless_self_stopping(result: GradeResult, extraction: Extraction) -> GradeResult:
    """``result`` (a name or behavior grade: TLC's word), failed when it passed and the output can end
    TLC's search itself (:func:`self_stopping`)."""
    if not result.passed:
        return result
    why = self_stopping(extraction.texts)
    if why is None:
        return result
    result.details.update({"integrity": why, "side": Side.OUTPUT})
    return GradeResult(result.grade, False, why, result.details, result.seconds)


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
