"""Reading the files users hand to optiq (request files, plan files) as UTF-8 text.

Files are read as bytes and decoded here, so that a file in another encoding ends in one
clear error naming the file and the first bad byte, instead of failing inside the core's
parser or in the conversion of its error message. A UTF-8 byte-order mark (what some
editors put first) is dropped; UTF-16 and UTF-32 files are recognised by theirs and refused.
"""

from __future__ import annotations

import codecs

from . import _core

UTF8_BOM = codecs.BOM_UTF8
_OTHER_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32"), (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"), (codecs.BOM_UTF16_BE, "UTF-16"),
)


def decode_text(data: bytes, origin: str) -> str:
    """The UTF-8 text of a file's bytes, without a leading byte-order mark.

    Parameters
    ----------
    data : bytes
        The file's content.
    origin : str
        The file's name, for error messages.

    Returns
    -------
    str

    Raises
    ------
    optiq.Error
        If the bytes are UTF-16/UTF-32 (by their byte-order mark) or not valid UTF-8.

    Examples
    --------
    >>> decode_text(b"\\xef\\xbb\\xbf0 1 8MiB\\n", "jobs.txt")
    '0 1 8MiB\\n'
    """
    if data.startswith(UTF8_BOM):
        data = data[len(UTF8_BOM):]
    else:
        for bom, name in _OTHER_BOMS:
            if data.startswith(bom):
                raise _core.Error(f"{origin}: the file is {name} text (byte-order mark); save it as UTF-8")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise _core.Error(f"{origin}:{line}: not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start})") from None


def read_text(path: str) -> str:
    """The UTF-8 text of the file at ``path`` (see :func:`decode_text`); OSError if unreadable."""
    with open(path, "rb") as f:
        return decode_text(f.read(), path)


def read_requests(path: str, num_nodes: int) -> list:
    """Jobs of a request file: one ``src dst bytes`` line each, ``#`` comments."""
    return _core.parse_requests(read_text(path), num_nodes, path)


def read_plan(path: str):
    """The plan in a plan file, checked as ``optiq.load_plan`` checks it."""
    return _core.plan_from_json(read_text(path), path)
