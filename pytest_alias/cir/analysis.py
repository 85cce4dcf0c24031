"""Analyses of a CIR test set: hidden required names, identifier kinds, text similarity.

These back the paper's Section 3 paragraphs "Identifier kinds" and "Hidden
required names", Table C.1 and the difflib similarity of Appendix G.

* A *required name* is one the cfg makes an output define: constants
  (and the definitions a ``<-`` substitutes for them), invariants,
  properties, constraints, action constraints, SYMMETRY, VIEW and the other
  single-name sections.  INIT, NEXT and SPECIFICATION are excluded because
  the prompt asks for Init, Next and Spec by name and the name-based grade
  accepts them under any name; model values are excluded because TLC
  creates them.
* A required name is *hidden* when the description never mentions it as a
  whole word, case-sensitively.  Hidden names are counted as the paper counts
  them, over constants, invariants, properties and constraints only
  (:data:`PAPER_HIDDEN_CATEGORIES`); SYMMETRY, VIEW and the rest are required
  but not counted unless asked for.
* An identifier is a *convention* when it is in :data:`CONVENTIONS` (with
  trailing digits ignored, so ``Inv2`` counts), a *domain word* when every
  part of it (split at underscores, case changes and digits) is an English
  dictionary word, and an *abbreviation* otherwise (``hr``, ``msgQ``, ``x``).
  The dictionary is web2 of the ``english-words`` package with regular
  inflections and British spellings; a one-letter part is an abbreviation
  unless it is "a" or "I" next to a longer word.
"""
from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from ..tla.cfg import ConstantsSection, NamesSection, parse_cfg
from ..tla.syntax import is_identifier
from .describe import mentions, word_matches

__all__ = [
    "ALL_CATEGORIES",
    "CONVENTIONS",
    "HiddenName",
    "PAPER_HIDDEN_CATEGORIES",
    "Kind",
    "KindRow",
    "KindTable",
    "cfg_required_names",
    "english_words",
    "hidden_names",
    "identifier_kind",
    "identifier_parts",
    "is_english_word",
    "kept_domain_words",
    "kind_table",
    "similarity",
]

Kind = Literal["domain", "convention", "abbreviation"]
KINDS: tuple[Kind, ...] = ("domain", "convention", "abbreviation")

# --- required and hidden names ---------------------------------------------

# cfg section kind -> category of the names it lists; INIT/NEXT/SPECIFICATION
# are left out on purpose (see the module docstring).
_SECTION_CATEGORY: dict[str, str] = {
    "INVARIANT": "invariant",
    "TYPE": "invariant",             # legacy TLC spelling of a type invariant
    "PROPERTY": "property",
    "CONSTRAINT": "constraint",
    "TYPE_CONSTRAINT": "constraint",  # legacy
    "ACTION_CONSTRAINT": "constraint",
    "SYMMETRY": "symmetry",
    "VIEW": "view",
    "ALIAS": "alias",
    "POSTCONDITION": "postcondition",
    "_PERIODIC": "periodic",
}


def cfg_required_names(cfg_text: str | None) -> list[tuple[str, str]]:
    """The names an output must define to pass TLC with this cfg, as ``(name, category)``.

    In file order, each name once (its first category).  Categories:
    ``constant`` (a declared constant, each part of ``I!N``, and the
    definition on the right of ``<-``), ``invariant``, ``property``,
    ``constraint`` (state and action constraints), ``symmetry``, ``view`` and
    the rarer ``alias``/``postcondition``/``periodic``.
    """
    if cfg_text is None:
        return []
    out: dict[str, str] = {}
    for section in parse_cfg(cfg_text).sections:
        if isinstance(section, ConstantsSection):
            for entry in section.entries:
                for part in entry.name.split("!"):
                    if is_identifier(part):  # not an overridden operator symbol like +
                        out.setdefault(part, "constant")
                if entry.op == "<-":
                    out.setdefault(entry.value, "constant")
        elif isinstance(section, NamesSection):
            category = _SECTION_CATEGORY.get(section.kind)
            if category is not None:
                for name in section.names:
                    out.setdefault(name, category)
    return list(out.items())


@dataclass(frozen=True)
class HiddenName:
    """A required cfg name that the description never states."""

    name: str
    category: str


#: The categories the paper counts as hidden names (section 3: "The 333 hidden names are 115 constants,
#: 113 invariants, 87 properties and 18 constraints"); SYMMETRY, VIEW and the rarer sections are left out.
PAPER_HIDDEN_CATEGORIES: frozenset[str] = frozenset({"constant", "invariant", "property", "constraint"})
#: Every category ``cfg_required_names`` reports, for a count that includes SYMMETRY, VIEW, ALIAS, ….
ALL_CATEGORIES: frozenset[str] = frozenset({"constant", *_SECTION_CATEGORY.values()})


def hidden_names(description: str, cfg_text: str | None, *,
                 categories: Iterable[str] = PAPER_HIDDEN_CATEGORIES) -> list[HiddenName]:
    """The required names of ``cfg_text`` in ``categories`` that ``description`` never mentions by name.

    By default the paper's four categories (constants, invariants, properties, constraints), so the
    counts, the hidden-name split and Table C.1 match section 3; pass ``categories=ALL_CATEGORIES``
    to count SYMMETRY, VIEW and the other sections too. A task without a cfg has none.
    """
    kept = frozenset(categories)
    return [HiddenName(name, category) for name, category in cfg_required_names(cfg_text)
            if category in kept and not mentions(description, name)]


# --- identifier kinds -------------------------------------------------------

#: TLA+ and PlusCal naming conventions (Lamport's examples, the PlusCal
#: translator, TLC idioms).  Matched exactly, after dropping trailing digits.
CONVENTIONS: frozenset[str] = frozenset({
    # the specification skeleton
    "Init", "Next", "Spec", "vars", "FairSpec", "LiveSpec", "SafeSpec",
    # type and other invariants
    "TypeOK", "TypeOk", "TypeInv", "TypeInvariant", "Inv", "Invariant",
    # property families
    "Safety", "Liveness", "Fairness", "Termination",
    # PlusCal translation
    "pc", "self", "ProcSet", "Terminating", "defaultInitValue", "stack",
    # TLC idioms
    "Symmetry", "Perms", "StateConstraint",
})

_TRAILING_DIGITS = re.compile(r"\d+\Z")
# CamelCase, acronyms (HTTPServer -> HTTP, Server), lowercase runs, digit runs.
_PART_RE = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
# Inflections the word list lacks (it has "arrive", not "arrived"): suffix -> replacement.
_INFLECTIONS: tuple[tuple[str, str], ...] = (
    ("ies", "y"), ("es", ""), ("s", ""), ("ied", "y"), ("ed", ""), ("ed", "e"),
    ("ing", ""), ("ing", "e"), ("er", ""), ("er", "e"),
)
_BRITISH_ISE = re.compile(r"is(e|ed|es|ing|ation|ations)\Z")
# Common words missing from web2 as packaged (found by checking identifiers by hand).
_EXTRA_WORDS: frozenset[str] = frozenset({"box", "has", "held"})
# The one-letter words; they count only next to a longer word (OneWriterAtATime).
_ONE_LETTER_WORDS: frozenset[str] = frozenset({"a", "i"})


def identifier_parts(name: str) -> tuple[str, ...]:
    """Split an identifier at underscores, case changes and digits.

    ``FinishUpdate`` -> ``("Finish", "Update")``, ``max_val`` -> ``("max", "val")``,
    ``msgQ`` -> ``("msg", "Q")``, ``Init2`` -> ``("Init", "2")``.
    """
    return tuple(p for chunk in name.split("_") for p in _PART_RE.findall(chunk))


@lru_cache(maxsize=1)
def english_words() -> frozenset[str]:
    """The dictionary: Webster's 2nd (``web2`` of the ``english-words`` package), lowercase.

    web2 holds base forms, including short words such as ``max`` and
    ``val``; :func:`is_english_word` adds regular inflections.  Loaded once.
    """
    from english_words import get_english_words_set  # deferred: ~0.1 s to load

    return frozenset(get_english_words_set(["web2"], alpha=True, lower=True))


def is_english_word(part: str) -> bool:
    """Whether ``part`` is a dictionary word of two or more letters.

    Regular inflections (``arrived``, ``forks``), British spellings
    (``neighbour``, ``synchronise``) and a few common words web2 lacks count too.
    """
    word = part.lower()
    if len(word) < 2 or not word.isalpha():
        return False
    return any(_in_dictionary(w) for w in _spellings(word))


def _spellings(word: str) -> tuple[str, ...]:
    # web2 is American: try colour -> color and synchronise -> synchronize as well.
    american = _BRITISH_ISE.sub(r"iz\1", word.replace("our", "or"))
    return (word,) if american == word else (word, american)


def _in_dictionary(word: str) -> bool:
    words = english_words()
    if word in words or word in _EXTRA_WORDS:
        return True
    for suffix, repl in _INFLECTIONS:
        if word.endswith(suffix) and len(word) > len(suffix) + 1:
            stem = word[: -len(suffix)]
            if stem + repl in words:
                return True
            # stopped -> stop, running -> run
            if not repl and len(stem) > 2 and stem[-1] == stem[-2] and stem[:-1] in words:
                return True
    return False


def identifier_kind(name: str) -> Kind:
    """Classify an identifier as ``"convention"``, ``"domain"`` or ``"abbreviation"``.

    Conventions come first (``TypeOK`` is a convention though "type" and
    "ok" are words).  Digit parts are ignored for the dictionary test; a
    one-letter part makes an abbreviation (``x``, ``msgQ``) unless it is the
    word "a" or "I" next to a longer word (``OneWriterAtATime``).
    """
    if name in CONVENTIONS or _TRAILING_DIGITS.sub("", name) in CONVENTIONS:
        return "convention"
    words = [p for p in identifier_parts(name) if not p.isdigit()]
    longer = [p for p in words if len(p) > 1]
    if longer and all(is_english_word(p) or p.lower() in _ONE_LETTER_WORDS for p in words):
        return "domain"
    return "abbreviation"


@dataclass(frozen=True)
class KindRow:
    """One row of Table C.1: how many renamed and hidden names are of one kind."""

    kind: Kind
    renamed: int
    hidden: int
    renamed_pct: float
    hidden_pct: float


@dataclass(frozen=True)
class KindTable:
    """Table C.1: identifier kinds over renamed and hidden required names."""

    rows: tuple[KindRow, ...]
    renamed_total: int
    hidden_total: int

    def row(self, kind: Kind) -> KindRow:
        """The row of ``kind``."""
        return next(r for r in self.rows if r.kind == kind)

    def render(self) -> str:
        """The table as Markdown, counts with whole percentages as in the paper."""
        lines = ["| Kind | Renamed | Hidden |", "|---|---|---|"]
        for r in self.rows:
            lines.append(f"| {r.kind} | {r.renamed:,} ({r.renamed_pct:.0f}%) "
                         f"| {r.hidden:,} ({r.hidden_pct:.0f}%) |")
        lines.append(f"| total | {self.renamed_total:,} | {self.hidden_total:,} |")
        return "\n".join(lines)


def _pct(part: int, total: int) -> float:
    return 100.0 * part / total if total else 0.0


def kind_table(renamed: Iterable[str], hidden: Iterable[str | HiddenName]) -> KindTable:
    """Count renamed identifiers and hidden names by kind.

    Both are counted with repeats, so pass the per-task lists one after the
    other: an identifier renamed in two tasks counts twice, as in the paper.
    """
    renamed_kinds = Counter(identifier_kind(n) for n in renamed)
    hidden_kinds = Counter(identifier_kind(h.name if isinstance(h, HiddenName) else h)
                           for h in hidden)
    r_total, h_total = sum(renamed_kinds.values()), sum(hidden_kinds.values())
    rows = tuple(
        KindRow(k, renamed_kinds[k], hidden_kinds[k],
                _pct(renamed_kinds[k], r_total), _pct(hidden_kinds[k], h_total))
        for k in KINDS)
    return KindTable(rows, r_total, h_total)


def kept_domain_words(identifiers: Iterable[str], original: str, renamed: str) -> tuple[int, int]:
    """``(kept, used)`` for the paper's "199/219 keep those words after CIR".

    ``used`` counts the distinct domain identifiers all of whose words occur
    (as words, ignoring case) in the original description; ``kept`` those of
    them whose words all still occur in the renamed one.
    """
    before = {m.group().lower() for m in word_matches(original)}
    after = {m.group().lower() for m in word_matches(renamed)}
    used = kept = 0
    for name in dict.fromkeys(identifiers):
        if identifier_kind(name) != "domain":
            continue
        parts = {p.lower() for p in identifier_parts(name) if not p.isdigit()}
        if parts <= before:
            used += 1
            kept += parts <= after
    return kept, used


# --- similarity -------------------------------------------------------------

def similarity(original_text: str, renamed_text: str, *, autojunk: bool = False) -> float:
    """Word-by-word similarity of two texts, difflib's ``SequenceMatcher.ratio``.

    Words are the whitespace-separated tokens.  ``autojunk`` is off by
    default: its popularity heuristic would drop frequent tokens such as
    ``/\\`` from long specifications and understate the similarity.
    """
    a, b = original_text.split(), renamed_text.split()
    if not a and not b:
        return 1.0
    return difflib.SequenceMatcher(None, a, b, autojunk=autojunk).ratio()
