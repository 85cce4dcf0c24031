"""The paper's three-part description rule in multi-module tasks (issue 50, item 4).

Section 3, "Renamed descriptions": "A name that the configuration refers to is always renamed, because the
model needs the new name for TLC to check its output. A lowercase word or a TLA⁺ module name keeps its
name. Every other identifier is renamed." The rule is stated for every identifier, so a provided
module's names go through the same three parts as the main module's.
"""

from __future__ import annotations

import re

import pytest

from pytest_alias.cir.conditions import published_condition, random_condition
from pytest_alias.cir.describe import description_damage, description_rule_names, rename_description
from pytest_alias.tasks.model import Task
from pytest_alias.tla.cfg import parse_cfg

# --- Bakery: appendix G ------------------------------------------------------
# Appendix G: blind replacement "turns “Lamport’s Bakery algorithm” into “Lamport’s Yodacz algorithm”";
# the rule keeps it, because Bakery is a TLA⁺ module name (here the provided module an MC module extends).

BAKERY_MODULE = r"""---- MODULE Bakery ----
EXTENDS Naturals
CONSTANT N
VARIABLES num, flag
Procs == 1..N
Init == num = [p \in Procs |-> 0] /\ flag = [p \in Procs |-> FALSE]
Take(p) == /\ ~flag[p]
           /\ flag' = [flag EXCEPT ![p] = TRUE]
           /\ num' = [num EXCEPT ![p] = 1]
Leave(p) == /\ flag[p]
            /\ flag' = [flag EXCEPT ![p] = FALSE]
            /\ num' = [num EXCEPT ![p] = 0]
Next == \E p \in Procs : Take(p) \/ Leave(p)
Spec == Init /\ [][Next]_<<num, flag>>
TypeOK == num \in [Procs -> 0..1] /\ flag \in [Procs -> BOOLEAN]
====
"""
MC_BAKERY = """---- MODULE MCBakery ----
EXTENDS Bakery
MCN == 2
====
"""
BAKERY_CFG = "CONSTANT N <- MCN\nSPECIFICATION Spec\nINVARIANT TypeOK\n"
BAKERY_TEXT = ("This is Lamport's Bakery algorithm for N processes. A process raises its flag and takes a "
               "num before it enters.")
BAKERY_TASK = Task("bakery", BAKERY_TEXT, (("MCBakery", MC_BAKERY), ("Bakery", BAKERY_MODULE)), BAKERY_CFG)
BAKERY_MAP = {"Bakery": "Yodacz", "N": "K", "flag": "gfhj", "num": "qzx"}


def test_bakery_keeps_the_algorithm_name_and_lowercase_words_of_the_provided_module() -> None:
    described = published_condition(BAKERY_TASK, BAKERY_MAP, verify=False).condition.description
    # N is the cfg's (rule 1: renamed), Bakery a module name and flag, num lowercase words (rule 2: kept).
    assert described == BAKERY_TEXT.replace(" N ", " K ")
    assert "Lamport's Bakery algorithm" in described


def test_bakery_blind_replacement_gives_the_papers_damaged_text() -> None:
    cfg_names, module_names = description_rule_names(BAKERY_TASK)
    blind = rename_description(BAKERY_TEXT, BAKERY_MAP, cfg_names, module_names, rule="all")
    assert blind.startswith("This is Lamport's Yodacz algorithm for K processes.")
    assert description_damage(BAKERY_TEXT, BAKERY_MAP, cfg_names, module_names) == ("Bakery", "flag", "num")


# --- Barrier: Figure 1 and section 3 -------------------------------------------
# Section 3: "Renaming changes the identifiers that this description mentions by name and leaves the rest
# of the text as it is, so ordinary words such as barrier or process remain (illustrated in Figure 1)."
# And: "In the Barrier task, the configuration checks TypeOK and BarrierProperty, and the description
# mentions neither of these two names ... After renaming, the configuration asks for Octvcq and
# Bvwcdylhaazalut". Here the Barrier module is provided, and it declares `barrier` and `process`.

BARRIER_MODULE = r"""---- MODULE Barrier ----
EXTENDS Naturals
CONSTANT N
VARIABLES pc, barrier
Procs == 1..N
process(p) == pc[p]
TypeOK == pc \in [Procs -> {"work", "wait", "pass"}] /\ barrier \subseteq Procs
Init == pc = [p \in Procs |-> "work"] /\ barrier = {}
Arrive(p) == /\ pc[p] = "work"
             /\ pc' = [pc EXCEPT ![p] = "wait"]
             /\ barrier' = barrier \cup {p}
Pass(p) == /\ pc[p] = "wait"
           /\ barrier = Procs
           /\ pc' = [pc EXCEPT ![p] = "pass"]
           /\ UNCHANGED barrier
Next == \E p \in Procs : Arrive(p) \/ Pass(p)
Spec == Init /\ [][Next]_<<pc, barrier>>
BarrierProperty == \A p \in Procs : process(p) = "pass" => \A q \in Procs : process(q) # "work"
====
"""
MC_BARRIER = """---- MODULE MCBarrier ----
EXTENDS Barrier
====
"""
BARRIER_CFG = "CONSTANT N = 3\nSPECIFICATION Spec\nINVARIANT TypeOK\nINVARIANT BarrierProperty\n"
BARRIER_TEXT = ("The specification models a barrier that synchronises a fixed group of processes. A constant `N` "
                "gives the number of processes. A working process may arrive at the barrier at any time; a "
                "waiting process may pass the barrier only once all `N` processes have arrived. No process is "
                "ever past the barrier while another process is still working.")
BARRIER_TASK = Task("barrier", BARRIER_TEXT, (("MCBarrier", MC_BARRIER), ("Barrier", BARRIER_MODULE)), BARRIER_CFG)
BARRIER_MAP = {"TypeOK": "Octvcq", "BarrierProperty": "Bvwcdylhaazalut", "N": "K", "barrier": "qwertyu",
               "process": "zxcvbnm"}


def test_barrier_keeps_barrier_and_process_and_states_neither_required_name() -> None:
    renamed = published_condition(BARRIER_TASK, BARRIER_MAP, verify=False)
    described = renamed.condition.description
    assert described == BARRIER_TEXT.replace("`N`", "`K`")
    assert re.findall(r"\bbarrier\b", described) == ["barrier"] * 4
    assert re.findall(r"\bprocess\b", described) == ["process"] * 4
    assert "qwertyu" not in described and "zxcvbnm" not in described
    # The cfg asks for the paper's renamed names; the description mentions neither.
    assert parse_cfg(renamed.condition.cfg or "").invariants == ("Octvcq", "Bvwcdylhaazalut")
    assert "Octvcq" not in described and "Bvwcdylhaazalut" not in described


def test_barrier_with_random_names_keeps_the_words_too() -> None:
    renamed = random_condition(BARRIER_TASK, 0, verify=False)
    assert {"barrier", "process", "N", "Barrier", "TypeOK"} <= set(renamed.renaming.name_map)
    assert renamed.condition.description == BARRIER_TEXT.replace("`N`", f"`{renamed.renaming.name_map['N']}`")


# --- which names the rule sees ------------------------------------------------


def test_rule_names_are_the_cfg_names_and_every_module_name() -> None:
    cfg_names, module_names = description_rule_names(BARRIER_TASK)
    assert module_names == {"MCBarrier", "Barrier"}
    assert {"N", "Spec", "TypeOK", "BarrierProperty"} <= cfg_names and "barrier" not in cfg_names


def test_the_required_refinement_renames_everything_a_provided_module_declares() -> None:
    cfg_names, module_names = description_rule_names(BARRIER_TASK, provided="required")
    assert module_names == {"MCBarrier"} and {"barrier", "process", "Barrier", "pc"} <= cfg_names
    out = rename_description(BARRIER_TEXT, BARRIER_MAP, cfg_names, module_names)
    assert "qwertyu" in out and "zxcvbnm" in out and "barrier" not in out


def test_unknown_provided_rule_is_refused() -> None:
    with pytest.raises(ValueError, match="provided-module rule"):
        description_rule_names(BARRIER_TASK, provided="some")  # type: ignore[arg-type]


def test_a_single_module_task_is_unchanged_by_the_provided_rule() -> None:
    task = Task("one", "A barrier.", (("Barrier", BARRIER_MODULE),), BARRIER_CFG)
    assert description_rule_names(task) == description_rule_names(task, provided="required")
