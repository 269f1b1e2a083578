"""A one-line progress bar on stderr: games done, rate, time left.

Drawn only on a terminal and at most a few times a second, so it costs nothing next to the
games. Elsewhere (a log file, CI, a pipe) a slow run writes the same line as a plain line
every ``LOG_EVERY`` seconds instead: no carriage returns, and a run of minutes is not silent.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


def _clock(seconds: float) -> str:
    s = int(round(seconds))
    h, rem = divmod(s, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def _left(seconds: float | None) -> str:
    """Time left in the words a slow run needs ("about 4 min left"), m:ss under two minutes."""
    if seconds is None:
        return "? left"
    if seconds >= 120:
        return f"about {round(seconds / 60):,} min left"
    return f"{_clock(seconds)} left"


LOG_EVERY = 30.0  # seconds between plain progress lines off a terminal


class Progress:
    """Counts games; ``done`` starts at the games a resumed run already had. ``enabled``
    None: the bar on a terminal, plain lines every ``log_every`` seconds elsewhere."""

    def __init__(self, total: int, done: int = 0, enabled: bool | None = None,
                 stream: TextIO | None = None, interval: float = 0.2,
                 estimate: float | None = None, log_every: float = LOG_EVERY):
        self.stream = stream or sys.stderr
        self.log_every: float | None = None
        if enabled is None:
            enabled = bool(getattr(self.stream, "isatty", lambda: False)())
            self.log_every = None if enabled else log_every
        self.enabled = enabled
        self.total = total
        self.done = done
        self.first = done
        self.start = time.monotonic()
        self.interval = interval
        self._last = 0.0
        self._width = 0
        self.estimate: float | None = None
        if estimate is not None:
            self.set_estimate(estimate)

    def set_estimate(self, seconds: float) -> None:
        """The time the run takes by the pilot, shown until the first games are back."""
        self.estimate = seconds
        if self.enabled:
            self._draw(time.monotonic())

    def update(self, games: int) -> None:
        self.done += games
        now = time.monotonic()
        if self.enabled and (now - self._last >= self.interval or self.done >= self.total):
            self._last = now
            self._draw(now)
        elif self.log_every is not None and now - max(self._last, self.start) >= self.log_every:
            self._last = now
            self.stream.write(self.line(now) + "\n")
            self.stream.flush()

    def line(self, now: float | None = None) -> str:
        now = time.monotonic() if now is None else now
        elapsed = max(now - self.start, 1e-9)
        rate = (self.done - self.first) / elapsed
        frac = self.done / self.total if self.total else 1.0
        bar = "#" * int(frac * 24)
        if rate > 0:
            left: float | None = (self.total - self.done) / rate
        elif self.estimate is not None:
            left = max(self.estimate - elapsed, 0.0)
        else:
            left = None
        speed = f"{rate:,.0f} games/s" if rate >= 1 or rate == 0 else f"{60 * rate:,.1f} games/min"
        return (f"[{bar:<24}] {self.done:,}/{self.total:,} games  {speed}  "
                f"{_clock(elapsed)} elapsed, {_left(left)}")

    def _draw(self, now: float) -> None:
        text = self.line(now)
        pad = " " * max(0, self._width - len(text))
        self._width = len(text)
        self.stream.write("\r" + text + pad)
        self.stream.flush()

    def close(self) -> None:
        if self.enabled and self._width:
            self._draw(time.monotonic())
            self.stream.write("\n")
            self.stream.flush()
