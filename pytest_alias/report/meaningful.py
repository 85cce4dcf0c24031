"""Appendix R from task rates: random against meaningful names on the tasks both renamings cover.

The meaningful condition exists only for the tasks whose proposed map passed SANY and TLC (77 in
the paper), so its comparison must stay on those tasks: the original, random and meaningful rates
there (not the random rate over every task), and random − meaningful as a paired difference over
them with its 95% bootstrap CI, its 90% CI and the TOST verdict at ±5 points. Under the behavior
grade the paper narrows this further to the tasks the grade covers as well (61 = 77 ∩ 90), which
``tasks`` does.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from .. import stats
from ..vocabulary import BOOTSTRAP_RESAMPLES


def meaningful_comparison(rates: Mapping[str, Mapping[str, float]], tasks: Iterable[str] | None = None, *,
                          resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0, margin: float = 0.05) -> dict[str, Any] | None:
    """Rates (percent) and random − meaningful (points) on the meaningful-valid tasks, or None without any.

    ``rates`` maps condition → task → pass fraction (``random`` and ``meaningful`` needed, ``original``
    used when present); ``tasks`` further restricts the set (the covered tasks). Each rate is the
    mean over exactly the tasks of ``n``, so the three columns compare like with like.
    """
    if "random" not in rates or "meaningful" not in rates:
        return None
    valid = set(rates["meaningful"]) & set(rates["random"])
    if "original" in rates:
        valid &= set(rates["original"])
    if tasks is not None:
        valid &= set(tasks)
    shared = sorted(valid)
    if not shared:
        return None
    random = [rates["random"][t] for t in shared]
    meaningful = [rates["meaningful"][t] for t in shared]
    difference = stats.paired_difference(random, meaningful, resamples=resamples, seed=seed).scaled()
    tost = stats.equivalence(random, meaningful, margin, resamples=resamples, seed=seed).scaled()
    sign = stats.sign_test(random, meaningful)
    mean = lambda values: 100 * sum(values) / len(values)  # noqa: E731 — percent of samples over tasks
    return {
        "n": len(shared), "tasks": shared,
        "original": mean([rates["original"][t] for t in shared]) if "original" in rates else None,
        "random": mean(random), "meaningful": mean(meaningful),
        "random_minus_meaningful": {
            "mean": difference.mean, "ci_low": difference.ci_low, "ci_high": difference.ci_high,
            "ci90_low": tost.ci_low, "ci90_high": tost.ci_high, "margin": tost.margin, "equivalent": tost.equivalent,
            "random_higher": difference.higher, "meaningful_higher": difference.lower, "sign_p": sign.p_value,
        },
    }


def meaningful_row(label: str, found: Mapping[str, Any]) -> list[str]:
    """One table row: which tasks, n, the three rates, random − meaningful with both CIs and TOST."""
    d = found["random_minus_meaningful"]
    original = "–" if found["original"] is None else f"{found['original']:.1f}%"
    verdict = "equivalent" if d["equivalent"] else "not shown equivalent"
    return [label, str(found["n"]), original, f"{found['random']:.1f}%", f"{found['meaningful']:.1f}%",
            f"{d['mean']:+.1f} [{d['ci_low']:.1f}, {d['ci_high']:.1f}] 90% [{d['ci90_low']:.1f}, "
            f"{d['ci90_high']:.1f}] {verdict} ±{d['margin']:g}"]


MEANINGFUL_HEADER = ["grade, tasks", "n", "original", "random", "meaningful",
                     "random − meaningful, points [95% CI] 90% CI, TOST"]
