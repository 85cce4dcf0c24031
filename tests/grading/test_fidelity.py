"""Issue 13's classes of wrong verdicts, each on a small hand-made reference, in both modes.

Each case is (reference task, output, verdict per mode, words the reason must contain). Paper mode
keeps the paper's procedure, so where one of its documented leniencies decides, its verdict differs
from extended mode's and its details say which leniency it was.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from pytest_alias.grading.behavior import grade_behavior
from pytest_alias.grading.name_grade import grade_name
from pytest_alias.grading.parse_grade import grade_parse
from pytest_alias.tasks.model import Task
from pytest_alias.tla.runner import TlaTools, default_tools


def module(name: str, body: str) -> str:
    return f"---- MODULE {name} ----\n{body}\n====\n"


# Class 1: an MC module binds constants to its own definitions.
FLOOD = module("Flood", """EXTENDS FiniteSets
CONSTANT Node, Init0
VARIABLE seen
Init == seen = {Init0}
Next == \\E n \\in Node : n \\notin seen /\\ seen' = seen \\cup {n}
Spec == Init /\\ [][Next]_seen""")
MC_FLOOD = module("MCFlood", 'EXTENDS Flood\nN1 == {"a", "b", "c"}\nFirst == "a"')
FLOOD_TASK = Task("flood", "flood", {"MCFlood": MC_FLOOD, "Flood": FLOOD},
                  cfg="CONSTANTS\n  Node <- N1\n  Init0 <- First\nSPECIFICATION Spec\n")
FLOOD_OUT = FLOOD.replace("MODULE Flood", "MODULE MCFlood")  # self-contained: no MCNode-style names

# Class 2: a PlusCal-style reference whose only variable is pc.
STEPS = module("Steps", """VARIABLE pc
Init == pc = "a"
Next == \\/ pc = "a" /\\ pc' = "b"
        \\/ pc = "b" /\\ pc' = "Done"
Spec == Init /\\ [][Next]_pc""")
STEPS_PLUSCAL = STEPS.replace("VARIABLE pc", "(* --algorithm steps\nbegin\na: skip;\nb: skip;\nend algorithm; *)\n"
                                            "VARIABLE pc")
STEPS_TASK = Task("steps", "steps", {"Steps": STEPS_PLUSCAL}, cfg="SPECIFICATION Spec\n")
STEPS_OTHER = module("Steps", """VARIABLE pc
Init == pc = "p"
Next == \\/ pc = "p" /\\ pc' = "q"
        \\/ pc = "q" /\\ pc' = "r"
        \\/ pc = "r" /\\ pc' = "p"
Spec == Init /\\ [][Next]_pc""")

# Class 3: fairness.
TICK = module("Tick", """EXTENDS Naturals
VARIABLE x, y
Init == x = 0 /\\ y = 0
Next == x < 3 /\\ x' = x + 1 /\\ y' = y
vars == <<x, y>>
Spec == Init /\\ [][Next]_vars /\\ WF_vars(Next)
Reach == <>(x = 3)""")
TICK_TASK = Task("tick", "tick", {"Tick": TICK}, cfg="SPECIFICATION Spec\nPROPERTY Reach\n")
TICK_VACUOUS = TICK.replace("WF_vars(Next)", "WF_vars(y' = 1 /\\ UNCHANGED x)")
TICK_UNFAIR = TICK.replace(" /\\ WF_vars(Next)", "").replace("Reach == <>(x = 3)", "")
UNFAIR_TASK = Task("unfair", "tick", {"Tick": TICK_UNFAIR}, cfg="SPECIFICATION Spec\n")
# Class 8: the spec formula's conjuncts in another order.
TICK_REORDERED = TICK.replace("Spec == Init /\\ [][Next]_vars /\\ WF_vars(Next)",
                              "Spec == [][Next]_vars /\\ WF_vars(Next) /\\ Init")

# Class 4: a CHOOSE definition overridden by a model value.
SLOT = module("Slot", """CONSTANT Node
NoNode == CHOOSE n : n \\notin Node
VARIABLE owner
Init == owner = NoNode
Next == \\/ owner = NoNode /\\ \\E n \\in Node : owner' = n
        \\/ owner # NoNode /\\ owner' = NoNode
Spec == Init /\\ [][Next]_owner""")
SLOT_TASK = Task("slot", "slot", {"Slot": SLOT}, cfg="CONSTANTS\n  Node = {n1, n2}\n  NoNode = NoNode\nSPECIFICATION Spec\n")

# Class 5: the reference's own fairness cannot be evaluated by TLC (A leaves y' unbound). TLC checks
# the reference cleanly with a cfg that checks no liveness (it never evaluates the fairness), so the
# grade checks its safety part (issue 22); with a liveness property TLC itself stops on it.
HALF = module("Half", """EXTENDS Naturals
VARIABLE x, y
Init == x = 0 /\\ y = 0
A == x < 2 /\\ x' = x + 1
Next == A /\\ UNCHANGED y
Spec == Init /\\ [][Next]_<<x, y>> /\\ WF_<<x, y>>(A)
Reach == <>(x = 2)""")
HALF_TASK = Task("half", "half", {"Half": HALF}, cfg="SPECIFICATION Spec\n")
HALF_LIVE_TASK = Task("half-live", "half", {"Half": HALF}, cfg="SPECIFICATION Spec\nPROPERTY Reach\n")

# Class 7: three constants, renamed and declared in another order.
THREE = module("Three", """EXTENDS Naturals
CONSTANT Lo, Hi, Step
VARIABLE x
Init == x = Lo
Next == x + Step <= Hi /\\ x' = x + Step
Spec == Init /\\ [][Next]_x""")
THREE_TASK = Task("three", "three", {"Three": THREE}, cfg="CONSTANTS\n  Lo = 1\n  Hi = 9\n  Step = 2\nSPECIFICATION Spec\n")
THREE_OUT = (THREE.replace("CONSTANT Lo, Hi, Step", "CONSTANT Cstep, Alow, Bhigh")
             .replace("Lo", "Alow").replace("Hi", "Bhigh").replace("Step", "Cstep"))


CASES = {
    # name: (task, output, {mode: passes}, words of a failing reason)
    "class1-model-from-the-reference": (FLOOD_TASK, FLOOD_OUT, {"paper": True, "extended": True}, ()),
    "class1-other-initiator": (FLOOD_TASK, FLOOD_OUT.replace("seen = {Init0}", 'seen = {"b"}'),
                               {"paper": False, "extended": False}, ()),
    "class1-smaller-model": (FLOOD_TASK, FLOOD_OUT.replace("\\E n \\in Node", '\\E n \\in {"a", "b"}'),
                             {"paper": False, "extended": False}, ()),
    "class2-only-pc": (STEPS_TASK, STEPS_OTHER, {"paper": False, "extended": False}, ()),
    # The paper's procedure passed it (its reverse check leaves G's fairness unchecked); the integrity
    # rule fails it in both modes: the fairness admits no behavior, so the forward check held vacuously.
    "class3-vacuous-fairness": (TICK_TASK, TICK_VACUOUS, {"paper": False, "extended": False}, ()),
    "class3-excluding-fairness": (UNFAIR_TASK, TICK_UNFAIR.replace("[][Next]_vars", "[][Next]_vars /\\ WF_vars(Next)"),
                                  {"paper": True, "extended": False}, ("with its fairness",)),
    "class3-same-fairness-other-name": (TICK_TASK, TICK.replace("WF_vars(Next)", "WF_vars(Tock)")
                                        .replace("vars == <<x, y>>", "vars == <<x, y>>\nTock == Next"),
                                        {"paper": True, "extended": True}, ()),
    "class4-choose-override": (SLOT_TASK, SLOT, {"paper": True, "extended": True}, ()),
    "class5-fairness-tlc-cannot-evaluate": (HALF_TASK, HALF.replace("WF_<<x, y>>(A)", "WF_<<x, y>>(Next)"),
                                            {"paper": True, "extended": True}, ()),
    # With a liveness property TLC itself stops on the reference's fairness: the reference graded
    # against itself fails, while an output whose fairness TLC can evaluate is graded on R's safety
    # part and R's property.
    "class5-reference-not-gradeable": (HALF_LIVE_TASK, HALF, {"paper": False, "extended": False},
                                       ("reference cannot be graded",)),
    "class5-evaluable-output-fairness": (HALF_LIVE_TASK, HALF.replace("WF_<<x, y>>(A)", "WF_<<x, y>>(Next)"),
                                         {"paper": True, "extended": True}, ()),
    "class7-three-constants": (THREE_TASK, THREE_OUT, {"paper": True, "extended": True}, ()),
    "class8-conjunct-order": (TICK_TASK, TICK_REORDERED, {"paper": True, "extended": True}, ()),
}


@pytest.fixture(scope="module")
def shared() -> TlaTools:
    return default_tools()


@pytest.mark.parametrize("mode", ["paper", "extended"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_each_class_gets_its_verdict(case: str, mode: str, shared: TlaTools) -> None:
    task, output, verdicts, words = CASES[case]
    result = grade_behavior(output, task.original(), shared, timeout=60, mode=mode)
    assert result.passed is verdicts[mode], result.reason
    if not result.passed:
        assert all(word in (result.reason or "") for word in words), result.reason
        assert result.details["side"] in ("output", "reference", "grader")


def test_vacuous_fairness_fails_the_paper_mode_on_its_forward_check(shared: TlaTools) -> None:
    result = grade_behavior(TICK_VACUOUS, TICK_TASK.original(), shared, timeout=60, mode="paper")
    assert not result.passed and "under mapping {x->x, y->y}" in result.reason and "admits no behavior" in result.reason
    assert result.details["attempts"][0]["forward"] == "vacuous" and "integrity" in result.details["attempts"][0]


def test_paper_mode_says_which_leniency_decided(shared: TlaTools) -> None:
    output = TICK_UNFAIR.replace("[][Next]_vars", "[][Next]_vars /\\ WF_vars(Next)")
    result = grade_behavior(output, UNFAIR_TASK.original(), shared, timeout=60, mode="paper")
    assert result.passed and result.details["leniency"] == ["fairness"]
    assert "not checked" in result.details["leniency_notes"][0]


def test_a_reference_that_fails_itself_is_blamed_not_the_output(shared: TlaTools) -> None:
    result = grade_behavior(HALF, HALF_LIVE_TASK.original(), shared, timeout=60, mode="extended")
    assert not result.passed and result.details["side"] == "reference"


def test_zero_data_variables_is_inconclusive_not_a_pass(shared: TlaTools) -> None:
    for mode in ("paper", "extended"):
        result = grade_behavior(STEPS_OTHER, STEPS_TASK.original(), shared, timeout=60, mode=mode)
        assert not result.passed
    # The reference itself still passes: the comparison only stops deciding where it cannot.
    assert grade_behavior(STEPS_PLUSCAL, STEPS_TASK.original(), shared, timeout=60, mode="extended").passed


def test_paper_cap_is_reported(shared: TlaTools) -> None:
    """Five variables: 120 variable mappings, of which the paper tries 60; the reason says so."""
    ref = module("Five", "VARIABLE a, b, c, d, e\nInit == a = 1 /\\ b = 2 /\\ c = 3 /\\ d = 4 /\\ e = 5\n"
                         "Next == UNCHANGED <<a, b, c, d, e>>\nSpec == Init /\\ [][Next]_<<a, b, c, d, e>>")
    task = Task("five", "five", {"Five": ref}, cfg="SPECIFICATION Spec\n")
    output = ref.replace("a = 1", "a = 9").replace("VARIABLE a, b, c, d, e", "VARIABLE v, w, x, y, z") \
        .replace("<<a, b, c, d, e>>", "<<v, w, x, y, z>>")
    output = output.replace("a = 9 /\\ b = 2 /\\ c = 3 /\\ d = 4 /\\ e = 5", "v = 9 /\\ w = 2 /\\ x = 3 /\\ y = 4 /\\ z = 5")
    result = grade_behavior(output, task.original(), shared, timeout=30, budget=600, mode="paper")
    assert not result.passed
    assert result.details["mappings_total"] == 120 and "cap" in result.details["leniency"]
    assert "60 of 120 mappings tried" in (result.reason or "")


def test_unicode_output_is_read_as_ascii_in_every_grade(shared: TlaTools) -> None:
    unicode_tick = (TICK.replace(" == ", " ≜ ").replace("/\\", "∧").replace("<<", "⟨").replace(">>", "⟩")
                    .replace("[]", "□").replace("<>", "◇").replace("'", "′"))
    assert "∧" in unicode_tick
    condition = TICK_TASK.original()
    for grade in (grade_parse, grade_name):
        result = grade(unicode_tick, condition, shared)
        # The name grade checks deadlock, as TLA+-Bench does, and Tick stops at x = 3: it parsed and ran.
        assert result.passed or "deadlock" in (result.reason or ""), result.reason
        assert any("read Unicode TLA+ as ASCII" in note for note in result.details["staging_notes"])
    for mode in ("paper", "extended"):
        assert grade_behavior(unicode_tick, condition, shared, timeout=60, mode=mode).passed


def test_stand_in_must_have_the_right_level(shared: TlaTools) -> None:
    ref = module("Pair", "EXTENDS Naturals\nVARIABLE x, y\nInit == x = 0 /\\ y = 0\n"
                         "Next == x' = (x + 1) % 3 /\\ y' = y\nSpec == Init /\\ [][Next]_<<x, y>>\n"
                         "TypeOK == x \\in 0..2\nSafe == y = 0")
    task = Task("pair", "pair", {"Pair": ref}, cfg="SPECIFICATION Spec\nINVARIANT TypeOK Safe\n")
    tuple_only = ref.replace("TypeOK == x \\in 0..2\nSafe == y = 0", "vars == <<x, y>>")
    result = grade_name(tuple_only, task.original(), shared, rule="refined")
    assert not result.passed and result.reason == "output does not define TypeOK and Safe, which the cfg requires"
    # Appendix H as written takes the one other operator whatever its level: TLC then rejects the tuple.
    paper = grade_name(tuple_only, task.original(), shared)
    assert not paper.passed and paper.details["missing"] == []
    assert {c["used"] for c in paper.details["changes"]} == {"vars"}
    predicate_only = ref.replace("TypeOK == x \\in 0..2\nSafe == y = 0", "Good == x \\in 0..2 /\\ y = 0")
    for rule in ("paper", "refined"):
        result = grade_name(predicate_only, task.original(), shared, rule=rule)
        assert result.passed and {c["used"] for c in result.details["changes"]} == {"Good"}


def test_a_timed_out_reference_dump_is_remembered(tmp_path: Path) -> None:
    big = module("Big", "EXTENDS Naturals\nVARIABLE x, y\nInit == x = 0 /\\ y = 0\n"
                        "Next == x' \\in 0..400 /\\ y' \\in 0..400\nSpec == Init /\\ [][Next]_<<x, y>>")
    task = Task("big", "big", {"Big": big}, cfg="SPECIFICATION Spec\n")
    tools = TlaTools(cache_dir=tmp_path)
    tools.__dict__["launcher"] = default_tools().launcher
    first = grade_behavior(big, task.original(), tools, timeout=2, budget=4, mode="extended")
    assert "ran past" in first.details.get("fallback", "") or "timeout" in first.details.get("fallback", "")
    started = time.perf_counter()
    second = grade_behavior(big, task.original(), tools, timeout=2, budget=4, mode="extended")
    assert "remembered" in second.details["fallback"]
    assert time.perf_counter() - started < first.seconds + 1


def test_a_graph_mismatch_comes_with_a_shortest_witness(shared: TlaTools) -> None:
    output = FLOOD_OUT.replace("\\E n \\in Node", '\\E n \\in {"a", "b"}')
    result = grade_behavior(output, FLOOD_TASK.original(), shared, timeout=60, mode="extended")
    assert not result.passed and result.details["side"] == "output"
    assert 'e.g. only the reference reaches [seen = {"a", "c"}] after [seen = {"a"}]' in (result.reason or "")
