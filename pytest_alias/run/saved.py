"""Saved runs read back: the files ``tla-alias report`` and ``tla-alias exposure`` are given.

A command may be given a plugin run's JSON (``--alias-report run.json``: records and metadata), JSON
lines of records, likelihood rows (``tla-alias likelihood``), continuation rows and saved outputs
(``--alias-save-outputs``), in any mix. Both commands read them here, once, into a
:class:`SavedRuns`; what a file cannot give is one :class:`~pytest_alias.errors.UsageProblem` line
naming the file. Not imported by ``pytest_alias.run``'s ``__init__``: it loads the report stack.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from ..atomic import read_json
from ..controls.continuation import CONTINUATION_FORMAT
from ..errors import UsageProblem
from ..exposure.analysis import is_likelihood_row, read_rows
from ..grading.validation import covered_tasks
from ..report.paper import run_covered
from ..report.validate import RecordError, check_record, read_located_rows

Row = dict[str, Any]


def read_saved_json(path: Path, what: str) -> Any:
    """A JSON file a person named (``what`` it should be, for the message), or a one-line ``UsageProblem``."""
    try:
        return read_json(path)
    except (OSError, ValueError) as exc:  # UnicodeDecodeError is a ValueError
        raise UsageProblem(f"{path}: not a readable {what} ({exc})") from None


def run_metadata(path: Path) -> dict[str, Any] | None:
    """A plugin run file's metadata (settings, coverage), or None for any other file."""
    try:
        document = read_json(path)
    except (OSError, ValueError):  # nested too deeply included
        return None
    metadata = document.get("metadata") if isinstance(document, dict) else None
    return metadata if isinstance(metadata, dict) else None


def _is_record(row: Row) -> bool:
    return not is_likelihood_row(row) and "grades" in row


def _is_output(row: Row) -> bool:
    """A saved output (``--alias-save-outputs``): a text without grades, its sample agreement's input."""
    return "grades" not in row and "format" not in row and isinstance(row.get("text"), str)


@dataclass(frozen=True)
class SavedFile:
    """One file as given: its rows in file order and, for a plugin run's JSON, its metadata."""

    path: Path
    rows: tuple[Row, ...]
    metadata: dict[str, Any] | None = None

    @property
    def deviations(self) -> list[str]:
        """The deviations from the paper the run's metadata names ([] for any other file)."""
        found = (self.metadata or {}).get("deviations")
        return [str(item) for item in found] if isinstance(found, list) else []


@dataclass(frozen=True)
class SavedRuns:
    """The files a command was given, in order, and their rows sorted by kind (file order kept)."""

    files: tuple[SavedFile, ...]

    def _rows(self, keep: Callable[[Row], bool]) -> list[Row]:
        return [row for file in self.files for row in file.rows if keep(row)]

    @property
    def records(self) -> list[Row]:
        """Plugin records (they carry grades)."""
        return self._rows(_is_record)

    @property
    def exposure_rows(self) -> list[Row]:
        """Likelihood rows (``tla-alias likelihood``)."""
        return self._rows(is_likelihood_row)

    @property
    def continuation_rows(self) -> list[Row]:
        """Continuation rows (``tla-alias continuation``)."""
        return self._rows(lambda row: row.get("format") == CONTINUATION_FORMAT)

    @property
    def outputs(self) -> list[Row]:
        """Saved outputs (``--alias-save-outputs``)."""
        return self._rows(_is_output)

    @property
    def runs(self) -> list[dict[str, Any]]:
        """The metadata of each plugin run file among them."""
        return [file.metadata for file in self.files if file.metadata is not None]

    @property
    def run(self) -> dict[str, Any] | None:
        """One run's settings and coverage; several runs: only a covered set they all recorded
        (:func:`shared_coverage`); None without a run file."""
        runs = self.runs
        return runs[0] if len(runs) == 1 else shared_coverage(runs)


def shared_coverage(runs: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Several run files that recorded one and the same covered set (the two arms of an exposure run,
    say): a run metadata holding only that coverage, so the report's covered rows and Figure U.1 use
    it as each run's summary did; None when any run recorded none or they differ (pass --covered)."""
    found = [run_covered(run) for run in runs]
    if len(runs) < 2 or any(covered is None or covered != found[0] for covered in found):
        return None
    return {"coverage": runs[0]["coverage"], "covered_restricts_rates": True}


def _checked_rows(path: Path) -> list[Row]:
    try:  # not UTF-8, nested too deep, a record with wrong field types: one line naming file, line, field
        located = read_located_rows(path)
        for row, where in located:
            if _is_record(row):
                check_record(row, where)
    except RecordError as exc:
        raise UsageProblem(str(exc)) from None
    return [row for row, _ in located]


def read_saved_runs(paths: Sequence[Path], *, check_records: bool = True) -> SavedRuns:
    """Every file's rows and run metadata. ``check_records``: each record's fields are checked first
    (``tla-alias report``); without it the rows are read as the exposure analysis always has (its
    own messages, no record check), so ``tla-alias exposure`` accepts what it accepted."""
    read = _checked_rows if check_records else read_rows
    return SavedRuns(tuple(SavedFile(Path(path), tuple(read(path)), run_metadata(path)) for path in paths))


def covered_of(saved: SavedRuns, covered_file: Path | None) -> set[str] | None:
    """The covered tasks: a ``--covered`` validate-grader file, else the covered set the plugin runs among
    the files recorded (the same in each; else None: every task)."""
    if covered_file is not None:
        try:
            return covered_tasks(read_saved_json(covered_file, "validate-grader --json file"))
        except ValueError as exc:  # the door spells the option: --covered on the command line
            raise UsageProblem("{flag} " + f"{covered_file}: {exc}", option="covered") from None
    found = [covered for file in saved.files if (covered := run_covered(file.metadata)) is not None]
    if not found:
        return None
    # The arms of one exposure run record the same covered set; runs that disagree must be told which.
    if any(covered != found[0] for covered in found):
        raise UsageProblem("the run files recorded different covered sets; pass {flag:covered} VALIDATION.json")
    return found[0]
