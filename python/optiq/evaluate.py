"""Run planners on one workload and collect their plans, timings, metrics and bounds."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from . import _core
from .metrics import METRIC_KEYS, PlanMetrics  # noqa: F401 (METRIC_KEYS: part of this module's interface)


@dataclass
class PlannerOptions:
    k: int = 50                    # heu1, heu2, opt: candidate paths per job
    hop_bound: int = -1            # -1: diameter for candidates; no bound for optimal and mcf
    maxload: int = 16              # heu1
    chunk: int = 64 * 1024         # heu2
    epsilon: float = 0.02          # mcf: target gap to its bound
    gap: float = 1e-6              # opt, optimal: column generation stops at this gap
    min_path_bytes: int = 64 * 1024  # opt, optimal, mcf, maxflow
    max_paths: int | None = None   # opt, optimal, mcf, maxflow
    forward_bandwidth: float | None = None  # opt, optimal, mcf: bytes/s a node can relay
    max_proxies: int | None = None  # mcf: forwarding endpoints per path (None: no limit)


@dataclass
class Result:
    """One planner's plan for a workload, its metrics and, for optimising planners, its bound.

    ``bound_seconds`` is a proven lower bound on ``metrics.predicted_seconds`` of any plan the
    planner could have made, in the same model (links, and relaying nodes when their rate is
    limited); ``bound`` is that time at the network's largest link capacity (its link bandwidth
    when all links are alike), which without a forwarding limit is a lower bound on the busiest
    link's bytes. ``gap`` is
    ``1 - bound_seconds / metrics.predicted_seconds``.
    """

    planner: str
    seconds: float  # planning time, including candidate generation where the planner needs it
    plan: _core.Plan
    metrics: PlanMetrics
    bound_seconds: float | None = None
    bound: float | None = None
    gap: float | None = None
    extra: dict = field(default_factory=dict)

    def metrics_dict(self) -> dict:
        return self.metrics.as_dict()

    def json(self) -> dict:
        out = {"planner": self.planner, "seconds": self.seconds, "metrics": self.metrics_dict()}
        if self.bound is not None:
            out["bound"] = self.bound
            out["bound_seconds"] = self.bound_seconds
            out["gap"] = self.gap
        return out


# The LP planners load numpy and HiGHS, half a second at every start of the command line
# otherwise: they are imported when one of them runs.
def _lp_options(o: PlannerOptions):
    from .lp.planners import LpOptions

    return LpOptions(k=o.k, hop_bound=o.hop_bound, min_path_bytes=o.min_path_bytes, max_paths=o.max_paths,
                     forward_bandwidth=o.forward_bandwidth, gap=o.gap)


def _core_planner(name):
    def run(workload, o, candidates, progress):
        plan = _core.make_plan(name, workload.network, workload.routing, workload.jobs, k=o.k, hop_bound=o.hop_bound,
                               maxload=o.maxload, chunk=o.chunk, candidates=candidates, progress=progress)
        return plan, {}
    return run


def _mcf(workload, o, candidates, progress):
    r = _core.plan_mcf(workload.network, workload.routing, workload.jobs, epsilon=o.epsilon, hop_bound=o.hop_bound,
                       min_path_bytes=o.min_path_bytes, max_paths=o.max_paths or 0,
                       forward_bandwidth=o.forward_bandwidth or 0.0,
                       max_proxies=-1 if o.max_proxies is None else o.max_proxies, progress=progress)
    return r.plan, {"bound_seconds": r.bound_seconds, "iterations": r.iterations,
                    "constraint_cost": r.plan_seconds / r.flow_seconds - 1 if r.flow_seconds > 0 else 0.0}


def _maxflow(workload, o, candidates, progress):
    plan = _core.plan_maxflow(workload.network, workload.routing, workload.jobs, min_path_bytes=o.min_path_bytes,
                              max_paths=o.max_paths or 0, progress=progress)
    return plan, {}


def _opt(workload, o, candidates, progress):
    from .lp.planners import plan_opt

    return plan_opt(workload, _lp_options(o), candidates, progress)


def _optimal(workload, o, candidates, progress):
    from .lp.planners import plan_optimal

    return plan_optimal(workload, _lp_options(o), progress)


# name -> (runner, uses shared k-shortest candidates)
PLANNERS = {
    "default": (_core_planner("default"), False),
    "heu1": (_core_planner("heu1"), True),
    "heu2": (_core_planner("heu2"), True),
    "opt": (_opt, True),
    "optimal": (_optimal, False),
    "mcf": (_mcf, False),
    "maxflow": (_maxflow, False),
}


def planner_names() -> list[str]:
    return list(PLANNERS)


def check_planner_names(names: list[str]) -> None:
    for name in names:
        if name not in PLANNERS:
            raise _core.Error(f"unknown planner '{name}' (known: {', '.join(PLANNERS)})")
    if not names:
        raise _core.Error("no planner given")


def check_options(o: PlannerOptions) -> None:
    if o.k < 1:
        raise _core.Error(f"k must be at least 1, got {o.k}")
    if not 0 < o.epsilon < 1:
        raise _core.Error(f"epsilon must be in (0, 1), got {o.epsilon}")
    if not 0 <= o.gap < 1:
        raise _core.Error(f"gap must be in [0, 1), got {o.gap}")
    if o.max_paths is not None and o.max_paths < 1:
        raise _core.Error(f"max-paths must be at least 1, got {o.max_paths}")
    if o.max_proxies is not None and o.max_proxies < 0:
        raise _core.Error(f"max-proxies must be at least 0, got {o.max_proxies}")
    if o.max_proxies is not None and o.hop_bound >= 0:
        raise _core.Error("--max-proxies and --hop-bound cannot be combined; choose one")
    if o.forward_bandwidth is not None and not o.forward_bandwidth > 0:
        raise _core.Error(f"forward bandwidth must be positive, got {o.forward_bandwidth}")


def run_planners(workload, names: list[str], options: PlannerOptions, progress=None) -> list[Result]:
    """Plan ``workload`` with each planner; candidate paths are generated once and shared.

    Each planner's ``seconds`` includes the candidate generation it relied on, so timings are
    comparable with the thesis' path-searching times.
    """
    check_planner_names(names)
    check_options(options)
    candidates = None
    results = []
    for name in names:
        if progress:
            progress.note(f"planning with {name}")
        runner, uses_candidates = PLANNERS[name]
        extra_seconds = 0.0
        if uses_candidates:
            if candidates is None:
                candidates = _core.generate_candidates(workload.network, workload.routing, workload.jobs, options.k,
                                                       options.hop_bound, progress)
            extra_seconds = candidates.seconds
        start = time.perf_counter()
        plan, info = runner(workload, options, candidates, progress)
        seconds = time.perf_counter() - start + extra_seconds
        _core.validate_plan(plan, workload.network)
        results.append(_result(name, seconds, plan, workload.network, options, info))
    return results


def _result(name: str, seconds: float, plan, network, options: PlannerOptions, info: dict) -> Result:
    metrics = PlanMetrics(plan, network, options.forward_bandwidth)
    bound_seconds = info.pop("bound_seconds", None)
    if bound_seconds is None:
        return Result(name, seconds, plan, metrics, extra=info)
    predicted = metrics.predicted_seconds
    gap = max(0.0, 1.0 - bound_seconds / predicted) if predicted > 0 else 0.0
    capacity = max(network.capacities, default=0.0)
    return Result(name, seconds, plan, metrics, bound_seconds, bound_seconds * capacity, gap, info)
