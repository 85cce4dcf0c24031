"""The paper's task sets (appendix K) as rules a suite string can name.

A TLA+-Bench suite may end in ``#SET`` (combinable with a description kind, ``#test#intent_claude``):

* ``gold``: the model-checked tier (every ``specs/gold`` spec the loader can use; 403 in the release);
* ``system``: the gold specs the manifest labels as system specifications (146), the paper's pool;
* ``utility``: the other gold specs (gold minus system, 257), the utility modules section 3 leaves out
  because renaming changes a median of only five identifiers in them (``tla-alias build`` prints it);
* ``test``: the system specs whose renamed copy passes SANY and TLC (111), the test set;
* ``train``: the gold specs outside the test set (292), the shared part of both fine-tuning sets;
* ``eligible``: test specs with a cfg that neither use random values nor are test fixtures of the
  TLA+ tools (102), the tasks the behavior grade is validated on.

``test``, ``train`` and ``eligible`` need every system spec renamed and re-verified once (seconds
each; cached, so later loads only read the cache). Each step's count goes to stderr, so a user sees
where the numbers of Table K.1 come from.

The two markers the behavior grade needs, :func:`random_value_operators` and
:func:`tool_fixture_reason`, work on any task, not only TLA+-Bench ones.
"""

from __future__ import annotations

import re
import sys
from importlib import import_module
from pathlib import PurePosixPath
from typing import Callable, Iterable, TextIO

from ..tla.specfiles import code_text
from .model import Task
from .suite_common import Skipped, SuiteError

__all__ = ["SELECTIONS", "behavior_exclusion", "is_system_spec", "random_value_operators", "select",
           "tool_fixture_reason"]

#: The set names a ``tlabench:`` suite accepts after ``#``.
SELECTIONS: tuple[str, ...] = ("gold", "system", "utility", "test", "train", "eligible")

#: Operators whose value TLC draws at random, so two runs of the same spec may differ (TLC's
#: ``RandomElement`` and the community ``Randomization`` module's operators, and the module itself).
RANDOM_OPERATORS: frozenset[str] = frozenset({
    "RandomElement", "Randomization", "RandomSubset", "RandomSetOfSubsets", "RandomSubsetSet",
    "TestRandomSetOfSubsets", "RandomSeq",
})

#: Repositories of the TLA+ tools, whose test folders hold fixtures for the tools, not system models.
TOOL_REPOSITORIES: frozenset[str] = frozenset({
    "tlaplus/tlaplus", "tlaplus/tlapm", "tlaplus/vscode-tlaplus", "tlaplus/communitymodules",
    "apalache-mc/apalache", "informalsystems/apalache",
})
#: Folder names that mark a test fixture inside such a repository.
FIXTURE_FOLDERS: frozenset[str] = frozenset({"test-model", "test", "tests", "testing", "test-verify"})

_WORD = re.compile(r"[A-Za-z0-9_]+")

#: Verifies the renamed copy of each task; returns the failure reason per id (None when verified).
Verifier = Callable[[list[Task], int], dict[str, str | None]]

#: The verifier of a caller that passes none. Named, never imported here: CIR sits above the task
#: loaders (DESIGN.md), so the loaders take the verifier as an argument, and callers above CIR load
#: suites through :mod:`pytest_alias.cir.suites`, which passes it. Transitional: drop it once every
#: caller does (run/workspace.py, exposure/training.py and cli/exposure.py still call tasks.suites).
DEFAULT_VERIFIER = "pytest_alias.cir.prepared:verify_renamed"


def random_value_operators(task: Task) -> list[str]:
    """The random-value operators (or module) the task's modules use, sorted; empty when none."""
    used: set[str] = set()
    for _, text in task.modules:
        code = code_text(text)
        used.update(word for word in _WORD.findall(code) if word in RANDOM_OPERATORS)
    return sorted(used)


def tool_fixture_reason(task: Task) -> str | None:
    """Why the task is a test fixture of the TLA+ tools (from its source repository and path), or None."""
    extra = dict(task.extra)
    repo = str(extra.get("source_repo") or "").strip().lower()
    path = str(extra.get("source_path") or "")
    if not repo and ":" in (task.source or ""):
        repo, _, path = task.source.partition(":")
        repo = repo.strip().lower()
    if repo not in TOOL_REPOSITORIES:
        return None
    folders = [part for part in PurePosixPath(path.replace("\\", "/")).parts[:-1] if part.lower() in FIXTURE_FOLDERS]
    return f"a test fixture of the TLA+ tools ({repo}, folder {folders[0]})" if folders else None


def behavior_exclusion(task: Task) -> str | None:
    """Why the behavior grade cannot be validated on ``task`` (appendix K's 110 → 102), or None."""
    if task.cfg is None:
        return "task has no TLC configuration"
    random_ops = random_value_operators(task)
    if random_ops:
        return f"uses random values ({', '.join(random_ops)}), so TLC results do not repeat"
    return tool_fixture_reason(task)


def is_system_spec(task: Task) -> bool:
    """Whether the manifest labels the task a system specification (category ``system``, any case)."""
    category = dict(task.extra).get("category")
    return isinstance(category, str) and "system" in category.strip().lower()


def select(tasks: Iterable[Task], name: str, skipped: list[Skipped], *, seed: int = 0,
           verify: Verifier | None = None, stream: TextIO | None = None) -> list[Task]:
    """The tasks of one of :data:`SELECTIONS`, printing the count after each rule to ``stream``.

    ``verify`` re-verifies renamed copies (default: :data:`DEFAULT_VERIFIER`, the cached CIR build);
    tasks left out for a failed renaming go to ``skipped`` with the reason.
    """
    if name not in SELECTIONS:
        raise SuiteError(f"unknown task set #{name}; use one of {', '.join('#' + s for s in SELECTIONS)}")
    out = stream if stream is not None else sys.stderr
    gold = list(tasks)
    steps = [f"{len(gold)} gold"]
    if name == "gold":
        return gold
    if not any(isinstance(dict(task.extra).get("category"), str) for task in gold):
        raise SuiteError(f"#{name} needs the manifest's category labels, and manifest.jsonl gives none "
                         "(is it the TLA+-Bench release's manifest?)")
    system = [task for task in gold if is_system_spec(task)]
    steps.append(f"{len(system)} system specifications")
    if name == "system":
        _say(out, name, steps)
        return system
    if name == "utility":
        utility = [task for task in gold if not is_system_spec(task)]
        _say(out, name, steps + [f"utility = {len(gold)} gold - {len(system)} system = {len(utility)}"])
        return utility
    failures = (verify or _default_verifier())(system, seed)
    test = [task for task in system if failures.get(task.id) is None]
    skipped.extend(Skipped(task.id, str(dict(task.extra).get("path", task.id)), str(failures[task.id]))
                   for task in system if failures.get(task.id) is not None and name != "train")
    steps.append(f"{len(test)} pass SANY and TLC after CIR (seed {seed})")
    if name == "test":
        _say(out, name, steps)
        return test
    if name == "train":
        test_ids = {task.id for task in test}
        train = [task for task in gold if task.id not in test_ids]
        _say(out, name, steps + [f"train = {len(gold)} gold - {len(test)} test = {len(train)}"])
        return train
    with_cfg = [task for task in test if task.cfg is not None]
    eligible = [task for task in with_cfg if behavior_exclusion(task) is None]
    _say(out, name, steps + [f"{len(with_cfg)} with a TLC configuration",
                             f"{len(eligible)} without test fixtures or random values"])
    return eligible


def _say(stream: TextIO, name: str, steps: list[str]) -> None:
    stream.write(f"alias: tlabench #{name}: " + " -> ".join(steps) + "\n")
    stream.flush()


def _default_verifier() -> Verifier:
    """The function :data:`DEFAULT_VERIFIER` names, loaded by name only when a set needs it."""
    module, _, name = DEFAULT_VERIFIER.partition(":")
    verifier: Verifier = getattr(import_module(module), name)
    return verifier
