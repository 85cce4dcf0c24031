"""CIR renaming: properties of the name map and of renamed specs, TLC re-verification."""

from __future__ import annotations

import json
import string
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import BUILTIN_TASKS, corpus_model_id, corpus_models, corpus_params, is_large_model
from pytest_alias.cir.names import RESERVED, check_map, random_names
from pytest_alias.cir.rename import collect_identifiers, random_renaming, rename_module_text
from pytest_alias.cir.verify import verify_renaming
from pytest_alias.tla.cfg import parse_cfg
from pytest_alias.tla.specfiles import SpecFiles
from pytest_alias.tla.syntax import TLA_KEYWORDS, parse_module

identifiers = st.text(string.ascii_letters, min_size=1, max_size=12).filter(lambda s: s not in RESERVED)


@given(st.sets(identifiers, max_size=40), st.integers(0, 2**32))
@settings(max_examples=200, deadline=None)
def test_map_is_a_same_length_bijection_onto_fresh_names(olds: set[str], seed: int) -> None:
    mapping, kept = random_names(olds, seed)
    assert set(mapping) | set(kept) == olds
    assert len(set(mapping.values())) == len(mapping)
    for old, new in mapping.items():
        assert len(new) == len(old) and new not in RESERVED and new not in olds
        assert new[0].isupper() == old[0].isupper()


@given(st.sets(identifiers, max_size=20), st.integers(0, 2**32))
@settings(max_examples=100, deadline=None)
def test_same_seed_same_names_independent_of_other_names(olds: set[str], seed: int) -> None:
    first, _ = random_names(olds, seed)
    assert random_names(olds, seed)[0] == first
    extra = {"ZzExtraName"} | olds
    widened, _ = random_names(extra, seed)
    # Adding an identifier changes no other name, unless the new one took that exact name first.
    changed = {old for old in olds if old in first and widened.get(old) != first[old]}
    assert len(changed) <= 1


def test_one_letter_names_use_free_letters_or_are_kept() -> None:
    taken = set(string.ascii_lowercase) - {"q"}
    mapping, kept = random_names({"x"}, 1, taken=taken - {"x"})
    assert mapping == {"x": "q"} and kept == []
    mapping, kept = random_names({"x"}, 1, taken=set(string.ascii_lowercase) - {"x"})
    assert mapping == {} and kept == ["x"]


def test_check_map_reports_problems() -> None:
    assert check_map({"a": "b"}) == []
    problems = check_map({"a": "IF", "b": "c-d", "e": "f", "g": "f", "h": "taken"}, taken={"taken"})
    assert len(problems) == 4


SPEC = r"""---- MODULE Pair ----
EXTENDS Naturals, Sequences
CONSTANT Limit
VARIABLES x, q
vars == <<x, q>>
RECURSIVE Sum(_)
Sum(s) == IF s = <<>> THEN 0 ELSE Head(s) + Sum(Tail(s))
Helper(v) == LET Twice == v + v IN Twice
Init == x = 0 /\ q = <<>>
Step == /\ x < Limit
        /\ x' = Helper(x) + 1
        /\ q' = Append(q, [val |-> x, Limit2 |-> "x"])
Next == Step \/ UNCHANGED vars
Spec == Init /\ [][Next]_vars /\ WF_vars(Step)
Inv == \A i \in 1..Len(q) : q[i].val <= Limit
====
"""


def test_rename_keeps_layout_keywords_strings_fields_and_bound_names() -> None:
    renaming = random_renaming({"Pair": SPEC}, "CONSTANT Limit = 3\nSPECIFICATION Spec\nINVARIANT Inv\n", 5)
    text = renaming.modules[renaming.main]
    assert len(text) == len(SPEC)
    assert [len(line) for line in text.splitlines()] == [len(line) for line in SPEC.splitlines()]
    for word in ("EXTENDS Naturals, Sequences", "RECURSIVE", "LET", "Append", "Head", "[val |->", '"x"', ".val", "\\A i"):
        assert word in text
    expected = {"Pair", "Limit", "x", "q", "vars", "Sum", "Helper", "Twice", "Init", "Step", "Next", "Spec", "Inv"}
    assert set(renaming.name_map) == expected
    assert "WF_" + renaming.name_map["vars"] + "(" + renaming.name_map["Step"] + ")" in text
    assert "]_" + renaming.name_map["vars"] in text
    syntax = parse_module(text)
    assert not syntax.has_errors and syntax.name == renaming.main
    assert not (set(renaming.name_map.values()) & TLA_KEYWORDS)
    assert renaming.cfg is not None and renaming.name_map["Inv"] in renaming.cfg


def test_rename_module_text_leaves_comments_and_strings() -> None:
    text = '---- MODULE M ----\n\\* Init is here\nInit == "Init" (* Init *)\n====\n'
    out = rename_module_text(text, {"Init": "Abcd", "M": "Q"})
    assert out == '---- MODULE Q ----\n\\* Init is here\nAbcd == "Init" (* Init *)\n====\n'


def test_instance_paths_and_substitutions_follow(tools) -> None:
    inner = "---- MODULE Inner ----\nEXTENDS Naturals\nCONSTANT Cap\nVARIABLE v\nOk == v <= Cap\n====\n"
    outer = ("---- MODULE Outer ----\nEXTENDS Naturals\nVARIABLE w\nI == INSTANCE Inner WITH Cap <- 2, v <- w\n"
             "Init == w = 0\nNext == w' = (w + 1) % 3\nSafe == I!Ok\n====\n")
    cfg = "INIT Init\nNEXT Next\nINVARIANT Safe\n"
    renaming = random_renaming({"Outer": outer, "Inner": inner}, cfg, 11)
    text = renaming.modules[renaming.main]
    m = renaming.name_map
    assert f"INSTANCE {m['Inner']} WITH {m['Cap']} <- 2, {m['v']} <- {m['w']}" in text
    assert f"{m['I']}!{m['Ok']}" in text
    result = verify_renaming({"Outer": outer, "Inner": inner}, cfg, renaming.modules, renaming.cfg, tools=tools)
    assert result.verified, result.failure


def test_collect_identifiers_protects_imported_standard_operators() -> None:
    ids = collect_identifiers({"Pair": SPEC})
    assert "Append" not in ids.author and "Len" not in ids.author
    assert {"i", "s", "v", "val"} <= ids.other


def _builtin_specs() -> list[Path]:
    return sorted(BUILTIN_TASKS.glob("*/task.toml"))


@pytest.mark.parametrize("task_toml", _builtin_specs(), ids=lambda p: p.parent.name)
def test_builtin_task_renamed_copy_verifies(task_toml: Path, tools) -> None:
    from pytest_alias.tasks.suites import load_task_folder

    task = load_task_folder(task_toml.parent)
    renaming = random_renaming(task.module_map, task.cfg, 2026)
    result = verify_renaming(task.module_map, task.cfg, renaming.modules, renaming.cfg, tools=tools)
    assert result.verified, result.failure
    if task.cfg is not None:
        assert result.original == result.renamed
        assert result.original.distinct_states == task.expected_distinct


def test_state_change_is_detected(tools) -> None:
    task_dir = BUILTIN_TASKS / "hour-clock"
    spec = SpecFiles.from_path(next(task_dir.glob("*.tla")))
    renaming = random_renaming(spec.modules, spec.cfg, 1)
    broken = {name: text.replace("12", "11") for name, text in renaming.modules.items()}
    result = verify_renaming(spec.modules, spec.cfg, broken, renaming.cfg, tools=tools)
    assert not result.verified and result.failure


CORPUS_MODELS = corpus_models()


@pytest.mark.slow
@pytest.mark.corpus
@pytest.mark.parametrize("model", corpus_params(CORPUS_MODELS))
def test_corpus_renamed_copy_has_equal_state_counts(model: dict, corpus_dir: Path, tools) -> None:
    """Strict SANY takes every renamed module and TLC gives the renamed copy the original's state counts
    (the original's run is shared with tests/tla/test_corpus.py through the session's run cache)."""
    spec = SpecFiles.from_path(corpus_dir / model["tla_path"], corpus_dir / model["cfg_path"])
    renaming = random_renaming(spec.modules, spec.cfg, 20260926)
    result = verify_renaming(spec.modules, spec.cfg, renaming.modules, renaming.cfg, tools=tools, timeout=600)
    assert result.verified, result.failure
    assert result.renamed is not None and result.renamed.distinct_states == model["measured_distinct"]


@pytest.mark.corpus
@pytest.mark.parametrize("model", [m for m in CORPUS_MODELS if is_large_model(m)], ids=corpus_model_id)
def test_large_corpus_model_renamed_copy_parses_and_its_cfg_names_defined(model: dict, corpus_dir: Path,
                                                                          tools) -> None:
    """The large models' renamings without TLC (which ``ALIAS_SLOW_TESTS=1`` adds above): strict SANY
    takes every renamed module, and every name the renamed cfg uses is defined by the renamed spec
    exactly as the original cfg's names are by the original."""
    spec = SpecFiles.from_path(corpus_dir / model["tla_path"], corpus_dir / model["cfg_path"])
    assert spec.cfg is not None
    renaming = random_renaming(spec.modules, spec.cfg, 20260926)
    assert renaming.name_map and renaming.cfg is not None
    result = verify_renaming(spec.modules, None, renaming.modules, None, tools=tools)
    assert result.verified, result.failure
    defined_before = set(collect_identifiers(spec.modules).author)
    defined_after = set(collect_identifiers(renaming.modules).author)
    used_before, used_after = (set(parse_cfg(cfg).referenced_names()) for cfg in (spec.cfg, renaming.cfg))
    assert used_before & defined_before, "the original cfg names none of the spec's definitions"
    assert used_after - defined_after == used_before - defined_before
    assert {renaming.name_map.get(name, name) for name in used_before} == used_after


def test_cli_rename_json_and_determinism(tmp_path: Path) -> None:
    module = BUILTIN_TASKS / "barrier" / "Barrier.tla"
    runs = []
    for out in ("a", "b"):
        proc = subprocess.run(
            [sys.executable, "-m", "pytest_alias", "--cache-dir", str(tmp_path / "cache"), "rename", str(module),
             "--description", str(BUILTIN_TASKS / "barrier" / "description.md"), "--seed", "9",
             "--out", str(tmp_path / out), "--verify", "--json"],
            capture_output=True, text=True, timeout=300,
        )
        assert proc.returncode == 0, proc.stderr
        runs.append(json.loads(proc.stdout))
    first, second = runs
    assert first["map"] == second["map"] and first["verified"] is True and first["failure"] is None
    assert first["original"] == first["renamed"] and first["original"]["distinct_states"] == 15
    assert set(first) == {"map", "files", "verified", "original", "renamed", "failure"}
    for path in first["files"]:
        assert Path(path).is_file()
    assert (tmp_path / "a" / f"{first['map']['Barrier']}.tla").read_text() == (
        tmp_path / "b" / f"{first['map']['Barrier']}.tla").read_text()


def test_cli_build_builtin(tmp_path: Path) -> None:
    out = tmp_path / "set"
    proc = subprocess.run(
        [sys.executable, "-m", "pytest_alias", "--cache-dir", str(tmp_path / "cache"), "build", "builtin",
         "--out", str(out), "--seed", "4"], capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    summary = json.loads((out / "summary.json").read_text())
    counts = summary["counts"]
    assert counts["tasks"] == counts["verified"] == len(_builtin_specs())
    assert counts["with_hidden_names"] + counts["every_name_stated"] == counts["verified"]  # Table K.1's split
    barrier = next(t for t in summary["tasks"] if t["id"] == "barrier")
    assert {h["name"] for h in barrier["hidden"]} == {"TypeOK", "BarrierProperty"}
    assert (out / "tasks" / "barrier" / "random" / "map.json").is_file()
    assert not list(tmp_path.glob(".set.tmp-*")), "no staging folder left behind"


def _builtin_tasks() -> list:
    from pytest_alias.tasks.suites import load_suite

    return load_suite("builtin")


BUILTIN = _builtin_tasks()


@given(st.sampled_from(BUILTIN), st.integers(0, 2**32))
@settings(max_examples=60, deadline=None)
def test_any_seed_renamed_builtin_reparses_with_layout_kept(task, seed: int) -> None:
    renaming = random_renaming(task.module_map, task.cfg, seed)
    originals = list(task.module_map.values())
    for original, (name, text) in zip(originals, renaming.modules.items()):
        assert [len(line) for line in text.splitlines()] == [len(line) for line in original.splitlines()]
        syntax = parse_module(text)
        assert syntax.name == name and not syntax.has_tla_errors
        assert not {o.text for o in syntax.occurrences if o.role == "define"} & TLA_KEYWORDS
    assert all(len(old) == len(new) for old, new in renaming.name_map.items())
