"""The verdict's detection column: each evidence row beside its signal's record on known exposure."""

from __future__ import annotations

from pytest_alias.report.verdict import (DETECTION_COLUMN, HEADER, VerdictEvidence, verdict_data, verdict_header,
                                         with_detection)


def _row(evidence: str, model: str = "m") -> VerdictEvidence:
    return VerdictEvidence(model, evidence, "4", "1.0 [0.0, 2.0]", "–", "…", "Decreases: m")


DETECTION = [
    {"signal": "name", "form": "drop", "condition": "original − random", "family": "f", "arm": "task-pair",
     "dose": "paper", "auroc": 0.5, "ci_low": 0.3, "ci_high": 0.7, "n_seen": 10, "flagged_seen": 2,
     "flagged_unseen": 3, "flag_tasks": 10},
    {"signal": "name", "form": "drop", "condition": "original − random", "family": "f", "arm": "task-pair",
     "dose": "strong", "auroc": 0.95, "ci_low": 0.85, "ci_high": 1.0, "n_seen": 10, "flagged_seen": 9,
     "flagged_unseen": 1, "flag_tasks": 10},
    {"signal": "min_k", "label": "Min-K%", "form": "value", "condition": "original", "family": "f",
     "arm": "task-pair", "dose": "strong", "auroc": 0.7, "ci_low": 0.5, "ci_high": 0.9, "n_seen": 10,
     "flagged_seen": None, "flagged_unseen": None, "flag_tasks": None},
    {"signal": "min_k", "label": "Min-K%", "form": "value", "condition": "original", "family": "f",
     "arm": "task-pair", "dose": "paper", "auroc": 0.55, "ci_low": 0.35, "ci_high": 0.75, "n_seen": 10,
     "flagged_seen": 4, "flagged_unseen": 4, "flag_tasks": 10},
]


def test_each_row_gets_the_record_of_the_signal_it_reads() -> None:
    rows = with_detection([_row("name-grade decrease (covered tasks)"), _row("name-grade decrease, tasks with hidden names"),
                           _row("membership signal: Min-K%, original", model="f task-pair, strong dose"),
                           _row("grade disagreements (renamed)")], DETECTION)
    name, hidden, membership, other = (row.detection for row in rows)
    assert name == ("f task-pair, paper dose: 0.50 [0.30, 0.70], n 10; flags 2/10 seen, 3/10 unseen; "
                    "f task-pair, strong dose: 0.95 [0.85, 1.00], n 10; flags 9/10 seen, 1/10 unseen")
    assert hidden == "–" and other == "–"  # a subset, and a row no signal measures
    assert membership == "f task-pair, strong dose: 0.70 [0.50, 0.90], n 10"  # its own dose only; no flag rule
    header = verdict_header(rows)
    assert header == [*HEADER[:-1], DETECTION_COLUMN, "table"] and len(rows[0].cells()) == len(header)
    assert verdict_header([_row("x")]) == HEADER and len(_row("x").cells()) == len(HEADER)
    assert "detection" not in verdict_data([_row("x")])[0] and verdict_data(rows)[0]["detection"] == name
