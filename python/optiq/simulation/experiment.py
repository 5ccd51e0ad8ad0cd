"""One simulated comparison: MPI_Alltoallv and optiq (one run per planner) on a SimGrid platform.

Every planner plans here, once, and the simulation executes that very plan: each run hands
the driver a plan file, and the run's prediction is computed from the same file. The MPI
baseline moves the jobs of the default plan. (Planning inside the simulated application would
plan again with the runtime's own settings and could execute another plan than the one whose
prediction is printed.) Jobs below the direct threshold follow the default route in every
plan, as the runtime sends them.
"""

from __future__ import annotations

import hashlib
import math
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .. import _core, options
from ..evaluate import PlannerOptions, run_planners
from ..metrics import PlanMetrics
from ..textfile import read_requests
from ..workload import Workload, check_job_ends, pattern_jobs
from . import background as bgmod
from . import platform as plat
from . import smpi
from .background import Background

MPI = "mpi_alltoallv"


@dataclass
class Setup:
    topology: str                  # the user's spec; the simulated machine is simulated_network(spec)
    routing: str | None = None     # what plans assume; None: the simulated machine's own routes
    requests: str | None = None    # a request file ("src dst bytes" lines) instead of the pattern
    pattern: str = "disjoint"
    bytes: str = "8MiB"
    sources: int = -1
    dests: int = -1
    start_src: int = -1
    start_dst: int = -1
    seed: int = 0
    hot_factor: float | None = None  # moe; None: the core's MOE_HOT_FACTOR
    # The runtime's options by record name ("transport", "chunk", "direct-threshold", ...:
    # optiq.options); one not given takes its record's default.
    runtime: dict = field(default_factory=dict)
    iterations: int = 1
    verify: bool | None = None     # None: check bytes when the exchange is small enough to hold in memory
    latency: float = options.default("simulation", "latency")
    link_bandwidth: float = options.default("simulation", "link-bandwidth")
    timeout: float = 3600
    mpi_call: str = "auto"         # alltoallv, p2p, or auto: MPI_Alltoallv up to P2P_ABOVE ranks
    planner_options: PlannerOptions = field(default_factory=PlannerOptions)
    plans_dir: str | None = None   # where to keep the executed plan files (default: a temporary directory)
    copy_bandwidth: float = smpi.COPY_BANDWIDTH      # bytes/s a forwarder copies at, charged (inf: free)
    message_overhead: float = smpi.MESSAGE_OVERHEAD  # seconds charged per message sent (SMPI's smpi/os)
    background: Background = field(default_factory=Background)  # a second job's traffic (none by default)
    plan_for_background: bool = True  # plan on what the background leaves of each link, else on full links

    def runtime_value(self, name: str):
        """A runtime option as the simulation runs it: the one given, else its record's default."""
        given = self.runtime.get(name)
        return given if given is not None else options.default("runtime", name)

    def planning_routing(self) -> str:
        """The routing model plans assume: the one given, else the simulated machine's own."""
        return self.routing or plat.routing_of(plat.simulated_network(self.topology, self.link_bandwidth))

    def charged_copy_bandwidth(self) -> float | None:
        """The copy rate predictions charge, as the simulation does (None: copies are free)."""
        return None if math.isinf(self.copy_bandwidth) else self.copy_bandwidth


# Above this many ranks the baseline posts MPI_Alltoallv's non-empty messages itself: SMPI's
# MPI_Alltoallv sends all P^2 messages, empty ones included, and simulating 1M of them per call
# costs many minutes of wall clock but no simulated time (tests/python/test_simulation.py
# checks that both take the same simulated time).
P2P_ABOVE = 128
VERIFY_LIMIT = 1 << 30  # bytes moved per call above which buffers are shared (unchecked) by default


def _routing_name(s: Setup, net) -> str:
    return s.routing or plat.routing_of(net)


def check_simulated_jobs(net, jobs: list, origin: str) -> None:
    """Simulated ranks run on the endpoints, and on the I/O nodes when a job names one (one rank
    each, after the endpoints' ranks); a switch runs none."""
    check_job_ends(net, jobs, origin)


def touches_io(net, jobs: list) -> bool:
    return any(net.kind(v) == "io" for j in jobs for v in (j.src, j.dst))


def _workload(s: Setup, net) -> Workload:
    routing = _core.make_routing(_routing_name(s, net), net)
    if s.requests:  # request files name vertices, as for optiq plan
        jobs = read_requests(s.requests, net.num_vertices)
        check_simulated_jobs(net, jobs, s.requests)
        return Workload(net, routing, jobs, s.requests)
    jobs = pattern_jobs(net, s.pattern, s.bytes, s.sources, s.dests, s.start_src, s.start_dst, s.seed, s.hot_factor)
    return Workload(net, routing, jobs, s.pattern)


def ugal_prediction(s: Setup) -> float:
    """The setup's exchange under ideal adaptive routing on its dragonfly, in seconds (fluid model:
    optiq.lp.ugal; SimGrid's dragonflies route minimally, so there is nothing to simulate)."""
    from ..lp.ugal import ugal_seconds

    return ugal_seconds(_workload(s, planning_network(s)))


def _with_threshold(plan, default_plan, threshold: int):
    """The plan the runtime executes: jobs below the threshold go by the default route."""
    if threshold <= 0:
        return plan
    jobs = [d if d.job.bytes < threshold else p for p, d in zip(plan.jobs, default_plan.jobs)]
    return _core.Plan(plan.topology, plan.routing, plan.planner, jobs)


def planning_network(s: Setup) -> _core.Network:
    """The network the planners see: the simulated machine, with the links' capacities reduced
    by the background's load when the planning knows of it."""
    net = plat.simulated_network(s.topology, s.link_bandwidth)
    if not (s.background.active and s.plan_for_background):
        return net
    # The background runs on SimGrid's own routes, whatever routing the plans assume.
    return bgmod.network_left(net, _core.make_routing(plat.routing_of(net), net), s.background)


def planning_options(s: Setup) -> PlannerOptions:
    """The planners' options: the user's, and when the simulation charges copies and no relaying
    capacity was given, the copy rate as one. The planners that model relaying (opt, optimal,
    mcf) charge it at every node a path passes, more than the runtime copies (at junctions
    only), but it makes them spread forwarding instead of piling it on a few nodes. Predictions
    charge the copies the runtime makes, whatever the planners assumed."""
    o = s.planner_options.copy()
    if o.forward_bandwidth == 0 and s.charged_copy_bandwidth() is not None:
        o.forward_bandwidth = s.charged_copy_bandwidth()
    return o


def predictions(s: Setup, planners: list, progress=None) -> dict:
    """Plans for each planner (and ``default``) on the simulated machine, threshold applied.

    Returns ``{name: (plan, metrics, planning seconds, fell back)}``; metrics are a
    :class:`optiq.metrics.PlanMetrics` in the planners' model, on the network the planners saw
    (:func:`planning_network`). A plan that does not promise min-gain less time than the
    default route is replaced by it, as the runtime does (docs/runtime.md, "When a plan is not
    worth it"); ``fell back`` says so.
    """
    net = planning_network(s)
    work = _workload(s, net)
    names = list(dict.fromkeys(["default"] + list(planners)))
    results = {r.planner: r for r in run_planners(work, names, planning_options(s), progress)}
    threshold = _core.parse_bytes(s.runtime_value("direct-threshold"))
    min_gain = s.runtime_value("min-gain")

    def metrics(plan):
        return PlanMetrics(plan, net, s.planner_options.forward_bandwidth or None, s.charged_copy_bandwidth())

    default_plan = results["default"].plan
    default_metrics = metrics(default_plan)
    out = {}
    for name in names:
        plan, m, fell_back = default_plan, default_metrics, False
        if name != "default":
            plan = _with_threshold(results[name].plan, default_plan, threshold)
            m = metrics(plan)
            if not _core.plan_gains_enough(m.predicted_seconds, default_metrics.predicted_seconds, min_gain):
                plan, m, fell_back = default_plan, default_metrics, True
        out[name] = (plan, m, results[name].seconds, fell_back)
    return out


def _driver_args(s: Setup, net, total_bytes: int) -> list:
    """The driver's command line: the runtime's options as given (optiq.options), the routing
    plans assume, and what to run. Plans come from files: the planner and min-gain stay here."""
    verify = s.verify if s.verify is not None else total_bytes <= VERIFY_LIMIT
    given = {k: v for k, v in s.runtime.items() if k not in ("planner", "routing", "min-gain")}
    args = (["--topology", net.spec, "--routing", _routing_name(s, net)] + options.tool_arguments("runtime", given)
            + ["--iterations", str(s.iterations), "--warmup", "1"])
    return args + ([] if verify else ["--shared-buffers"])


def write_plans(plans: dict, net, directory: Path) -> dict:
    """Writes every plan of :func:`predictions` to ``directory/NAME.json``.

    Returns ``{name: (path, metrics, sha256)}``: the metrics of the plan read back from its
    file, and the SHA-256 of the file's bytes, so a prediction is always that of the file. Each
    file states its prediction as the plan's ``seconds``, the time the runtime paces it to.
    """
    out = {}
    for name, (plan, metrics, _, _) in plans.items():
        path = directory / f"{name}.json"
        plan.seconds = metrics.predicted_seconds
        _core.save_plan(plan, net, str(path))
        data = path.read_bytes()
        read = _core.plan_from_json(data.decode("utf-8"), str(path))
        out[name] = (path, PlanMetrics(read, net, metrics.forward_bandwidth, metrics.copy_bandwidth),
                     hashlib.sha256(data).hexdigest())
    return out


def _check_executed(r: dict, path: Path, metrics) -> None:
    """The driver must report the plan file it was given, moving exactly that plan's bytes."""
    if r.get("plan") != str(path) or r.get("bytes") != metrics.total_bytes:
        raise _core.Error(f"the simulation executed {r.get('plan')} ({r.get('bytes')} bytes), "
                          f"not the predicted plan {path} ({metrics.total_bytes} bytes)")


def simulate(s: Setup, planners: list, progress=None, note=None) -> list:
    """Runs MPI_Alltoallv and optiq with each planner; one result dict per run.

    Each result names the plan file the driver executed (``plan_file``, kept when
    ``s.plans_dir`` is set) and its SHA-256 (``plan_sha256``); ``predicted_seconds`` is that
    file's prediction. The MPI baseline moves the jobs of ``default.json``.
    """
    net = plat.simulated_network(s.topology, s.link_bandwidth)
    ranks = net.num_endpoints
    if ranks < 2:
        raise _core.Error(f"a simulation needs at least 2 nodes, {net.spec} has {ranks}")
    predicted = predictions(s, planners, progress)
    total = int(predicted["default"][1].total_bytes)
    results = []
    with tempfile.TemporaryDirectory(prefix="optiq-sim-") as tmp:
        directory = Path(s.plans_dir) if s.plans_dir else Path(tmp)
        directory.mkdir(parents=True, exist_ok=True)
        files = write_plans(predicted, planning_network(s), directory)
        platform, hosts = plat.write_platform(net, Path(tmp) / "platform.xml", s.latency, s.link_bandwidth)
        base = _driver_args(s, net, total)
        world = ranks
        if touches_io(net, [jp.job for jp in predicted["default"][0].jobs]):  # ranks on the I/O nodes too, after the endpoints'
            if s.background.active:
                raise _core.Error("a simulation with jobs to or from I/O nodes cannot also run background traffic")
            base += ["--io-ranks"]
            world = ranks + plat.append_io_ranks(net, hosts)
        if s.background.active:  # the second job's ranks follow the job's, on its nodes
            extra_hosts = bgmod.write_flows(net, s.background, ranks, Path(tmp) / "background.txt")
            host = plat.host_namer(net)
            hosts.write_text(hosts.read_text() + "".join(f"{host(v)}\n" for v in extra_hosts))
            base += ["--job-ranks", str(ranks), "--background", str(Path(tmp) / "background.txt")]
            world = ranks + len(extra_hosts)
        for name in [MPI] + list(planners):
            if note:
                note(f"simulating {name} on {ranks} ranks")
            plan_name = "default" if name == MPI else name
            path, metrics, digest = files[plan_name]
            extra = ["--plan", str(path)]
            if name == MPI:
                p2p = s.mpi_call == "p2p" or (s.mpi_call == "auto" and ranks > P2P_ABOVE)
                extra += ["--only", "mpi"] + (["--mpi-p2p"] if p2p else [])
            else:
                extra += ["--only", "optiq"]
            r = smpi.run_driver(world, platform, hosts, base + extra, s.timeout,
                                smpi.cpu_cost_settings(s.copy_bandwidth, s.message_overhead))
            _check_executed(r, path, metrics)
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
                "planning_seconds": predicted[plan_name][2],
                "fell_back": predicted[plan_name][3],
                "plan_file": str(path) if s.plans_dir else path.name,
                "plan_sha256": digest,
            })
            if name == MPI:
                results[-1]["mpi_call"] = r["mpi_call"]
    return results
