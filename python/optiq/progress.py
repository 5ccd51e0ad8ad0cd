"""Progress lines on stderr for long work.

A terminal gets one line rewritten in place; a pipe or log file gets a line at every
quarter, and only once the work has run for a couple of seconds, so short runs stay quiet.
"""

from __future__ import annotations

import sys
import time


class Progress:
    """Callable ``progress(stage, done, total)`` handed to the core's long loops."""

    def __init__(self, stream=None, quiet: bool = False, delay: float = 2.0):
        self.stream = stream if stream is not None else sys.stderr
        self.quiet = quiet
        self.delay = delay
        self.start = time.monotonic()
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self._last_quarter: dict[str, int] = {}
        self._open_line = False

    def __call__(self, stage: str, done: int, total: int) -> None:
        if self.quiet or total <= 0:
            return
        elapsed = time.monotonic() - self.start
        pct = 100.0 * done / total
        if stage.endswith(" bytes"):  # counts of bytes read better in MB
            stage = stage[: -len(" bytes")]
            amount = f"{done / 1e6:.0f}/{total / 1e6:.0f} MB"
        else:
            amount = f"{done}/{total}"
        if self.tty:
            self.stream.write(f"\roptiq: {stage} {amount} ({pct:5.1f}%) {elapsed:6.1f}s")
            self._open_line = done < total
            if not self._open_line:
                self.stream.write("\n")
            self.stream.flush()
            return
        quarter = int(4 * done // total)
        if elapsed >= self.delay and quarter > self._last_quarter.get(stage, 0):
            self._last_quarter[stage] = quarter
            self.stream.write(f"optiq: {stage} {amount} ({pct:.0f}%) after {elapsed:.1f}s\n")
            self.stream.flush()

    def note(self, text: str) -> None:
        """A one-off status line (e.g. which planner is running) once the run is long."""
        if self.quiet:
            return
        if self.tty or time.monotonic() - self.start >= self.delay:
            if self._open_line:
                self.stream.write("\n")
                self._open_line = False
            self.stream.write(f"optiq: {text}\n")
            self.stream.flush()
