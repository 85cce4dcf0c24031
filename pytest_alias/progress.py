"""Progress of long work (preparing conditions, generating samples) on the terminal.

On a terminal a live tqdm line shows done/total, the rate, elapsed time, ETA and what the caller
adds (tokens/s, batch state, cost so far). In a non-interactive or ``-q`` run the live line is
replaced by one plain line per ``step`` fraction of the work, so CI logs stay short.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any, TextIO


def _interval(seconds: float) -> str:
    seconds = int(max(seconds, 0))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


def _terminal_sized(stream: TextIO) -> bool:
    """Whether ``stream`` is a terminal that reports its size (tqdm draws nothing on a 0×0 one)."""
    try:
        size = os.get_terminal_size(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return False
    return size.columns > 0 and size.lines > 0


class Progress:
    """A live progress line (``live``) or a line per ``step`` of the total (otherwise)."""

    def __init__(self, description: str, total: int, *, unit: str = "sample", live: bool = True,
                 step: float = 0.1, stream: TextIO | None = None) -> None:
        self.description = description
        self.total = max(total, 0)
        self.unit = unit
        self.done = 0
        self.fields: dict[str, str] = {}
        self.stream = stream if stream is not None else sys.stderr
        self.started = time.monotonic()
        self.step = max(int(self.total * step), 1)
        self.next_line = self.step
        self.bar: Any = None
        if live and self.total:
            from tqdm import tqdm  # heavy (~80 ms): only a live bar needs it

            # A terminal that reports no width (a bare pseudo-terminal) would get an empty bar.
            sized = _terminal_sized(self.stream)
            self.bar = tqdm(total=self.total, desc=description, unit=unit, file=self.stream, dynamic_ncols=sized,
                            ncols=None if sized else 100, nrows=None if sized else 24, mininterval=0.2, leave=True)

    def update(self, count: int = 0, **fields: Any) -> None:
        """Add ``count`` finished units and set the extra fields shown after the counts."""
        self.done = min(self.done + count, self.total)
        self.fields.update({name: str(value) for name, value in fields.items() if value is not None})
        if self.bar is not None:
            self.bar.set_postfix_str(", ".join(f"{k} {v}" for k, v in self.fields.items()), refresh=False)
            self.bar.update(count)
        elif self.total and (self.done >= self.next_line or (count and self.done == self.total)):
            while self.next_line <= self.done:
                self.next_line += self.step
            self.stream.write(self.line() + "\n")
            self.stream.flush()

    def status(self, **fields: Any) -> None:
        """Change the extra fields without finishing any unit (e.g. an API batch's state)."""
        self.update(0, **fields)
        if self.bar is not None:
            self.bar.refresh()

    def line(self) -> str:
        """The plain one-line form: ``alias: generating 12/36 samples (33%), 52 tokens/s, 01:10, ETA 02:20``."""
        elapsed = time.monotonic() - self.started
        eta = elapsed / self.done * (self.total - self.done) if self.done else None
        parts = [f"alias: {self.description} {self.done}/{self.total} {self.unit}s "
                 f"({100 * self.done // max(self.total, 1)}%)", *(f"{k} {v}" for k, v in self.fields.items()),
                 f"elapsed {_interval(elapsed)}"]
        if eta is not None and self.done < self.total:
            parts.append(f"ETA {_interval(eta)}")
        return ", ".join(parts)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
