"""Keep native libraries' chatter off a stream that carries a machine-readable document.

Compiled libraries (HiGHS prints a banner when a solver object is made) write to file
descriptor 1 through C stdio, past anything Python does to ``sys.stdout``. These helpers move
descriptor 1 itself, and flush C's buffers before moving it back, so buffered bytes land where
they were written.
"""

from __future__ import annotations

import contextlib
import ctypes
import io
import os
import sys

_libc = ctypes.CDLL(None)


def _flush_all() -> None:
    with contextlib.suppress(Exception):
        sys.stdout.flush()
    _libc.fflush(None)


@contextlib.contextmanager
def stdout_to_stderr():
    """Within the block, whatever anyone writes to descriptor 1 goes to descriptor 2."""
    _flush_all()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
        yield
    finally:
        _flush_all()
        os.dup2(saved, 1)
        os.close(saved)


@contextlib.contextmanager
def document_stdout():
    """Within the block, ``sys.stdout`` is the only writer of the real standard output.

    Descriptor 1 points at standard error (native libraries, child processes), while
    ``sys.stdout`` writes to a private copy of the original descriptor: only what Python code
    prints deliberately, the JSON document, reaches a reader of standard output.
    """
    _flush_all()
    real = os.dup(1)
    previous = sys.stdout
    document = io.TextIOWrapper(os.fdopen(real, "wb", closefd=True), encoding="utf-8",
                                line_buffering=False)
    try:
        os.dup2(2, 1)
        sys.stdout = document
        yield
    finally:
        with contextlib.suppress(Exception):
            document.flush()
        _flush_all()
        sys.stdout = previous
        os.dup2(document.fileno(), 1)
        with contextlib.suppress(Exception):
            document.close()
