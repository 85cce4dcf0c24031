"""What the plugin's roles share: the keys of what they keep on pytest's config, and small helpers.

Standard library and pytest only: the plugin loads this module in every pytest run.
"""

from __future__ import annotations

import contextlib
import json
import sys
from typing import Any, Iterator, Mapping

import pytest

from ..errors import AliasError
from .transport import RECORD_PROPERTY

FLAG_PREFIX = "--alias-"
WORKSPACE_KEY = pytest.StashKey[Any]()
SESSION_KEY = pytest.StashKey[Any]()
GENERATIONS_KEY = pytest.StashKey[dict]()


def alias_case_of(item: pytest.Item) -> Any:
    """The case an item grades, or None for any other item."""
    callspec = getattr(item, "callspec", None)
    return callspec.params.get("alias_case") if callspec is not None else None


@contextlib.contextmanager
def uncaptured(config: pytest.Config) -> Iterator[None]:
    """Let a progress line reach the terminal even while pytest captures output."""
    capman = config.pluginmanager.getplugin("capturemanager")
    with capman.global_and_fixture_disabled() if capman is not None else contextlib.nullcontext():
        yield


#: Errors that stop the whole run with one message while it prepares and generates: the project's own
#: (a usage problem, a replay for other conditions, a store miss, an unreachable provider) and the
#: machine's (a file that cannot be written). Anything else is a bug and shows as one.
RUN_STOPPERS: tuple[type[BaseException], ...] = (AliasError, OSError)


def live_progress(config: pytest.Config) -> bool:
    """A live progress line on an interactive terminal; plain lines under ``-q`` or without a TTY."""
    return config.get_verbosity() >= 0 and sys.stderr.isatty()


def record_item(item: pytest.Item, record: Mapping[str, Any]) -> None:
    """Attach the record to the test report (it reaches the xdist controller with it)."""
    item.user_properties.append((RECORD_PROPERTY, json.dumps(record)))
