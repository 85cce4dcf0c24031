"""BLEU-4 and ROUGE-L of outputs against references (paper, Appendix V)."""

from __future__ import annotations

import math

import pytest

from pytest_alias.cir.rename import random_renaming
from pytest_alias.grading.similarity import Similarity, similarity, strip_tla_comments, tla_tokens
from pytest_alias.tasks.suites import load_suite


@pytest.fixture(scope="module")
def barrier():
    return next(t for t in load_suite("builtin") if t.id == "barrier")


def test_tokens_keep_tla_operators_and_case() -> None:
    assert tla_tokens("Next == x' = x + 1 /\\ y \\in 1..N \\/ [][A]_vars") == [
        "Next", "==", "x", "'", "=", "x", "+", "1", "/\\", "y", "\\in", "1", "..", "N", "\\/",
        "[]", "[", "A", "]_", "vars",
    ]
    assert tla_tokens('pc = [p \\in P |-> "to do"]') == ["pc", "=", "[", "p", "\\in", "P", "|->", '"to\u2423do"', "]"]
    assert tla_tokens("next") != tla_tokens("Next")


def test_tokens_survive_a_join_unchanged() -> None:
    # similarity() hands joined tokens to both libraries, so re-tokenizing must be the identity.
    text = 'A ::= B <=> C =< D >>_v <<a, b>> [x |-> "s t"] (+) ---- ==== a.b -1'
    toks = tla_tokens(text)
    assert tla_tokens(" ".join(toks)) == toks


def test_identical_text_scores_full(barrier) -> None:
    ref = barrier.module_map[barrier.main]
    assert similarity(ref, ref) == Similarity(100.0, 100.0)


def test_comments_do_not_matter(barrier) -> None:
    ref = barrier.module_map[barrier.main]
    bare = strip_tla_comments(ref)
    assert "(*" not in bare and "\\*" not in bare
    noisy = ref.replace("Init ==", "\\* a different remark\nInit == (* inline (* nested *) note *)")
    assert similarity(noisy, ref) == Similarity(100.0, 100.0)
    assert similarity(bare, ref) == Similarity(100.0, 100.0)


def test_renamed_copy_scores_lower_but_above_zero(barrier) -> None:
    ref = barrier.module_map[barrier.main]
    renaming = random_renaming(barrier.module_map, barrier.cfg, seed=3)
    renamed = renaming.modules[renaming.main]
    assert renamed != ref
    score = similarity(renamed, ref)
    assert 0.0 < score.bleu4 < 100.0
    assert 0.0 < score.rouge_l < 100.0


def test_hand_computed_small_example() -> None:
    # Tokens: a b c d e vs a b c d f.  n-gram precisions 4/5, 3/4, 2/3, 1/2, no brevity penalty.
    score = similarity("a b c d e", "a b c d f")
    assert math.isclose(score.bleu4, 100 * (4 / 5 * 3 / 4 * 2 / 3 * 1 / 2) ** 0.25, rel_tol=1e-6)
    # LCS 4 of 5 tokens on both sides: P = R = F = 0.8.
    assert math.isclose(score.rouge_l, 80.0, rel_tol=1e-6)


def test_hand_computed_rouge_with_tla_operators() -> None:
    # Output x' = x + 1 (6 tokens) vs reference x' = x + 2 /\ y (8 tokens): LCS = 5.
    score = similarity("x' = x + 1", "x' = x + 2 /\\ y")
    p, r = 5 / 6, 5 / 8
    assert math.isclose(score.rouge_l, 100 * 2 * p * r / (p + r), rel_tol=1e-6)
    # The default rouge tokenizer would drop ' and /\ and lowercase; ours does not: a primed and an
    # unprimed x differ.
    assert similarity("x' = 1", "x = 1").rouge_l < 100.0


def test_empty_output_scores_zero() -> None:
    assert similarity("", "x = 1") == Similarity(0.0, 0.0)
    assert similarity("(* only a comment *)", "x = 1") == Similarity(0.0, 0.0)


def test_rouge_l_matches_the_reference_implementation() -> None:
    """ROUGE-L from rapidfuzz's subsequence equals rouge-score's rougeL with the same tokenizer, on
    every built-in reference against its mutants, its renamed copy and the other references."""
    from rouge_score import rouge_scorer

    from pytest_alias.grading.mutants import generate_mutants
    from pytest_alias.grading.similarity import TlaTokenizer, rouge_l

    scorer = rouge_scorer.RougeScorer(["rougeL"], tokenizer=TlaTokenizer())
    tasks = [t for t in load_suite("builtin")][:8]
    compared = 0
    for task in tasks:
        condition = task.original()
        reference = strip_tla_comments(condition.module_map[condition.main])
        others = [m.output_text() for m in generate_mutants(condition.module_map, condition.main, condition.cfg,
                                                            limit=3)]
        others += [strip_tla_comments(t.original().module_map[t.original().main]) for t in tasks[:3]]
        for other in others:
            ref_tokens, out_tokens = tla_tokens(reference), tla_tokens(strip_tla_comments(other))
            expected = scorer.score(" ".join(ref_tokens), " ".join(out_tokens))["rougeL"].fmeasure
            assert rouge_l(ref_tokens, out_tokens) == pytest.approx(expected, abs=1e-12)
            compared += 1
    assert compared >= 40
