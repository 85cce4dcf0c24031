"""Appendix K's task sets on a hand-made miniature TLA+-Bench release."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from pytest_alias.tasks.selection import behavior_exclusion, random_value_operators, select, tool_fixture_reason
from pytest_alias.tasks.suites import SuiteError, load_suite, load_suite_report

COUNTER = "EXTENDS Naturals\nVARIABLE x\nInit == x = 0\nNext == x' = (x + 1) % 3\n"


def _module(name: str, body: str = COUNTER) -> str:
    return f"---- MODULE {name} ----\n{body}====\n"


def _release(root: Path, specs: dict[str, tuple[str, str, str | None, dict[str, str]]]) -> Path:
    """``specs``: id -> (module name, body, cfg or None, manifest fields)."""
    rows = []
    for spec_id, (name, body, cfg, fields) in specs.items():
        gold = root / "specs" / "gold"
        gold.mkdir(parents=True, exist_ok=True)
        (gold / f"{spec_id}_{name}.tla").write_text(_module(name, body))
        if cfg is not None:
            (gold / f"{spec_id}_{name}.cfg").write_text(cfg)
        descriptions = root / "descriptions" / "declarative_gpt"
        descriptions.mkdir(parents=True, exist_ok=True)
        (descriptions / f"{spec_id}.txt").write_text(f"A counter modulo three ({name}).\n")
        rows.append({"spec_id": int(spec_id), "tier": "gold", **fields})
    (root / "manifest.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    return root


CFG = "INIT Init\nNEXT Next\n"
SYSTEM = {"category": "system", "source_repo": "someone/protocols", "source_path": "data/x/Spec.tla"}


@pytest.fixture
def release(tmp_path: Path) -> Path:
    random_body = "EXTENDS Naturals, TLC\nVARIABLE x\nInit == x = RandomElement(0..2)\nNext == x' = x\n"
    return _release(tmp_path / "tb", {
        "1": ("Counter", COUNTER, CFG, SYSTEM),
        "2": ("Dice", random_body, CFG, SYSTEM),
        "3": ("Github9", COUNTER, CFG, {"category": "system", "source_repo": "tlaplus/tlaplus",
                                        "source_path": "data/tlaplus/tlatools/org.lamport.tlatools/test-model/G.tla"}),
        "4": ("Helpers", COUNTER, CFG, {"category": "utility"}),
        "5": ("NoCfg", COUNTER, None, SYSTEM),
        "6": ("Breaks", COUNTER, CFG, SYSTEM),
    })


def _fake_verify(tasks: list, seed: int) -> dict[str, str | None]:
    assert seed == 7
    return {task.id: ("renamed copy not verified: TLC failed" if task.id == "6" else None) for task in tasks}


@pytest.mark.parametrize(("name", "ids", "line"), [
    ("gold", ["1", "2", "3", "4", "5", "6"], None),
    ("system", ["1", "2", "3", "5", "6"], "6 gold -> 5 system specifications"),
    ("utility", ["4"], "6 gold -> 5 system specifications -> utility = 6 gold - 5 system = 1"),
    ("test", ["1", "2", "3", "5"], "-> 4 pass SANY and TLC after CIR (seed 7)"),
    ("train", ["4", "6"], "train = 6 gold - 4 test = 2"),
    ("eligible", ["1"], "-> 3 with a TLC configuration -> 1 without test fixtures or random values"),
])
def test_each_set_follows_appendix_k(release: Path, name: str, ids: list[str], line: str | None) -> None:
    tasks = load_suite(f"tlabench:{release}")
    stream, skipped = io.StringIO(), []
    chosen = select(tasks, name, skipped, seed=7, verify=_fake_verify, stream=stream)
    assert [task.id for task in chosen] == ids
    assert (line in stream.getvalue()) if line else stream.getvalue() == ""
    # A failed renaming is a skipped task with its reason, except in #train, where it belongs.
    assert [(s.id, s.reason) for s in skipped] == (
        [("6", "renamed copy not verified: TLC failed")] if name in ("test", "eligible") else [])


def test_utility_set_is_gold_minus_system_by_suite_string(release: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Section 3's 257 utility modules: every gold spec the manifest does not label a system spec.
    report = load_suite_report(f"tlabench:{release}#utility")
    assert report.ids == ["4"] and dict(report.tasks[0].extra)["category"] == "utility"
    assert "alias: tlabench #utility: 6 gold -> 5 system specifications -> utility = 6 gold - 5 system = 1" \
        in capsys.readouterr().err
    assert [task.id for task in load_suite(f"tlabench:{release}?set=utility")] == ["4"]


def test_markers_name_their_reason(release: Path) -> None:
    tasks = {task.id: task for task in load_suite(f"tlabench:{release}")}
    assert random_value_operators(tasks["2"]) == ["RandomElement"]
    assert random_value_operators(tasks["1"]) == []
    assert tool_fixture_reason(tasks["3"]) == "a test fixture of the TLA+ tools (tlaplus/tlaplus, folder test-model)"
    assert tool_fixture_reason(tasks["1"]) is None
    assert behavior_exclusion(tasks["5"]) == "task has no TLC configuration"
    assert "uses random values (RandomElement)" in str(behavior_exclusion(tasks["2"]))
    assert behavior_exclusion(tasks["1"]) is None


def test_random_operator_in_a_comment_or_string_is_not_used(tmp_path: Path) -> None:
    body = COUNTER + '\\* RandomElement would break repeatability\nMsg == "RandomElement"\n'
    root = _release(tmp_path / "tb", {"1": ("Quiet", body, CFG, SYSTEM)})
    assert random_value_operators(load_suite(f"tlabench:{root}")[0]) == []


def test_suite_string_runs_the_real_renaming(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _release(tmp_path / "tb", {"1": ("Counter", COUNTER, CFG, SYSTEM),
                                      "2": ("Helpers", COUNTER, CFG, {"category": "utility"})})
    report = load_suite_report(f"tlabench:{root}#test?seed=3")
    assert report.ids == ["1"]
    assert "1 pass SANY and TLC after CIR (seed 3)" in capsys.readouterr().err
    assert load_suite(f"tlabench:{root}?set=train") == [t for t in load_suite(f"tlabench:{root}") if t.id == "2"]


def test_the_suite_string_takes_its_verifier_as_an_argument(release: Path) -> None:
    """The task loaders sit below CIR: a caller hands the re-verification in (pytest_alias.cir.suites does)."""
    report = load_suite_report(f"tlabench:{release}#test?seed=7", verify=_fake_verify)
    assert report.ids == ["1", "2", "3", "5"]
    assert [skipped.id for skipped in report.skipped] == ["6"]


def test_bad_set_requests_are_one_line_errors(tmp_path: Path) -> None:
    root = _release(tmp_path / "tb", {"1": ("Counter", COUNTER, CFG, {})})
    with pytest.raises(SuiteError, match="needs the manifest's category labels"):
        load_suite(f"tlabench:{root}#system")
    with pytest.raises(SuiteError, match="unknown task set 'best'"):
        load_suite(f"tlabench:{root}?set=best")
    with pytest.raises(SuiteError, match=r"task set \(#test\) applies only to tlabench"):
        load_suite(f"examples:{root}#test")


@pytest.mark.parametrize("entry", [{}, {"condition": {}}, {"condition": {"task": "1", "modules": 3}}, {"condition": []}])
def test_a_wrong_shaped_condition_cache_entry_is_rebuilt(tmp_path: Path, entry: dict) -> None:
    """Valid JSON of the wrong shape in the condition cache is a miss, never an error at collection."""
    from pytest_alias.cir.prepared import ConditionCache, condition_key
    from pytest_alias.tla.runner import default_tools

    root = _release(tmp_path / "tb", {"1": ("Counter", COUNTER, CFG, SYSTEM)})
    task = load_suite(f"tlabench:{root}")[0]
    tools = default_tools()
    cache = ConditionCache(tmp_path / "cache", tools.toolchain.jar.sha256)
    cache.cache.put(condition_key(task, "random", 0, None, tools.toolchain.jar.sha256), entry)
    [(condition, reason)] = cache.prepare(task, ["random"], seed=0, meaningful_maps=None, tools=lambda: tools)
    assert condition is not None and reason is None and cache.built == 1
