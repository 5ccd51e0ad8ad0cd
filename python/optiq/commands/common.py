"""Arguments and output helpers shared by several subcommands."""

from __future__ import annotations

import argparse
import json
import sys

from ..evaluate import PlannerOptions
from .. import _core


def add_planner_arguments(parser: argparse.ArgumentParser, default: str = "default,heu1,heu2") -> None:
    g = parser.add_argument_group("planners")
    g.add_argument("--planner", default=default, metavar="LIST",
                   help=f"comma-separated planners among {', '.join(_core.planner_names())} "
                        f"(default: %(default)s)")
    g.add_argument("--k", type=int, default=50, help="candidate paths per job for heu1/heu2 (default: 50)")
    g.add_argument("--hop-bound", type=int, default=-1, metavar="H",
                   help="longest candidate path in hops (default: the partition's diameter)")
    g.add_argument("--maxload", type=int, default=16, help="heu1: starting limit of paths per link (default: 16)")
    g.add_argument("--chunk", default="64KiB", metavar="SIZE", help="heu2: bytes assigned per step (default: 64KiB)")


def planner_options(args) -> PlannerOptions:
    return PlannerOptions(k=args.k, hop_bound=args.hop_bound, maxload=args.maxload,
                          chunk=_core.parse_bytes(args.chunk))


def planner_list(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def print_json(document) -> None:
    json.dump(document, sys.stdout, indent=1)
    sys.stdout.write("\n")
