"""Types of command-line values: every number and size is checked where it is parsed.

A bad value then ends as one usage line that names its option (argparse prefixes
``argument --OPTION:``), before anything is planned or launched. Numbers are plain ASCII
decimals: no ``nan``, ``inf``, digit separators or digits of other scripts, and every range is
closed, so no value reaches the compiled core or a launched program that it cannot hold.
"""

from __future__ import annotations

import argparse
import math
import re

from . import _core

_INTEGER = re.compile(r"[+-]?[0-9]+", re.ASCII)
_REAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?", re.ASCII)

# Bandwidths (bytes/s) a link or a relaying node may have: below one byte per second the
# predictions of large patterns overflow; far above a petabyte per second they print as zero
# seconds and SimGrid's arithmetic breaks (an infinite bandwidth aborts it).
BANDWIDTH = (1.0, 1e15)
LATENCY = (0.0, 1.0)          # seconds per link
TIMEOUT = (0.0, 1e6)          # seconds; beyond, the operating system's timers overflow
SEED_MAX = 2**64 - 1          # the planning core's seeds are 64-bit
DRIVER_SEED_MAX = 10**9       # the MPI drivers take seeds up to 1e9
HOT_FACTOR_MAX = 1e6          # moe: a hot destination's weight; beyond, its jobs dwarf all others


def shown(text: str, limit: int = 40) -> str:
    """``text`` quoted for an error line: control characters escaped, long values cut."""
    return repr(text[:limit]) + ("..." if len(text) > limit else "")


def integer(low: int, high: int, sentinel: int | None = None):
    """An argparse type for whole numbers in ``[low, high]``, or exactly ``sentinel``.

    Parameters
    ----------
    low, high : int
        The accepted range, both ends included.
    sentinel : int, optional
        One more accepted value, documented by the option as "use the default" (e.g. -1).

    Returns
    -------
    callable
        ``parse(text) -> int``, raising ``argparse.ArgumentTypeError`` with the rule broken.

    Examples
    --------
    >>> integer(1, 10)("7")
    7
    >>> integer(1, 10, sentinel=-1)("-1")
    -1
    """
    def parse(text: str) -> int:
        if not _INTEGER.fullmatch(text):
            raise argparse.ArgumentTypeError(f"not a whole number: {shown(text)}")
        value = int(text)
        if value == sentinel:
            return value
        if not low <= value <= high:
            extra = f" (or {sentinel} for the default)" if sentinel is not None else ""
            raise argparse.ArgumentTypeError(f"must be between {low} and {high}{extra}, got {shown(text)}")
        return value
    return parse


def real(low: float, high: float, low_open: bool = False, high_open: bool = False):
    """An argparse type for finite decimal numbers in a range.

    Parameters
    ----------
    low, high : float
        Ends of the accepted range.
    low_open, high_open : bool
        Whether an end itself is excluded.

    Returns
    -------
    callable
        ``parse(text) -> float``, raising ``argparse.ArgumentTypeError`` for words such as
        ``nan`` or ``inf``, numbers too large for a float and values outside the range.

    Examples
    --------
    >>> real(0, 1, low_open=True)("0.5")
    0.5
    """
    left, right = "(" if low_open else "[", ")" if high_open else "]"

    def parse(text: str) -> float:
        if not _REAL.fullmatch(text):
            raise argparse.ArgumentTypeError(f"not a finite decimal number: {shown(text)}")
        value = float(text)
        inside = (low < value if low_open else low <= value) and (value < high if high_open else value <= high)
        if not math.isfinite(value) or not inside:
            raise argparse.ArgumentTypeError(f"must be in {left}{low:g}, {high:g}{right}, got {shown(text)}")
        return value
    return parse


def bandwidth(text: str) -> float:
    """Bytes per second of a link or a relaying node (see ``BANDWIDTH``)."""
    return real(*BANDWIDTH)(text)


def bandwidth_or_inf(text: str) -> float:
    """A bandwidth, or ``inf`` for a cost that is not charged at all.

    >>> bandwidth_or_inf("inf")
    inf
    """
    return math.inf if text.strip().lower() == "inf" else bandwidth(text)


def latency(text: str) -> float:
    """Seconds per link, from zero to one second."""
    return real(*LATENCY)(text)


def timeout(text: str) -> float:
    """Seconds to wait for a launched program, positive and finite."""
    return real(*TIMEOUT, low_open=True)(text)


def hot_factor(text: str) -> float:
    """moe's weight of a hot destination: positive, finite, at most ``HOT_FACTOR_MAX``.

    >>> hot_factor("2.5")
    2.5
    """
    return real(0.0, HOT_FACTOR_MAX, low_open=True)(text)


def byte_size(text: str) -> str:
    """A byte count such as ``64KiB`` or ``0``; kept as text, checked by the core's parser."""
    if not text:
        raise argparse.ArgumentTypeError("empty size (expected e.g. 8MiB, 64KiB, 1000000)")
    try:
        _core.parse_bytes(text)
    except _core.Error as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


def size_spec(text: str) -> str:
    """Per-job sizes: a byte count, ``uniform:LO:HI`` or ``pareto:ALPHA:MIN[:MAX]``."""
    if not text:
        raise argparse.ArgumentTypeError("empty size (expected e.g. 8MiB, uniform:LO:HI, pareto:ALPHA:MIN[:MAX])")
    try:
        _core.assign_sizes([], text)
    except _core.Error as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text
