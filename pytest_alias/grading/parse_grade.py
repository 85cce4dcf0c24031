"""The parse grade: the output passes strict SANY (no syntax and no semantic error).

SANY exits 0 on semantic errors such as an undefined operator, so the grade reads SANY's report
(strict); the exit-code verdict that TLA+-Bench's plain check uses is kept as ``lenient_ok``.
"""

from __future__ import annotations

import time

from ..tasks.model import Condition
from ..tla.runner import TlaTools
from .context import GradeContext, grade_context
from ..tla.sany import SanyResult
from .extract import DEFAULT_MAX_BYTES, Extraction, extract_module
from .result import Evidence, GradeResult
from .stage import Staging, stage_output
from ..vocabulary import Stage

#: How many SANY errors a result's details keep (the first explains the rest).
MAX_ERRORS = 5


def sany_reason(result: SanyResult) -> str:
    """One line saying why strict SANY rejected a module."""
    if not result.errors:
        return "SANY rejected the module"
    reason = f"SANY: {result.errors[0]}"
    if len(result.errors) > 1:
        reason += f" (and {len(result.errors) - 1} more)"
    if result.lenient_ok:
        reason += " [SANY exited 0 despite this]"
    return reason


def staging_details(extraction: Extraction, staging: Staging) -> Evidence:
    """What extraction and staging did, for a result's details."""
    details: Evidence = {"module": extraction.module_name, "extraction": extraction.to_dict()}
    if staging.spec is not None:
        details["staged_modules"] = sorted(staging.spec.modules)
        if staging.spec.main != extraction.module_name:
            details["staged_as"] = staging.spec.main
    if staging.notes:
        details["staging_notes"] = list(staging.notes)
    return details


def staged_output(output_text: str | None, condition: Condition, details: Evidence, *,
                  extraction: Extraction | None = None, max_bytes: int = DEFAULT_MAX_BYTES) -> tuple[Staging, str | None]:
    """Extract the module from ``output_text`` and stage it beside the condition's other modules.

    Fills ``details`` with what extraction and staging found; returns the staging and the failing
    reason (None when the output is staged and ready for SANY/TLC). Every grade starts here.
    """
    extraction = extraction if extraction is not None else extract_module(output_text, max_bytes=max_bytes)
    staging = stage_output(extraction, condition)
    details.update(staging_details(extraction, staging))
    if staging.spec is None:
        assert staging.failure is not None
        details["stage"] = Stage.EXTRACT if not extraction.ok else Stage.STAGE
        return staging, staging.failure
    return staging, None


def grade_parse(output_text: str | None, condition: Condition, tools: TlaTools | None = None, *,
                extraction: Extraction | None = None, max_bytes: int = DEFAULT_MAX_BYTES) -> GradeResult:
    """Grade ``output_text`` (a model's raw output) for parsing under ``condition`` (see :func:`parse_grader`);
    pass ``extraction`` to reuse one already made."""
    if extraction is None:
        extraction = extract_module(output_text, max_bytes=max_bytes)
    return parse_grader(extraction, condition, grade_context(tools))


def parse_grader(extraction: Extraction, condition: Condition, ctx: GradeContext) -> GradeResult:
    """The parse grade: passes when the extracted module passes strict SANY with the condition's other
    modules beside it. ``details["lenient_ok"]`` records SANY's exit-code verdict (False when SANY
    never ran)."""
    started = time.perf_counter()
    details: Evidence = {"lenient_ok": False}
    staging, failure = staged_output(None, condition, details, extraction=extraction)
    if staging.spec is None:
        return GradeResult("parse", False, failure, details, time.perf_counter() - started)
    result = ctx.tools.sany(staging.spec)
    details.update({
        "stage": Stage.SANY, "lenient_ok": result.lenient_ok, "sany_exit_code": result.exit_code,
        "errors": [e.to_dict() for e in result.errors[:MAX_ERRORS]], "sany_cached": result.cached,
    })
    reason = None if result.ok else sany_reason(result)
    return GradeResult("parse", result.ok, reason, details, time.perf_counter() - started)
