"""Two-phase I/O planning: a job's data per rank, its I/O groups, aggregator placements, and
both phases of each placement planned and timed (docs/io.md)."""

from __future__ import annotations

from dataclasses import dataclass, field

from . import _core
from .evaluate import PlannerOptions, run_planners
from .workload import Workload

IO_PLANNERS = ("default", "heu2", "mcf", "maxflow")


@dataclass
class IoData:
    """Where the bytes are: per rank an item count, the items' sizes and the file layout."""

    ranks_per_node: int
    rank_items: list
    item_sizes: list
    layout: str = "aos"
    description: str = ""

    @property
    def total_bytes(self) -> int:
        return sum(self.rank_items) * sum(self.item_sizes)


def io_data(nodes: int, ranks_per_node: int, sizes: str = "uniform:0:2MiB", holders: float = 1.0, seed: int = 0,
            hacc: str | None = None, layout: str = "aos") -> IoData:
    """Per-rank sizes drawn from ``sizes`` (or HACC particles from ``hacc``, 38 bytes each) on a
    seeded fraction ``holders`` of the nodes."""
    if hacc is not None:
        items = _core.sparse_rank_amounts(nodes, ranks_per_node, hacc, holders, seed)
        return IoData(ranks_per_node, items, list(_core.HACC_VARIABLE_BYTES), layout,
                      f"HACC {hacc} particles per rank, {layout}")
    if layout != "aos":
        raise _core.Error("--layout soa needs --hacc: plain data has one variable, whose layouts are the same")
    items = _core.sparse_rank_amounts(nodes, ranks_per_node, sizes, holders, seed)
    return IoData(ranks_per_node, items, [1], layout, f"{sizes} per rank")


def io_groups(network, routing, data: IoData, io_nodes: list | None = None) -> list:
    """The groups of ``data``; with ``io_nodes`` (vertex ids) only theirs."""
    groups = _core.make_io_groups(network, routing, data.ranks_per_node, data.rank_items, data.item_sizes, data.layout)
    if io_nodes is None:
        return groups
    known = {g.io for g in groups}
    for v in io_nodes:
        if v not in known:
            raise _core.Error(f"I/O node {network.vertex_name(v)} serves none of this job's nodes")
    return [g for g in groups if g.io in io_nodes]


def parse_io_nodes(network, text: str) -> list:
    """I/O nodes by name (io0) or vertex id, each an I/O vertex of ``network``."""
    by_name = {network.vertex_name(v): v for v in range(network.num_vertices) if network.kind(v) == "io"}
    chosen = []
    for item in (t.strip() for t in text.split(",")):
        if not item:
            continue
        v = by_name.get(item)
        if v is None and item.isdigit() and int(item) < network.num_vertices and network.kind(int(item)) == "io":
            v = int(item)
        if v is None:
            known = ", ".join(sorted(by_name, key=lambda n: by_name[n])[:8]) or "none"
            raise _core.Error(f"'{item}' is not an I/O node of {network.spec} (its I/O nodes: {known}"
                              + (", ..." if len(by_name) > 8 else "") + ")")
        chosen.append(v)
    if not chosen:
        raise _core.Error("no I/O node given")
    return chosen


@dataclass
class IoResult:
    placement: str
    planner: str
    aggregation_seconds: float
    io_seconds: float
    total_seconds: float
    link_bytes_max: int  # the aggregation phase's busiest link (the I/O phase's shows in io_seconds)
    rounds: int
    placement_seconds: float
    plan: object = field(repr=False, default=None)
    group_seconds: list = field(default_factory=list)  # aggregation time of each group's jobs alone

    def json(self) -> dict:
        return {"placement": self.placement, "planner": self.planner,
                "aggregation_seconds": self.aggregation_seconds, "io_seconds": self.io_seconds,
                "total_seconds": self.total_seconds, "link_bytes_max": self.link_bytes_max,
                "rounds": self.rounds, "placement_seconds": self.placement_seconds}


def _group_seconds(plan, network, groups, placement_of_group) -> list:
    """Each group's share of the aggregation plan timed alone: what a per-pset plot shows."""
    out = []
    for g, placement in zip(groups, placement_of_group):
        members = set(g.nodes)
        jobs = [jp for jp in plan.jobs if jp.job.src in members and jp.job.dst in set(placement)]
        sub = _core.Plan(plan.topology, plan.routing, plan.planner, jobs)
        out.append(_core.compute_metrics(sub, network).predicted_seconds if jobs else 0.0)
    return out


def evaluate_placements(network, routing, groups: list, placements: list, planners: list, aggregators: int,
                        buffer: int, hop_latency: float = _core.HOP_LATENCY, progress=None,
                        options: PlannerOptions | None = None) -> list:
    """For each placement strategy, its aggregators in every group, then each planner's plan of
    both phases: aggregation_seconds, io_seconds and their pipelined total."""
    import time

    options = options or PlannerOptions()
    results = []
    for name in placements:
        if progress:
            progress.note(f"placing aggregators: {name}")
        start = time.perf_counter()
        chosen = []
        for i, g in enumerate(groups):
            if progress and name == "flow-aware":
                progress.note(f"flow-aware: I/O node {network.vertex_name(g.io)} ({i + 1} of {len(groups)})")
            chosen.append(_core.place_aggregators(name, network, routing, g, aggregators, buffer, hop_latency,
                                                  progress if name == "flow-aware" else None))
        placed = time.perf_counter() - start
        agg_jobs, io_jobs, rounds = _core.aggregation_jobs(groups, chosen, aggregators, buffer)
        agg = run_planners(Workload(network, routing, agg_jobs, "aggregation"), planners, options) if agg_jobs else []
        io = run_planners(Workload(network, routing, io_jobs, "io"), planners, options) if io_jobs else []
        for k, planner in enumerate(planners):
            a = agg[k].metrics.predicted_seconds if agg else 0.0
            w = io[k].metrics.predicted_seconds if io else 0.0
            busiest = agg[k].metrics.link_bytes_max if agg else 0
            plan = agg[k].plan if agg else None
            results.append(IoResult(name, planner, a, w, _core.pipelined_seconds(a, w, rounds), busiest, rounds, placed,
                                    plan, _group_seconds(plan, network, groups, chosen) if plan else [0.0] * len(groups)))
    return results
