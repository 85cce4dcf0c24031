"""What travels between the pytest controller and its xdist workers, carried by xdist itself.

A worker needs only the installed package and its own cache: the controller sends each worker the
run's generated texts as one command over the worker's own xdist channel (execnet), right after
that worker reports its collection and before the scheduler sends it a test. Commands on one
channel arrive in order, so the texts are in place before the first test index; workers on other
machines (``--tx ssh=…``) get them the same way. Records travel back on the test reports (a user
property); the references' self-checks a worker made travel back in its ``workeroutput`` when it
finishes. Standard library only at import: the plugin loads this
module in every pytest run.
"""

from __future__ import annotations

import json
from typing import Any, Callable

#: The user property that carries a record from an item's report to the controller.
RECORD_PROPERTY = "alias_record"
#: The command name the controller sends; xdist's worker loop ignores names it does not know, and
#: the receiver below takes this one before xdist sees it.
PAYLOAD_COMMAND = "alias_payload"


#: The ``workerinput`` key under which a worker receives the controller's prepared conditions.
PREPARED_INPUT = "alias_prepared"
#: The ``workerinput`` key of the run's identity (a self-check failure the machine may have caused is
#: shared between the run's processes under it).
RUN_INPUT = "alias_run"
#: The ``workeroutput`` key under which a worker returns the references' self-checks it made.
COVERAGE_OUTPUT = "alias_coverage"


def encode_prepared(prepared: list[tuple[Any, Any]]) -> bytes:
    """The prepared conditions (tasks and their conditions) for a worker's ``workerinput``: pickled,
    since tasks and conditions are plain frozen dataclasses and controller and worker run the same
    installed package (execnet carries bytes)."""
    import pickle  # start-up: the plugin loads this module in every pytest run

    return pickle.dumps(prepared, protocol=pickle.HIGHEST_PROTOCOL)


def decode_prepared(data: bytes) -> list[tuple[Any, Any]]:
    import pickle  # start-up: the plugin loads this module in every pytest run

    return pickle.loads(data)  # noqa: S301 - bytes from this run's own controller


def encode_payload(generations: dict[tuple[str, str, int, str], Any], *, yield_cpu: bool = False) -> str:
    """The generations as one JSON text (execnet carries strings of any size); ``yield_cpu``: the
    controller is making costly self-checks, which the workers let go first (see :mod:`.worker`)."""
    return json.dumps({
        "generations": [{"key": list(key), "generation": generation.to_dict(), "from_store": generation.from_store}
                        for key, generation in generations.items()],
        "yield_cpu": yield_cpu,
    })


def decode_payload(text: str) -> tuple[dict[tuple[str, str, int, str], Any], bool]:
    """The generations and the ``yield_cpu`` flag from :func:`encode_payload`'s text."""
    from ..models.base import Generation  # start-up: the plugin loads this module in every pytest run

    data = json.loads(text)
    generations = {(str(e["key"][0]), str(e["key"][1]), int(e["key"][2]), str(e["key"][3])):
                   Generation.from_dict(e["generation"], from_store=bool(e.get("from_store")))
                   for e in data["generations"]}
    return generations, bool(data.get("yield_cpu"))


def encode_coverage(coverage: Any) -> str:
    """A worker's self-checks (with the seconds each took) as JSON text for its ``workeroutput``."""
    return json.dumps({**coverage.to_dict(), "seconds": dict(coverage.seconds)})


def decode_coverage(text: str) -> Any:
    """The :class:`~pytest_alias.run.coverage.Coverage` of :func:`encode_coverage`'s text."""
    from ..run.coverage import Coverage  # start-up: the plugin loads this module in every pytest run

    return Coverage.from_dict(json.loads(text))


def send_payload(node: Any, text: str) -> None:
    """Send the payload to one xdist worker (a ``WorkerController``) over its channel."""
    node.sendcommand(PAYLOAD_COMMAND, payload=text)


def install_receiver(plugins: list[Any], receive: Callable[[str], None]) -> bool:
    """In a worker: let the xdist worker loop hand :data:`PAYLOAD_COMMAND` to ``receive`` (and every
    other command to xdist). Must run before the loop starts (it reads ``handle_command`` once).
    Returns False when no xdist worker loop is found (then the worker falls back to the store)."""
    interactor = next((p for p in plugins if type(p).__name__ == "WorkerInteractor"
                       and callable(getattr(p, "handle_command", None))), None)
    if interactor is None:
        return False
    original = interactor.handle_command

    def handle_command(command: Any) -> None:
        if isinstance(command, tuple) and len(command) == 2 and command[0] == PAYLOAD_COMMAND:
            receive(command[1]["payload"])
            return
        original(command)

    interactor.handle_command = handle_command
    return True
