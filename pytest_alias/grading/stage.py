"""Stage an extracted output for SANY/TLC: the ``SpecFiles`` that a grade runs on.

The output is staged under its own module name. The condition's other modules (the non-main
modules of the reference, which an output may EXTEND or INSTANCE) are staged beside it under
their header names; the reference's main module never is, so an output that takes the
reference's own name (the self-control of grader validation) simply stands in its place.
Helper modules the output itself wrote are staged too when the graded module imports them and
no task module of that name exists. An output that takes the name of one of the condition's other
modules is staged under a fresh name, so a self-contained module is still graded.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..tasks.model import Condition
from ..tla.specfiles import SpecError, SpecFiles, imported_modules, module_header_name
from ..tla.syntax import STANDARD_MODULES
from ..tla.unicode import ASCII_FORMS, to_ascii
from .extract import Extraction
from .refinement import renamed_module


@dataclass(frozen=True)
class Staging:
    """The spec to grade, or the reason there is none; ``notes`` say what was staged and why."""

    spec: SpecFiles | None
    failure: str | None = None
    notes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.failure is None


def companion_modules(condition: Condition) -> dict[str, str]:
    """The condition's non-main modules by header name (the key when a text has no header)."""
    return {module_header_name(text) or name: text for name, text in condition.modules[1:]}


def _own_helpers(main: str, modules: dict[str, str], others: dict[str, str], notes: list[str]) -> dict[str, str]:
    """The output's other modules that the graded module imports, directly or through each other."""
    helpers: dict[str, str] = {}
    pending = [modules[main]]
    while pending:
        for name in imported_modules(pending.pop()):
            if name in helpers or name == main or name not in others:
                continue
            if name in modules:
                notes.append(f"ignored the output's own module {name}: the task's module {name} is staged instead")
                continue
            if name in STANDARD_MODULES:
                notes.append(f"ignored the output's own module {name}: it has a standard module's name")
                continue
            helpers[name] = to_ascii(others[name])[0]
            pending.append(others[name])
            notes.append(f"staged the output's own module {name}, which {main} imports")
    return helpers


def _fresh_name(name: str, taken: set[str]) -> str:
    """``name`` with a suffix that no staged module and no standard module has."""
    candidate, n = f"{name}_Output", 1
    while candidate in taken or candidate in STANDARD_MODULES:
        n += 1
        candidate = f"{name}_Output{n}"
    return candidate


def stage_output(extraction: Extraction, condition: Condition, cfg: str | None = None) -> Staging:
    """The ``SpecFiles`` for grading ``extraction`` under ``condition`` (with ``cfg`` as its cfg).

    Fails (with a reason) when extraction failed or the output's module name is a standard
    module's name. An output named like one of the condition's other modules is staged under a
    fresh name (said in the notes).
    """
    if not extraction.ok or extraction.module_name is None or extraction.text is None:
        return Staging(None, extraction.failure or "no module was extracted")
    name = extraction.module_name
    if name in STANDARD_MODULES:
        return Staging(None, f"output module {name} has the name of the standard module {name}")
    companions = companion_modules(condition)
    notes: list[str] = []
    text, replaced = to_ascii(extraction.text)
    if replaced:
        # The 2020 SANY of the default jar rejects Unicode TLA+, which current SANY accepts.
        notes.append("read Unicode TLA+ as ASCII: " + ", ".join(f"{ch} → {ASCII_FORMS[ch]} ×{n}"
                                                                 for ch, n in sorted(replaced.items())))
    if name in companions:
        # A self-contained output may well take the name of the module the reference's main module
        # EXTENDS (MCEcho extends Echo; the output calls itself Echo). It is graded under a fresh name.
        fresh = _fresh_name(name, set(companions) | {condition.main} | set(dict(extraction.others)))
        text = renamed_module(text, fresh)
        notes.append(f"output module {name} has the name of the task's module {name}, which is staged beside "
                     f"it: the output is staged as {fresh}")
        name = fresh
    if name == condition.main:
        notes.append(f"output takes the reference's own name {name}; the reference is not staged")
    modules = {name: text, **companions}
    modules.update(_own_helpers(name, modules, dict(extraction.others), notes))
    try:
        spec = SpecFiles(name, modules, cfg)
    except SpecError as exc:  # a task module with a name no file can carry: bad task data, still a verdict
        return Staging(None, str(exc), tuple(notes))
    return Staging(spec, None, tuple(notes))
