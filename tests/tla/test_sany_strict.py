"""Strict SANY: exit 0 is not enough."""

from __future__ import annotations

from pytest_alias.tla.sany import parse_sany_output
from specs import module


def test_clean_module_parses(tools) -> None:
    result = tools.sany(module("Fine", "EXTENDS Naturals\nVARIABLE x\nInit == x = 0"))
    assert result.ok and result.lenient_ok and result.errors == ()


def test_undefined_operator_fails_although_sany_exits_0(tools) -> None:
    result = tools.sany(module("Undef", "VARIABLE x\nInit == x = Foo(1)"))
    assert result.exit_code == 0 and result.lenient_ok
    assert not result.ok
    [error] = result.errors
    assert (error.kind, error.line, error.column, error.module) == ("semantic", 3, 13, "Undef")
    assert "Foo" in error.message


def test_parse_error_has_location(tools) -> None:
    result = tools.sany(module("Broken", "VARIABLE x\nInit == x =\nNext == x' = x"))
    assert not result.ok and not result.lenient_ok
    assert result.errors[0].kind == "parse"
    assert result.errors[0].line in (3, 4) and result.errors[0].column is not None


def test_lexical_error(tools) -> None:
    result = tools.sany(module("Lex", 'VARIABLE x\nInit == x = "abc'))
    assert not result.ok
    assert result.errors[0].kind == "lexical" and result.errors[0].line == 3


def test_missing_import_is_fatal(tools) -> None:
    result = tools.sany(module("Imp", "EXTENDS Naturals, NoSuchModule\nVARIABLE x"))
    assert not result.ok
    assert any("NoSuchModule" in error.message for error in result.errors)


def test_duplicate_definition_fails(tools) -> None:
    result = tools.sany(module("Dup", "VARIABLE x\nInit == x = 1\nInit == x = 2"))
    assert result.exit_code == 0 and not result.ok


def test_output_without_semantic_processing_is_not_ok() -> None:
    ok, errors = parse_sany_output("Parsing file M.tla\n", 0, "M")
    assert not ok and errors[0].kind == "fatal"


def test_warnings_are_not_errors() -> None:
    output = (
        "Parsing file M.tla\nSemantic processing of module M\n\n*** Warnings: 1\n\n"
        "line 3, col 1 to line 3, col 5 of module M\n\nMultiple declarations.\n\n"
    )
    ok, errors = parse_sany_output(output, 0, "M")
    assert ok and errors == ()
