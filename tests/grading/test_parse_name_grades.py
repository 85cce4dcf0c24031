"""The parse and name-based grades on real SANY and TLC runs."""

from __future__ import annotations

import dataclasses

import json

import pytest

from pytest_alias.cir.conditions import random_condition
from pytest_alias.grading import GradeResult, bind_cfg, grade_name, grade_parse
from pytest_alias.grading.outnames import OutputNames
from pytest_alias.tasks.model import Condition, Task
from pytest_alias.tasks.suites import load_suite

SEED = 7
# Small tasks covering one module, two modules (INSTANCE) and liveness under fairness.
REFERENCE_TASKS = ["barrier", "odometer", "hour-clock"]


@pytest.fixture(scope="module")
def tasks() -> dict[str, Task]:
    return {task.id: task for task in load_suite("builtin")}


@pytest.fixture(scope="module")
def barrier(tasks: dict[str, Task]) -> Task:
    return tasks["barrier"]


@pytest.fixture(scope="module")
def barrier_random(barrier: Task) -> Condition:
    return random_condition(barrier, SEED, verify=False).condition


def barrier_spec(condition: Condition, *, module: str = "BarrierSync", type_ok: str = "TypeInvariant",
                 safety: str = "Safety", guard: str = "count = {N}", finished: bool = True) -> str:
    """A correct Barrier spec written from the description, with its own names (N as the condition names it)."""
    n = condition.names.get("N", "N")
    finish = "\\/ (\\A p \\in Procs : phase[p] = \"passed\") /\\ UNCHANGED vars" if finished else ""
    return f"""---- MODULE {module} ----
EXTENDS Naturals
CONSTANT {n}
VARIABLES phase, count
vars == <<phase, count>>
Procs == 1..{n}
{type_ok} == phase \\in [Procs -> {{"working", "waiting", "passed"}}] /\\ count \\in 0..{n}
Init == phase = [p \\in Procs |-> "working"] /\\ count = 0
Arrive(p) == phase[p] = "working" /\\ phase' = [phase EXCEPT ![p] = "waiting"] /\\ count' = count + 1
Pass(p) == phase[p] = "waiting" /\\ {guard.format(N=n)} /\\ phase' = [phase EXCEPT ![p] = "passed"] /\\ UNCHANGED count
Next == \\/ \\E p \\in Procs : Arrive(p) \\/ Pass(p)
        {finish}
Spec == Init /\\ [][Next]_vars
{safety} == \\A p \\in Procs : phase[p] = "passed" => \\A q \\in Procs : phase[q] /= "working"
===="""


# ---------------------------------------------------------------- references pass both grades


@pytest.mark.parametrize("task_id", REFERENCE_TASKS)
@pytest.mark.parametrize("kind", ["original", "random"])
def test_reference_passes_both_grades(tasks: dict[str, Task], task_id: str, kind: str, tools) -> None:
    task = tasks[task_id]
    condition = task.original() if kind == "original" else random_condition(task, SEED, verify=False).condition
    output = f"Here is the module.\n```tla\n{condition.modules[0][1]}\n```\n"
    parsed = grade_parse(output, condition, tools)
    named = grade_name(output, condition, tools)
    assert parsed.passed, parsed.reason
    assert named.passed, named.reason
    assert parsed.details["lenient_ok"] and named.details["lenient_ok"]
    assert named.details["tlc_status"] == "ok"
    # The reference takes its own name: it stands in for itself and is not staged twice.
    assert named.details["staged_modules"] == sorted(name for name, _ in condition.modules)
    json.dumps(parsed.to_dict()), json.dumps(named.to_dict())


# ---------------------------------------------------------------- the name grade's binding (appendix H)


def test_correct_spec_with_other_invariant_names_fails_in_the_renamed_condition(
        barrier_random: Condition, tools) -> None:
    output = barrier_spec(barrier_random)
    assert grade_parse(output, barrier_random, tools).passed
    result = grade_name(output, barrier_random, tools)
    assert not result.passed
    hidden = [barrier_random.names["TypeOK"], barrier_random.names["BarrierProperty"]]
    assert result.reason == f"output does not define {hidden[0]} and {hidden[1]}, which the cfg requires"
    assert result.details["missing"] == hidden
    assert result.details["tlc_status"] == "config_error"


def test_same_spec_with_the_hidden_names_passes(barrier: Task, barrier_random: Condition, tools) -> None:
    names = barrier_random.names
    renamed = barrier_spec(barrier_random, type_ok=names["TypeOK"], safety=names["BarrierProperty"])
    assert grade_name(renamed, barrier_random, tools).passed
    original = barrier_spec(barrier.original(), type_ok="TypeOK", safety="BarrierProperty")
    result = grade_name(original, barrier.original(), tools)
    assert result.passed, result.reason


def test_init_next_spec_under_other_names_are_pointed_at(barrier_random: Condition, tools) -> None:
    names = barrier_random.names
    output = barrier_spec(barrier_random, type_ok=names["TypeOK"], safety=names["BarrierProperty"])
    result = grade_name(output, barrier_random, tools)
    assert result.passed, result.reason
    assert result.details["changes"] == [{"keyword": "SPECIFICATION", "cfg_name": names["Spec"], "used": "Spec"}]
    assert "SPECIFICATION Spec" in result.details["cfg"]


def test_init_next_cfg_is_pointed_at_init_and_next(tools) -> None:
    reference = """---- MODULE Counter ----
EXTENDS Naturals
VARIABLE n
Start == n = 0
Step == n' = (n + 1) % 3
InRange == n \\in 0..2
===="""
    cfg = "INIT Start\nNEXT Step\nINVARIANT InRange\n"
    condition = Condition("counter", "original", "a counter modulo 3", (("Counter", reference),), cfg, ())
    output = reference.replace("Start", "Init").replace("Step", "Next").replace("MODULE Counter", "MODULE Mod3")
    result = grade_name(output, condition, tools)
    assert result.passed, result.reason
    assert {(c["keyword"], c["used"]) for c in result.details["changes"]} == {("INIT", "Init"), ("NEXT", "Next")}


def minimal_barrier(condition: Condition, guard: str = "count = {N}") -> str:
    """A Barrier spec defining Init, Next, Spec and exactly one other operator, Safe."""
    n = condition.names.get("N", "N")
    return f"""---- MODULE Minimal ----
EXTENDS Naturals
CONSTANT {n}
VARIABLES phase, count
Init == phase = [p \\in 1..{n} |-> "working"] /\\ count = 0
Next == \\/ \\E p \\in 1..{n} :
            \\/ phase[p] = "working" /\\ phase' = [phase EXCEPT ![p] = "waiting"] /\\ count' = count + 1
            \\/ phase[p] = "waiting" /\\ {guard.format(N=n)} /\\ phase' = [phase EXCEPT ![p] = "passed"]
               /\\ UNCHANGED count
        \\/ (\\A p \\in 1..{n} : phase[p] = "passed") /\\ UNCHANGED <<phase, count>>
Spec == Init /\\ [][Next]_<<phase, count>>
Safe == \\A p \\in 1..{n} : phase[p] = "passed" => \\A q \\in 1..{n} : phase[q] /= "working"
===="""


def test_exactly_one_extra_operator_stands_in_for_missing_invariants(barrier_random: Condition, tools) -> None:
    result = grade_name(minimal_barrier(barrier_random), barrier_random, tools)
    assert result.passed, result.reason
    used = {(c["cfg_name"], c["used"]) for c in result.details["changes"] if c["keyword"].startswith("INVARIANT")}
    assert used == {(barrier_random.names["TypeOK"], "Safe"), (barrier_random.names["BarrierProperty"], "Safe")}
    assert result.details["missing"] == []
    assert "INVARIANT\n    Safe\n" in result.details["cfg"]


def test_binding_keeps_constants_and_other_sections() -> None:
    cfg = "CONSTANTS\n    N = 3\n    Extra = 1\nCONSTRAINT Bound\nINIT I0\nNEXT N0\nINVARIANT Inv\nPROPERTY Live\n"
    defined = frozenset({"N", "Init", "Next", "Inv", "Live"})
    names = OutputNames(defined, defined, ("Inv", "Live"))
    binding = bind_cfg(cfg, names)
    assert [(k, old, new) for k, old, new in binding.changes] == [("INIT", "I0", "Init"), ("NEXT", "N0", "Next")]
    assert "N = 3" in binding.text and "Extra = 1" in binding.text and "CONSTRAINT" in binding.text
    assert binding.missing == ("Bound",) and binding.undeclared == ("Extra",)
    unchanged = cfg.replace("I0", "Init").replace("N0", "Next")
    assert bind_cfg(unchanged, names).text == unchanged  # the author's text, not a re-rendering


def test_grade_result_needs_a_reason_to_fail_and_copies_details() -> None:
    with pytest.raises(ValueError):
        GradeResult("name", False)
    result = GradeResult("parse", True, None, {"lenient_ok": True}, 0.5)
    result.to_dict()["details"]["lenient_ok"] = False
    assert result.details["lenient_ok"] is True
    hash(result)  # frozen and hashable despite the dict


def test_violated_invariant_fails_with_its_name(barrier: Task, tools) -> None:
    condition = barrier.original()
    output = barrier_spec(condition, type_ok="TypeOK", safety="BarrierProperty", guard="TRUE")
    result = grade_name(output, condition, tools)
    assert not result.passed
    assert result.details["violated"] == "BarrierProperty"
    assert result.reason is not None
    assert result.reason.startswith("invariant BarrierProperty is violated: counterexample of")
    assert "last state:" in result.reason and "Pass" in result.reason


def test_substituted_invariant_is_named_with_what_it_stands_for(barrier_random: Condition, tools) -> None:
    result = grade_name(minimal_barrier(barrier_random, guard="TRUE"), barrier_random, tools)
    assert not result.passed and result.details["violated"] == "Safe"
    hidden = f"{barrier_random.names['TypeOK']}, {barrier_random.names['BarrierProperty']}"
    assert result.reason is not None
    assert result.reason.startswith(f"invariant Safe (standing in for {hidden}) is violated: counterexample of")


def test_violated_liveness_property_fails_with_its_name(tasks: dict[str, Task], tools) -> None:
    condition = tasks["hour-clock"].original()
    output = condition.modules[0][1].replace(" /\\ WF_hr(Tick)", "")
    result = grade_name(output, condition, tools)
    assert not result.passed and result.details["tlc_status"] == "property_violation"
    assert result.reason is not None and result.reason.startswith("property NoonRecurs is violated: counterexample")
    assert result.reason.endswith("then stutters forever")


def test_deadlock_fails_with_a_reason(barrier: Task, tools) -> None:
    condition = barrier.original()
    output = barrier_spec(condition, type_ok="TypeOK", safety="BarrierProperty", finished=False)
    result = grade_name(output, condition, tools)
    assert not result.passed
    assert result.details["tlc_status"] == "deadlock"
    assert result.reason is not None and result.reason.startswith("TLC reached a deadlock: counterexample of")


def test_task_without_cfg_fails_the_name_grade(tasks: dict[str, Task], tools) -> None:
    condition = tasks["ticket-dispenser"].original()
    output = condition.modules[0][1]
    assert grade_parse(output, condition, tools).passed
    result = grade_name(output, condition, tools)
    assert not result.passed and result.reason == "task has no TLC configuration"


# ---------------------------------------------------------------- parse grade: strict vs lenient


def test_undefined_operator_fails_strict_parse_but_is_lenient_ok(barrier: Task, tools) -> None:
    condition = barrier.original()
    output = barrier_spec(condition, type_ok="TypeOK", safety="BarrierProperty", guard="AllHere")
    parsed = grade_parse(output, condition, tools)
    assert not parsed.passed
    assert parsed.details["lenient_ok"] is True
    assert parsed.reason is not None and "AllHere" in parsed.reason and "semantic" in parsed.reason
    named = grade_name(output, condition, tools)
    assert not named.passed and named.reason is not None
    assert named.reason.startswith("output does not parse:")
    assert named.details["lenient_ok"] is True


def test_syntax_error_fails_both_ways(barrier: Task, tools) -> None:
    condition = barrier.original()
    output = barrier_spec(condition).replace("Init ==", "Init ===")
    parsed = grade_parse(output, condition, tools)
    assert not parsed.passed and parsed.details["lenient_ok"] is False
    assert parsed.reason is not None and parsed.reason.startswith("SANY: parse error")
    named = grade_name(output, condition, tools)
    assert not named.passed and named.reason == f"output does not parse: {parsed.reason}"


# ---------------------------------------------------------------- bad outputs are verdicts


@pytest.mark.parametrize("output, reason", [
    ("", "output is empty"),
    ("I cannot write this specification.", "output has no '---- MODULE Name ----' header"),
    ("---- MODULE ../x ----\nVARIABLE x\n====", "module name '../x' is not a TLA+ identifier"),
    ("---- MODULE a-b ----\nVARIABLE x\n====", "module name 'a-b' is not a TLA+ identifier"),
])
def test_unusable_outputs_fail_both_grades_with_reasons(barrier: Task, output: str, reason: str, tools) -> None:
    for grade in (grade_parse, grade_name):
        result = grade(output, barrier.original(), tools)
        assert not result.passed
        assert result.reason == reason
        assert result.details["stage"] == "extract"
        assert result.details["lenient_ok"] is False


def test_huge_output_fails(barrier: Task, tools) -> None:
    result = grade_parse("\\* padding\n" * 30_000 + barrier_spec(barrier.original()), barrier.original(), tools)
    assert not result.passed and result.reason is not None and "limit" in result.reason


def test_output_named_like_a_standard_module_fails(tasks: dict[str, Task], tools) -> None:
    condition = tasks["odometer"].original()
    output = condition.modules[0][1].replace("MODULE Odometer", "MODULE Naturals")
    for grade in (grade_parse, grade_name):
        result = grade(output, condition, tools)
        assert not result.passed
        assert result.reason is not None and "standard module" in result.reason and "Naturals" in result.reason
        assert result.details["stage"] == "stage"


def test_output_named_like_a_task_module_is_graded_under_a_fresh_name(tasks: dict[str, Task], tools) -> None:
    """A self-contained output may take the name of the module the reference EXTENDS (class 13)."""
    condition = tasks["odometer"].original()
    output = condition.modules[0][1].replace("MODULE Odometer", "MODULE Tally")
    for grade in (grade_parse, grade_name):
        result = grade(output, condition, tools)
        assert result.passed, result.reason
        assert (result.details["module"], result.details["staged_as"]) == ("Tally", "Tally_Output")
        assert any("staged as Tally_Output" in note for note in result.details["staging_notes"])


def test_output_may_import_its_own_helper_module(barrier: Task, tools) -> None:
    helper = "---- MODULE Phases ----\nPhases == {\"working\", \"waiting\", \"passed\"}\n===="
    output = barrier_spec(barrier.original(), type_ok="TypeOK", safety="BarrierProperty")
    output = output.replace("EXTENDS Naturals", "EXTENDS Naturals, Phases")
    output = output.replace('{"working", "waiting", "passed"}', "Phases")
    result = grade_name(f"```tla\n{helper}\n```\n\n```tla\n{output}\n```", barrier.original(), tools)
    assert result.passed, result.reason
    assert result.details["staged_modules"] == ["BarrierSync", "Phases"]


# Last: a timeout kills the tool server, so the run after it pays for a fresh one.
def test_timeout_fails(tools) -> None:
    reference = "---- MODULE Up ----\nEXTENDS Naturals\nVARIABLE n\nInit == n = 0\nNext == n' = n + 1\n" \
                "Spec == Init /\\ [][Next]_n\nTypeOK == n \\in Nat\n===="
    condition = Condition("up", "original", "count up forever", (("Up", reference),),
                          "SPECIFICATION Spec\nINVARIANT TypeOK\n", ())
    result = grade_name(reference, condition, tools, timeout=1)
    assert not result.passed
    assert result.reason == "TLC ran past the 1 s limit"
    assert result.details["tlc_status"] == "timeout"


def test_an_output_defining_the_cfgs_own_specification_keeps_it_under_the_refined_rule(
        tasks: dict[str, Task], tools) -> None:
    # cfg: SPECIFICATION LiveSpec; the output defines both Spec (no fairness) and LiveSpec (with it).
    condition = tasks["hour-clock"].original()
    text = condition.module_map[condition.main]
    output = text.replace("Spec == Init /\\ [][Next]_hr /\\ WF_hr(Tick)",
                          "Spec == Init /\\ [][Next]_hr\n\nLiveSpec == Spec /\\ WF_hr(Tick)")
    assert output != text and condition.cfg is not None
    live = dataclasses.replace(condition, cfg=condition.cfg.replace("SPECIFICATION Spec", "SPECIFICATION LiveSpec"))
    assert "SPECIFICATION LiveSpec" in (live.cfg or "")
    result = grade_name(output, live, tools, rule="refined")
    assert result.passed, result.reason
    assert not any(c["keyword"] == "SPECIFICATION" for c in result.details["changes"])
    # Appendix H as written points SPECIFICATION at the output's Spec whenever it defines one: no fairness.
    paper = grade_name(output, live, tools)
    assert not paper.passed and paper.details["tlc_status"] == "property_violation", paper.reason
    assert {"keyword": "SPECIFICATION", "cfg_name": "LiveSpec", "used": "Spec"} in paper.details["changes"]
    assert paper.details["name_rule"] == "paper"


#: An HourClock without TypeOK and NoonRecurs whose only operator besides Init, Next and Spec is a state predicate.
HOUR_CLOCK_GOOD = """---- MODULE HourClock ----
EXTENDS Naturals
VARIABLE hr
Good == hr \\in 1..12
Init == hr \\in 1..12
Next == hr' = IF hr = 12 THEN 1 ELSE hr + 1
Spec == Init /\\ [][Next]_hr /\\ WF_hr(Next)
===="""


def test_the_papers_rule_checks_the_one_other_operator_for_every_missing_entry(tasks: dict[str, Task], tools) -> None:
    """Issue 50's flip: appendix H puts Good in place of INVARIANT TypeOK and of PROPERTY NoonRecurs."""
    condition = tasks["hour-clock"].original()
    result = grade_name(HOUR_CLOCK_GOOD, condition, tools)
    assert result.passed, result.reason
    assert result.details["name_rule"] == "paper"
    assert {(c["keyword"], c["cfg_name"], c["used"]) for c in result.details["changes"]} == {
        ("INVARIANT", "TypeOK", "Good"), ("PROPERTY", "NoonRecurs", "Good")}
    assert "PROPERTY\n    Good\n" in result.details["cfg"]


def test_the_refined_rule_refuses_a_stand_in_of_the_wrong_level(tasks: dict[str, Task], tools) -> None:
    condition = tasks["hour-clock"].original()
    result = grade_name(HOUR_CLOCK_GOOD, condition, tools, rule="refined")
    assert not result.passed
    assert result.reason == "output does not define NoonRecurs, which the cfg requires"
    assert result.details["name_rule"] == "refined" and result.details["missing"] == ["NoonRecurs"]


def test_an_unknown_name_rule_is_refused() -> None:
    names = OutputNames(frozenset({"Init"}), frozenset({"Init"}), ())
    with pytest.raises(ValueError, match="name rule must be one of paper, refined"):
        bind_cfg("INIT Init\n", names, rule="literal")


def test_tlc_messages_lose_their_tool_markers() -> None:
    from pytest_alias.grading.tlc_reason import _plain

    raw = "@!@!@STARTMSG 2250:0 @!@!@\nA state predicate was\n evaluated to a non-boolean value.\n@!@!@ENDMSG 2250 @!@!@"
    assert _plain(raw) == "A state predicate was evaluated to a non-boolean value."
