"""Section 3's and appendix G's statistics come out of ``tla-alias build``'s summary, not only the library."""

from __future__ import annotations

import statistics

from pytest_alias.cir.analysis import hidden_names, kept_domain_words
from pytest_alias.cir.build import BuildSummary, TaskReport
from pytest_alias.cir.analysis import similarity
from pytest_alias.cir.conditions import random_condition
from pytest_alias.tasks.suites import load_suite


def _reports() -> list[TaskReport]:
    reports = []
    for task in load_suite("builtin"):
        renamed = random_condition(task, 0, verify=False)  # verification is the build's job, tested elsewhere
        main = renamed.condition.module_map[renamed.condition.main]
        reports.append(TaskReport(task, renamed, tuple(hidden_names(task.description, task.cfg)),
                                  similarity(task.module_map[task.main], main)))
    return reports


def test_section3_and_appendix_g_numbers_match_a_count_by_hand() -> None:
    reports = _reports()
    summary = BuildSummary(reports, 0)
    section3, appendix_g = summary.section3(), summary.appendix_g()
    hidden = [h for r in reports for h in r.hidden]
    assert section3["hidden_names"] == len(hidden) == sum(section3["hidden_by_category"].values())
    assert set(section3["hidden_by_category"]) <= {"constant", "invariant", "property", "constraint"}
    assert section3["tasks_with_hidden_names"] == sum(bool(r.hidden) for r in reports)
    assert section3["tasks_with_five_or_more"] == sum(len(r.hidden) >= 5 for r in reports)
    assert 0 < section3["hidden_conventions"] < section3["hidden_names"]  # TypeOK is one; not all are
    kept = [kept_domain_words(r.renamed.renaming.name_map, r.task.description, r.renamed.condition.description)
            for r in reports]
    assert (section3["domain_words_kept"], section3["domain_words_used"]) == tuple(map(sum, zip(*kept)))
    assert section3["domain_words_kept"] <= section3["domain_words_used"]
    per_spec = [len(r.renamed.renaming.name_map) for r in reports]
    assert appendix_g["renamed_per_spec"] == {"median": statistics.median(per_spec), "min": min(per_spec),
                                              "max": max(per_spec)}
    assert 0 < appendix_g["median_similarity"] < 1
    text = summary.to_markdown()
    assert "## Hidden required names (section 3)" in text and "## Renaming (appendix G)" in text
    assert f"{section3['hidden_names']} hidden names: " in text
    assert summary.to_dict()["section3"] == section3
