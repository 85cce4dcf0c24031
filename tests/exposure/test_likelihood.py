"""Likelihood scoring: renamed-identifier spans, the three means, and batched scoring equal to one at a time."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_alias.cir.rename import apply_renaming, identifier_spans
from pytest_alias.exposure.likelihood import likelihood_row, scoring_items
from pytest_alias.models.local_likelihood import TokenScores
from pytest_alias.tasks.model import Condition, Task

ORIGINAL = ("---- MODULE Clock ----\nEXTENDS Naturals\nVARIABLE hr\n\\* hr counts hours\n"
            "Init == hr = 1\nNext == hr' = IF hr = 12 THEN 1 ELSE hr + 1\nSpec == Init /\\ [][Next]_hr\n====\n")
MAP = {"Clock": "Qwzyx", "hr": "zq", "Init": "Abcd", "Next": "Efgh", "Spec": "Ijkl"}


def conditions() -> tuple[Task, Condition, Condition]:
    task = Task("clock", "A clock with hours hr.", (("Clock", ORIGINAL),))
    renamed = apply_renaming(task.module_map, None, MAP)
    random = Condition("clock", "random", "A clock with hours zq.", tuple(renamed.modules.items()), None,
                       tuple(renamed.name_map.items()), seed=7)
    return task, task.original(), random


def test_spans_cover_every_renamed_occurrence_and_nothing_else() -> None:
    _, original, random = conditions()
    old_spans = identifier_spans(ORIGINAL, MAP)
    assert [ORIGINAL[a:b] for a, b in old_spans] == ["Clock", "hr", "Init", "hr", "Next", "hr", "hr", "hr",
                                                     "Spec", "Init", "Next", "hr"]
    assert all(ORIGINAL[a:b] != "hr" or ORIGINAL[a - 3:a] != "\\* " for a, b in old_spans)  # not the comment
    text = random.module_map[random.main]
    new_spans = identifier_spans(text, MAP.values())
    assert [text[a:b] for a, b in new_spans] == [MAP.get(ORIGINAL[a:b]) for a, b in old_spans]


def test_the_original_is_split_with_the_random_maps_old_names() -> None:
    task, original, random = conditions()
    items, skipped = scoring_items([(task, [(original, None), (random, None)])], ["original", "random"])
    assert not skipped and [i.condition for i in items] == ["original", "random"]
    assert items[0].spans == tuple(identifier_spans(ORIGINAL, MAP))
    assert items[1].spans == tuple(identifier_spans(random.module_map[random.main], MAP.values()))
    refused, why = scoring_items([(task, [(original, None), (random, "renamed copy not verified: x")])],
                                 ["original", "random"])
    assert refused[0].spans is None and why == [("clock", "random", "renamed copy not verified: x")]


class Scored:
    identity = "tiny|prompt=raw"
    exposure = {"split": "s", "half": "A", "arm": "task-pair"}


def test_other_excludes_every_token_that_touches_a_renamed_identifier() -> None:
    task, original, random = conditions()
    [item], _ = scoring_items([(task, [(original, None), (random, None)])], ["original"])
    start = ORIGINAL.index("VARIABLE hr")
    # Hand-made tokens: "VARIABLE" (-1), " h" (-2, overlaps hr), "r\n" (-3, overlaps hr), "\\*" (-4).
    tokens = ((start, start + 8, -1.0), (start + 8, start + 10, -2.0), (start + 10, start + 12, -3.0),
              (start + 12, start + 14, -4.0))
    row = likelihood_row(item, TokenScores(tokens), Scored(), "hf:tiny?lora=a")
    assert row["mean"] == pytest.approx(-2.5)
    assert row["mean_other"] == pytest.approx(-2.5)  # (-1 + -4) / 2
    assert row["mean_renamed"] == pytest.approx(-2.5)  # (-2 + -3) / 2
    assert (row["tokens"], row["tokens_renamed"], row["tokens_other"]) == (4, 2, 2)
    assert row["exposure"]["half"] == "A" and row["model"] == "hf:tiny?lora=a" and row["cut"]
    assert row["versions"]["condition"] == original.version


def test_batched_scores_equal_scores_one_at_a_time(tokenizer: Any) -> None:
    torch = pytest.importorskip("torch")
    from transformers import LlamaConfig, LlamaForCausalLM

    from pytest_alias.models.local_likelihood import score_batch, score_continuation

    torch.manual_seed(0)
    model = LlamaForCausalLM(LlamaConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64,
                                         num_hidden_layers=2, num_attention_heads=2, num_key_value_heads=2)).eval()
    pairs = [("Write a clock.\n", ORIGINAL), ("Short.\n", "VARIABLE x\n"), ("A longer prompt here.\n", ORIGINAL * 2)]
    batched = score_batch(model, tokenizer, pairs)
    for (prompt, text), scores in zip(pairs, batched):
        alone = score_continuation(model, tokenizer, prompt, text)
        assert [(a, b) for a, b, _ in scores] == [(a, b) for a, b, _ in alone]
        assert [s for _, _, s in scores] == pytest.approx([s for _, _, s in alone], abs=1e-4)


def test_rows_carry_the_membership_signals_and_their_share() -> None:
    import zlib

    task, original, random = conditions()
    [item], _ = scoring_items([(task, [(original, None), (random, None)])], ["original"])
    tokens = tuple((i, i + 1, score) for i, score in enumerate([-0.5, -4.0, -1.0, -0.2, -2.0]))
    scores = TokenScores(tokens, (0.3, -2.5, -0.4, 1.0, -1.5))
    row = likelihood_row(item, scores, Scored(), "hf:tiny", min_k=0.4)  # floor(0.4 · 5) = 2 tokens
    assert row["min_k_ratio"] == 0.4
    assert row["min_k"] == pytest.approx((-4.0 - 2.0) / 2)
    assert row["min_k_plus_plus"] == pytest.approx((-2.5 - 1.5) / 2)
    scored_text = ORIGINAL[:5]  # the five one-character tokens: the 2,048-token limit cut the rest
    assert row["zlib_bytes"] == len(zlib.compress(scored_text.encode()))
    assert row["zlib_ratio"] == pytest.approx(-7.7 / 5 / row["zlib_bytes"], rel=1e-5)
    assert "token_logprobs" not in row
    kept = likelihood_row(item, scores, Scored(), "hf:tiny", keep_tokens=True)
    assert kept["min_k_ratio"] == 0.2 and kept["min_k"] == pytest.approx(-4.0)
    assert kept["token_logprobs"] == [-0.5, -4.0, -1.0, -0.2, -2.0] and kept["token_z"][1] == -2.5
    bare = likelihood_row(item, TokenScores(tokens), Scored(), "hf:tiny")
    assert bare["min_k_plus_plus"] is None and bare["min_k"] == pytest.approx(-4.0)


def test_a_min_k_share_outside_0_to_1_is_one_line(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from pytest_alias.cli import main
    from pytest_alias.run.likelihood import run_likelihood

    with pytest.raises(SystemExit) as stopped:
        main(["likelihood", "--model", "smollm2", "--min-k", "0", "--out", str(tmp_path / "x.jsonl")])
    assert stopped.value.code == 2 and "--min-k: must lie in (0, 1], not '0'" in capsys.readouterr().err
    with pytest.raises(ValueError, match="Min-K% share must lie in"):  # checked before any model loads
        run_likelihood("no-such-model", "builtin", tmp_path / "x.jsonl", min_k=1.5)
    assert not (tmp_path / "x.jsonl").exists()
