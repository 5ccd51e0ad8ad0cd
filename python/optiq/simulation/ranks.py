"""Simulated exchanges between ranks, several per node, planned inside the simulated application.

The node-level simulation (:mod:`optiq.simulation.experiment`) plans here and hands the driver a
plan file per planner, one rank per node. An application's exchange is between ranks, several
on a node, and the runtime plans it itself when it is first called: the way it groups the rank
pairs (one planned job per rank pair, or one per pair of nodes under node aggregation) is part
of what is measured. So each run here gives the driver the rank-level request file and a
planner; the runtime plans, schedules and moves the bytes in simulation, and reports its own
prediction of the plan it made. The MPI baseline moves the same rank-level exchange.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from .. import _core, options
from ..metrics import PlanMetrics
from ..textfile import read_requests
from . import platform as plat
from . import smpi
from .experiment import MPI, P2P_ABOVE, VERIFY_LIMIT, Setup


def node_jobs(jobs: list, ranks_per_node: int, network: _core.Network) -> list:
    """The rank jobs as jobs between the nodes they run on (rank r on the (r // R)-th endpoint),
    without those inside one node, which never reach the network."""
    ends = network.endpoints
    out = []
    for j in jobs:
        a, b = ends[j.src // ranks_per_node], ends[j.dst // ranks_per_node]
        if a != b and j.bytes > 0:
            out.append(_core.Job(a, b, j.bytes))
    return out


def default_route_seconds(s: Setup, network: _core.Network, jobs: list, ranks_per_node: int) -> float:
    """The exchange's time on the network's own routes in the fluid model: MPI's prediction."""
    routing = _core.make_routing(s.planning_routing(), network)
    work = node_jobs(jobs, ranks_per_node, network)
    if not work:
        return 0.0
    plan = _core.make_plan("default", network, routing, work).plan
    return PlanMetrics(plan, network, None, s.charged_copy_bandwidth()).predicted_seconds


def simulate_ranks(s: Setup, planners: list, ranks_per_node: int, note=None) -> list:
    """MPI_Alltoallv and optiq with each planner on ``s.requests`` (jobs between ranks, R per
    node); one result dict per run, as :func:`optiq.simulation.experiment.simulate` gives, with
    the runtime's own ``predicted_seconds`` and ``aggregated_operations``."""
    if not s.requests:
        raise _core.Error("a simulation with several ranks per node needs --requests FILE (jobs between ranks)")
    if s.background.active:
        raise _core.Error("a simulation with several ranks per node cannot also run background traffic")
    net = plat.simulated_network(s.topology, s.link_bandwidth)
    ranks = net.num_endpoints * ranks_per_node
    jobs = read_requests(s.requests, ranks)
    total = sum(j.bytes for j in jobs)
    if total == 0:
        raise _core.Error(f"{s.requests}: no job moves a byte")
    verify = s.verify if s.verify is not None else total <= VERIFY_LIMIT
    given = {k: v for k, v in s.runtime.items() if k not in ("planner", "routing")}
    given["ranks-per-node"] = ranks_per_node
    results = []
    with tempfile.TemporaryDirectory(prefix="optiq-sim-") as tmp:
        requests = Path(tmp) / "requests.txt"
        requests.write_text("".join(f"{j.src} {j.dst} {j.bytes}\n" for j in jobs), encoding="utf-8")
        platform, hosts = plat.write_platform(net, Path(tmp) / "platform.xml", s.latency, s.link_bandwidth,
                                              ranks_per_node)
        base = (["--topology", net.spec, "--routing", s.planning_routing()] + options.tool_arguments("runtime", given)
                + ["--iterations", str(s.iterations), "--warmup", "1", "--requests", str(requests)]
                + ([] if verify else ["--shared-buffers"]))
        costs = smpi.cpu_cost_settings(s.copy_bandwidth, s.message_overhead)
        for name in [MPI] + list(planners):
            if note:
                note(f"simulating {name} on {ranks} ranks")
            if name == MPI:
                p2p = s.mpi_call == "p2p" or (s.mpi_call == "auto" and ranks > P2P_ABOVE)
                extra = ["--only", "mpi"] + (["--mpi-p2p"] if p2p else [])
            else:
                extra = ["--only", "optiq", "--planner", name]
            r = smpi.run_driver(ranks, platform, hosts, base + extra, s.timeout, costs)
            if r.get("bytes") != total:
                raise _core.Error(f"the simulation moved {r.get('bytes')} bytes, not the {total} of {s.requests}")
            key = "mpi_alltoallv_seconds" if name == MPI else "optiq_seconds"
            seconds = r[key]["median"]
            predicted = (default_route_seconds(s, net, jobs, ranks_per_node) if name == MPI
                         else r["predicted_seconds"])
            results.append({
                "planner": name,
                "simulated_seconds": seconds,
                "throughput": total / seconds if seconds > 0 else 0.0,
                "predicted_seconds": predicted,
                "wall_seconds": r["wall_seconds"],
                "verified": r["verified"],
                "forwarded_bytes": r["forwarded_bytes"],
                "plan_seconds": r["plan_seconds"],
                "aggregated_operations": r["aggregated_operations"],
                "planned_jobs": r["planned_jobs"],
                "planned_paths": r["planned_paths"],
                "most_paths": r["most_paths"],
                "ranks": ranks,
                "ranks_per_node": ranks_per_node,
            })
            if name == MPI:
                results[-1]["mpi_call"] = r["mpi_call"]
    return results
