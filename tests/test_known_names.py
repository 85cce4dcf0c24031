"""Appendix M's name lists match as ``known_names.json`` says: whole words, in any case (issue 50, defect 3)."""

from __future__ import annotations

import json

import pytest

from pytest_alias.cir.known_names import KNOWN_NAMES_FILE, known_name_lists, known_names_in, mark_known_names


@pytest.mark.parametrize("text", ["PAXOS", "Paxos", "paXos", "a PAXOS variant", "Multi-paxos"])
def test_a_proper_noun_matches_in_any_case_but_all_lowercase(text: str) -> None:
    assert known_names_in(text, ["Paxos", "Multi-Paxos"])[:1] in (["Paxos"], ["Multi-Paxos"])
    assert known_names_in("PAXOS", ["Paxos"]) == ["Paxos"]  # the defect: it gave []


def test_an_all_lowercase_word_is_the_common_noun_not_the_proper_one() -> None:
    assert known_names_in("a raft floats past a bakery", ["Raft", "Bakery"]) == []
    assert known_names_in("RAFT and the Bakery", ["Raft", "Bakery"]) == ["Raft", "Bakery"]


def test_a_lowercase_name_matches_in_any_case_with_hyphens_for_spaces() -> None:
    assert known_names_in("MUTUAL EXCLUSION via Two-Phase Commit", ["mutual exclusion", "two-phase commit"]) \
        == ["mutual exclusion", "two-phase commit"]


def test_whole_words_only() -> None:
    assert known_names_in("Paxosian Rafts", ["Paxos", "Raft"]) == []


def test_the_file_states_the_rule_the_code_applies() -> None:
    about = json.loads(KNOWN_NAMES_FILE.read_text(encoding="utf-8"))["_about"]
    assert "case-insensitive" in about and "lowercase" in about
    # Every listed name is found in its own spelling and in capitals, as the stated rule promises.
    for names in known_name_lists().values():
        for name in names:
            assert known_names_in(name, [name]) == [name]
            assert known_names_in(name.upper(), [name]) == [name]
    assert mark_known_names("the PAXOS protocol")["fixed"] == ["Paxos"]
