"""Appendix M's known names: which algorithm, protocol and problem names a (renamed) description still
carries, read from ``data/known_names.json`` (standard library only: every record is marked)."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Iterable

KNOWN_NAMES_FILE = Path(__file__).resolve().parents[1] / "data" / "known_names.json"
LISTS = ("fixed", "broader")


@lru_cache(maxsize=1)
def known_name_lists() -> dict[str, tuple[str, ...]]:
    """The fixed list of algorithm, protocol and problem names, and the broader list (fixed + problem words)."""
    data = json.loads(KNOWN_NAMES_FILE.read_text(encoding="utf-8"))
    fixed = tuple(data["fixed"])
    return {"fixed": fixed, "broader": fixed + tuple(data["broader"])}


@lru_cache(maxsize=4096)
def _pattern(name: str) -> re.Pattern[str]:
    # Whole words, in any case (as known_names.json says); a hyphen and a space are the same
    # separator ("two phase commit").
    words = [re.escape(word) for word in re.split(r"[\s\-]+", name.strip()) if word]
    return re.compile(r"(?<![A-Za-z0-9])" + r"[\s\-]+".join(words) + r"(?![A-Za-z0-9])", re.IGNORECASE)


def _mentions(text: str, name: str) -> bool:
    # A name written with capitals is a proper noun: "PAXOS" and "paXos" are Paxos, but a word
    # written all in lowercase is the common noun ("a raft" is no Raft, "a bakery" no Bakery).
    proper = any(c.isupper() for c in name)
    return any(not (proper and m.group().islower()) for m in _pattern(name).finditer(text))


def known_names_in(text: str, names: Iterable[str]) -> list[str]:
    """The names of ``names`` that ``text`` mentions, in list order (the matching rule of
    ``known_names.json``: whole words in any case, except a proper noun written all in lowercase)."""
    return [name for name in names if _mentions(text, name)]


def mark_known_names(description: str) -> dict[str, list[str]]:
    """``{"fixed": [...], "broader": [...]}``: the known names a (renamed) description still carries."""
    return {kind: list(found) for kind, found in _marked(description).items()}


@lru_cache(maxsize=256)
def _marked(description: str) -> dict[str, tuple[str, ...]]:
    # Every record of a condition carries the same description: searched once per process.
    return {kind: tuple(known_names_in(description, names)) for kind, names in known_name_lists().items()}
