"""The arguments of every ``tla-alias`` family but ``exposure``: the light half of the command line.

Why a module of its own: building the parser (``tla-alias --help``, any usage error) must load only
argparse, the option table and the vocabulary. So each subcommand names its function as a
``"module:function"`` string, and ``tla-alias`` imports that module (with everything it needs, at
its top) only when the command is dispatched. The ``exposure`` family still registers itself
(:func:`pytest_alias.cli.exposure.add_exposure_commands`) with the functions themselves.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..run.options import add_command_option, integer, seconds
from ..vocabulary import (GRADES, MAX_MUTANTS, MAX_RENAME_SEEDS, MAX_RESAMPLES, MAX_SEED, MAX_WORKERS, MODES,
                          TLC_TIMEOUT_S)

#: Where each family's command functions live (imported on dispatch only).
TOOLCHAIN, BUILD, GRADE, REPORT, CONTROLS = (f"pytest_alias.cli.{family}"
                                             for family in ("toolchain", "build", "grade", "report", "controls"))


def add_toolchain_commands(commands: Any) -> None:
    """Register ``doctor`` and ``check`` on ``commands`` (an argparse subparsers object)."""
    doctor = commands.add_parser("doctor", help="show the Java, jar, launcher and cache in use; exit 0 when they work")
    doctor.set_defaults(handler=f"{TOOLCHAIN}:cmd_doctor")

    check = commands.add_parser("check", help="strict SANY then TLC on one module")
    check.add_argument("module", type=Path, help="the .tla module (modules it imports are read from beside it)")
    check.add_argument("--cfg", type=Path, default=None, help="the cfg (default: MODULE.cfg beside the module)")
    check.add_argument("--timeout", type=seconds, default=TLC_TIMEOUT_S, help=f"TLC time limit in seconds (default {TLC_TIMEOUT_S:g})")
    check.add_argument("--workers", type=integer(1, MAX_WORKERS), default=1, help="TLC worker threads (default 1)")
    check.add_argument("--json", action="store_true", help="print one JSON object")
    check.set_defaults(handler=f"{TOOLCHAIN}:cmd_check")


def add_build_commands(commands: Any) -> None:
    """Register ``rename``, ``build`` and ``tasks`` on ``commands``."""
    rename = commands.add_parser("rename", help="CIR: rename a spec, its cfg and description; --verify with SANY and TLC")
    rename.add_argument("module", type=Path, help="the main .tla module (modules it imports are read from beside it)")
    rename.add_argument("--cfg", type=Path, default=None, help="the cfg (default: MODULE.cfg beside the module)")
    rename.add_argument("--description", type=Path, default=None, help="a description to rename with the paper's rule")
    rename.add_argument("--seed", type=integer(0, MAX_SEED), default=0, help="random-name seed (default 0)")
    rename.add_argument("--map", type=Path, default=None, help="apply this JSON name map (meaningful names) instead")
    rename.add_argument("--published", action="store_true",
                        help="with --map: a published map of the renamed condition, checked strictly (every old name "
                             "one CIR renames, injective, no keyword, standard or kept name) instead of a proposal "
                             "of meaningful names whose unknown names are ignored")
    rename.add_argument("--out", type=Path, required=True, help="output folder (written atomically)")
    rename.add_argument("--verify", action="store_true", help="check the copy with strict SANY and TLC state counts")
    rename.add_argument("--json", action="store_true", help="print one JSON object")
    rename.set_defaults(handler=f"{BUILD}:cmd_rename")

    build = commands.add_parser("build", help="rename and verify every task of a suite; write the CIR test set")
    build.add_argument("suite", help="builtin, a folder of tasks, examples:PATH or tlabench:PATH")
    build.add_argument("--out", type=Path, required=True, help="output folder (written atomically)")
    build.add_argument("--seed", type=integer(0, MAX_SEED), default=0, help="random-name seed (default 0)")
    build.add_argument("--workers", type=integer(1, MAX_WORKERS), default=2, help="tasks verified in parallel (default 2)")
    build.add_argument("--rename-map", type=Path, default=None,
                       help="published maps {task id: {old name: new name}}: the renamed condition from them instead "
                            "of the seed (each checked and verified by SANY and TLC; one that fails is refused with "
                            "its reason)")
    build.add_argument("--rename-seeds", type=integer(1, MAX_RENAME_SEEDS), default=1,
                       help="also build and verify the further renamings of a run with --alias-rename-seeds=N "
                            f"into the condition cache (default 1: the test set's renaming only; at most {MAX_RENAME_SEEDS})")
    build.set_defaults(handler=f"{BUILD}:cmd_build")

    tasks = commands.add_parser("tasks", help="list a suite's tasks and the cfg names their descriptions hide")
    tasks.add_argument("suite", nargs="?", default="builtin",
                       help="builtin (default), a task folder, examples:PATH or tlabench:PATH[#KIND][?ids=FILE]")
    tasks.add_argument("--ids", default=None, help="keep only these task ids: a JSON list file or ID,ID,...")
    tasks.add_argument("--description-kind", default=None, help="TLA+-Bench description kind (default declarative_gpt)")
    tasks.add_argument("--skipped", action="store_true", help="also list on stderr what the suite left out and why")
    tasks.add_argument("--json", action="store_true", help="print one JSON list of tasks")
    tasks.set_defaults(handler=f"{BUILD}:cmd_tasks")


def add_grade_commands(commands: Any) -> None:
    """Register ``grade`` and ``validate-grader`` on ``commands``."""
    grade = commands.add_parser("grade", help="grade one model output against a reference (parse, name or behavior)")
    reference = grade.add_mutually_exclusive_group(required=True)
    reference.add_argument("--reference", type=Path, default=None,
                           help="the reference .tla module (modules it imports are read from beside it)")
    reference.add_argument("--task", type=Path, default=None,
                           help="a task folder (task.toml, modules, cfg, description): graded as a suite's task is, "
                                "so the record equals the pytest item's")
    grade.add_argument("--cfg", type=Path, default=None, help="the reference's cfg (default: MODULE.cfg beside it)")
    grade.add_argument("--output", type=Path, required=True, help="a text file holding the model's output")
    grade.add_argument("--grade", choices=GRADES, required=True, help="which grade")
    grade.add_argument("--mode", choices=MODES, default="paper",
                       help="behavior-grade mapping search (default paper)")
    grade.add_argument("--timeout", type=seconds, default=TLC_TIMEOUT_S, help=f"time limit per TLC run in seconds (default {TLC_TIMEOUT_S:g})")
    add_command_option(grade, "name-rule")
    add_command_option(grade, "search-budget")
    grade.add_argument("--json", action="store_true", help="print one JSON object")
    grade.set_defaults(handler=f"{GRADE}:cmd_grade")

    validate = commands.add_parser("validate-grader", help="Table J.1: positive and negative controls of the behavior grade")
    validate.add_argument("suite", help="builtin, a folder of tasks, examples:PATH or tlabench:PATH")
    validate.add_argument("--mode", choices=MODES, default="paper",
                          help="behavior-grade mapping search (default paper)")
    validate.add_argument("--workers", type=integer(1, MAX_WORKERS), default=2, help="tasks validated in parallel (default 2)")
    validate.add_argument("--seed", type=integer(0, MAX_SEED), default=0, help="random-name seed of the renamed controls (default 0)")
    validate.add_argument("--mutant-limit", type=integer(0, MAX_MUTANTS), default=40,
                          help=f"mutants generated per task (default 40, at most {MAX_MUTANTS:,})")
    validate.add_argument("--timeout", type=seconds, default=TLC_TIMEOUT_S, help=f"time limit per TLC run of a grade (default {TLC_TIMEOUT_S:g}, the paper's)")
    validate.add_argument("--mutant-timeout", type=seconds, default=60.0,
                          help="time limit per TLC run deciding whether a mutant is kept (default 60)")
    validate.add_argument("--max-states", type=integer(1), default=None,
                          help="leave out tasks whose reference has more distinct states (default: none left out)")
    validate.add_argument("--progress", action="store_true", help="print one line per task to stderr as it ends")
    validate.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    validate.add_argument("--json", action="store_true", help="print one JSON object with per-task details")
    validate.set_defaults(handler=f"{GRADE}:cmd_validate_grader")


def add_report_command(commands: Any) -> None:
    """Register ``report`` on ``commands``."""
    report = commands.add_parser("report", help="render the paper's tables from saved plugin reports")
    report.add_argument("files", nargs="+", type=Path,
                        help="plugin reports (--alias-report run.json, or JSON lines), likelihood and continuation files, "
                             "saved outputs (--alias-save-outputs: their sample agreement)")
    report.add_argument("--out", type=Path, default=Path("alias-report"),
                        help="folder for report.md/.json/.html and the figures' PNG files")
    report.add_argument("--covered", "--validation", dest="validation", type=Path, default=None,
                        help="tla-alias validate-grader --json output: its covered tasks (appendix J) restrict "
                             "Table U.1 and every behavior number the paper reports on them (appendices M, P, R, "
                             "U; Table 2, F.1, O.1); default: the run's own covered set, when it asked for one")
    report.add_argument("--split", type=Path, default=None, help="an exposure split: adds Table 2")
    report.add_argument("--ids", type=Path, default=None,
                        help="task ids (JSON list or one per line): the first-sample rate of appendix S over them")
    report.add_argument("--resamples", type=integer(100, MAX_RESAMPLES), default=None,
                        help=f"bootstrap resamples (default: the run's, else 10,000; at most {MAX_RESAMPLES:,})")
    report.add_argument("--seed", type=integer(0, MAX_SEED), default=None, help="bootstrap seed (default: the run's, else 0)")
    report.set_defaults(handler=f"{REPORT}:cmd_report")


def add_control_commands(commands: Any) -> None:
    """Register ``propose-names`` and ``continuation`` on ``commands``."""
    propose = commands.add_parser("propose-names", help="appendix R: meaningful names from a model, verified")
    propose.add_argument("--model", required=True, help="any registered model: opus, hf:PATH, smollm2, replay:FILE")
    propose.add_argument("--suite", default="builtin", help="the suite (default builtin)")
    propose.add_argument("--out", type=Path, required=True, help="the maps file (--alias-meaningful-maps reads it)")
    propose.set_defaults(handler=f"{CONTROLS}:cmd_propose_names")

    continuation = commands.add_parser("continuation", help="appendix L: file continuation on originals and renamed copies")
    continuation.add_argument("--model", required=True, help="any registered model")
    continuation.add_argument("--suite", default="builtin", help="the suite (default builtin)")
    continuation.add_argument("--out", type=Path, required=True, help="the JSON-lines file to write")
    continuation.set_defaults(handler=f"{CONTROLS}:cmd_continuation")
