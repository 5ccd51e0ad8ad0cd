"""Turn command-line choices into a topology, a routing model and a list of jobs."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from . import _core


@dataclass
class Workload:
    topology: _core.Topology
    routing: _core.RoutingModel
    jobs: list
    description: str  # the pattern name or the request file


def add_topology_arguments(parser: argparse.ArgumentParser) -> None:
    g = parser.add_argument_group("network")
    g.add_argument("--topology", default="mira:1024", metavar="SPEC",
                   help="bgq:AxBxCxDxE, mira:512|1024|2048|4096|49152, torus:8x8x8, mesh:4x4; "
                        "a t/m suffix on a dimension mixes ring and line, e.g. torus:8x8x4m "
                        "(default: %(default)s)")
    g.add_argument("--routing", default=None, choices=_core.routing_names(),
                   help="default routing model to compare with (default: the topology's own: bgq for "
                        "bgq/mira, dor otherwise)")
    g.add_argument("--link-bandwidth", type=positive_float, default=1.8e9, metavar="BYTES_PER_S",
                   help="capacity of every link in bytes/s (default: 1.8e9, BG/Q)")


def add_pattern_arguments(parser: argparse.ArgumentParser) -> None:
    g = parser.add_argument_group("pattern")
    src = g.add_mutually_exclusive_group()
    src.add_argument("--pattern", default="disjoint", choices=_core.pattern_names(),
                     help="disjoint: first P/16 nodes send to the last P/2; overlap: destinations start "
                          "inside the source block; subset: sources inside the destination block; random: "
                          "disjoint node sets with a seeded shuffle of destinations (default: %(default)s)")
    src.add_argument("--requests", metavar="FILE",
                     help="request file: one 'src dst bytes' line per job, '#' comments")
    g.add_argument("--bytes", default="8MiB", metavar="SIZE",
                   help="bytes per job: 8MiB, 64KiB, 1000000, or uniform:LO:HI, pareto:ALPHA:MIN[:MAX] "
                        "(seeded; default: %(default)s)")
    g.add_argument("--sources", type=int, default=-1, metavar="M", help="number of sources (default: P/16)")
    g.add_argument("--dests", type=int, default=-1, metavar="N", help="number of destinations (default: P/2)")
    g.add_argument("--start-src", type=int, default=-1, metavar="NODE", help="first source node")
    g.add_argument("--start-dst", type=int, default=-1, metavar="NODE", help="first destination node")
    g.add_argument("--seed", type=int, default=0, help="seed for random pairings and sizes (default: 0)")


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: '{text}'") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive: '{text}'")
    return value


def build_topology(args) -> tuple:
    topology = _core.parse_topology(args.topology, args.link_bandwidth)
    routing = _core.make_routing(args.routing or topology.default_routing, topology)
    return topology, routing


def build_workload(args) -> Workload:
    topology, routing = build_topology(args)
    if args.requests:
        jobs = _core.read_requests(args.requests, topology.num_nodes)
        description = args.requests
    else:
        if args.seed < 0:
            raise _core.Error(f"seed must be non-negative, got {args.seed}")
        pairs = _core.named_pattern(args.pattern, topology.num_nodes, args.sources, args.dests,
                                    args.start_src, args.start_dst, args.seed)
        jobs = _core.assign_sizes(pairs, args.bytes, args.seed)
        description = args.pattern
    return Workload(topology, routing, jobs, description)
