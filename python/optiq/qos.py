"""Planning with traffic classes (docs/qos.md): every job carries a priority, 0 the most urgent.

Two rules, both in the fluid model the planners optimise (a link moves its capacity in bytes
per second; a plan's time is its busiest link's bytes over that link's capacity):

* ``lexicographic``: classes are planned one after another, most urgent first. Each link serves
  the bytes of more urgent classes before any of a less urgent one (strict priority), so class
  k is done on link l once all bytes of classes 0..k on l have crossed it, and class k's time is
  ``T_k = max_l (sum_{i<=k} b_il) / c_l``. Class 0 is planned alone (its optimum alone); class k
  is planned behind the bytes of the earlier classes (PlannerOptions.link_preload), so its plan
  minimises T_k given theirs. A bulk job thus uses a link fully once the urgent bytes on it are
  gone. Because the earlier classes' link bytes plus the bulk part of a joint plan is a feasible
  choice, the last class's time is at most T_0 plus the joint plan's time (for the exact
  planners; mcf within its certified gap).
* ``weighted``: weighted max concurrent flow. Every class k has a weight w_k; all jobs run at
  once, job j of class k at a rate proportional to w_k times its bytes, and the plan maximises
  the common factor: the planners minimise the busiest link's weight-scaled load
  ``S = max_l sum_j (w_j / w_max) b_jl / c_l``, and class k then finishes at ``S w_max / w_k``
  (a lighter class is done sooner where the runtime gives it the capacity heavier classes leave
  when they finish: these times are upper bounds for all but the heaviest class).
"""

from __future__ import annotations

import dataclasses
import math
import time

from . import _core
from .evaluate import Result, _result, check_planner_names, run_planners

MODES = ("lexicographic", "weighted")


def default_weight(priority: int) -> float:
    """A class's weight unless the user gives one: each class twice the share of the next."""
    return 2.0 ** -priority


@dataclasses.dataclass
class ClassResult:
    """One class of a plan: its jobs and bytes, and when it completes in the mode's model."""

    priority: int
    jobs: int
    bytes: int
    predicted_seconds: float
    weight: float | None = None         # weighted mode
    bound_seconds: float | None = None  # lexicographic mode, planners that prove one

    def json(self) -> dict:
        out = {"jobs": self.jobs, "bytes": self.bytes, "predicted_seconds": self.predicted_seconds}
        if self.weight is not None:
            out["weight"] = self.weight
        if self.bound_seconds is not None:
            out["bound_seconds"] = self.bound_seconds
        return out


def parse_weights(text: str | None) -> dict[int, float]:
    """``"0=4,1=1"``: a weight per priority, every weight positive and finite."""
    weights: dict[int, float] = {}
    if not text:
        return weights
    for item in text.split(","):
        key, sep, value = item.partition("=")
        try:
            priority, weight = int(key), float(value)
        except ValueError:
            priority, weight = -1, math.nan
        if not sep or not 0 <= priority <= _core.MAX_PRIORITY or not (0 < weight < math.inf):
            raise _core.Error(f"--class-weights: bad entry '{item}' (expected PRIORITY=WEIGHT, a priority from 0 to "
                              f"{_core.MAX_PRIORITY} and a positive weight)")
        if priority in weights:
            raise _core.Error(f"--class-weights: priority {priority} given twice")
        weights[priority] = weight
    return weights


def classes_of(jobs) -> list[int]:
    return sorted({j.priority for j in jobs})


def _class_workload(workload, jobs):
    return dataclasses.replace(workload, jobs=jobs)


def _merged(workload, planner: str, plans_by_job: dict[int, object]):
    jobs = [plans_by_job.get(i, _core.JobPlan(j, [])) for i, j in enumerate(workload.jobs)]
    plan = _core.Plan(workload.network.spec, workload.routing.name, planner, jobs)
    _core.validate_plan(plan, workload.network)
    return plan


def _add_loads(preload: list[float], plan, network) -> None:
    for link, b in enumerate(_core.link_loads(plan, network)):
        preload[link] += b


def plan_lexicographic(workload, planner: str, options, progress=None) -> tuple[Result, list[ClassResult]]:
    net = workload.network
    preload = [0.0] * net.num_links
    plans_by_job: dict[int, object] = {}
    classes = []
    seconds = 0.0
    for priority in classes_of(workload.jobs):
        members = [i for i, j in enumerate(workload.jobs) if j.priority == priority]
        if progress:
            progress.note(f"class {priority}: {len(members)} jobs behind {sum(preload) / 1e6:.2f} MB of earlier classes")
        class_options = options.copy()
        class_options.link_preload = list(preload) if any(preload) else []
        result = run_planners(_class_workload(workload, [workload.jobs[i] for i in members]), [planner],
                              class_options, progress)[0]
        seconds += result.seconds
        for i, jp in zip(members, result.plan.jobs):
            plans_by_job[i] = jp
        predicted = _core.preloaded_seconds(result.plan, net, preload)
        _add_loads(preload, result.plan, net)
        classes.append(ClassResult(priority, len(members), sum(workload.jobs[i].bytes for i in members), predicted,
                                   bound_seconds=result.bound_seconds))
    plan = _merged(workload, planner, plans_by_job)
    return _result(planner, seconds, plan, net, options, {}), classes


def plan_weighted(workload, planner: str, options, weights: dict[int, float],
                  progress=None) -> tuple[Result, list[ClassResult]]:
    net = workload.network
    present = classes_of(workload.jobs)
    w = {p: weights[p] if weights else default_weight(p) for p in present}
    top = max(w.values())
    # Demands scaled by weight: the planners' min-max of scaled load is the weighted max
    # concurrent flow. A job keeps at least one scaled byte so that it is routed at all.
    scaled = [_core.Job(j.src, j.dst, max(1, round(j.bytes * w[j.priority] / top)) if j.bytes else 0)
              for j in workload.jobs]
    result = run_planners(_class_workload(workload, scaled), [planner], options, progress)[0]
    plans_by_job = {}
    for i, (job, jp) in enumerate(zip(workload.jobs, result.plan.jobs)):
        if job.bytes == 0:
            continue
        split = _core.split_by_shares(job.bytes, [float(s.bytes) for s in jp.paths])
        plans_by_job[i] = _core.JobPlan(job, [_core.PathShare(list(s.links), b) for s, b in zip(jp.paths, split) if b])
    plan = _merged(workload, planner, plans_by_job)
    # The weight-scaled busiest link of the plan in whole bytes.
    scaled_load = [0.0] * net.num_links
    for jp in plan.jobs:
        for share in jp.paths:
            for link in share.links:
                scaled_load[link] += share.bytes * w[jp.job.priority] / top
    s = max((b / net.capacity(link) for link, b in enumerate(scaled_load) if b > 0), default=0.0)
    classes = [ClassResult(p, sum(1 for j in workload.jobs if j.priority == p),
                           sum(j.bytes for j in workload.jobs if j.priority == p), s * top / w[p], weight=w[p])
               for p in present]
    return _result(planner, result.seconds, plan, net, options, {}), classes


def plan_with_classes(workload, planners: list[str], options, mode: str, weights: dict[int, float] | None = None,
                      progress=None) -> list[tuple[Result, list[ClassResult]]]:
    """Each planner's plan of ``workload`` under the class rule ``mode``, with per-class results."""
    check_planner_names(planners)
    if mode not in MODES:
        raise _core.Error(f"unknown QoS rule '{mode}' (known: {', '.join(MODES)})")
    if options.forward_bandwidth > 0:
        raise _core.Error("--qos plans count links only: it cannot be combined with --forward-bandwidth")
    weights = weights or {}
    if mode == "weighted":
        missing = [p for p in classes_of(workload.jobs) if weights and p not in weights]
        if missing:
            raise _core.Error(f"--class-weights gives no weight for priority {missing[0]}, which the workload uses")
    else:
        if weights:
            raise _core.Error("--class-weights applies to --qos weighted only")
        for name in planners:
            if name in ("heu1", "maxflow"):
                raise _core.Error(f"planner {name} cannot plan behind other classes' bytes: --qos lexicographic "
                                  "takes default, heu2, mcf, opt or optimal")
    out = []
    for name in planners:
        start = time.perf_counter()
        if mode == "lexicographic":
            result, classes = plan_lexicographic(workload, name, options, progress)
        else:
            result, classes = plan_weighted(workload, name, options, weights, progress)
        result.seconds = time.perf_counter() - start
        out.append((result, classes))
    return out


__all__ = ["MODES", "ClassResult", "default_weight", "parse_weights", "plan_with_classes"]
