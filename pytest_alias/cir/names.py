"""Random replacement names of the same length, seeded and collision-free.

Each new name is drawn from a generator seeded by ``(seed, old name)``, so a name's replacement does
not depend on which other identifiers a spec has or in which order they are renamed: the same seed
gives the same map, and adding a task to a suite changes no other task's names.

Shape: the first character keeps the case of the original's first character and the rest are
lowercase letters (``TypeOK`` → ``Octvcq``), so a new name is always a plain identifier (never a
keyword, never ``WF_``/``SF_``-prefixed, never an all-caps cfg keyword longer than one letter).

One-letter names have only 26 candidates of their case, so they are drawn from the letters no
identifier of the spec uses; when none is left the name is kept and reported as not renamed.
"""

from __future__ import annotations

import hashlib
import random
import string
from typing import Iterable, Mapping

from ..tla.cfg import ALL_KEYWORDS as CFG_KEYWORDS
from ..tla.syntax import PLUSCAL_KEYWORDS, STANDARD_MODULES, STANDARD_NAMES, TLA_KEYWORDS, is_identifier

#: Names a new name must never take, whatever the spec.
RESERVED: frozenset[str] = frozenset(TLA_KEYWORDS | PLUSCAL_KEYWORDS | STANDARD_NAMES | STANDARD_MODULES | CFG_KEYWORDS
                                     | {"Nat", "Int", "Real", "TRUE", "FALSE", "BOOLEAN", "STRING", "self"})
MAX_ATTEMPTS = 1000


def _rng(seed: int, name: str) -> random.Random:
    digest = hashlib.sha256(f"alias-cir:{seed}:{name}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def _candidate(rng: random.Random, old: str) -> str:
    first = rng.choice(string.ascii_uppercase if old[0].isupper() else string.ascii_lowercase)
    return first + "".join(rng.choice(string.ascii_lowercase) for _ in range(len(old) - 1))


def random_names(old_names: Iterable[str], seed: int, taken: Iterable[str] = ()) -> tuple[dict[str, str], list[str]]:
    """A same-length random name for each old name: ``(map, kept)``.

    ``taken`` are identifiers that stay in the spec (bound variables, record fields, model values,
    standard names…): no new name may equal one of them, an old name, or another new name.
    ``kept`` lists old names left as they are (one-letter names when no letter is free).
    """
    olds = sorted(set(old_names))
    forbidden = set(RESERVED) | set(taken) | set(olds)
    mapping: dict[str, str] = {}
    kept: list[str] = []
    for old in olds:
        rng = _rng(seed, old)
        if len(old) == 1:
            letters = string.ascii_uppercase if old.isupper() else string.ascii_lowercase
            free = [letter for letter in letters if letter not in forbidden]
            if not free:
                kept.append(old)
                continue
            new = rng.choice(free)
        else:
            for _ in range(MAX_ATTEMPTS):
                new = _candidate(rng, old)
                if new not in forbidden:
                    break
            else:  # pragma: no cover - needs a two-letter name with every pair taken
                kept.append(old)
                continue
        mapping[old] = new
        forbidden.add(new)
    return mapping, kept


def check_map(mapping: Mapping[str, str], taken: Iterable[str] = (), *, same_length: bool = False) -> list[str]:
    """Problems with a proposed name map (e.g. meaningful names): empty when it is usable."""
    problems: list[str] = []
    targets: dict[str, str] = {}
    taken_set = set(taken) - set(mapping)
    for old, new in mapping.items():
        if not isinstance(new, str) or not is_identifier(new):
            problems.append(f"{old} → {new!r}: not a TLA+ identifier")
        elif new in RESERVED:
            problems.append(f"{old} → {new}: a keyword or standard name")
        elif new in taken_set:
            problems.append(f"{old} → {new}: already an identifier of the spec")
        elif new in targets:
            problems.append(f"{old} → {new}: also the new name of {targets[new]}")
        elif same_length and len(new) != len(old):
            problems.append(f"{old} → {new}: length differs")
        if isinstance(new, str):
            targets.setdefault(new, old)
    return problems
