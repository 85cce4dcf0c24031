"""Appendix N's token lengths: how many tokens the reference specification has in each condition.

A random name such as ``Bvwcdylhaazalut`` splits into many short tokens, so a renamed reference is
longer (the paper: 1,630 tokens on average against 1,457 for the original), and a renamed output is
more likely to reach the token limit. The likelihood rows carry each reference's full token count
under the scoring model's tokenizer (``reference_tokens``, uncapped); this module averages them per
model family and condition, over the tasks that have a count in every condition of the family, so the
conditions compare the same tasks.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Iterable, Mapping


def reference_lengths(rows: Iterable[Mapping[str, Any]], family_of: Mapping[str, str] | None = None
                      ) -> list[dict[str, Any]]:
    """Per family (``family_of[model]``, else the model itself) and condition: the mean reference token
    count over the tasks counted in every condition of that family, with n; rows without a count are skipped."""
    family_of = family_of or {}
    counts: dict[str, dict[str, dict[str, int]]] = defaultdict(lambda: defaultdict(dict))
    for row in rows:
        tokens = row.get("reference_tokens")
        if not isinstance(tokens, int):
            continue
        model = str(row.get("model"))
        family = family_of.get(model, model)
        # Every model of a family shares its tokenizer: a task's count is the same whichever scored it.
        counts[family][str(row["condition"])][str(row["task"])] = tokens
    out = []
    for family, by_condition in sorted(counts.items()):
        shared = set.intersection(*(set(tasks) for tasks in by_condition.values()))
        for condition, tasks in sorted(by_condition.items(), key=lambda item: (item[0] != "original", item[0])):
            if shared:
                out.append({"family": family, "condition": condition, "tasks": len(shared),
                            "mean_tokens": sum(tasks[t] for t in shared) / len(shared)})
    return out


def length_lines(lengths: list[dict[str, Any]]) -> list[str]:
    """A Markdown table of the lengths (empty without any)."""
    if not lengths:
        return []
    lines = ["### Reference length in tokens (appendix N)", "",
             "| Family | Condition | Tasks | Mean tokens |", "|---|---|---|---|"]
    lines += [f"| `{row['family']}` | {row['condition']} | {row['tasks']} | {row['mean_tokens']:,.0f} |"
              for row in lengths]
    return lines + [""]
