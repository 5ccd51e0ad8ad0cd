"""The ``optiq`` command line. Subcommands live in ``optiq.commands``, one module each."""

from __future__ import annotations

import argparse
import os
import sys

from . import _core
from .quiet import document_stdout
from .commands import COMMANDS


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line and exit status 2, like every other input error."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="optiq",
        description="Plan and evaluate multi-path bulk data movement on torus interconnects.",
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


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if getattr(args, "json", False):
            with document_stdout():
                return args.func(args)
        return args.func(args)
    except _core.Error as e:
        sys.stderr.write(f"optiq {args.command}: error: {e}\n")
        return 2
    except BrokenPipeError:  # e.g. piped into head: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as e:
        sys.stderr.write(f"optiq {args.command}: error: {e.strerror or e}: {e.filename or ''}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("optiq: interrupted\n")
        return 130


if __name__ == "__main__":
    sys.exit(main())
