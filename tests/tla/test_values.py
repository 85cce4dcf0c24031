"""Tests for pytest_alias.tla.values: TLC value syntax to Python and back."""

from __future__ import annotations

import copy
import pickle
import re
from pathlib import Path

import pytest

from pytest_alias.tla.values import (
    FALSE,
    TRUE,
    Bool,
    Function,
    ModelValue,
    RecordValue,
    Value,
    ValueParseError,
    format_value,
    make_function,
    parse_state,
    parse_value,
    sort_key,
)

FIXTURES = Path(__file__).parent / "fixtures"
p1, p2 = ModelValue("p1"), ModelValue("p2")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3", 3),
        ("-2", -2),
        ("0", 0),
        ('"a\\"b"', 'a"b'),
        ('"tab\\there\\nnl\\\\ \\r\\f"', "tab\there\nnl\\ \r\f"),
        ('""', ""),
        ("TRUE", TRUE),
        ("FALSE", FALSE),
        ("p1", p1),
        ("{1, 2}", frozenset({1, 2})),
        ("{}", frozenset()),
        ("1..3", frozenset({1, 2, 3})),
        ("-2..-1", frozenset({-2, -1})),
        ("2..1", frozenset()),
        ('<<"a", 1>>', ("a", 1)),
        ("<<>>", ()),
        ("<< >>", ()),  # TLC prints the empty function like this
        ('[a |-> 1, b |-> "x"]', RecordValue({"a": 1, "b": "x"})),
        ("(p1 :> 1 @@ p2 :> 2)", Function({p1: 1, p2: 2})),
        ("(p1 :> 1)", Function({p1: 1})),
    ],
)
def test_parse_scalars_and_containers(text: str, expected: object) -> None:
    assert parse_value(text) == expected


def test_strings_may_contain_syntax() -> None:
    text = '<<"a, b", "}{", "@@ :> |->", "<<>>", "/\\\\ x = 1", "\\"">>'
    assert parse_value(text) == ("a, b", "}{", "@@ :> |->", "<<>>", "/\\ x = 1", '"')


def test_nested() -> None:
    text = '[log |-> <<[who |-> p1, what |-> {"a", "b"}]>>, f |-> (p1 :> {<<>>, <<1>>} @@ p2 :> {})]'
    value = parse_value(text)
    assert isinstance(value, RecordValue)
    assert value["log"] == (RecordValue({"who": p1, "what": frozenset({"a", "b"})}),)
    assert value["f"] == Function({p1: frozenset({(), (1,)}), p2: frozenset()})


def test_functions_are_normalized_like_tla() -> None:
    # Records and sequences are functions in TLA+; one representation each.
    assert parse_value('(1 :> "a" @@ 2 :> "b")') == ("a", "b")
    assert parse_value('(2 :> "b" @@ 1 :> "a")') == ("a", "b")
    assert parse_value('("a" :> 1 @@ "b" :> 2)') == parse_value("[b |-> 2, a |-> 1]")
    assert parse_value('("a b" :> 1 @@ "" :> 2)') == RecordValue({"a b": 1, "": 2})
    assert parse_value("(1 :> 1 @@ 3 :> 3)") == Function({1: 1, 3: 3})
    assert parse_value("(0 :> 0 @@ 1 :> 1)") == Function({0: 0, 1: 1})
    assert make_function({}) == ()
    assert make_function([(TRUE, 1)]) == Function({TRUE: 1})
    with pytest.raises(ValueError):
        Function({1: "a", 2: "b"})  # a sequence
    with pytest.raises(ValueError):
        Function({"a": 1})  # a record
    with pytest.raises(ValueError):
        RecordValue({})


def test_true_and_one_stay_distinct() -> None:
    assert TRUE != 1 and FALSE != 0
    assert parse_value("{TRUE, 1}") == frozenset({TRUE, 1})
    assert len(parse_value("{TRUE, 1, FALSE, 0}")) == 4  # type: ignore[arg-type]
    f = parse_value("(TRUE :> 1 @@ 1 :> TRUE)")
    assert isinstance(f, Function) and len(f) == 2
    assert f[TRUE] == 1 and f[1] == TRUE
    assert parse_value("<<TRUE>>") != parse_value("<<1>>")
    assert hash(TRUE) != hash(1)
    assert bool(TRUE) and not bool(FALSE)
    assert ModelValue("p1") != "p1" and parse_value('"p1"') == "p1"


def test_python_bool_is_rejected() -> None:
    with pytest.raises(TypeError):
        format_value(True)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        sort_key(frozenset({True}))
    with pytest.raises(TypeError):
        RecordValue({"a": True})  # type: ignore[dict-item]
    with pytest.raises(TypeError):
        Bool(1)  # type: ignore[arg-type]


ROUND_TRIP: list[Value] = [
    0,
    -7,
    "",
    'quote " backslash \\ newline \n tab \t',
    TRUE,
    FALSE,
    p1,
    frozenset(),
    frozenset({1, TRUE, "1", p1}),
    (),
    (1, (2, ()), frozenset({()})),
    RecordValue({"a": 1, "bb": frozenset({"x", "y"})}),
    RecordValue({"a b": 1, "": 2, "TRUE": 3}),
    RecordValue({"TRUE": 1, "1a": 2, "_": 3}),
    RecordValue({"TRUE": TRUE, "x_1": ModelValue("a1")}),
    Function({p1: ('a"b, @@ :> ]', 1), p2: ('a"b, @@ :> ]', 1)}),
    Function({frozenset({1}): RecordValue({"x": -1}), 2: TRUE}),
    frozenset({RecordValue({"a": 1}), RecordValue({"b": 1}), (1,), frozenset()}),
]


@pytest.mark.parametrize("value", ROUND_TRIP, ids=lambda v: format_value(v)[:30])
def test_round_trip(value: Value) -> None:
    text = format_value(value)
    assert parse_value(text) == value
    assert format_value(parse_value(text)) == text  # canonical: one text per value


def test_format_is_canonical_and_tlc_like() -> None:
    assert format_value(parse_value("{3, 1, 2}")) == "{1, 2, 3}"
    assert format_value(parse_value("1..3")) == "{1, 2, 3}"
    assert format_value(parse_value("[b |-> 1, a |-> TRUE]")) == "[a |-> TRUE, b |-> 1]"
    assert format_value(RecordValue({"a b": 1})) == '("a b" :> 1)'
    assert format_value(Function({p2: 1, p1: 2})) == "(p1 :> 2 @@ p2 :> 1)"
    assert format_value(("x", -1)) == '<<"x", -1>>'


def test_sort_key_total_order_consistent_with_eq() -> None:
    values: list[Value] = [parse_value(format_value(v)) for v in ROUND_TRIP] + [1, 2, "a", "b", (1,), (1, 1)]
    ordered = sorted(values, key=sort_key)
    assert sorted(reversed(ordered), key=sort_key) == ordered
    for a in values:
        for b in values:
            assert (sort_key(a) == sort_key(b)) == (a == b)
            if a == b:
                assert hash(a) == hash(b)
    # kinds: booleans < integers < strings < model values < sequences < records < functions < sets
    kinds: list[Value] = [FALSE, TRUE, -1, 5, "", "z", p1, (), (1,), RecordValue({"a": 1}), Function({p1: 1}), frozenset()]
    assert sorted(reversed(kinds), key=sort_key) == kinds


def test_rich_comparison_on_own_types() -> None:
    # Only this module's classes get sort_key order; int/str/tuple keep Python's.
    assert FALSE < TRUE < 0  # type: ignore[operator]
    assert "a" < p1 and 5 < p1 and p1 < (1,)  # type: ignore[operator]
    assert p1 < p2 and p2 > p1
    assert RecordValue({"a": 1}) < RecordValue({"a": 2}) <= RecordValue({"a": 2})
    assert sorted([p2, TRUE, p1]) == [TRUE, p1, p2]  # type: ignore[type-var]


def test_equal_values_hash_equal_regardless_of_construction_order() -> None:
    a = parse_value("(p2 :> {2, 1} @@ p1 :> [y |-> 1, x |-> 2])")
    b = make_function([(p1, RecordValue([("x", 2), ("y", 1)])), (p2, frozenset({1, 2}))])
    assert a == b and hash(a) == hash(b)
    assert {a: "found"}[b] == "found"


def test_pickle_and_copy() -> None:
    for value in ROUND_TRIP:
        assert pickle.loads(pickle.dumps(value)) == value
        assert copy.deepcopy(value) == value


def test_immutable() -> None:
    r = RecordValue({"a": 1})
    with pytest.raises(AttributeError):
        r._items = ()  # type: ignore[misc]
    with pytest.raises(TypeError):
        r["a"] = 2  # type: ignore[index]
    with pytest.raises(AttributeError):
        p1.name = "p2"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("{1, 2", 1, 6),
        ('<<"abc', 1, 3),
        ("[a |-> 1, a |-> 2]", 1, 1),
        ("(1 :> 2 @@ 1 :> 3)", 1, 1),
        ("1 2", 1, 3),
        ("<<1>", 1, 4),
        ("{1,\n  ?}", 2, 3),
        ('"\\q"', 1, 2),
        ("", 1, 1),
        ("[]", 1, 1),
        ("()", 1, 1),
        ("1..x", 1, 4),
        ("_", 1, 1),
    ],
)
def test_parse_errors_have_positions(text: str, line: int, column: int) -> None:
    with pytest.raises(ValueParseError) as info:
        parse_value(text)
    assert (info.value.line, info.value.column) == (line, column)
    assert isinstance(info.value, ValueError)
    assert f"line {line}, column {column}" in str(info.value)


def test_parse_state_forms() -> None:
    assert parse_state("x = 0") == {"x": 0}  # TLC's one-variable form
    assert parse_state("/\\ x = 1\n/\\ y = <<1>>") == {"x": 1, "y": (1,)}
    assert parse_state("") == {}
    wrapped = '/\\ t = << [n |-> {1, 2}],\n   [n |-> {2, 3}] >>\n/\\ s = { "a",\n  "b" }'
    assert parse_state(wrapped) == {
        "t": (RecordValue({"n": frozenset({1, 2})}), RecordValue({"n": frozenset({2, 3})})),
        "s": frozenset({"a", "b"}),
    }
    cache: dict = {}
    assert parse_state("/\\ x = 1\n/\\ y = 2", cache=cache) == parse_state("/\\ x = 1\n/\\ y = 2", cache=cache)
    assert len(cache) == 2


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("/\\ x = 1\n/\\ x = 2", 2, 1),
        ("/\\ x = 1\n/\\ y = {", 2, 9),
        ("x = 1 /\\ y = 2", 1, 7),
        ("x 1", 1, 3),
    ],
)
def test_parse_state_errors(text: str, line: int, column: int) -> None:
    with pytest.raises(ValueParseError) as info:
        parse_state(text)
    assert (info.value.line, info.value.column) == (line, column)


def _trace_states(out: str) -> list[dict[str, Value]]:
    """States of the counterexample in TLC ``-tool`` output (message 2217 blocks)."""
    blocks = re.findall(r"@!@!@STARTMSG 2217:\d @!@!@\n(.*?)@!@!@ENDMSG 2217 @!@!@", out, re.S)
    return [parse_state(block.split("\n", 1)[1]) for block in blocks]


def test_counterexample_fixture_kitchen() -> None:
    trace = _trace_states((FIXTURES / "kitchen.out").read_text())
    assert len(trace) == 2
    first, second = trace
    assert set(first) == {"turn", "msg", "seen", "log", "odd", "flag", "table"}
    assert first["turn"] == 2 and second["turn"] == 3
    assert first["flag"] == TRUE and second["flag"] == FALSE
    weird = ('a"b\\c, @@ :> ]|-> \n', -1)
    assert first["msg"] == Function({p1: weird, p2: weird})
    assert first["odd"] == RecordValue({"a b": (), "c": (), "": ()})
    assert first["table"] == tuple(RecordValue({"who": "abcdefghij", "n": frozenset({i, i + 1})}) for i in range(1, 5))
    assert second["log"] == (
        RecordValue({"who": p1, "what": frozenset({"alpha", "beta", "gamma"}), "when": 2, "range": frozenset({-1, 0, 1})}),
    )
    assert second["seen"] == frozenset({2})


def test_counterexample_fixture_one_variable() -> None:
    trace = _trace_states((FIXTURES / "invariant.out").read_text())
    assert trace == [{"x": 0}, {"x": 2}, {"x": 4}]
