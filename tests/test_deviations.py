"""The run's defaults are the paper's settings, and every deviation is named in one line."""

from __future__ import annotations

from types import SimpleNamespace

from pytest_alias.run.deviations import deviation_line, deviations
from pytest_alias.run.options import OPTIONS_BY_NAME, defaults


def test_the_defaults_are_the_papers_settings() -> None:
    from pytest_alias.run import RunConfig

    settings = RunConfig.from_options({**defaults(), "model": ("reference",)})
    assert settings.prefill == "none" and OPTIONS_BY_NAME["prefill"].default == "none"
    assert deviations(settings) == [] and deviation_line(settings) == "alias: the paper's settings"


def test_each_deviation_is_named_and_the_papers_budget_is_not_one() -> None:
    settings = SimpleNamespace(prefill="header", samples=1, timeout=300.0, mode="extended", resamples=10_000,
                               max_new_tokens=256)
    found = deviations(settings)
    assert found == ["prefill header (the paper gives none)", "1 sample(s) per task and condition (the paper: 5)",
                     "behavior grade mode extended (the paper's procedure: paper)",
                     "at most 256 new tokens per sample (the paper: the model's own budget, 1,024 for local models)"]
    assert deviation_line(settings).startswith("alias: deviations from the paper: prefill header")
    assert deviations(SimpleNamespace(max_new_tokens=1024)) == []  # asking for the paper's budget is no deviation


def test_the_report_repeats_a_saved_runs_deviations(tmp_path) -> None:
    import json

    from pytest_alias.cli import main
    from pytest_alias.run.saved import SavedFile, read_saved_runs, run_metadata

    record = {"task": "t", "condition": "original", "sample": 0, "model": "m", "has_hidden_names": False,
              "similarity": None, "grades": {"name": {"passed": True, "reason": None}}}
    saved = tmp_path / "run.json"
    saved.write_text(json.dumps({"metadata": {"deviations": ["prefill header (the paper gives none)"]},
                                 "records": [record]}))
    assert read_saved_runs([saved]).files[0].deviations == ["prefill header (the paper gives none)"]
    missing = tmp_path / "missing.json"  # an unreadable file has no metadata, so no deviations
    assert SavedFile(missing, (), run_metadata(missing)).deviations == []
    assert main(["report", str(saved), "--out", str(tmp_path / "out"), "--resamples", "200"]) == 0
    assert "ran with deviations from the paper: prefill header" in (tmp_path / "out" / "report.md").read_text()


def test_byte_budgets_other_than_the_defaults_are_named(monkeypatch) -> None:
    """ALIAS_OUTPUT_LIMIT_MB / ALIAS_GRAPH_LIMIT_MB: a smaller budget can fail a run, so the header says so."""
    from pytest_alias.run import RunConfig

    settings = RunConfig.from_options({**defaults(), "model": ("reference",)})
    monkeypatch.setenv("ALIAS_OUTPUT_LIMIT_MB", "64")  # the default, spelled out: no deviation
    assert deviations(settings) == []
    monkeypatch.setenv("ALIAS_OUTPUT_LIMIT_MB", "8")
    monkeypatch.setenv("ALIAS_GRAPH_LIMIT_MB", "128")
    assert deviations(settings) == ["SANY/TLC output limit 8 MB (ALIAS_OUTPUT_LIMIT_MB; the default: 64 MB)",
                                    "state-graph dump limit 128 MB (ALIAS_GRAPH_LIMIT_MB; the default: 64 MB)"]
    assert "SANY/TLC output limit 8 MB" in deviation_line(settings)
    monkeypatch.setenv("ALIAS_GRAPH_LIMIT_MB", "lots")  # unusable: the start-up check refuses the run, not this line
    assert deviations(settings) == []
def test_several_renamings_are_a_named_deviation_and_need_at_least_one() -> None:
    import pytest

    from pytest_alias.run.options import OptionError, convert
    from pytest_alias.run import RunConfig

    settings = RunConfig.from_options({**defaults(), "model": ("reference",), "rename_seeds": 3})
    assert deviations(settings) == ["3 renamings per task, rates averaged over them (the paper: 1)"]
    assert settings.settings()["rename_seeds"] == 3 and settings.renaming_seeds()[0] == settings.seed
    assert OPTIONS_BY_NAME["rename-seeds"].default == 1
    with pytest.raises(OptionError, match="--alias-rename-seeds must be at least 1"):
        convert(OPTIONS_BY_NAME["rename-seeds"], "0", "cli")


def test_published_maps_and_several_seeds_are_refused_together(tmp_path) -> None:
    import json

    import pytest

    from pytest_alias.errors import UsageProblem
    from pytest_alias.run import RunConfig

    maps = tmp_path / "maps.json"
    maps.write_text(json.dumps({"t": {"x": "y"}}))
    with pytest.raises(UsageProblem, match="cannot be combined"):
        RunConfig.from_options({**defaults(), "model": ("reference",), "rename_map": str(maps), "rename_seeds": 2})
    assert RunConfig.from_options({**defaults(), "model": ("reference",), "rename_map": str(maps)}).rename_maps


def test_the_refined_name_rule_is_a_named_deviation_and_recorded() -> None:
    from pytest_alias.run import RunConfig

    assert OPTIONS_BY_NAME["name-rule"].default == "paper"
    paper = RunConfig.from_options({**defaults(), "model": ("reference",)})
    assert paper.name_rule == "paper" and paper.settings()["name_rule"] == "paper" and deviations(paper) == []
    refined = RunConfig.from_options({**defaults(), "model": ("reference",), "name_rule": "refined"})
    assert refined.settings()["name_rule"] == "refined"
    assert deviations(refined) == [
        "name grade rule refined (a stand-in operator must fit the cfg section's level, and a cfg's own "
        "INIT/NEXT/SPECIFICATION name the output defines is kept; the paper's appendix H rule: paper)"]


def test_a_search_budget_other_than_the_default_is_named_and_recorded() -> None:
    from pytest_alias.run import RunConfig

    assert OPTIONS_BY_NAME["search-budget"].default is None  # 4 × the TLC limit
    plain = RunConfig.from_options({**defaults(), "model": ("reference",)})
    assert plain.settings()["search_budget_s"] == 1200.0 and deviations(plain) == []
    spelled_out = RunConfig.from_options({**defaults(), "model": ("reference",), "search_budget": 1200.0})
    assert deviations(spelled_out) == []  # the default, asked for
    short = RunConfig.from_options({**defaults(), "model": ("reference",), "search_budget": 60.0})
    assert short.settings()["search_budget_s"] == 60.0
    assert deviations(short) == ["behavior search budget 60 s (the default: 4 × the TLC limit, 1200 s)"]


def test_searches_the_budget_cut_off_are_named_even_at_the_default_budget() -> None:
    from pytest_alias.run import RunConfig

    settings = RunConfig.from_options({**defaults(), "model": ("reference",)})
    cut = {"passed": False, "reason": "search ran out of its time budget (1200 s) after 3 of 6 mapping(s)",
           "details": {"stage": "tlc", "side": "grader", "search_budget_spent": True, "search_budget_s": 1200.0}}
    differs = {"passed": False, "reason": "forward check failed", "details": {"stage": "tlc", "side": "output"}}
    records = [{"grades": {"behavior": cut}}, {"grades": {"behavior": cut}}, {"grades": {"behavior": differs}}]
    assert deviations(settings, records) == [
        "the behavior search budget (1200 s) cut 2 search(es) off: outcome 'search budget spent', left out of the rates"]
    assert deviation_line(settings, records[2:]) == "alias: the paper's settings"


def test_tla_alias_grade_takes_its_defaults_from_the_option_table() -> None:
    from pytest_alias.cli import build_parser

    args = build_parser().parse_args(["grade", "--reference", "R.tla", "--output", "o.txt", "--grade", "name"])
    assert (args.name_rule, args.search_budget) == (OPTIONS_BY_NAME["name-rule"].default, None)
    chosen = build_parser().parse_args(["grade", "--reference", "R.tla", "--output", "o.txt", "--grade", "behavior",
                                        "--name-rule", "refined", "--search-budget", "0.5"])
    assert (chosen.name_rule, chosen.search_budget) == ("refined", 0.5)


def test_the_workspace_grades_under_the_runs_rule_and_budget(tmp_path) -> None:
    """Both settings reach the graders and the record from the one option table; a cut search is named."""
    import re

    from pytest_alias.run.cases import Case
    from pytest_alias.models.base import Generation
    from pytest_alias.run import RunConfig
    from pytest_alias.run.workspace import Workspace
    from pytest_alias.tasks.suites import load_suite

    config = RunConfig.from_options({**defaults(), "model": ("replay",), "grade": "behavior", "name_rule": "refined",
                                     "search_budget": 0.5, "cache_dir": str(tmp_path)})
    task = next(t for t in load_suite("builtin") if t.id == "die-hard")
    condition = task.original()
    text = condition.module_map[condition.main]
    swapped = re.sub(r"\b(small|big)\b", lambda m: {"small": "big", "big": "small"}[m.group(1)], text)
    record = Workspace(config).grade(Case(task, condition, 0, "replay"), Generation(swapped, "replay"))
    assert record["name_rule"] == "refined" and record["search_budget_s"] == 0.5
    assert record["outcome"] == "search_budget_spent"
    assert record["grades"]["behavior"]["details"]["side"] == "grader"
    found = deviations(config, [record])
    assert "behavior search budget 0.5 s (the default: 4 × the TLC limit, 1200 s)" in found
    assert "the behavior search budget (0.5 s) cut 1 search(es) off: outcome 'search budget spent', left out of " \
           "the rates" in found
