"""HiGHS solver objects without HiGHS's licence banner.

highspy >= 1.16 prints a two-line banner through C stdio the first time a solver is built.
On standard output it would corrupt a JSON document; on standard error it would turn an
error report into three lines. Nobody asked for it: while a solver is built, descriptors 1
and 2 point at the null device, and C's buffers are flushed on both sides of the switch so
that nothing written before or after lands in the wrong place.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys

import highspy

_libc = ctypes.CDLL(None)


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    _libc.fflush(None)


@contextlib.contextmanager
def _silenced():
    _flush()
    saved = [os.dup(1), os.dup(2)]
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
        os.dup2(null, 2)
        yield
    finally:
        _flush()
        for fd, copy in zip((1, 2), saved):
            os.dup2(copy, fd)
            os.close(copy)
        os.close(null)


def new_solver() -> highspy.Highs:
    """A HiGHS solver that prints nothing (banner discarded, ``output_flag`` off)."""
    with _silenced():
        h = highspy.Highs()
        h.setOptionValue("output_flag", False)
    return h
