"""Pure parts of a run: option resolution, outcomes, the condition cache key, the prefix in store keys."""

from __future__ import annotations

import re
from typing import Any

import pytest

from pytest_alias.run.options import OPTIONS, OptionError, resolve
from pytest_alias.records import outcome_counts, record_outcome

# A value for every option as the command line gives it (converted) and as an ini file gives it (text).
CLI = {"model": ["fake"], "grade": "behavior", "suite": "examples:/x", "conditions": ("random",), "samples": 3,
       "seed": 7, "timeout": 12.5, "mode": "extended", "cache-dir": "/tmp/c", "store": "ro", "report": ["a.json"],
       "gate": ["parse.original>=0.5"], "no-fail": True, "lora": "/a", "meaningful-maps": "m.json",
       "resamples": 200, "prefill": "none", "max-new-tokens": 64, "exposure-split": "s.json",
       "covered": "auto", "save-outputs": "out.jsonl", "dry-run": True, "rename-map": "maps.json", "rename-seeds": 4, "timeout-from-reference": 4.0,
       "name-rule": "refined", "search-budget": 60.0}
INI = {"model": ["reference"], "grade": "parse", "suite": "builtin", "conditions": "original,meaningful",
       "samples": "2", "seed": "3", "timeout": "9", "mode": "paper", "cache-dir": "/tmp/d", "store": "off",
       "report": ["b.md"], "gate": ["name.original>=0.1"], "no-fail": True, "lora": "/b", "meaningful-maps": "n.json",
       "resamples": "300", "prefill": "header", "max-new-tokens": "32", "exposure-split": "t.json",
       "covered": "v.json", "save-outputs": "ini.jsonl", "dry-run": True, "rename-map": "ini-maps.json", "rename-seeds": "2", "timeout-from-reference": "2.5",
       "name-rule": "paper", "search-budget": "90"}
INI_CONVERTED = {**INI, "conditions": ("original", "meaningful"), "samples": 2, "seed": 3, "timeout": 9.0,
                 "timeout-from-reference": 2.5, "search-budget": 90.0,
                 "resamples": 300, "max-new-tokens": 32, "rename-seeds": 2, "model": ("reference",), "report": ("b.md",),
                 "gate": ("name.original>=0.1",)}


def _resolve(cli: dict[str, Any], ini: dict[str, Any]) -> dict[str, Any]:
    by_dest = {option.dest: option.name for option in OPTIONS}
    return resolve(lambda dest: cli.get(by_dest[dest]), lambda dest: ini.get(by_dest[dest]))


def test_every_option_is_covered() -> None:
    assert set(CLI) == set(INI) == {option.name for option in OPTIONS}


@pytest.mark.parametrize("option", [option.name for option in OPTIONS])
def test_command_line_beats_ini_beats_default(option: str) -> None:
    key = option.replace("-", "_")
    default = next(o.default for o in OPTIONS if o.name == option)
    cli_value = CLI[option]
    expected_cli = tuple(cli_value) if isinstance(cli_value, list) else cli_value
    assert _resolve({option: cli_value}, {option: INI[option]})[key] == expected_cli
    assert _resolve({}, {option: INI[option]})[key] == INI_CONVERTED[option]
    assert _resolve({}, {})[key] == default


@pytest.mark.parametrize(("option", "value", "message"), [
    ("samples", "0", "ini option alias_samples must be at least 1"),
    ("timeout", "-1", "ini option alias_timeout must be a positive number of seconds"),
    ("grade", "vibes", "ini option alias_grade must be one of parse, name, behavior, all"),
    ("conditions", "original,renamed", "ini option alias_conditions must be a comma-separated subset"),
])
def test_bad_ini_values_name_the_option(option: str, value: str, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        _resolve({}, {option: value})


@pytest.mark.parametrize(("option", "value", "message"), [
    ("rename-seeds", "1000000000", "--alias-rename-seeds must be at most 100 (the limit), not 1,000,000,000"),
    ("samples", "1001", "--alias-samples must be at most 1,000 (the limit)"),
    ("resamples", "1000001", "--alias-resamples must be at most 1,000,000 (the limit)"),
    ("max-new-tokens", "1000001", "--alias-max-new-tokens must be at most 1,000,000 (the limit)"),
    ("seed", str(2**63), "--alias-seed must be at most"),
    ("samples", "9" * 5000, "--alias-samples must be an integer"),
])
def test_every_count_option_is_bounded_with_its_limit_named(option: str, value: str, message: str) -> None:
    from pytest_alias.run.options import OPTIONS_BY_NAME, convert

    with pytest.raises(OptionError, match=re.escape(message)):
        convert(OPTIONS_BY_NAME[option], value, "cli")


def test_the_papers_counts_stay_within_the_limits() -> None:
    """5 samples, one renaming and 10,000 resamples (the defaults) pass their own converters."""
    from pytest_alias.run.options import OPTIONS_BY_NAME, convert

    for name in ("samples", "rename-seeds", "resamples", "seed"):
        option = OPTIONS_BY_NAME[name]
        assert convert(option, str(option.default), "ini") == option.default
    assert (OPTIONS_BY_NAME["samples"].default, OPTIONS_BY_NAME["resamples"].default) == (5, 10_000)


def test_library_callers_meet_the_same_limits() -> None:
    """A count that skips the option table (a RunConfig made in code, a run file's resamples) is bounded too."""
    from pytest_alias.cir.conditions import rename_seeds
    from pytest_alias.stats import paired_difference

    with pytest.raises(ValueError, match="at most 100"):
        rename_seeds(0, 10**9)
    with pytest.raises(ValueError, match="at most 1,000,000"):
        paired_difference([1.0, 0.0], [0.0, 0.0], resamples=10**9)
    assert len(rename_seeds(0, 100)) == 100


def _record(grades: dict[str, Any], truncated: bool = False) -> dict[str, Any]:
    return {"model": "m", "condition": "original", "grades": grades, "generation": {"truncated": truncated}}


def test_outcomes_follow_the_first_failing_grade() -> None:
    passed = {"passed": True}
    no_module = {"passed": False, "details": {"stage": "extract"}}
    semantic = {"passed": False, "details": {"stage": "sany", "errors": [{"kind": "semantic"}]}}
    syntax = {"passed": False, "details": {"stage": "sany", "errors": [{"kind": "parse"}, {"kind": "semantic"}]}}
    deadlock = {"passed": False, "details": {"stage": "tlc", "tlc_status": "deadlock"}}
    violation = {"passed": False, "details": {"stage": "tlc", "tlc_status": "invariant_violation"}}
    differs = {"passed": False, "details": {"stage": "tlc", "tlc_status": "invariant_violation"}}
    assert record_outcome(_record({"parse": no_module})) == "no_module"
    assert record_outcome(_record({"parse": syntax}, truncated=True)) == "cut_at_token_limit"
    assert record_outcome(_record({"parse": semantic})) == "semantic_error"
    assert record_outcome(_record({"parse": syntax})) == "parse_error"
    assert record_outcome(_record({"parse": passed, "name": deadlock})) == "deadlock"
    assert record_outcome(_record({"parse": passed, "name": violation})) == "violation"
    assert record_outcome(_record({"parse": passed, "name": passed, "behavior": differs})) == "behavior_differs"
    assert record_outcome(_record({"parse": passed, "name": passed, "behavior": passed})) == "pass"
    records = [_record({"parse": syntax}), _record({"parse": syntax}), _record({"parse": passed})]
    assert outcome_counts(records) == {"m": {"original": {"parse_error": 2, "pass": 1}}}


def test_failures_that_are_not_the_outputs_are_counted_apart() -> None:
    passed = {"passed": True}
    crashed = {"passed": False, "details": {"stage": "error", "side": "grader"}}
    reference = {"passed": False, "details": {"stage": "tlc", "side": "reference"}}
    assert record_outcome(_record({"parse": passed, "name": crashed})) == "grader_error"
    assert record_outcome(_record({"parse": passed, "name": passed, "behavior": reference})) == "reference_not_gradeable"


def test_condition_key_changes_with_what_decides_the_condition() -> None:
    from pytest_alias.cir.prepared import condition_key
    from pytest_alias.tasks.suites import load_suite

    first, second = load_suite("builtin")[:2]
    base = condition_key(first, "random", 0, None, "jar")
    assert condition_key(first, "random", 0, None, "jar") == base
    others = {condition_key(first, "random", 1, None, "jar"), condition_key(second, "random", 0, None, "jar"),
              condition_key(first, "random", 0, None, "other-jar"),
              condition_key(first, "meaningful", 0, {"a": "b"}, "jar")}
    assert base not in others and len(others) == 4


def test_a_prefix_is_part_of_the_store_key_only_when_given() -> None:
    from pytest_alias.models.base import DecodingParams, GenerationRequest
    from pytest_alias.models.store import generation_key

    plain = GenerationRequest("t", "original", 0, "prompt", 0)
    prefixed = GenerationRequest("t", "original", 0, "prompt", 0, prefix="---- MODULE T ----\n")
    params = DecodingParams()
    assert generation_key("m", params, plain) != generation_key("m", params, prefixed)
    assert generation_key("m", params, plain) == generation_key("m", params, GenerationRequest("t", "original", 0,
                                                                                               "prompt", 0, prefix=""))
