"""Graders: extract a model's module, stage it, and grade it (parse and name-based grades)."""

from __future__ import annotations

from .bind import CfgBinding, bind_cfg
from .extract import DEFAULT_MAX_BYTES, Extraction, extract_module
from .name_grade import grade_name
from .outnames import OutputNames, output_names
from .parse_grade import grade_parse
from .result import GradeResult
from .stage import Staging, companion_modules, stage_output

__all__ = [
    "DEFAULT_MAX_BYTES",
    "CfgBinding",
    "Extraction",
    "GradeResult",
    "OutputNames",
    "Staging",
    "bind_cfg",
    "companion_modules",
    "extract_module",
    "grade_name",
    "grade_parse",
    "output_names",
    "stage_output",
]
