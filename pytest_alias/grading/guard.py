"""The file guard: outputs that could read or write host files or run commands are refused, never run.

TLC evaluates operators of the modules a spec loads; CommunityModules' ``IOUtils`` (``IOExec`` runs
commands, ``IOEnv`` reads the environment, ``Serialize``/``Deserialize`` write and read files), ``CSV``
(``CSVWrite``, ``CSVRead``) and Json's serializers and readers (``JsonSerialize``, ``ndJsonSerialize``,
``JsonDeserialize``, ``ndJsonDeserialize``) touch the disk. The bundled TLC 2.15 ships none of them,
but a newer ``tla2tools.jar`` chosen through ``ALIAS_TLA2TOOLS`` (or a module an output brings) may. A
model's output is untrusted, so the guard fails closed, in two layers:

* before any tool runs (:func:`writer_use`): a module counts as imported when either the text scan
  (comments and strings skipped) or the tree-sitter parse finds it, so no comment or string trick
  hides it from both;
* after SANY and before TLC (:func:`loaded_writer`): the modules SANY itself loaded, whatever the
  text looked like (a module pulled in some way the scans did not foresee is still seen).

What the guard lets through, and why it is safe (docs/grader-integrity.md has the whole list): the
``TLC`` module's operators. ``Print``/``PrintT`` only print (a string value is printed quoted, so it
cannot forge a line of TLC's own: the verdict is read from TLC's message codes and the process);
``Assert`` fails the run; ``TLCSet("exit", TRUE)`` ends the search early, and no pass of an output
that can call it counts (:func:`.integrity.self_stopping`); ``TLCGet``, ``RandomElement``, ``JavaTime``, ``TLCEval``,
``Permutations`` and ``SortSeq`` change what TLC explores or computes but read no file, and TLC runs
with a pinned seed (``-seed 0``), so a verdict repeats.
"""

from __future__ import annotations

import re
from typing import Iterable

from ..tla.specfiles import code_text, imported_modules
from ..tla.syntax import parse_modules

__all__ = ["WRITER_MODULES", "WRITER_OPERATORS", "loaded_writer", "sany_loaded_modules", "writer_use"]

#: Modules whose every use may read or write files, read the environment or run commands (CommunityModules).
WRITER_MODULES = frozenset({"IOUtils", "CSV"})
#: Operators that write or read files, by the module providing them (its other operators are harmless).
WRITER_OPERATORS = {"Json": frozenset({"JsonSerialize", "ndJsonSerialize", "JsonDeserialize", "ndJsonDeserialize"})}

_LOADED = re.compile(r"^(?:Parsing file (?:.*[/\\])?(?P<file>[^/\\\s]+)\.tla|Semantic processing of module "
                     r"(?P<module>\S+))\s*$", re.M)


def _parsed_imports(text: str) -> list[str]:
    """The modules the tree-sitter parse (what SANY reads) sees EXTENDed or INSTANCEd, nested
    modules included."""
    found: list[str] = []
    pending = list(parse_modules(text))
    while pending:
        syntax = pending.pop()
        found.extend(syntax.extends)
        found.extend(instance.module for instance in syntax.instances)
        pending.extend(getattr(syntax, "submodules", ()) or ())
    return found


def _hazard(modules: Iterable[str], code: Iterable[str]) -> str | None:
    """Why loading ``modules`` with these code texts may write files or run commands, or None."""
    texts = list(code)
    for module in dict.fromkeys(modules):
        if module in WRITER_MODULES:
            return f"output imports {module}, whose operators write files or run commands"
        for operator in sorted(WRITER_OPERATORS.get(module, ())):
            if any(re.search(rf"\b{operator}\b", text) for text in texts):
                action = "reads" if "Deserialize" in operator else "writes"
                return f"output uses {operator} (module {module}), which {action} files"
    return None


def writer_use(texts: Iterable[str]) -> str | None:
    """Why these module texts may write files or run commands, or None when they cannot (the first
    layer: before any tool runs)."""
    for text in texts:
        code = code_text(text)
        hazard = _hazard([*imported_modules(code), *_parsed_imports(text)], [code])
        if hazard is not None:
            return hazard
    return None


def sany_loaded_modules(sany_output: str) -> list[str]:
    """Every module SANY parsed or processed, by name, from its own output."""
    return list(dict.fromkeys(match.group("file") or match.group("module") for match in _LOADED.finditer(sany_output)))


def loaded_writer(sany_output: str, texts: Iterable[str]) -> str | None:
    """The second layer, after SANY and before TLC: why the modules SANY loaded for the output (with
    the output's module ``texts``) may write files or run commands, or None."""
    return _hazard(sany_loaded_modules(sany_output), [code_text(text) for text in texts])
