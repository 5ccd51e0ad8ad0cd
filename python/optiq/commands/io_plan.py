"""``optiq io-plan``: place aggregators for two-phase I/O and plan both phases with each planner."""

from __future__ import annotations

from .. import _core, options
from ..aggregation import IO_PLANNERS, evaluate_placements, io_data, io_groups, parse_io_nodes
from ..argtypes import SEED_MAX, integer, real, size_spec
from ..plots import grouped_bars, panel, plot_file, save
from ..progress import Progress
from ..report import text_table
from ..workload import add_network_arguments, build_network
from .common import planner_list, print_json

EXAMPLES = """examples:
  optiq io-plan --topology mira:512+io --ranks-per-node 16 --data uniform:0:2MB
  optiq io-plan --topology mira:1024+io --data pareto:1.5:64KiB:8MiB --holders 0.2 --seed 3 --planner default,mcf,maxflow
  optiq io-plan --topology mira:1024+io --ranks-per-node 8 --hacc uniform:18400:21000 --layout soa --json
  optiq io-plan --topology mira:512+io --placement topology-aware --planner mcf --out aggregation.json
  optiq io-plan --topology mira:512+io --io-nodes io0,io1 --aggregators 8 --buffer 32MiB --plot psets.png

Ranks run on consecutive nodes, R per node; each node writes through the I/O node its route
reaches first (on BG/Q its pset's). Each I/O node gets one file: its ranks' data in rank order
(--layout aos) or variable by variable (--layout soa, HACC only), split into one domain per
aggregator. Times are the fluid model's: aggregation is every node's bytes to the aggregators of
its domains, I/O every aggregator's domain to its I/O node, pipelined over the rounds the buffer
imposes (docs/io.md). flow-aware plans with mcf for every placement it tries, so it is the slow one.
"""


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "io-plan", help="place two-phase I/O aggregators and plan the aggregation with each planner",
        description="Place aggregators for two-phase I/O with each strategy and predict, per planner, the "
                    "aggregation phase, the I/O phase and their pipelined total.",
        epilog=EXAMPLES)
    add_network_arguments(p)
    p.set_defaults(topology="mira:512+io")
    d = p.add_argument_group("data")
    d.add_argument("--ranks-per-node", type=integer(1, 1024), default=16, metavar="R",
                   help="ranks per node (default: 16)")
    src = d.add_mutually_exclusive_group()
    src.add_argument("--data", type=size_spec, default="uniform:0:2MiB", metavar="SIZES",
                     help="bytes per rank: BYTES, uniform:LO:HI or pareto:ALPHA:MIN[:MAX] (default: %(default)s)")
    src.add_argument("--hacc", type=size_spec, default=None, metavar="PARTICLES",
                     help="HACC-IO data instead: particles per rank (a count or a law as for --data), 38 bytes each")
    d.add_argument("--layout", choices=("aos", "soa"), default="aos",
                   help="file layout: each rank's data together (aos) or one section per variable (soa, --hacc only)")
    d.add_argument("--holders", type=real(0, 1, low_open=True), default=1.0, metavar="F",
                   help="fraction of nodes holding data, chosen by --seed (default: 1)")
    d.add_argument("--seed", type=integer(0, SEED_MAX), default=0, help="seed of sizes and holders (default: 0)")
    d.add_argument("--io-nodes", default=None, metavar="LIST",
                   help="only these I/O nodes' groups, by name (io0) or vertex id (default: all)")
    a = p.add_argument_group("aggregation")
    options.add_arguments(a, "io", names=("aggregators", "buffer"),
                          extra_help={"buffer": "rounds = domain / buffer"})
    a.add_argument("--placement", default=",".join(_core.placement_names()), metavar="LIST",
                   help=f"placement strategies among {', '.join(_core.placement_names())} (default: all)")
    a.add_argument("--planner", default=",".join(IO_PLANNERS), metavar="LIST",
                   help=f"planners for both phases among {', '.join(IO_PLANNERS)} (default: all)")
    out = p.add_argument_group("output")
    out.add_argument("--json", action="store_true", help="print one JSON document instead of the table")
    out.add_argument("--out", metavar="PLAN.json",
                     help="write the aggregation phase's plan (one placement and one planner only)")
    out.add_argument("--plot", type=plot_file, metavar="PNG", help="draw each I/O group's aggregation time")
    out.add_argument("--quiet", action="store_true", help="no progress output on stderr")
    p.set_defaults(func=run)


def _checked_list(text: str, known, what: str) -> list:
    names = planner_list(text)
    if not names:
        raise _core.Error(f"no {what} given")
    for n in names:
        if n not in known:
            raise _core.Error(f"unknown {what} '{n}' (known: {', '.join(known)})")
    return names


def run(args) -> int:
    placements = _checked_list(args.placement, _core.placement_names(), "placement")
    planners = _checked_list(args.planner, IO_PLANNERS, "planner")
    if args.out and (len(placements) != 1 or len(planners) != 1):
        raise _core.Error("--out writes one plan: give a single --placement and a single --planner")
    network, routing = build_network(args)
    io_nodes = parse_io_nodes(network, args.io_nodes) if args.io_nodes is not None else None
    nodes = len(network.endpoints)
    data = io_data(nodes, args.ranks_per_node, args.data, args.holders, args.seed, args.hacc, args.layout)
    groups = io_groups(network, routing, data, io_nodes)
    if not groups:
        raise _core.Error(f"{network.spec} has no I/O nodes (BG/Q's I/O side is mira:N+io or bgq:AxBxCxDxE+io)")
    buffer = _core.parse_bytes(args.buffer)
    if buffer == 0:
        raise _core.Error("--buffer must be at least one byte")
    total_bytes = sum(g.file_bytes for g in groups)
    progress = Progress(quiet=args.quiet)
    results = evaluate_placements(network, routing, groups, placements, planners, args.aggregators, buffer,
                                  progress=progress)
    if args.out:
        if results[0].plan is None:
            raise _core.Error("nothing to aggregate: every aggregator holds its whole domain")
        _core.save_plan(results[0].plan, network, args.out)
    if args.plot:
        _plot_groups(results, groups, network, args.plot)
    if args.json:
        print_json({"topology": network.spec, "routing": routing.name, "data": data.description,
                    "ranks": len(data.rank_items), "ranks_per_node": data.ranks_per_node,
                    "bytes": total_bytes, "aggregators": args.aggregators, "buffer": buffer,
                    "io_nodes": [network.vertex_name(g.io) for g in groups],
                    "results": [r.json() for r in results]})
        return 0
    print(f"{network.spec} (routing {routing.name}), {len(data.rank_items)} ranks at {data.ranks_per_node} per node, "
          f"{data.description}: {total_bytes / 1e6:.1f} MB to {len(groups)} I/O node{'s' if len(groups) > 1 else ''}, "
          f"{args.aggregators} aggregators each, {_core.format_bytes(buffer)} buffers, {results[0].rounds} rounds")
    rows = [{"placement": r.placement, "planner": r.planner,
             "aggregation ms": f"{r.aggregation_seconds * 1e3:.3f}", "I/O ms": f"{r.io_seconds * 1e3:.3f}",
             "total ms": f"{r.total_seconds * 1e3:.3f}",
             "MB/s": f"{total_bytes / r.total_seconds / 1e6:.0f}" if r.total_seconds > 0 else "-",
             "aggregation busiest link MB": f"{r.link_bytes_max / 1e6:.2f}"} for r in results]
    print(text_table(rows))
    if args.out:
        print(f"plan written to {args.out}")
    if args.plot:
        print(f"plot written to {args.plot}")
    return 0


def _plot_groups(results, groups, network, path: str) -> None:
    made = panel((max(6.4, 0.5 * len(groups) * len({r.placement for r in results}) + 2), 4.2))
    if made is None:
        return
    fig, ax = made
    grouped_bars(ax, [network.vertex_name(g.io) for g in groups],
                 {f"{r.placement} / {r.planner}": [t * 1e3 for t in r.group_seconds] for r in results})
    ax.set_xlabel("I/O node (its group of compute nodes)")
    ax.set_ylabel("aggregation time (ms, fluid model)")
    ax.set_title(f"{network.spec}: aggregation time per I/O group")
    ax.legend(fontsize=6, ncol=2)
    save(fig, path)
