"""Turn command-line choices into a network, a routing model and a list of jobs."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

from . import _core, options
from .argtypes import SEED_MAX, hot_factor, integer, size_spec
from .textfile import read_requests

# Pattern counts and node numbers stay inside the core's 32-bit integers.
COUNT_MAX = 2**31 - 1


@dataclass
class Workload:
    network: _core.Network
    routing: _core.RoutingModel
    jobs: list
    description: str  # the pattern name or the request file
    _legs: _core.Legs | None = field(default=None, repr=False, compare=False)

    @property
    def legs(self) -> _core.Legs:
        """The default-route legs realizable paths chain (built on first use, then kept)."""
        if self._legs is None:
            self._legs = _core.Legs(self.network, self.routing)
        return self._legs


# Every form parse_network reads, for every command that takes a network.
TOPOLOGY_HELP = ("bgq:AxBxCxDxE, mira:512|1024|2048|4096|49152, torus:8x8x8, mesh:4x4, "
                 "fattree:L;m..;w..;p.. or dragonfly:G,b;C,b;B,b;N (SimGrid's topo_parameters, e.g. "
                 "'fattree:2;4,4;1,2;1,2', 'dragonfly:3,1;2,1;3,1;2'; quote the ';'), "
                 "graph:FILE (networkx node-link JSON, docs/graph-format.md), or a machine's own description: "
                 "slurm:topology.conf|topology.yaml, ibnetdiscover:FILE, slingshot:HOSTS[;key=value..] "
                 "(docs/your-machine.md); a t/m suffix on a dimension mixes ring and line, e.g. torus:8x8x4m")


def add_network_arguments(parser: argparse.ArgumentParser) -> None:
    g = parser.add_argument_group("network")
    g.add_argument("--topology", default="mira:1024", metavar="SPEC",
                   help=TOPOLOGY_HELP + " (default: %(default)s)")
    g.add_argument("--routing", default=None, choices=_core.routing_names(),
                   help="default routing model to compare with (default: the network's own: bgq for "
                        "bgq/mira, dor for torus/mesh, dmodk for fattree, minimal for dragonfly (SimGrid's "
                        "documented rules, which plan on every parameter set), the file's for a graph); "
                        "simgrid follows SimGrid's code route for route, where it can be planned with "
                        "(docs/model.md)")
    options.add_arguments(g, "simulation", names=("link-bandwidth",))


def add_count_arguments(g, seed_max: int = SEED_MAX, members: str = "nodes") -> None:
    """--sources, --dests, --start-src, --start-dst and --seed of the core's patterns, over the
    P ``members`` (the endpoints of a network, or the ranks of ``optiq run``)."""
    one = members[:-1].upper()
    g.add_argument("--sources", type=integer(1, COUNT_MAX, sentinel=-1), default=-1, metavar="M",
                   help=f"number of sources (default -1: P/16 of the P {members}, see above)")
    g.add_argument("--dests", type=integer(1, COUNT_MAX, sentinel=-1), default=-1, metavar="N",
                   help="number of destinations (default -1: P/2, at least 1)")
    g.add_argument("--start-src", type=integer(0, COUNT_MAX, sentinel=-1), default=-1, metavar=one,
                   help="first source (default -1: the pattern's own)")
    g.add_argument("--start-dst", type=integer(0, COUNT_MAX, sentinel=-1), default=-1, metavar=one,
                   help="first destination (default -1: the pattern's own)")
    g.add_argument("--seed", type=integer(0, seed_max), default=0,
                   help="seed for random pairings and sizes (default: 0)")


def add_hot_factor_argument(g) -> None:
    """--hot-factor of the moe pattern; None when not given (the core's default then holds)."""
    g.add_argument("--hot-factor", type=hot_factor, default=None, metavar="X",
                   help=f"moe: how many times the bytes a hot destination receives from each sender "
                        f"(positive; default: {_core.MOE_HOT_FACTOR:g})")


PATTERN_RULE = ("Without --sources, a pattern on P nodes has P/16 sources, at least one; when the\n"
                "destinations do not split evenly among them, the largest smaller number that\n"
                "splits them evenly (on 8 nodes: 1 source, 4 destinations).")


def add_pattern_arguments(parser: argparse.ArgumentParser) -> None:
    g = parser.add_argument_group("pattern", PATTERN_RULE)
    src = g.add_mutually_exclusive_group()
    src.add_argument("--pattern", default="disjoint", choices=pattern_names(), help=PATTERN_HELP)
    src.add_argument("--requests", metavar="FILE",
                     help="request file (UTF-8): one 'src dst bytes' line per job, '#' comments")
    g.add_argument("--bytes", type=size_spec, default="8MiB", metavar="SIZE",
                   help="bytes per job: 8MiB, 64KiB, 1000000, or uniform:LO:HI, pareto:ALPHA:MIN[:MAX] "
                        "(seeded; default: %(default)s)")
    add_count_arguments(g)
    add_hot_factor_argument(g)


PATTERN_HELP = ("disjoint: first P/16 nodes send to the last P/2; overlap: destinations start inside the "
                "source block; subset: sources inside the destination block; random: disjoint node sets "
                "with a seeded shuffle of destinations; permutation: a seeded cyclic permutation of all "
                "endpoints; moe: all-to-all where P/16 seeded hot destinations (--dests sets how many) "
                f"receive {_core.MOE_HOT_FACTOR:g} times the bytes (--hot-factor); group-to-group (dragonfly): host i of group --start-src "
                "(default 0) to host i of group --start-dst (default 1); groups-alltoall (dragonfly): "
                "host i of every group to host i of every other; dmodk-adversarial (fat-tree of 2+ "
                "levels): a permutation that destination-mod-k routes up shared links "
                "(docs/model.md, 'Patterns'; default: %(default)s)")


def pattern_names() -> list:
    """The 1:8 patterns of the core's named_pattern, then those that need the network."""
    return list(_core.pattern_names()) + list(_core.network_pattern_names())


def pattern_jobs(network: _core.Network, name: str, sizes: str, sources: int = -1, dests: int = -1,
                 start_src: int = -1, start_dst: int = -1, seed: int = 0, hot_factor: float | None = None,
                 members: list | None = None) -> list:
    """The jobs of pattern ``name`` on the network's endpoints (or on ``members``, a job's own
    endpoints in order: 1:8 patterns only), as vertex numbers.

    The 1:8 patterns take the counts and starts; of the network patterns, group-to-group takes
    the groups as ``start_src``/``start_dst`` and moe the hot destinations as ``dests`` and
    their weight as ``hot_factor`` (None: the core's ``MOE_HOT_FACTOR``), and a job's size is
    its weight times ``sizes``, rounded to whole bytes.
    """
    given = {"--sources": sources, "--dests": dests, "--start-src": start_src, "--start-dst": start_dst,
             "--hot-factor": -1 if hot_factor is None else 1}
    if name not in _core.network_pattern_names():
        if hot_factor is not None:
            raise _core.Error(f"pattern '{name}' does not take --hot-factor (moe does)")
        if members is not None:
            pairs = pattern_pairs(name, len(members), sources, dests, start_src, start_dst, seed)
            return _core.assign_sizes([(members[s], members[d]) for s, d in pairs], sizes, seed)
        pairs = pattern_pairs(name, network.num_endpoints, sources, dests, start_src, start_dst, seed)
        return _core.assign_sizes(on_endpoints(network, pairs), sizes, seed)
    if members is not None:
        raise _core.Error(f"pattern '{name}' runs on the whole network; a job's hosts (--job-hosts) take the 1:8 "
                          f"patterns ({', '.join(_core.pattern_names())}) and request files")
    takes = {"group-to-group": ("--start-src", "--start-dst"), "moe": ("--dests", "--hot-factor")}.get(name, ())
    for option, value in given.items():
        if value >= 0 and option not in takes:
            raise _core.Error(f"pattern '{name}' does not take {option}"
                              + (f" (it takes {', '.join(takes)})" if takes else ""))
    factor = {} if hot_factor is None else {"hot_factor": hot_factor}
    pairs, weights = _core.network_pattern(name, network, group_src=start_src, group_dst=start_dst, hot=dests,
                                           seed=seed, **factor)
    jobs = _core.assign_sizes(on_endpoints(network, pairs), sizes, seed)
    limit = _core.parse_bytes("9223372036854775807")
    for j, w in zip(jobs, weights):
        # Whole weights multiply exactly; others round (a float holds sizes to 2^53 exactly).
        size = j.bytes * int(w) if w == int(w) else round(j.bytes * w)
        if size > limit:
            raise _core.Error(f"pattern '{name}': {w:g} x {j.bytes} bytes exceeds {limit} bytes")
        j.bytes = size
    return jobs


def pattern_counts(num_nodes: int, sources: int = -1, dests: int = -1) -> tuple[int, int]:
    """Sources and destinations of a core pattern on ``num_nodes`` nodes, defaults resolved.

    Destinations default to P/2 (at least 1). Sources default to P/16 (at least 1); when
    neither count divides the other, to the largest smaller number that divides the
    destinations. Wherever P/16 already works (every power of two from 16 nodes, Mira's
    partitions) the defaults are the thesis' P/16 and P/2. Given counts are kept as given.

    Parameters
    ----------
    num_nodes : int
        P, the nodes (or ranks) the pattern runs over.
    sources, dests : int
        Counts asked for; -1 for the default.

    Returns
    -------
    tuple of int
        ``(sources, destinations)``.

    Examples
    --------
    >>> pattern_counts(1024)
    (64, 512)
    >>> pattern_counts(8)
    (1, 4)
    >>> pattern_counts(100)
    (5, 50)
    """
    n = dests if dests >= 0 else max(1, num_nodes // 2)
    if sources >= 0:
        return sources, n
    m = max(1, num_nodes // 16)
    while n > 0 and m > 1 and n % m and m % n:
        m -= 1
    return m, n


def pattern_pairs(name: str, num_nodes: int, sources: int = -1, dests: int = -1, start_src: int = -1,
                  start_dst: int = -1, seed: int = 0) -> list:
    """The pairs of core pattern ``name`` with the defaults of :func:`pattern_counts`."""
    m, n = pattern_counts(num_nodes, sources, dests)
    return _core.named_pattern(name, num_nodes, m, n, start_src, start_dst, seed)


def on_endpoints(network: _core.Network, pairs: list) -> list:
    """A pattern's pairs, numbered 0..P-1 over the P endpoints, as vertex numbers: the i-th
    endpoint in ascending order, where ranks are placed (the same numbers on a torus).

    >>> on_endpoints(_core.parse_network("torus:4"), [(0, 3)])
    [(0, 3)]
    """
    endpoints = network.endpoints
    if endpoints == list(range(len(endpoints))):
        return pairs
    return [(endpoints[s], endpoints[d]) for s, d in pairs]


def check_job_ends(network: _core.Network, jobs: list, origin: str) -> None:
    """Jobs name vertices by number; a switch hosts no data, so no job starts or ends at one."""
    if len(network.endpoints) == network.num_vertices:
        return
    for i, j in enumerate(jobs):
        for v in (j.src, j.dst):
            if network.kind(v) == "switch":
                raise _core.Error(f"{origin}: job {i} ({j.src}->{j.dst}): vertex {v} of {network.spec} is a switch, "
                                  "which hosts no data")


def build_network(args) -> tuple:
    network = _core.parse_network(args.topology, args.link_bandwidth)
    routing = _core.make_routing(args.routing or network.default_routing, network)
    return network, routing


def job_endpoints(network: _core.Network, hosts: str) -> list:
    """The endpoints of a job, in the order given: a Slurm host list of the network's host names
    (an imported network, docs/your-machine.md), or endpoint numbers and ranges ('0-15,32')."""
    if network.hosts_named:
        names = _core.expand_hostlist(hosts)
        found = [network.endpoint_named(n) for n in names]
        missing = [n for n, v in zip(names, found) if v < 0]
        if missing:
            raise _core.Error(f"--job-hosts: {', '.join(missing[:3])}{' ...' if len(missing) > 3 else ''} "
                              f"{'is' if len(missing) == 1 else 'are'} not a host of {network.spec}")
    else:
        found = []
        for part in hosts.split(","):
            lo, _, hi = part.strip().partition("-")
            if not lo.isdigit() or (hi and not hi.isdigit()):
                raise _core.Error(f"--job-hosts: '{part}' is not an endpoint number or range (like 0-15); "
                                  f"{network.spec} names no hosts")
            found += range(int(lo), int(hi or lo) + 1)
        endpoints = set(network.endpoints)
        for v in found:
            if v not in endpoints:
                raise _core.Error(f"--job-hosts: {v} is not an endpoint of {network.spec}")
    if len(set(found)) != len(found):
        raise _core.Error("--job-hosts: a host is listed twice")
    if len(found) < 2:
        raise _core.Error("--job-hosts: a job needs at least two hosts")
    return found


def build_workload(args) -> Workload:
    network, routing = build_network(args)
    hosts = job_endpoints(network, args.job_hosts) if getattr(args, "job_hosts", None) else None
    if args.requests:  # request files name vertices
        jobs = read_requests(args.requests, network.num_vertices)
        check_job_ends(network, jobs, args.requests)
        description = args.requests
    else:  # patterns run over the endpoints, or over the job's own
        jobs = pattern_jobs(network, args.pattern, args.bytes, args.sources, args.dests, args.start_src,
                            args.start_dst, args.seed, args.hot_factor, hosts)
        description = args.pattern
    if hosts is not None:  # only the job's endpoints relay: the rest of the machine is others'
        outside = {j.src for j in jobs} | {j.dst for j in jobs}
        outside -= set(hosts)
        if outside:
            raise _core.Error(f"--job-hosts: the requests use vertex {min(outside)}, which is not one of the job's hosts")
        network = network.with_forwarders(hosts)
        description += f" on {len(hosts)} job hosts"
    return Workload(network, routing, jobs, description)
