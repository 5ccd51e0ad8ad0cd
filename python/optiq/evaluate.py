"""Run planners on one workload and collect their plans, timings, metrics and bounds."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from . import _core, memory
from .metrics import METRIC_KEYS, PlanMetrics  # noqa: F401 (METRIC_KEYS: part of this module's interface)


# Every planner's options: the core's struct, at the defaults of its records
# (include/optiq/core/options.hpp); optiq.options builds it from command-line values.
PlannerOptions = _core.PlannerOptions


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
    peak_mb: float | None = None  # resident memory's high-water mark during the run (optiq.memory)

    def metrics_dict(self) -> dict:
        return self.metrics.as_dict()

    def json(self) -> dict:
        out = {"planner": self.planner, "seconds": self.seconds, "metrics": self.metrics_dict()}
        if self.peak_mb is not None:
            out["peak_mb"] = self.peak_mb
        if self.bound is not None:
            out["bound"] = self.bound
            out["bound_seconds"] = self.bound_seconds
            out["gap"] = self.gap
        return out


def _core_planner(name):
    def run(workload, options, candidates):
        r = _core.make_plan(name, workload.network, workload.routing, workload.jobs, options, candidates)
        info = dict(r.extras)
        if r.bounded:
            info["bound_seconds"] = r.bound_seconds
        return r.plan, info
    return run


# The LP planners load numpy and HiGHS, half a second at every start of the command line
# otherwise: they are imported when one of them runs.
def _opt(workload, options, candidates):
    from .lp.planners import plan_opt

    return plan_opt(workload, options, candidates)


def _optimal(workload, options, candidates):
    from .lp.planners import plan_optimal

    return plan_optimal(workload, options)


# name -> (runner, uses shared k-shortest candidates): the core's planners, then the LP ones.
PLANNERS = {name: (_core_planner(name), _core.planner_needs_candidates(name)) for name in _core.planner_names()}
PLANNERS.update({"opt": (_opt, True), "optimal": (_optimal, False)})


def planner_names() -> list[str]:
    return list(PLANNERS)


def check_planner_names(names: list[str]) -> None:
    for name in names:
        if name not in PLANNERS:
            raise _core.Error(f"unknown planner '{name}' (known: {', '.join(PLANNERS)})")
    if not names:
        raise _core.Error("no planner given")


def run_planners(workload, names: list[str], options: PlannerOptions, progress=None) -> list[Result]:
    """Plan ``workload`` with each planner; candidate paths are generated once and shared.

    Each planner's ``seconds`` includes the candidate generation it relied on, so timings are
    comparable with the thesis' path-searching times.
    """
    check_planner_names(names)
    options.check()
    options = options.copy()
    if progress is not None:
        options.progress = progress
    candidates = None
    results = []
    for name in names:
        if progress:
            progress.note(f"planning with {name}")
        runner, uses_candidates = PLANNERS[name]
        memory.start()
        extra_seconds = 0.0
        if uses_candidates:
            if candidates is None:
                candidates = _core.generate_candidates(workload.network, workload.routing, workload.jobs, options.k,
                                                       options.hop_bound, progress)
            extra_seconds = candidates.seconds
        start = time.perf_counter()
        plan, info = runner(workload, options, candidates)
        seconds = time.perf_counter() - start + extra_seconds
        peak = memory.peak_mb()
        _core.validate_plan(plan, workload.network)
        results.append(_result(name, seconds, plan, workload.network, options, info))
        results[-1].peak_mb = peak
    return results


def _result(name: str, seconds: float, plan, network, options: PlannerOptions, info: dict) -> Result:
    metrics = PlanMetrics(plan, network, options.forward_bandwidth or None)
    bound_seconds = info.pop("bound_seconds", None)
    if bound_seconds is None:
        return Result(name, seconds, plan, metrics, extra=info)
    predicted = metrics.predicted_seconds
    if options.link_preload:  # the bound is on the time behind the other classes' bytes
        predicted = max(predicted, _core.preloaded_seconds(plan, network, options.link_preload))
    gap = max(0.0, 1.0 - bound_seconds / predicted) if predicted > 0 else 0.0
    capacity = max(network.capacities, default=0.0)
    return Result(name, seconds, plan, metrics, bound_seconds, bound_seconds * capacity, gap, info)
