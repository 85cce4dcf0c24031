"""The name-based grade (TLA+-Bench's, with the paper's appendix H binding).

An output passes when it parses (strict SANY) and TLC passes it with its condition's cfg, bound
to the output's names by :func:`~pytest_alias.grading.bind.bind_cfg`; a TLC run over the time
limit fails. Every failure says what happened: the hidden names the output lacks, the violated
invariant with a short counterexample, a deadlock, a parse error, a timeout, or no cfg at all.
"""

from __future__ import annotations

import time
from typing import cast

from ..tasks.model import Condition
from ..tla.cfg import CfgError
from ..tla.runner import TlaTools
from .context import GradeContext, grade_context
from ..vocabulary import TLC_TIMEOUT_S
from .bind import bind_cfg
from ..tla.sidegraph import plain_check
from .graphpass import name_check_keeps_graph
from .extract import DEFAULT_MAX_BYTES, Extraction, extract_module
from .outnames import output_names
from .guard import loaded_writer
from .integrity import integrity_failure, unless_self_stopping
from .parse_grade import sany_reason, staged_output
from .result import Evidence, GradeResult
from .tlc_reason import tlc_reason
from ..vocabulary import Side, Stage


#: TLC statuses that may be the cfg's fault rather than the output's: asked of the reference too.
CFG_FAULTS = frozenset({"config_error", "crash"})


def grade_name(output_text: str | None, condition: Condition, tools: TlaTools | None = None,
               timeout: float = TLC_TIMEOUT_S, *, extraction: Extraction | None = None,
               max_bytes: int = DEFAULT_MAX_BYTES, rule: str = "paper") -> GradeResult:
    """Grade ``output_text`` (a model's raw output) by name under ``condition`` (see :func:`name_grader`);
    pass ``extraction`` to reuse one already made."""
    if extraction is None:
        extraction = extract_module(output_text, max_bytes=max_bytes)
    return name_grader(extraction, condition, grade_context(tools, timeout=timeout, name_rule=rule))


def name_grader(extraction: Extraction, condition: Condition, ctx: GradeContext) -> GradeResult:
    """The name grade. ``ctx.name_rule`` binds the cfg: ``paper`` (appendix H as written) or ``refined``
    (see :mod:`.bind`). ``details`` records the rule, the module graded, SANY's lenient verdict, the cfg
    actually used and the changes made to it, the names the output lacks, and TLC's status and
    violated name."""
    tools, timeout, rule = ctx.tools, ctx.timeout, ctx.name_rule
    started = time.perf_counter()
    details: Evidence = {"name_rule": rule}

    def verdict(passed: bool, reason: str | None) -> GradeResult:
        return GradeResult("name", passed, reason, details, time.perf_counter() - started)

    if condition.cfg is None:
        details["stage"] = Stage.CFG
        return verdict(False, "task has no TLC configuration")
    details["lenient_ok"] = False
    staging, failure = staged_output(None, condition, details, extraction=extraction)
    if staging.spec is None:
        return verdict(False, failure)
    try:
        binding = bind_cfg(condition.cfg, output_names(staging.spec), rule=rule)
    except CfgError as exc:
        details.update({"stage": Stage.CFG, "side": Side.REFERENCE})
        return verdict(False, f"the task's cfg does not parse: {exc}")
    details.update(cast(Evidence, binding.to_dict()))  # cfg, changes, missing, undeclared_constants

    sany = tools.sany(staging.spec)
    details.update({"lenient_ok": sany.lenient_ok, "stage": Stage.SANY,
                    "sany_error_kinds": sorted({e.kind for e in sany.errors})})
    if not sany.ok:
        return verdict(False, f"output does not parse: {sany_reason(sany)}")
    hazard = loaded_writer(sany.output, staging.spec.modules.values())  # what SANY read, before TLC runs
    if hazard is not None:
        details["stage"] = Stage.GUARD
        return verdict(False, f"{hazard} (SANY loaded it); not run")

    # With the shortcuts on, the graph is kept on the side for the behavior grade (see graphpass).
    checked = staging.spec.with_cfg(binding.text)
    result = plain_check(tools, checked, timeout=timeout,
                         keep_graph=name_check_keeps_graph(tools, condition, binding, timeout,
                                                           reference_checked=ctx.reference_known_to_pass("paper")))
    details.update({
        "stage": Stage.TLC, "tlc_status": result.status, "violated": result.violated, "tlc_message": result.message,
        "distinct_states": result.distinct_states, "tlc_seconds": round(result.seconds, 3), "tlc_cached": result.cached,
    })
    if result.unsupported_keyword is not None:
        # TLC never ran: the jar, not the output, decided. Left out of the rates, named in the summary.
        details.update({"stage": Stage.TOOLCHAIN, "side": Side.GRADER, "unsupported_keyword": result.unsupported_keyword})
        return verdict(False, f"toolchain limitation: {(result.message or '').removeprefix('cfg: ')}")
    if result.status in CFG_FAULTS and not binding.missing:
        # TLC rejected a cfg the output has every name of: where the reference fails it too, the task's
        # cfg is at fault, and the verdict says nothing about the output.
        own = _reference_cfg_fault(tools, condition, timeout)
        if own is not None:
            details.update({"side": Side.REFERENCE, "output_reason": tlc_reason(result, binding, timeout)})
            return verdict(False, f"the task's cfg fails for the reference too, so it cannot grade by name: {own}")
    vacuous = integrity_failure(tools, checked, result, timeout)  # a pass that checked nothing
    if vacuous is not None:
        details["integrity"] = vacuous
        return verdict(False, vacuous)
    return unless_self_stopping(verdict(result.ok, tlc_reason(result, binding, timeout)), extraction)


def _reference_cfg_fault(tools: TlaTools, condition: Condition, timeout: float) -> str | None:
    """Why TLC cannot run the task's cfg with the reference itself (a cfg error, or TLC stopping on what the
    cfg asks: an action as an invariant, say), or None. Its check as set-up cached it, else run now."""
    spec = condition.spec()
    result = tools.cached_check(spec, timeout=timeout) or tools.tlc(spec, timeout=timeout)
    return (result.message or "TLC rejected the cfg") if result.status in CFG_FAULTS else None
