"""``tla-alias propose-names``: meaningful names from a model (appendix R), applied and verified like CIR.

Each task's reference and the list of its author-defined identifiers (what CIR renames) go to the
model, which answers with a JSON object old name → new name. The map is kept to those identifiers,
applied to the modules, cfg and description, and re-verified with SANY and TLC exactly as the random
renaming is (through the condition cache, so the plugin's meaningful condition reads the result). A
task whose answer has no usable map or whose renamed copy fails verification is dropped and counted.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from ..atomic import check_output_file, write_output_json
from ..cir.rename import collect_identifiers
from ..models.base import DecodingParams, GenerationRequest
from ..tasks.model import Task

#: The request kind (and replay ``condition``) of a name proposal.
PROPOSAL_KIND = "propose-names"

PROMPT = (
    "Below is a TLA+ specification and the identifiers its author defined. Propose a new, meaningful "
    "name for every identifier: a different name that says what it is or does, a valid TLA+ identifier "
    "(letters, digits and underscores, starting with a letter), not a TLA+ keyword, and no two "
    "identifiers with the same new name. Answer with one JSON object that maps each current name to its "
    "new name, and nothing else.\n\nIdentifiers: {names}\n\nSpecification:\n{spec}"
)

_IDENTIFIER = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")


def proposal_request(task: Task) -> GenerationRequest:
    """The request asking for ``task``'s meaningful names."""
    names = sorted(collect_identifiers(task.module_map, task.cfg).author)
    spec = "\n\n".join(text for _, text in task.modules)
    prompt = PROMPT.replace("{names}", ", ".join(names)).replace("{spec}", spec)
    return GenerationRequest(task.id, PROPOSAL_KIND, 0, prompt)


def parse_proposal(text: str, identifiers: Sequence[str]) -> tuple[dict[str, str], str | None]:
    """The usable map in a model's answer, and why none is usable (None when one is).

    The first JSON object in the text is read (code fences and prose around it are ignored); pairs
    whose old name is not one of ``identifiers``, whose new name is not an identifier, or that keep
    the name are dropped.
    """
    decoder = json.JSONDecoder()
    found: Any = None
    for match in re.finditer(r"\{", text):
        try:
            found, _ = decoder.raw_decode(text, match.start())
        except ValueError:
            continue
        if isinstance(found, dict):
            break
    if not isinstance(found, dict):
        return {}, "the answer holds no JSON object"
    wanted = set(identifiers)
    usable = {str(old): str(new).strip() for old, new in found.items()
              if str(old) in wanted and isinstance(new, str) and _IDENTIFIER.match(new.strip()) and new.strip() != old}
    if not usable:
        return {}, "the answer's JSON object renames none of the identifiers"
    return usable, None


@dataclass
class ProposalResult:
    """Per task: the map kept (valid tasks only) and why the others were dropped."""

    maps: dict[str, dict[str, str]] = field(default_factory=dict)
    dropped: dict[str, str] = field(default_factory=dict)
    partial: dict[str, int] = field(default_factory=dict)  # task → identifiers the map left unrenamed

    def summary(self) -> str:
        total = len(self.maps) + len(self.dropped)
        return f"{len(self.maps)}/{total} tasks have a valid meaningful renaming"


def propose_names(model: Any, tasks: Sequence[Task], *, store: Any, cache: Any, tools: Any,
                  progress: Any = None) -> ProposalResult:
    """Ask ``model`` for each task's names (through ``store``), apply and verify them (through ``cache``)."""
    result = ProposalResult()
    requests = [proposal_request(task) for task in tasks]
    generations = store.generate(model, requests, DecodingParams())
    for task, generation in zip(tasks, generations):
        identifiers = sorted(collect_identifiers(task.module_map, task.cfg).author)
        proposal, reason = parse_proposal(generation.text, identifiers)
        if reason is None:
            [(condition, failure)] = cache.prepare(task, ["meaningful"], seed=0, meaningful_maps={task.id: proposal},
                                                   tools=lambda: tools)
            reason = failure
        if reason is None:
            result.maps[task.id] = proposal
            missing = len(set(identifiers) - set(proposal))
            if missing:
                result.partial[task.id] = missing
        else:
            result.dropped[task.id] = reason
        if progress is not None:
            progress.update(1, valid=len(result.maps))
    return result


def write_maps(result: ProposalResult, path: Any, *, model: str, suite: str) -> None:
    """The maps ``--alias-meaningful-maps`` reads ({task: {old: new}}), and beside them what was dropped."""
    target = Path(path)
    report = target.with_name(target.stem + ".report.json")
    check_output_file(report)  # both checked before either is written
    write_output_json(target, result.maps)
    write_output_json(report,
                      {"model": model, "suite": suite, "valid": sorted(result.maps), "dropped": result.dropped,
                       "identifiers_left_unrenamed": result.partial, "summary": result.summary()})

