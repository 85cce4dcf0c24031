"""``benchmarks/paper_tables.py`` runs the paper's five samples by default and names every setting it uses."""

from __future__ import annotations

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "paper_tables.py"


def _module():
    spec = importlib.util.spec_from_file_location("paper_tables", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_defaults_are_the_papers_and_a_deviation_is_named() -> None:
    tables = _module()
    parser_defaults = tables.describe_settings(tables.build_parser().parse_args([]))
    assert parser_defaults["samples"] == 5 and parser_defaults["samples_are_papers"] is True
    line = tables.settings_line(parser_defaults)
    assert "5 sample(s) per task and condition;" in line and "the paper" not in line
    fewer = tables.settings_line(tables.describe_settings(_namespace(samples=1, mutant_limit=10)))
    assert "1 sample(s) per task and condition (the paper: 5)" in fewer and "mutants per task 10" in fewer


def _namespace(**given):
    import argparse

    values = {"suite": "builtin", "model": None, "samples": 5, "mutant_limit": None, "extra": []}
    return argparse.Namespace(**{**values, **given})
