"""Where a generated module ends (no torch needed)."""

from __future__ import annotations

from pytest_alias.models.local_stop import cut_text, first_stop, module_end

MODULE = "---- MODULE Clock ----\nVARIABLE hr\n====\n"


def test_module_end_needs_a_header_first() -> None:
    assert module_end("====\n") is None
    assert module_end("Here it is:\n" + MODULE + "trailing prose") == len("Here it is:\n" + MODULE)
    assert module_end("---- MODULE A ----\nx == 1\n=====") == len("---- MODULE A ----\nx == 1\n=====")
    assert module_end("---- MODULE A ----\nx == 1\n===") is None  # three = is not a closing line yet
    assert module_end("---- MODULE A ----\nInit == x = 1 ==== no\n") is None  # not at line start


def test_nested_module_does_not_stop_generation() -> None:
    outer = "---- MODULE Outer ----\n---- MODULE Inner ----\nI == 1\n====\nO == 2\n====\nmore"
    assert module_end(outer) == outer.index("more")
    assert module_end(outer[:outer.index("O ==")]) is None


def test_cut_text_keeps_the_closing_line_and_drops_stop_strings() -> None:
    assert cut_text(MODULE + "```\nexplanation") == (MODULE, True)
    assert cut_text("---- MODULE A ----\n```\n", stops=("```",)) == ("---- MODULE A ----\n", True)
    assert cut_text("no module here") == ("no module here", False)
    assert first_stop("abcabc", ("c", "b", "")) == 1 and first_stop("abc", ()) is None
