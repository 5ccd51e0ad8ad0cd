"""``optiq simulate``: run MPI_Alltoallv and optiq's runtime on a SimGrid-simulated machine."""

from __future__ import annotations

from .. import options
from ..argtypes import integer, real, size_spec, timeout
from ..evaluate import check_planner_names
from ..progress import Progress
from ..simulation.background import Background
from ..simulation.experiment import MPI, Setup, simulate
from ..simulation.ranks import simulate_ranks
from ..workload import PATTERN_HELP, PATTERN_RULE, add_count_arguments, add_hot_factor_argument, pattern_names
from .common import REPEATS_MAX, add_planner_arguments, add_runtime_arguments, planner_list, planner_options, print_json
from .. import _core

# Runtime options a simulation sets itself: the planner list and --routing choose what plans,
# and every call after the first repeats its pattern (ranks-per-node is read apart: above 1, or
# with node aggregation, the request file names ranks and the simulated runtime plans).
NOT_SIMULATED = ("planner", "routing", "ranks-per-node", "plan-cache")

EXAMPLES = """examples:
  optiq simulate --topology bgq:2x2x4x4x2 --pattern disjoint --bytes 1MiB
  optiq simulate --topology mira:1024 --pattern overlap --bytes 8MiB --planner default,heu2,mcf --json
  optiq simulate --topology mira:512 --pattern subset --bytes 256KiB --planner heu2 --transport rma --chunk 32KiB
  optiq simulate --topology mira:512 --planner heu2,mcf --copy-bandwidth inf --message-overhead 0
  optiq simulate --topology mira:512 --planner heu2,mcf --background-load 0.25 --background-nodes 0.5
  optiq simulate --topology torus:4x4x4 --requests jobs.txt --planner default,mcf
  optiq simulate --topology 'fattree:2;4,4;1,4;1,1' --pattern random --bytes 1MiB --planner default,mcf
  optiq simulate --topology 'dragonfly:4,1;2,1;4,1;2' --routing minimal --bytes 1MiB --planner default,mcf
  optiq workload cesm --coupling ocn --topology mira:512 --by rank --out ocn.txt
  optiq simulate --topology mira:512 --requests ocn.txt --ranks-per-node 4 --aggregate-node --planner heu2,mcf

The simulated machine is SimGrid's torus with the topology's shape: routes follow the core's
'simgrid' model (dimension order of BG/Q, SimGrid's tie rule; see docs/simulation.md), size-2
dimensions have one usable cable, links carry --link-bandwidth each way. Every rank is one node.
A fat-tree or dragonfly runs on SimGrid's FAT_TREE or DRAGONFLY cluster of the same parameters,
routed as the core's 'simgrid' model; where those routes cannot be planned with, --routing dmodk
or minimal plans with SimGrid's documented rule while SimGrid keeps its own routes (the
prediction then assumes the documented routes; docs/simulation.md). Other networks become a zone
listing the network's own routes. Request files name vertices, which must be endpoints here.
Results: simulated seconds of one call (after a warm-up call that plans), throughput, the plan's
fluid prediction (busiest link / bandwidth) and the wall-clock cost of each simulation.
Each planner plans once, here; the simulation executes exactly that plan from a plan file and
the prediction is that file's (--plans-dir keeps the files; the MPI baseline moves the jobs of
default.json). A simulation needs at least 2 nodes.

With --ranks-per-node above 1 (or --aggregate-node) the request file names ranks instead, R on
each node (rank r on the (r // R)-th endpoint), and each planner plans inside the simulated
application as the runtime does on its first call, from the rank pairs (or, with
--aggregate-node, from the pairs of nodes); the prediction is the runtime's own, of the plan it
made, and the MPI baseline's is the default route's.
"""


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "simulate", help="run MPI_Alltoallv and optiq under SimGrid SMPI on a simulated machine",
        description="Simulate one exchange with SimGrid SMPI: MPI_Alltoallv, then optiq's runtime once per "
                    "planner, each on the same platform, and set simulated times beside the plans' predictions.",
        epilog=EXAMPLES)
    net = p.add_argument_group("network")
    net.add_argument("--topology", default="mira:512", metavar="SPEC",
                     help="bgq:AxBxCxDxE, mira:N, torus:AxB.. (all rings), fattree:L;m..;w..;p.., "
                          "dragonfly:G,b;C,b;B,b;N (SimGrid's topo_parameters) or graph:FILE (default: %(default)s)")
    net.add_argument("--routing", default=None, choices=_core.routing_names(),
                     help="the routing plans assume (default: the simulated machine's own, 'simgrid' on tori, "
                          "fat-trees and dragonflies); another one changes what the planners and predictions "
                          "assume, not how SimGrid routes")
    options.add_arguments(net, "simulation", names=("link-bandwidth", "latency"))
    pat = p.add_argument_group("pattern", PATTERN_RULE)
    source = pat.add_mutually_exclusive_group()
    source.add_argument("--pattern", default="disjoint", choices=pattern_names(), help=PATTERN_HELP)
    source.add_argument("--requests", metavar="FILE",
                        help="request file (UTF-8): one 'src dst bytes' line per job, '#' comments, as for "
                             "optiq plan; src and dst are endpoints")
    pat.add_argument("--bytes", type=size_spec, default="8MiB", metavar="SIZE",
                     help="bytes per pair of a pattern (default: %(default)s)")
    add_count_arguments(pat)
    add_hot_factor_argument(pat)
    add_planner_arguments(p, default="default,heu1,heu2,mcf")
    add_runtime_arguments(p, skip=NOT_SIMULATED)
    options.add_arguments(p.add_argument_group("ranks"), "runtime", names=("ranks-per-node",),
                          extra_help={"ranks-per-node": "above 1: --requests names ranks, planned in simulation"})
    cost = p.add_argument_group("CPU costs charged in simulated time (docs/simulation.md)")
    options.add_arguments(cost, "simulation", names=("copy-bandwidth", "message-overhead"),
                          extra_help={"copy-bandwidth": "predictions charge a node's relayed bytes at it too"})
    bg = p.add_argument_group("background traffic (a second job on the machine, docs/simulation.md)")
    bg.add_argument("--background-load", type=real(0, 1), default=0.0, metavar="FRACTION",
                    help="each background flow's rate cap as a fraction of the link bandwidth (default: 0, none)")
    bg.add_argument("--background-nodes", type=real(0, 1), default=0.5, metavar="FRACTION",
                    help="fraction of the nodes running the second job, paired at random (default: %(default)s)")
    bg.add_argument("--background-seed", type=integer(0, 2**31 - 1), default=1, metavar="SEED",
                    help="which nodes and pairs (default: %(default)s)")
    bg.add_argument("--ignore-background", action="store_true",
                    help="plan on the full links, as if the machine were free (default: plan on what the "
                         "background leaves)")
    meas = p.add_argument_group("measurement")
    meas.add_argument("--iterations", type=integer(1, REPEATS_MAX), default=1, metavar="K",
                      help="timed calls after the warm-up call; simulations are deterministic (default: 1)")
    check = meas.add_mutually_exclusive_group()
    check.add_argument("--verify", dest="verify", action="store_const", const=True, default=None,
                       help="check every delivered byte (default when a call moves at most 1 GiB)")
    check.add_argument("--no-verify", dest="verify", action="store_const", const=False,
                       help="share buffers between simulated ranks so large patterns fit in memory")
    meas.add_argument("--mpi-call", default="auto", choices=("auto", "alltoallv", "p2p"),
                      help="the baseline: MPI_Alltoallv, or its non-empty messages posted at once with "
                           "MPI_Isend/MPI_Irecv (same simulated time, far cheaper to simulate); auto: "
                           "MPI_Alltoallv up to 128 ranks (default: %(default)s)")
    meas.add_argument("--timeout", type=timeout, default=3600, metavar="SECONDS",
                      help="give up on one simulation after this long (default: %(default)s)")
    out = p.add_argument_group("output")
    out.add_argument("--json", action="store_true", help='print {"results": [...]} instead of the table')
    out.add_argument("--plans-dir", metavar="DIR",
                     help="keep the plan file each run executed as DIR/PLANNER.json (default: not kept)")
    out.add_argument("--quiet", action="store_true", help="no progress output on stderr")
    p.set_defaults(func=run)


def setup_from(args) -> Setup:
    simulated = [r.name for r in options.records("runtime") if r.name not in NOT_SIMULATED]
    return Setup(topology=args.topology, routing=args.routing, requests=args.requests,
                 pattern=args.pattern, bytes=args.bytes, sources=args.sources,
                 dests=args.dests, start_src=args.start_src, start_dst=args.start_dst, seed=args.seed,
                 hot_factor=args.hot_factor, runtime=options.values(args, "runtime", simulated),
                 iterations=args.iterations, verify=args.verify, latency=args.latency,
                 link_bandwidth=args.link_bandwidth, timeout=args.timeout, mpi_call=args.mpi_call,
                 planner_options=planner_options(args), plans_dir=args.plans_dir, copy_bandwidth=args.copy_bandwidth,
                 message_overhead=args.message_overhead,
                 background=Background(args.background_load, args.background_nodes, args.background_seed),
                 plan_for_background=not args.ignore_background)


def report(setup: Setup, results: list, ranks_per_node: int | None = None) -> None:
    jobs = f"requests {setup.requests}" if setup.requests else f"pattern {setup.pattern}, {setup.bytes} per pair"
    print(f"simulated {setup.topology}, {jobs}, transport {setup.runtime_value('transport')}")
    if ranks_per_node:
        aggregated = "node aggregation" if setup.runtime_value("aggregate-node") else "one planned job per rank pair"
        print(f"{results[0]['ranks']} ranks, {ranks_per_node} per node, planned by the simulated runtime ({aggregated})")
    bg = setup.background
    if bg.active:
        print(f"background: flows capped at {bg.load:g} x link bandwidth on {bg.nodes:g} of the nodes (seed {bg.seed}), "
              + ("planned for" if setup.plan_for_background else "ignored by planning"))
    print(f"{'':14}{'simulated ms':>13}{'GB/s':>9}{'predicted ms':>14}{'of prediction':>15}{'x MPI':>7}"
          f"{'wall s':>8}  bytes")
    mpi = next(r for r in results if r["planner"] == MPI)
    print(f"baseline: {mpi['mpi_call']}")
    for r in results:
        ratio = r["predicted_seconds"] / r["simulated_seconds"] if r["simulated_seconds"] > 0 else 0.0
        speedup = mpi["simulated_seconds"] / r["simulated_seconds"] if r["simulated_seconds"] > 0 else 0.0
        checked = {True: "verified", False: "WRONG", None: "unchecked"}[r["verified"]]
        fell_back = "  (default route: the plan gained too little)" if r.get("fell_back") else ""
        print(f"{r['planner']:14}{r['simulated_seconds'] * 1e3:13.3f}{r['throughput'] / 1e9:9.2f}"
              f"{r['predicted_seconds'] * 1e3:14.3f}{100 * ratio:14.1f}%{speedup:7.2f}{r['wall_seconds']:8.1f}  "
              f"{checked}{fell_back}")


def run(args) -> int:
    planners = planner_list(args.planner)
    check_planner_names(planners)
    setup = setup_from(args)
    progress = Progress(quiet=args.quiet)
    by_rank = args.ranks_per_node > 1 or setup.runtime_value("aggregate-node")
    if by_rank:
        results = simulate_ranks(setup, planners, args.ranks_per_node, progress.note)
    else:
        results = simulate(setup, planners, progress, progress.note)
    if args.json:
        bg = setup.background
        print_json({"topology": setup.topology, "routing": setup.planning_routing(),
                    "pattern": None if setup.requests else setup.pattern,
                    "requests": setup.requests, "bytes": None if setup.requests else setup.bytes,
                    "transport": setup.runtime_value("transport"), "dispatch": setup.runtime_value("dispatch"),
                    "min_gain": setup.runtime_value("min-gain"), "max_inflight": setup.runtime_value("max-inflight"),
                    "ranks_per_node": args.ranks_per_node if by_rank else None,
                    "aggregate_node": bool(setup.runtime_value("aggregate-node")),
                    "copy_bandwidth": setup.charged_copy_bandwidth(),  # null: free
                    "message_overhead": setup.message_overhead,
                    "background": {"load": bg.load, "nodes": bg.nodes, "seed": bg.seed,
                                   "planned_for": bg.active and setup.plan_for_background},
                    "results": results})
    else:
        report(setup, results, args.ranks_per_node if by_rank else None)
    return 0 if all(r["verified"] is not False for r in results) else 1
