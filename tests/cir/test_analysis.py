"""Tests for pytest_alias.cir.analysis: hidden names, identifier kinds, Table C.1, similarity."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from pytest_alias.cir.analysis import (
    HiddenName,
    cfg_required_names,
    hidden_names,
    identifier_kind,
    identifier_parts,
    is_english_word,
    kept_domain_words,
    kind_table,
    similarity,
)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

TASKS = Path(__file__).resolve().parents[2] / "pytest_alias" / "data" / "tasks"


def _task(task_id: str) -> tuple[str, str | None, tuple[str, ...]]:
    """(description, cfg text or None, tags) of a built-in task."""
    folder = TASKS / task_id
    meta = tomllib.loads((folder / "task.toml").read_text(encoding="utf-8"))
    cfg = (folder / meta["cfg"]).read_text(encoding="utf-8") if "cfg" in meta else None
    return (folder / meta["description"]).read_text(encoding="utf-8"), cfg, tuple(meta["tags"])


def _readme_tags() -> dict[str, set[str]]:
    """Task id -> tags, from the table of the built-in README."""
    rows = re.findall(r"^\| `([\w-]+)` \|.*\| ([^|]*) \|$",
                      (TASKS / "README.md").read_text(encoding="utf-8"), re.M)
    return {task_id: {t.strip() for t in tags.split(",")} for task_id, tags in rows}


TASK_IDS = sorted(p.name for p in TASKS.iterdir() if (p / "task.toml").is_file())

# --- required names ---------------------------------------------------------

FULL_CFG = """\
CONSTANTS
  N = 3
  Procs = {p1, p2}
  Max <- MaxImpl
INIT Init
NEXT Next
SPECIFICATION Spec
INVARIANTS TypeOK Safe
PROPERTY Live
CONSTRAINT Bound
ACTION_CONSTRAINT StepBound
SYMMETRY Perms
VIEW Abstract
"""


def test_cfg_required_names_categories_and_order() -> None:
    assert cfg_required_names(FULL_CFG) == [
        ("N", "constant"), ("Procs", "constant"), ("Max", "constant"), ("MaxImpl", "constant"),
        ("TypeOK", "invariant"), ("Safe", "invariant"), ("Live", "property"),
        ("Bound", "constraint"), ("StepBound", "constraint"),
        ("Perms", "symmetry"), ("Abstract", "view"),
    ]


def test_cfg_required_names_excludes_init_next_spec_and_model_values() -> None:
    names = {n for n, _ in cfg_required_names(FULL_CFG)}
    assert not names & {"Init", "Next", "Spec", "p1", "p2"}


def test_cfg_required_names_repeats_once() -> None:
    assert cfg_required_names("INVARIANT A\nINVARIANT A\nPROPERTY A\n") == [("A", "invariant")]


def test_no_cfg_no_required_names() -> None:
    assert cfg_required_names(None) == []
    assert hidden_names("anything", None) == []


# --- hidden names -----------------------------------------------------------

def test_hidden_names_whole_word_case_sensitive() -> None:
    cfg = "CONSTANT N = 2\nINVARIANT TypeOK\nINVARIANT Safe\nPROPERTY Live\n"
    text = "There are `N` nodes; typeok holds. SafeGuard and Live's meaning."
    assert hidden_names(text, cfg) == [HiddenName("TypeOK", "invariant"),
                                       HiddenName("Safe", "invariant")]


def test_barrier_hides_typeok_and_barrier_property() -> None:
    description, cfg, _ = _task("barrier")
    assert hidden_names(description, cfg) == [HiddenName("TypeOK", "invariant"),
                                              HiddenName("BarrierProperty", "invariant")]


@pytest.mark.parametrize("task_id", ["hour-clock", "odometer", "die-hard", "ticket-dispenser"])
def test_tasks_that_state_every_name(task_id: str) -> None:
    description, cfg, _ = _task(task_id)
    assert hidden_names(description, cfg) == []


def test_hidden_constant_and_constraint_tags() -> None:
    kv, kv_cfg, kv_tags = _task("kv-store")
    bank, bank_cfg, bank_tags = _task("bank-transfer")
    assert "hidden-constant" in kv_tags
    assert [h for h in hidden_names(kv, kv_cfg) if h.category == "constant"]
    assert "hidden-constraint" in bank_tags
    assert [h for h in hidden_names(bank, bank_cfg) if h.category == "constraint"]


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_hidden_names_agree_with_readme(task_id: str) -> None:
    tags = _readme_tags()[task_id]
    description, cfg, toml_tags = _task(task_id)
    assert tags == set(toml_tags)
    hidden = hidden_names(description, cfg)
    if cfg is None:
        assert hidden == [] and "no-cfg" in tags
    else:
        assert ("hidden-names" in tags) == bool(hidden)
        assert ("all-names-stated" in tags) == (not hidden)


def test_suite_totals_are_consistent() -> None:
    tasks = [_task(t) for t in TASK_IDS]
    with_hidden = sum(bool(hidden_names(d, c)) for d, c, _ in tasks)
    assert with_hidden == sum("hidden-names" in tags for _, _, tags in tasks)


# --- identifier kinds -------------------------------------------------------

@pytest.mark.parametrize(("name", "parts"), [
    ("FinishUpdate", ("Finish", "Update")),
    ("max_val", ("max", "val")),
    ("msgQ", ("msg", "Q")),
    ("TypeOK", ("Type", "OK")),
    ("HTTPServer", ("HTTP", "Server")),
    ("Init2", ("Init", "2")),
    ("_total", ("total",)),
])
def test_identifier_parts(name: str, parts: tuple[str, ...]) -> None:
    assert identifier_parts(name) == parts


@pytest.mark.parametrize(("name", "kind"), [
    ("BarrierProperty", "domain"),
    ("FinishUpdate", "domain"),
    ("max_val", "domain"),
    ("arrived", "domain"),            # inflection of a web2 word
    ("NeighboursNotBothEating", "domain"),  # British spelling
    ("OneWriterAtATime", "domain"),   # the article "A"
    ("TypeOK", "convention"),
    ("Init", "convention"),
    ("vars", "convention"),
    ("pc", "convention"),
    ("Inv2", "convention"),
    ("hr", "abbreviation"),
    ("msgQ", "abbreviation"),
    ("x", "abbreviation"),
    ("A", "abbreviation"),
    ("TxnBound", "abbreviation"),
    ("42", "abbreviation"),
])
def test_identifier_kind(name: str, kind: str) -> None:
    assert identifier_kind(name) == kind


def test_is_english_word() -> None:
    assert is_english_word("barrier") and is_english_word("Stopped")
    assert not is_english_word("q") and not is_english_word("msg")


def test_kind_table_counts_with_repeats() -> None:
    table = kind_table(["BarrierProperty", "TypeOK", "hr", "hr"],
                       [HiddenName("TypeOK", "invariant"), "BarrierProperty"])
    assert (table.renamed_total, table.hidden_total) == (4, 2)
    assert table.row("abbreviation").renamed == 2
    assert table.row("abbreviation").renamed_pct == pytest.approx(50.0)
    assert table.row("convention").hidden_pct == pytest.approx(50.0)
    assert table.row("domain").hidden == 1
    assert "| abbreviation | 2 (50%) | 0 (0%) |" in table.render()


def test_kind_table_empty() -> None:
    table = kind_table([], [])
    assert table.renamed_total == 0 and all(r.renamed_pct == 0.0 for r in table.rows)


def test_kept_domain_words() -> None:
    original = "A barrier property holds; the counter counts arrivals."
    renamed = "A Qwertyu property holds; the counter counts arrivals."
    kept, used = kept_domain_words(["BarrierProperty", "counter", "hr", "Missing"],
                                   original, renamed)
    assert (kept, used) == (1, 2)


# --- similarity -------------------------------------------------------------

def test_similarity() -> None:
    assert similarity("a b c d", "a b c d") == 1.0
    assert similarity("Init == hr = 1", "Init == Qz = 1") == pytest.approx(0.8)
    assert similarity("", "") == 1.0
    assert similarity("a b", "") == 0.0


def test_hidden_names_count_the_papers_four_categories_by_default() -> None:
    """Section 3 counts constants, invariants, properties and constraints; SYMMETRY and VIEW only on request."""
    from pytest_alias.cir.analysis import ALL_CATEGORIES

    paper = hidden_names("", FULL_CFG)
    assert {h.category for h in paper} == {"constant", "invariant", "property", "constraint"}
    assert len(paper) == 9 and not {"Perms", "Abstract"} & {h.name for h in paper}
    every = hidden_names("", FULL_CFG, categories=ALL_CATEGORIES)
    assert [h.name for h in every][-2:] == ["Perms", "Abstract"] and len(every) == 11
    # A task whose only unstated cfg name is its symmetry set has no hidden name in the paper's sense.
    assert hidden_names("N is the number of nodes.", "CONSTANT N = 2\nSYMMETRY Perms\n") == []
