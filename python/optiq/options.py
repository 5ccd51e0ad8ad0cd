"""Options from the core's records: argparse arguments, values and the tools' command lines.

Every option of optiq is declared once, in C++ (``include/optiq/core/options.hpp``): its name, kind,
range, default and description, in one record per option and one table per layer
(``planner``, ``runtime``, ``io``, ``simulation``). This module turns records into command-line
arguments and back, so no default or range is written twice.

Examples
--------
>>> default("planner", "k")
50
>>> default("runtime", "transport")
'p2p'
>>> tool_arguments("runtime", {"chunk": "4KiB", "transport": "rma", "plan-cache": False})
['--chunk', '4KiB', '--transport', 'rma', '--no-plan-cache']
"""

from __future__ import annotations

import argparse

from . import _core
from .argtypes import shown


def records(layer: str) -> list:
    """The layer's records, in the core's order."""
    return _core.option_records(layer)


def record(layer: str, name: str):
    return _core.option_record(layer, name)


def dest(name: str) -> str:
    """The attribute an option lands in: ``min-path-bytes`` -> ``min_path_bytes``."""
    return name.replace("-", "_")


def value(layer: str, rec, text: str):
    """``text`` as the option's Python value: int, float, bool, or the text itself (sizes,
    choices and text stay text, as the tools take them). Raises optiq.Error when out of range."""
    number = _core.option_number(layer, rec.name, text) if rec.kind != "text" else None
    if rec.kind == "integer":
        return int(number)
    if rec.kind == "real":
        return number
    if rec.kind == "flag":
        return bool(number)
    return text


def default(layer: str, name: str):
    """The option's default as a Python value (``None`` for an unset text option)."""
    rec = record(layer, name)
    if rec.kind == "text" and not rec.default:
        return None
    return value(layer, rec, rec.default)


def _argument_type(layer: str, rec):
    def parse(text: str):
        try:
            return value(layer, rec, text)
        except _core.Error as e:
            raise argparse.ArgumentTypeError(f"{e}") from None
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a value for --{rec.name}: {shown(text)}") from None
    parse.__name__ = rec.name  # argparse names the type in some messages
    return parse


def help_text(rec, extra: str = "") -> str:
    """The record's description with its default, as every command shows it."""
    shown_default = rec.default
    if rec.special and rec.default == rec.special:
        shown_default = rec.special_help
    elif rec.kind == "flag":
        shown_default = "on" if rec.default == "1" else "off"
    text = rec.help + (f"; {extra}" if extra else "")
    if rec.kind != "flag" and rec.special and rec.default != rec.special:
        text += f" ({rec.special} for {rec.special_help})"
    return f"{text} (default: {shown_default})" if shown_default else text


def add_arguments(group, layer: str, names=None, skip=(), flag_names=None, extra_help=None) -> None:
    """Adds ``--NAME`` to ``group`` for the layer's records (all, or ``names``, minus ``skip``).

    ``flag_names`` renames an option's flag (``{"chunk": "--heu2-chunk"}``); ``extra_help`` adds
    a command's own words to a record's description. Flags take ``--NAME`` and ``--no-NAME``.
    """
    flag_names = flag_names or {}
    extra_help = extra_help or {}
    for rec in records(layer):
        if (names is not None and rec.name not in names) or rec.name in skip:
            continue
        flag = flag_names.get(rec.name, "--" + rec.name)
        helptext = help_text(rec, extra_help.get(rec.name, ""))
        if rec.kind == "flag":
            group.add_argument(flag, dest=dest(rec.name), action=argparse.BooleanOptionalAction,
                               default=default(layer, rec.name), help=helptext)
            continue
        kwargs = {"dest": dest(rec.name), "type": _argument_type(layer, rec), "default": default(layer, rec.name),
                  "help": helptext.replace("%", "%%")}
        if rec.kind == "choice":
            kwargs["choices"] = list(rec.choices)
            kwargs["metavar"] = "{" + ",".join(rec.choices) + "}"
        else:
            kwargs["metavar"] = {"bytes": "SIZE", "integer": "N", "real": "X", "text": "NAME"}[rec.kind]
        group.add_argument(flag, **kwargs)


def values(args, layer: str, names=None) -> dict:
    """The layer's options as ``args`` holds them, by record name (those argparse defined)."""
    out = {}
    for rec in records(layer):
        if names is not None and rec.name not in names:
            continue
        if hasattr(args, dest(rec.name)):
            out[rec.name] = getattr(args, dest(rec.name))
    return out


def text_of(rec, v) -> str:
    """A Python value as the tools' command lines take it."""
    if rec.kind == "flag":
        return "1" if v else "0"
    if rec.kind == "real":
        return repr(float(v))
    return str(v)


def tool_arguments(layer: str, given: dict, flag_values: bool = False) -> list:
    """``["--name", text, ...]`` for a tool (optiq-driver, optiq-io-bench) from option values by
    record name; ``None`` values are left out (the tool keeps the record's default). Flags go as
    ``--NAME``/``--no-NAME``, or with ``flag_values`` as ``--NAME 1|0`` (programs that hand each
    pair to optiq_options_set, as nas-ft does)."""
    by_name = {r.name: r for r in records(layer)}
    out = []
    for name, v in given.items():
        if v is None:
            continue
        if name not in by_name:
            raise _core.Error(f"no {layer} option '{name}'")
        if by_name[name].kind == "flag" and not flag_values:  # the tools take flags as --NAME and --no-NAME
            out.append(("--" if v else "--no-") + name)
        else:
            out += ["--" + name, text_of(by_name[name], v)]
    return out


def planner_options(given: dict | None = None) -> _core.PlannerOptions:
    """A core PlannerOptions with ``given`` values (by record name, Python values) applied."""
    o = _core.PlannerOptions()
    for name, v in (given or {}).items():
        rec = record("planner", name)
        o.set(name, text_of(rec, v))
    return o
