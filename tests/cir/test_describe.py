"""Tests for pytest_alias.cir.describe: the paper's three-part rule for renamed descriptions."""
from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pytest_alias.cir.describe import (
    cfg_referenced_names,
    description_damage,
    is_lowercase_word,
    keeps_name,
    mentions,
    rename_description,
)

# --- the three parts, case by case -----------------------------------------


def test_rule1_cfg_name_is_renamed_even_when_lowercase() -> None:
    text = "The constant `capacity` bounds the buffer; its capacity is fixed."
    out = rename_description(text, {"capacity": "Qwertyui"}, cfg_names=["capacity"])
    assert out == "The constant `Qwertyui` bounds the buffer; its Qwertyui is fixed."


def test_rule1_cfg_name_beats_module_name() -> None:
    out = rename_description("see Clock", {"Clock": "Xyzwv"}, cfg_names=["Clock"],
                             module_names=["Clock"])
    assert out == "see Xyzwv"


def test_rule2_lowercase_word_keeps_its_name() -> None:
    text = "The variable `hr` holds the hour, counted by the clock."
    name_map = {"hr": "Qz", "by": "Yf", "the": "Zwk"}
    assert rename_description(text, name_map, cfg_names=["TypeOK"]) == text


def test_rule2_module_names_keep_their_names() -> None:
    text = "Module Tally is instantiated by Odometer, which extends Naturals."
    name_map = {"Tally": "Abcde", "Odometer": "Pqrstuvw", "Naturals": "Zzzzzzzz"}
    out = rename_description(text, name_map, cfg_names=[], module_names=["Tally", "Odometer"])
    assert out == text


def test_rule3_other_identifiers_are_renamed() -> None:
    text = "Actions Tick and FinishUpdate use max_val, x1 and msgQ."
    name_map = {"Tick": "Bmwq", "FinishUpdate": "Hgfdsapoiuyt", "max_val": "Kj_uytr",
                "x1": "Pq", "msgQ": "Wxyz"}
    out = rename_description(text, name_map, cfg_names=[])
    assert out == "Actions Bmwq and Hgfdsapoiuyt use Kj_uytr, Pq and Wxyz."


def test_rule3_capitalised_dictionary_word_is_renamed() -> None:
    # Not a module and not in the cfg: the paper's rule renames it.
    out = rename_description("Barrier entry", {"Barrier": "Qwertyu"}, cfg_names=[])
    assert out == "Qwertyu entry"


@pytest.mark.parametrize(("name", "cfg", "modules", "kept"), [
    ("count", [], [], True),
    ("count", ["count"], [], False),
    ("Count", [], [], False),
    ("max_val", [], [], False),
    ("x1", [], [], False),
    ("Sequences", [], [], True),
    ("Bakery", [], ["Bakery"], True),
    ("Bakery", ["Bakery"], ["Bakery"], False),
])
def test_keeps_name(name: str, cfg: list[str], modules: list[str], kept: bool) -> None:
    assert keeps_name(name, cfg, modules) is kept


def test_is_lowercase_word() -> None:
    assert is_lowercase_word("process")
    assert not is_lowercase_word("max_val")
    assert not is_lowercase_word("x1")
    assert not is_lowercase_word("msgQ")
    assert not is_lowercase_word("")


def test_unknown_rule_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown rule"):
        rename_description("x", {}, [], rule="some")  # type: ignore[arg-type]


# --- Appendix G -------------------------------------------------------------

CONSENSUS = ("We specify the folklore one-step consensus algorithm for crash faults "
             "as described by Dobre and Suri.")
BAKERY = "This is Lamport's Bakery algorithm for N processes."
# An author who used common words and the algorithm name as identifiers.
APPENDIX_G_MAP = {"the": "Zwk", "The": "Xqa", "by": "Yf", "By": "Qp",
                  "Bakery": "Yodacz", "N": "K"}
APPENDIX_G_CFG = ["N"]


@pytest.mark.parametrize("text", [CONSENSUS, BAKERY])
def test_appendix_g_examples_survive_the_rule(text: str) -> None:
    out = rename_description(text, APPENDIX_G_MAP, APPENDIX_G_CFG, module_names=["Bakery"])
    assert out == text.replace(" N ", " K ")


def test_appendix_g_examples_are_damaged_by_blind_replacement() -> None:
    consensus = rename_description(CONSENSUS, APPENDIX_G_MAP, APPENDIX_G_CFG,
                                   module_names=["Bakery"], rule="all")
    bakery = rename_description(BAKERY, APPENDIX_G_MAP, APPENDIX_G_CFG,
                                module_names=["Bakery"], rule="all")
    assert consensus == ("We specify Zwk folklore one-step consensus algorithm for crash faults "
                         "as described Yf Dobre and Suri.")
    assert bakery == "This is Lamport's Yodacz algorithm for K processes."


def test_description_damage_lists_what_the_rule_saves() -> None:
    assert description_damage(CONSENSUS, APPENDIX_G_MAP, APPENDIX_G_CFG, ["Bakery"]) == ("by", "the")
    assert description_damage(BAKERY, APPENDIX_G_MAP, APPENDIX_G_CFG, ["Bakery"]) == ("Bakery",)
    # The renamed N is not damage: the cfg needs it.
    assert description_damage("N processes", APPENDIX_G_MAP, APPENDIX_G_CFG) == ()


def test_counting_damaged_descriptions() -> None:
    texts = [CONSENSUS, BAKERY, "N processes meet."]
    damaged = sum(bool(description_damage(t, APPENDIX_G_MAP, APPENDIX_G_CFG, ["Bakery"]))
                  for t in texts)
    assert damaged == 2


# --- whole words ------------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ("Init", "Abcd"),
    ("`Init`", "`Abcd`"),
    ("Init, Next.", "Abcd, Next."),
    ("(Init)", "(Abcd)"),
    ("**Init**", "**Abcd**"),
    ('"Init"', '"Abcd"'),
    ("'Init'", "'Abcd'"),
    ("Init's guard", "Abcd's guard"),
    ("Init\u2019s guard", "Abcd\u2019s guard"),
    ("Initial state", "Initial state"),
    ("ReInit", "ReInit"),
    ("Init_2", "Init_2"),
    ("Init2", "Init2"),
    ("2Init", "2Init"),
    ("init", "init"),
    ("INIT", "INIT"),
    ("Init'", "Abcd'"),
    ("Tally!Init", "Tally!Abcd"),
    ("Init\nInit", "Abcd\nAbcd"),
])
def test_whole_words(text: str, expected: str) -> None:
    assert rename_description(text, {"Init": "Abcd"}, cfg_names=["Init"]) == expected


def test_unicode_letters_are_word_characters() -> None:
    # The L of Läufer is not a whole word.
    assert rename_description("Läufer's L", {"L": "Q"}, cfg_names=["L"]) == "Läufer's Q"


def test_possessive_and_contraction_suffixes_are_not_identifiers() -> None:
    text = "Lamport's s and don't t"
    out = rename_description(text, {"s": "Q", "t": "R"}, cfg_names=["s", "t"])
    assert out == "Lamport's Q and don't R"


def test_fairness_subscript_is_renamed_in_its_variable() -> None:
    out = rename_description("WF_vars(Tick) and SF_vars", {"vars": "Abcd", "Tick": "Efgh"},
                             cfg_names=["vars"])
    assert out == "WF_Abcd(Efgh) and SF_Abcd"


def test_fairness_subscript_of_a_kept_name_stays() -> None:
    assert rename_description("WF_vars", {"vars": "Abcd"}, cfg_names=[]) == "WF_vars"
    assert rename_description("WF_vars", {"vars": "Abcd"}, cfg_names=[], rule="all") == "WF_Abcd"


def test_single_pass_no_chained_renames() -> None:
    out = rename_description("Ab and Cd", {"Ab": "Cd", "Cd": "Ef"}, cfg_names=[])
    assert out == "Cd and Ef"


def test_mentions_is_whole_word_and_case_sensitive() -> None:
    assert mentions("check `TypeOK` now", "TypeOK")
    assert mentions("TypeOK's meaning", "TypeOK")
    assert not mentions("typeok", "TypeOK")
    assert not mentions("TypeOKay", "TypeOK")


# --- cfg names --------------------------------------------------------------

def test_cfg_names_include_everything_the_cfg_spells() -> None:
    cfg = ("CONSTANTS N = 3\n  Procs = {p1, p2}\n  Max <- MaxImpl\n"
           "INIT Init\nNEXT Next\nINVARIANT TypeOK\nPROPERTY Live\n")
    assert cfg_referenced_names(cfg) == {"N", "Procs", "p1", "p2", "Max", "MaxImpl",
                              "Init", "Next", "TypeOK", "Live"}
    assert cfg_referenced_names(None) == frozenset()


# --- properties -------------------------------------------------------------

_IDENT = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,7}", fullmatch=True)


@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=80), keys=st.lists(_IDENT, max_size=5, unique=True),
       rule=st.sampled_from(["paper", "all"]))
def test_absent_keys_leave_the_text_unchanged(text: str, keys: list[str], rule: str) -> None:
    assume(all(k not in text for k in keys))
    name_map = {k: "Z" * len(k) for k in keys}
    assert rename_description(text, name_map, keys, rule=rule) == text  # type: ignore[arg-type]


_LOWER_IDENT = st.from_regex(r"[a-z][a-z0-9]{0,6}", fullmatch=True)
_SEPARATORS = st.sampled_from([" ", ", ", ". ", "'", "`", "-", "\n", "_", "(", ")", "**"])


@st.composite
def _renamed_texts(draw: st.DrawFn) -> tuple[str, dict[str, str]]:
    keys = draw(st.lists(_LOWER_IDENT, min_size=1, max_size=6, unique=True))
    # New names start uppercase, so none of them occurs in the lowercase original.
    values: list[str] = []
    for k in keys:
        new = draw(st.from_regex(rf"[A-Z][A-Z0-9]{{{len(k) - 1}}}", fullmatch=True)
                   .filter(lambda v: v not in values))
        values.append(new)
    words = draw(st.lists(st.one_of(st.sampled_from(keys), _LOWER_IDENT), max_size=20))
    seps = draw(st.lists(_SEPARATORS, min_size=len(words), max_size=len(words)))
    text = "".join(w + s for w, s in zip(words, seps))
    return text, dict(zip(keys, values))


@settings(max_examples=150, deadline=None)
@given(case=_renamed_texts(), rule=st.sampled_from(["paper", "all"]))
def test_inverse_renaming_restores_the_text(case: tuple[str, dict[str, str]], rule: str) -> None:
    text, name_map = case
    inverse = {new: old for old, new in name_map.items()}
    # Every key is a cfg name, so the paper's rule renames all of them too.
    renamed = rename_description(text, name_map, name_map, rule=rule)  # type: ignore[arg-type]
    assert len(renamed) == len(text)
    assert rename_description(renamed, inverse, inverse, rule=rule) == text  # type: ignore[arg-type]


def test_a_quoted_string_value_of_the_spec_stays_while_the_identifier_is_renamed() -> None:
    """CIR keeps string literals, so "FillSmall" (a value of `last`) must stay in the description."""
    text = 'The action FillSmall sets `last` to "FillSmall"; “FillSmall” again, and "Other".'
    renamed = rename_description(text, {"FillSmall": "Qwertyuio", "Other": "Abcde"}, (), kept_strings={"FillSmall"})
    assert renamed == 'The action Qwertyuio sets `last` to "FillSmall"; “FillSmall” again, and "Abcde".'
