"""The words and the paper's settings every part of ALIAS shares, defined once (standard library only:
the plugin imports it at load).

Order matters where it is used for display and for "the first failing grade": a module gets
parsed, then checked by name, then by behavior; a condition is the original, then renamed.
"""

from __future__ import annotations

from enum import StrEnum

#: The three grades, in pipeline order (parse, then TLC with the cfg, then refinement).
GRADES: tuple[str, ...] = ("parse", "name", "behavior")
#: What a run may ask for: one grade, or every grade.
GRADE_CHOICES: tuple[str, ...] = (*GRADES, "all")
#: The behavior grade's modes: the paper's procedure, or the extended grader.
MODES: tuple[str, ...] = ("paper", "extended")
#: The name grade's cfg binding: appendix H's literal rule, or with ALIAS's two refinements (see grading.bind).
NAME_RULES: tuple[str, ...] = ("paper", "refined")
#: Conditions: the task as written, then CIR with random names, then model-proposed meaningful names.
CONDITIONS: tuple[str, ...] = ("original", "random", "meaningful")
#: Generation-store modes: read and write, read only, regenerate, off.
STORE_MODES: tuple[str, ...] = ("rw", "ro", "refresh", "off")

# --- the paper's settings (section 4, appendices E and P): every default reads these -----------------

#: The time limit of each TLC run, in seconds.
TLC_TIMEOUT_S: float = 300.0
#: Bootstrap resamples behind every confidence interval.
BOOTSTRAP_RESAMPLES: int = 10_000
#: Samples per task and condition.
SAMPLES: int = 5
#: The behavior grade's whole mapping search is bounded by this many TLC limits (1,200 s at the paper's
#: 300 s) unless ``--alias-search-budget`` sets it: ALIAS's bound, the paper states none.
SEARCH_BUDGET_LIMITS: int = 4

#: Upper limits of the counts a user gives (each refused above its limit with a one-line error naming
#: it): a count is memory and time, and 10**9 renaming seeds once took 10 GB before any output. Each
#: lies far above the paper's setting (5 samples, 1 renaming, 10,000 resamples).
MAX_SAMPLES = 1000
MAX_RENAME_SEEDS = 100
MAX_RESAMPLES = 1_000_000
MAX_NEW_TOKENS = 1_000_000
MAX_WORKERS = 256
MAX_MUTANTS = 10_000
MAX_SEED = 2**63 - 1  # a signed 64-bit integer: what every sampler and record reader takes


def search_budget(budget: float | None, timeout: float) -> float:
    """The whole-search budget in seconds: ``budget`` when one is set, else the default for a TLC limit of ``timeout``."""
    return budget if budget is not None else SEARCH_BUDGET_LIMITS * timeout


def condition_label(kind: str, rename_seed: int = 0) -> str:
    """A condition as item ids, generation keys and replay files name it: ``kind``, or ``kind-r<j>``
    for a run's j-th extra renaming (``--alias-rename-seeds``; ``random-r2``), so renaming 0 keeps
    today's names. ``r`` for renaming: ``-s<k>`` already ends every item id as the sample."""
    return f"{kind}-r{rename_seed}" if rename_seed else kind


class Stage(StrEnum):
    """How far a grade got before its verdict (``details["stage"]`` of every grade result)."""

    EXTRACT = "extract"  # no module could be taken from the output
    STAGE = "stage"  # the module could not be placed beside the reference's modules
    NO_CFG = "no-cfg"  # the task has no cfg: a TLC grade cannot apply
    MODEL = "model"  # the model gave no answer (a model error)
    CFG = "cfg"  # the cfg could not be bound to the output (or does not parse)
    SANY = "sany"  # strict SANY
    GUARD = "guard"  # refused unrun: the output could write files or run commands
    SPEC = "spec"  # finding the output's spec formula
    MAPPING = "mapping"  # the behavior grade's search for a name mapping
    GRAPH = "graph"  # the extended behavior grade's state-graph matching
    DATA_VARIABLES = "data-variables"  # the control-label comparison on data variables
    TLC = "tlc"  # TLC's verdict
    TOOLCHAIN = "toolchain"  # the configured tla2tools.jar predates what the task's cfg uses: no verdict
    ERROR = "error"  # the grader itself failed
    SELF_CHECK = "self-check"  # the reference fails this grade against itself: not gradeable


class Side(StrEnum):
    """Who a failing verdict is about (``details["side"]``): only ``output`` counts against a model."""

    OUTPUT = "output"
    REFERENCE = "reference"
    GRADER = "grader"
    MODEL = "model"
