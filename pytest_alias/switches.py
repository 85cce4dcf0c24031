"""The switch for ALIAS's verdict-preserving speed-ups (standard library only: every layer reads it).

``ALIAS_SHORTCUTS=off`` turns them all off, so a run can be compared with the plain way in the same
session (``benchmarks/bench_paper_scale.py`` does); records say which were in force. A value that is
not a yes or a no is a usage error naming the variable, never silently "on".
"""

from __future__ import annotations

import os

from .errors import UsageProblem

#: The environment variable that turns every shortcut off (``off``/``0``/``no``/``false``).
ENV = "ALIAS_SHORTCUTS"
#: What an on/off environment switch accepts (any case; empty or unset means its default).
ON = ("1", "on", "true", "yes")
OFF = ("0", "off", "false", "no")
#: The shortcuts this build has, by name (what a record lists when they are on); see ``grading.shortcuts``.
NAMES = ("cascade", "early_stop", "graph_filter", "graph_pass", "self_check", "dedupe", "parallel_setup", "longest_first",
         "look_ahead", "quick_jvm", "early_liveness", "pluscal_check")


def flag(variable: str, default: bool) -> bool:
    """The on/off environment switch ``variable`` (``default`` when unset or empty); raises
    :class:`UsageProblem` (one line naming it and the accepted values) for anything else."""
    value = os.environ.get(variable, "").strip().lower()
    if not value:
        return default
    if value in ON or value in OFF:
        return value in ON
    raise UsageProblem(f"{variable} must be one of {', '.join(ON)} (on) or {', '.join(OFF)} (off), "
                       f"not {os.environ[variable]!r}")


def enabled() -> bool:
    """Whether the shortcuts are on (the default)."""
    return flag(ENV, True)


def in_force() -> list[str]:
    """The shortcuts a record graded now says it used ([] when switched off)."""
    return list(NAMES) if enabled() else []
