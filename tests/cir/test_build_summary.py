"""``tla-alias build``'s summary: the #utility median, the descriptions kept from damage, and plurals
(issue 50, item 3 and defect 4)."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

from pytest_alias.cir.analysis import hidden_names, similarity
from pytest_alias.cir.build import BuildSummary, TaskReport, _counted
from pytest_alias.cir.conditions import random_condition
from pytest_alias.cli import main
from pytest_alias.tasks.model import Task
from pytest_alias.tasks.suites import load_suite

from test_describe_modules import BAKERY_TASK, BARRIER_TASK


def _report(task: Task, seed: int = 0) -> TaskReport:
    renamed = random_condition(task, seed, verify=False)  # verification is the build's job, tested below
    return TaskReport(task, renamed, tuple(hidden_names(task.description, task.cfg)),
                      similarity(task.module_map[task.main], renamed.condition.module_map[renamed.condition.main]))


# --- defect 4: "0 propertys" ----------------------------------------------------


@pytest.mark.parametrize(("n", "word", "text"), [
    (0, "property", "0 properties"), (1, "property", "1 property"), (2, "constant", "2 constants"),
    (1, "task", "1 task"), (3, "hidden name", "3 hidden names"), (0, "constraint", "0 constraints"),
    (2, "key", "2 keys"), (2, "box", "2 boxes"),
])
def test_counted_words_are_plural_english(n: int, word: str, text: str) -> None:
    assert _counted(n, word) == text


def test_the_summary_never_writes_propertys() -> None:
    # Barrier's description hides no property, Peterson's one (NoStarvation), Elevator's two.
    for ids, properties in ((["barrier"], "0 properties"), (["peterson-mutex"], "1 property"),
                            (["elevator"], "2 properties")):
        summary = BuildSummary([_report(task) for task in load_suite("builtin", ids=ids)], 0)
        text = summary.to_markdown() + "\n".join(summary.headline())
        assert "propertys" not in text and "ys " not in text.replace("keys ", "")
        assert properties in text


def test_one_hidden_name_and_one_task_are_singular() -> None:
    summary = BuildSummary([_report(task) for task in load_suite("builtin", ids=["kv-store"])], 0)
    hidden = summary.section3()["hidden_names"]
    text = summary.to_markdown()
    assert hidden == 4 and "4 hidden names: 1 constant, 3 invariants, 0 properties, 0 constraints; in 1 task," in text
    assert summary.headline()[0].startswith("1/1 task verified after CIR")


# --- item 3: the descriptions the rule keeps from damage ------------------------


def test_damage_count_is_the_descriptions_blind_replacement_would_change() -> None:
    reports = [_report(BAKERY_TASK), _report(BARRIER_TASK)]
    reports += [_report(task) for task in load_suite("builtin", ids=["hour-clock"])]
    summary = BuildSummary(reports, 0)
    found = summary.descriptions()
    # Bakery (the module name, flag, num) and Barrier (barrier, process) are damaged by blind replacement;
    # HourClock's lowercase `hr` is mentioned in its description as well.
    assert found["of"] == 3 and found["kept_from_damage"] == sum(bool(r.damage) for r in reports)
    assert found["tasks"]["bakery"] == ["Bakery", "flag", "num"]
    assert found["tasks"]["barrier"] == ["barrier", "process"]
    assert summary.to_dict()["descriptions"] == found
    line = f"The three-part rule keeps {found['kept_from_damage']} of 3 verified descriptions from damage"
    assert line in summary.to_markdown() and summary.headline()[2].startswith(line)
    assert summary.to_dict()["tasks"][0]["description_damage"] == ["Bakery", "flag", "num"]


# --- item 3: appendix G's median over the utility modules --------------------------


def test_the_median_over_every_task_names_the_utility_modules_for_a_utility_suite(tmp_path: Path) -> None:
    reports = [_report(task) for task in load_suite("builtin", ids=["barrier", "hour-clock", "odometer"])]
    per_task = [len(r.renamed.renaming.name_map) for r in reports]
    summary = BuildSummary(reports, 0, f"tlabench:{tmp_path}#utility")
    every = summary.appendix_g()["renamed_per_task_all"]
    assert every == {"n": 3, "median": statistics.median(per_task), "min": min(per_task), "max": max(per_task)}
    assert summary.to_dict()["task_set"] == "utility"
    sentence = "Identifiers renamed over the 3 utility modules (gold minus system"
    assert sentence in summary.to_markdown() and sentence in summary.headline()[1]
    plain = BuildSummary(reports, 0, "builtin")
    assert "over all 3 tasks of the suite, verified or not" in plain.headline()[1]
    assert plain.to_dict()["task_set"] is None


COUNTER = "EXTENDS Naturals\nVARIABLE x\nInit == x = 0\nNext == x' = (x + 1) % 3\n"
HELPERS = COUNTER + "Inc(n) == (n + 1) % 3\nBound == 3\nTypeOK == x \\in 0..2\n"


def _release(root: Path) -> Path:
    """A miniature TLA+-Bench release: one system spec and two utility modules."""
    specs = {"1": ("Counter", COUNTER, "system"), "2": ("Helpers", HELPERS, "utility"), "3": ("Tiny", COUNTER, "utility")}
    gold, described = root / "specs" / "gold", root / "descriptions" / "declarative_gpt"
    gold.mkdir(parents=True)
    described.mkdir(parents=True)
    rows = []
    for spec_id, (name, body, category) in specs.items():
        (gold / f"{spec_id}_{name}.tla").write_text(f"---- MODULE {name} ----\n{body}====\n")
        (gold / f"{spec_id}_{name}.cfg").write_text("INIT Init\nNEXT Next\n")
        (described / f"{spec_id}.txt").write_text(f"A counter modulo three kept in x ({name}).\n")
        rows.append({"spec_id": int(spec_id), "tier": "gold", "category": category})
    (root / "manifest.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    return root


def test_build_of_the_utility_set_prints_its_median(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    release = _release(tmp_path / "tb")
    out = tmp_path / "out"
    assert main(["build", f"tlabench:{release}#utility", "--out", str(out), "--workers", "1"]) == 0
    printed = capsys.readouterr().out
    summary = json.loads((out / "summary.json").read_text())
    assert [task["id"] for task in summary["tasks"]] == ["2", "3"]  # gold minus system
    per_task = [task["renamed_identifiers"] for task in summary["tasks"]]
    assert per_task == [7, 4]  # Helpers: module, x, Init, Next, Inc, Bound, TypeOK; Tiny: module, x, Init, Next
    assert summary["task_set"] == "utility" and summary["suite"] == f"tlabench:{release}#utility"
    assert summary["appendix_g"]["renamed_per_task_all"] == {"n": 2, "median": 5.5, "min": 4, "max": 7}
    assert "Identifiers renamed over the 2 utility modules (gold minus system; section 3: a median of five " \
           "over 257): median 5.5, from 4 to 7" in printed
    assert "verified descriptions from damage" in printed
    assert "median 5.5" in (out / "summary.md").read_text()
