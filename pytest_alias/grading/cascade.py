"""Every grade of one output, with the shortcuts of :mod:`.shortcuts` (or the plain way when they are off).

The plain way grades each grade on its own (:func:`~.validation.guarded_grade` per grade). With the
shortcuts on, the output is extracted once; a grade whose verdict is stored for the same module
is taken from the store (dedupe); and when the parse grade fails before or at SANY, the name and
behavior grades are decided with it, with the reason each would give: both stage the output the
same way and reject an output that does not stage with the staging's own reason, and an output that
fails strict SANY with ``output does not parse: <the parse grade's reason>`` (once the task's cfg is
known to parse and to bind, which both check before SANY).
"""

from __future__ import annotations

from typing import Sequence, cast

from ..tasks.model import Condition
from ..tla.cfg import parse_cfg
from ..vocabulary import GRADES, Stage
from .bind import bind_cfg
from .context import GradeContext
from .endings import machine_made
from .extract import Extraction, extract_module
from .memo import GradeMemo, memo_key
from .outnames import output_names
from .result import Evidence, GradeResult
from .stage import stage_output
from .validation import available_modes, guarded_grade

#: What a grade decided by the parse grade says about it (in its details).
DECIDED_BY_PARSE = "the parse grade's failure (shortcut: cascade)"


def grade_all(output_text: str | None, condition: Condition, grades: Sequence[str], ctx: GradeContext, *,
              output_bytes: int | None = None) -> dict[str, GradeResult]:
    """Each of ``grades`` (all applicable to ``condition``) on ``output_text``, never raising for the output;
    ``output_bytes``: the output's true size where ``output_text`` is only its start."""
    ordered = sorted(grades, key=GRADES.index)  # parse first: it may decide the others
    if not ctx.shortcuts:
        given = extract_module(output_text, size=output_bytes) if output_bytes is not None else None
        return {grade: guarded_grade(output_text, condition, grade, ctx, extraction=given) for grade in ordered}
    mode, timeout, name_rule, search_budget, tools = ctx.mode, ctx.timeout, ctx.name_rule, ctx.search_budget, ctx.tools
    extraction = extract_module(output_text, size=output_bytes)
    memo = GradeMemo(tools.cache_dir) if getattr(tools, "use_cache", False) and extraction.ok else None
    identity = tools.toolchain.identity if memo is not None else ""
    results: dict[str, GradeResult] = {}
    for grade in ordered:
        if grade in results:
            continue
        key = (memo_key(extraction, condition, grade, mode=mode, timeout=timeout, toolchain=identity,
                        name_rule=name_rule, search_budget=search_budget) if memo else None)
        reused = memo.get(key, extraction) if memo is not None and key is not None else None
        if reused is not None:
            results[grade] = reused
            continue
        result = guarded_grade(output_text, condition, grade, ctx, extraction=extraction)
        results[grade] = result
        if memo is not None and key is not None:
            memo.put(key, result)
        if grade == "parse" and not result.passed:
            results.update(decided_by_parse(extraction, condition, result,
                                            [g for g in ordered if g not in results], mode=mode))
    return results


def decided_by_parse(extraction: Extraction, condition: Condition, parse: GradeResult, grades: Sequence[str], *,
                     mode: str) -> dict[str, GradeResult]:
    """The ``grades`` (name, behavior) that ``parse``'s failure decides, with the reason each would give;
    {} when the failure does not decide them (a guard, a grader error, a SANY time limit, no cfg)."""
    reason = parse.reason or ""
    stage = parse.details.get("stage")
    if condition.cfg is None or machine_made(parse) or ("behavior" in grades and mode not in available_modes()):
        return {}
    if stage == Stage.SANY:
        staging = stage_output(extraction, condition)
        if staging.spec is None:
            return {}
        try:  # each grade reads the task's cfg before SANY: one that does not parse or bind decides otherwise
            parse_cfg(condition.cfg)
            bind_cfg(condition.cfg, output_names(staging.spec))
        except Exception:
            return {}
        reason = f"output does not parse: {reason}"
    elif stage not in (Stage.EXTRACT, Stage.STAGE):
        return {}
    details = cast(Evidence, {**parse.details, "decided_by": DECIDED_BY_PARSE})
    return {grade: GradeResult(grade, False, reason, cast(Evidence, dict(details)), 0.0)
            for grade in grades if grade != "parse"}
