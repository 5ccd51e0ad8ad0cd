"""Run planners on one workload and collect their plans, timings and metrics."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from . import _core

METRIC_KEYS = (
    "paths", "paths_per_job_max", "paths_per_job_avg", "paths_per_link_max", "paths_per_link_avg",
    "link_bytes_max", "hops_max", "hops_avg", "total_bytes", "predicted_seconds", "predicted_throughput",
)


@dataclass
class PlannerOptions:
    k: int = 50
    hop_bound: int = -1
    maxload: int = 16
    chunk: int = 64 * 1024


@dataclass
class Result:
    planner: str
    seconds: float  # planning time, including candidate generation where the planner needs it
    plan: _core.Plan
    metrics: _core.Metrics
    extra: dict = field(default_factory=dict)

    def metrics_dict(self) -> dict:
        return {key: getattr(self.metrics, key) for key in METRIC_KEYS}


def check_planner_names(names: list[str]) -> None:
    known = _core.planner_names()
    for name in names:
        if name not in known:
            raise _core.Error(f"unknown planner '{name}' (known: {', '.join(known)})")
    if not names:
        raise _core.Error("no planner given")


def run_planners(workload, names: list[str], options: PlannerOptions, progress=None) -> list[Result]:
    """Plan ``workload`` with each planner; candidate paths are generated once and shared.

    Each planner's ``seconds`` includes the candidate generation it relied on, so timings are
    comparable with the thesis' path-searching times.
    """
    check_planner_names(names)
    if options.k < 1:
        raise _core.Error(f"k must be at least 1, got {options.k}")
    candidates = None
    results = []
    for name in names:
        if progress:
            progress.note(f"planning with {name}")
        extra_seconds = 0.0
        if _core.planner_needs_candidates(name):
            if candidates is None:
                candidates = _core.generate_candidates(workload.topology, workload.jobs, options.k,
                                                       options.hop_bound, progress)
            extra_seconds = candidates.seconds
        start = time.perf_counter()
        plan = _core.make_plan(name, workload.topology, workload.routing, workload.jobs, k=options.k,
                               hop_bound=options.hop_bound, maxload=options.maxload, chunk=options.chunk,
                               candidates=candidates, progress=progress)
        seconds = time.perf_counter() - start + extra_seconds
        _core.validate_plan(plan, workload.topology)
        results.append(Result(name, seconds, plan, _core.compute_metrics(plan, workload.topology)))
    return results
