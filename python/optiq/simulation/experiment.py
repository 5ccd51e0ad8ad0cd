"""One simulated comparison: MPI_Alltoallv and optiq (one run per planner) on a SimGrid platform.

Online planners of the core run inside the simulated application, exactly as an application
calls optiq_alltoallv (per-call agreement, direct sends below the threshold). Planners that
only exist in Python (opt, optimal) plan here and the simulation executes their plan file.
Each run's fluid prediction comes from planning the same jobs with the same planner here.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .. import _core
from ..evaluate import PlannerOptions, run_planners
from ..workload import Workload
from . import platform as plat
from . import smpi

MPI = "mpi_alltoallv"


@dataclass
class Setup:
    topology: str                  # the user's spec; the simulated machine is simulated_topology(spec)
    pattern: str = "disjoint"
    bytes: str = "8MiB"
    sources: int = -1
    dests: int = -1
    start_src: int = -1
    start_dst: int = -1
    seed: int = 0
    transport: str = "p2p"
    chunk: str = "0"
    threshold: str = "16KiB"
    budget: str = "16MiB"
    max_inflight: int = 32
    iterations: int = 1
    verify: bool | None = None     # None: check bytes when the exchange is small enough to hold in memory
    latency: float = 5e-8
    link_bandwidth: float = 1.8e9
    timeout: float = 3600
    mpi_call: str = "auto"         # alltoallv, p2p, or auto: MPI_Alltoallv up to P2P_ABOVE ranks
    options: PlannerOptions = field(default_factory=PlannerOptions)


# Above this many ranks the baseline posts MPI_Alltoallv's non-empty messages itself: SMPI's
# MPI_Alltoallv sends all P^2 messages, empty ones included, and simulating 1M of them per call
# costs many minutes of wall clock but no simulated time (tests/python/test_simulation.py
# checks that both take the same simulated time).
P2P_ABOVE = 128
VERIFY_LIMIT = 1 << 30  # bytes moved per call above which buffers are shared (unchecked) by default


def _workload(s: Setup, topo) -> Workload:
    routing = _core.make_routing(plat.ROUTING, topo)
    pairs = _core.named_pattern(s.pattern, topo.num_nodes, s.sources, s.dests, s.start_src, s.start_dst, s.seed)
    return Workload(topo, routing, _core.assign_sizes(pairs, s.bytes, s.seed), s.pattern)


def _with_threshold(plan, default_plan, threshold: int):
    """The plan the runtime executes: jobs below the threshold go by the default route."""
    if threshold <= 0:
        return plan
    jobs = [d if d.job.bytes < threshold else p for p, d in zip(plan.jobs, default_plan.jobs)]
    return _core.Plan(plan.topology, plan.routing, plan.planner, jobs)


def predictions(s: Setup, planners: list, progress=None) -> dict:
    """Plans (and their metrics) for each planner on the simulated machine, threshold applied."""
    topo = plat.simulated_topology(s.topology, s.link_bandwidth)
    work = _workload(s, topo)
    names = list(dict.fromkeys(["default"] + list(planners)))
    results = {r.planner: r for r in run_planners(work, names, s.options, progress)}
    threshold = _core.parse_bytes(s.threshold)
    out = {}
    for name in names:
        plan = results[name].plan
        if name != "default":
            plan = _with_threshold(plan, results["default"].plan, threshold)
        out[name] = (plan, _core.compute_metrics(plan, topo))
    return out


def _driver_args(s: Setup, topo, total_bytes: int) -> list:
    verify = s.verify if s.verify is not None else total_bytes <= VERIFY_LIMIT
    args = ["--topology", topo.spec, "--routing", plat.ROUTING, "--transport", s.transport, "--chunk", s.chunk,
            "--threshold", s.threshold, "--budget", s.budget,
            "--max-inflight", str(s.max_inflight), "--iterations", str(s.iterations), "--warmup", "1"]
    return args + ([] if verify else ["--shared-buffers"])


def _pattern_args(s: Setup) -> list:
    args = ["--pattern", s.pattern, "--bytes", s.bytes, "--seed", str(s.seed)]
    for flag in ("sources", "dests", "start_src", "start_dst"):
        value = getattr(s, flag)
        if value >= 0:
            args += ["--" + flag.replace("_", "-"), str(value)]
    return args


def simulate(s: Setup, planners: list, progress=None, note=None) -> list:
    """Runs MPI_Alltoallv and optiq with each planner; one result dict per run."""
    topo = plat.simulated_topology(s.topology, s.link_bandwidth)
    predicted = predictions(s, planners, progress)
    total = int(predicted["default"][1].total_bytes)
    results = []
    with tempfile.TemporaryDirectory(prefix="optiq-sim-") as tmp:
        platform, hosts = plat.write_platform(topo, Path(tmp) / "platform.xml", s.latency, s.link_bandwidth)
        base = _driver_args(s, topo, total)
        for name in [MPI] + list(planners):
            if note:
                note(f"simulating {name} on {topo.num_nodes} ranks")
            if name == MPI:
                p2p = s.mpi_call == "p2p" or (s.mpi_call == "auto" and topo.num_nodes > P2P_ABOVE)
                extra = _pattern_args(s) + ["--only", "mpi"] + (["--mpi-p2p"] if p2p else [])
                metrics = predicted["default"][1]
            elif name in _core.planner_names():
                extra = _pattern_args(s) + ["--planner", name, "--only", "optiq"]
                metrics = predicted[name][1]
            else:
                plan_file = Path(tmp) / f"{name}.json"
                _core.save_plan(predicted[name][0], topo, str(plan_file))
                extra = ["--plan", str(plan_file), "--only", "optiq"]
                metrics = predicted[name][1]
            r = smpi.run_driver(topo.num_nodes, platform, hosts, base + extra, s.timeout)
            key = "mpi_alltoallv_seconds" if name == MPI else "optiq_seconds"
            seconds = r[key]["median"]
            results.append({
                "planner": name,
                "simulated_seconds": seconds,
                "throughput": total / seconds if seconds > 0 else 0.0,
                "predicted_seconds": metrics.predicted_seconds,
                "wall_seconds": r["wall_seconds"],
                "verified": r["verified"],
                "link_bytes_max": metrics.link_bytes_max,
                "forwarded_bytes": r["forwarded_bytes"],
                "plan_seconds": r["plan_seconds"],
            })
            if name == MPI:
                results[-1]["mpi_call"] = r["mpi_call"]
    return results
