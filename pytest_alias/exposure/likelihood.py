"""``tla-alias likelihood``: how likely a model finds each reference, inside and outside renamed names.

Per task and condition the reference (the condition's main module) is scored after appendix E's
prompt with the condition's description (paper Section 3, "Log-likelihood"; prompt and reference
together cut to their first 2,048 tokens), and three means are kept:

* ``mean``: over every scored reference token;
* ``mean_other``: over the tokens that overlap **no** renamed identifier — keywords, operators and
  structure (Table 2's "Likelihood, other");
* ``mean_renamed``: over the tokens that overlap a renamed identifier (appendix T).

and the membership signals of :mod:`pytest_alias.models.membership`, from the same forward pass:
``min_k`` (Min-K%), ``min_k_plus_plus`` (Min-K%++), both over the lowest ``min_k_ratio`` share of the
tokens (20% unless chosen), and ``zlib_ratio`` (``mean`` / ``zlib_bytes``, the zlib-compressed length
of the scored text). With ``keep_tokens`` a row also keeps every token's log-probability and z-score
(``token_logprobs``, ``token_z``), so other shares can be computed later without a model.
Rows from before these fields simply lack them; readers treat a missing field as no value.

Renamed identifiers are located with the same syntax tree that renaming edits: in a renamed copy
the new names of its map, in the original the old names of the random condition's map (the names
renaming would change). A token overlaps an identifier when they share a character.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from ..cir.rename import identifier_spans
from ..models.membership import DEFAULT_MIN_K, check_ratio, zlib_bytes, zlib_ratio
from ..models.prompts import finetune_prompt
from .data import reference_text

LIKELIHOOD_FORMAT = "alias-likelihood"
#: Rows scored in one forward pass on CPU; a GPU run may raise it.
DEFAULT_BATCH_SIZE = 4


@dataclass(frozen=True)
class ScoringItem:
    """One reference to score: its prompt text, the reference and the renamed-identifier spans."""

    task_id: str
    condition: str
    description: str
    reference: str
    spans: tuple[tuple[int, int], ...] | None  # None: no renaming map to locate identifiers with
    condition_version: str
    seed: int | None


def scoring_items(prepared: Iterable[tuple[Any, Sequence[tuple[Any, str | None]]]], kinds: Sequence[str]
                  ) -> tuple[list[ScoringItem], list[tuple[str, str, str]]]:
    """The items to score for ``kinds`` and ``(task, condition, reason)`` for each one skipped.

    ``prepared`` holds per task its prepared conditions (as ``Settings.prepared_conditions`` gives
    them), which must include the random one: its map locates the renamed names in the original.
    """
    items: list[ScoringItem] = []
    skipped: list[tuple[str, str, str]] = []
    for task, conditions in prepared:
        by_kind = {condition.kind: (condition, reason) for condition, reason in conditions if condition is not None}
        random = by_kind.get("random")
        random_map = random[0].names if random is not None and random[1] is None else None
        for kind in kinds:
            condition, reason = by_kind.get(kind, (None, "condition not prepared"))
            if condition is None or reason is not None:
                skipped.append((task.id, kind, reason or "condition not prepared"))
                continue
            reference = reference_text(condition)
            names = (random_map.keys() if random_map is not None else None) if kind == "original" \
                else condition.names.values()
            spans = tuple(identifier_spans(reference, names)) if names is not None else None
            items.append(ScoringItem(task.id, kind, condition.description, reference, spans,
                                     condition.version, condition.seed))
    return items, skipped


def score_items(model: Any, items: Sequence[ScoringItem], *, spec: str, batch_size: int = DEFAULT_BATCH_SIZE,
                progress: Any = None, min_k: float = DEFAULT_MIN_K,
                keep_tokens: bool = False) -> list[dict[str, Any]]:
    """One row per item (in the items' order), scored ``batch_size`` at a time, shortest first."""
    check_ratio(min_k)
    if batch_size < 1:
        raise ValueError(f"batch size must be at least 1, not {batch_size}")
    order = sorted(range(len(items)), key=lambda i: (len(items[i].description) + len(items[i].reference), i))
    rows: dict[int, dict[str, Any]] = {}
    for start in range(0, len(order), batch_size):
        chunk = order[start:start + batch_size]
        scores = model.score_many([(finetune_prompt(items[i].description), items[i].reference) for i in chunk])
        for index, scored in zip(chunk, scores):
            rows[index] = likelihood_row(items[index], scored, model, spec, min_k=min_k, keep_tokens=keep_tokens)
        if progress is not None:
            progress.update(len(chunk))
    return [rows[i] for i in range(len(items))]


def likelihood_row(item: ScoringItem, scores: Any, model: Any, spec: str, *, min_k: float = DEFAULT_MIN_K,
                   keep_tokens: bool = False) -> dict[str, Any]:
    """The JSON row of one scored reference."""
    spans = item.spans
    tokens = list(scores)
    renamed = scores.count_inside(spans) if spans is not None else None
    last_end = tokens[-1][1] if tokens else 0
    row = {
        "format": LIKELIHOOD_FORMAT, "task": item.task_id, "condition": item.condition, "model": spec,
        "model_identity": getattr(model, "identity", spec), "exposure": getattr(model, "exposure", None),
        "mean": _rounded(scores.mean()),
        "mean_other": _rounded(scores.mean_outside(spans)) if spans is not None else None,
        "mean_renamed": _rounded(scores.mean_inside(spans)) if spans is not None else None,
        "tokens": len(tokens), "tokens_renamed": renamed, "reference_tokens": reference_tokens(model, item.reference),
        "tokens_other": len(tokens) - renamed if renamed is not None else None,
        "renamed_occurrences": len(spans) if spans is not None else None,
        # The 2,048-token limit cut the reference before its end.
        "cut": not tokens or last_end < len(item.reference.rstrip()),
        "seed": item.seed, "versions": {"condition": item.condition_version},
        **membership_fields(scores, item.reference[:last_end], min_k),
    }
    if keep_tokens:
        row["token_logprobs"] = [round(score, 6) for _, _, score in tokens]
        row["token_z"] = None if scores.z_scores is None else [round(z, 6) for z in scores.z_scores]
    return row


def membership_fields(scores: Any, scored_text: str, min_k: float) -> dict[str, Any]:
    """Min-K%, Min-K%++ and the zlib ratio of one scored reference (``scored_text``: the part the
    2,048-token limit left), with the share ``min_k`` they used."""
    mean = scores.mean()
    return {"min_k_ratio": min_k, "min_k": _rounded(scores.min_k(min_k)),
            "min_k_plus_plus": _rounded(scores.min_k_plus_plus(min_k)),
            "zlib_bytes": zlib_bytes(scored_text) if scored_text else None,
            # Six significant digits, not six decimals: the ratio is small (~1e-3).
            "zlib_ratio": None if (ratio := zlib_ratio(mean, scored_text)) is None else float(f"{ratio:.6g}")}


def reference_tokens(model: Any, text: str) -> int | None:
    """The reference's full token count under the model's tokenizer (no 2,048 cap; appendix N), or None."""
    tokenizer = getattr(model, "tokenizer", None)
    if tokenizer is None:
        return None
    return len(tokenizer(text, add_special_tokens=False)["input_ids"])


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 6)


@dataclass(frozen=True)
class LikelihoodRun:
    """What ``run_likelihood`` wrote: the rows and the skipped ``(task, condition, reason)``."""

    rows: list[dict[str, Any]]
    skipped: list[tuple[str, str, str]]
