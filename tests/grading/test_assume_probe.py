"""The ASSUME probe of the mapping search: constant parts whose forward check must stop at start-up.

Real SANY and TLC throughout: each output is graded with the shortcuts off, then on, each from its own
cache; both must give the same verdict and reason, and every part the probe calls doomed must be one
whose forward check the plain search saw stop before TLC evaluated any state.
"""

from __future__ import annotations

from typing import Any

import pytest

from pytest_alias import switches
from pytest_alias.grading import assume_probe, behavior
from pytest_alias.grading.assume_probe import assumption_conjuncts
from pytest_alias.grading.behavior import grade_behavior
from pytest_alias.tasks.model import Task
from pytest_alias.tasks.suites import load_suite
from pytest_alias.tla.runner import TlaTools

#: Four constants of three kinds whose ASSUME holds under one assignment only: most of the 24 constant
#: permutations make it FALSE, and many make TLC fail to evaluate it (SUBSET of a number, a set in Nat).
QUORUM = """---- MODULE Quorum ----
EXTENDS Naturals, FiniteSets
CONSTANTS Nodes, Vals, Quorums, Max
ASSUME /\\ Quorums \\subseteq SUBSET Nodes
       /\\ Max \\in Nat
VARIABLES chosen, votes
Init == chosen = {} /\\ votes = [n \\in Nodes |-> {}]
Next == \\E n \\in Nodes, v \\in Vals :
          /\\ Cardinality(votes[n]) < Max
          /\\ votes' = [votes EXCEPT ![n] = @ \\cup {v}]
          /\\ chosen' = IF \\E q \\in Quorums : \\A m \\in q : v \\in votes'[m] THEN chosen \\cup {v} ELSE chosen
Spec == Init /\\ [][Next]_<<chosen, votes>>
TypeOK == chosen \\subseteq Vals
====
"""
QUORUM_TASK = Task("quorum", "votes and quorums", {"Quorum": QUORUM},
                   cfg="CONSTANTS\n  Nodes = {n1, n2, n3}\n  Vals = {v1, v2}\n  Quorums = {{n1, n2}, {n2, n3}, {n1, n3}}\n"
                       "  Max = 1\nSPECIFICATION Spec\nINVARIANT TypeOK\n")
#: A node may vote twice: states the reference never reaches, under every mapping.
QUORUM_WRONG = QUORUM.replace("Cardinality(votes[n]) < Max", "Cardinality(votes[n]) < Max + 1")


def test_conjuncts_are_split_and_keep_their_columns() -> None:
    text = ("---- MODULE M ----\nCONSTANTS N, S\nASSUME /\\ N \\in Nat\n       /\\ S # {} /\\ (N > 0 /\\ Ok(S))\n"
            "ASSUME Named == N < 5\nAXIOM N = 3\n---- MODULE Inner ----\nASSUME FALSE\n====\n====\n")
    conjuncts = assumption_conjuncts(text)
    assert [c.text.strip() for c in conjuncts] == ["N \\in Nat", "S # {}", "N > 0", "Ok(S)", "N < 5"]
    assert conjuncts[0].text == "\n" + " " * 10 + "N \\in Nat"  # its column in the source
    assert conjuncts[3].names == {"Ok", "S"}


def _graded_both_ways(output: str, task: Task, tmp_path: Any,
                      monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any, int, int, set[Any]]:
    """The output graded plainly and with the shortcuts; the TLC runs of each and the parts doomed."""
    monkeypatch.setattr(behavior, "MAX_ATTEMPTS_KEPT", 1000)  # keep every mapping's statuses
    doomed: set[Any] = set()
    real = assume_probe.AssumptionProbe.doomed

    def spy(self: Any, part: Any, upcoming: Any) -> bool:
        found = real(self, part, upcoming)
        if found:
            doomed.add(part)
        return found

    monkeypatch.setattr(assume_probe.AssumptionProbe, "doomed", spy)
    graded = []
    for way in ("off", "on"):
        monkeypatch.setenv(switches.ENV, way)
        tools = TlaTools(cache_dir=tmp_path / way)
        graded.append((grade_behavior(output, task.original(), tools, timeout=60), tools.launches["tlc"]))
    (plain, plain_runs), (short, short_runs) = graded
    return plain, short, plain_runs, short_runs, doomed


def _assert_doomed_parts_stop_at_start_up(plain: Any, doomed: set[Any]) -> None:
    statuses = {}
    for attempt in plain.details["attempts"]:
        part = tuple(attempt["mapping"]["constants"].items())  # as NameMapping.to_dict wrote it
        statuses.setdefault(part, set()).add(attempt.get("forward"))
    assert doomed and doomed <= set(statuses)
    for part in doomed:  # the plain search's forward checks under a doomed part all stopped at start-up
        assert statuses[part] <= {"assumption_failure", "crash"}, (part, statuses[part])


#: QUORUM with an operator constant bound through a definition (``Tag <- TagDef``), as Toolbox models
#: bind them: the probe cannot give ``Tag`` a value, but no assumption names it, so the others are probed.
QUORUM_OP = (QUORUM.replace("CONSTANTS Nodes, Vals, Quorums, Max", "CONSTANTS Nodes, Vals, Quorums, Max, Tag(_)")
             .replace("VARIABLES chosen, votes", "TagDef(v) == v\nVARIABLES chosen, votes")
             .replace("@ \\cup {v}", "@ \\cup {Tag(v)}"))
QUORUM_OP_TASK = Task("quorum-op", "votes and quorums, tagged", {"Quorum": QUORUM_OP},
                      cfg=(QUORUM_TASK.cfg or "").replace("  Max = 1\n", "  Max = 1\n  Tag <- TagDef\n"))
QUORUM_OP_WRONG = QUORUM_OP.replace("Cardinality(votes[n]) < Max", "Cardinality(votes[n]) < Max + 1")


def test_the_operator_variant_uses_its_operator() -> None:
    assert "Tag(v)" in QUORUM_OP and "Tag <- TagDef" in (QUORUM_OP_TASK.cfg or "") and QUORUM_OP_WRONG != QUORUM_OP


@pytest.mark.parametrize(("output", "task", "least"), [(QUORUM_WRONG, QUORUM_TASK, 10), (QUORUM_OP_WRONG, QUORUM_OP_TASK, 5)],
                         ids=["plain-values", "operator-constant"])
def test_doomed_parts_are_skipped_with_the_plain_verdict(output: str, task: Task, least: int, tmp_path: Any,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    plain, short, plain_runs, short_runs, doomed = _graded_both_ways(output, task, tmp_path, monkeypatch)
    assert not plain.passed and (short.passed, short.reason) == (plain.passed, plain.reason)
    _assert_doomed_parts_stop_at_start_up(plain, doomed)
    assert short.details["early_stop"]["assumption_skipped"] >= len(doomed) > least
    assert short_runs < plain_runs / 2, (short_runs, plain_runs)


def test_a_builtin_task_with_an_assume_over_several_constants(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """kv-store: ``NoVal \\notin Vals /\\ MaxLog \\in Nat /\\ MaxLog > 0`` over four constants."""
    task = next(t for t in load_suite("builtin") if t.id == "kv-store")
    reference = task.original().module_map[task.original().main]
    wrong = reference.replace("IF Len(log) = MaxLog", "IF Len(log) = MaxLog + 1")
    assert wrong != reference
    plain, short, plain_runs, short_runs, doomed = _graded_both_ways(wrong, task, tmp_path, monkeypatch)
    assert not plain.passed and (short.passed, short.reason) == (plain.passed, plain.reason)
    _assert_doomed_parts_stop_at_start_up(plain, doomed)
    assert short_runs < plain_runs


def test_a_conjunct_naming_an_overridden_definition_is_not_probed(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """``Max < Limit`` is FALSE as written but TRUE under the cfg's ``Limit = 5``: read without the
    override it would doom the part of the one mapping that passes (G swaps two constants' names)."""
    text = QUORUM.replace("ASSUME /\\ Quorums", "Limit == 0\nASSUME /\\ Max < Limit\n       /\\ Quorums")
    task = Task("quorum-limit", "votes", {"Quorum": text}, cfg=(QUORUM_TASK.cfg or "") + "CONSTANT Limit = 5\n")
    swapped = text.replace("Nodes", "AliasTmp").replace("Vals", "Nodes").replace("AliasTmp", "Vals")
    assert "Max < Limit" in text and swapped != text
    plain, short, plain_runs, short_runs, doomed = _graded_both_ways(swapped, task, tmp_path, monkeypatch)
    assert plain.passed, plain.reason
    assert (short.passed, short.reason) == (plain.passed, plain.reason)
    swapped_part = tuple(sorted(short.details["mapping"]["constants"].items()))
    assert swapped_part not in {tuple(sorted(part)) for part in doomed}


#: QUORUM whose Next leaves ``chosen`` unassigned: under the identity mapping (ASSUME TRUE) TLC stops on
#: that error of the output's own formulas, which ranks above any violation as the search's reason.
QUORUM_OWN_ERROR = QUORUM.replace(
    "          /\\ chosen' = IF \\E q \\in Quorums : \\A m \\in q : v \\in votes'[m] THEN chosen \\cup {v} ELSE chosen\n",
    "")


def test_an_own_error_settles_the_reason_for_the_probe(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Once the first mapping's forward check stopped on the output's own error (the search's reason
    unless a forward check passes), the probe is asked at once, without waiting for a violation: the
    plain search's second mapping, whose ASSUME is FALSE, is skipped rather than checked."""
    assert QUORUM_OWN_ERROR != QUORUM
    plain, short, plain_runs, short_runs, doomed = _graded_both_ways(QUORUM_OWN_ERROR, QUORUM_TASK, tmp_path,
                                                                     monkeypatch)
    assert not plain.passed and (short.passed, short.reason) == (plain.passed, plain.reason)
    assert "is not completely specified" in plain.reason
    _assert_doomed_parts_stop_at_start_up(plain, doomed)
    first, second = (tuple(a["mapping"]["constants"].items()) for a in plain.details["attempts"][:2])
    assert [a.get("forward") for a in plain.details["attempts"][:2]] == ["crash", "assumption_failure"]
    checked = [tuple(a["mapping"]["constants"].items()) for a in short.details["attempts"]]
    assert checked[0] == first and second in doomed and second not in checked, checked
    assert short_runs < plain_runs / 2, (short_runs, plain_runs)


def test_one_server_run_learns_every_evaluation_and_a_fresh_jvm_learns_the_same(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """On the tool server the probe's evaluations that TLC cannot finish (SUBSET of a number, a set in
    ``Nat``) become values (``alias.ValueOrFailure``), so one run evaluates them all; in a fresh JVM,
    without that Java definition, each failure stops a run as TLC always does. Both learn the same
    values where both evaluated, and give the same verdict."""
    real = assume_probe.AssumptionProbe._probe
    monkeypatch.setattr(assume_probe, "MAX_PROBE_RUNS", 100)  # the fresh JVM needs a run per failure
    monkeypatch.setenv(switches.ENV, "on")
    seen: dict[str, tuple[list[int], list[dict[Any, bool]], Any]] = {}
    for launch in ("server", "fresh"):
        runs: list[int] = []
        results: list[dict[Any, bool]] = []

        def spy(self: Any, parts: Any, runs: list[int] = runs, results: list[dict[Any, bool]] = results) -> bool:
            learnt = real(self, parts)
            runs.append(self.runs)
            results.append(dict(self._results))
            return learnt

        monkeypatch.setattr(assume_probe.AssumptionProbe, "_probe", spy)
        monkeypatch.setenv("ALIAS_LAUNCHER", launch)
        tools = TlaTools(cache_dir=tmp_path / launch)
        seen[launch] = (runs, results, grade_behavior(QUORUM_WRONG, QUORUM_TASK.original(), tools, timeout=60))
    (server_runs, server_results, server_grade), (fresh_runs, fresh_results, fresh_grade) = seen["server"], seen["fresh"]
    assert not server_grade.passed and (server_grade.passed, server_grade.reason) == (fresh_grade.passed, fresh_grade.reason)
    assert max(server_runs) == 1 and len(server_results[0]) == len(server_results[-1])  # all in one run
    assert max(fresh_runs) > 3  # a run per failure
    server, fresh = server_results[-1], fresh_results[-1]
    shared = set(server) & set(fresh)  # the fresh JVM's runs stop once the search knows enough
    assert len(shared) > 3 and any(not server[unit] for unit in shared) and any(server[unit] for unit in shared)
    assert {unit: server[unit] for unit in shared} == {unit: fresh[unit] for unit in shared}
