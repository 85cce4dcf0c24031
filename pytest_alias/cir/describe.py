"""Renamed task descriptions: carry a CIR name map over into the English text.

The paper (Section 3, "Renamed descriptions") renames each description with a
fixed rule of three parts, applied to every identifier of the name map that
occurs in the text as a whole word:

1. A name that the configuration refers to is always renamed, because the
   model needs the new name for TLC to check its output.
2. Otherwise, a lowercase word or a TLA+ module name keeps its name.
3. Every other identifier is renamed.

Interpretation (``rule="paper"``):

* *lowercase word* means an identifier made only of lowercase ASCII letters
  (``count``, ``by``, ``the``, ``hr``).  Such a name may be an ordinary
  English word in the prose, and replacing it is what turns "the folklore
  ... algorithm" into "Zwk folklore ..." and "described by" into
  "described Yf" (Appendix G).  Names with digits, underscores or capitals
  (``max_val``, ``x1``, ``msgQ``) cannot be prose words, so rule 3 renames
  them and the description loses the author's identifier.
* *TLA+ module name* means a standard module (``Naturals``, ``Sequences``)
  or one of the task's own modules, passed as ``module_names``.  The
  renamer renames author module names (Section 3, "Renaming"), and a module
  is often called after its algorithm, which is how blind replacement turns
  "Lamport's Bakery algorithm" into "Lamport's Yodacz algorithm": ``Bakery``
  is the module of Lamport's Bakery specification.  Rule 2 keeps it, which
  is also why the renamed descriptions keep algorithm names such as Paxos
  (Section 6, "Internal validity").  A capitalised name that is neither a
  module nor a cfg name is renamed (rule 3) even if it is a dictionary word.
* Rule 1 wins over rule 2: a cfg constant called ``capacity`` is renamed
  everywhere in the description, prose uses included.
* Multi-module tasks: the rule is the same for every module of the task
  (:func:`description_rule_names`).  Each module name is a TLA+ module name
  (rule 2), and what a provided module declares goes through the three parts
  like any other identifier: a lowercase ``barrier`` or ``process`` stays a
  word of the prose, a capitalised ``TallySpec`` is renamed (rule 3), a name
  the cfg refers to is renamed (rule 1).  ``provided="required"`` is the
  refinement this project used before it followed the paper here: every name
  a provided module declares, its module name included, counts as required
  (rule 1), since the renamed module is staged beside the output under those
  names.

``rule="all"`` is the blind whole-word replacement the paper compares
against; :func:`description_damage` lists the words it changes that the rule
keeps, so counting descriptions with a non-empty result reproduces the
paper's "avoids damage to N descriptions".

Whole words: an occurrence is a maximal run of word characters (letters,
digits, underscore, Unicode letters included), so ``Init`` inside
``Initial`` or ``Init_2`` is left alone while ``Init`` in "`Init`",
"Init," or "Init's" is found.  The ``s`` of a possessive or the ``t`` of a
contraction (a word right after an apostrophe that follows a word
character) is never an identifier occurrence.  A fairness subscript
``WF_vars``/``SF_vars`` is renamed in its variable part, as the renamer
does in the specification.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Literal

from ..tasks.model import Task
from ..tla.cfg import parse_cfg
from ..tla.syntax import STANDARD_MODULES
from .rename import collect_identifiers

__all__ = [
    "Rule",
    "ProvidedRule",
    "cfg_referenced_names",
    "description_damage",
    "description_rule_names",
    "is_lowercase_word",
    "keeps_name",
    "mentions",
    "rename_description",
    "word_matches",
]

Rule = Literal["paper", "all"]
#: How a multi-module task's provided modules enter the rule: ``paper`` (the three parts, as for the
#: main module) or ``required`` (everything they declare is always renamed, like a cfg name).
ProvidedRule = Literal["paper", "required"]

_WORD_RE = re.compile(r"\w+")
_LOWERCASE_WORD_RE = re.compile(r"[a-z]+")
_APOSTROPHES = frozenset("'\u2019")
_FAIRNESS_PREFIXES = ("WF_", "SF_")


def word_matches(text: str) -> Iterator[re.Match[str]]:
    """Every whole word of ``text`` that could be an identifier occurrence.

    Skips the suffix of a possessive or contraction ("Bakery's" yields only
    ``Bakery``), which is prose, not a name.
    """
    for m in _WORD_RE.finditer(text):
        i = m.start()
        if i >= 2 and text[i - 1] in _APOSTROPHES and _is_word_char(text[i - 2]):
            continue
        yield m


def _is_word_char(c: str) -> bool:
    return c.isalnum() or c == "_"


def mentions(text: str, name: str) -> bool:
    """Whether ``text`` mentions ``name`` as a whole word (case-sensitive)."""
    return any(m.group() == name for m in word_matches(text))


def is_lowercase_word(name: str) -> bool:
    """Whether ``name`` is a lowercase word in the sense of the rule (only ``a``-``z``)."""
    return _LOWERCASE_WORD_RE.fullmatch(name) is not None


def cfg_referenced_names(cfg_text: str | None) -> frozenset[str]:
    """Every name the cfg refers to, for rule 1.

    Constants, ``<-`` definitions, INIT/NEXT/SPECIFICATION and every other
    named section, plus model values and ``[Mod]`` qualifiers: the renamed cfg
    spells all of them with their new names.  None (no cfg) gives no names.
    """
    if cfg_text is None:
        return frozenset()
    cfg = parse_cfg(cfg_text)
    return frozenset((*cfg.referenced_names(), *cfg.model_values(), *cfg.module_names()))


def description_rule_names(task: Task, *, provided: ProvidedRule = "paper") -> tuple[frozenset[str], frozenset[str]]:
    """The ``(cfg_names, module_names)`` the rule applies to ``task``'s description.

    ``paper``: the names the cfg refers to (rule 1) and every module name of the task (rule 2).
    ``required``: also every name a provided module declares counts as a cfg name, so none is kept.
    """
    cfg = cfg_referenced_names(task.cfg)
    modules = frozenset(name for name, _ in task.modules)
    if provided == "paper":
        return cfg, modules
    if provided != "required":
        raise ValueError(f"unknown provided-module rule {provided!r} (expected 'paper' or 'required')")
    declared = collect_identifiers(dict(task.modules[1:])).author if len(task.modules) > 1 else {}
    return cfg | frozenset(declared), frozenset({task.main})


def keeps_name(name: str, cfg_names: Iterable[str], module_names: Iterable[str] = ()) -> bool:
    """Whether the paper's rule keeps ``name`` unchanged in a description."""
    if name in frozenset(cfg_names):
        return False
    return (is_lowercase_word(name) or name in STANDARD_MODULES
            or name in frozenset(module_names))


def _renamer(name_map: Mapping[str, str], cfg: frozenset[str],
             modules: frozenset[str], rule: Rule) -> dict[str, str]:
    """The part of ``name_map`` that the rule applies to a description."""
    if rule == "all":
        return dict(name_map)
    if rule != "paper":
        raise ValueError(f"unknown rule {rule!r} (expected 'paper' or 'all')")
    return {old: new for old, new in name_map.items() if not keeps_name(old, cfg, modules)}


_OPENING_QUOTES = frozenset('"\u201c')
_CLOSING_QUOTES = frozenset('"\u201d')


def _quoted(text: str, m: re.Match[str]) -> bool:
    """Whether the word of ``m`` stands alone between double quotes (``"FillSmall"``)."""
    return (m.start() > 0 and text[m.start() - 1] in _OPENING_QUOTES
            and m.end() < len(text) and text[m.end()] in _CLOSING_QUOTES)


def _substitute(text: str, active: Mapping[str, str], kept_strings: frozenset[str] = frozenset()) -> str:
    # One left-to-right pass, so a new name is never renamed again.
    out: list[str] = []
    pos = 0
    for m in word_matches(text):
        word = m.group()
        if word in kept_strings and _quoted(text, m):
            continue  # a string value of the spec, which CIR keeps: the description must say it as it is
        new = active.get(word)
        if new is None:
            new = _rename_fairness(word, active)
        if new is not None:
            out.append(text[pos:m.start()])
            out.append(new)
            pos = m.end()
    out.append(text[pos:])
    return "".join(out)


def _rename_fairness(word: str, active: Mapping[str, str]) -> str | None:
    for prefix in _FAIRNESS_PREFIXES:
        if word.startswith(prefix) and word[len(prefix):] in active:
            return prefix + active[word[len(prefix):]]
    return None


def rename_description(description: str, name_map: Mapping[str, str],
                       cfg_names: Iterable[str], module_names: Iterable[str] = (),
                       *, rule: Rule = "paper", kept_strings: Iterable[str] = ()) -> str:
    """Rename the identifiers of ``name_map`` (old -> new) in a task description.

    ``cfg_names`` are the names the task's cfg refers to (see
    :func:`cfg_referenced_names`), ``module_names`` the task's own module names before
    renaming.  ``rule="paper"`` applies the three-part rule of the module
    docstring; ``rule="all"`` replaces every whole-word occurrence of every
    key, as blind replacement would.

    ``kept_strings`` are the string values of the specification (CIR never renames inside a string):
    a quoted word equal to one of them (``"FillSmall"``, the name a move writes into ``last``) names
    that value and stays, even when an identifier of the same name is renamed.
    """
    active = _renamer(name_map, frozenset(cfg_names), frozenset(module_names), rule)
    return _substitute(description, active, frozenset(kept_strings))


def description_damage(description: str, name_map: Mapping[str, str],
                       cfg_names: Iterable[str], module_names: Iterable[str] = ()) -> tuple[str, ...]:
    """The words blind replacement would change in ``description`` that the rule keeps.

    Sorted and without repeats; empty when both rules give the same text, so
    ``sum(bool(description_damage(...)) for ...)`` counts damaged descriptions.
    """
    cfg, modules = frozenset(cfg_names), frozenset(module_names)
    kept = {old for old in name_map if keeps_name(old, cfg, modules)}
    hit: set[str] = set()
    for m in word_matches(description):
        word = m.group()
        if word in kept:
            hit.add(word)
        else:
            for prefix in _FAIRNESS_PREFIXES:
                if word.startswith(prefix) and word[len(prefix):] in kept:
                    hit.add(word[len(prefix):])
    return tuple(sorted(hit))
