"""``tla-alias exposure``: Table 2, Table F.1, Table O.1 and appendix N from saved rows.

Input rows are plugin records (one per sample: ``grades``, ``generation``) and likelihood rows
(``tla-alias likelihood``), from any mix of files. Each row's model is placed on a half and an arm
by the ``exposure`` note its adapter's ``training.json`` put in it (or by ``--model-a/--model-b``).

Per task ``s`` and measure, the four cells are the values of the model that saw ``s`` and the model
that did not, in the original and the renamed condition: pass rates over samples for a grade,
mean token log-likelihoods for a likelihood measure. From them (paper Section 3, "Analysis"):
exposure effect per condition (seen − unseen), DiD ((c − r)_seen − (c − r)_unseen) and the unseen
cost ((c − r)_unseen), each the mean over the tasks that have all four cells, with a 10,000-resample
task bootstrap interval (``stats.difference_in_differences``, one seed for all parts).
"""

from __future__ import annotations

from ..errors import UsageProblem

import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from .. import stats
from ..records import Outcome, graded_verdict
from .lengths import reference_lengths
from .data import ARMS
from .detection import DETECTION_SIGNALS, SignalAuroc, group_title, rate_signal, share_of
from .signals import CONTINUATION_FORMAT, AGREEMENT_FORMAT, agreement_values, baseline, continuation_values, \
    is_output_row
from .likelihood import LIKELIHOOD_FORMAT
from .split import HALVES, ExposureSplit

#: Likelihood measures: row field → table label.
LIKELIHOOD_MEASURES = {"mean": "Likelihood", "mean_other": "Likelihood, other",
                       "mean_renamed": "Likelihood, renamed identifiers"}
GRADE_LABELS = {"behavior": "Correct, behavior", "name": "Correct, name", "parse": "Parses"}


class ExposureError(UsageProblem):
    """Rows that cannot be analysed: unreadable files, a model on no half, two models on one half."""


# --------------------------------------------------------------------------- reading rows


def read_rows(path: Path | str) -> list[dict[str, Any]]:
    """Rows from a JSON report (its ``records``), a JSON list, or JSON lines."""
    source = Path(path)
    try:
        text = source.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ExposureError(f"{source}: not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise ExposureError(f"{source}: cannot read ({exc.strerror or exc})") from None
    stripped = text.lstrip()
    try:
        if stripped.startswith("{") and "\n{" not in stripped.rstrip():
            document = json.loads(text)
            rows = document.get("records") if isinstance(document, dict) and "records" in document else [document]
        elif stripped.startswith("["):
            rows = json.loads(text)
        else:
            rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    except json.JSONDecodeError as exc:
        raise ExposureError(f"{source}: not JSON or JSON lines ({exc})") from None
    except RecursionError:
        raise ExposureError(f"{source}: JSON nested too deeply to read") from None
    if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
        raise ExposureError(f"{source}: expected records or likelihood rows (JSON objects)")
    return rows


def is_likelihood_row(row: Mapping[str, Any]) -> bool:
    """Whether ``row`` came from ``tla-alias likelihood`` (else it is a plugin record)."""
    return row.get("format") == LIKELIHOOD_FORMAT


def row_exposure(row: Mapping[str, Any]) -> dict[str, Any] | None:
    """The ``{"split", "half", "arm"}`` note of the model that made ``row``, if its adapter had one."""
    note = row.get("exposure") if is_likelihood_row(row) else (row.get("generation") or {}).get("exposure")
    return note if isinstance(note, dict) and note.get("half") in HALVES else None


@dataclass(frozen=True)
class ModelSlot:
    """A model placed on one half of one arm and dose of one family (the base model it was trained from)."""

    model: str
    half: str
    arm: str
    family: str = ""
    dose: str = ""  # the exposure dose (.doses), "" for an adapter trained before doses were named

    @property
    def group(self) -> tuple[str, str, str]:
        """The (family, arm, dose) whose two halves are compared: two doses are never mixed."""
        return self.family, self.arm, self.dose


def assign_models(rows: Iterable[Mapping[str, Any]], split: ExposureSplit, *,
                  overrides: Mapping[str, tuple[str, str]] | None = None) -> dict[str, ModelSlot]:
    """Model name → slot, from each row's exposure note or ``overrides`` (model → (half, arm)).

    Several names may stand for one trained model (a records file and a likelihood file that spell
    the spec differently): they share its slot. A note from another split and a model name with two
    different notes are errors, since either would mix exposures silently.
    """
    overrides = dict(overrides or {})
    slots: dict[str, ModelSlot] = {model: ModelSlot(model, half, arm) for model, (half, arm) in overrides.items()}
    for row in rows:
        model = str(row.get("model"))
        if model in overrides:
            continue
        note = row_exposure(row)
        if note is None:
            continue
        if note.get("split") not in (None, split.identity):
            raise ExposureError(f"model {model} was trained on split {note.get('split')}, not on this split "
                                f"({split.identity}); pass the split it was trained on")
        slot = ModelSlot(model, str(note["half"]), str(note.get("arm") or "task-pair"), str(note.get("base") or ""),
                         str(note.get("dose") or ""))
        if slots.setdefault(model, slot) != slot:
            raise ExposureError(f"model {model} carries two exposure notes ({slots[model]} and {slot})")
    return slots


# --------------------------------------------------------------------------- per-task values


def truncated(record: Mapping[str, Any]) -> bool:
    """Appendix N: the output reached the token limit or never closed its module (no module at all, or
    one whose missing ``====`` footer the extractor had to append)."""
    generation = record.get("generation") or {}
    if generation.get("truncated") or Outcome.read(record.get("outcome")) in (Outcome.CUT_AT_TOKEN_LIMIT, Outcome.NO_MODULE):
        return True
    for result in (record.get("grades") or {}).values():
        extraction = ((result or {}).get("details") or {}).get("extraction") or {}
        if any("missing '===='" in str(note) for note in extraction.get("notes") or ()):
            return True
    return False


def grade_values(records: Iterable[Mapping[str, Any]], grade: str) -> dict[tuple[str, str, str], float]:
    """``(model, task, condition)`` → pass rate over the samples graded with ``grade``."""
    outcomes: dict[tuple[str, str, str], list[bool]] = defaultdict(list)
    for record in records:
        # A task without a cfg cannot take a TLC grade (the paper tests on the tasks with one), and a
        # model, reference or grader error is no verdict on the output: both are left out.
        verdict = graded_verdict(record, grade)
        if verdict is not None:
            outcomes[(str(record["model"]), str(record["task"]), str(record["condition"]))].append(verdict)
    return {key: sum(values) / len(values) for key, values in outcomes.items()}


def likelihood_values(rows: Iterable[Mapping[str, Any]], measure: str) -> dict[tuple[str, str, str], float]:
    """``(model, task, condition)`` → the row's ``measure`` (rows without it are left out)."""
    values: dict[tuple[str, str, str], float] = {}
    for row in rows:
        value = row.get(measure)
        if value is not None:
            key = (str(row["model"]), str(row["task"]), str(row["condition"]))
            if key in values:
                raise ExposureError(f"two likelihood rows for model {key[0]}, task {key[1]}, condition {key[2]}")
            values[key] = float(value)
    return values


# --------------------------------------------------------------------------- effects


@dataclass(frozen=True)
class Effects:
    """One measure of one arm: the four cell means and the exposure analysis over ``tasks``."""

    measure: str
    label: str
    arm: str
    unit: str  # "points" (correctness) or "log-likelihood"
    tasks: tuple[str, ...]
    cells: dict[str, float]  # original_seen, original_unseen, renamed_seen, renamed_unseen (% or mean LL)
    result: stats.DifferenceInDifferences
    subset: str = "all"
    family: str = ""
    dose: str = ""

    @property
    def title(self) -> str:
        """The family, arm and dose, as the tables head their sections."""
        return group_title(self.family, self.arm, self.dose)

    def to_dict(self) -> dict[str, Any]:
        parts = {name: getattr(self.result, name).to_dict()
                 for name in ("exposure_original", "exposure_renamed", "did", "unseen_cost", "seen_cost")}
        return {"measure": self.measure, "label": self.label, "family": self.family, "arm": self.arm,
                "dose": self.dose, "unit": self.unit,
                "subset": self.subset, "n": len(self.tasks), "tasks": list(self.tasks), "cells": self.cells, **parts}


def effects(values: Mapping[tuple[str, str, str], float], split: ExposureSplit, slots: Mapping[str, str], *,
            measure: str, label: str, arm: str, unit: str, renamed: str = "random",
            tasks: Iterable[str] | None = None, resamples: int = stats.DEFAULT_RESAMPLES, seed: int = 0,
            subset: str = "all", family: str = "", dose: str = "") -> Effects | None:
    """The exposure analysis of ``values`` for the models ``slots`` (half → model), or None when no
    task has all four cells. Correctness (unit ``points``) is reported in percent and points."""
    chosen = set(tasks) if tasks is not None else None
    cells: dict[str, list[float]] = {"cs": [], "rs": [], "cu": [], "ru": []}
    kept: list[str] = []
    for task in split.test_ids:
        half = split.half_of(task)
        if (chosen is not None and task not in chosen) or half is None:
            continue
        seen, unseen = slots[half], slots["B" if half == "A" else "A"]
        keys = {"cs": (seen, task, "original"), "rs": (seen, task, renamed),
                "cu": (unseen, task, "original"), "ru": (unseen, task, renamed)}
        if all(key in values for key in keys.values()):
            kept.append(task)
            for name, key in keys.items():
                cells[name].append(values[key])
    if not kept:
        return None
    result = stats.difference_in_differences(cells["cs"], cells["rs"], cells["cu"], cells["ru"],
                                             resamples=resamples, seed=seed)
    scale = stats.POINTS if unit == "points" else 1.0
    means = {name: scale * sum(column) / len(column) for name, column in cells.items()}
    return Effects(measure, label, arm, unit, tuple(sorted(kept)),
                   {"original_seen": means["cs"], "original_unseen": means["cu"],
                    "renamed_seen": means["rs"], "renamed_unseen": means["ru"]},
                   result.scaled(scale) if scale != 1.0 else result, subset, family, dose)


@dataclass
class ExposureAnalysis:
    """Everything ``tla-alias exposure`` reports."""

    split: ExposureSplit
    slots: dict[str, ModelSlot]
    effects: list[Effects] = field(default_factory=list)
    truncation: list[dict[str, Any]] = field(default_factory=list)
    untruncated_tasks: dict[str, list[str]] = field(default_factory=dict)  # family and arm → tasks, none truncated
    missing: list[str] = field(default_factory=list)
    reference_tokens: list[dict[str, Any]] = field(default_factory=list)  # appendix N: mean length per condition
    membership: list[SignalAuroc] = field(default_factory=list)  # AUROC of seen vs unseen per likelihood signal
    detection: list[SignalAuroc] = field(default_factory=list)  # every signal's AUROC and flag counts (.detection)
    covered: tuple[str, ...] | None = None  # the covered tasks the behavior rows are restricted to, when known

    def to_dict(self) -> dict[str, Any]:
        return {"split": self.split.identity, "split_seed": self.split.seed,
                "covered": list(self.covered) if self.covered is not None else None,
                "models": {model: {"half": slot.half, "arm": slot.arm, "family": slot.family, "dose": slot.dose}
                           for model, slot in sorted(self.slots.items())},
                "effects": [effect.to_dict() for effect in self.effects], "truncation": self.truncation,
                "untruncated_tasks": self.untruncated_tasks, "missing": self.missing,
                "reference_tokens": self.reference_tokens,
                "membership": [row.to_dict() for row in self.membership],
                "detection": [row.to_dict() for row in self.detection]}


def truncation_rows(records: Sequence[Mapping[str, Any]], slots: Mapping[str, ModelSlot]) -> list[dict[str, Any]]:
    """Appendix N's shares: per model and condition, truncated outputs over all outputs."""
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for record in records:
        model = str(record["model"])
        if model in slots:
            cell = counts[(model, str(record["condition"]))]
            cell[0] += truncated(record)
            cell[1] += 1
    return [{"model": model, "half": slots[model].half, "arm": slots[model].arm, "family": slots[model].family,
             "dose": slots[model].dose, "condition": condition,
             "truncated": hit, "outputs": total, "share": 100.0 * hit / total}
            for (model, condition), (hit, total) in sorted(counts.items())]


def untruncated(records: Sequence[Mapping[str, Any]], models: Iterable[str]) -> set[str]:
    """Tasks none of whose outputs by ``models`` (in any condition) was truncated."""
    chosen = set(models)
    seen_tasks = {str(r["task"]) for r in records if str(r["model"]) in chosen}
    cut = {str(r["task"]) for r in records if str(r["model"]) in chosen and truncated(r)}
    return seen_tasks - cut


def _relabelled(rows: Iterable[Mapping[str, Any]], slots: Mapping[str, ModelSlot],
                group: tuple[str, str, str]) -> list[dict[str, Any]]:
    """The rows of ``group``'s models with each model name replaced by its half (its aliases merge)."""
    return [{**row, "model": slots[str(row["model"])].half} for row in rows
            if str(row.get("model")) in slots and slots[str(row["model"])].group == group]


BASE = "base"  # what the base model's rows are relabelled to (the halves are "A" and "B")


def _base_rows(rows: Iterable[Mapping[str, Any]], slots: Mapping[str, ModelSlot], family: str) -> list[dict[str, Any]]:
    """The rows of the model ``family`` names (the base the adapters were trained from), relabelled ``base``."""
    if not family:
        return []
    return [{**row, "model": BASE} for row in rows if str(row.get("model")) == family and family not in slots]


def _signal_values(signal: str, kind: str, records: Sequence[Mapping[str, Any]],
                   likelihoods: Sequence[Mapping[str, Any]], others: Sequence[Mapping[str, Any]]
                   ) -> dict[tuple[str, str, str], float]:
    """One detection signal's values from the rows of its kind (.signals)."""
    if kind == "grade":
        return grade_values(records, signal)
    if kind == "likelihood":
        return likelihood_values(likelihoods, signal)
    if kind == "continuation":
        return continuation_values(others)
    return agreement_values(others)


def _group_detection(records: Sequence[Mapping[str, Any]], likelihoods: Sequence[Mapping[str, Any]],
                     others: Sequence[Mapping[str, Any]], *, split: ExposureSplit, slots: Mapping[str, str],
                     arm: str, family: str, dose: str, renamed: str, resamples: int, seed: int,
                     grades: Sequence[str] = (), covered: frozenset[str] | None = None) -> list[SignalAuroc]:
    """Every signal's detection rows of one family, arm and dose (rows relabelled by half; the base
    model's rows, if any, relabelled ``base``). The behavior grade is rated on the covered tasks
    when they are known, as its Table 2 row is."""
    try:
        share = share_of([row for row in likelihoods if row.get("model") != BASE])
    except ValueError as exc:
        raise ExposureError(f"{group_title(family, arm, dose)}: {exc}") from None
    found: list[SignalAuroc] = []
    for signal, (_, kind) in DETECTION_SIGNALS.items():
        if kind == "grade" and signal not in grades:
            continue
        values = _signal_values(signal, kind, records, likelihoods, others)
        if signal == "behavior" and covered is not None:
            values = {key: value for key, value in values.items() if key[1] in covered}
        if not values:
            continue
        found += rate_signal(values, split, slots, signal=signal, renamed=renamed, baseline=baseline(values, BASE),
                             family=family, arm=arm, dose=dose, min_k_ratio=share, resamples=resamples, seed=seed)
    return found


def membership_aurocs(rows: Sequence[Mapping[str, Any]], split: ExposureSplit, *, renamed: str = "random",
                      overrides: Mapping[str, tuple[str, str]] | None = None,
                      resamples: int = stats.DEFAULT_RESAMPLES, seed: int = 0) -> list[SignalAuroc]:
    """Per family, arm, likelihood signal and condition: the AUROC of seen versus unseen tasks
    (:mod:`.detection`), as plain data a report can cite (``SignalAuroc.to_dict``)."""
    return analyse(rows, split, renamed=renamed, grades=(), overrides=overrides, resamples=resamples,
                   seed=seed).membership


def _group_order(group: tuple[str, str, str]) -> tuple[Any, ...]:
    """Families by name, arms in ARMS' order, the paper's dose before stronger ones."""
    family, arm, dose = group
    return family, ARMS.index(arm) if arm in ARMS else len(ARMS), arm, dose != "paper", dose


def analyse(rows: Sequence[Mapping[str, Any]], split: ExposureSplit, *, renamed: str = "random",
            grades: Sequence[str] = ("behavior", "name", "parse"),
            overrides: Mapping[str, tuple[str, str]] | None = None,
            resamples: int = stats.DEFAULT_RESAMPLES, seed: int = 0,
            covered: Iterable[str] | None = None) -> ExposureAnalysis:
    """Every effect the rows allow, per family and arm with both halves present; the truncation analysis.

    With ``covered`` (the tasks the behavior grade covers, appendix J), the behavior rows of Table 2,
    F.1, O.1 and Figure T.1 are on those tasks only, as in the paper (90 there, 110 for the name grade).
    """
    slots = assign_models(rows, split, overrides=overrides)
    chosen = frozenset(covered) if covered is not None else None
    analysis = ExposureAnalysis(split, slots, covered=tuple(sorted(chosen)) if chosen is not None else None)

    def scope(grade: str, tasks: Iterable[str] | None = None) -> Iterable[str] | None:
        """The tasks ``grade``'s effects are computed on (None: every task of the split)."""
        if grade != "behavior" or chosen is None:
            return tasks
        return chosen if tasks is None else chosen & set(tasks)

    records = [row for row in rows if not is_likelihood_row(row) and "grades" in row]
    likelihoods = [row for row in rows if is_likelihood_row(row)]
    others = [row for row in rows if row.get("format") in (CONTINUATION_FORMAT, AGREEMENT_FORMAT) or is_output_row(row)]
    halves = {"A": "A", "B": "B"}  # after relabelling, a half's model is named by the half
    for group in sorted({slot.group for slot in slots.values()}, key=_group_order):
        family, arm, dose = group
        present = {slot.half for slot in slots.values() if slot.group == group}
        title = group_title(family, arm, dose)
        if present != set(HALVES):
            analysis.missing.append(f"{title}: no model trained on half {', '.join(sorted(set(HALVES) - present))}")
            continue
        common: dict[str, Any] = {"split": split, "slots": halves, "arm": arm, "family": family, "dose": dose,
                                  "renamed": renamed, "resamples": resamples, "seed": seed}
        group_records = _relabelled(records, slots, group)
        group_likelihoods = _relabelled(likelihoods, slots, group)
        detected = _group_detection(group_records + _base_rows(records, slots, family),
                                    group_likelihoods + _base_rows(likelihoods, slots, family),
                                    _relabelled(others, slots, group) + _base_rows(others, slots, family),
                                    grades=grades, covered=chosen, **common)
        analysis.detection += detected
        analysis.membership += [row for row in detected if row.kind == "likelihood" and row.form == "value"]
        before = len(analysis.effects)
        for grade in grades:
            found = effects(grade_values(group_records, grade), measure=grade, label=GRADE_LABELS.get(grade, grade),
                            unit="points", tasks=scope(grade), **common)
            if found is not None:
                analysis.effects.append(found)
        for measure, label in LIKELIHOOD_MEASURES.items():
            found = effects(likelihood_values(group_likelihoods, measure), measure=measure, label=label,
                            unit="log-likelihood", **common)
            if found is not None:
                analysis.effects.append(found)
        if len(analysis.effects) == before:
            analysis.missing.append(f"{title}: no task has values of both models in the original and the "
                                    f"{renamed} condition")
            continue
        if group_records:
            clean = sorted(untruncated(group_records, HALVES))
            analysis.untruncated_tasks[title] = clean
            for grade in grades:
                found = effects(grade_values(group_records, grade), measure=grade, label=GRADE_LABELS.get(grade, grade),
                                unit="points", tasks=scope(grade, clean), subset="untruncated", **common)
                if found is not None:
                    analysis.effects.append(found)
    analysis.truncation = truncation_rows(records, slots)
    analysis.reference_tokens = reference_lengths(likelihoods, {model: slot.family for model, slot in slots.items()})
    if not analysis.effects and not analysis.missing:
        analysis.missing.append("no rows of a model trained on half A and one trained on half B of this split "
                                "(adapters from tla-alias finetune say so themselves; name others with "
                                "--model-a and --model-b)")
    return analysis
