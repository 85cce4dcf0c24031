"""Issue 50 item 6: the last two false-fail classes of the behavior grade, each in both modes.

* A value the reference's cfg binds through a definition (``Start <- MCStart``) that holds model
  values no constant is bound to, inside a function or record (``[p \\in Procs |-> "idle"]`` with
  ``Procs = {p1, p2}``): neither a constant nor a cfg literal can write it.
* An operator constant bound through a definition (``Op <- MCOp``) that the output renames: it
  declares the operator constant under another name and defines its own model operator (or none).

A correct output that names things differently must pass; a wrong one of the same shape must fail.
Real SANY and TLC on small hand-made references.
"""

from __future__ import annotations

import pytest

from pytest_alias.grading.behavior import grade_behavior
from pytest_alias.grading.bindings import Bindings, bound_cfg, operator_bindings, with_model_values
from pytest_alias.grading.encoding import encoded_model_values, forward_expression, tla_literal
from pytest_alias.grading.graphmatch import Encoding
from pytest_alias.grading.mapping import declared
from pytest_alias.tasks.model import Task
from pytest_alias.tla.cfg import parse_cfg, render_cfg
from pytest_alias.tla.runner import TlaTools, default_tools
from pytest_alias.tla.values import ModelValue, make_function, model_value_names

MODES = ("paper", "extended")


def module(name: str, body: str) -> str:
    return f"---- MODULE {name} ----\n{body}\n====\n"


@pytest.fixture(scope="module")
def tools() -> TlaTools:
    return default_tools()


# ---------------------------------------------------------------- class 1: a function or record of model values

JOBS = module("Jobs", """CONSTANT Procs, Start
VARIABLE state
Init == state = Start
Next == \\E p \\in Procs : state[p] = "idle" /\\ state' = [state EXCEPT ![p] = "busy"]
Spec == Init /\\ [][Next]_state
TypeOK == state \\in [Procs -> {"idle", "busy"}]""")
MC_JOBS = module("MCJobs", "EXTENDS Jobs\nMCStart == [p \\in Procs |-> \"idle\"]")
JOBS_TASK = Task("jobs", "jobs", {"MCJobs": MC_JOBS, "Jobs": JOBS},
                 cfg="CONSTANTS\n  Procs = {p1, p2}\n  Start <- MCStart\nSPECIFICATION Spec\nINVARIANT TypeOK\n")
JOBS_RENAMED = module("MCJobs", """CONSTANT Workers, Initial
VARIABLE status
Init == status = Initial
Next == \\E w \\in Workers : status[w] = "idle" /\\ status' = [status EXCEPT ![w] = "busy"]
Spec == Init /\\ [][Next]_status
AllIdle == [w \\in Workers |-> "idle"]""")
# Wrong: every worker becomes busy at once (other reachable states).
JOBS_ALL_AT_ONCE = JOBS_RENAMED.replace("status' = [status EXCEPT ![w] = \"busy\"]",
                                        "status' = [v \\in Workers |-> \"busy\"]")
# Wrong: ignores the bound start value (starts busy: no step at all).
JOBS_OWN_START = JOBS_RENAMED.replace("Init == status = Initial", "Init == status = [w \\in Workers |-> \"busy\"]")

LOCK = module("Lock", """EXTENDS Naturals
CONSTANT Procs, Start
VARIABLE lock
Init == lock = Start
Next == \\E p \\in Procs : lock.owner # p /\\ lock' = [owner |-> p, count |-> (lock.count + 1) % 3]
Spec == Init /\\ [][Next]_lock""")
MC_LOCK = module("MCLock", "EXTENDS Lock\nMCStart == [owner |-> CHOOSE p \\in Procs : TRUE, count |-> 0]")
LOCK_TASK = Task("lock", "lock", {"MCLock": MC_LOCK, "Lock": LOCK},
                 cfg="CONSTANTS\n  Procs = {p1, p2, p3}\n  Start <- MCStart\nSPECIFICATION Spec\n")
LOCK_RENAMED = module("MCLock", """EXTENDS Naturals
CONSTANT Clients, First
VARIABLE holder
Init == holder = First
Next == \\E c \\in Clients : holder.owner # c /\\ holder' = [owner |-> c, count |-> (holder.count + 1) % 3]
Spec == Init /\\ [][Next]_holder""")
# Wrong: the counter wraps at 2, not 3.
LOCK_WRAPS_EARLY = LOCK_RENAMED.replace("% 3", "% 2")

# The same value in a variable's encoding: PlusCal's pc over a set of model values, labels renamed.
# Extended mode encodes pc ("Step" for "Work"), so the encoding writes functions over p1, p2.
WORKERS = module("Workers", """EXTENDS Naturals
CONSTANT Procs
(* --algorithm Workers
variables done = 0;
process w \\in Procs
begin
  Work: done := done + 1;
end process;
end algorithm; *)
\\* BEGIN TRANSLATION
VARIABLES done, pc
vars == << done, pc >>
ProcSet == (Procs)
Init == /\\ done = 0
        /\\ pc = [self \\in ProcSet |-> "Work"]
Work(self) == /\\ pc[self] = "Work"
              /\\ done' = done + 1
              /\\ pc' = [pc EXCEPT ![self] = "Done"]
w(self) == Work(self)
Terminating == /\\ \\A self \\in ProcSet: pc[self] = "Done"
               /\\ UNCHANGED vars
Next == (\\E self \\in Procs: w(self)) \\/ Terminating
Spec == Init /\\ [][Next]_vars
\\* END TRANSLATION""")
WORKERS_TASK = Task("workers", "workers", {"Workers": WORKERS}, cfg="CONSTANT Procs = {p1, p2}\nSPECIFICATION Spec\n")
WORKERS_RENAMED = WORKERS.replace('"Work"', '"Step"').replace("Procs", "Team").replace("done", "count")
# Wrong: each step adds two.
WORKERS_BY_TWO = WORKERS_RENAMED.replace("count' = count + 1", "count' = count + 2")

# ---------------------------------------------------------------- class 2: an operator constant bound to a definition

ACC = module("Acc", """EXTENDS Naturals
CONSTANT Op(_, _), Limit
VARIABLE total
Init == total = 0
Next == total < Limit /\\ total' = Op(total, 1)
Spec == Init /\\ [][Next]_total""")
MC_ACC = module("MCAcc", "EXTENDS Acc\nMCOp(a, b) == a + b")
ACC_TASK = Task("acc", "acc", {"MCAcc": MC_ACC, "Acc": ACC},
                cfg="CONSTANTS\n  Limit = 4\n  Op <- MCOp\nSPECIFICATION Spec\n")
# The reference in one module: the definition the cfg binds is in the main module itself.
ACC_ONE = module("AccOne", ACC.split("\n", 1)[1].rsplit("====", 1)[0] + "MCOp(a, b) == a + b")
ACC_ONE_TASK = Task("acc-one", "acc", {"AccOne": ACC_ONE}, cfg="CONSTANTS\n  Limit = 4\n  Op <- MCOp\nSPECIFICATION Spec\n")
ACC_RENAMED = module("MCAcc", """EXTENDS Naturals
CONSTANT Combine(_, _), Cap
VARIABLE sum
Init == sum = 0
Next == sum < Cap /\\ sum' = Combine(sum, 1)
Spec == Init /\\ [][Next]_sum
Plus(a, b) == a + b""")
# The output's own helper under the reference's name, but another operator: the model is still R's.
ACC_OWN_MCOP = ACC_RENAMED.replace("Plus(a, b) == a + b", "MCOp(a, b) == a * b")
# Wrong: steps by two.
ACC_BY_TWO = ACC_RENAMED.replace("Combine(sum, 1)", "Combine(sum, 2)")

CASES = {
    # name: (task, output, passes)
    "1-function-renamed": (JOBS_TASK, JOBS_RENAMED, True),
    "1-function-all-at-once": (JOBS_TASK, JOBS_ALL_AT_ONCE, False),
    "1-function-own-start": (JOBS_TASK, JOBS_OWN_START, False),
    "1-record-renamed": (LOCK_TASK, LOCK_RENAMED, True),
    "1-record-wraps-early": (LOCK_TASK, LOCK_WRAPS_EARLY, False),
    "1-pc-over-model-values-renamed": (WORKERS_TASK, WORKERS_RENAMED, True),
    "1-pc-over-model-values-by-two": (WORKERS_TASK, WORKERS_BY_TWO, False),
    "2-operator-renamed": (ACC_TASK, ACC_RENAMED, True),
    "2-operator-renamed-one-module": (ACC_ONE_TASK, ACC_RENAMED.replace("MODULE MCAcc", "MODULE AccOne"), True),
    "2-operator-own-mcop": (ACC_TASK, ACC_OWN_MCOP, True),
    "2-operator-by-two": (ACC_TASK, ACC_BY_TWO, False),
}


@pytest.mark.parametrize("self_checked", [False, True], ids=["plain", "self-checked"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", sorted(CASES))
def test_bound_value_classes(case: str, mode: str, self_checked: bool, tools: TlaTools) -> None:
    """Each case's verdict, also as a run grades it once the reference passed its self-check (the
    identity-mapping shortcuts may then decide checks from state graphs)."""
    task, output, passes = CASES[case]
    result = grade_behavior(output, task.original(), tools, timeout=60, mode=mode,
                            reference_passed=("paper", 60) if self_checked else None)
    assert result.passed is passes, (mode, result.reason, result.details.get("bindings"))
    assert result.details["mode"] == mode
    if not passes:
        assert result.details["side"] == "output", result.reason
        assert "undefined" not in (result.reason or ""), result.reason


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("task", [JOBS_TASK, LOCK_TASK, WORKERS_TASK, ACC_TASK, ACC_ONE_TASK], ids=lambda t: t.id)
def test_each_reference_passes_against_itself(task: Task, mode: str, tools: TlaTools) -> None:
    result = grade_behavior(task.module_map[task.main], task.original(), tools, timeout=60, mode=mode)
    assert result.passed, (mode, result.reason)


def test_a_function_of_unnamed_model_values_is_bound_through_wrapper_constants(tools: TlaTools) -> None:
    for mode in MODES:
        result = grade_behavior(JOBS_RENAMED, JOBS_TASK.original(), tools, timeout=60, mode=mode)
        assert result.passed, (mode, result.reason)
        bindings = result.details["bindings"]
        assert bindings["values"] == {"Start": '(p1 :> "idle" @@ p2 :> "idle")'} and bindings["skipped"] == {}
        assert bindings["model_values"] == ["p1", "p2"]


def test_renamed_labels_over_model_values_are_encoded_in_extended_mode(tools: TlaTools) -> None:
    extended = grade_behavior(WORKERS_RENAMED, WORKERS_TASK.original(), tools, timeout=60, mode="extended")
    assert extended.passed and extended.details["stage"] == "tlc", extended.reason
    assert '"Step"->"Work"' in " ".join(e["description"] for e in extended.details["encodings"])
    # The paper's procedure: no mapping passes, the data variables decide (appendix I).
    paper = grade_behavior(WORKERS_RENAMED, WORKERS_TASK.original(), tools, timeout=60, mode="paper")
    assert paper.passed and paper.details["stage"] == "data-variables", paper.reason


def test_an_operator_constant_is_bound_to_the_references_operator(tools: TlaTools) -> None:
    for mode in MODES:
        result = grade_behavior(ACC_OWN_MCOP, ACC_TASK.original(), tools, timeout=60, mode=mode)
        assert result.passed, (mode, result.reason)
        assert result.details["bindings"]["operators"] == {"Op": "MCOp"}
        assert result.details["mapping"]["constants"] == {"Op": "Combine", "Limit": "Cap"}


# ---------------------------------------------------------------- the pieces, without TLC


def test_model_values_are_found_anywhere_in_a_value() -> None:
    value = make_function({ModelValue("p1"): (ModelValue("p2"), "x"), ModelValue("p3"): frozenset({1})})
    assert model_value_names(value) == {"p1", "p2", "p3"}
    assert model_value_names(make_function({"a": 1})) == frozenset()


def test_a_literal_names_model_values_only_as_told() -> None:
    value = make_function({ModelValue("p1"): "idle", ModelValue("p2"): "busy"})
    assert tla_literal(value, "V") is None
    written = tla_literal(value, "V", names={"p1": "MV_p1", "p2": "MV_p2"})
    assert written == '[V0 \\in {MV_p1, MV_p2} |-> (CASE V0 = MV_p1 -> "idle" [] V0 = MV_p2 -> "busy")]'
    encoding = Encoding("pc", "pc", (("a", "b"),), {make_function({ModelValue("p1"): "a"}): make_function({ModelValue("p1"): "b"})})
    assert encoded_model_values([encoding]) == ("p1",)
    assert forward_expression(encoding, "V") is None
    assert "MV_p1" in (forward_expression(encoding, "V", {"p1": "MV_p1"}) or "")


def test_wrapper_constants_are_bound_to_their_model_values() -> None:
    cfg = with_model_values(parse_cfg("CONSTANTS\n  Procs = {p1, p2}\n  Start <- MCStart\nSPECIFICATION Spec\n"),
                            "Alias", ("p1", "p2"))
    assert "AliasMV_p1 = p1" in render_cfg(cfg) and "AliasMV_p2 = p2" in render_cfg(cfg)
    assert "AliasMV_p1 = p1" in render_cfg(with_model_values(parse_cfg("INIT Init\nNEXT Next\n"), "Alias", ("p1",)))
    bindings = Bindings({"Start": '(p1 :> "idle" @@ p2 :> "idle")'}, True, fresh=("p1", "p2"))
    assert bindings.definitions("Alias") == ['AliasBind_Start == (AliasMV_p1 :> "idle" @@ AliasMV_p2 :> "idle")']


def test_operator_constants_bound_to_operators_are_found() -> None:
    condition = ACC_TASK.original()
    cfg = parse_cfg(condition.cfg or "")
    found = operator_bindings(cfg, condition, declared(condition.module_map, condition.main))
    assert found == {"Op": ("MCOp", 2)}
    bindings = Bindings(operators=found)
    assert bindings.operator_definitions("Alias", "AliasRef") == [
        "AliasBind_Op(AliasA1, AliasA2) == AliasRef!MCOp(AliasA1, AliasA2)"]
    assert "Op <- AliasBind_Op" in render_cfg(bound_cfg(cfg, bindings, "Alias"))
    # An operator of another arity is left bound by name (TLC itself rejects such a cfg).
    other = parse_cfg("CONSTANTS\n  Limit = 4\n  Op <- Unary\nSPECIFICATION Spec\n")
    unary = Task("acc-unary", "acc", {"MCAcc": MC_ACC.replace("MCOp(a, b) == a + b", "Unary(a) == a"), "Acc": ACC},
                 cfg=render_cfg(other)).original()
    assert operator_bindings(other, unary, declared(unary.module_map, unary.main)) == {}
