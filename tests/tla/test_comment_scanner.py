"""The one TLA+ comment scanner (specfiles): strings open no comment, block comments nest, and the
cfg lexer, the suite loaders and the PlusCal locator all close comments through it."""

from __future__ import annotations

import pytest

from pytest_alias.tla.specfiles import block_comment_end, code_text, comment_spans, strip_comments


@pytest.mark.parametrize("text, spans", [
    ('A == "(*" B == "*)"', []),                       # a string pair is no comment
    ('\\* (*\nX == 1', [(0, 5)]),                      # a block opener inside a line comment
    ('M == "\\\\*" N == 2', []),                       # a line-comment opener inside a string
    ("(* a (* nested *) still *) X", [(0, 26)]),
    ("(* never closed", [(0, 15)]),
])
def test_comment_spans_read_strings_and_nesting_as_sany_does(text: str, spans: list[tuple[int, int]]) -> None:
    assert comment_spans(text) == spans


def test_code_survives_what_only_looks_like_a_comment() -> None:
    assert "INSTANCE IOUtils" in code_text('A == "(*"\nINSTANCE IOUtils\nB == "*)"')
    assert strip_comments('Msg == "\\* not a comment"') == 'Msg == "\\* not a comment"'


def test_block_comment_end_on_text_and_bytes() -> None:
    text = "x (* a (* b *) c *) y"
    assert block_comment_end(text, 2) == 19 and text[:19].endswith("*)")
    assert block_comment_end(text.encode(), 2) == 19
    assert block_comment_end("(* open (* twice *)", 0) is None


def test_the_cfg_lexer_uses_it() -> None:
    from pytest_alias.tla.cfg import CfgError, parse_cfg

    cfg = parse_cfg("(* a (* nested *)\n comment *)\nINIT Init\nNEXT Next\n")
    assert cfg.init == "Init" and cfg.next == "Next"
    with pytest.raises(CfgError, match="unterminated"):
        parse_cfg("INIT Init (* (* *)")
