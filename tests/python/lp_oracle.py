"""Independent optima for small instances: the arc (edge) formulation of the min-congestion
multicommodity flow, solved densely with HiGHS. It shares no code with optiq's path LP."""

from __future__ import annotations

import itertools

import highspy
import numpy as np


def _arc_flows(h, topo, jobs, demand, scale_col) -> dict:
    """A flow variable per job and link, conserved at every vertex: out - in is the job's demand
    at its source, minus it at its destination, 0 elsewhere. With ``scale_col`` the demand is
    a coefficient of that column (rates: demand times lambda), else the constant itself."""
    inf = highspy.kHighsInf
    var = {}
    for k in range(len(jobs)):
        for l in range(topo.num_links):
            var[k, l] = h.getNumCol()
            h.addVar(0, inf)
    for k, j in enumerate(jobs):
        for v in range(topo.num_vertices):
            idx, val = [], []
            for l in range(topo.num_links):
                if topo.link_src(l) == v:
                    idx.append(var[k, l]); val.append(1.0)
                if topo.link_dst(l) == v:
                    idx.append(var[k, l]); val.append(-1.0)
            d = demand(j) if v == j.src else -demand(j) if v == j.dst else 0.0
            if scale_col is None:
                h.addRow(d, d, len(idx), np.array(idx, np.int32), np.array(val))
            else:
                if d:
                    idx.append(scale_col); val.append(-d)
                h.addRow(0.0, 0.0, len(idx), np.array(idx, np.int32), np.array(val))
    return var


def arc_optimum(topo, jobs, forward_bandwidth: float | None = None, preload=None) -> float:
    """Minimum over all fractional routings of max_l load_l / capacity_l (seconds); with
    ``preload`` (bytes per link already there), of max_l (preload_l + load_l) / capacity_l."""
    links = list(range(topo.num_links))
    jobs = [j for j in jobs if j.bytes > 0 and j.src != j.dst]
    if not jobs:
        return max((u / topo.capacity(l) for l, u in enumerate(preload or [])), default=0.0)
    # Bytes and capacities scaled to about 1 so HiGHS' absolute tolerances mean something.
    bscale = float(max(j.bytes for j in jobs))
    cscale = max(topo.capacity(l) for l in links)
    forward = None if forward_bandwidth is None else forward_bandwidth / cscale
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    inf = highspy.kHighsInf
    h.addVar(0, inf)  # T
    h.changeColCost(0, 1.0)
    var = _arc_flows(h, topo, jobs, lambda j: j.bytes / bscale, None)
    for l in links:  # sum_k f[k,l] + u_l <= c_l T
        idx = [var[k, l] for k in range(len(jobs))] + [0]
        val = [1.0] * len(jobs) + [-topo.capacity(l) / cscale]
        h.addRow(-inf, -(preload[l] / bscale if preload else 0.0), len(idx), np.array(idx, np.int32), np.array(val))
    if forward is not None:  # relayed inflow at v <= F T
        for v in range(topo.num_vertices):
            idx, val = [0], [-forward]
            for k, j in enumerate(jobs):
                if v in (j.src, j.dst):
                    continue
                for l in links:
                    if topo.link_dst(l) == v:
                        idx.append(var[k, l]); val.append(1.0)
            h.addRow(-inf, 0.0, len(idx), np.array(idx, np.int32), np.array(val))
    h.run()
    assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal
    return h.getInfo().objective_function_value * bscale / cscale


def weighted_concurrent_flow(topo, jobs, weight) -> float:
    """The weighted max concurrent flow in rates, not times: the largest lambda such that every
    job j can be routed at lambda * weight(j) * bytes_j bytes per second at once within the
    links' capacities (arc formulation, flows per second)."""
    links = list(range(topo.num_links))
    jobs = [j for j in jobs if j.bytes > 0 and j.src != j.dst]
    bscale = float(max(j.bytes for j in jobs))
    cscale = max(topo.capacity(l) for l in links)
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    inf = highspy.kHighsInf
    h.addVar(0, inf)  # lambda, scaled
    h.changeColCost(0, -1.0)
    var = _arc_flows(h, topo, jobs, lambda j: weight(j) * j.bytes / bscale, 0)
    for l in links:  # sum_k f[k,l] <= c_l
        idx = [var[k, l] for k in range(len(jobs))]
        h.addRow(-inf, topo.capacity(l) / cscale, len(idx), np.array(idx, np.int32), np.ones(len(idx)))
    h.run()
    assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal
    return -h.getInfo().objective_function_value * cscale / bscale


def path_optimum(topo, jobs, paths_per_job, preload=None) -> float:
    """Minimum of max_l load_l / capacity_l when job i may only use paths_per_job[i]; with
    ``preload`` (bytes per link already there), of max_l (preload_l + load_l) / capacity_l."""
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    inf = highspy.kHighsInf
    h.addVar(0, inf)
    h.changeColCost(0, 1.0)
    bscale = float(max([j.bytes for j in jobs] + [1]))
    cscale = max(topo.capacities)
    link_rows = {}
    columns = []
    for i, j in enumerate(jobs):
        if j.bytes == 0:
            continue
        for p in paths_per_job[i]:
            columns.append((i, p))
    job_row = {}
    for i, j in enumerate(jobs):
        if j.bytes:
            job_row[i] = h.getNumRow()
            h.addRow(j.bytes / bscale, j.bytes / bscale, 0, np.empty(0, np.int32), np.empty(0))
    preload = list(preload or [])
    extra = lambda l: (preload[l] if l < len(preload) else 0.0) / bscale  # noqa: E731

    def link_row(l):
        if l not in link_rows:
            link_rows[l] = h.getNumRow()
            h.addRow(-inf, -extra(l), 1, np.array([0], np.int32), np.array([-topo.capacity(l) / cscale]))

    for l, b in enumerate(preload):
        if b > 0:
            link_row(l)
    for i, p in columns:
        for l in p:
            link_row(l)
        idx = [job_row[i]] + [link_rows[l] for l in p]
        h.addCol(0.0, 0.0, inf, len(idx), np.array(idx, np.int32), np.ones(len(idx)))
    h.run()
    assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal
    return h.getInfo().objective_function_value * bscale / cscale


def all_chains(w, src, dst, proxies_from=None):
    """Every realizable path from src to dst as a tuple of links, by brute force: every chain of
    default routes (``route()`` alone) through distinct proxies among ``proxies_from`` (default:
    every endpoint of the workload's network)."""
    pool = w.network.endpoints if proxies_from is None else proxies_from
    others = [e for e in pool if e not in (src, dst)]
    found = set()
    for n in range(len(others) + 1):
        for proxies in itertools.permutations(others, n):
            stops = (src, *proxies, dst)
            found.add(tuple(l for a, b in zip(stops, stops[1:]) for l in w.routing.route(a, b)))
    return sorted(found, key=lambda p: (len(p), p))


def fluid_seconds(plan, net):
    """A plan's time in the fluid model: its busiest link's bytes over that link's capacity."""
    load = {}
    for jp in plan.jobs:
        for share in jp.paths:
            for link in share.links:
                load[link] = load.get(link, 0) + share.bytes
    return max((b / net.capacity(l) for l, b in load.items()), default=0.0)
