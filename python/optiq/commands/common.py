"""Arguments and output helpers shared by several subcommands."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from .. import _core, options
from ..argtypes import timeout
from ..evaluate import PlannerOptions, planner_names

# Launched programs: ranks, repetitions and messages in flight well inside their C ints.
NP_MAX = 1 << 20
REPEATS_MAX = 1_000_000


def add_planner_arguments(parser: argparse.ArgumentParser, default: str = "default,heu1,heu2") -> None:
    """Planner choice, and every planner option from its record (optiq.options)."""
    g = parser.add_argument_group("planners")
    g.add_argument("--planner", default=default, metavar="LIST",
                   help=f"comma-separated planners among {', '.join(planner_names())}: default is the "
                        "network's own route; heu1/heu2 the thesis heuristics; opt the thesis LP over k candidates; "
                        "optimal the LP over all paths (column generation); mcf a certified approximation without "
                        "an LP solver; maxflow max-flow paths per destination, heaviest first, for many holders "
                        "sending to a few sinks (networks without switches only) (default: %(default)s)")
    options.add_arguments(g, "planner")


def planner_options(args) -> PlannerOptions:
    """The command line's planner options as the core's struct."""
    return options.planner_options(options.values(args, "planner"))


def add_runtime_arguments(parser: argparse.ArgumentParser, skip=()) -> None:
    """The runtime's options (optiq_options) from their records, for every command that runs
    the runtime (run, simulate, io-bench)."""
    options.add_arguments(parser.add_argument_group("runtime"), "runtime", skip=skip)


def runtime_values(args) -> dict:
    """The runtime's options as the command line gave them (defaults included), by record name."""
    return options.values(args, "runtime")


def add_launch_arguments(group) -> None:
    """How a command launches its MPI program: the launcher, and how long to wait for it."""
    group.add_argument("--timeout", type=timeout, default=600, metavar="SECONDS",
                       help="give up after this long (default: %(default)s)")
    group.add_argument("--mpirun", default="mpirun", metavar="PATH", help="the MPI launcher (default: %(default)s)")


def launch_and_report(args, launch, report, succeeded) -> int:
    """A launching command's end: its program's JSON document (--json) or its report, and
    status 0 when ``succeeded(result)``, else 1."""
    result = launch(args)
    if args.json:
        print_json(result)
    else:
        report(result)
    return 0 if succeeded(result) else 1


def planner_list(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def print_json(document) -> None:
    json.dump(document, sys.stdout, indent=1)
    sys.stdout.write("\n")


def bundled_program(name: str, env: str, what: str, needs: str = "Open MPI") -> Path:
    """A program installed with the package (optiq/bin/NAME), or the one $ENV names."""
    chosen = os.environ.get(env)
    path = Path(chosen) if chosen else Path(__file__).resolve().parent.parent / "bin" / name
    if not path.is_file():
        raise _core.Error(f"{what} is not at {path}: install {needs} and rebuild "
                          f"(scripts/setup.sh does both), or set {env}")
    return path


def launcher(mpirun: str, np: int) -> list[str]:
    """mpirun with what this machine needs: Open MPI refuses root and more ranks than cores."""
    exe = shutil.which(mpirun)
    if not exe:
        raise _core.Error(f"'{mpirun}' not found: install Open MPI (scripts/setup.sh does)")
    cmd = [exe, "-np", str(np)]
    try:
        version = subprocess.run([exe, "--version"], capture_output=True, text=True, errors="replace",
                                 timeout=60, stdin=subprocess.DEVNULL).stdout
    except subprocess.TimeoutExpired:
        raise _core.Error(f"'{mpirun} --version' did not answer within 60 s") from None
    if "Open MPI" in version or "OpenRTE" in version:
        cmd.append("--oversubscribe")
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            cmd.append("--allow-run-as-root")
    return cmd
