"""Extraction of the module to grade from raw model output (no tools needed)."""

from __future__ import annotations

import pytest

from pytest_alias.grading.extract import DEFAULT_MAX_BYTES, extract_module

MODULE = """---- MODULE Clock ----
EXTENDS Naturals
VARIABLE hr
Init == hr = 1
Next == hr' = IF hr = 12 THEN 1 ELSE hr + 1
Spec == Init /\\ [][Next]_hr
===="""

HELPER = """---- MODULE Helpers ----
EXTENDS Naturals
Succ(n) == n + 1
===="""


@pytest.mark.parametrize("fence", ["```tla", "```tlaplus", "```TLA+", "```"])
def test_fenced_module_with_prose_is_extracted(fence: str) -> None:
    output = f"Sure! Here is the spec.\n\n{fence}\n{MODULE}\n```\n\nIt models an hour clock."
    got = extract_module(output)
    assert got.ok and got.failure is None
    assert got.module_name == "Clock"
    assert got.text == MODULE + "\n"
    assert any("fence" in note for note in got.notes)


def test_bare_module_with_prose_around_it() -> None:
    got = extract_module(f"Explanation first.\n{MODULE}\nAnd a remark after the footer.")
    assert got.text == MODULE + "\n"
    assert any("dropped text" in note for note in got.notes)


def test_plain_module_has_no_notes() -> None:
    got = extract_module(MODULE + "\n")
    assert got.text == MODULE + "\n" and got.notes == ()


def test_missing_footer_is_appended() -> None:
    truncated = MODULE.rsplit("====", 1)[0].rstrip()
    got = extract_module(truncated)
    assert got.ok
    assert got.text is not None and got.text.rstrip().endswith("====")
    assert "Spec == Init" in got.text
    assert any("footer" in note for note in got.notes)


def test_missing_footer_inside_a_fence_stops_at_the_fence() -> None:
    truncated = MODULE.rsplit("====", 1)[0].rstrip()
    got = extract_module(f"```tla\n{truncated}\n```\nThat is all.")
    assert got.text is not None
    assert "That is all" not in got.text and "```" not in got.text
    assert got.text.rstrip().endswith("====")


def test_crlf_line_endings_are_normalised() -> None:
    got = extract_module("```tla\r\n" + MODULE.replace("\n", "\r\n") + "\r\n```\r\n")
    assert got.text == MODULE + "\n"
    assert "\r" not in got.text
    assert any("CRLF" in note for note in got.notes)


def test_several_modules_choose_the_one_defining_init_next_spec() -> None:
    output = f"First a helper:\n```tla\n{HELPER}\n```\nThen the spec:\n```tla\n{MODULE}\n```"
    got = extract_module(output)
    assert got.module_name == "Clock"
    assert dict(got.others) == {"Helpers": HELPER}
    assert any("2 modules" in note and "Clock" in note for note in got.notes)


def test_several_modules_without_entry_operators_choose_the_first_complete_one() -> None:
    other = HELPER.replace("Helpers", "More")
    truncated = other.replace("====", "")
    got = extract_module(f"{truncated}\n```\n\n{HELPER}\n\n{other}")
    assert got.module_name == "Helpers"
    assert any("first complete" in note for note in got.notes)


def test_a_draft_and_a_revision_of_one_name_grade_the_first() -> None:
    revised = MODULE.replace("hr = 1", "hr \\in 1..12")
    got = extract_module(f"{MODULE}\nOops, fixed:\n{revised}")
    assert got.text == MODULE + "\n"
    assert got.others == ()


@pytest.mark.parametrize("output", [None, "", "   \n\t\n"])
def test_empty_output_fails(output: str | None) -> None:
    got = extract_module(output)
    assert not got.ok and got.text is None and got.module_name is None
    assert got.failure == "output is empty"


def test_huge_output_fails_with_the_limit() -> None:
    huge = MODULE.replace("Spec ==", "\\* " + "x" * DEFAULT_MAX_BYTES + "\nSpec ==")
    got = extract_module(huge)
    assert not got.ok
    assert got.failure is not None and "limit" in got.failure and f"{DEFAULT_MAX_BYTES:,}" in got.failure


def test_size_limit_is_configurable() -> None:
    assert extract_module(MODULE, max_bytes=len(MODULE)).ok
    assert not extract_module(MODULE, max_bytes=len(MODULE) - 1).ok


def test_no_module_header_fails() -> None:
    got = extract_module("```tla\nVARIABLE x\nInit == x = 0\n```")
    assert got.failure is not None and "header" in got.failure


@pytest.mark.parametrize("name", ["../x", "a-b", "x/y", "TRUE", "WF_x"])
def test_module_name_that_is_not_an_identifier_fails(name: str) -> None:
    got = extract_module(MODULE.replace("MODULE Clock", f"MODULE {name}"))
    assert not got.ok
    assert got.failure == f"module name {name!r} is not a TLA+ identifier"


def test_a_module_name_no_file_can_carry_fails_with_its_reason() -> None:
    got = extract_module(MODULE.replace("MODULE Clock", "MODULE " + "M" * 300))
    assert not got.ok and "300 characters long" in (got.failure or "") and "file names stop at" in (got.failure or "")


def test_a_bad_header_beside_a_good_module_is_only_noted() -> None:
    bad = HELPER.replace("Helpers", "../evil")
    got = extract_module(f"{bad}\n\n{MODULE}")
    assert got.module_name == "Clock"
    assert any("'../evil'" in note for note in got.notes)


def test_to_dict_leaves_out_texts() -> None:
    got = extract_module(f"{HELPER}\n{MODULE}")
    assert got.to_dict() == {"module": "Clock", "failure": None, "notes": list(got.notes), "others": ["Helpers"]}
