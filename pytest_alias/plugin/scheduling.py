"""Longest-first scheduling under pytest-xdist (``-n``): items of slow tasks go out first.

xdist's ``load`` distribution hands items out in collection order, in chunks of a quarter of each
worker's share, so a run of the paper's shape can end with one worker grading a slow task's last
outputs while the others idle. Here the pending items are kept ordered by their expected cost
(:mod:`pytest_alias.run.costs`, known before the first item is sent, and asked again at each send:
the look ahead at outputs raises it, see :mod:`pytest_alias.run.probe`, and an item whose self-check
is still to come waits, see ``AliasController.item_cost``), most expensive first (ties keep
collection order), and handed out a few at a time (``--maxschedchunk`` 1 unless given: xdist then
keeps two items per worker), so no worker holds a queue of long poles while another idles. Only the
order of work changes, never what an item does. Imported only when xdist builds its scheduler.
"""

from __future__ import annotations

from typing import Any, Callable

from xdist.scheduler import LoadScheduling


def longest_first_scheduler(config: Any, log: Any, cost: Callable[[str], float],
                            on_sent: Callable[[str], None] | None = None) -> Any:
    """An xdist ``LoadScheduling`` that sends the costliest pending items first (``cost``: node id →
    seconds, asked again at each send, so an estimate raised meanwhile counts; ``on_sent`` hears each
    node id as it goes out); None when this xdist lacks the method it builds on (xdist then uses its own)."""
    if not hasattr(LoadScheduling, "_send_tests"):
        return None

    class LongestFirst(LoadScheduling):  # type: ignore[misc, valid-type]
        def _send_tests(self, node: Any, num: int) -> None:
            if self.collection is not None:
                collection = self.collection
                self.pending.sort(key=lambda index: -cost(collection[index]))  # stable: ties keep their order
                if on_sent is not None:
                    for index in self.pending[:num]:  # what LoadScheduling sends now
                        on_sent(collection[index])
            super()._send_tests(node, num)

    scheduler = LongestFirst(config, log)
    if getattr(scheduler, "maxschedchunk", 0) is None:  # not given: small chunks keep the order global
        scheduler.maxschedchunk = 1
    return scheduler
