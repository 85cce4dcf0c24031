"""The switch for ALIAS's verdict-preserving speed-ups (standard library only: every layer reads it).

``ALIAS_SHORTCUTS=off`` turns them all off, so a run can be compared with the plain way in the same
session (``benchmarks/bench_paper_scale.py`` does); records say which were in force.
"""

from __future__ import annotations

import os

#: The environment variable that turns every shortcut off (``off``/``0``/``no``/``false``).
ENV = "ALIAS_SHORTCUTS"
#: The shortcuts this build has, by name (what a record lists when they are on); see ``grading.shortcuts``.
NAMES = ("cascade", "early_stop", "graph_filter", "graph_pass", "self_check", "dedupe", "parallel_setup", "longest_first",
         "quick_jvm", "early_liveness", "pluscal_check")


def enabled() -> bool:
    """Whether the shortcuts are on (the default)."""
    return os.environ.get(ENV, "on").strip().lower() not in {"off", "0", "no", "false"}


def in_force() -> list[str]:
    """The shortcuts a record graded now says it used ([] when switched off)."""
    return list(NAMES) if enabled() else []
