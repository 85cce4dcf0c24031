"""The ``tla-alias`` command line: a thin door onto the library (no logic of its own lives here).

One module per command family holds its commands: ``toolchain`` (doctor, check), ``build``
(rename, build, tasks), ``grade`` (grade, validate-grader), ``exposure`` (split, finetune,
likelihood, exposure), ``report`` (report) and ``controls`` (propose-names, continuation).
Their arguments live in the light ``parsers`` (``exposure`` registers its own), so building the
parser imports none of the families' heavy modules: those load when a command is dispatched.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from importlib import import_module
from pathlib import Path
from typing import Any, Callable, Sequence

from .. import __version__
from ..errors import AliasError, usage_message
from . import exposure, parsers  # light: argument definitions (exposure's heavy imports wait inside its commands)

#: What a subcommand runs: a ``"module:function"`` name (loaded on dispatch) or, for the exposure
#: family, the function itself.
Handler = Callable[[argparse.Namespace], int]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tla-alias", description="ALIAS: grade LLM-written TLA+ specs and test for memorization.")
    parser.add_argument("--version", action="version", version=f"tla-alias {__version__}")
    parser.add_argument("--cache-dir", type=Path, default=None, help="run cache folder (default: ALIAS_CACHE_DIR or the user cache)")
    parser.add_argument("--no-cache", action="store_true", help="run the tools even when a cached verdict exists")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    parsers.add_toolchain_commands(commands)
    parsers.add_build_commands(commands)
    parsers.add_grade_commands(commands)
    exposure.add_exposure_commands(commands)
    parsers.add_report_command(commands)
    parsers.add_control_commands(commands)
    return parser


def command_function(handler: Handler | str) -> Handler:
    """The function a parsed command runs. Its module is imported here, on dispatch, so that its
    heavy imports (grading, TLC, reports) can sit at its top and still cost ``--help`` nothing."""
    if callable(handler):
        return handler
    module, _, name = handler.partition(":")
    function: Handler = getattr(import_module(module), name)
    return function


def _one_line_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                      file: Any = None, line: str | None = None) -> None:
    """Warnings as one line a user can read (no source file and line of ALIAS's own code)."""
    print(f"tla-alias: warning: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tla-alias`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    warnings.showwarning = _one_line_warning
    try:
        from ..tla.launcher import check_environment  # loads TLC's value parser: on dispatch, never for --help

        check_environment()  # a bad ALIAS_LAUNCHER or ALIAS_JAVA_HEAP: one line now, not a grader error per run
        return command_function(args.handler)(args)
    except OSError as exc:  # a folder that cannot be written, a file that cannot be read: the machine's state
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"tla-alias: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2
    except AliasError as exc:  # the project's own errors only: anything else is a bug and shows as one
        print(f"tla-alias: {usage_message(exc, '--')}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("tla-alias: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
