"""Grader validation (Table J.1): positive controls pass, kept mutants fail; the guarded grade never crashes."""

from __future__ import annotations

import pytest

from pytest_alias.cir.rename import collect_identifiers
from pytest_alias.grading.validation import (ModeUnavailable, ValidationTable, guarded_grade, operator_renamed_copy,
                                             validate_grader, writer_use)
from pytest_alias.report.grader_validation import table_j1_markdown, table_j1_text
from pytest_alias.tasks.model import Task
from pytest_alias.tasks.suites import load_suite

SMALL = ["hour-clock", "barrier", "traffic-light"]


@pytest.fixture(scope="module")
def tasks() -> dict[str, Task]:
    return {task.id: task for task in load_suite("builtin")}


@pytest.fixture(scope="module")
def table(tasks: dict[str, Task], tools) -> ValidationTable:
    return validate_grader([tasks[i] for i in SMALL], tools=tools, workers=3, mutant_limit=4, timeout=60,
                           mutant_timeout=4)


def test_every_positive_control_passes_and_every_kept_mutant_fails(table: ValidationTable) -> None:
    rows = {row.control: row for row in table.rows()}
    assert (rows["self"].n, rows["self"].passed) == (3, 3)
    assert rows["operator_renamed"].n == rows["operator_renamed"].passed == 3
    assert rows["renamed"].n == rows["renamed"].passed == 3
    assert rows["mutant"].n >= 3 and rows["mutant"].passed == 0
    assert table.ok and not table.wrong()
    assert table.launches()["tlc"] > 0


def test_table_renders_and_serializes(table: ValidationTable) -> None:
    markdown, text, data = table_j1_markdown(table), table_j1_text(table), table.to_dict()
    for label in ("Reference against itself", "Operator-renamed reference", "Renamed reference and modules",
                  "Mutant with other reachable states"):
        assert label in markdown and label in text
    assert "| Reference against itself | 3 | 3 |" in markdown
    assert [row["control"] for row in data["rows"]] == ["self", "operator_renamed", "renamed", "mutant"]
    assert {t["task"] for t in data["tasks"]} == set(SMALL)
    mutant_cases = [c for t in data["tasks"] for c in t["cases"] if c["control"] == "mutant"]
    assert all(c["reason"] for c in mutant_cases)  # each rejection says why


def test_operator_renamed_copy_renames_operators_only(tasks: dict[str, Task]) -> None:
    task = tasks["die-hard"]
    copy, name_map, why = operator_renamed_copy(task, seed=3)
    assert copy is not None and why is None
    kinds = collect_identifiers(task.module_map, task.cfg).author
    assert name_map and all(kinds[old] in ("operator", "function") for old in name_map)
    assert all(len(new) == len(old) for old, new in name_map.items())
    assert copy.main == task.main  # the module keeps its name
    assert copy.cfg is not None and "Spec" not in copy.cfg.split() and name_map["Spec"] in copy.cfg


def test_cfg_override_keeps_its_operator_names() -> None:
    module = ("---- MODULE Ovr ----\nEXTENDS Naturals\nCONSTANT Limit\nVARIABLE x\nSmallLimit == 2\n"
              "Init == x = 0\nNext == x' = (x + 1) % Limit\n====\n")
    task = Task("ovr", "", {"Ovr": module}, "CONSTANT Limit <- SmallLimit\nINIT Init\nNEXT Next\n")
    copy, name_map, _ = operator_renamed_copy(task)
    assert copy is not None
    assert "SmallLimit" not in name_map and set(name_map) == {"Init", "Next"}
    assert "Limit <- SmallLimit" in copy.cfg


def test_task_without_cfg_is_not_eligible(tools) -> None:
    task = Task("nocfg", "", {"NoCfg": "---- MODULE NoCfg ----\nVARIABLE x\nInit == x = 0\n====\n"})
    table = validate_grader([task], tools=tools, workers=1)
    assert table.rows()[0].n == 0 and not table.tasks[0].eligible and table.launches() == {}


def test_random_values_and_tool_fixtures_are_not_eligible(tools) -> None:
    """Appendix K's 110 -> 102: TLC results must repeat, and fixtures of the tools describe no system."""
    body = "EXTENDS TLC\nVARIABLE x\nInit == x = RandomElement({0, 1})\nNext == x' = x\n"
    dice = Task("dice", "", {"Dice": f"---- MODULE Dice ----\n{body}====\n"}, cfg="INIT Init\nNEXT Next\n")
    fixture = Task("fix", "", {"Fix": "---- MODULE Fix ----\nVARIABLE x\nInit == x = 0\nNext == x' = x\n====\n"},
                   cfg="INIT Init\nNEXT Next\n", source="tlaplus/tlaplus:tlatools/test-model/Fix.tla")
    table = validate_grader([dice, fixture], tools=tools, workers=1)
    assert table.rows()[0].n == 0 and table.launches() == {}
    notes = {task.task_id: task.notes["eligible"] for task in table.tasks}
    assert "uses random values (RandomElement)" in notes["dice"]
    assert notes["fix"] == "a test fixture of the TLA+ tools (tlaplus/tlaplus, folder test-model)"


def test_unknown_mode_is_reported_before_any_work(tasks: dict[str, Task], tools) -> None:
    with pytest.raises(ModeUnavailable):
        validate_grader([tasks["hour-clock"]], tools=tools, mode="no-such-mode")
    with pytest.raises(ModeUnavailable):
        guarded_grade("", tasks["hour-clock"].original(), "behavior", mode="no-such-mode", tools=tools)


def test_writer_modules_are_spotted_but_json_readers_are_not() -> None:
    assert "IOUtils" in (writer_use(["---- MODULE A ----\nEXTENDS IOUtils\n====\n"]) or "")
    assert writer_use(['---- MODULE A ----\nEXTENDS Json\nX == JsonSerialize("f", <<>>)\n====\n'])
    assert writer_use(['---- MODULE A ----\nEXTENDS Json\nX == ToJson(1)\n====\n']) is None
    assert writer_use(["---- MODULE A ----\n\\* EXTENDS IOUtils\nEXTENDS Naturals\n====\n"]) is None


def test_a_grader_crash_is_a_failing_verdict(tasks: dict[str, Task], tools, monkeypatch: pytest.MonkeyPatch) -> None:
    from pytest_alias.grading import graders

    def boom(*args, **kwargs):
        raise RuntimeError("kaboom")

    monkeypatch.setitem(graders.GRADERS, "name", boom)
    result = guarded_grade("---- MODULE A ----\n====\n", tasks["hour-clock"].original(), "name", tools=tools)
    assert not result.passed and "kaboom" in result.reason and result.details["stage"] == "error"


def test_max_states_leaves_large_references_out_with_the_reason(tasks: dict[str, Task], tools) -> None:
    seen = []
    table = validate_grader([tasks["die-hard"], tasks["hour-clock"]], tools=tools, workers=1, mutant_limit=0,
                            timeout=60, max_states=12, progress=seen.append)
    by_id = {t.task_id: t for t in table.tasks}
    assert not by_id["die-hard"].eligible and not by_id["die-hard"].cases
    assert "27 distinct states, over --max-states 12" in by_id["die-hard"].notes["eligible"]
    assert by_id["hour-clock"].eligible and by_id["hour-clock"].covered
    assert sorted(t.task_id for t in seen) == ["die-hard", "hour-clock"]
    rows = {row.control: row for row in table.rows()}
    assert (rows["self"].n, rows["self"].passed) == (1, 1)
    assert "Left out: die-hard: the reference has 27 distinct states" in table_j1_text(table)


def test_a_grader_error_mentioning_a_model_is_a_failing_verdict_not_a_mode_error(monkeypatch: pytest.MonkeyPatch,
                                                                                  tools) -> None:
    """Errors are told apart by type: a ValueError whose text says "model" is a grader fault of this output."""
    from pytest_alias.grading import graders, validation
    from pytest_alias.tasks.model import Task

    def broken(*args: object, **kwargs: object) -> None:
        raise ValueError("the model module could not be read")

    monkeypatch.setitem(graders.GRADERS, "behavior", broken)
    task = Task("t", "d", (("M", "---- MODULE M ----\nVARIABLE x\nInit == x = 0\nNext == x' = x\n====\n"),),
                "INIT Init\nNEXT Next\n")
    condition = task.original()
    result = validation.guarded_grade(condition.module_map["M"], condition, "behavior", tools=tools)
    assert not result.passed and result.details["stage"] == "error" and "model module" in str(result.reason)


@pytest.mark.parametrize("body", [
    'A == "(*"\nINSTANCE IOUtils\nB == "*)"',        # a string pair that a naive scanner reads as a comment
    '\\* (*\nEXTENDS IOUtils',                        # a block opener inside a line comment
    'M == "\\\\*" EXTENDS IOUtils',                   # a line-comment opener inside a string
])
def test_writer_guard_reads_strings_and_comments_as_sany_does(body: str) -> None:
    assert writer_use([f"---- MODULE A ----\n{body}\n===="]) is not None


def test_writer_guard_ignores_names_in_strings_and_comments() -> None:
    text = '---- MODULE A ----\nEXTENDS Naturals\nX == "IOUtils"\n\\* EXTENDS IOUtils\n(* INSTANCE CSV *)\n===='
    assert writer_use([text]) is None


@pytest.fixture(scope="module")
def jar_with_ioutils(tmp_path_factory: pytest.TempPathFactory):
    """A copy of tla2tools.jar that also holds a stub IOUtils standard module, as a newer toolchain
    with CommunityModules would."""
    import shutil
    import zipfile

    from pytest_alias.tla.toolchain import find_jar

    jar = tmp_path_factory.mktemp("jar") / "tla2tools-ioutils.jar"
    shutil.copyfile(find_jar().path, jar)
    with zipfile.ZipFile(jar, "a") as archive:
        archive.writestr("tla2sany/StandardModules/IOUtils.tla",
                         "---- MODULE IOUtils ----\nIOExec(command) == command\n====\n")
    return jar


@pytest.mark.parametrize("grade", ["name", "behavior"])
def test_a_writer_module_sany_loads_is_refused_before_tlc(grade: str, tasks: dict[str, Task], jar_with_ioutils,
                                                          tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The second layer: with the text and parse-tree scan bypassed, SANY's own list of loaded modules
    still stops the output before TLC runs."""
    from pytest_alias.grading import validation
    from pytest_alias.tla.runner import TlaTools

    monkeypatch.setattr(validation, "writer_use", lambda texts: None)
    monkeypatch.setenv("ALIAS_TLA2TOOLS", str(jar_with_ioutils))
    condition = tasks["hour-clock"].original()
    reference = condition.module_map[condition.main]
    assert "EXTENDS Naturals" in reference
    output = reference.replace("EXTENDS Naturals", "EXTENDS Naturals, IOUtils", 1)
    counted = TlaTools(cache_dir=tmp_path / "cache")
    assert counted.toolchain.jar.path == jar_with_ioutils
    result = guarded_grade(output, condition, grade, tools=counted)
    assert not result.passed and result.details["stage"] == "guard", result
    assert "IOUtils" in str(result.reason) and "SANY loaded it" in str(result.reason)
    assert counted.launches == {"sany": 1}  # SANY ran; TLC never did


def test_sany_loaded_modules_reads_both_kinds_of_line() -> None:
    from pytest_alias.grading.guard import loaded_writer, sany_loaded_modules

    output = ("Parsing file Out.tla\nParsing file /tmp/x/IOUtils.tla\nSemantic processing of module Json\n"
              "Semantic processing of module Out\n")
    assert sany_loaded_modules(output) == ["Out", "IOUtils", "Json"]
    assert "IOUtils" in str(loaded_writer(output, []))
    json_only = "Semantic processing of module Json\n"
    assert loaded_writer(json_only, ['X == ToJson(1)']) is None
    assert "JsonSerialize" in str(loaded_writer(json_only, ['X == JsonSerialize("f", <<>>)']))
    assert loaded_writer(json_only, ['X == "JsonSerialize"']) is None  # a string is not a use


def test_covered_auto_and_validate_grader_give_the_same_covered_set(tasks: dict[str, Task], tools, tmp_path) -> None:
    """``--alias-covered=auto`` (the run's self-check) applies appendix J's eligibility rules exactly as
    ``validate-grader`` does: a random-valued spec and a tool fixture pass against themselves yet are
    not covered, and a task without a cfg is not either."""
    from pytest_alias.run.coverage import compute_coverage

    body = "EXTENDS TLC\nVARIABLE x\nInit == x = RandomElement({0, 1})\nNext == x' = x\n"
    dice = Task("dice", "", {"Dice": f"---- MODULE Dice ----\n{body}====\n"}, cfg="INIT Init\nNEXT Next\n")
    fixture = Task("fix", "", {"Fix": "---- MODULE Fix ----\nVARIABLE x\nInit == x = 0\nNext == x' = x\n====\n"},
                   cfg="INIT Init\nNEXT Next\n", source="tlaplus/tlaplus:tlatools/test-model/Fix.tla")
    nocfg = Task("nocfg", "", {"NoCfg": "---- MODULE NoCfg ----\nVARIABLE x\nInit == x = 0\n====\n"})
    chosen = [dice, fixture, nocfg, tasks["barrier"], tasks["die-hard"]]
    table = validate_grader(chosen, tools=tools, workers=1, mutant_limit=0, timeout=60)
    coverage = compute_coverage([(task, task.original()) for task in chosen], tools=tools, mode="paper", timeout=60,
                                cache_root=tmp_path, live=False)
    assert coverage.covered == {t.task_id for t in table.tasks if t.covered} == {"barrier", "die-hard"}
    assert dict(coverage.ineligible) == {t.task_id: t.notes["eligible"] for t in table.tasks if not t.eligible}
    assert set(coverage.ineligible) == {"dice", "fix", "nocfg"} and set(coverage.not_gradeable) <= {"dice"}
