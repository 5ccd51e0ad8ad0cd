"""Arguments and output helpers shared by several subcommands."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from ..argtypes import bandwidth, byte_size, integer, real
from ..evaluate import PlannerOptions, planner_names
from .. import _core

# Upper ends of the planners' counts: far beyond any use, well inside the core's integers.
K_MAX = 100_000
HOPS_MAX = 1_000_000
MAXLOAD_MAX = 1_000_000_000
PATHS_MAX = 1_000_000
# Launched programs: ranks, repetitions and messages in flight well inside their C ints.
NP_MAX = 1 << 20
REPEATS_MAX = 1_000_000
INFLIGHT_MAX = 1 << 20


def add_planner_arguments(parser: argparse.ArgumentParser, default: str = "default,heu1,heu2",
                          heu2_chunk_flag: str = "--chunk") -> None:
    """Planner choice and options; commands whose --chunk means something else rename heu2's."""
    g = parser.add_argument_group("planners")
    g.add_argument("--planner", default=default, metavar="LIST",
                   help=f"comma-separated planners among {', '.join(planner_names())}: default is the "
                        "network's own route; heu1/heu2 the thesis heuristics; opt the thesis LP over k candidates; "
                        "optimal the LP over all paths (column generation); mcf a certified approximation without "
                        "an LP solver; maxflow max-flow paths per destination, heaviest first, for many holders "
                        "sending to a few sinks (networks without switches only) (default: %(default)s)")
    g.add_argument("--k", type=integer(1, K_MAX), default=50,
                   help="candidate paths per job for heu1/heu2/opt (default: 50)")
    g.add_argument("--hop-bound", type=integer(0, HOPS_MAX, sentinel=-1), default=-1, metavar="H",
                   help="longest path in hops (default: the partition's diameter for the k candidates of "
                        "heu1/heu2/opt, no bound for optimal and mcf)")
    g.add_argument("--maxload", type=integer(1, MAXLOAD_MAX), default=16,
                   help="heu1: starting limit of paths per link (default: 16)")
    g.add_argument(heu2_chunk_flag, dest="heu2_chunk", type=byte_size, default="64KiB", metavar="SIZE",
                   help="heu2: bytes assigned per step (default: 64KiB)")
    g.add_argument("--epsilon", type=real(0, 1, low_open=True, high_open=True), default=0.02,
                   help="mcf: stop once the plan is within this fraction of its proven bound (default: 0.02)")
    g.add_argument("--gap", type=real(0, 1, high_open=True), default=1e-6,
                   help="opt/optimal: stop column generation at this relative gap (default: 1e-6)")
    g.add_argument("--min-path-bytes", type=byte_size, default="64KiB", metavar="SIZE",
                   help="opt/optimal/mcf/maxflow: no path carries fewer bytes (default: 64KiB, one chunk)")
    g.add_argument("--max-paths", type=integer(1, PATHS_MAX), default=None, metavar="N",
                   help="opt/optimal/mcf/maxflow: at most N paths per job (default: no limit)")
    g.add_argument("--max-proxies", type=integer(0, PATHS_MAX), default=None, metavar="N",
                   help="mcf: at most N endpoints forward on each path (default: no limit; 1 is "
                        "Valiant-style routing through one chosen endpoint)")
    g.add_argument("--forward-bandwidth", type=bandwidth, default=None, metavar="BYTES_PER_S",
                   help="bytes/s a node can relay for others: opt/optimal/mcf plan for it, and every "
                        "planner's predicted time counts it (default: unlimited)")


def planner_options(args) -> PlannerOptions:
    return PlannerOptions(k=args.k, hop_bound=args.hop_bound, maxload=args.maxload,
                          chunk=_core.parse_bytes(args.heu2_chunk), epsilon=args.epsilon, gap=args.gap,
                          min_path_bytes=_core.parse_bytes(args.min_path_bytes), max_paths=args.max_paths,
                          forward_bandwidth=args.forward_bandwidth, max_proxies=args.max_proxies)


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
