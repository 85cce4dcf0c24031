"""Suites: built-in tasks, task folders (and their errors), tlaplus/Examples, TLA+-Bench, ``tla-alias tasks``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_alias.tasks import Task
from pytest_alias.tasks.suites import (
    SUITE_SCHEMES,
    SuiteError,
    load_suite,
    load_suite_report,
    load_task_folder,
    module_header_comment,
)
from pytest_alias.tla.specfiles import module_header_name

from conftest import CORPUS as EXAMPLES  # noqa: E402


# --------------------------------------------------------------------------- helpers


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def module(name: str, body: str = "VARIABLE x\nInit == x = 0\nNext == x' = x\n") -> str:
    return f"---- MODULE {name} ----\n{body}====\n"


def task_folder(root: Path, task_id: str = "t1", main: str = "M", *, toml: str | None = None,
                files: dict[str, str] | None = None) -> Path:
    """A valid task folder unless ``toml`` or ``files`` say otherwise."""
    folder = root / task_id
    for name, text in (files if files is not None else {
        f"{main}.tla": module(main),
        f"{main}.cfg": "INIT Init\nNEXT Next\n",
        "description.md": "A variable x that stays 0.\n",
    }).items():
        write(folder / name, text)
    write(folder / "task.toml", toml if toml is not None else (
        f'id = "{task_id}"\ntitle = "T"\nmain = "{main}"\nmodules = ["{main}.tla"]\ncfg = "{main}.cfg"\n'
        'description = "description.md"\nsource = "test"\nlicense = "MIT"\ntags = ["a"]\n'
        "[expected]\ndistinct_states = 1\nstates_generated = 2\n"))
    return folder


# --------------------------------------------------------------------------- built-in


def test_builtin_has_21_sorted_tasks_with_matching_headers() -> None:
    tasks = load_suite("builtin")
    assert len(tasks) == 21
    ids = [task.id for task in tasks]
    assert ids == sorted(ids) and len(set(ids)) == 21
    assert load_suite() == tasks  # builtin is the default
    for task in tasks:
        assert isinstance(task, Task) and task.description
        assert module_header_name(task.module_map[task.main]) == task.main
        assert task.modules[0][0] == task.main
        task.spec()  # module names are identifiers, main is among them
        if task.cfg is not None:
            assert task.expected_distinct and task.expected_generated, task.id
    odometer = next(task for task in tasks if task.id == "odometer")
    assert [name for name, _ in odometer.modules] == ["Odometer", "Tally"]
    assert next(task for task in tasks if task.id == "ticket-dispenser").cfg is None


def test_builtin_report_has_no_skips_and_schemes_are_listed() -> None:
    report = load_suite_report("builtin")
    assert report.skipped == () and len(report.tasks) == 21
    assert SUITE_SCHEMES == ("builtin", "examples", "tlabench")


def test_ids_restrict_any_suite() -> None:
    assert [t.id for t in load_suite("builtin", ids=["odometer", "barrier"])] == ["barrier", "odometer"]
    with pytest.raises(SuiteError, match="no task with id nope"):
        load_suite("builtin", ids=["nope"])


def test_a_long_comma_list_of_ids_is_read_as_ids_not_as_a_file_name() -> None:
    """Asking the file system whether 300 ids are a file raised "File name too long"."""
    many = ",".join(["barrier", *[f"missing-{i:04d}" for i in range(300)]])
    with pytest.raises(SuiteError, match="no task with id missing-0000"):
        load_suite("builtin", ids=many)


# --------------------------------------------------------------------------- task folders


def test_task_folder_and_folder_of_folders(tmp_path: Path) -> None:
    task_folder(tmp_path, "b-task")
    task_folder(tmp_path, "a-task", "N")
    (tmp_path / "notes").mkdir()  # a folder without task.toml is skipped, not an error
    report = load_suite_report(str(tmp_path))
    assert report.ids == ["a-task", "b-task"]
    assert [s.path for s in report.skipped] == [str(tmp_path / "notes")]
    task = load_task_folder(tmp_path / "a-task")
    assert (task.main, task.expected_distinct, task.expected_generated) == ("N", 1, 2)
    assert task.description == "A variable x that stays 0." and task.tags == ("a",)
    assert load_suite(str(tmp_path / "a-task")) == [task]


def test_task_folder_missing_key(tmp_path: Path) -> None:
    folder = task_folder(tmp_path, toml='id = "t1"\nmain = "M"\nmodules = ["M.tla"]\n')
    with pytest.raises(SuiteError, match="missing key 'description'") as info:
        load_suite(str(tmp_path))
    assert str(folder / "task.toml") in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize("task_id, said", [
    ("a/../../x", "contains '..': ids become folder names (a '/' makes subfolders), and '..' would lead out"),
    ("a//b", "has a '..', '.' or empty path part: ids become folder names"),
    ("a/./b", "has a '..', '.' or empty path part: ids become folder names"),
    ("-x", "must be letters, digits and _ . - / only, starting with a letter or digit (ids become folder names)"),
])
def test_a_task_id_that_cannot_be_a_folder_name_is_refused_saying_why(task_id: str, said: str, tmp_path: Path) -> None:
    folder = task_folder(tmp_path / "root", "t1")
    toml = (folder / "task.toml").read_text().replace('id = "t1"', f'id = "{task_id}"')
    (folder / "task.toml").write_text(toml)
    with pytest.raises(SuiteError) as info:
        load_task_folder(folder)
    assert said in str(info.value) and repr(task_id) in str(info.value) and "\n" not in str(info.value)


def test_task_folder_names_missing_file(tmp_path: Path) -> None:
    folder = task_folder(tmp_path, files={"M.tla": module("M"), "description.md": "d"})
    with pytest.raises(SuiteError, match="no such cfg file") as info:
        load_task_folder(folder)
    assert str(folder / "M.cfg") in str(info.value)


def test_task_folder_header_mismatch(tmp_path: Path) -> None:
    folder = task_folder(tmp_path, files={"M.tla": module("Other"), "M.cfg": "INIT Init\n", "description.md": "d"})
    with pytest.raises(SuiteError, match="header names module Other") as info:
        load_task_folder(folder)
    assert str(folder / "M.tla") in str(info.value)


def test_duplicate_ids_name_both_files(tmp_path: Path) -> None:
    first = task_folder(tmp_path, "one")
    second = task_folder(tmp_path, "two")
    write(second / "task.toml", (second / "task.toml").read_text().replace('id = "two"', 'id = "one"'))
    with pytest.raises(SuiteError, match="duplicate task id 'one'") as info:
        load_suite(str(tmp_path))
    assert str(first / "task.toml") in str(info.value) and str(second / "task.toml") in str(info.value)


@pytest.mark.parametrize(("toml_line", "message"), [
    ('modules = ["../M.tla"]', "outside the task folder"),
    ('modules = "M.tla"', "'modules' must be a list of strings"),
    ('main = "Q"', "main 'Q' is not one of its modules"),
    ('colour = "red"', "unknown key 'colour'"),
])
def test_task_folder_other_errors(tmp_path: Path, toml_line: str, message: str) -> None:
    folder = task_folder(tmp_path)
    key = toml_line.split(" ", 1)[0]
    lines = [line for line in (folder / "task.toml").read_text().splitlines() if not line.startswith(key + " ")]
    write(folder / "task.toml", toml_line + "\n" + "\n".join(lines) + "\n")
    with pytest.raises(SuiteError, match=message):
        load_task_folder(folder)


def test_task_folder_unlisted_import(tmp_path: Path) -> None:
    folder = task_folder(tmp_path, files={"M.tla": module("M", "EXTENDS Naturals, Helper\n"), "M.cfg": "INIT Init\n",
                                          "description.md": "d"})
    with pytest.raises(SuiteError, match="imports module Helper"):
        load_task_folder(folder)


def test_bad_suite_strings(tmp_path: Path) -> None:
    with pytest.raises(SuiteError, match="unknown suite scheme 'foo'.*examples:PATH.*tlabench:PATH"):
        load_suite("foo:bar")
    with pytest.raises(SuiteError, match="no such folder"):
        load_suite(str(tmp_path / "absent"))
    with pytest.raises(SuiteError, match="no such folder"):
        load_suite(f"examples:{tmp_path / 'absent'}")
    with pytest.raises(SuiteError, match="no task folders"):
        load_suite(str(tmp_path))
    with pytest.raises(SuiteError, match="no specifications/ folder"):
        load_suite(f"examples:{tmp_path}")
    with pytest.raises(SuiteError, match="no specs/gold/ folder"):
        load_suite(f"tlabench:{tmp_path}")


# --------------------------------------------------------------------------- header comments


def test_module_header_comment_strips_frames() -> None:
    text = ("---- MODULE A ----\n(********)\n(* First line,   *)\n(*   indented. *)\n(********)\n"
            "(* second *)\nEXTENDS Naturals\n(* not this *)\n====\n")
    assert module_header_comment(text) == "First line,\n  indented.\n\nsecond"
    assert module_header_comment("---- MODULE B ----\n\\* line one\n\\* line two\nVARIABLE x\n====\n") == \
        "line one\nline two"
    assert module_header_comment("(*\n* Before the header\n*)\n---- MODULE C ----\n====\n") == "Before the header"
    assert module_header_comment("---- MODULE D ----\n(* --algorithm d\nbegin skip; end algorithm *)\n====\n") == ""
    assert module_header_comment("---- MODULE E ----\nVARIABLE x\n====\n") == ""


# --------------------------------------------------------------------------- tlaplus/Examples


@pytest.fixture(scope="module")
def examples_report():
    if not (EXAMPLES / "specifications").is_dir():
        pytest.skip("../shared/corpus/tlaplus-examples is not present")
    return load_suite_report(f"examples:{EXAMPLES}")


def _manifest_model(spec_dir: str, cfg_name: str) -> dict:
    manifest = json.loads((EXAMPLES / "specifications" / spec_dir / "manifest.json").read_text())
    return next(model for entry in manifest["modules"] for model in entry["models"]
                if model["path"].endswith("/" + cfg_name))


def test_examples_tasks_match_manifests(examples_report) -> None:
    tasks = {task.id: task for task in examples_report.tasks}
    ids = list(tasks)
    assert ids == [t.id for t in load_suite(f"examples:{EXAMPLES}")]  # deterministic
    beans = [i for i in ids if i.startswith("coffeecan/coffeecan-")]
    assert beans == [f"coffeecan/coffeecan-coffeecan{n}beans" for n in (100, 1000, 3000)]  # natural order
    coffee = tasks["coffeecan/coffeecan-coffeecan100beans"]
    model = _manifest_model("CoffeeCan", "CoffeeCan100Beans.cfg")
    assert (coffee.expected_distinct, coffee.expected_generated) == (model["distinctStates"], model["totalStates"])
    assert [name for name, _ in coffee.modules] == ["CoffeeCan"]
    assert coffee.description.startswith("This is a spec for the Coffee Can problem")
    assert "(*" not in coffee.description and "**" not in coffee.description
    assert coffee.cfg == (EXAMPLES / "specifications/CoffeeCan/CoffeeCan100Beans.cfg").read_text()
    assert coffee.source == "specifications/CoffeeCan/CoffeeCan.tla" and coffee.license == "MIT (tlaplus/Examples)"
    # a model without counts in the manifest keeps None
    assert tasks["coffeecan/coffeecan-coffeecan3000beans"].expected_distinct is None
    # a model file in a subfolder pulls the modules it extends from the same folder
    fifo = tasks["specifyingsystems/fifo/mcinnerfifo"]
    assert [name for name, _ in fifo.modules] == ["MCInnerFIFO", "InnerFIFOInstanced"]
    assert fifo.expected_distinct == _manifest_model("SpecifyingSystems", "MCInnerFIFO.cfg")["distinctStates"]
    # no header comment: the README's first paragraph (heading skipped)
    assert tasks["btree/btree"].description.startswith("TLA⁺ specification of a [B-tree]")
    assert [name for name, _ in tasks["btree/btree"].modules] == ["btree", "kvstore"]
    # a toolbox MC wrapper without README: the description of the module it extends
    assert tasks["singlelanebridge/mc"].description.startswith("A bridge over a river")
    for task in tasks.values():
        task.spec()
        assert task.cfg is not None and module_header_name(task.module_map[task.main]) == task.main


def test_examples_skips_are_explained(examples_report) -> None:
    reasons = {skipped.id: skipped.reason for skipped in examples_report.skipped}
    assert "symbolic" in reasons["coffeecan/apcoffeecan"]
    assert "liveness failure" in reasons["specifyingsystems/realtime/mcrealtimehourclock"]
    assert "unknown" in reasons["cartalkpuzzle/cartalkpuzzle_toolbox/model_3/mc"]
    assert not set(reasons) & {task.id for task in examples_report.tasks}


def test_examples_missing_files_are_skipped(tmp_path: Path) -> None:
    spec = tmp_path / "specifications" / "Toy"
    write(spec / "Toy.tla", module("Toy", "EXTENDS Naturals, Lib\nVARIABLE x\nInit == x = 0\nNext == x' = x\n"))
    write(spec / "sub" / "MC.tla", module("MC", "EXTENDS Toy\n"))
    write(spec / "sub" / "MC.cfg", "INIT Init\nNEXT Next\n")
    write(spec / "Lib.tla", module("Lib", "Id(a) == a\n"))
    write(spec / "Gen.tla", module("Gen"))
    def models(*items: tuple[str, str, str]) -> list[dict[str, object]]:
        return [dict(path=f"specifications/Toy/{p}", mode=m, result=r, distinctStates=1, totalStates=2)
                for p, m, r in items]
    write(spec / "manifest.json", json.dumps({"sources": [], "authors": ["A"], "tags": ["beginner"], "modules": [
        {"path": "specifications/Toy/sub/MC.tla", "features": [], "models": models(("sub/MC.cfg", "exhaustive search", "success"))},
        {"path": "specifications/Toy/Toy.tla", "features": ["pluscal"], "models": models(("Gone.cfg", "exhaustive search", "success"))},
        {"path": "specifications/Toy/Gen.tla", "features": [], "models": models(
            ("Gen.cfg", {"simulate": {"traceCount": 100}}, "success"), ("G2.cfg", "generate", "success"))},
        {"path": "specifications/Toy/Absent.tla", "features": [], "models": models(("A.cfg", "exhaustive search", "success"))},
    ]}))
    report = load_suite_report(f"examples:{tmp_path}")
    assert report.ids == ["toy/sub/mc"]
    task = report.tasks[0]
    assert [name for name, _ in task.modules] == ["MC", "Toy", "Lib"]  # Toy and Lib found one level up
    assert (task.expected_distinct, task.expected_generated, task.tags) == (1, 2, ("beginner",))
    reasons = {s.id: s.reason for s in report.skipped}
    assert reasons["toy/toy-gone"] == "model file missing from the clone"
    assert "'simulate'" in reasons["toy/gen"] and "'generate'" in reasons["toy/gen-g2"]
    assert reasons["toy/absent-a"] == "module file missing from the clone"
    assert load_suite_report(f"examples:{spec}").ids == ["toy/sub/mc"]  # one spec folder of a clone


# --------------------------------------------------------------------------- TLA+-Bench


@pytest.fixture
def tlabench(tmp_path: Path) -> Path:
    """A small TLA+-Bench release: int ids, a file name unlike its header, a missing cfg, deps."""
    root = tmp_path / "tb"
    specs = root / "specs"
    write(specs / "gold" / "10_Counter.tla", module("Counter", "EXTENDS Naturals, Helper\nVARIABLE x\n"
                                                    "Init == x = 0\nNext == x' = Inc(x) % 3\n"))
    write(specs / "gold" / "10_Counter.cfg", "INIT Init\nNEXT Next\n")
    write(specs / "deps" / "Helper.tla", module("Helper", "EXTENDS Naturals\nInc(a) == a + 1\n"))
    write(specs / "gold" / "2_FileName.tla", module("RealName"))
    write(specs / "gold" / "2_FileName.cfg", "INIT Init\nNEXT Next\nINVARIANT Safe\n")
    write(specs / "gold" / "853_NoCfg.tla", module("NoCfg"))
    write(specs / "silver" / "5_Base.tla", module("Base"))
    write(specs / "gold" / "7_Base_MC.tla", module("Base_MC", "EXTENDS Base\nConstN == 3\n"))
    write(specs / "gold" / "7_Base_MC.cfg", "INIT Init\nNEXT Next\n")
    write(specs / "gold" / "9_Broken.tla", module("Broken", "EXTENDS Nowhere\n"))
    write(specs / "gold" / "9_Broken.cfg", "INIT Init\n")
    for spec_id in ("10", "2", "853", "7", "9"):
        write(root / "descriptions" / "declarative_gpt" / f"{spec_id}.txt", f"declarative {spec_id}\n")
        write(root / "descriptions" / "intent_claude" / f"{spec_id}.txt", f"intent {spec_id}\n")
    rows = [{"spec_id": 10, "tier": "gold", "category": "toy", "complexity": "basic", "source_repo": "o/r",
             "source_repo_url": "https://github.com/o/r", "source_path": "a/Counter.tla", "spec_sha256": "ab"},
            {"spec_id": "2", "tier": "gold", "category": None, "complexity": "advanced"},
            {"spec_id": 853, "tier": "gold"}, {"spec_id": 5, "tier": "silver"}, {"spec_id": 7, "tier": "gold"}]
    write(root / "manifest.jsonl", "".join(json.dumps(row) + "\n" for row in rows))
    write(root / "outputs" / "eval_100_ids.json", json.dumps(["2", "10"]))
    return root


def test_tlabench_default_kind(tlabench: Path) -> None:
    report = load_suite_report(f"tlabench:{tlabench}")
    assert report.ids == ["2", "7", "10", "853"]  # numeric order, ids as strings
    tasks = {task.id: task for task in report.tasks}
    assert tasks["10"].description == "declarative 10"
    assert [name for name, _ in tasks["10"].modules] == ["Counter", "Helper"]
    assert tasks["10"].source == "o/r:a/Counter.tla"
    assert set(tasks["10"].tags) >= {"tier:gold", "category:toy", "complexity:basic"}
    assert tasks["2"].main == "RealName" and "INVARIANT Safe" in (tasks["2"].cfg or "")
    assert tasks["853"].cfg is None and "no-cfg" in tasks["853"].tags
    assert [name for name, _ in tasks["7"].modules] == ["Base_MC", "Base"]  # a silver sibling
    assert [(s.id, "Nowhere" in s.reason) for s in report.skipped] == [("9", True)]
    for task in report.tasks:
        task.spec()


def test_tlabench_reads_each_references_state_count_from_the_release_audit(tlabench: Path) -> None:
    """The release's ``outputs/audit/fixture_audit.json`` records each gold file's distinct states: the
    run orders its work and picks a JVM tier by it. A row that did not pass, counted 0 or names another
    file gives no count, and a damaged file gives none at all (it never decides a verdict)."""
    audit = tlabench / "outputs" / "audit" / "fixture_audit.json"
    write(audit, json.dumps([{"spec_id": "10", "file": "10_Counter.tla", "status": "pass", "distinct": 3},
                             {"spec_id": "2", "file": "2_Other.tla", "status": "pass", "distinct": 9},
                             {"spec_id": "7", "file": "7_Base_MC.tla", "status": "pass", "distinct": 0},
                             {"spec_id": "853", "status": "no_cfg"}]))
    counts = {task.id: task.expected_distinct for task in load_suite(f"tlabench:{tlabench}")}
    assert counts == {"2": None, "7": None, "10": 3, "853": None}
    write(audit, "[{not json")
    assert {task.expected_distinct for task in load_suite(f"tlabench:{tlabench}")} == {None}


def test_tlabench_kinds_and_ids(tlabench: Path) -> None:
    assert load_suite(f"tlabench:{tlabench}#intent_claude")[0].description == "intent 2"
    assert load_suite(f"tlabench:{tlabench}", description_kind="intent_claude")[0].description == "intent 2"
    chosen = load_suite(f"tlabench:{tlabench}?ids=outputs/eval_100_ids.json#intent_claude")
    assert [t.id for t in chosen] == ["2", "10"] and chosen[1].description == "intent 10"
    assert [t.id for t in load_suite(f"tlabench:{tlabench}", ids=[853, "0010"])] == ["10", "853"]
    with pytest.raises(SuiteError, match="no such description kind.*declarative_gpt, intent_claude"):
        load_suite(f"tlabench:{tlabench}#intent_gpt")
    with pytest.raises(SuiteError, match="no task with id 4242"):
        load_suite(f"tlabench:{tlabench}?ids=4242")
    silver = load_suite_report(f"tlabench:{tlabench}", ids=["5", "2"])
    assert silver.ids == ["2"] and "silver" in silver.skipped[0].reason


# --------------------------------------------------------------------------- the tla-alias tasks command


def test_cli_tasks_json_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    from pytest_alias.cli import main

    assert main(["tasks", "builtin", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [row["id"] for row in rows] == [task.id for task in load_suite("builtin")]
    barrier = next(row for row in rows if row["id"] == "barrier")
    assert barrier == {"id": "barrier", "main": "Barrier", "source": "ALIAS built-in", "has_cfg": True,
                       "hidden": ["TypeOK", "BarrierProperty"], "modules": ["Barrier"]}
    assert next(row for row in rows if row["id"] == "ticket-dispenser")["hidden"] == []
    assert main(["tasks", "builtin"]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].split() == ["id", "main", "source", "cfg", "hidden"] and table[-1] == "21 tasks"
    assert main(["tasks", "foo:bar"]) == 2
    assert "unknown suite scheme" in capsys.readouterr().err


def test_cli_tasks_reads_the_suite_through_the_workspace_and_needs_no_toolchain(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """One house: ``tla-alias tasks`` reads its suite through the run layer's Workspace (the suite's own
    order and skipped list), and listing tasks never asks for SANY or TLC."""
    from pytest_alias.cli import main
    from pytest_alias.run.workspace import Workspace

    read: list[tuple[str, object]] = []
    real = Workspace.suite_report

    def recording(self: Workspace, suite: str | None = None, **kwargs: object) -> object:
        read.append((self.config.suite, kwargs.get("ids")))
        return real(self, suite, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Workspace, "suite_report", recording)
    monkeypatch.setattr(Workspace, "tools", property(lambda self: pytest.fail("tasks needs no toolchain")))
    assert main(["tasks", "builtin", "--ids", "hour-clock,barrier"]) == 0
    assert read == [("builtin", "hour-clock,barrier")]
    table = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in table[1:-1]] == ["barrier", "hour-clock"] and table[-1] == "2 tasks"


def test_a_task_toml_that_is_not_utf8_is_one_line_not_a_traceback(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """tomllib decodes the bytes itself: a non-UTF-8 task.toml was a UnicodeDecodeError out of the loader."""
    from pytest_alias.cli import main

    task_folder(tmp_path, "good")
    bad = task_folder(tmp_path, "bad")
    (bad / "task.toml").write_bytes(b'id = "\xff"\n')
    with pytest.raises(SuiteError, match="task.toml: not valid TOML .*utf-8"):
        load_task_folder(bad)
    report = load_suite_report(str(tmp_path))  # one bad folder is skipped with its reason
    assert report.ids == ["good"] and "not valid TOML" in report.skipped[0].reason
    assert main(["tasks", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"tla-alias: {bad / 'task.toml'}: not valid TOML") and err.count("\n") == 1


def test_cli_tasks_subprocess() -> None:
    pytest.importorskip("pytest_alias.cir.analysis")
    proc = subprocess.run([sys.executable, "-m", "pytest_alias", "tasks", "builtin", "--json"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)
    assert len(rows) == 21 and set(rows[0]) == {"id", "main", "source", "has_cfg", "hidden", "modules"}


def test_a_task_folder_that_cannot_load_is_skipped_with_its_reason(tmp_path: Path) -> None:
    """Issue 22: one bad task (here a cfg the reader cannot parse) never stops a folder suite."""
    task_folder(tmp_path, "good")
    bad = task_folder(tmp_path, "bad")
    write(bad / "M.cfg", "INIT Init\nNEXT Next\nNOT_A_KEYWORD Foo\n")
    current = task_folder(tmp_path, "current")
    write(current / "M.cfg", "INIT Init\nNEXT Next\nPOSTCONDITION Init\n_POSSIBLE Init\n")  # current TLC's
    report = load_suite_report(str(tmp_path))
    assert report.ids == ["current", "good"]
    (skipped,) = report.skipped
    assert skipped.id == "bad" and "NOT_A_KEYWORD" in skipped.reason and str(bad / "M.cfg") in skipped.reason
    with pytest.raises(SuiteError, match="NOT_A_KEYWORD"):  # one task folder alone is the whole suite
        load_suite(str(bad))
