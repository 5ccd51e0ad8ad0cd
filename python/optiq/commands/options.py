"""``optiq options``: every option of every layer, from the core's records."""

from __future__ import annotations

from .. import _core, options
from .common import print_json

EXAMPLES = """examples:
  optiq options                       # every layer, as tables
  optiq options --layer runtime       # the runtime's, with their environment variables
  optiq options --json                # for programs: name, kind, range, default, help per option
  optiq options --markdown            # the tables of docs/options.md

Each option is declared once, in include/optiq/core/options.hpp's records: the C API's *_init
functions, the command lines (--NAME), the interposer's environment (OPTIQ_NAME) and these
tables all read them.
"""

LAYERS = {
    "planner": "Planning (PlannerOptions; `optiq plan`, `simulate`, `io-plan` as --NAME)",
    "runtime": "Runtime (optiq_options; `optiq run`, `simulate`, `io-bench` as --NAME, the interposer as OPTIQ_NAME)",
    "io": "Collective I/O (optiq_io_options; `optiq io-bench` as --NAME)",
    "simulation": "Simulated machine (`optiq simulate`, `platform`, `plan` as --NAME)",
}


def register(subparsers) -> None:
    p = subparsers.add_parser("options", help="list every option with its range, default and meaning",
                              description="Print the option records of the planning core, the runtime, the I/O "
                                          "library and the simulation: name, kind, range, default and meaning.",
                              epilog=EXAMPLES)
    p.add_argument("--layer", choices=_core.option_layers(), help="one layer only (default: all)")
    form = p.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="one JSON document")
    form.add_argument("--markdown", action="store_true", help="Markdown tables (docs/options.md)")
    p.set_defaults(func=run)


def accepted(rec) -> str:
    """What the option takes, in words: its range, choices or kind."""
    if rec.kind == "choice":
        return ", ".join(rec.choices)
    if rec.kind == "flag":
        return "1 or 0 (--NAME, --no-NAME)"
    if rec.kind == "text":
        return "text"
    lo, hi = options.text_of(rec, rec.lo), options.text_of(rec, rec.hi)
    if rec.kind == "integer":
        lo, hi = str(int(rec.lo)), str(int(rec.hi))
    elif rec.kind == "bytes":
        lo, hi = _core.format_bytes(int(rec.lo)), _core.format_bytes(int(rec.hi))
    else:
        lo, hi = f"{rec.lo:g}", f"{rec.hi:g}"
    left, right = ("(" if rec.lo_open else "[", ")" if rec.hi_open else "]")
    text = f"{left}{lo}, {hi}{right}"
    return text + (f" or {rec.special} ({rec.special_help})" if rec.special else "")


def record_json(layer: str, rec) -> dict:
    out = {"name": rec.name, "kind": rec.kind, "default": rec.default, "help": rec.help, "accepts": accepted(rec),
           "field": rec.field}
    if layer == "runtime":
        out["environment"] = rec.environment_name
    return out


def markdown(layer: str) -> str:
    env = layer == "runtime"
    head = "| option | " + ("variable | " if env else "") + "accepts | default | meaning |\n"
    head += "|---|" + ("---|" if env else "") + "---|---|---|\n"
    rows = []
    for rec in options.records(layer):
        default = f"`{rec.default}`" if rec.default else "(none)"
        cells = [f"`--{rec.name}`"] + ([f"`{rec.environment_name}`"] if env else [])
        cells += [accepted(rec).replace("|", "\\|"), default, rec.help.replace("|", "\\|")]
        rows.append("| " + " | ".join(cells) + " |\n")
    return f"## {LAYERS[layer]}\n\n" + head + "".join(rows)


def run(args) -> int:
    layers = [args.layer] if args.layer else list(_core.option_layers())
    if args.json:
        print_json({layer: [record_json(layer, r) for r in options.records(layer)] for layer in layers})
    elif args.markdown:
        print("\n".join(markdown(layer) for layer in layers), end="")
    else:
        for layer in layers:
            print(LAYERS[layer])
            for rec in options.records(layer):
                print(f"  --{rec.name:<22} {rec.default or '(none)':<10} {accepted(rec)}")
                print(f"  {'':24} {rec.help}")
            print()
    return 0
