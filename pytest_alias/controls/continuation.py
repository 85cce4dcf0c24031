"""``tla-alias continuation``: file continuation (appendix L), on each reference and its renamed copy.

The model sees the first 40% of a reference file's lines (at least 8, at most 60, always leaving
some to continue) with the repository and path the file comes from, and is asked to continue it
exactly. Comments and separator lines are removed from its answer and from the real remainder, and
the longest run of tokens the two share word for word is counted. The same test on the renamed copy,
which exists nowhere but in this study, shows how much matching comes from common TLA⁺ text alone.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any, Sequence

from ..grading.similarity import tla_tokens
from ..models.base import DecodingParams, GenerationRequest
from ..tla.specfiles import strip_comments

CONTINUATION_FORMAT = "alias-continuation"
LONG_RUN = 50
SHOWN_FRACTION = 0.4
MIN_SHOWN, MAX_SHOWN = 8, 60

PROMPT = ("The following is the beginning of the file {path} in the repository {repository}. Continue the "
          "file exactly as it is written there, from the point where this excerpt stops to the end of the "
          "file. Output only the continuation.\n\n{start}")

_SEPARATOR = re.compile(r"^\s*(?:-{4,}|={4,})\s*$")


def shown_lines(line_count: int) -> int:
    """How many lines the model sees: 40% of the file, at least 8 and at most 60, never all of it."""
    return max(0, min(max(round(SHOWN_FRACTION * line_count), MIN_SHOWN), MAX_SHOWN, line_count - 1))


def split_file(text: str) -> tuple[str, str]:
    """The shown start and the remainder the model should write."""
    lines = text.splitlines(keepends=True)
    cut = shown_lines(len(lines))
    return "".join(lines[:cut]), "".join(lines[cut:])


def comparable_tokens(text: str) -> list[str]:
    """Tokens of ``text`` without comments and separator lines (``----``/``====`` rules)."""
    kept = "\n".join(line for line in strip_comments(text).splitlines() if not _SEPARATOR.match(line))
    return tla_tokens(kept)


def longest_shared_run(answer: str, remainder: str) -> int:
    """The longest run of tokens ``answer`` and ``remainder`` share in the same order, word for word."""
    a, b = comparable_tokens(answer), comparable_tokens(remainder)
    if not a or not b:
        return 0
    return difflib.SequenceMatcher(None, a, b, autojunk=False).find_longest_match(0, len(a), 0, len(b)).size


def origin(task: Any) -> tuple[str, str]:
    """(repository, path) of the published file behind a task's main module, as the task records it.

    The real place matters: it is the cue that helps a model that saw the file recall it (appendix
    L), so a TLA⁺-Bench task names its upstream repository and path (the release's ``source_repo``
    and ``source_path``), never the release's own ``specs/gold/…`` copy, unless the manifest lacks
    them. A tlaplus/Examples task names that repository and its path there; a task folder whose
    ``source`` reads ``owner/repo:path`` names those; a built-in task names this project.
    """
    extra = dict(task.extra)
    if extra.get("source_repo") and extra.get("source_path"):  # TLA+-Bench, from its manifest
        return str(extra["source_repo"]), str(extra["source_path"])
    if extra.get("repository") and extra.get("path"):  # tlaplus/Examples
        return str(extra["repository"]), str(extra["path"])
    if "description_kind" in extra and extra.get("path"):  # a TLA+-Bench row without its upstream source
        return "the TLA+-Bench release", str(extra["path"])
    source = str(task.source or "")
    if source and source != "ALIAS built-in":
        repository, colon, path = source.partition(":")
        if colon and "/" in repository and path:
            return repository, path
        return str(extra.get("repository", "unknown")), source
    return "ALIAS built-in tasks", f"{task.id}/{task.main}.tla"


def continuation_request(task_id: str, kind: str, text: str, repository: str, path: str) -> GenerationRequest:
    """The request for one file: its shown start under the repository and path."""
    start, _ = split_file(text)
    prompt = PROMPT.replace("{path}", path).replace("{repository}", repository).replace("{start}", start)
    return GenerationRequest(task_id, f"continuation-{kind}", 0, prompt)


@dataclass(frozen=True)
class ContinuationItem:
    """One file to continue: the task, the condition (original or random) and the file's text."""

    task_id: str
    condition: str
    text: str
    repository: str
    path: str


def run_continuation(model: Any, items: Sequence[ContinuationItem], *, store: Any, spec: str,
                     progress: Any = None) -> list[dict[str, Any]]:
    """One JSON row per item: the shown and remaining line counts and the longest shared token run."""
    requests = [continuation_request(i.task_id, i.condition, i.text, i.repository, i.path) for i in items]
    generations = store.generate(model, requests, DecodingParams())
    rows = []
    for item, generation in zip(items, generations):
        start, remainder = split_file(item.text)
        run = longest_shared_run(generation.text, remainder)
        rows.append({"format": CONTINUATION_FORMAT, "task": item.task_id, "condition": item.condition,
                     "model": spec, "repository": item.repository, "path": item.path,
                     "shown_lines": len(start.splitlines()), "remaining_tokens": len(comparable_tokens(remainder)),
                     "longest_run": run, "long_run": run >= LONG_RUN, "truncated": generation.truncated})
        if progress is not None:
            progress.update(1)
    return rows
