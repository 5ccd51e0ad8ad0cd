"""Why a launched program (mpirun, smpirun and what they run) failed, in one line."""

from __future__ import annotations

import re

_CRITICAL = re.compile(r"\[[\w/.-]*CRITICAL\]\s*(.*)")
_FRAME = re.compile(r"(->|\d+#|Backtrace|\*\*\* )")


def failure_summary(stderr: str) -> str:
    """Why a launched program failed, in one line, from its standard error.

    SimGrid states a fatal problem on a ``[...CRITICAL]`` line and then prints a backtrace;
    the statement is the reason, the backtrace is not. Otherwise the last lines that are not
    backtrace frames are.
    """
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for line in lines:
        critical = _CRITICAL.search(line)
        if critical:
            return f"SimGrid: {critical.group(1)}"
    useful = [line for line in lines if not _FRAME.match(line)]
    return " | ".join(useful[-3:]) or "no output"
