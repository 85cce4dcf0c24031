"""Where a run's settings differ from the paper's, said in one line for the summary header and the report.

The defaults are the paper's settings (section 3, appendices A, E and H): no prefill, five samples per
task and condition, a 300-second TLC limit, the paper's behavior-grade procedure, appendix H's name
rule, 10,000 bootstrap resamples and the model's own token budget. The behavior search's whole budget
(which the paper does not state) is named when it is not ALIAS's default, and whenever it cut a search. Any other value is a deliberate deviation; the run
header, the summary and the run's JSON name each one so a reader never mistakes it for the paper's.
Only the standard library is imported: the plugin loads this in every run.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from ..vocabulary import BOOTSTRAP_RESAMPLES, SAMPLES, SEARCH_BUDGET_LIMITS, TLC_TIMEOUT_S, search_budget

#: The paper's value of each run setting that can deviate from it (attribute name → value).
PAPER_SETTINGS: dict[str, Any] = {
    "prefill": "none",
    "samples": SAMPLES,
    "timeout": TLC_TIMEOUT_S,
    "mode": "paper",
    "name_rule": "paper",
    "resamples": BOOTSTRAP_RESAMPLES,
    "max_new_tokens": None,
    "rename_seeds": 1,
    "timeout_from_reference": None,
}

#: The paper's token budget per sample (section 4, Experiment 2): asking for it is no deviation.
PAPER_MAX_NEW_TOKENS = 1024

#: How each deviation reads (the value is formatted in).
_WORDS = {
    "prefill": "prefill {value} (the paper gives none)",
    "samples": "{value} sample(s) per task and condition (the paper: 5)",
    "timeout": "TLC limit {value:g} s (the paper: " + f"{TLC_TIMEOUT_S:g} s)",
    "mode": "behavior grade mode {value} (the paper's procedure: paper)",
    "name_rule": "name grade rule {value} (a stand-in operator must fit the cfg section's level, and a cfg's own "
                 "INIT/NEXT/SPECIFICATION name the output defines is kept; the paper's appendix H rule: paper)",
    "resamples": "{value} bootstrap resamples (the paper: 10,000)",
    "max_new_tokens": "at most {value} new tokens per sample (the paper: the model's own budget, 1,024 for local models)",
    "rename_seeds": "{value} renamings per task, rates averaged over them (the paper: 1)",
    "timeout_from_reference": "TLC limit per task {value:g} × the reference's own check time, between 10 s and the "
                              "fixed limit (the paper: one fixed limit)",
}


def deviations(settings: Any, records: Iterable[Mapping[str, Any]] = ()) -> list[str]:
    """One phrase per setting of ``settings`` (any object with the attributes above) that differs from the
    paper's; with a run's ``records``, also the behavior searches its budget cut off."""
    found = []
    for name, paper in PAPER_SETTINGS.items():
        value = getattr(settings, name, paper)
        if name == "max_new_tokens" and value == PAPER_MAX_NEW_TOKENS:
            continue  # the paper's own budget, asked for explicitly
        if value != paper:
            found.append(_WORDS[name].format(value=value))
    return found + search_budget_deviations(settings, records) + budget_deviations()


def search_budget_deviations(settings: Any, records: Iterable[Mapping[str, Any]] = ()) -> list[str]:
    """The behavior search's whole budget where it is not the default (``SEARCH_BUDGET_LIMITS`` × the TLC
    limit), and the searches of ``records`` it cut off: each is no verdict, so a reader must see how many."""
    found = []
    chosen, timeout = getattr(settings, "search_budget", None), getattr(settings, "timeout", PAPER_SETTINGS["timeout"])
    default = search_budget(None, timeout)
    if chosen is not None and chosen != default:
        found.append(f"behavior search budget {chosen:g} s (the default: {SEARCH_BUDGET_LIMITS} × the TLC limit, "
                     f"{default:g} s)")
    cut = cut_searches(records)
    if cut:
        spent = ", ".join(f"{seconds:g} s" for seconds in sorted(set(cut)))
        found.append(f"the behavior search budget ({spent}) cut {len(cut)} search(es) off: outcome 'search budget "
                     "spent', left out of the rates")
    return found


def cut_searches(records: Iterable[Mapping[str, Any]]) -> list[float]:
    """The budget (seconds) of each record's behavior search that its budget cut off."""
    from ..records import Outcome, grade_outcome  # start-up: the plugin's report header loads this module in every pytest run

    cut = []
    for record in records:
        result = (record.get("grades") or {}).get("behavior")
        if result and not result.get("passed") and grade_outcome("behavior", result) == Outcome.SEARCH_BUDGET_SPENT:
            cut.append(float((result.get("details") or {}).get("search_budget_s") or 0.0))
    return cut


def budget_deviations() -> list[str]:
    """The byte budgets of SANY/TLC output and state-graph dumps (``ALIAS_OUTPUT_LIMIT_MB``,
    ``ALIAS_GRAPH_LIMIT_MB``) that differ from ALIAS's defaults: a smaller one can fail a run the
    defaults let finish, so a reader must see it. An unusable setting is left to the start-up check."""
    # start-up: the plugin's report header loads this module in every pytest run
    from ..tla.streams import DEFAULT_GRAPH_MB, DEFAULT_OUTPUT_MB, GRAPH_VARIABLE, MB, OUTPUT_VARIABLE, budgets

    try:
        chosen = budgets()
    except ValueError:
        return []
    found = []
    for what, variable, value, default in (("SANY/TLC output", OUTPUT_VARIABLE, chosen.output_bytes, DEFAULT_OUTPUT_MB),
                                           ("state-graph dump", GRAPH_VARIABLE, chosen.graph_bytes, DEFAULT_GRAPH_MB)):
        if value != default * MB:
            found.append(f"{what} limit {value // MB} MB ({variable}; the default: {default} MB)")
    return found


def deviation_line(settings: Any, records: Iterable[Mapping[str, Any]] = ()) -> str:
    """``alias: paper settings`` or ``alias: deviations from the paper: …`` for the summary header."""
    found = deviations(settings, records)
    return "alias: deviations from the paper: " + "; ".join(found) if found else "alias: the paper's settings"

