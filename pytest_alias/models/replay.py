"""``replay:FILE.jsonl``: serve outputs recorded earlier, one JSON object per line.

Each line holds ``task``, ``condition``, ``sample`` and ``text``, and optionally ``model`` (which
model wrote it; the ``model`` option keeps one model's lines of a mixed file), ``finish_reason``,
``truncated``, and ``condition_version`` and ``seed`` (the content hash and renaming seed of the
condition the text answered, as every record carries them). Lookups are by (task, condition,
sample), never by prompt, so a recorded file keeps working when prompt wording changes. In a run
with several renamings (``--alias-rename-seeds``) a line for the j-th extra renaming says
``"rename_seed": j`` (or names its condition ``random-r<j>``, as item ids do); a line without it
answers the run's first renaming, so one-seed files keep working. A text
written for another renaming (another seed) is an error, since grading it against this run's
names would silently fail or pass it. A file without versions cannot be checked: it warns once.
"""

from __future__ import annotations

from ..errors import UsageProblem

import hashlib
import json
import warnings
from pathlib import Path
from typing import Any, Sequence

from ..vocabulary import condition_label
from .base import DecodingParams, Generation, GenerationRequest, StopRunError

ReplayKey = tuple[str, str, int]


class ReplayVersionError(StopRunError):
    """Replay lines recorded for another version of their condition: every text would be graded
    against the wrong names, so the run stops."""


class ReplayError(UsageProblem):
    """A replay file that cannot be read (a request it has no answer for fails only its item)."""


class ReplayVersionWarning(UserWarning):
    """A replay file whose lines carry no condition versions (they cannot be checked)."""


def _entry_key(record: Any, where: str) -> ReplayKey:
    if not isinstance(record, dict):
        raise ReplayError(f"{where}: expected a JSON object, got {type(record).__name__}")
    missing = [name for name in ("task", "condition", "sample", "text") if name not in record]
    if missing:
        raise ReplayError(f"{where}: missing key(s) {', '.join(missing)}")
    task, kind, sample, text = record["task"], record["condition"], record["sample"], record["text"]
    if not isinstance(task, str) or not isinstance(kind, str) or not isinstance(text, str):
        raise ReplayError(f"{where}: task, condition and text must be strings")
    if isinstance(sample, bool) or not isinstance(sample, int) or sample < 0:
        raise ReplayError(f"{where}: sample must be a non-negative integer, got {sample!r}")
    # Optional fields are read later (the grade, the version check): a wrong type fails here, named.
    for name, wanted, ok in (("model", "a string", lambda v: isinstance(v, str)),
                             ("finish_reason", "a string", lambda v: isinstance(v, str)),
                             ("truncated", "true or false", lambda v: isinstance(v, bool)),
                             ("condition_version", "a string or an integer",
                              lambda v: isinstance(v, (str, int)) and not isinstance(v, bool)),
                             ("seed", "an integer", lambda v: isinstance(v, int) and not isinstance(v, bool)),
                             ("rename_seed", "a non-negative integer",
                              lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0)):
        if record.get(name) is not None and not ok(record[name]):
            raise ReplayError(f"{where}: field {name} must be {wanted}, got {record[name]!r:.40}")
    # The j-th extra renaming is its own condition (``Condition.label``): random-r<j>.
    return task, condition_label(kind, record.get("rename_seed") or 0), sample


def _request_key(request: GenerationRequest) -> ReplayKey:
    """The replay key a request asks for: its condition's label (``random-r2`` for a run's third renaming)."""
    return request.task_id, request.condition.label if request.condition is not None else request.kind, request.sample


def load_replay(path: Path | str, model: str | None = None) -> dict[ReplayKey, dict[str, Any]]:
    """Read a replay file into (task, condition, sample) → record, keeping only ``model``'s lines if given."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise ReplayError(f"replay file {path} does not exist; record outputs there first or fix the path") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ReplayError(f"cannot read replay file {path}: {error}") from None
    records: dict[ReplayKey, dict[str, Any]] = {}
    first_line: dict[ReplayKey, int] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise ReplayError(f"{where}: not valid JSON ({error.msg})") from None
        except RecursionError:
            raise ReplayError(f"{where}: JSON nested too deeply to read") from None
        key = _entry_key(record, where)
        if model is not None and record.get("model") != model:
            continue
        if key in records:
            raise ReplayError(f"{where}: duplicate entry task={key[0]} condition={key[1]} sample={key[2]} "
                              f"(first on line {first_line[key]})")
        records[key] = record
        first_line[key] = number
    return records


class ReplayModel:
    """Answers each request with the recorded text for its task, condition and sample."""

    # The file's own content is the identity; storing replays again would only duplicate them.
    cacheable = False

    def __init__(self, path: Path | str, model: str | None = None) -> None:
        self.path = Path(path)
        self.records = load_replay(self.path, model)
        self._warned = False
        digest = hashlib.sha256(self.path.read_bytes()).hexdigest()[:16]
        self.identity = f"replay:{self.path.name}#{digest}" + (f"@{model}" if model else "")

    def generate(self, requests: Sequence[GenerationRequest], params: DecodingParams) -> list[Generation]:
        """The recorded text for each request; a request with no record gets a failed generation (its
        item alone fails as a model error); lines recorded for another seed stop the run."""
        self._check_versions([r for r in requests if _request_key(r) in self.records])
        generations = []
        for request in requests:
            record = self.records.get(_request_key(request))
            if record is None:
                generations.append(Generation.failed(self.identity, f"replay file {self.path.name} has no entry "
                                                                    f"for {request.label()}"))
                continue
            generations.append(Generation(text=record["text"], model=self.identity,
                                          finish_reason=record.get("finish_reason"),
                                          truncated=bool(record.get("truncated", False)), raw=record))
        return generations


    def _check_versions(self, requests: Sequence[GenerationRequest]) -> None:
        """Raise when a line was recorded for another version of its condition (another seed)."""
        unversioned = False
        for request in requests:
            record = self.records[_request_key(request)]
            recorded = record.get("condition_version")
            if request.condition is None:
                continue
            if recorded is None:
                unversioned = True
            elif recorded != request.condition.version:
                raise ReplayVersionError(
                    f"replay file {self.path}: the {request.kind} text of task {request.task_id} (sample "
                    f"{request.sample}) was recorded for condition version {recorded} (seed {record.get('seed')}), "
                    f"but this run's condition is version {request.condition.version} (seed "
                    f"{request.condition.seed}); grade it with the seed it was recorded for, or record it again")
        if unversioned and not self._warned:
            self._warned = True
            warnings.warn(f"replay file {self.path} has lines without condition_version: they cannot be checked "
                          f"against this run's conditions (a text recorded under another seed would be graded "
                          f"against the wrong names)", ReplayVersionWarning, stacklevel=2)


def create_replay(argument: str, model: str | None = None) -> ReplayModel:
    """Registry factory for ``replay:FILE.jsonl``; ``model`` keeps only lines written by that model."""
    return ReplayModel(Path(argument).expanduser(), model)
