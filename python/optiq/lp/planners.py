"""``opt`` and ``optimal``: the path LP solved exactly, then turned into whole bytes."""

from __future__ import annotations

import functools
import numpy as np

from .. import _core
from ..metrics import PlanMetrics
from . import colgen
from .master import PathMaster
from .rounding import select_columns


# optimal: gap of the mcf run that seeds column generation.
SEED_EPSILON = 0.05

# opt: besides each job's cheapest candidate, add its next cheapest ones that also price out,
# so the candidate LP needs far fewer master solves.
EXTRA_CANDIDATES = 4


class _Model:
    """The LP data of one workload: active jobs, normalised demands and capacities."""

    def __init__(self, workload, options):
        net = workload.network
        self.workload = workload
        self.active = [i for i, j in enumerate(workload.jobs) if j.bytes > 0]
        self.job_bytes = np.array([workload.jobs[i].bytes for i in self.active], dtype=np.int64)
        self.scale_bytes = float(self.job_bytes.max()) if len(self.active) else 1.0
        capacity = np.array(net.capacities, dtype=float)
        self.ref_capacity = float(capacity.max())
        self.link_weight = capacity / self.ref_capacity
        forward = None
        if options.forward_bandwidth > 0:  # 0: relaying is unlimited
            forward = options.forward_bandwidth / self.ref_capacity
        preload = np.asarray(options.link_preload, dtype=float) / self.scale_bytes if options.link_preload else None
        self.master = PathMaster(self.job_bytes / self.scale_bytes, self.link_weight, forward, preload)

    def jobs(self):
        return [self.workload.jobs[i] for i in self.active]

    def add(self, job: int, links) -> None:
        links = tuple(links)
        net = self.workload.network
        self.master.add_column(job, links, _relays(net, links))


def _relays(net, links) -> tuple:
    """The vertices that relay a path's bytes (the core's rule, optiq.relay_vertices)."""
    return tuple(_core.relay_vertices(net, list(links)))


def _weights(size: int, duals: dict[int, float]) -> np.ndarray:
    w = np.zeros(size)
    for key, value in duals.items():
        w[key] = value
    return w


def _finish(model: _Model, result: colgen.ColumnGenerationResult, name: str, options):
    net, workload = model.workload.network, model.workload
    master = model.master
    _, x, _, _, _ = master.solve()
    for _ in range(8):  # restrict to practical columns and re-optimise the split among them
        keep = select_columns(model.job_bytes, master.columns, x, options.max_paths or None, options.min_path_bytes)
        if all(x[i] <= 1e-12 or i in keep for i in range(len(x))):
            break
        master.fix_columns(keep)
        _, x, _, _, _ = master.solve()

    per_job: dict[int, list[int]] = {}
    for i, (job, _) in enumerate(master.columns):
        if x[i] > 1e-12:
            per_job.setdefault(job, []).append(i)
    plan_jobs = [_core.JobPlan(j, []) for j in workload.jobs]
    for job, cols in per_job.items():
        if options.max_paths > 0:
            cols = sorted(cols, key=lambda i: (-x[i], i))[:options.max_paths]
        split = _core.merge_small_parts(_core.split_by_shares(int(model.job_bytes[job]), [float(x[i]) for i in cols]),
                                        options.min_path_bytes)
        plan_jobs[model.active[job]].paths = [_core.PathShare(list(master.columns[i][1]), b)
                                              for i, b in zip(cols, split) if b > 0]
    plan = _core.Plan(net.spec, workload.routing.name, name, plan_jobs)
    _core.validate_plan(plan, net)

    # The master's unit: bytes at the largest link capacity (see master.py); seconds are that
    # over the capacity, the unit of PlanMetrics.predicted_seconds and of mcf's bound.
    plan_seconds = _plan_seconds(plan, net, options)
    lp_seconds = result.value * model.scale_bytes / model.ref_capacity
    info = {
        "bound_seconds": result.bound * model.scale_bytes / model.ref_capacity,
        "lp_seconds": lp_seconds,
        "lp_gap": result.gap,
        "constraint_cost": 0.0 if lp_seconds <= 0 else plan_seconds / lp_seconds - 1.0,
        "iterations": result.iterations,
        "columns": result.columns,
    }
    return plan, info


def _plan_seconds(plan, net, options) -> float:
    """The plan's fluid time in the planner's model, behind other classes' bytes if any."""
    seconds = PlanMetrics(plan, net, options.forward_bandwidth or None).predicted_seconds
    if options.link_preload:
        seconds = max(seconds, _core.preloaded_seconds(plan, net, options.link_preload))
    return seconds


def _solver_errors(name: str):
    """Whatever goes wrong inside the LP (HiGHS raising, numpy on degenerate data) leaves the
    planner as ``optiq.Error`` naming it, so front ends report it like any other failure."""
    def wrap(planner):
        @functools.wraps(planner)
        def run(*args, **kwargs):
            try:
                return planner(*args, **kwargs)
            except _core.Error:
                raise
            except Exception as e:  # noqa: BLE001 - the solver's own exceptions are not ours to list
                raise _core.Error(f"planner {name} failed in its LP solver: {type(e).__name__}: {e}") from e
        return run
    return wrap


@_solver_errors("opt")
def plan_opt(workload, options, candidates=None):
    """The thesis' model: the best split over k candidate paths per job (Yen, hop-bounded).
    ``options``: a PlannerOptions (k, hop_bound, min_path_bytes, max_paths, forward_bandwidth,
    gap, lp_iterations, progress)."""
    net = workload.network
    progress = options.progress
    model = _Model(workload, options)
    if candidates is None:
        candidates = _core.generate_candidates(net, workload.routing, workload.jobs, options.k, options.hop_bound,
                                                 progress)
    lists = [candidates.paths(i) for i in model.active]
    for job, paths in enumerate(lists):
        if not paths:
            j = model.workload.jobs[model.active[job]]
            raise _core.Error(f"job {model.active[job]} ({j.src}->{j.dst}) has no path within the hop bound "
                              f"{candidates.hop_bound}")
        model.add(job, paths[0])
    # As for optimal, single paths make a degenerate start; heu2 picks a balanced subset of the
    # same candidates in milliseconds, so the model is unchanged and column generation starts close.
    seed = _core.make_plan("heu2", net, workload.routing, workload.jobs, candidates=candidates).plan
    for job, i in enumerate(model.active):
        for share in seed.jobs[i].paths:
            model.add(job, share.links)
    # Flat arrays so pricing over all candidates is a few numpy operations.
    flat = np.array([l for paths in lists for p in paths for l in p], dtype=np.int64)
    lengths = np.array([len(p) for paths in lists for p in paths], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(lengths)])
    inner = np.array([net.link_src(l) for paths in lists for p in paths for l in p[1:]], dtype=np.int64)
    inner_starts = np.concatenate([[0], np.cumsum(np.maximum(lengths - 1, 0))])
    job_starts = np.concatenate([[0], np.cumsum([len(paths) for paths in lists])])

    def price(y, z):
        yw = _weights(net.num_links, y)
        cs = np.concatenate([[0.0], np.cumsum(yw[flat])])
        cost = cs[starts[1:]] - cs[starts[:-1]]
        if z:
            zw = _weights(net.num_vertices, z)
            zs = np.concatenate([[0.0], np.cumsum(zw[inner])])
            cost = cost + zs[inner_starts[1:]] - zs[inner_starts[:-1]]
        out = []
        for job, paths in enumerate(lists):
            seg = cost[job_starts[job]:job_starts[job + 1]]
            order = np.argsort(seg, kind="stable")[:EXTRA_CANDIDATES + 1]
            cols = [(tuple(paths[c]), _relays(net, paths[c]), float(seg[c])) for c in order]
            out.append((cols[0][2], cols[0][0], cols[0][1], cols[1:]))
        return out

    result = colgen.solve(model.master, price, options.gap, options.lp_iterations, progress, "opt")
    plan, info = _finish(model, result, "opt", options)
    info["candidate_seconds"] = candidates.seconds
    return plan, info


def _endpoint_bound(workload) -> float:
    """Seconds no plan can beat: the bytes an endpoint sends (receives) leave (enter) it over its
    own links. mcf's bound looks at sets of nodes only, and misses a hot destination."""
    net = workload.network
    out_cap, in_cap = np.zeros(net.num_vertices), np.zeros(net.num_vertices)
    for link, capacity in enumerate(net.capacities):
        out_cap[net.link_src(link)] += capacity
        in_cap[net.link_dst(link)] += capacity
    sent, received = np.zeros(net.num_vertices), np.zeros(net.num_vertices)
    for j in workload.jobs:
        if j.bytes > 0 and j.src != j.dst:
            sent[j.src] += j.bytes
            received[j.dst] += j.bytes
    with np.errstate(divide="ignore", invalid="ignore"):
        times = np.concatenate([np.where(sent > 0, sent / out_cap, 0.0), np.where(received > 0, received / in_cap, 0.0)])
    return float(times.max()) if times.size else 0.0


def _default_if_optimal(workload, options, bound_seconds: float):
    """The default route as optimal's plan when it already meets a proven lower bound (within
    the gap): column generation then has nothing to find, and on dense all-to-alls whose hot
    destinations' own links bind it would spend minutes finding so."""
    net = workload.network
    default = _core.make_plan("default", net, workload.routing, workload.jobs).plan
    if options.hop_bound >= 0 and any(len(jp.paths[0].links) > options.hop_bound
                                      for jp in default.jobs if jp.paths):
        return None
    seconds = _plan_seconds(default, net, options)
    if seconds > bound_seconds * (1 + options.gap):
        return None
    plan = _core.Plan(net.spec, workload.routing.name, "optimal", default.jobs)
    _core.validate_plan(plan, net)
    active = sum(1 for j in workload.jobs if j.bytes > 0)
    return plan, {"bound_seconds": bound_seconds, "lp_seconds": seconds,
                  "lp_gap": 0.0 if seconds <= 0 else max(0.0, 1.0 - bound_seconds / seconds),
                  "constraint_cost": 0.0, "iterations": 0, "columns": active}


@_solver_errors("optimal")
def plan_optimal(workload, options):
    """The optimum of the fluid model over every path (hop-bounded if a bound is given).
    ``options``: a PlannerOptions, as for :func:`plan_opt` but k."""
    net = workload.network
    progress = options.progress
    model = _Model(workload, options)
    jobs = model.jobs()
    for job, j in enumerate(jobs):
        model.add(job, workload.routing.route(j.src, j.dst))
    # Started from single paths the master is so degenerate that each round moves one link's
    # dual only; a rough mcf solution supplies a balanced, diverse first pool instead.
    seed_options = _core.PlannerOptions()
    seed_options.epsilon = SEED_EPSILON
    seed_options.hop_bound = options.hop_bound
    seed_options.min_path_bytes = 1
    seed_options.forward_bandwidth = options.forward_bandwidth
    seed_options.link_preload = options.link_preload
    seed = _core.make_plan("mcf", net, workload.routing, jobs, seed_options)
    shortcut = _default_if_optimal(workload, options, max(seed.bound_seconds, _endpoint_bound(workload)))
    if shortcut is not None:
        return shortcut
    for job, jp in enumerate(seed.plan.jobs):
        for share in jp.paths:
            model.add(job, share.links)

    def price(y, z):
        yw = _weights(net.num_links, y)
        zw = _weights(net.num_vertices, z) if model.master.forward_weight is not None else np.zeros(0)
        costs, paths = _core.cheapest_paths(workload.legs, jobs, yw, zw, options.hop_bound)
        return [(c, tuple(p), _relays(net, p), ()) for c, p in zip(costs, paths)]

    if options.hop_bound >= 0:
        for job, j in enumerate(jobs):
            if not 0 <= net.hop_distance(j.src, j.dst) <= options.hop_bound:
                raise _core.Error(f"job {model.active[job]} ({j.src}->{j.dst}) has no path within the hop bound "
                                  f"{options.hop_bound}")
    result = colgen.solve(model.master, price, options.gap, options.lp_iterations, progress, "optimal")
    # mcf's proven bound (its cut and proxy bounds among it) holds here too: where optimal stops
    # early its own dual bound may lie below it. Reported only: as a floor for the column
    # generation it would end the rounds before the pool holds the columns a practical plan
    # (whole bytes, path limits) needs (fat-tree 1,024 dmodk-adversarial: 8.418 ms, not 8.390).
    result.bound = min(result.value, max(result.bound, seed.bound_seconds * model.ref_capacity / model.scale_bytes))
    return _finish(model, result, "optimal", options)
