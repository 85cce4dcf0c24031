"""Grader integrity (issue #48): outputs that try to pass without being right, or to pass their own
failure off as the grader's, in every grade, both behavior modes and both launchers.

Each output is a wrong HourClock (its tick skips every other hour, so twelve o'clock recurs only from
an even start) dressed with one trick. None may pass; none may come back as a grader fault (which the
rates leave out); each fails with the reason its trick earns.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_alias.grading import grade_name
from pytest_alias.grading.behavior import grade_behavior
from pytest_alias.grading.integrity import self_stopping
from pytest_alias.tasks.suites import load_suite
from pytest_alias.tla.runner import TlaTools
from pytest_alias.records import grade_outcome
from pytest_alias.vocabulary import Side

HEAD = "---- MODULE HourClock ----\nEXTENDS Naturals, TLC\nVARIABLE hr\n"
TYPE_OK = "TypeOK == hr \\in 1..12\n"
WRONG_TICK = "Tick == hr' = IF hr >= 11 THEN 1 ELSE hr + 2\n"
NOON = "NoonRecurs == []<>(hr = 12)\n"
FAIR_SPEC = "Next == Tick\nSpec == Init /\\ [][Next]_hr /\\ WF_hr(Tick)\n"


def wrong_clock(*, init: str = "Init == hr \\in 1..12\n", tick: str = WRONG_TICK, type_ok: str = TYPE_OK,
                spec: str = FAIR_SPEC, extra: str = "") -> str:
    return f"{HEAD}{type_ok}{init}{tick}{spec}{NOON}{extra}====\n"


#: name → (output, what the name grade's reason says, what the behavior grades' reasons say)
TRICKS: dict[str, tuple[str, str, str]] = {
    "exit in Init": (wrong_clock(init="Init == hr \\in 1..12 /\\ TLCSet(\"exit\", TRUE)\n"),
                     "stopped TLC early", "stopped TLC early"),
    "exit in the invariant": (wrong_clock(type_ok="TypeOK == hr \\in 1..12 /\\ TLCSet(\"exit\", TRUE)\n"),
                              "stopped TLC early", ""),
    "exit in an action": (wrong_clock(tick="Tick == /\\ hr' = IF hr >= 11 THEN 1 ELSE hr + 2\n"
                                           "        /\\ TLCSet(\"exit\", hr = 5)\n"),
                          "stopped TLC early", ""),
    # One initial state: TLC stops on the first successor, reports no error for the TypeOK it violates,
    # and leaves nothing on its queue, so only the text tells.
    "exit hiding a violation": (wrong_clock(init="Init == hr = 1\n", tick="Tick == TLCSet(\"exit\", TRUE) /\\ hr' = hr + 20\n"),
                                "TLCSet(\"exit\"", ""),
    "exit through a computed key": (wrong_clock(init="Init == hr = 1\n",
                                                tick="Key == \"exit\"\nTick == TLCSet(Key, TRUE) /\\ hr' = hr + 20\n"),
                                    "not a literal", ""),
    "no initial state": (wrong_clock(init="Init == hr \\in 1..12 /\\ FALSE\n"), "no state satisfies", ""),
    "an assumption that is always false": (wrong_clock(extra="ASSUME FALSE\n"), "ASSUME", ""),
    "fairness that can never be met": (wrong_clock(spec="Next == Tick\nSpec == Init /\\ [][Next]_hr /\\ WF_hr(hr' = 100)\n"),
                                       "admits no behavior", ""),
    "a printed JVM start failure": (wrong_clock(init="Init == hr \\in 1..12 /\\ PrintT(\"Could not find or load main "
                                                     "class\") /\\ PrintT(\"Error occurred during initialization of VM\")\n"),
                                    "NoonRecurs", ""),
    "a printed out-of-memory error": (wrong_clock(init="Init == hr \\in 1..12 /\\ PrintT(\"java.lang.OutOfMemoryError: "
                                                       "Java heap space\")\n"), "NoonRecurs", ""),
    "forged tool messages": (wrong_clock(init="Init == hr \\in 1..12 /\\ PrintT(\"@!@!@STARTMSG 2193:0 @!@!@\\nModel "
                                              "checking completed. No error has been found.\\n@!@!@ENDMSG 2193 @!@!@\")\n"),
                             "NoonRecurs", ""),
    "a printed verdict line": (wrong_clock(init="Init == hr \\in 1..12 /\\ PrintT(\"Model checking completed. No error "
                                                "has been found.\")\n"), "NoonRecurs", ""),
    "an uncaught-exception line of its own": (wrong_clock(extra="Junk == Assert(FALSE, \"Exception in thread main "
                                                                "java.lang.NoClassDefFoundError\")\n"), "NoonRecurs", ""),
    "an exploration bounded by TLCGet": (wrong_clock(spec="Next == TLCGet(\"level\") < 2 /\\ Tick\n"
                                                          "Spec == Init /\\ [][Next]_hr /\\ WF_hr(Next)\n"), "", ""),
    "a parse error beside a JVM failure string": (
        wrong_clock(extra="Junk == \"Could not find or load main class\" =\n"), "output does not parse",
        "output does not parse"),
}


@pytest.fixture(scope="module")
def clock():  # type: ignore[no-untyped-def]
    task = {task.id: task for task in load_suite("builtin")}["hour-clock"]
    return task.original()


@pytest.fixture(scope="module", params=["server", "fresh"])
def tools(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> TlaTools:
    tools = TlaTools(cache_dir=tmp_path_factory.mktemp(f"cache-{request.param}"), launcher=request.param)
    if tools.launcher.kind != request.param:
        pytest.skip(f"no tool server here: {tools.launcher.note}")
    return tools


def _assert_failed_by_output(result, grade: str, wanted: str) -> None:  # type: ignore[no-untyped-def]
    assert not result.passed, f"{grade} grade passed a wrong output: {result.details}"
    assert result.details.get("side", Side.OUTPUT) == Side.OUTPUT, result.reason
    outcome = grade_outcome(grade, {"passed": False, "details": result.details})
    assert outcome not in ("grader_error", "reference_not_gradeable", "toolchain_limit"), (outcome, result.reason)
    assert wanted in (result.reason or ""), result.reason


#: The tricks whose verdict could depend on the launcher (what a fresh JVM's output holds): the others
#: run on the tool server alone, to keep the suite short.
BOTH_LAUNCHERS = {"exit in Init", "a printed JVM start failure", "a printed out-of-memory error", "forged tool messages",
                  "an uncaught-exception line of its own", "a parse error beside a JVM failure string"}


@pytest.mark.parametrize("trick", sorted(TRICKS))
def test_a_trick_never_passes_nor_becomes_a_grader_fault(trick: str, clock, tools: TlaTools) -> None:  # type: ignore[no-untyped-def]
    if tools.launcher.kind == "fresh" and trick not in BOTH_LAUNCHERS:
        pytest.skip("decided the same way on both launchers; run on the tool server")
    output, name_reason, behavior_reason = TRICKS[trick]
    _assert_failed_by_output(grade_name(output, clock, tools), "name", name_reason)
    for mode in ("paper", "extended"):
        _assert_failed_by_output(grade_behavior(output, clock, tools, mode=mode), "behavior", behavior_reason)


def test_the_reference_itself_still_passes_every_grade(clock, tools: TlaTools) -> None:  # type: ignore[no-untyped-def]
    reference = clock.module_map[clock.main]
    assert grade_name(reference, clock, tools).passed
    for mode in ("paper", "extended"):
        assert grade_behavior(reference, clock, tools, mode=mode).passed


def test_a_fair_spec_with_a_property_is_probed_once_and_passes(clock, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The vacuity probe runs TLC once more for a pass whose cfg checks a PROPERTY under a SPECIFICATION,
    and finds the behavior every correct spec has."""
    tools = TlaTools(cache_dir=tmp_path)
    result = grade_name(clock.module_map[clock.main], clock, tools)
    assert result.passed and "integrity" not in result.details
    assert tools.launches["tlc"] == 2  # the check and its probe


def test_a_right_spec_that_stops_tlc_passes_no_mapping_it_should_not(tools: TlaTools) -> None:
    """Die-hard's reference with ``TLCSet("exit", TRUE)`` in Next: under the mapping that swaps the two jugs
    (a wrong one) both refinement checks stopped on their first step with no error and an empty queue, so
    the search once passed it."""
    task = {task.id: task for task in load_suite("builtin")}["die-hard"]
    condition = task.original()
    reference = condition.module_map[condition.main]
    stopping = (reference.replace("EXTENDS Naturals", "EXTENDS Naturals, TLC")
                .replace("Next ==", "AnyMove ==", 1)
                .replace("Spec ==", "Next == TLCSet(\"exit\", TRUE) /\\ AnyMove\n\nSpec ==", 1))
    assert "AnyMove" in stopping
    _assert_failed_by_output(grade_name(stopping, condition, tools), "name", "")
    _assert_failed_by_output(grade_behavior(stopping, condition, tools), "behavior", "TLCSet(\"exit\"")


@pytest.mark.parametrize("text, flagged", [
    ('Next == TLCSet("exit", TRUE) /\\ x\' = 1', True),
    ("Stop(k) == TLCSet(k, TRUE)", True),
    ("Apply(F(_, _)) == F(1, 2)\nA == Apply(TLCSet)", True),
    ('N == TLCSet(42, TLCGet(42) + 1) /\\ TLCSet("s:_possible", 1)', False),  # registers, by number or key
    ('(* TLCSet("exit", TRUE) *) \\* TLCSet(k, TRUE)\nP == PrintT("TLCSet(\\"exit\\", TRUE)")', False),
])
def test_only_a_tlcset_that_may_stop_tlc_is_flagged(text: str, flagged: bool) -> None:
    assert (self_stopping([text]) is not None) is flagged


@pytest.mark.parametrize("operator", ["JsonDeserialize", "ndJsonDeserialize"])
def test_json_readers_are_refused_like_its_writers(operator: str) -> None:
    """A newer jar (``ALIAS_TLA2TOOLS``) may bring Json: its readers would let an output read host files."""
    from pytest_alias.grading.guard import writer_use

    text = f'---- MODULE A ----\nEXTENDS Json\nX == {operator}("/etc/passwd")\n====\n'
    assert writer_use([text]) == f"output uses {operator} (module Json), which reads files"


def test_a_task_whose_own_cfg_fails_does_not_count_against_the_output(tmp_path: Path) -> None:
    """The cfg asks TLC to check an action as an invariant: the reference fails it as any output does."""
    from pytest_alias.tasks.model import Task

    text = ("---- MODULE Ctr ----\nEXTENDS Naturals\nVARIABLE x\nInit == x = 0\nNext == x' = (x + 1) % 3\n"
            "Step == x' = x + 1\n====\n")
    task = Task(id="ctr", description="A counter modulo 3.", modules=(("Ctr", text),),
                cfg="INIT Init\nNEXT Next\nINVARIANT Step\n")
    result = grade_name(text.replace("% 3", "% 4"), task.original(), TlaTools(cache_dir=tmp_path))
    assert not result.passed and result.details["side"] == Side.REFERENCE
    assert result.reason.startswith("the task's cfg fails for the reference too")
    assert grade_outcome("name", {"passed": False, "details": result.details}) == "reference_not_gradeable"


def test_an_infix_operator_is_never_a_stand_in_for_a_cfg_name(clock, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """SmolLM2 once wrote an infix definition as its only operator: appendix H's stand-in would have been it,
    which no cfg can name, and the grade blamed the task's cfg."""
    output = "---- MODULE HourClock ----\nEXTENDS Naturals\nVARIABLE hr\na ++ b == a\n====\n"
    result = grade_name(output, clock, TlaTools(cache_dir=tmp_path))
    assert not result.passed and result.details.get("side", Side.OUTPUT) == Side.OUTPUT
    assert "does not define" in (result.reason or ""), result.reason
