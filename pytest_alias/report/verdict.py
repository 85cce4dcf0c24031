"""The verdict section of ``tla-alias report``: the contamination evidence in one table, read conservatively.

A model team wants one page that says what a run shows about memorization and what it does not. The
paper's conclusion is that a decrease after renaming mixes three things — memorization, a grade
that demands names the description never states, and the cost of unfamiliar names — so no row here
is a score and no sentence says more than its interval supports. Each evidence row names the table
it comes from; each reading follows fixed rules (below) from the row's numbers alone:

* an interval that excludes 0 is a decrease (or an increase); a 90% interval inside the equivalence
  margin is "equivalent to 0 within ±margin"; anything else is "not shown either way";
* the name grade's decrease is "explained by hidden names" only when the tasks that state every
  name show no decrease (their interval includes 0) while the hidden-name tasks lose more;
* a behavior-grade decrease is never called memorization: it mixes memory with the cost of new
  names, which only a model with known exposure separates (Experiment 2).

Rows come from the aggregate and from the other sections' data, so the verdict never recomputes a
number that a table shows; extra rows (several renamings, membership signals, sample agreement) can
be passed in as :class:`VerdictEvidence` by the analyses that own them.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, replace
from typing import Any, Iterable, Mapping, Sequence

from .seeds import seed_rows

#: Titles of the sections whose data the verdict reads (prefixes, so a table's n in its title is fine).
COVERED_TABLE = "Both grades on the covered tasks"
DECREASE_TABLE = "Decreases"
DISAGREEMENT_TABLE = "Grade disagreements"
KNOWN_NAMES_TABLE = "Known algorithm names"
CONTINUATION_TABLE = "File continuation"

#: Below this original pass rate (percent) a ±5-point margin is a large share of the rate (the paper's GPT-5 caveat).
LOW_BASE_RATE = 20.0
ALPHA = 0.05


@dataclass(frozen=True)
class VerdictEvidence:
    """One row of the verdict table: what was measured, its number with interval and test, and the
    sentence the numbers support; ``table`` is the title of the section the number comes from."""

    model: str
    evidence: str
    n: str
    value: str
    test: str
    reading: str
    table: str
    #: Whether the model's reading paragraph repeats this row (rows a comparison row sums up do not).
    in_reading: bool = True
    #: How well this kind of evidence detects known exposure (``with_detection``); None: no split given.
    detection: str | None = None

    def cells(self) -> list[str]:
        detection = [self.detection] if self.detection is not None else []
        return [self.model, self.evidence, self.n, self.value, self.test, self.reading, *detection, self.table]


HEADER = ["model", "evidence", "n", "value [95% CI]", "test", "reading", "table"]
DETECTION_COLUMN = "detects known exposure (AUROC seen vs unseen; flags)"


def verdict_header(rows: Sequence[VerdictEvidence]) -> list[str]:
    """HEADER, with the detection column before ``table`` when the rows carry one (a split was given)."""
    if not any(row.detection is not None for row in rows):
        return list(HEADER)
    return [*HEADER[:-1], DETECTION_COLUMN, HEADER[-1]]


def anchor(title: str) -> str:
    """The link target of a section title (GitHub's Markdown rule; the HTML page uses the same ids)."""
    slug = re.sub(r"[^\w\- ]", "", title.strip().lower())
    return slug.replace(" ", "-")


def _points(value: float) -> str:
    """Points (decreases, margins and rates are all in points or percent by now)."""
    return f"{value:.1f}"


def _interval(d: Mapping[str, Any]) -> str:
    return f"{_points(d['mean'])} [{_points(d['ci_low'])}, {_points(d['ci_high'])}]"


def _p(value: float) -> str:
    return "p < 0.001" if value < 0.001 else f"p = {value:.3f}"


def _tests(d: Mapping[str, Any]) -> str:
    """Sign test and TOST of a decrease, as the decrease tables print them."""
    parts = [f"sign {_p(d['sign_p'])} ({d['now_fail']} fell, {d['now_pass']} rose)"]
    if "ci90_low" in d:
        parts.append(f"90% CI [{_points(d['ci90_low'])}, {_points(d['ci90_high'])}], "
                     f"{'equivalent' if d['equivalent'] else 'not equivalent'} within ±{_points(d['margin'])}")
    return "; ".join(parts)


def read_decrease(d: Mapping[str, Any], what: str) -> str:
    """The plain reading of one decrease (points): shown, shown absent (TOST), or neither."""
    interval = f"{_points(d['mean'])} points (95% CI {_points(d['ci_low'])} to {_points(d['ci_high'])}, {d['n']} tasks)"
    if d["ci_low"] > 0:
        return f"{what} is {interval}: renamed tasks pass less often."
    if d["ci_high"] < 0:
        return f"{what} is {interval}: renamed tasks pass more often."
    if "equivalent" not in d:  # a number without an equivalence test
        return f"{what} is {interval}: the interval includes 0."
    if d["equivalent"]:
        return (f"{what} is equivalent to 0 within ±{_points(d['margin'])} points: {interval}, "
                "and the 90% CI lies inside the margin.")
    return (f"{what} is {interval}: the interval includes 0 but reaches beyond "
            f"±{_points(d.get('margin', 5.0))} points, so neither a decrease nor its absence is shown.")


def _section_data(sections: Iterable[Any], prefix: str) -> list[Any]:
    for section in sections:
        if section.title.startswith(prefix) and section.data:
            return list(section.data)
    return []


def _section_title(sections: Iterable[Any], prefix: str, model: str | None = None) -> str:
    for section in sections:
        if section.title.startswith(prefix) and (model is None or model in section.title):
            return section.title
    return prefix


def _grade_decrease(entry: Mapping[str, Any], grade: str, covered: bool) -> Mapping[str, Any] | None:
    found = entry["grades"].get(grade) or {}
    if covered:
        return ((found.get("covered") or {}).get("decreases") or {}).get("random")
    return (found.get("decreases") or {}).get("random")


def decrease_evidence(model: str, entry: Mapping[str, Any], sections: Sequence[Any]) -> list[VerdictEvidence]:
    """The name- and behavior-grade decreases (on the covered tasks when the run knows them), the
    name grade's hidden-name split, and the reading that compares them."""
    rows: list[VerdictEvidence] = []
    covered = any((entry["grades"].get(g) or {}).get("covered") for g in ("name", "behavior"))
    table = (_section_title(sections, COVERED_TABLE) if covered
             else _section_title(sections, DECREASE_TABLE, model))
    scope = "covered tasks" if covered else "every task with a verdict"
    found: dict[str, Mapping[str, Any]] = {}
    for grade in ("name", "behavior"):
        d = _grade_decrease(entry, grade, covered)
        if d is None:
            continue
        found[grade] = d
        reading = read_decrease(d, f"The {grade}-grade decrease")
        if grade == "behavior" and d["ci_low"] > 0:
            reading += (" Names are not graded here, so this decrease mixes memorization with the cost of new "
                        "names; only a model with known exposure separates the two (Experiment 2).")
        if d["original"] < LOW_BASE_RATE and d["ci_low"] <= 0:
            reading += (f" At an original rate of {_points(d['original'])}%, a ±5-point margin is a large share "
                        "of what the model solves.")
        rows.append(VerdictEvidence(model, f"{grade}-grade decrease ({scope})", str(d["n"]), _interval(d), _tests(d),
                             reading, table))
    split = ((entry["grades"].get("name") or {}).get("split") or {}).get("random") or {}
    hidden, stated = split.get("hidden_names"), split.get("every_name_stated")
    split_table = _section_title(sections, DECREASE_TABLE, model)
    for label, d in (("tasks with hidden names", hidden), ("tasks stating every name", stated)):
        if d is not None:
            rows.append(VerdictEvidence(model, f"name-grade decrease, {label}", str(d["n"]), _interval(d), _tests(d),
                                 read_decrease(d, f"On the {label}, the name-grade decrease"), split_table))
    if "name" in found and "behavior" in found:
        # The comparison sums up the name grade's rows, so the reading paragraph keeps only it.
        rows = [row if row.evidence.startswith("behavior") else replace(row, in_reading=False) for row in rows]
        rows.append(VerdictEvidence(model, "name grade vs behavior grade", f"{found['name']['n']} / {found['behavior']['n']}",
                             f"{_points(found['name']['mean'])} vs {_points(found['behavior']['mean'])}", "–",
                             _compare_grades(found["name"], found["behavior"], hidden, stated), table))
    return rows


def _compare_grades(name: Mapping[str, Any], behavior: Mapping[str, Any], hidden: Mapping[str, Any] | None,
                    stated: Mapping[str, Any] | None) -> str:
    """Whether the name grade's decrease is a property of the grade: shown by the name grade, not by
    the behavior grade, and (when the split exists) carried by the tasks with hidden names."""
    if name["ci_low"] <= 0:
        return "The name grade shows no decrease, so there is none for the grade to explain."
    if behavior["ci_low"] > 0 and behavior["mean"] >= name["mean"]:
        return "The behavior grade shows at least the name grade's decrease: it is not an artifact of grading by name."
    sentence = (f"The name-grade decrease ({_points(name['mean'])} points) is larger than the behavior-grade "
                f"decrease ({_points(behavior['mean'])} points)")
    if hidden is not None and stated is not None and stated["ci_low"] <= 0 < hidden["mean"] - stated["mean"]:
        return (sentence + f"; it is explained by hidden names: the {hidden['n']} tasks with a hidden name lose "
                f"{_points(hidden['mean'])} points, the {stated['n']} that state every name "
                f"{_points(stated['mean'])} (95% CI {_points(stated['ci_low'])} to {_points(stated['ci_high'])}).")
    return sentence + ": part of it comes from grading by name."


def upper_bound(found: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """Appendix P's upper-bound decrease with its 90% CI and TOST verdict (the equivalence test's
    interval), so it reads as every other decrease does."""
    if not found or not found.get("decrease"):
        return None
    tost = found.get("equivalence") or {}
    ninety = ({"ci90_low": tost["ci_low"], "ci90_high": tost["ci_high"], "equivalent": tost["equivalent"],
               "margin": tost["margin"]} if tost else {})
    return {**found["decrease"], **ninety}


def _ninety(d: Mapping[str, Any]) -> str:
    if "ci90_low" not in d:
        return "–"
    return (f"90% CI [{_points(d['ci90_low'])}, {_points(d['ci90_high'])}], "
            f"{'equivalent' if d['equivalent'] else 'not equivalent'} within ±{_points(d['margin'])}")


def disagreement_evidence(model: str, sections: Sequence[Any]) -> list[VerdictEvidence]:
    """Appendix P's counts on the renamed condition and the upper-bound decrease."""
    for found in _section_data(sections, DISAGREEMENT_TABLE):
        if found.get("model") != model:
            continue
        counts = (found.get("conditions") or {}).get("random")
        if not counts:
            return []
        bound = upper_bound(found.get("upper_bound"))
        reading = (f"{counts['behavior_only']} renamed samples pass only the behavior grade "
                   f"({counts['behavior_only_hidden_name']} of them on tasks with a hidden name: the name grade "
                   f"failed them on names), {counts['name_only']} pass only the name grade.")
        if bound:
            reading += " " + read_decrease(bound, "If every name-only pass counted as correct, the decrease")
        return [VerdictEvidence(model, "grade disagreements (renamed)", str(counts["samples"]),
                         _interval(bound) if bound else "–", _ninety(bound) if bound else "–", reading,
                         _section_title(sections, DISAGREEMENT_TABLE))]
    return []


def known_names_evidence(model: str, sections: Sequence[Any]) -> list[VerdictEvidence]:
    """Appendix M on the fixed list, the behavior grade when it ran (names do not blur it), else the name grade."""
    candidates = [f for f in _section_data(sections, KNOWN_NAMES_TABLE)
                  if f.get("model") == model and f.get("list") == "fixed"]
    candidates.sort(key=lambda f: f.get("grade") != "behavior")
    for found in candidates:
        marked, other = found["marked"], found["other"]
        if not marked.get("decrease") or not other.get("decrease") or "permutation" not in found:
            continue
        p = found["permutation"]["p_value"]
        gap = marked["decrease"]["mean"] - other["decrease"]["mean"]
        if p < ALPHA and gap > 0:
            reading = ("Tasks that still name a known algorithm lose more under renaming than the others: recall "
                       "from the algorithm's name is possible on them.")
        else:
            reading = ("Tasks that still name a known algorithm lose no more than the others "
                       f"({_points(marked['decrease']['mean'])} vs {_points(other['decrease']['mean'])} points): "
                       "no sign that known names drive the decrease.")
        return [VerdictEvidence(model, f"known algorithm names ({found['grade']} grade)",
                         f"{marked['n']} / {other['n']}",
                         f"{_interval(marked['decrease'])} vs {_interval(other['decrease'])}",
                         f"permutation {_p(p)}", reading, _section_title(sections, KNOWN_NAMES_TABLE))]
    return []


def read_continuation(rho: Mapping[str, Any]) -> str:
    """The reading of appendix L's correlation: ρ of (run on the original − run on the renamed copy)
    with each task's decrease. Memorization predicts ρ > 0 (the tasks a model recalls beyond what
    common TLA⁺ text gives are the ones renaming costs); a significant ρ < 0 is a prediction too, but
    the other way round, so it is never read as "does not predict"; only a ρ whose p ≥ 0.05 is none."""
    if "not_applicable" in rho:
        return "The continuation test cannot be run on these data."
    strength = f"ρ = {rho['rho']:.2f}, {_p(rho['p_value'])}, {rho['n']} tasks"
    if rho["p_value"] < ALPHA and rho["rho"] > 0:
        return (f"The more of the real file than of its renamed copy the continuation model reproduces, the more "
                f"the task loses under renaming ({strength}): the direction memorization predicts, though a "
                "correlation alone does not show that recall causes the decrease.")
    if rho["p_value"] < ALPHA and rho["rho"] < 0:
        return (f"The more of the real file than of its renamed copy the continuation model reproduces, the less "
                f"the task loses under renaming ({strength}): the continuation test predicts which tasks lose, "
                "but opposite to what memorization predicts, so it gives no support to recall as the cause of "
                "the decrease.")
    return (f"No correlation is shown between how much more of the real file than of its renamed copy the "
            f"continuation model reproduces and the decrease ({strength}): the continuation test does not "
            "predict which tasks lose.")


def continuation_evidence(model: str, sections: Sequence[Any]) -> list[VerdictEvidence]:
    """Appendix L: whether long verbatim continuations predict which tasks lose (this model's records)."""
    rows = []
    for entry in _section_data(sections, CONTINUATION_TABLE):
        for found in entry.get("predicts") or ():
            if found.get("records_model") != model:
                continue
            rho = found["spearman"]
            if "not_applicable" in rho:
                value, test = "–", f"not applicable: {rho['not_applicable']}"
            else:
                value, test = f"ρ = {rho['rho']:.2f}", f"Spearman, permutation {_p(rho['p_value'])}"
            reading = read_continuation(rho)
            rows.append(VerdictEvidence(model, f"file continuation by {entry['model']} ({found['grade']} grade)",
                                 str(rho.get("n", "–")), value, test, reading,
                                 _section_title(sections, CONTINUATION_TABLE)))
    return rows


SEEDS_TABLE = "Several renamings"


def seeds_evidence(model: str, rows: Sequence[Mapping[str, Any]]) -> list[VerdictEvidence]:
    """Several renamings per task: the seed-averaged decrease per grade (on the covered tasks when
    known) and whether its sign survives the choice of random names."""
    found: dict[str, Mapping[str, Any]] = {}
    for row in rows:
        if row["model"] == model and (row["grade"] not in found or row["tasks_scope"] == "covered"):
            found[row["grade"]] = row
    evidence = []
    for grade in ("name", "behavior"):
        if grade not in found:
            continue
        row = found[grade]
        low, high = row["decrease_ci"]
        spread = (f"across the {row['seeds']} renamings the decrease runs from {_points(row['decrease_min'])} to "
                  f"{_points(row['decrease_max'])} points")
        if low > 0 or high < 0:
            reading = (f"Averaged over {row['seeds']} renamings, the {grade}-grade decrease is {_points(row['decrease'])} "
                       f"points (95% CI {_points(low)} to {_points(high)}, tasks and seeds resampled): it is a property "
                       f"of renaming, not of one draw of names; {spread}.")
        else:
            reading = (f"Averaged over {row['seeds']} renamings, the {grade}-grade decrease is {_points(row['decrease'])} "
                       f"points (95% CI {_points(low)} to {_points(high)}): the interval includes 0; {spread}.")
        if row["decrease_min"] < 0 < row["decrease_max"]:
            reading += " Its sign depends on which random names were drawn."
        evidence.append(VerdictEvidence(model, f"{grade}-grade decrease over {row['seeds']} renamings ({row['tasks_scope']})",
                                 str(row["tasks"]), f"{_points(row['decrease'])} [{_points(low)}, {_points(high)}]",
                                 f"two-level bootstrap; per-seed SD {_points(row['decrease_sd'] or 0.0)}; worst case "
                                 f"per task {_points(row['worst_case'])}", reading, f"{SEEDS_TABLE}: {model}"))
    return evidence


def verdict_evidence(aggregate: Mapping[str, Any], sections: Sequence[Any],
                     extra: Sequence[VerdictEvidence] = ()) -> list[VerdictEvidence]:
    """Every evidence row the report's inputs support, model by model (``extra`` rows appended per model)."""
    rows: list[VerdictEvidence] = []
    for model, entry in aggregate.get("models", {}).items():
        rows += decrease_evidence(model, entry, sections)
        rows += disagreement_evidence(model, sections)
        rows += known_names_evidence(model, sections)
        rows += continuation_evidence(model, sections)
        rows += seeds_evidence(model, seed_rows(aggregate))
        rows += [row for row in extra if row.model == model]
    rows += [row for row in extra if row.model not in aggregate.get("models", {})]
    return rows


AGREEMENT_TABLE = "Sample agreement"
EXPOSURE_TABLE = "Exposure"


def agreement_evidence(found: Mapping[str, Any] | None) -> list[VerdictEvidence]:
    """Sample agreement per model: original against the renamed condition, with its caveat (no test:
    the numbers are descriptive and weak on their own)."""
    rows = []
    for model, entry in ((found or {}).get("models") or {}).items():
        conditions = entry.get("conditions") or {}
        original, renamed = conditions.get("original"), conditions.get("random")
        if not original or not renamed:
            continue
        more = original["mean_distance"] < renamed["mean_distance"]
        reading = (f"Samples of the original tasks are {'more' if more else 'no more'} alike than those of the renamed "
                   f"ones (mean pairwise edit distance {original['mean_distance']:.3f} vs {renamed['mean_distance']:.3f}); "
                   "weak evidence either way: sampling temperature and model size change agreement too.")
        rows.append(VerdictEvidence(model, "sample agreement (original vs renamed)",
                             f"{original['tasks']} / {renamed['tasks']}",
                             f"{original['mean_distance']:.3f} / {100 * original['identical']:.0f}% vs "
                             f"{renamed['mean_distance']:.3f} / {100 * renamed['identical']:.0f}%",
                             "–", reading, f"{AGREEMENT_TABLE}: {model}"))
    return rows


def membership_evidence(aurocs: Sequence[Mapping[str, Any]]) -> list[VerdictEvidence]:
    """Likelihood-based membership signals (AUROC of seen vs unseen tasks under known exposure), one
    row per family/arm, signal and condition; rows of an open-weight model family."""
    rows = []
    for found in aurocs:
        model = _group(found) or "exposure"
        value = f"{found['auroc']:.2f} [{found['ci_low']:.2f}, {found['ci_high']:.2f}]"
        if found["ci_low"] > 0.5:
            reading = (f"{found.get('label') or found['signal']} separates the fine-tuned (seen) tasks from unseen "
                       f"ones on the {found['condition']} references.")
        elif found["ci_high"] < 0.5:
            reading = (f"{found.get('label') or found['signal']} ranks unseen tasks above seen ones on the "
                       f"{found['condition']} references: it does not detect exposure here.")
        else:
            reading = (f"{found.get('label') or found['signal']} does not separate seen from unseen tasks on the "
                       f"{found['condition']} references (the interval includes 0.5).")
        rows.append(VerdictEvidence(model, f"membership signal: {found.get('label') or found['signal']}, {found['condition']}",
                             f"{found['n_seen']} / {found['n_unseen']}", value, "AUROC, bootstrap over tasks",
                             reading, EXPOSURE_TABLE))
    return rows


CAPTION = ("The evidence on memorization in this run, each row from the table it names, read by fixed rules: an "
           "interval that excludes 0 is a decrease; a 90% interval inside ±5 points is equivalence to 0; anything "
           "else shows neither. No row is a contamination score. A decrease after renaming mixes memorization, "
           "grading by names the description never states, and the cost of new names, so it cannot show "
           "memorization by itself; a model with known exposure (tla-alias exposure) separates the last from the first.")


def verdict_data(rows: Sequence[VerdictEvidence]) -> list[dict[str, Any]]:
    """The rows as JSON-ready dicts (report.json's section data)."""
    return [{key: value for key, value in asdict(row).items()
             if key != "in_reading" and not (key == "detection" and value is None)} for row in rows]


# --------------------------------------------------------------------------- detection of known exposure
# With a split, the exposure analysis rates every signal on models whose exposure is known
# (tla-alias exposure's detection table). A verdict row that reads a signal gets that signal's
# record beside it: how often the same kind of evidence tells a seen task from an unseen one.

#: Evidence prefixes → the detection signal whose drop after renaming that evidence reads.
DROP_EVIDENCE = (("name-grade decrease (", "name"), ("name-grade decrease over", "name"),
                 ("behavior-grade decrease (", "behavior"), ("behavior-grade decrease over", "behavior"),
                 ("sample agreement", "agreement"), ("file continuation", "continuation"))
MEMBERSHIP_PREFIX = "membership signal: "


def _group(found: Mapping[str, Any]) -> str:
    """The family, arm and dose of a detection row, as the exposure tables name them."""
    name = f"{found.get('family', '')} {found.get('arm', '')}".strip()
    return name + (f", {found['dose']} dose" if found.get("dose") else "")


def _matches(row: VerdictEvidence, detection: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The detection rows that rate the signal ``row`` reads (for a membership row, its own group's)."""
    for prefix, signal in DROP_EVIDENCE:
        if row.evidence.startswith(prefix):
            return [d for d in detection if d.get("signal") == signal and d.get("form") == "drop"]
    if row.evidence.startswith(MEMBERSHIP_PREFIX):
        label, _, condition = row.evidence[len(MEMBERSHIP_PREFIX):].rpartition(", ")
        return [d for d in detection if d.get("form", "value") == "value" and d.get("condition") == condition
                and (d.get("label") or d.get("signal")) == label and _group(d) == row.model]
    return []


def detection_cell(found: Mapping[str, Any]) -> str:
    """``smollm2 task-pair, strong dose: 0.81 [0.62, 0.95], n 10; flags 7/10 seen, 2/10 unseen``."""
    text = f"{_group(found) or 'exposure'}: {found['auroc']:.2f} [{found['ci_low']:.2f}, {found['ci_high']:.2f}], n {found['n_seen']}"
    if found.get("flag_tasks"):
        text += (f"; flags {found['flagged_seen']}/{found['flag_tasks']} seen, "
                 f"{found['flagged_unseen']}/{found['flag_tasks']} unseen")
    return text


def with_detection(rows: Sequence[VerdictEvidence], detection: Sequence[Mapping[str, Any]]) -> list[VerdictEvidence]:
    """``rows`` with the detection column filled: per row the detection record of the signal it reads
    (one entry per family, arm and dose), "–" for rows no signal of the analysis measures."""
    return [replace(row, detection="; ".join(detection_cell(d) for d in _matches(row, detection)) or "–")
            for row in rows]


def verdict_reading(rows: Sequence[VerdictEvidence]) -> list[str]:
    """One paragraph per model: the readings of its rows, in table order, nothing added."""
    models = list(dict.fromkeys(row.model for row in rows))
    return [f"{model}: " + " ".join(row.reading for row in rows if row.model == model and row.in_reading)
            for model in models]
