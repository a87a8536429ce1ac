"""Progress of long work: a redrawn bar on a terminal, plain periodic lines in pipes and logs.

Examples
--------
>>> import io
>>> log = io.StringIO()
>>> bar = Progress("sweep", stream=log, unit="chains", interval=0)
>>> for done in range(1, 4):
...     bar.update(done, 3)
>>> bar.close()
>>> "\\r" in log.getvalue(), log.getvalue().splitlines()[-1].startswith("sweep: 3/3 chains")
(False, True)
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["Progress"]


class Progress:
    """Report ``done/total``: on a terminal a ``\\r``-redrawn bar, elsewhere one plain line at most
    every ``interval`` seconds (and at the end), so logs stay readable.

    Parameters
    ----------
    label : str
        What is progressing (``"projected SA"``, ``"sweep"``).
    stream : file-like, optional
        Where to write (default: standard error).
    enabled : bool
        ``False`` writes nothing.
    unit : str
        The name of what is counted.
    interval : float
        Seconds between plain lines when the stream is not a terminal.
    """

    def __init__(self, label: str, *, stream: TextIO | None = None, enabled: bool = True, unit: str = "",
                 interval: float = 10.0) -> None:
        self.label, self.unit, self.interval = label, unit, interval
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.t0 = time.perf_counter()
        self.last_line = -float("inf")
        self.drawn = False
        self.finished = False

    def update(self, done: int, total: int) -> None:
        """Record that ``done`` of ``total`` are finished."""
        if not self.enabled or self.finished:
            return
        elapsed = time.perf_counter() - self.t0
        rate = done / elapsed if elapsed > 0 else 0.0
        unit = f" {self.unit}" if self.unit else ""
        if self.tty:
            width = 30
            fill = int(width * done / total) if total else width
            self.stream.write(f"\r{self.label} [{'#' * fill}{'-' * (width - fill)}] {done}/{total}{unit}  {rate:.1f}/s ")
            self.drawn = True
            if done >= total:
                self.stream.write("\n")
                self.finished = True
        elif done >= total or elapsed - self.last_line >= self.interval:
            self.stream.write(f"{self.label}: {done}/{total}{unit} ({elapsed:.1f} s, {rate:.1f}/s)\n")
            self.last_line = elapsed
            self.finished = done >= total
        self.stream.flush()

    def close(self) -> None:
        """End a bar left unfinished (so the next output starts on a fresh line)."""
        if self.enabled and self.tty and self.drawn and not self.finished:
            self.stream.write("\n")
            self.stream.flush()
        self.finished = True
