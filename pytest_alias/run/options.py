"""The plugin's options: one table of names, types, choices and defaults, resolved as pytest users expect.

Precedence is command line > ini file > default: every option is registered with ``default=None``, so
"not given on the command line" is never confused with "given the default value". Values from the
ini file pass through the same converters as command-line values, so a bad value is one usage error
whichever side it came from. Only the standard library is imported here: the plugin loads this
module in every pytest run, with or without ``--alias-model``.
"""

from __future__ import annotations

from ..errors import UsageProblem

import argparse
from dataclasses import dataclass
from typing import Any, Callable, Literal
from ..vocabulary import (BOOTSTRAP_RESAMPLES, CONDITIONS, GRADE_CHOICES, MAX_NEW_TOKENS, MAX_RENAME_SEEDS, MAX_RESAMPLES, MAX_SAMPLES,
                         MAX_SEED, MODES, NAME_RULES, SEARCH_BUDGET_LIMITS, STORE_MODES,
                         TLC_TIMEOUT_S)

PREFILL_CHOICES = ("none", "header")


def integer(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse type: an integer of at least ``minimum`` and at most ``maximum`` (shared by the
    plugin and the command line)."""
    def convert(text: str) -> int:
        try:
            number = int(str(text).strip())
        except ValueError:  # also a number of more than 4,300 digits (Python's own limit)
            raise argparse.ArgumentTypeError(f"must be an integer, not {str(text)[:40]!r}") from None
        if number < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, not {number}")
        if maximum is not None and number > maximum:
            raise argparse.ArgumentTypeError(f"must be at most {maximum:,} (the limit), not {number:,}")
        return number

    convert.__name__ = "integer"
    return convert


def seconds(text: str) -> float:
    """An argparse type: a positive, finite number of seconds (NaN and infinity refused)."""
    try:
        number = float(str(text).strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, not {text!r}") from None
    if not number > 0 or number == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text!r}")
    return number


def positive_number(text: str) -> float:
    """An argparse type: a positive, finite number (a learning rate)."""
    try:
        number = float(str(text).strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, not {text!r}") from None
    if not 0 < number < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number, not {text!r}")
    return number


def _conditions(text: str) -> tuple[str, ...]:
    kinds = [part.strip() for part in str(text).split(",") if part.strip()]
    unknown = [kind for kind in kinds if kind not in CONDITIONS]
    if not kinds or unknown:
        raise argparse.ArgumentTypeError(
            f"must be a comma-separated subset of {', '.join(CONDITIONS)}, not {text!r}")
    return tuple(dict.fromkeys(kinds))


def _choice(choices: tuple[str, ...]) -> Callable[[str], str]:
    def convert(text: str) -> str:
        value = str(text).strip()
        if value not in choices:
            raise argparse.ArgumentTypeError(f"must be one of {', '.join(choices)}, not {text!r}")
        return value

    convert.__name__ = "choice"
    return convert


@dataclass(frozen=True)
class Option:
    """One ``--alias-NAME`` option and its ``alias_NAME`` ini key."""

    name: str
    help: str
    default: Any = None
    convert: Callable[[str], Any] | None = None
    choices: tuple[str, ...] | None = None
    kind: str = "value"  # value | list (repeatable) | flag

    @property
    def dest(self) -> str:
        return "alias_" + self.name.replace("-", "_")

    @property
    def ini_type(self) -> Literal["linelist", "bool", "string"]:
        return "linelist" if self.kind == "list" else "bool" if self.kind == "flag" else "string"

    def argparse_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"dest": self.dest, "default": None, "help": self.help}
        if self.kind == "list":
            kwargs["action"] = "append"
        elif self.kind == "flag":
            kwargs["action"] = "store_const"
            kwargs["const"] = True
        elif self.choices:
            kwargs["choices"] = self.choices
        elif self.convert is not None:
            kwargs["type"] = self.convert
        return kwargs


OPTIONS: tuple[Option, ...] = (
    Option("model", "model to benchmark (repeatable): reference, replay:FILE.jsonl, smollm2, hf:PATH, opus "
           "(claude-opus-5-5, the newest Opus; the paper's Claude Opus 4.8 is claude:claude-opus-4-8), gpt-5, …",
           kind="list"),
    Option("grade", "grade to assert (default name)", "name", choices=GRADE_CHOICES),
    Option("suite", "task suite: builtin, a folder of tasks, examples:PATH, tlabench:PATH (default builtin)",
           "builtin"),
    Option("conditions", "comma-separated conditions: original, random, meaningful (default original,random)",
           ("original", "random"), _conditions),
    Option("samples", f"samples per task and condition (default 5, at most {MAX_SAMPLES})", 5,
           integer(1, MAX_SAMPLES)),
    Option("seed", "seed for renaming, sampling and bootstrap (default 0)", 0, integer(0, MAX_SEED)),
    Option("rename-seeds", "renamings per task: the random condition built with N seeds (the run's seed first, "
           "each verified by SANY/TLC); rates and decreases are averaged over them, with the spread and worst "
           f"case (default 1, the paper's single renaming; at most {MAX_RENAME_SEEDS})", 1,
           integer(1, MAX_RENAME_SEEDS)),
    Option("timeout", f"TLC time limit per run in seconds (default {TLC_TIMEOUT_S:g})", TLC_TIMEOUT_S, seconds),
    Option("mode", "behavior grade: paper (the paper's procedure) or extended (default paper)", "paper",
           choices=MODES),
    Option("name-rule", "name grade's cfg binding: paper (appendix H as written: INIT/NEXT/SPECIFICATION point at "
           "the output's Init/Next/Spec whenever it defines them; a missing INVARIANT/PROPERTY names the output's one "
           "other operator, whatever its level) or refined (that operator must fit the section's level, and a cfg's "
           "own INIT/NEXT/SPECIFICATION name the output defines is kept; a deviation every record and the summary "
           "header name) (default paper)", "paper", choices=NAME_RULES),
    Option("search-budget", "time budget in seconds of one behavior grade's whole mapping search (default: "
           f"{SEARCH_BUDGET_LIMITS} × the TLC limit, {SEARCH_BUDGET_LIMITS * TLC_TIMEOUT_S:,.0f} s at {TLC_TIMEOUT_S:g} s); a search it cuts off is the outcome "
           "'search budget spent', no verdict on the output and left out of the rates", None, seconds),
    Option("cache-dir", "folder for the run cache, condition cache and generation store"),
    Option("store", "generation store mode (default rw)", "rw", choices=STORE_MODES),
    Option("report", "write a report; format by suffix .json .csv .md .html (repeatable)", kind="list"),
    Option("gate", "fail the session unless EXPR holds, e.g. behavior.decrease.ci_low<=5 (repeatable)",
           kind="list"),
    Option("no-fail", "grade failures are xfail: only the gates decide the outcome", False, kind="flag"),
    Option("lora", "a PEFT LoRA adapter folder applied to hf: models"),
    Option("meaningful-maps", "JSON {task id: {old name: new name}} for the meaningful condition"),
    Option("resamples", f"bootstrap resamples for the summary CIs (default {BOOTSTRAP_RESAMPLES}, at most {MAX_RESAMPLES:,})",
           BOOTSTRAP_RESAMPLES, integer(100, MAX_RESAMPLES)),
    Option("prefill", "none (default, the paper's setting): the answer is the model's alone; header: local "
           "models' answers start with '---- MODULE <Name> ----' (in a renamed condition the renamed name), a "
           "deviation from the paper that every record and the summary header name (API models never get it)",
           "none", choices=PREFILL_CHOICES),
    Option("max-new-tokens", f"token budget per sample for local models (default: the model's own; at most "
           f"{MAX_NEW_TOKENS:,})", None, integer(1, MAX_NEW_TOKENS)),
    Option("covered", "restrict name and behavior rates and decreases also to the tasks the behavior grade "
           "covers (its reference passes against itself), and the exposure table's behavior rows to them: a "
           "tla-alias validate-grader --json file, or auto (appendix J's eligibility and the self-check)"),
    Option("save-outputs", "also write every generated output to this replay file (JSON lines): "
           "--alias-model=replay:FILE grades them again later without calling the model"),
    Option("dry-run", "collect and resolve the generation store, then print per model the requests still to send, "
           "their estimated tokens and cost (list price and batch discount) and exit 0 without sending anything or "
           "running an item", False, kind="flag"),
    Option("rename-map", "JSON {task id: {old name: new name}}: build the renamed condition from these published "
           "maps instead of names drawn with the seed; each map is checked and verified by SANY and TLC like a "
           "generated renaming, and a task whose map fails (or is absent) skips its renamed items with the reason"),
    Option("timeout-from-reference", "K: each task's TLC limit is K times its reference's own TLC check time (at "
           "least 10 s, at most --alias-timeout), not the paper's fixed limit; it can change verdicts, so every record "
           "and the summary header name it (default: off, the fixed limit)", None, positive_number),
    Option("exposure-split", "a split file (tla-alias split): the summary adds the exposure analysis (Table 2) "
           "of the models fine-tuned on its halves"),
)
OPTIONS_BY_NAME = {option.name: option for option in OPTIONS}


def add_command_option(parser: argparse.ArgumentParser, name: str) -> None:
    """Add the table's option ``name`` to a ``tla-alias`` command as ``--NAME`` (help, type, choices and
    default from the one table, so both doors default alike)."""
    option = OPTIONS_BY_NAME[name]
    kwargs = option.argparse_kwargs()
    kwargs.update(dest=name.replace("-", "_"), default=option.default)
    parser.add_argument(f"--{name}", **kwargs)


class OptionError(UsageProblem):
    """An option value that cannot be used (the message names the option and what is allowed)."""


def convert(option: Option, raw: Any, source: str) -> Any:
    """``raw`` (a string from the ini file, or an already converted command-line value) as the option's type."""
    if option.kind == "list":
        return tuple(str(item) for item in raw if str(item).strip())
    if option.kind == "flag":
        return bool(raw)
    converter = _choice(option.choices) if option.choices else option.convert
    if converter is None or not isinstance(raw, str):
        return raw
    try:
        return converter(raw)
    except argparse.ArgumentTypeError as exc:
        where = f"--alias-{option.name}" if source == "cli" else f"ini option {option.dest}"
        raise OptionError(f"{where} {exc}") from None


def defaults() -> dict[str, Any]:
    """Every option's default value, keyed as ``resolve`` keys them (for callers outside pytest)."""
    return {option.name.replace("-", "_"): option.default for option in OPTIONS}


def resolve(getoption: Callable[[str], Any], getini: Callable[[str], Any]) -> dict[str, Any]:
    """Every option's value, keyed by its name with underscores: command line, else ini, else default."""
    values: dict[str, Any] = {}
    for option in OPTIONS:
        raw = getoption(option.dest)
        source = "cli"
        if raw is None:
            ini = getini(option.dest)
            if ini not in (None, [], ""):
                raw, source = ini, "ini"
        if raw is None:
            values[option.name.replace("-", "_")] = option.default
            continue
        values[option.name.replace("-", "_")] = convert(option, raw, source)
    return values
