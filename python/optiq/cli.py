"""The ``optiq`` command line. Subcommands live in ``optiq.commands``, one module each."""

from __future__ import annotations

import argparse
import os
import sys

from . import _core
from .argtypes import shown
from .failure import stop_on_terminate
from .quiet import document_stdout
from .commands import COMMANDS


def one_line(text: str) -> str:
    """``text`` fit for a single error line: line breaks and other control characters escaped."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text).strip())


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line and exit status 2, like every other input error."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {one_line(message)}\n")


def _check_text(parser: argparse.ArgumentParser, args) -> None:
    """Every text value must be valid Unicode: the core and launched programs take UTF-8.

    Bytes that are not UTF-8 reach Python as lone surrogates; they would fail deep inside
    a conversion to C++ instead of here, naming the option.
    """
    command = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[args.command]
    names = {a.dest: (a.option_strings or [a.metavar or a.dest])[-1] for a in command._actions}
    for dest, value in vars(args).items():
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise _core.Error(f"argument {names.get(dest, dest)}: not valid UTF-8 text: {shown(value)}") from None


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="optiq",
        description="Plan, move and simulate multi-path bulk data movement on supercomputer interconnects: "
                    "tori, fat-trees, dragonflies and graph files.",
        epilog="run 'optiq COMMAND --help' for the options and examples of each command; "
               "'optiq demo' reproduces the thesis' 1024-node comparison.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for command in COMMANDS:
        command.register(sub)
    for p in sub.choices.values():
        p.formatter_class = argparse.RawDescriptionHelpFormatter
    return parser


def _fail(args, message) -> int:
    sys.stderr.write(f"optiq {args.command}: error: {one_line(message)}\n")
    return 2


def main(argv: list[str] | None = None) -> int:
    stop_on_terminate()
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        _check_text(parser, args)
        if getattr(args, "json", False):
            with document_stdout():
                return args.func(args)
        return args.func(args)
    except _core.Error as e:
        return _fail(args, e)
    except BrokenPipeError:  # e.g. piped into head: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as e:
        return _fail(args, f"{e.strerror or e}: {e.filename or ''}")
    except KeyboardInterrupt:
        sys.stderr.write("optiq: interrupted\n")
        return 130
    except Exception as e:  # noqa: BLE001 - a defect must still end as one line, not a traceback
        return _fail(args, f"internal error ({type(e).__name__}): {e}")


if __name__ == "__main__":
    sys.exit(main())
