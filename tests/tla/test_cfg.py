"""Tests for pytest_alias.tla.cfg: parsing, rendering, renaming and old-TLC adaptation."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_alias.tla.cfg import (
    ALL_KEYWORDS,
    KEYWORDS_TLC_2_15,
    KEYWORDS_TLC_MODERN,
    Cfg,
    CfgError,
    CheckDeadlockSection,
    ConstantEntry,
    ConstantsSection,
    CfgModelValue,
    NamesSection,
    SetValue,
    TupleValue,
    adapt_for_tlc,
    parse_cfg,
    parse_value,
    render_cfg,
    render_value,
)

from conftest import CORPUS  # noqa: E402  (the repo's root conftest: ../shared/corpus/tlaplus-examples)


def roundtrip(cfg: Cfg) -> Cfg:
    return parse_cfg(render_cfg(cfg))


# --- sections and keywords ----------------------------------------------------

def test_every_single_name_keyword() -> None:
    text = """INIT I NEXT N SPECIFICATION S SYMMETRY Sym VIEW V ALIAS A
              POSTCONDITION P _PERIODIC Per TYPE T TYPE_CONSTRAINT TC CHECK_DEADLOCK FALSE"""
    cfg = parse_cfg(text)
    assert (cfg.init, cfg.next, cfg.specification) == ("I", "N", "S")
    assert (cfg.symmetry, cfg.view, cfg.alias, cfg.postcondition) == ("Sym", "V", "A", "P")
    assert cfg.check_deadlock is False
    assert [s.keyword for s in cfg.sections] == [
        "INIT", "NEXT", "SPECIFICATION", "SYMMETRY", "VIEW", "ALIAS", "POSTCONDITION",
        "_PERIODIC", "TYPE", "TYPE_CONSTRAINT", "CHECK_DEADLOCK"]
    assert roundtrip(cfg) == cfg


def test_missing_sections_are_none_or_empty() -> None:
    cfg = parse_cfg("")
    assert cfg == Cfg()
    assert (cfg.init, cfg.next, cfg.specification, cfg.view, cfg.symmetry) == (None,) * 5
    assert (cfg.alias, cfg.postcondition, cfg.check_deadlock) == (None, None, None)
    assert cfg.invariants == cfg.properties == cfg.constraints == cfg.action_constraints == ()
    assert cfg.constants == ()
    assert render_cfg(cfg) == ""


@pytest.mark.parametrize("singular,plural,attr", [
    ("INVARIANT", "INVARIANTS", "invariants"),
    ("PROPERTY", "PROPERTIES", "properties"),
    ("CONSTRAINT", "CONSTRAINTS", "constraints"),
    ("ACTION_CONSTRAINT", "ACTION_CONSTRAINTS", "action_constraints"),
])
def test_list_sections_both_spellings_merge_in_order(singular: str, plural: str, attr: str) -> None:
    cfg = parse_cfg(f"{singular} A B\n{plural}\n  C\n  D\n{singular}")
    assert getattr(cfg, attr) == ("A", "B", "C", "D")
    assert [s.keyword for s in cfg.sections] == [singular, plural, singular]
    assert cfg.sections[2] == NamesSection(singular, ())  # empty section kept
    assert roundtrip(cfg) == cfg


def test_constant_both_spellings() -> None:
    cfg = parse_cfg("CONSTANT A = 1\nCONSTANTS B = 2 C = 3\nCONSTANT")
    assert [e.name for e in cfg.constants] == ["A", "B", "C"]
    assert [s.keyword for s in cfg.sections] == ["CONSTANT", "CONSTANTS", "CONSTANT"]
    assert roundtrip(cfg) == cfg


def test_check_deadlock_values() -> None:
    assert parse_cfg("CHECK_DEADLOCK TRUE").check_deadlock is True
    assert parse_cfg("CHECK_DEADLOCK FALSE").check_deadlock is False
    with pytest.raises(CfgError, match=r"line 2: CHECK_DEADLOCK takes TRUE or FALSE, found 'no'"):
        parse_cfg("INIT I\nCHECK_DEADLOCK no")


def test_sections_spanning_lines_and_sharing_lines() -> None:
    text = """
    SPECIFICATION
        Spec
    INVARIANTS
        TypeOK
        Safety INIT_ok \\* an identifier, not the INIT keyword
    PROPERTY Live CONSTRAINT Bound CONSTANTS N = 3 M = {a, b} VIEW v
    """
    cfg = parse_cfg(text)
    assert cfg.specification == "Spec"
    assert cfg.invariants == ("TypeOK", "Safety", "INIT_ok")
    assert cfg.properties == ("Live",)
    assert cfg.constraints == ("Bound",)
    assert [e.name for e in cfg.constants] == ["N", "M"]
    assert cfg.view == "v"


# --- comments -------------------------------------------------------------------

def test_comments_are_dropped() -> None:
    text = """(* header (* nested (* deeper *) *)
    still in the comment: INIT Bogus *)
    CONSTANTS \\* line comment INIT Bogus
      N = (* inline *) 3 \\* trailing
      S = "a (* not a comment *) \\\\* nor this"
    (*) INIT Bogus2 *) INIT Init
    """
    cfg = parse_cfg(text)
    assert cfg.init == "Init"
    assert [(e.name, e.parsed) for e in cfg.constants] == [
        ("N", 3), ("S", "a (* not a comment *) \\* nor this")]
    assert "Bogus" not in render_cfg(cfg)


def test_line_numbers_count_comment_lines() -> None:
    with pytest.raises(CfgError, match=r"^line 4: unknown keyword 'OOPS'$"):
        parse_cfg("(* one\ntwo\n*) INIT I \\* three\nOOPS x")


def test_unterminated_comment() -> None:
    with pytest.raises(CfgError, match=r"line 2: unterminated \(\* comment"):
        parse_cfg("INIT I\n(* open (* nested *)\n")


# --- constants and values ---------------------------------------------------------

def test_constant_values() -> None:
    cfg = parse_cfg("""CONSTANTS
        N = 3  Neg = -2  S = "x\\"y\\\\z\\n"  B = TRUE  C = FALSE
        P = p1  Ps = {p1, p2}  E = {}  Nest = {{1}, {2, "a"}}  T = {<<1, 2>>}""")
    got = {e.name: e.parsed for e in cfg.constants}
    assert got == {
        "N": 3, "Neg": -2, "S": 'x"y\\z\n', "B": True, "C": False,
        "P": CfgModelValue("p1"), "Ps": SetValue((CfgModelValue("p1"), CfgModelValue("p2"))),
        "E": SetValue(()), "Nest": SetValue((SetValue((1,)), SetValue((2, "a")))),
        "T": SetValue((TupleValue((1, 2)),)),
    }
    assert type(got["B"]) is bool and type(got["N"]) is int
    values = {e.name: e.value for e in cfg.constants}
    assert values["Ps"] == "{p1, p2}" and values["S"] == '"x\\"y\\\\z\\n"' and values["Neg"] == "-2"
    assert cfg.model_values() == ("p1", "p2")
    assert roundtrip(cfg) == cfg


def test_substitutions_and_module_qualifiers() -> None:
    cfg = parse_cfg("""CONSTANTS Nat <- MCNat  Op <- [Inner] MyOp  K = [Inner] 3
                       I!J!C = 5  F(1, p) = {q}  + <- MyPlus  \\prec <- MyPrec""")
    entries = cfg.constants
    assert [(e.name, e.op, e.value, e.module) for e in entries] == [
        ("Nat", "<-", "MCNat", None), ("Op", "<-", "MyOp", "Inner"),
        ("K", "=", "3", "Inner"), ("I!J!C", "=", "5", None), ("F", "=", "{q}", None),
        ("+", "<-", "MyPlus", None), ("\\prec", "<-", "MyPrec", None)]
    assert entries[0].parsed is None
    assert entries[4].params == (1, CfgModelValue("p"))
    assert render_cfg(cfg).splitlines()[1:5] == [
        "    Nat <- MCNat", "    Op <- [Inner] MyOp", "    K = [Inner] 3", "    I!J!C = 5"]
    assert cfg.referenced_names() == ("Nat", "MCNat", "Op", "MyOp", "K", "I", "J", "C", "F",
                                      "MyPlus", "MyPrec")
    assert cfg.model_values() == ("p", "q")
    assert cfg.module_names() == ("Inner",)
    assert roundtrip(cfg) == cfg


def test_model_values_versus_names() -> None:
    cfg = parse_cfg("CONSTANTS Proc = {p1, p2} Done = Done Nat <- MCNat\nSYMMETRY Perms INIT Init")
    assert cfg.model_values() == ("p1", "p2", "Done")
    assert cfg.referenced_names() == ("Proc", "Done", "Nat", "MCNat", "Perms", "Init")


def test_constant_entry_normalizes_and_validates() -> None:
    e = ConstantEntry("P", "=", "{ p1 ,p2 }")
    assert e.value == "{p1, p2}" and e.parsed == SetValue((CfgModelValue("p1"), CfgModelValue("p2")))
    assert e == ConstantEntry("P", "=", "{p1, p2}")
    with pytest.raises(CfgError):
        ConstantEntry("N", "=", "1..3")
    with pytest.raises(CfgError):
        ConstantEntry("N", "<-", "{a}")
    with pytest.raises(CfgError):
        ConstantEntry("F", "<-", "G", params=(1,))
    with pytest.raises(CfgError):
        ConstantEntry("bad name", "=", "1")


def test_value_helpers() -> None:
    assert parse_value(' { -1, "s", <<>> , TRUE } ') == SetValue((-1, "s", TupleValue(()), True))
    assert render_value(SetValue((-1, "s", TupleValue(()), True))) == '{-1, "s", <<>>, TRUE}'
    with pytest.raises(CfgError, match="unexpected"):
        parse_value("1 2")
    with pytest.raises(CfgError):
        CfgModelValue("TRUE")


# --- errors -------------------------------------------------------------------------

@pytest.mark.parametrize("text,message", [
    ("INIT Init\nFOO Bar", r"^line 2: unknown keyword 'FOO'$"),
    ("init Init", r"^line 1: unknown keyword 'init'$"),
    ("INIT I\n\n= 3", r"^line 3: expected a keyword, found '='$"),
    ("INIT a\nINIT b", r"^line 2: INIT given twice \(first on line 1\)$"),
    ("CHECK_DEADLOCK TRUE CHECK_DEADLOCK FALSE", r"^line 1: CHECK_DEADLOCK given twice"),
    ("INIT\nNEXT Next", r"^line 1: INIT needs a name, found keyword 'NEXT'$"),
    ("NEXT", r"^line 1: NEXT needs a name, found end of input$"),
    ("CONSTANTS\n N 3", r"^line 2: expected '=' or '<-' after N, found '3'$"),
    ("CONSTANTS\n N = 1..3", r"^line 2: unexpected '\.\.'; cfg values are literals"),
    ("CONSTANTS N =", r"^line 1: expected a value, found end of input$"),
    ("CONSTANTS N = {1, 2", r"^line 1: expected '}', found end of input$"),
    ("CONSTANTS N = {1 2}", r"^line 1: expected ',' or '}', found '2'$"),
    ("CONSTANTS N = - x", r"^line 1: expected a number after '-', found 'x'$"),
    ("CONSTANTS N <- 3", r"^line 1: expected a definition name after N <-, found '3'$"),
    ("CONSTANTS N <- [M MyN", r"^line 1: expected '\]', found 'MyN'$"),
    ('CONSTANTS S = "abc\nINIT I', r"^line 1: unterminated string$"),
    ('CONSTANTS S = "a\\qb"', r"^line 1: bad escape '\\q' in string$"),
    ("INVARIANT Inv\n\n  ok§", r"^line 3: bad token '§'$"),
    ("INVARIANT Inv /\\ Other", r"^line 1: expected a name after INVARIANT, found '/\\\\'$"),
])
def test_errors_name_line_and_token(text: str, message: str) -> None:
    with pytest.raises(CfgError, match=message) as info:
        parse_cfg(text)
    assert "\n" not in str(info.value)
    assert isinstance(info.value, ValueError) and info.value.line is not None


# --- renaming and derived cfgs ------------------------------------------------------

SAMPLE = """CONSTANTS Proc = {p1, p2} N = 3 Nat <- [M] MCNat I!C = p1
INIT Init NEXT Next INVARIANTS TypeOK Safe PROPERTY Live
CONSTRAINT Bound ACTION_CONSTRAINT Mono SYMMETRY Perms VIEW V ALIAS A POSTCONDITION Post"""


def test_with_names_renames_names_but_not_model_values_by_default() -> None:
    cfg = parse_cfg(SAMPLE)
    mapping = {n: n.lower() + "_r" for n in (*cfg.referenced_names(), "p1", "M")}
    out = cfg.with_names(mapping)
    assert out.referenced_names() == tuple(mapping[n] for n in cfg.referenced_names())
    assert out.model_values() == ("p1", "p2")
    assert out.module_names() == ("M",)
    assert out.constants[3].name == "i_r!c_r"
    both = cfg.with_names(mapping, model_values=True, modules=True)
    assert both.model_values() == ("p1_r", "p2")
    assert both.module_names() == ("m_r",)
    assert both.constants[0].value == "{p1_r, p2}"
    assert both.constants[3].value == "p1_r"
    inverse = {v: k for k, v in mapping.items()}
    assert both.with_names(inverse, model_values=True, modules=True) == cfg
    assert cfg.with_names({}) == cfg


def test_with_names_rejects_bad_identifiers() -> None:
    with pytest.raises(CfgError):
        parse_cfg("INIT Init").with_names({"Init": "not an ident"})
    with pytest.raises(CfgError):
        parse_cfg("INIT Init").with_names({"Init": "NEXT"})  # a keyword would end the section


def test_behaviour_helpers() -> None:
    cfg = parse_cfg(SAMPLE)
    spec = cfg.with_specification("Spec")
    assert (spec.init, spec.next, spec.specification) == (None, None, "Spec")
    back = spec.with_init_next("I2", "N2")
    assert (back.init, back.next, back.specification) == ("I2", "N2", None)
    moved = cfg.with_single("INIT", "Init2")
    assert moved.init == "Init2" and moved.sections.index(NamesSection("INIT", ("Init2",))) == 1
    assert cfg.with_single("VIEW", None).view is None
    with pytest.raises(CfgError):
        cfg.with_single("INVARIANT", "X")


def test_list_and_flag_helpers() -> None:
    cfg = parse_cfg(SAMPLE)
    bare = cfg.without("INVARIANT", "PROPERTIES")
    assert bare.invariants == () and bare.properties == ()
    assert bare.with_added("PROPERTY", "L1", "L2").properties == ("L1", "L2")
    assert cfg.with_added("INVARIANT", "Extra").invariants == ("TypeOK", "Safe", "Extra")
    assert cfg.with_check_deadlock(False).check_deadlock is False
    assert cfg.with_check_deadlock(False).with_check_deadlock(True).check_deadlock is True
    assert cfg.with_check_deadlock(False).with_check_deadlock(None) == cfg
    with pytest.raises(CfgError):
        cfg.with_added("INIT", "X")
    with pytest.raises(CfgError, match="unknown keyword 'NOPE'"):
        cfg.without("NOPE")


def test_with_constant() -> None:
    cfg = parse_cfg(SAMPLE)
    out = cfg.with_constant(ConstantEntry("N", "=", "5"))
    assert [(e.name, e.value) for e in out.constants][:2] == [("Proc", "{p1, p2}"), ("N", "5")]
    added = cfg.with_constant(ConstantEntry("Max", "<-", "MCMax"))
    assert added.constants[-1] == ConstantEntry("Max", "<-", "MCMax")
    fresh = Cfg().with_constant(ConstantEntry("N", "=", "1"))
    assert fresh.sections == (ConstantsSection((ConstantEntry("N", "=", "1"),)),)


def test_cfg_rejects_duplicate_single_sections() -> None:
    with pytest.raises(CfgError):
        Cfg((NamesSection("INIT", ("A",)), NamesSection("INIT", ("B",))))
    with pytest.raises(CfgError):
        Cfg((CheckDeadlockSection(True), CheckDeadlockSection(False)))
    with pytest.raises(CfgError):
        NamesSection("INIT", ("A", "B"))


# --- old TLC ----------------------------------------------------------------------

def test_keyword_sets() -> None:
    assert KEYWORDS_TLC_2_15 <= ALL_KEYWORDS and KEYWORDS_TLC_MODERN <= ALL_KEYWORDS
    for kw in ("CHECK_DEADLOCK", "ALIAS", "POSTCONDITION", "_PERIODIC"):
        assert kw not in KEYWORDS_TLC_2_15 and kw in KEYWORDS_TLC_MODERN
    for kw in ("ACTION_CONSTRAINT", "ACTION_CONSTRAINTS", "VIEW", "SYMMETRY", "PROPERTIES"):
        assert kw in KEYWORDS_TLC_2_15


def test_adapt_check_deadlock() -> None:
    off = parse_cfg("INIT I NEXT N CHECK_DEADLOCK FALSE INVARIANT Inv")
    out, flags = adapt_for_tlc(off, KEYWORDS_TLC_2_15)
    assert flags == ["-deadlock"]
    assert out == parse_cfg("INIT I NEXT N INVARIANT Inv")
    on, flags = adapt_for_tlc(parse_cfg("INIT I CHECK_DEADLOCK TRUE"), KEYWORDS_TLC_2_15)
    assert (on, flags) == (parse_cfg("INIT I"), [])
    assert adapt_for_tlc(off, KEYWORDS_TLC_MODERN) == (off, [])


@pytest.mark.parametrize("keyword", ["ALIAS", "POSTCONDITION", "_PERIODIC"])
def test_adapt_rejects_untranslatable(keyword: str) -> None:
    with pytest.raises(CfgError, match=f"{keyword}.*ALIAS_TLA2TOOLS"):
        adapt_for_tlc(parse_cfg(f"INIT I NEXT N {keyword} X"), KEYWORDS_TLC_2_15)


def test_adapt_respells_and_reports_legacy() -> None:
    cfg = parse_cfg("INVARIANTS A B")
    out, flags = adapt_for_tlc(cfg, {"INVARIANT"})
    assert out.sections == (NamesSection("INVARIANT", ("A", "B")),) and flags == []
    with pytest.raises(CfgError, match="obsolete"):
        adapt_for_tlc(parse_cfg("TYPE T"), KEYWORDS_TLC_MODERN)


# --- round trip -----------------------------------------------------------------------

def test_corpus_cfgs_parse_and_roundtrip() -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"corpus not present at {CORPUS}")
    paths = sorted(CORPUS.rglob("*.cfg"))
    assert paths
    for path in paths:
        cfg = parse_cfg(path.read_text(encoding="utf-8"))
        assert roundtrip(cfg) == cfg, path


_idents = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,5}", fullmatch=True).filter(
    lambda s: s not in ALL_KEYWORDS and s not in ("TRUE", "FALSE"))
_values = st.recursive(
    st.booleans() | st.integers(-10**6, 10**6) | st.text(st.characters(codec="utf-8"), max_size=6)
    | _idents.map(CfgModelValue),
    lambda inner: (st.lists(inner, max_size=3).map(lambda xs: SetValue(tuple(xs)))
                   | st.lists(inner, max_size=3).map(lambda xs: TupleValue(tuple(xs)))),
    max_leaves=6)
_modules = st.none() | _idents
_entries = st.one_of(
    st.builds(lambda n, v, ps, m: ConstantEntry(n, "=", render_value(v), tuple(ps), m),
              st.lists(_idents, min_size=1, max_size=3).map("!".join), _values,
              st.lists(_values, max_size=2), _modules),
    st.builds(lambda n, d, m: ConstantEntry(n, "<-", d, (), m),
              _idents | st.sampled_from(["+", "\\oplus", "..", "-"]), _idents, _modules),
)
_list_keywords = ["INVARIANT", "INVARIANTS", "PROPERTY", "PROPERTIES", "CONSTRAINT",
                  "CONSTRAINTS", "ACTION_CONSTRAINT", "ACTION_CONSTRAINTS"]
_single_keywords = ["INIT", "NEXT", "SPECIFICATION", "SYMMETRY", "VIEW", "ALIAS",
                    "POSTCONDITION", "_PERIODIC", "TYPE", "TYPE_CONSTRAINT"]
_sections = st.one_of(
    st.builds(lambda es, kw: ConstantsSection(tuple(es), kw),
              st.lists(_entries, max_size=3), st.sampled_from(["CONSTANT", "CONSTANTS"])),
    st.builds(lambda kw, ns: NamesSection(kw, tuple(ns)),
              st.sampled_from(_list_keywords), st.lists(_idents, max_size=3)),
    st.builds(lambda kw, n: NamesSection(kw, (n,)), st.sampled_from(_single_keywords), _idents),
    st.builds(CheckDeadlockSection, st.booleans()),
)


@st.composite
def _cfgs(draw: st.DrawFn) -> Cfg:
    kept, seen = [], set()
    for s in draw(st.lists(_sections, max_size=8)):
        once = s.kind != "CONSTANT" and (s.kind == "CHECK_DEADLOCK" or isinstance(s, NamesSection)
                                         and s.keyword in _single_keywords)
        if once and s.kind in seen:
            continue
        seen.add(s.kind)
        kept.append(s)
    return Cfg(tuple(kept))


_separators = st.sampled_from([" ", "\n", "\n\n\t", " (* c (* n *) \n *) ", " \\* note\n"])


@settings(max_examples=100, deadline=None)
@given(_cfgs())
def test_render_parse_roundtrip(cfg: Cfg) -> None:
    text = render_cfg(cfg)
    assert parse_cfg(text) == cfg
    assert render_cfg(parse_cfg(text)) == text


@settings(max_examples=60, deadline=None)
@given(_cfgs(), st.data())
def test_roundtrip_with_other_layouts_and_comments(cfg: Cfg, data: st.DataObject) -> None:
    # Re-lay the canonical text: every line break becomes a space, blank lines or comments.
    lines = render_cfg(cfg).split("\n")
    text = lines[0]
    for line in lines[1:]:
        text += data.draw(_separators) + line
    parsed = parse_cfg(text)
    assert parsed == cfg
    assert parse_cfg(render_cfg(parsed)) == parsed
