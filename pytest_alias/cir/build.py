"""Build a CIR test set: rename and verify every task of a suite, write both conditions and a summary.

Layout of the output folder::

    OUT/summary.json, OUT/summary.md, OUT/test_ids.json, OUT/eligible_ids.json (for ?ids=)
    OUT/tasks/<task id>/<condition>/{<Module>.tla…, <Main>.cfg, description.md, map.json, condition.json}

Everything is written into a temporary sibling folder and moved into place at the end, so a failed
or interrupted build leaves nothing half-written (and an earlier test set at OUT stays intact).
"""

from __future__ import annotations

from ..errors import UsageProblem

import concurrent.futures
import glob
import json
import os
import re
import shutil
import statistics
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

from ..atomic import as_umask_allows, check_output_folder, path_inside
from ..tasks.model import Condition, Task
from ..tasks.selection import behavior_exclusion
from ..tasks.suites import suite_selection
from ..tla.runner import TlaTools, default_tools
from ..tla.specfiles import IDENTIFIER
from .analysis import HiddenName, hidden_names, identifier_kind, kept_domain_words, kind_table, similarity
from .conditions import RenamedCondition, published_condition, random_condition
from .describe import description_damage, description_rule_names
from ..vocabulary import TLC_TIMEOUT_S


class BuildError(UsageProblem):
    """The output folder cannot be used."""


@dataclass(frozen=True)
class TaskReport:
    """What building one task found."""

    task: Task
    renamed: RenamedCondition
    hidden: tuple[HiddenName, ...]
    similarity: float

    @property
    def verified(self) -> bool:
        return self.renamed.valid

    @property
    def damage(self) -> tuple[str, ...]:
        """The words blind replacement would change in the description that the paper's rule keeps."""
        cfg_names, module_names = description_rule_names(self.task)
        return description_damage(self.task.description, self.renamed.renaming.name_map, cfg_names, module_names)

    def to_dict(self) -> dict[str, Any]:
        verification = self.renamed.verification
        return {
            "id": self.task.id,
            "main": self.task.main,
            "has_cfg": self.task.cfg is not None,
            "verified": self.verified,
            "failure": verification.failure if verification else None,
            "renamed_identifiers": len(self.renamed.renaming.name_map),
            "kept": list(self.renamed.renaming.kept),
            "hidden": [{"name": h.name, "category": h.category} for h in self.hidden],
            "similarity": round(self.similarity, 4),
            "description_damage": list(self.damage),
            "counts": verification.to_dict() if verification else None,
        }


@dataclass
class BuildSummary:
    """Table K.1-style task counts and Table C.1-style identifier kinds over the verified tasks."""

    reports: list[TaskReport] = field(default_factory=list)
    seed: int = 0
    suite: str | None = None  # the suite string the tasks came from, so the JSON names the set behind each number

    def counts(self) -> dict[str, int]:
        verified = [r for r in self.reports if r.verified]
        with_cfg = [r for r in verified if r.task.cfg is not None]
        return {
            "tasks": len(self.reports),
            "verified": len(verified),
            "with_cfg": len(with_cfg),
            # Appendix K's 102: the tasks the behavior grade is validated on.
            "no_fixtures_or_random_values": sum(1 for r in with_cfg if behavior_exclusion(r.task) is None),
            # Table K.1's last two rows split the whole test set (78 + 33 = 111): a task without a cfg
            # requires no name, so it states every one — the plugin's summary counts the same way.
            "with_hidden_names": sum(1 for r in verified if r.hidden),
            "every_name_stated": sum(1 for r in verified if not r.hidden),
            "hidden_names": sum(len(r.hidden) for r in with_cfg),
            "renamed_identifiers": sum(len(r.renamed.renaming.name_map) for r in verified),
        }

    def kinds(self) -> Any:
        verified = [r for r in self.reports if r.verified]
        renamed = [old for r in verified for old in r.renamed.renaming.name_map]
        hidden = [h for r in verified for h in r.hidden]
        return kind_table(renamed, hidden)

    def section3(self) -> dict[str, Any]:
        """Section 3's numbers over the verified tasks: hidden names by category, tasks with one or with
        five or more, hidden names that follow a TLA⁺ convention, and domain identifiers whose words the
        original description uses and the renamed one keeps (the paper's 199/219)."""
        verified = [r for r in self.reports if r.verified]
        kept = used = 0
        for report in verified:
            k, u = kept_domain_words(report.renamed.renaming.name_map, report.task.description,
                                     report.renamed.condition.description)
            kept, used = kept + k, used + u
        hidden = [h for r in verified for h in r.hidden]
        return {"hidden_names": len(hidden), "hidden_by_category": _count(h.category for h in hidden),
                "tasks_with_hidden_names": sum(1 for r in verified if r.hidden),
                "tasks_with_five_or_more": sum(1 for r in verified if len(r.hidden) >= 5),
                "hidden_conventions": sum(1 for h in hidden if identifier_kind(h.name) == "convention"),
                "domain_words_kept": kept, "domain_words_used": used}

    def appendix_g(self) -> dict[str, Any]:
        """Appendix G's numbers: identifiers renamed per specification (median, range) and the median
        difflib similarity of each renamed main module to its original, over the verified tasks; and
        the renamed identifiers over every task of the suite, verified or not, which is section 3's
        median over the utility modules when the suite is ``tlabench:PATH#utility``."""
        verified = [r for r in self.reports if r.verified]
        return {"renamed_per_spec": _spread([len(r.renamed.renaming.name_map) for r in verified]),
                "median_similarity": statistics.median([r.similarity for r in verified]) if verified else None,
                "renamed_per_task_all": {"n": len(self.reports),
                                         **_spread([len(r.renamed.renaming.name_map) for r in self.reports])}}

    def descriptions(self) -> dict[str, Any]:
        """Section 3's "this rule avoids damage to N descriptions": over the verified tasks, those whose
        description blind replacement would change where the three-part rule keeps a word."""
        verified = [r for r in self.reports if r.verified]
        damaged = {r.task.id: list(r.damage) for r in verified if r.damage}
        return {"kept_from_damage": len(damaged), "of": len(verified), "tasks": damaged}

    def to_dict(self) -> dict[str, Any]:
        verified = [r for r in self.reports if r.verified]
        table = self.kinds()
        return {
            "seed": self.seed,
            "suite": self.suite,
            "task_set": suite_selection(self.suite) if self.suite else None,
            "counts": self.counts(),
            "section3": self.section3(),
            "appendix_g": self.appendix_g(),
            "descriptions": self.descriptions(),
            "hidden_by_category": _count(h.category for r in verified for h in r.hidden),
            "identifier_kinds": {row.kind: {"renamed": row.renamed, "hidden": row.hidden} for row in table.rows},
            "renamed_per_spec": _spread([len(r.renamed.renaming.name_map) for r in verified]),
            "median_similarity": statistics.median([r.similarity for r in verified]) if verified else None,
            "tasks": [r.to_dict() for r in self.reports],
        }

    def _utility(self) -> bool:
        return bool(self.suite) and suite_selection(self.suite or "") == "utility"

    def headline(self) -> list[str]:
        """What ``tla-alias build`` prints: Table K.1's counts, appendix G's renamed identifiers (over
        the utility modules for ``#utility``) and the descriptions the rule keeps from damage."""
        counts = self.counts()
        appendix_g = self.appendix_g()
        return [
            f"{counts['verified']}/{_counted(counts['tasks'], 'task')} verified after CIR (the test set); "
            f"{counts['with_cfg']} with a TLC configuration, {counts['no_fixtures_or_random_values']} of them "
            f"without test fixtures or random values; {counts['with_hidden_names']} with hidden names, "
            f"{counts['every_name_stated']} with every name stated",
            f"{_renamed_sentence(appendix_g)}. {_all_tasks_sentence(appendix_g, self._utility())}",
            _damage_sentence(self.descriptions()),
        ]

    def to_markdown(self) -> str:
        counts = self.counts()
        lines = [
            "# CIR test set", "", f"Seed {self.seed}." + (f" Suite `{self.suite}`." if self.suite else ""), "",
            "| Set | n |", "|---|---|",
            f"| Tasks | {counts['tasks']} |",
            f"| Pass SANY and TLC after CIR (test set) | {counts['verified']} |",
            f"| With a TLC configuration | {counts['with_cfg']} |",
            f"| No test fixtures or random values | {counts['no_fixtures_or_random_values']} |",
            f"| With a hidden required name | {counts['with_hidden_names']} |",
            f"| With every required name stated | {counts['every_name_stated']} |",
            "", "## Identifier kinds", "", self.kinds().render(), "",
            *_statistics_lines(self.section3(), self.appendix_g(), self.descriptions(), self._utility()),
        ]
        failed = [r for r in self.reports if not r.verified]
        if failed:
            lines += ["## Not verified", ""] + [f"- `{r.task.id}`: {r.renamed.verification.failure}"  # type: ignore[union-attr]
                                                  for r in failed] + [""]
        return "\n".join(lines)


def _statistics_lines(section3: dict[str, Any], appendix_g: dict[str, Any], descriptions: dict[str, Any],
                      utility: bool = False) -> list[str]:
    """Section 3's hidden-name, domain-word and description counts and appendix G's renaming
    statistics, as Markdown."""
    by = section3["hidden_by_category"]
    similarity_text = "–" if appendix_g["median_similarity"] is None else f"{appendix_g['median_similarity']:.2f}"
    categories = ", ".join(_counted(by.get(c, 0), c) for c in ("constant", "invariant", "property", "constraint"))
    return [
        "## Hidden required names (section 3)", "",
        f"{_counted(section3['hidden_names'], 'hidden name')}: {categories}; in "
        f"{_counted(section3['tasks_with_hidden_names'], 'task')}, {section3['tasks_with_five_or_more']} of them with "
        f"five or more; {section3['hidden_conventions']} {_verb(section3['hidden_conventions'], 'follows', 'follow')} "
        f"a TLA⁺ convention. Domain identifiers whose words the original description uses: "
        f"{section3['domain_words_kept']}/{section3['domain_words_used']} keep them after CIR.", "",
        "## Renamed descriptions (section 3)", "",
        _damage_sentence(descriptions) + ".", "",
        "## Renaming (appendix G)", "",
        f"{_renamed_sentence(appendix_g)}; median difflib similarity of renamed to original: {similarity_text}. "
        f"{_all_tasks_sentence(appendix_g, utility)}.", "",
    ]


def _spread(values: list[int]) -> dict[str, Any]:
    """Median, least and most of ``values`` (None for each when there are none)."""
    return {"median": statistics.median(values) if values else None,
            "min": min(values, default=None), "max": max(values, default=None)}


def _plural(word: str) -> str:
    # "property" -> "properties", "task" -> "tasks": never "propertys".
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "i", "o", "u"):
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    return word + "s"


def _counted(n: int, word: str) -> str:
    """``n`` and ``word``, plural unless ``n`` is 1: "1 property", "0 properties"."""
    return f"{n} {word if n == 1 else _plural(word)}"


def _verb(n: int, singular: str, plural: str) -> str:
    return singular if n == 1 else plural


def _damage_sentence(descriptions: dict[str, Any]) -> str:
    kept, of = descriptions["kept_from_damage"], descriptions["of"]
    return (f"The three-part rule keeps {kept} of {_counted(of, 'verified description')} from damage (blind "
            "replacement of every renamed identifier would change a word there that the rule keeps)")


def _renamed_sentence(appendix_g: dict[str, Any]) -> str:
    per_spec = appendix_g["renamed_per_spec"]
    return (f"Identifiers renamed per verified specification: median {per_spec['median']}, from {per_spec['min']} "
            f"to {per_spec['max']}")


def _all_tasks_sentence(appendix_g: dict[str, Any], utility: bool) -> str:
    every = appendix_g["renamed_per_task_all"]
    what = (f"the {_counted(every['n'], 'utility module')} (gold minus system; section 3: a median of five over 257)"
            if utility else f"all {_counted(every['n'], 'task')} of the suite, verified or not")
    return f"Identifiers renamed over {what}: median {every['median']}, from {every['min']} to {every['max']}"


def _count(items: Iterable[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    return dict(sorted(counts.items()))


def build_task(task: Task, seed: int, tools: TlaTools | None = None, timeout: float = TLC_TIMEOUT_S,
               rename_maps: Mapping[str, Mapping[str, str]] | None = None) -> TaskReport:
    """Rename and verify one task: with names drawn from ``seed``, or from its published map in
    ``rename_maps`` when given (a task without one fails with that reason)."""
    renamed = (random_condition(task, seed, tools=tools, timeout=timeout) if rename_maps is None
               else published_condition(task, rename_maps.get(task.id), tools=tools, timeout=timeout))
    original_text = "\n".join(text for _, text in task.modules)
    renamed_text = "\n".join(text for _, text in renamed.condition.modules)
    return TaskReport(task, renamed, tuple(hidden_names(task.description, task.cfg)),
                      similarity(original_text, renamed_text))


def condition_files(folder: Path, condition: Condition) -> list[Path]:
    """The files one condition is written as, every one checked to lie inside ``folder`` before any is
    written: a module name comes from input (a published map, an output's header), so ``../x`` or an
    absolute name is refused here with its reason, never joined to a path."""
    names = [f"{name}.tla" for name, _ in condition.modules]
    if condition.cfg is not None:
        names.append(f"{condition.main}.cfg")
    for name, _ in condition.modules:
        if not IDENTIFIER.fullmatch(name):
            raise BuildError(f"module name {name!r} of task {condition.task_id} is not a TLA+ identifier (letters, "
                             "digits and _, not all digits), so it cannot name a file")
    return [path_inside(folder, name) for name in [*names, "description.md", "map.json", "condition.json"]]


def write_condition(folder: Path, condition: Condition, extra: dict[str, Any] | None = None) -> list[Path]:
    """Write one condition's files into ``folder`` (all names checked first); returns the files written."""
    written = condition_files(folder, condition)
    texts = [text for _, text in condition.modules] + ([condition.cfg] if condition.cfg is not None else [])
    texts += [condition.description, json.dumps(condition.names, indent=2, sort_keys=True) + "\n",
              json.dumps({"task": condition.task_id, "condition": condition.kind, "seed": condition.seed,
                          "main": condition.main, **(extra or {})}, indent=2) + "\n"]
    folder.mkdir(parents=True, exist_ok=True)
    for path, text in zip(written, texts):
        path.write_text(text, encoding="utf-8")
    return written


def check_out(out: Path) -> None:
    """Raise :class:`UsageProblem` unless ``out`` can take a finished folder: nothing yet, or an earlier
    ALIAS output (never anything else, a symbolic link or a system folder). Called before any work and
    any write, and again when the folder is moved into place."""
    check_output_folder(out, "out")
    if out.exists() and any(out.iterdir()) and not (out / "summary.json").is_file() \
            and not (out / "map.json").is_file():
        raise BuildError(f"{out} exists and is not an ALIAS output folder; choose another --out")


def publish(staging: Path, out: Path) -> None:
    """Move a finished folder to ``out``, replacing an earlier ALIAS output there (never anything else)."""
    check_out(out)
    if out.exists():
        trash = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.old-{os.getpid()}-"))
        os.replace(out, trash / out.name)
        shutil.rmtree(trash, ignore_errors=True)
    os.replace(staging, out)


def staging_dir(out: Path) -> Path:
    """A temporary folder beside ``out`` (same file system, so the final move is atomic), named with
    this process's id; the leftovers of builds that were killed before they could clean up are
    removed first. The folder gets the permissions the umask allows (``mkdtemp`` alone gives 0700)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    remove_leftovers(out)
    staging = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.tmp-{os.getpid()}-"))
    as_umask_allows(staging, folder=True)
    return staging


_LEFTOVER = re.compile(r"\.(?P<name>.+)\.(?:tmp|old)-(?:(?P<pid>\d+)-)?[^.]+")


def remove_leftovers(out: Path) -> list[Path]:
    """Remove the hidden staging and trash folders of earlier builds into ``out`` whose process is
    gone (a build killed mid-way: no ``finally`` ran); returns what was removed."""
    removed = []
    for entry in out.parent.glob(f".{glob.escape(out.name)}.*-*"):
        match = _LEFTOVER.fullmatch(entry.name)
        if match is None or match["name"] != out.name or not entry.is_dir():
            continue
        if match["pid"] is not None and _alive(int(match["pid"])):
            continue  # a build running now (named by an older version: no pid, removed)
        shutil.rmtree(entry, ignore_errors=True)
        removed.append(entry)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


def build_test_set(tasks: list[Task], out: Path, *, seed: int = 0, workers: int = 2,
                   tools: TlaTools | None = None, timeout: float = TLC_TIMEOUT_S,
                   rename_maps: Mapping[str, Mapping[str, str]] | None = None,
                   suite: str | None = None) -> BuildSummary:
    """Rename and verify every task (in parallel), write both conditions per task and the summary;
    with ``rename_maps``, the renamed condition comes from the published maps instead of ``seed``.
    ``suite`` is the suite string the tasks came from, named in the summary."""
    tools = tools or default_tools()
    check_out(out)  # before any work: a refused --out costs nothing and writes nothing
    staging = staging_dir(out)
    try:
        with concurrent.futures.ThreadPoolExecutor(max(1, workers)) as pool:
            reports = list(pool.map(lambda task: build_task(task, seed, tools, timeout, rename_maps), tasks))
        summary = BuildSummary(reports, seed, suite)
        bases = {report.task.id: path_inside(staging / "tasks", report.task.id) for report in reports}
        for report in reports:  # every file name checked before the first is written
            condition_files(bases[report.task.id] / "original", report.task.original())
            condition_files(bases[report.task.id] / "random", report.renamed.condition)
        for report in reports:
            base = bases[report.task.id]
            write_condition(base / "original", report.task.original(), {"verified": True})
            write_condition(base / "random", report.renamed.condition, report.to_dict())
        (staging / "summary.json").write_text(json.dumps(summary.to_dict(), indent=2) + "\n", encoding="utf-8")
        (staging / "summary.md").write_text(summary.to_markdown(), encoding="utf-8")
        # Id files a suite string reads back with ?ids= (the test set, and the tasks the grader is validated on).
        verified = [r for r in reports if r.verified]
        id_sets = {"test": [r.task.id for r in verified],
                   "eligible": [r.task.id for r in verified if behavior_exclusion(r.task) is None]}
        for name, ids in id_sets.items():
            (staging / f"{name}_ids.json").write_text(json.dumps(ids) + "\n", encoding="utf-8")
        publish(staging, out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return summary
