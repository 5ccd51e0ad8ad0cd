"""An adaptive-routing baseline for dragonflies, in the fluid model.

UGAL-style hardware sends each packet either minimally or, through a random intermediate group,
non-minimally (Valiant). ``ugal_seconds`` is the best any such router could do: the optimum split
of every job's bytes over its minimal route and its Valiant routes through each other group,
with perfect global knowledge. Real UGAL decides on local queue lengths and reaches less, so the
figure is an optimistic baseline for what hardware adaptivity could give, not a simulation:
SimGrid's dragonflies route minimally only (docs/model.md).
"""

from __future__ import annotations

import numpy as np

from .. import _core
from . import colgen
from .master import PathMaster
from .planners import _weights

# Column generation stops at this relative gap between the master and its dual bound.
GAP = 1e-6
MAX_ITERATIONS = 500


def valiant_routes(workload) -> list[list[tuple[int, ...]]]:
    """Per job, its minimal route first, then one route through each group other than its own
    two: minimally to the router where the source group's global link lands in that group, and
    from there minimally on (the route to a host of that router without its last link, joined to
    that host's route without its first)."""
    net, routing = workload.network, workload.routing
    fly = net.dragonfly
    if fly is None:
        raise _core.Error(f"the UGAL baseline needs a dragonfly (got '{net.spec}')")
    nodes, routers, chassis = fly.nodes, fly.routers, fly.chassis

    def group(host: int) -> int:
        return host // (nodes * routers * chassis)

    def landing_host(from_group: int, via: int) -> int:
        # SimGrid joins blade `via` of from_group's chassis 0 to blade `from_group` of via's chassis 0.
        return (via * chassis * routers + from_group) * nodes

    out = []
    for j in workload.jobs:
        routes = [tuple(routing.route(j.src, j.dst))]
        gs, gd = group(j.src), group(j.dst)
        if j.src != j.dst and gs != gd:
            for g in range(fly.groups):
                if g in (gs, gd):
                    continue
                h = landing_host(gs, g)
                first, rest = routing.route(j.src, h), routing.route(h, j.dst)
                routes.append(tuple(first[:-1]) + tuple(rest[1:]))
        out.append(routes)
    return out


def ugal_seconds(workload, progress=None) -> float:
    """The ideal adaptive router's time for the workload's bytes (see the module's text): column
    generation over the routes of ``valiant_routes``, from the minimal ones."""
    net = workload.network
    active = [i for i, j in enumerate(workload.jobs) if j.bytes > 0 and j.src != j.dst]
    if not active:
        return 0.0
    routes = valiant_routes(workload)
    lists = [routes[i] for i in active]
    job_bytes = np.array([workload.jobs[i].bytes for i in active], dtype=float)
    scale = float(job_bytes.max())
    capacity = np.array(net.capacities, dtype=float)
    master = PathMaster(job_bytes / scale, capacity / capacity.max(), None)
    for row, paths in enumerate(lists):
        master.add_column(row, paths[0])
    # Every route's links end to end, so pricing all of them is one cumulative sum.
    flat = np.array([l for paths in lists for p in paths for l in p], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum([len(p) for paths in lists for p in paths])])
    job_starts = np.concatenate([[0], np.cumsum([len(paths) for paths in lists])])

    def price(y, z):
        sums = np.concatenate([[0.0], np.cumsum(_weights(net.num_links, y)[flat])])
        cost = sums[starts[1:]] - sums[starts[:-1]]
        out = []
        for row, paths in enumerate(lists):
            segment = cost[job_starts[row]:job_starts[row + 1]]
            best = int(np.argmin(segment))
            out.append((float(segment[best]), paths[best], (), ()))
        return out

    result = colgen.solve(master, price, GAP, MAX_ITERATIONS, progress, "ugal")
    return result.value * scale / float(capacity.max())
