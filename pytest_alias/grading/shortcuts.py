"""Grading shortcuts that give the same verdicts for less work, and the one switch that turns them off.

``ALIAS_SHORTCUTS=off`` (read once into the run's ``RunConfig``, which hands it to every grade in its
:class:`~.context.GradeContext`; xdist workers read it from their environment) grades every output the
plain way; every record says which way it was graded (``record["shortcuts"]``). The mapping search's
speed-ups are named rules beside the paper's loop (:mod:`.search_rules`). The shortcuts, each
verdict-preserving by construction:

* ``cascade``: an output is extracted once for all its grades, and an output that does not stage or
  does not pass strict SANY is decided for every grade at once, with the reason each grade gives then;
* ``early_stop``: the behavior grade's mapping search skips the mappings whose TLC check must fail
  the same way as one already tried: a start-up failure (see :func:`startup_failure`), an error of
  the output's own formulas (see :func:`own_state_error`), or an output with no initial state, under
  the same constant values. G's Init sees the constants, not the variable mapping: when TLC finds no
  state satisfying it, no state does, so every forward check with those constants passes vacuously
  and every reverse check fails on R's first state, where G's Init is false or cannot be evaluated;
  the mapping that showed it has settled the reason, since its forward check passed; and mappings
  whose constant values make one of G's own ASSUMEs not TRUE, found without their checks by
  :mod:`.assume_probe`, once a violation (or a reason ranked above one) has settled the reason; and
  mappings that have a constant stand for one of another arity (:func:`.mapping.arity_clash`: SANY
  rejects the substitution), once any failure has settled the first-failure reason; and mappings whose
  forward cfg substitutes a constant with a definition that TLC found G lacks (:func:`undefined_substitute`:
  TLC rejects the cfg), once any failure has settled the first-failure reason; and where an
  earlier mapping's forward check fell back to R's safety part (TLC cannot evaluate R's fairness), a
  later one, once the reason is settled, checks that safety part first and the whole formula only if
  it passes (what fails on the safety part fails on the whole formula);
* ``graph_filter``: the mapping search skips mappings under which the reachable state graphs of R and
  G show that a check must fail, once that failure could no longer be the search's reason (see
  :mod:`.graphfilter`);
* ``graph_pass``: the reference's verification and the name grade's check keep their state graphs
  on the side (:mod:`pytest_alias.tla.sidegraph`), and the identity mapping's forward and reverse
  checks are read off them where they hold (see :mod:`.graphpass`);
* ``self_check``: an output that is the reference itself (the same modules: the references'
  self-checks, verbatim copies) has its identity mapping's reverse check read off its forward check,
  which ran the same states and checked R's safety formula with the rest, and neither check run where
  R passed its own grade with the same mode and limit (``search_rules.SelfCheckCopy``);
  and a behavior grade whose TLC runs went wrong does not grade the reference against itself again
  where the run's self-check of the task passed with the same mode and limit (a renamed condition is
  the same spec under other names: see ``GradeContext.reference_passed``);
* ``dedupe``: an extracted module graded before (same module texts, condition, grade, mode, limit,
  toolchain and grader code) takes the stored verdict, within a run and across runs (the run cache);
* ``parallel_setup``: condition preparation and the references' self-checks run one thread per core
  (:func:`~pytest_alias.cir.prepared.parallel_threads`) instead of one task at a time;
* ``longest_first``: under ``-n``, items of tasks whose reference self-check took longest are sent
  first (:mod:`pytest_alias.plugin.scheduling`), so the run does not end with one worker busy; those
  whose task's self-check the controller's thread is still to make go after the others, and a model
  error, which neither makes nor waits for a self-check, costs nothing;
* ``look_ahead``: under ``-n``, a controller thread runs the name grade of the items to be sent last
  with each TLC run stopped after a few seconds (:mod:`pytest_alias.run.probe`): an output whose check
  outlasts that is sent next, and a check that ends is cached for its item to read (a stopped run is
  a timeout, never cached); its own verdicts are thrown away;
* ``quick_jvm``: SANY and TLC run first on a tool server that compiles with C1 only (later than
  usual, with the serial collector: see :data:`~pytest_alias.tla.launcher.TIER_FLAGS`), for at most
  :data:`~pytest_alias.tla.launcher.QUICK_SECONDS`; a check that needs longer runs again on the
  usual server with its whole limit (see :mod:`pytest_alias.tla.launcher`);
* ``early_liveness``: the tool server wakes TLC's checker between its own liveness checks (3 s in,
  then once a minute), within a bounded share of the run, so a temporal property's violation is
  reported soon after the explored graph holds it (see :data:`~pytest_alias.tla.launcher.LIVENESS_TICK_MILLIS`
  and the server's ``startLivenessTicker``). The same pass/fail and the same reason up to the
  counterexample it quotes: which counterexample TLC prints, as for any check past TLC's own first
  liveness check, depends on when the checks run;
* ``pluscal_check``: the tool server's SANY (TLC's parse included) checks a module's PlusCal
  translation only where the module holds PlusCal (one of ``PlusCal``, ``--algorithm``, ``--fair``):
  the jar's check copies every module line by line first, which costs a tiny check about 7% and
  grows with the square of a line's length (an 80 KB line: 1.5 s per SANY or TLC run), and finds
  nothing to report in any other module (see ``java/overrides/alias/PlusCalCheck.java``).

The switch itself lives in :mod:`pytest_alias.switches` (the preparation layer reads it too).
"""

from __future__ import annotations

import functools
import hashlib
import re
from pathlib import Path


#: TLC's message "Computing initial states...": printed before TLC evaluates any state.
_COMPUTING_INIT = "@!@!@STARTMSG 2189:"
#: Statuses that never come from checking a state against an invariant or property.
_STARTUP_STATUSES = frozenset({"config_error", "crash", "assumption_failure"})


def startup_failure(status: str, output: str, distinct_states: int | None) -> bool:
    """Whether a failed TLC run stopped before it evaluated any state (so before any invariant or
    property was checked): a configuration error, an ASSUME or constant definition that fails.

    Mappings that agree on the constants give TLC the same constant values and differ only in the
    variable substitution, which TLC evaluates on states alone: every such mapping stops the same way,
    so its check can neither pass nor find a violation, and the search's verdict and reason are the
    same without it.
    """
    return status in _STARTUP_STATUSES and not distinct_states and _COMPUTING_INIT not in output


#: A position TLC reports for an evaluation error (message 2103: ``0. Line 3, column 5 to line 3, column 9
#: in M``) or a state it could not fingerprint (2147: ``0) line 3, col 5 to line 3, col 9 of module M``).
_ERROR_POSITION = re.compile(r"^\s*\d+[.)] [Ll]ine \d+, col(?:umn)? \d+ to line \d+, col(?:umn)? \d+ "
                             r"(?:in|of module) (\w+)\s*$", re.M)


#: TLC's rejection of a cfg entry ``X <- D`` whose definition D the checked module does not define.
_UNDEFINED_SUBSTITUTE = re.compile(r"substitutes for \S+ with the undefined identifier (\w+)\.")


def undefined_substitute(status: str, output: str) -> str | None:
    """The definition a cfg error of TLC names as undefined (``The configuration file substitutes for
    X with the undefined identifier D``), or None for any other outcome.

    A forward check's cfg carries R's ``<-`` substitutions verbatim (``X <- MCInit`` for the G-constant
    mapped to R's), and its wrapper module adds only prefixed names to G's: whether D is defined is G's
    alone, the same under every mapping. So every mapping whose forward cfg substitutes with D (unscoped)
    stops where this one did, on a cfg error before any state: it can neither pass nor find a violation.
    """
    if status != "config_error":
        return None
    match = _UNDEFINED_SUBSTITUTE.search(output)
    return match.group(1) if match else None


def own_state_error(output: str, foreign_prefix: str, foreign: frozenset[str] = frozenset(),
                    own: frozenset[str] | None = None) -> bool:
    """Whether a forward check's TLC error (status ``crash``) arose while TLC evaluated the output's own
    formulas (its Init, Next or the states they build) rather than R's under the mapping: TLC says so
    (a successor not completely specified), or every position it reports lies outside the check's
    wrapper and R's copy (the modules named with ``foreign_prefix``) and R's other modules
    (``foreign``), and one lies in G's own modules (``own``, when given). No position: not known, False.

    G's own formulas see the constants but not the variable mapping, so every mapping with the same
    constants stops on this error, or on a violation TLC finds before it: none of them can pass.
    """
    if "is not completely specified" in output:
        return True
    modules = set(_ERROR_POSITION.findall(output))
    if not modules or any(module.startswith(foreign_prefix) or module in foreign for module in modules):
        return False
    return own is None or bool(modules & own)


@functools.lru_cache(maxsize=1)
def grader_code_digest() -> str:
    """A digest of the source of the packages that decide a verdict (``grading``, ``tla``, ``cir``,
    ``tasks``): a stored verdict is reused only by the code that gave it."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for package in ("grading", "tla", "cir", "tasks"):
        for path in sorted((root / package).rglob("*")):
            if path.suffix in {".py", ".java", ".tla"} and path.is_file():
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
