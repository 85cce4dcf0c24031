"""Identical outputs graded once: a grade's verdict stored under the content it was decided on.

The key is what a grader reads of an output — the extracted module (name and text) and the output's
other modules, not the prose or fences around them — with the condition's modules and cfg, the
grade, the mode, the name rule, the search budget, the TLC limit, the toolchain, the tools' byte budgets
and the grader code's digest (verdicts under the name grade's two rules never mix).
The text is not normalised further: SANY's and TLC's reasons cite lines and columns, so two texts
that differ in whitespace or comments may get different reasons. Entries live in the run cache
folder (``grades/``), so xdist workers and later runs share them. A verdict that may differ on
another try (a check the machine ended: see :mod:`.endings`; a grader error) is never stored.
"""

from __future__ import annotations

import json
from typing import Any, cast

from ..tasks.model import Condition
from ..tla.cache import RunCache, content_key, files_digest
from ..tla.streams import budgets
from ..vocabulary import Side, Stage
from .endings import machine_made
from .extract import Extraction
from .result import Evidence, GradeResult
from .shortcuts import grader_code_digest


def memo_key(extraction: Extraction, condition: Condition, grade: str, *, mode: str, timeout: float,
             toolchain: str, name_rule: str = "paper", search_budget: float | None = None) -> str:
    """The content key of one grade of one extracted output under ``condition``."""
    return content_key("grade", module=extraction.module_name, text=extraction.text,
                       others=files_digest(dict(extraction.others)), condition=files_digest(dict(condition.module_map)),
                       main=condition.main, cfg=condition.cfg or "", grade=grade, mode=mode, timeout=timeout,
                       name_rule=name_rule, search_budget=search_budget,
                       toolchain=toolchain, limits=budgets().to_record(), code=grader_code_digest())


def storable(result: GradeResult) -> bool:
    """Whether ``result`` is the inputs' verdict (not the machine's or the grader's doing)."""
    details = result.details
    if details.get("stage") in (Stage.ERROR, Stage.TOOLCHAIN) or details.get("side") == Side.GRADER:
        return False
    return not machine_made(result)


class GradeMemo:
    """Stored verdicts under ``root/grades`` (a :class:`RunCache` folder)."""

    def __init__(self, root: Any) -> None:
        self.cache = RunCache(root / "grades")

    def get(self, key: str, extraction: Extraction) -> GradeResult | None:
        """The stored verdict, its details saying it was reused (and how this output was extracted)."""
        entry = self.cache.get(key)
        if entry is None or not isinstance(entry.get("details"), dict) or not isinstance(entry.get("passed"), bool):
            return None
        details = {**entry["details"], "reused": "the same module was graded before (shortcut: dedupe)"}
        if "extraction" in details:
            details["extraction"] = extraction.to_dict()
        return GradeResult(str(entry["grade"]), entry["passed"], entry.get("reason"), cast(Evidence, details), 0.0)

    def put(self, key: str, result: GradeResult) -> None:
        """Store ``result`` when it is storable (see :func:`storable`)."""
        if storable(result):
            self.cache.put(key, {"grade": result.grade, "passed": result.passed, "reason": result.reason,
                                 "details": _jsonable(result.details)})


def _jsonable(details: Any) -> Any:
    """Details as plain JSON data (enums become their values)."""
    return json.loads(json.dumps(details, default=str))
