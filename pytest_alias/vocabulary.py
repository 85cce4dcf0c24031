"""The words every part of ALIAS shares, defined once (standard library only: the plugin imports it at load).

Order matters where it is used for display and for "the first failing grade": a module gets
parsed, then checked by name, then by behavior; a condition is the original, then renamed.
"""

from __future__ import annotations

#: The three grades, in pipeline order (parse, then TLC with the cfg, then refinement).
GRADES: tuple[str, ...] = ("parse", "name", "behavior")
#: The behavior grade's modes: the paper's procedure, or the extended grader.
MODES: tuple[str, ...] = ("paper", "extended")
#: Conditions: the task as written, then CIR with random names, then model-proposed meaningful names.
CONDITIONS: tuple[str, ...] = ("original", "random", "meaningful")
#: Generation-store modes: read and write, read only, regenerate, off.
STORE_MODES: tuple[str, ...] = ("rw", "ro", "refresh", "off")
