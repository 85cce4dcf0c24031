"""Reference pages generated from the package, so the docs cannot drift from the code.

A page asks for a generated part with one HTML comment on a line of its own, replaced by Markdown
before MyST parses the page (Sphinx's ``source-read`` event; nothing is written into the source tree):

* ``<!-- alias:options -->`` — every ``--alias-*`` option and ``alias_*`` ini key, from
  ``pytest_alias.run.options.OPTIONS`` (name, kind, default, choices, help);
* ``<!-- alias:records -->`` — the fields of the record and aggregate ``TypedDict``s of
  ``pytest_alias.records``, with their types, whether they are always present, and what they mean
  (the ``#:`` and trailing comments of the source, else ``FIELD_NOTES`` below);
* ``<!-- alias:outcomes -->`` — ``records.OUTCOMES`` in pipeline order, marked when they are in
  ``records.NOT_VERDICTS``, with ``OUTCOME_NOTES``;
* ``<!-- alias:stages -->`` — the ``vocabulary.Stage`` and ``vocabulary.Side`` values of a grade's
  ``details``, with their source comments;
* ``<!-- alias:shortcuts -->`` — the shortcut names of ``pytest_alias.switches.NAMES``.

A field, outcome or converter the notes do not describe, or a note about one the code no longer has,
is a Sphinx warning, so the ``-W`` build in ``tests/test_docs.py`` fails until the page says what it is.
"""

from __future__ import annotations

import ast
import inspect
import re
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

_SPECIAL = re.compile(r"([\\`*_\[\]<>|#{}$~!])")


def md(text: str) -> str:
    """``text`` as literal Markdown (every character MyST would read as markup escaped; runs of white
    space become one space, kept at either end)."""
    return _SPECIAL.sub(r"\\\1", re.sub(r"\s+", " ", str(text)))


def md_source(text: str) -> str:
    """A source comment or docstring as Markdown: its ``literal`` spans as code, the rest escaped."""
    parts = re.split(r"``(.+?)``", " ".join(str(text).split()))
    return "".join(code(part) if index % 2 else md(part) for index, part in enumerate(parts))


def code(text: Any) -> str:
    text = str(text)
    fence = "``" if "`" in text else "`"
    return f"{fence}{text}{fence}" if fence == "`" else f"`` {text} ``"


# --------------------------------------------------------------------------- options

#: How each converter of the option table reads its value.
CONVERTERS = {
    "integer": "an integer (bounds in the help)",
    "seconds": "a positive number of seconds",
    "positive_number": "a positive number",
    "_conditions": "a comma-separated list of conditions",
    "choice": "one of the choices",
}


#: Facts beyond the one-line help, and where an option is explained (Markdown, links relative to
#: ``reference/options.md``).
OPTION_MORE: dict[str, str] = {
    "model": "Model specs and what each needs: [models](models.md). Third-party packages add models through "
             "the `alias_register_models` hook ([add a model](../how-to/add-a-model.md)).",
    "grade": "[The three grades](../explanation/grades.md).",
    "suite": "[Suites](suites.md), including the paper's TLA⁺-Bench sets (`tlabench:PATH#test`).",
    "conditions": "`meaningful` needs `--alias-meaningful-maps` ([meaningful names]"
                  "(../explanation/controls.md#meaningful-names-appendix-r)).",
    "samples": "The rate of a task is the fraction of its samples that pass ([statistics]"
               "(../explanation/statistics.md)).",
    "seed": "One seed for renaming, sampling and the bootstrap.",
    "rename-seeds": "[Several renamings per task](../explanation/statistics.md#several-renamings-per-task).",
    "timeout": "[Limits and budgets](../explanation/toolchain.md#limits-and-budgets).",
    "mode": "[Modes of the behavior grade](../explanation/grades.md#behavior-section-3-appendices-h-and-i).",
    "name-rule": "[The name grade's two rules](../explanation/grades.md#name-appendix-h); the same option as "
                 "`tla-alias grade --name-rule`.",
    "search-budget": "Every behavior-graded record carries `search_budget_s`; a budget other than the default "
                     "is named among the deviations. The same option as `tla-alias grade --search-budget`.",
    "cache-dir": "Default: `ALIAS_CACHE_DIR`, else the platform's user cache folder "
                 "([the run cache](../explanation/toolchain.md#the-run-cache)).",
    "store": "`rw` read and write, `ro` offline grading (a missing output stops the run), `refresh` regenerate, "
             "`off` ([how a run works](../explanation/run.md#each-piece-of-work-once)).",
    "report": "[Report files](files.md#report-files).",
    "gate": "Gate grammar and a CI example: [gate model CI](../how-to/gate-ci.md).",
    "no-fail": "[Gate model CI](../how-to/gate-ci.md).",
    "lora": "A spec's own `?lora=` wins ([local and LoRA models](../how-to/local-model.md)).",
    "meaningful-maps": "Written by `tla-alias propose-names` ([meaningful names]"
                       "(../explanation/controls.md#meaningful-names-appendix-r)).",
    "resamples": "[Statistics](../explanation/statistics.md).",
    "prefill": "Every record says so (`generation.prefill`) ([the first run](../tutorial/first-run.md)).",
    "max-new-tokens": "The paper: 1,024. A deviation the summary header names.",
    "covered": "[The covered set](../explanation/covered-set.md).",
    "save-outputs": "The file holds each output with its model, condition version and seed "
                    "([replay files](files.md#replay-files)).",
    "dry-run": "[Estimate the cost first](../how-to/api-model.md#estimate-the-cost-first).",
    "rename-map": "[Published maps](../explanation/cir.md#published-maps-instead-of-seeded-names); "
                  "the header and `settings.rename_map` name the file.",
    "timeout-from-reference": "The reference's check time is cached, so every worker sets the same limit. "
                              "Every record carries `tlc_limit` (`seconds`, `from_reference`).",
    "exposure-split": "[The exposure experiment](../explanation/exposure.md).",
}


def _default(option: Any) -> str:
    value = option.default
    if option.kind == "flag":
        return "off"
    if value is None:
        return "none (see the description)"
    if isinstance(value, (tuple, list)):
        return code(",".join(map(str, value)))
    return code(f"{value:g}" if isinstance(value, float) else value)


def options_markdown() -> str:
    from pytest_alias.run.options import OPTIONS

    names = {option.name for option in OPTIONS}
    for name in OPTION_MORE:
        if name not in names:
            logger.warning(f"alias_docs: OPTION_MORE describes --alias-{name}, which the option table lacks")
    lines: list[str] = []
    for option in OPTIONS:
        flag = f"--alias-{option.name}"
        if option.kind == "list":
            takes = "a value; repeatable (ini key: one value per line)"
        elif option.kind == "flag":
            takes = "no value, a flag (ini key: `true`/`false`)"
        elif option.choices:
            takes = "one of " + ", ".join(code(choice) for choice in option.choices)
        elif option.convert is not None:
            name = getattr(option.convert, "__name__", "")
            if name not in CONVERTERS:
                logger.warning(f"alias_docs: option {flag}: converter {name!r} has no entry in CONVERTERS")
            takes = CONVERTERS.get(name, md(name))
        else:
            takes = "a string (a path, a spec or a file)"
        lines += [f"({option.dest})=", f"## `{flag}`", "",
                  f"- ini key: `{option.dest}` ({option.ini_type})",
                  f"- takes: {takes}", f"- default: {_default(option)}", "",
                  md(option.help), ""]
        if option.name in OPTION_MORE:
            lines += [OPTION_MORE[option.name], ""]
        else:
            logger.warning(f"alias_docs: --alias-{option.name} has no OPTION_MORE entry (say where it is explained)")
    return "\n".join(lines)


# --------------------------------------------------------------------------- records

#: What the fields without a source comment mean, per ``TypedDict``.
FIELD_NOTES: dict[str, dict[str, str]] = {
    "Record": {
        "schema": "the record format's version (`RECORD_SCHEMA`)",
        "id": "the case id: `<task>-<condition>[-r<j>][-<model>]-s<k>`, as in the item id",
        "task": "the task id (`die-hard`)",
        "condition": "`original`, `random` or `meaningful` (every renaming of a multi-seed run is `random`)",
        "sample": "the sample's index within its task and condition, from 0",
        "model": "the model spec as given (credentials in a `base_url` redacted)",
        "grades": "grade name → its `GradeEntry` (only the grades the run asked for)",
        "similarity": "`bleu4` and `rouge_l` (percent) of the extracted module against the condition's "
                      "reference, comments removed (Table V.1)",
        "hidden_names": "the names the task's cfg requires that its description never states",
        "has_hidden_names": "whether `hidden_names` is non-empty (the split of Table 1 and Figure S.1)",
        "known_names": "`fixed` and `broader`: the known algorithm, protocol and problem names the condition's "
                       "description still carries (appendix M; `pytest_alias/data/known_names.json`)",
        "mode": "the behavior grade's mode, `paper` or `extended`",
        "generation": "how the text was obtained: `model_identity` (everything that decides the output: the "
                      "store key), `finish_reason`, `truncated`, `from_store`, `usage` (input and output tokens), "
                      "`cost_usd`, `prefill` (the answer's start written for the model, empty when none), `error` "
                      "for a model error, and `exposure` for a fine-tuned model (split, half, arm, precision)",
        "timings": "where the grading time went: `grading_s`, and `sany_s`, `tlc_s`, `sany_runs`, `tlc_runs` for "
                   "the SANY and TLC runs launched for this record (cache hits cost none)",
        "versions": "`alias` and `tlc` versions, and the content hashes of the `task` and the `condition` "
                    "(a replay line for another condition version is refused)",
        "outcome": "the record's outcome: its first failing grade's (see the outcome table)",
        "seed": "the run's `--alias-seed` (a replay line recorded for another seed is refused)",
    },
    "GradeEntry": {
        "passed": "the verdict (see `not_applicable`, `not_gradeable` and the outcomes that are no verdict)",
        "seconds": "wall-clock seconds the grade took",
        "reason": "why it failed, in one line (TLC's message, the missing hidden name, the mapping tried); "
                  "null on a pass",
    },
    "Rate": {
        "mean": "the mean over tasks of each task's fraction of passing samples (a fraction in [0, 1]; null "
                "when no task has a verdict)",
        "tasks": "how many tasks it averages",
    },
    "Decrease": {
        "mean": "original − renamed, percentage points, the mean over paired tasks",
        "ci_low": "95% bootstrap CI, low end (10,000 resamples of tasks by default)",
        "ci_high": "95% bootstrap CI, high end",
        "n": "paired tasks",
        "ci90_low": "90% CI, low end (appendix P's TOST)",
        "ci90_high": "90% CI, high end",
        "margin": "the equivalence margin in points (5)",
        "equivalent": "whether the 90% CI lies inside ±margin",
        "renamed": "the renamed condition's rate over the paired tasks, in percent",
        "sign_p": "two-sided sign-test p over the tasks whose rate changed",
    },
    "GradeAggregate": {
        "rates": "condition → `Rate`",
        "decreases": "renamed condition → `Decrease` (original − that condition), null when no task pairs",
        "split": "renamed condition → `hidden_names` / `every_name_stated` → `Decrease` on the tasks with a "
                 "hidden name / whose description states every name",
        "not_graded": "condition → samples without a verdict (model errors, grader errors…)",
        "paper_rule_rates": "condition → `Rate` with no-cfg tasks counted as failing (the paper's rule)",
        "lenient_rates": "condition → `Rate` of SANY's exit code alone (parse grade)",
        "covered": "the rates and decreases on the covered tasks (`--alias-covered`)",
        "equivalence_random_meaningful": "random − meaningful with TOST (appendix R)",
    },
    "ModelAggregate": {
        "grades": "grade → `GradeAggregate`",
        "similarity": "condition → mean `bleu4` and `rouge_l` (Table V.1)",
        "tasks": "tasks with at least one record",
        "hidden_name_tasks": "of those, tasks with a hidden required name",
        "every_name_stated_tasks": "of those, tasks whose description states every required name",
    },
    "Aggregate": {
        "schema": "the aggregate format's version (`AGGREGATE_SCHEMA`)",
        "seed": "the bootstrap seed",
        "resamples": "bootstrap resamples",
        "margin": "the TOST margin in points",
        "records": "how many records it aggregates",
        "models": "model → `ModelAggregate`",
    },
}

#: The record types in the order the page explains them.
RECORD_TYPES = ("Record", "GradeEntry", "Aggregate", "ModelAggregate", "GradeAggregate", "Rate", "Decrease")


def _field_comments(cls: type) -> dict[str, str]:
    """``field → comment`` from the class's source: the ``#:`` lines above a field, else its trailing comment."""
    lines = inspect.getsource(cls).splitlines()
    comments: dict[str, str] = {}
    pending: list[str] = []
    for line in lines[1:]:
        stripped = line.strip()
        if stripped.startswith("#:"):
            pending.append(stripped[2:].strip())
            continue
        match = re.match(r"\s+(\w+):\s*[^#]+?(?:#\s*(.*))?$", line)
        if match and not stripped.startswith(("#", '"')):
            text = " ".join(pending) if pending else (match.group(2) or "")
            if text:
                comments[match.group(1)] = text
        pending = [] if not stripped.startswith("#") else pending
    return comments


def _type_text(annotation: str) -> tuple[str, bool]:
    """``("str", required)`` from a string annotation (``NotRequired[str]`` → ``("str", False)``)."""
    tree = ast.parse(annotation, mode="eval").body
    if isinstance(tree, ast.Subscript) and isinstance(tree.value, ast.Name) and tree.value.id == "NotRequired":
        return ast.unparse(tree.slice), False
    return annotation, True


def records_markdown() -> str:
    import pytest_alias.records as records

    lines: list[str] = []
    for name in RECORD_TYPES:
        cls = getattr(records, name)
        notes = FIELD_NOTES.get(name, {})
        comments = _field_comments(cls)
        annotations = dict(cls.__annotations__)
        for field in notes:
            if field not in annotations:
                logger.warning(f"alias_docs: FIELD_NOTES[{name!r}] describes {field!r}, which {name} lacks")
        doc = " ".join((cls.__dict__.get("__doc__") or "").split())  # its own, never dict's
        lines += [f"(record-{name.lower()})=", f"## `{name}`", "", md_source(doc) if doc else "", "",
                  "| field | type | always present | meaning |", "|---|---|---|---|"]
        for field, annotation in annotations.items():
            text, required = _type_text(getattr(annotation, "__forward_arg__", str(annotation)))
            meaning = comments.get(field)
            meaning = md_source(meaning) if meaning else notes.get(field)
            if not meaning:
                logger.warning(f"alias_docs: {name}.{field} has no source comment and no FIELD_NOTES entry")
                meaning = ""
            lines.append(f"| `{field}` | {code(text)} | {'yes' if required else 'no'} | {meaning} |")
        lines.append("")
    return "\n".join(lines)


# --------------------------------------------------------------------------- outcomes

#: What each outcome means and what to do about it (by its label: ``records.Outcome.label``).
OUTCOME_NOTES = {
    "model error": "the model gave no answer (a replay file without the line, an API error after the retries, "
                   "a local model that raised); never stored, asked again next run",
    "no module found": "no `MODULE` could be taken from the text (prose only, empty, over 200 KiB, a standard "
                       "module's name, a refused import)",
    "cut at token limit": "no parseable module because generation stopped at the token limit before `====` "
                          "(appendix N's truncation); raise `--alias-max-new-tokens`",
    "parse error": "strict SANY found a lexical, parse or fatal error",
    "semantic error": "SANY exited 0 but reported a semantic error (an undefined operator): the paper's strict "
                      "parse counts it as a failure, the lenient rate does not",
    "TLC config error": "the cfg cannot be bound to the output or TLC rejects it (a hidden name the output "
                        "lacks, a constant it does not declare)",
    "TLC error": "TLC stopped on an error of the output (an evaluation error, a crash, a run that stopped early)",
    "invariant or property violation": "TLC found a violated invariant, property or ASSUME (the reason quotes "
                                       "the trace)",
    "deadlock": "TLC found a deadlock the cfg does not allow",
    "timeout": "a TLC run reached the time limit (300 s)",
    "out of memory": "TLC ran out of the heap cap (`ALIAS_JAVA_HEAP`)",
    "too large": "the output spent a byte budget (printed output, state graph or disk)",
    "behavior differs": "no mapping of variables and constants passes both refinement checks",
    "search budget spent": "the behavior search ran out of `--alias-search-budget` before a verdict",
    "reference not gradeable": "the task's reference fails this grade against itself (or its cfg fails TLC)",
    "toolchain limit": "the configured `tla2tools.jar` predates a keyword of the task's cfg",
    "grader error": "the grader or its machine failed (a JVM that did not start, a full disk, a kill)",
    "pass": "every grade the run asked for passed (or cannot apply: a task without a cfg)",
}


def outcomes_markdown() -> str:
    from pytest_alias.records import NOT_VERDICTS, OUTCOMES

    labels = {outcome.label for outcome in OUTCOMES}
    for label in OUTCOME_NOTES:
        if label not in labels:
            logger.warning(f"alias_docs: OUTCOME_NOTES describes {label!r}, which records.OUTCOMES lacks")
    lines = ["| outcome | code in records | a verdict on the output? | meaning |", "|---|---|---|---|"]
    for outcome in OUTCOMES:
        note = OUTCOME_NOTES.get(outcome.label)
        if note is None:
            logger.warning(f"alias_docs: outcome {outcome.label!r} has no OUTCOME_NOTES entry")
        verdict = "no: left out of every rate" if outcome in NOT_VERDICTS else "yes"
        lines.append(f"| {outcome.label} | `{outcome.value}` | {verdict} | {note or ''} |")
    return "\n".join(lines) + "\n"


def _enum_comments(cls: type) -> dict[str, str]:
    comments: dict[str, str] = {}
    for line in inspect.getsource(cls).splitlines():
        match = re.match(r"\s+([A-Z_]+)\s*=\s*\"[^\"]*\"\s*(?:#\s*(.*))?$", line)
        if match:
            comments[match.group(1)] = match.group(2) or ""
    return comments


def stages_markdown() -> str:
    from pytest_alias.vocabulary import Side, Stage

    lines = ["| `details.stage` | how far the grade got |", "|---|---|"]
    comments = _enum_comments(Stage)
    for stage in Stage:
        lines.append(f"| `{stage.value}` | {md_source(comments.get(stage.name, ''))} |")
    lines += ["", "| `details.side` | who a failing verdict is about |", "|---|---|"]
    side_notes = {"output": "the model's output: the only side that counts against a model",
                  "reference": "the task's reference (outcome `reference not gradeable`)",
                  "grader": "the grader, its toolchain or machine (`toolchain limit`, `search budget spent`, "
                            "`grader error`)",
                  "model": "the model call (`model error`)"}
    for side in Side:
        if side.value not in side_notes:
            logger.warning(f"alias_docs: Side {side.value!r} has no note")
        lines.append(f"| `{side.value}` | {side_notes.get(side.value, '')} |")
    return "\n".join(lines) + "\n"


def shortcuts_markdown() -> str:
    from pytest_alias.switches import NAMES

    return ", ".join(code(name) for name in NAMES) + "\n"


GENERATORS = {"options": options_markdown, "records": records_markdown, "outcomes": outcomes_markdown,
              "stages": stages_markdown, "shortcuts": shortcuts_markdown}
_MARKER = re.compile(r"^<!-- alias:(\w+) -->$", re.M)


def _source_read(app: Sphinx, docname: str, source: list[str]) -> None:
    def replace(match: re.Match[str]) -> str:
        generator = GENERATORS.get(match.group(1))
        if generator is None:
            logger.warning(f"alias_docs: {docname}: unknown generated part {match.group(1)!r}")
            return ""
        return generator()

    source[0] = _MARKER.sub(replace, source[0])


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("source-read", _source_read)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
