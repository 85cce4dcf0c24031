"""A verdict the machine's limits made is told from the tool results, never from a reason's words."""

from __future__ import annotations

from pytest_alias.cir.verify import verify_renaming
from pytest_alias.grading.cascade import decided_by_parse
from pytest_alias.grading.endings import MachineEndings, NotingTools, machine_made
from pytest_alias.grading.extract import extract_module
from pytest_alias.grading.memo import storable
from pytest_alias.grading.result import GradeResult
from pytest_alias.grading.validation import guarded_grade
from pytest_alias.tasks.model import Condition
from pytest_alias.tla.sany import SanyResult
from pytest_alias.tla.tlc import TlcResult

# The output's own names are the words a time limit or a JVM fault would be described with.
HEAP = """---- MODULE Heap ----
EXTENDS Naturals
VARIABLE heap
Init == heap = 0
Next == heap < 3 /\\ heap' = heap + 1
Spec == Init /\\ [][Next]_heap
MemoryOK == heap < 2
NoJvmCrash == heap \\in Nat
===="""
HEAP_CFG = "SPECIFICATION Spec\nINVARIANT NoJvmCrash\nINVARIANT MemoryOK\n"
# Counts up forever: TLC never finishes.
UP = """---- MODULE Up ----
EXTENDS Naturals
VARIABLE n
Init == n = 0
Next == n' = n + 1
Spec == Init /\\ [][Next]_n
TypeOK == n \\in Nat
===="""
UP_CFG = "SPECIFICATION Spec\nINVARIANT TypeOK\n"


def _condition(module: str, text: str, cfg: str) -> Condition:
    return Condition(module.lower(), "original", "a test spec", ((module, text),), cfg, ())


def _tlc(status: str) -> TlcResult:
    return TlcResult(status=status, violated=None, counterexample=(), distinct_states=None,  # type: ignore[arg-type]
                     states_generated=None, depth=None, seconds=1.0, output="")


def test_a_violation_named_like_a_machine_fault_is_a_verdict_and_is_stored(tools) -> None:
    result = guarded_grade(HEAP, _condition("Heap", HEAP, HEAP_CFG), "name", tools=tools)
    assert not result.passed and "MemoryOK" in (result.reason or ""), result.reason
    assert result.details["tlc_status"] == "invariant_violation"
    assert "machine_limit" not in result.details
    assert not machine_made(result) and storable(result)  # the words "Memory", "Jvm", "Crash" decide nothing


def test_a_check_the_time_limit_stopped_marks_the_failure_and_keeps_it_out_of_the_caches(tools) -> None:
    result = guarded_grade(UP, _condition("Up", UP, UP_CFG), "name", tools=tools, timeout=1)
    assert not result.passed
    assert result.details["machine_limit"] == ["timeout"]
    assert machine_made(result) and not storable(result)


def test_a_renamed_copy_the_time_limit_stopped_is_not_a_lasting_failure(tools) -> None:
    renamed = UP.replace("Up", "Count")
    verification = verify_renaming({"Up": UP}, UP_CFG, {"Count": renamed}, UP_CFG, tools=tools, timeout=1)
    assert not verification.verified and verification.machine_limit == "timeout"
    assert verification.to_dict()["machine_limit"] == "timeout"


def test_a_parse_failure_quoting_the_outputs_names_still_decides_the_other_grades(tools) -> None:
    condition = _condition("Heap", HEAP, HEAP_CFG)
    output = HEAP.replace("heap' = heap + 1", "heap' = heapSize + 1")  # SANY's error quotes the output's name
    parse = guarded_grade(output, condition, "parse", tools=tools)
    assert not parse.passed and "heapSize" in (parse.reason or "") and not machine_made(parse), parse.reason
    decided = decided_by_parse(extract_module(output), condition, parse, ["name", "behavior"], mode="paper")
    assert set(decided) == {"name", "behavior"}
    assert all(not result.passed and result.reason.startswith("output does not parse") for result in decided.values())


def test_the_noting_view_reads_every_result_a_tool_call_returns() -> None:
    class Tools:
        toolchain = "jar"

        def state_graph(self) -> tuple[TlcResult, None]:
            return _tlc("out_of_memory"), None

        def sany(self) -> SanyResult:
            return SanyResult(False, None, (), "", 5.0, timed_out=True)

        def tlc(self) -> TlcResult:
            return _tlc("invariant_violation")

    endings = MachineEndings()
    view = NotingTools(Tools(), endings)
    assert view.toolchain == "jar"
    view.tlc()
    assert endings.found == ()
    view.state_graph()
    view.sany()
    assert endings.found == ("out_of_memory", "sany_timeout")
    failing = GradeResult("behavior", False, "none of 2 mappings passed", {"stage": "mapping"}, 1.0)
    assert endings.marked(failing).details["machine_limit"] == ["out_of_memory", "sany_timeout"]
    passing = GradeResult("behavior", True, None, {"stage": "mapping"}, 1.0)
    assert endings.marked(passing) is passing  # a pass is a pass, whatever a probe met on the way
