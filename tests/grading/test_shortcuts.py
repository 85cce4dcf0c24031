"""The grading shortcuts (cascade, early stop, dedupe) give the plain path's verdicts: real SANY and TLC."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from pytest_alias.run.cases import Case
from pytest_alias.grading.context import grade_context
from pytest_alias.run.record import evaluate
from pytest_alias import switches
from pytest_alias.grading import shortcuts
from pytest_alias.grading.mutants import generate_mutants
from pytest_alias.tasks.suites import load_suite
from pytest_alias.tla.runner import TlaTools

GRADES = ["parse", "name", "behavior"]


@pytest.fixture(scope="module")
def die_hard() -> Any:
    return next(t for t in load_suite("builtin") if t.id == "die-hard")


def _before_footer(text: str, addition: str) -> str:
    at = list(re.finditer(r"^=+\s*$", text, re.M))[-1].start()
    return text[:at] + addition + text[at:]


def outputs(task: Any) -> dict[str, str]:
    """One output of each kind a model writes, made from die-hard's reference."""
    condition = task.original()
    reference = condition.module_map[condition.main]
    mutant = generate_mutants(condition.module_map, condition.main, condition.cfg, limit=1)[0]
    return {
        "prose": "I cannot write this specification.",
        "parse_error": _before_footer(reference, "Broken == (1 +\n"),
        "missing_cfg_name": re.sub(r"\bEvenTotal\b", "EvenTotalHolds", reference),
        "wrong_behavior": mutant.output_text(),
        "equivalent_rewrite": _before_footer(reference, "\\* written again\nUnused == 42\n"),
        "copy": f"```tla\n{reference}```",
        "startup_failure": _before_footer(reference, 'ASSUME SmallCap = "a"\n'),
        # EmptySmall leaves big unassigned: TLC stops on the output's own error, whatever the mapping.
        "own_error": reference.replace('    /\\ big\' = big\n    /\\ last\' = "EmptySmall"',
                                       '    /\\ last\' = "EmptySmall"'),
        # EmptySmall builds a value TLC cannot evaluate: an error at a position inside the output.
        "own_runtime_error": reference.replace("    /\\ big' = big\n    /\\ last' = \"EmptySmall\"",
                                               "    /\\ big' = <<1, 2>>[big + 3]\n    /\\ last' = \"EmptySmall\""),
        # No state satisfies Init: every forward check passes vacuously, every reverse check fails.
        "no_initial_state": reference.replace("    /\\ big = 0\n", "    /\\ big = 0\n    /\\ big = SmallCap\n", 1),
    }


def verdicts(record: dict[str, Any]) -> dict[str, tuple[bool, str | None]]:
    return {grade: (entry["passed"], entry["reason"]) for grade, entry in record["grades"].items()}


@pytest.fixture(scope="module")
def graded(die_hard: Any, tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """Every output graded the plain way, then with the shortcuts (paper mode), each way from its own cache."""
    case = Case(die_hard, die_hard.original(), 0, "replay")
    found: dict[str, dict[str, Any]] = {"off": {}, "on": {}}
    with pytest.MonkeyPatch.context() as patch:
        for way in ("off", "on"):
            patch.setenv(switches.ENV, way)
            tools = TlaTools(cache_dir=tmp_path_factory.mktemp(f"cache-{way}"))
            for kind, text in outputs(die_hard).items():
                before = tools.launches["tlc"]
                record = evaluate(case, text, GRADES, grade_context(tools, timeout=60, mode="paper"))
                record["tlc_launches"] = tools.launches["tlc"] - before
                found[way][kind] = record
    return found


@pytest.mark.parametrize("kind", ["prose", "parse_error", "missing_cfg_name", "wrong_behavior", "equivalent_rewrite",
                                  "copy", "startup_failure", "own_error", "own_runtime_error", "no_initial_state"])
def test_shortcuts_give_the_plain_verdicts(graded: dict[str, dict[str, Any]], kind: str) -> None:
    plain, fast = graded["off"][kind], graded["on"][kind]
    assert verdicts(fast) == verdicts(plain)
    assert plain["shortcuts"] == [] and fast["shortcuts"] == list(switches.NAMES)


def test_the_outputs_span_the_verdicts(graded: dict[str, dict[str, Any]]) -> None:
    """The kinds are what they claim, so the comparison above covers failing and passing grades."""
    plain = {kind: verdicts(record) for kind, record in graded["off"].items()}
    assert not any(passed for passed, _ in plain["prose"].values())
    assert not plain["parse_error"]["parse"][0] and "parse error" in plain["parse_error"]["parse"][1]
    assert plain["missing_cfg_name"]["parse"][0] and not plain["missing_cfg_name"]["name"][0]
    assert plain["missing_cfg_name"]["behavior"][0]  # the names differ, the behaviors do not
    assert not plain["wrong_behavior"]["behavior"][0]
    assert all(passed for passed, _ in plain["equivalent_rewrite"].values())
    assert all(passed for passed, _ in plain["copy"].values())
    assert "is not completely specified" in plain["own_error"]["behavior"][1]


def test_a_parse_failure_decides_every_grade_without_tlc(graded: dict[str, dict[str, Any]]) -> None:
    fast = graded["on"]["parse_error"]
    assert fast["tlc_launches"] == 0
    for grade in ("name", "behavior"):
        assert "decided_by" in fast["grades"][grade]["details"]
        assert fast["grades"][grade]["reason"].startswith("output does not parse: SANY: parse error")


def test_a_failure_before_any_state_ends_the_mapping_search(graded: dict[str, dict[str, Any]]) -> None:
    """An ASSUME that fails under the constants fails every mapping with those constants the same way."""
    plain = graded["off"]["startup_failure"]["grades"]["behavior"]
    fast = graded["on"]["startup_failure"]["grades"]["behavior"]
    assert "ASSUME" in fast["reason"]
    assert plain["details"]["mappings_tried"] == 12 and "early_stop" not in plain["details"]
    # die-hard's 3 variables and 2 constants: 12 mappings, 2 sets of constant values.
    assert fast["details"]["mappings_tried"] == 2 and fast["details"]["early_stop"]["skipped"] == 10
    assert graded["on"]["startup_failure"]["tlc_launches"] < graded["off"]["startup_failure"]["tlc_launches"]


def test_an_own_error_ends_the_search_under_those_constants(graded: dict[str, dict[str, Any]]) -> None:
    """G's own next-state error under some constants fails every mapping with those constants: TLC
    explores the same states of G whatever the variable mapping, so it stops there or earlier."""
    plain = graded["off"]["own_error"]["grades"]["behavior"]
    fast = graded["on"]["own_error"]["grades"]["behavior"]
    assert plain["details"]["mappings_tried"] == 12 and "early_stop" not in plain["details"]
    # Identity constants: one run, 5 mappings skipped; swapped constants: the ASSUME stops all 6.
    assert fast["details"]["early_stop"]["own_error_skipped"] == 5
    assert fast["details"]["mappings_tried"] == 2 and fast["details"]["early_stop"]["skipped"] == 10
    assert graded["on"]["own_error"]["tlc_launches"] <= 3
    # The same for an evaluation error TLC places in the output's EmptySmall, not in the reference.
    plain = graded["off"]["own_runtime_error"]["grades"]["behavior"]
    fast = graded["on"]["own_runtime_error"]["grades"]["behavior"]
    assert "out of domain" in plain["details"]["attempts"][0]["reason"]
    assert fast["details"]["early_stop"]["own_error_skipped"] == 5 and fast["details"]["mappings_tried"] == 2


def test_an_output_with_no_initial_state_ends_the_search_under_those_constants(
        graded: dict[str, dict[str, Any]]) -> None:
    """G's Init has no state under some constants: each mapping with them passes forward vacuously and
    fails in reverse, so once the first has settled the reason the others are skipped."""
    plain = graded["off"]["no_initial_state"]["grades"]["behavior"]
    fast = graded["on"]["no_initial_state"]["grades"]["behavior"]
    assert not plain["passed"] and plain["reason"].startswith("none of 12 mappings passed; reverse check failed")
    assert plain["details"]["attempts"][0]["forward"] == "ok"
    assert plain["details"]["mappings_tried"] == 12 and "early_stop" not in plain["details"]
    # Identity constants: one forward and one reverse run, 5 mappings skipped; swapped: the ASSUME stops 6.
    assert fast["details"]["early_stop"]["no_initial_state_skipped"] == 5
    assert "own_error_skipped" not in fast["details"]["early_stop"]
    assert "no initial state" in fast["details"]["early_stop"]["why"]
    assert fast["details"]["mappings_tried"] == 2
    assert graded["on"]["no_initial_state"]["tlc_launches"] <= 4 < graded["off"]["no_initial_state"]["tlc_launches"]


def test_the_same_module_is_graded_once(die_hard: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same module in other wrapping takes the stored verdicts, within a run and across runs."""
    monkeypatch.setenv(switches.ENV, "on")
    case = Case(die_hard, die_hard.original(), 0, "replay")
    text = outputs(die_hard)["wrong_behavior"]
    first = evaluate(case, text, GRADES, grade_context(TlaTools(cache_dir=tmp_path), timeout=60, mode="paper"))
    again_tools = TlaTools(cache_dir=tmp_path)  # a later run (or another worker) with the same cache folder
    again = evaluate(case, f"Sure:\n```tla\n{text}```\nDone.", GRADES, grade_context(again_tools, timeout=60, mode="paper"))
    assert verdicts(again) == verdicts(first)
    assert sum(again_tools.launches.values()) == 0
    assert all("reused" in entry["details"] for entry in again["grades"].values())
    # A different limit is a different question: graded again.
    other = evaluate(case, text, ["parse"], grade_context(again_tools, timeout=59, mode="paper"))
    assert "reused" not in other["grades"]["parse"]["details"]


def test_the_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(switches.ENV, "off")
    assert not switches.enabled() and switches.in_force() == []
    monkeypatch.delenv(switches.ENV)
    assert switches.enabled() and switches.in_force() == list(switches.NAMES)


@pytest.mark.parametrize("value, on", [("", True), ("ON", True), (" yes ", True), ("1", True), ("True", True),
                                       ("Off", False), ("0", False), ("no", False), ("FALSE", False)])
def test_the_switch_reads_each_documented_value(value: str, on: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(switches.ENV, value)
    assert switches.enabled() is on


@pytest.mark.parametrize("value", ["garbage", "2", "offf", "enabled"])
def test_a_switch_value_that_is_neither_on_nor_off_is_one_usage_error(value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``ALIAS_SHORTCUTS=garbage`` once meant "on" silently (issue #48): now one line at start-up."""
    from pytest_alias.errors import UsageProblem
    from pytest_alias.tla.launcher import check_environment

    monkeypatch.setenv(switches.ENV, value)
    for check in (switches.enabled, check_environment):  # check_environment: both doors, before any work
        with pytest.raises(UsageProblem) as raised:
            check()
        message = str(raised.value)
        assert "\n" not in message and message.startswith("ALIAS_SHORTCUTS must be one of ")
        assert all(word in message for word in ("on", "off", "1", "0", "yes", "no", "true", "false", repr(value)))


def test_only_errors_placed_in_the_output_are_its_own() -> None:
    """An error TLC places in the check's wrapper or R's copy comes from the mapping, not from G."""
    in_output = ("@!@!@STARTMSG 2147:1 @!@!@\nTLC was unable to fingerprint.\n\nFingerprint Stack Trace:\n"
                 "0) line 45, col 15 to line 45, col 22 of module WaterJugs\n")
    through_mapping = ("@!@!@STARTMSG 2103:1 @!@!@\nThe error occurred when TLC was evaluating the nested\n"
                       "expressions at the following positions:\n0. Line 29, column 5 to line 31, column 20 in WaterJugs\n"
                       "4. Line 5, column 17 to line 5, column 31 in AliasFwd_d20b6fa0f0\n"
                       "6. Line 24, column 5 to line 26, column 21 in AliasRef_6d29417383\n")
    assert shortcuts.own_state_error(in_output, "Alias")
    assert not shortcuts.own_state_error(through_mapping, "Alias")
    assert not shortcuts.own_state_error("TLC threw an unexpected exception.", "Alias")  # no position: unknown
    assert shortcuts.own_state_error("Successor state is not completely specified by action A", "Alias")
    # A module R brings along (staged under its own name) is R's; a position only in the standard
    # modules says nothing of whose formula it was.
    assert not shortcuts.own_state_error(in_output, "Alias", frozenset({"WaterJugs"}))
    in_naturals = in_output.replace("of module WaterJugs", "of module Naturals")
    assert not shortcuts.own_state_error(in_naturals, "Alias", frozenset(), frozenset({"WaterJugs"}))
    assert shortcuts.own_state_error(in_output, "Alias", frozenset({"Tally"}), frozenset({"WaterJugs"}))


ARITY_REFERENCE = """---- MODULE R ----
EXTENDS Naturals
CONSTANTS F(_), N, M
VARIABLE x
Init == x = 0
Next == x < N /\\ x' = F(x)
Inc(a) == a + 1
Spec == Init /\\ [][Next]_x
====
"""


def test_mappings_with_a_constant_of_another_arity_are_skipped_once_a_failure_settled_the_reason(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """F(_) standing for N or M cannot be parsed: after the first mapping's violation those four of six
    mappings run no TLC, and the verdict and reason are the plain search's."""
    from pytest_alias.grading.behavior import grade_behavior
    from pytest_alias.tasks.model import Task

    condition = Task("arity", "d", (("R", ARITY_REFERENCE),),
                     "CONSTANTS F <- Inc\n  N = 3\n  M = 2\nSPECIFICATION Spec\n").original()
    output = ARITY_REFERENCE.replace("x' = F(x)", "x' = F(F(x))")  # other steps under every mapping
    results = {}
    for switch in ("off", "on"):
        monkeypatch.setenv(switches.ENV, switch)
        tools = TlaTools(use_cache=False)
        results[switch] = (grade_behavior(output, condition, tools, timeout=60), tools.launches["tlc"])
    (plain, plain_runs), (fast, fast_runs) = results["off"], results["on"]
    assert not plain.passed and (fast.passed, fast.reason) == (plain.passed, plain.reason)
    assert [a["forward"] for a in plain.details["attempts"]] == ["property_violation"] * 2 + ["semantic_error"] * 4
    assert fast.details["early_stop"]["arity_skipped"] == 4 and fast_runs <= plain_runs - 4


# MCStep is LOCAL: the forward check binds a constant to R's own operator through R's instance
# (grading/bindings.operator_bindings) except where it cannot, and a LOCAL one stays bound by name.
SUBSTITUTED_REFERENCE = """---- MODULE Lim ----
EXTENDS Naturals
CONSTANTS Step(_), N, M
VARIABLES x, y
LOCAL MCStep(a) == a + 1
Init == x = 0 /\\ y = 0
Next == x < N /\\ x' = Step(x) /\\ y' = y + M
Spec == Init /\\ [][Next]_<<x, y>>
====
"""


def test_mappings_whose_cfg_substitutes_a_definition_the_output_lacks_are_skipped() -> None:
    """R's cfg has ``Step <- MCStep``; an output without MCStep makes TLC reject every forward cfg that
    substitutes it (every mapping that SANY can parse): the plain search's verdict and reason, with
    the mappings under other constants than the first one's skipped, and the record says why."""
    from pytest_alias.grading.behavior import grade_behavior
    from pytest_alias.tasks.model import Task

    condition = Task("lim", "d", (("Lim", SUBSTITUTED_REFERENCE),),
                     "CONSTANTS Step <- MCStep\n  N = 3\n  M = 2\nSPECIFICATION Spec\n").original()
    output = SUBSTITUTED_REFERENCE.replace("LOCAL MCStep(a) == a + 1", "Inc(a) == a + 1")
    results = {}
    for switch in ("off", "on"):
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv(switches.ENV, switch)
            tools = TlaTools(use_cache=False)
            results[switch] = (grade_behavior(output, condition, tools, timeout=60), tools.launches["tlc"])
    (plain, plain_runs), (fast, fast_runs) = results["off"], results["on"]
    assert not plain.passed and (fast.passed, fast.reason) == (plain.passed, plain.reason)
    assert "undefined identifier MCStep" in plain.reason
    statuses = [a["forward"] for a in plain.details["attempts"]]
    # Twelve mappings (the first ten kept): the four with Step for Step fail on the cfg, the rest
    # (Step for N or M) cannot be parsed.
    assert plain.details["mappings_tried"] == 12 and statuses.count("config_error") == 4
    assert set(statuses) == {"config_error", "semantic_error"}
    # Of the four the cfg check rejects, the first runs, one has its constants (early stop as before)
    # and the two with N and M swapped are skipped by this rule alone; the eight others by arity.
    assert fast.details["early_stop"]["undefined_substitute_skipped"] == 2
    assert fast.details["early_stop"]["arity_skipped"] == 8 and fast.details["mappings_tried"] == 1
    assert "a definition the output lacks" in fast.details["early_stop"]["why"]
    assert fast_runs <= plain_runs - 11


def test_undefined_substitute_reads_tlcs_cfg_rejection() -> None:
    message = "The configuration file substitutes for Limit with the undefined identifier MCLimit.\n"
    assert shortcuts.undefined_substitute("config_error", message) == "MCLimit"
    assert shortcuts.undefined_substitute("crash", message) is None
    assert shortcuts.undefined_substitute("config_error", "The constant parameter Limit is not assigned") is None


# Up leaves b and c unbound, so TLC cannot evaluate WF(Up) as a property of the forward check: a
# mapping's forward check that meets it before a violation falls back to the safety part
# Init /\ [][Next]_vars (issue 22), and so runs twice.
UNEVALUABLE_FAIRNESS = """---- MODULE Trio ----
EXTENDS Naturals
VARIABLE a, b, c
Init == a = 0 /\\ b = 0 /\\ c = 0
Up == a < 2 /\\ a' = a + 1
Next == (Up /\\ UNCHANGED <<b, c>>) \\/ (b < 1 /\\ b' = b + 1 /\\ UNCHANGED <<a, c>>)
Spec == Init /\\ [][Next]_<<a, b, c>> /\\ WF_<<a, b, c>>(Up)
====
"""


@pytest.mark.parametrize("graph_filter", [False, True], ids=["without-graph-filter", "all-shortcuts"])
def test_once_the_reference_fairness_fell_back_failing_mappings_run_its_safety_part_only(
        monkeypatch: pytest.MonkeyPatch, graph_filter: bool) -> None:
    """After the first mapping's forward check fell back to R's safety part and found a violation, the
    later mappings check the safety part first: the ones the plain search runs twice run once, with the
    same verdict and reason."""
    from pytest_alias.grading import behavior
    from pytest_alias.tasks.model import Task

    condition = Task("trio", "d", (("Trio", UNEVALUABLE_FAIRNESS),), "SPECIFICATION Spec\n").original()
    output = UNEVALUABLE_FAIRNESS.replace("a < 2", "a < 3")  # a reaches 3: a violation under every mapping
    if not graph_filter:  # the graph filter would skip most of these mappings without any TLC run
        monkeypatch.setattr(behavior, "MIN_MAPPINGS", 10**6)
    results = {}
    for switch in ("off", "on"):
        monkeypatch.setenv(switches.ENV, switch)
        tools = TlaTools(use_cache=False)
        results[switch] = (behavior.grade_behavior(output, condition, tools, timeout=60), tools.launches["tlc"])
    (plain, plain_runs), (fast, fast_runs) = results["off"], results["on"]
    assert not plain.passed and (fast.passed, fast.reason) == (plain.passed, plain.reason)
    assert plain.details["mappings_tried"] == 6
    # Plainly, a mapping runs twice where TLC met the unbound fairness before a violation of the safety part.
    doubled = [a for a in plain.details["attempts"][1:] if "fairness_unchecked" in a]
    assert "fairness_unchecked" in plain.details["attempts"][0] and doubled
    if not graph_filter:
        assert fast.details["safety_first"]["checks"] == 5
        assert fast_runs == plain_runs - len(doubled)
    else:
        assert fast_runs < plain_runs


def test_a_copy_of_the_reference_has_its_reverse_check_read_off_the_forward_one(
        die_hard: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The output is R: under the identity mapping the forward check ran R's states against R's whole
    formula, so the reverse check (R against its own safety formula) is not run again."""
    case = Case(die_hard, die_hard.original(), 0, "replay")  # no self-check known: the copy's forward check runs
    found = {}
    for way in ("off", "on"):
        monkeypatch.setenv(switches.ENV, way)
        tools = TlaTools(cache_dir=tmp_path / way)
        for kind in ("copy", "equivalent_rewrite"):
            before = tools.launches["tlc"]
            entry = evaluate(case, outputs(die_hard)[kind], ["behavior"], grade_context(tools, timeout=60, mode="paper"))["grades"]["behavior"]
            found[way, kind] = (entry, tools.launches["tlc"] - before)
    (plain, plain_runs), (fast, fast_runs) = found["off", "copy"], found["on", "copy"]
    assert plain["passed"] and fast["passed"] and plain["reason"] == fast["reason"]
    # Without the shortcuts the copy is not recognised: forward and reverse (die-hard has no fairness, so
    # no vacuity probe: grading/integrity).
    assert "by_copy" not in plain["details"]["attempts"][0] and plain_runs == 2
    assert fast["details"]["attempts"][0]["reverse"] == "ok" and "by_copy" in fast["details"]["attempts"][0]
    assert fast_runs == 1
    # A rewrite is not the reference: both of its checks run.
    rewrite, runs = found["on", "equivalent_rewrite"]
    assert rewrite["passed"] and "by_copy" not in rewrite["details"]["attempts"][0] and runs == 2



def test_a_reference_with_notes_after_its_footer_and_the_module_alone_are_one_copy(
        die_hard: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A reference file with notes on past runs after its ``====`` (as tlaplus/Examples' Detlefs and
    MacroQuicksort have) is read by SANY and TLC up to the footer: graded against itself, whose text
    the extraction takes without the notes, it is still a copy, and its reverse check is read off."""
    from dataclasses import replace

    monkeypatch.setenv(switches.ENV, "on")
    main = die_hard.original().main
    noted = dict(die_hard.modules)
    noted[main] = noted[main].rstrip("\n") + "\nChecked on a laptop with 2 workers:\n  16 states, depth 7\n"
    task = replace(die_hard, modules=tuple(noted.items()))
    condition = task.original()
    tools = TlaTools(cache_dir=tmp_path)
    entry = evaluate(Case(task, condition, 0, "replay"), condition.module_map[main], ["behavior"],
                     grade_context(tools, timeout=60, mode="paper"))["grades"]["behavior"]
    attempt = entry["details"]["attempts"][0]
    assert entry["passed"] and attempt["reverse"] == "ok" and "by_copy" in attempt
    assert tools.launches["tlc"] == 1


def test_a_copy_of_a_reference_that_passed_its_self_check_runs_no_refinement_check(
        die_hard: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the run's self-check of the task passed (same mode and limit), a copy's identity mapping is
    that self-check's: neither check runs; with another limit the forward check runs again."""

    monkeypatch.setenv(switches.ENV, "on")
    condition = die_hard.original()
    case = Case(die_hard, condition, 0, "replay")
    tools = TlaTools(cache_dir=tmp_path)
    # A copy as models give it back: the Toolbox's modification history after the footer (which
    # SANY and TLC do not read) is still the reference.
    copy = condition.module_map[condition.main] + "\\* Modification History\n\\* Created Mon Jan 01 by someone\n"
    entry = evaluate(case, copy, ["behavior"], grade_context(tools, timeout=60, mode="paper",
                                                             reference_passed=("paper", 60)))["grades"]["behavior"]
    assert entry["passed"] and entry["reason"] is None and tools.launches["tlc"] == 0
    attempt = entry["details"]["attempts"][0]
    assert attempt["forward"] == attempt["reverse"] == "ok" and "self-check" in attempt["by_copy"]
    other = evaluate(case, outputs(die_hard)["copy"], ["behavior"], grade_context(tools, timeout=59, mode="paper"))["grades"]["behavior"]
    assert other["passed"] and tools.launches["tlc"] == 1


def test_a_passed_self_check_stands_for_the_renamed_condition(die_hard: Any, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """An output whose TLC runs went wrong makes the behavior grade ask whether the reference fails
    against itself too; where the run's self-check of the task passed, the renamed condition's
    reference is not graded against itself again (shortcuts on), with the same verdict."""
    from pytest_alias.cir.conditions import random_condition

    renamed = random_condition(die_hard, 7, verify=False).condition
    case = Case(die_hard, renamed, 0, "replay")
    reference = renamed.module_map[renamed.main]
    big, last = renamed.names["big"], renamed.names["last"]
    # The renamed EmptySmall builds a value TLC cannot evaluate (as "own_runtime_error" above).
    text = reference.replace(f"    /\\ {big}' = {big}\n    /\\ {last}' = \"EmptySmall\"",
                             f"    /\\ {big}' = <<1, 2>>[{big} + 3]\n    /\\ {last}' = \"EmptySmall\"")
    assert text != reference
    found = {}
    for way in ("off", "on"):
        monkeypatch.setenv(switches.ENV, way)
        tools = TlaTools(cache_dir=tmp_path / way)
        entry = evaluate(case, text, ["behavior"], grade_context(tools, timeout=60, mode="paper",
                                                                 reference_passed=("paper", 60)))["grades"]["behavior"]
        assert not entry["passed"] and entry["details"]["side"] == "output"
        assert "out of domain" in str(entry["details"]["attempts"])  # TLC went wrong: the question was asked
        found[way] = (entry["passed"], entry["reason"]), tools.launches["tlc"]
    assert found["on"][0] == found["off"][0]
    # Off, the renamed reference was graded against itself (its forward and reverse checks at least).
    assert found["on"][1] + 2 <= found["off"][1]
