"""One error hierarchy for every part of ALIAS (standard library only: the bottom layer).

The two doors map it to exit codes: a :class:`UsageProblem` is exit 4 in pytest and 2 on the
command line, a :class:`RunStopped` ends the run with one message, a :class:`ToolFault` is the
grader's (never the output's) and a :class:`BadInput` becomes a failing verdict with its reason.
Domain code never names a command-line flag: it names the option (``option="covered"``) and the
door that reports the error spells the flag its own way.
"""

from __future__ import annotations

import re

#: ``{flag}`` or ``{flag:name}`` in a usage message: an option, spelled by the door that prints it.
_FLAG = re.compile(r"\{flag(?::([a-z0-9-]+))?\}")


class AliasError(Exception):
    """Base of every error ALIAS raises on purpose."""


class UsageProblem(AliasError, ValueError):
    """What the user asked for cannot be done (an option, a file, a model spec, a suite).

    The message may name options as ``{flag}`` (the option the error is about) or ``{flag:name}``
    (another option); each door spells them as its own flags (:meth:`for_flag`), and ``str()``
    spells them as plain option names.
    """

    def __init__(self, message: str, *, option: str | None = None) -> None:
        self.template = message
        self.option = option
        super().__init__(self._spelled(""))

    def _spelled(self, prefix: str) -> str:
        return _FLAG.sub(lambda m: prefix + (m.group(1) or self.option or "option"), self.template)

    def for_flag(self, prefix: str) -> str:
        """The message with options spelled as flags of one door (``--alias-`` or ``--``)."""
        if self.option and "{flag" not in self.template:
            return f"{prefix}{self.option}: {self._spelled(prefix)}"
        return self._spelled(prefix)


class UnreadableInput(UsageProblem):
    """A file the user named cannot be read. ``side`` says whose it is (``reference``: a module or cfg
    of the task; ``grader``: the output file, which no model answer can be blamed for) and ``stage``
    where reading stopped, so a door reports both without reading the message."""

    def __init__(self, message: str, *, side: str, stage: str, option: str | None = None) -> None:
        super().__init__(message, option=option)
        self.side = side
        self.stage = stage


class MissingExtra(UsageProblem, ImportError):
    """An optional dependency is not installed; the message names the extra that brings it."""


class RunStopped(AliasError, RuntimeError):
    """The run cannot go on (a replay for other conditions, an unreachable provider, a store miss)."""


class ToolFault(AliasError, RuntimeError):
    """Java, SANY/TLC or the tool server could not do the work: the grader's fault, never the output's."""


class BadInput(AliasError, ValueError):
    """A text (module, cfg, TLC value) that cannot be read: a failing verdict with its reason."""


def usage_message(exc: BaseException, prefix: str) -> str:
    """One line for a usage error at a door: flag-qualified when the error names its option."""
    return exc.for_flag(prefix) if isinstance(exc, UsageProblem) else str(exc)
