#!/usr/bin/env python3
"""Planning on networks that are not plain tori: BG/Q with its I/O side, and random switched
fabrics (Jellyfish-like) of 1,024 and 4,096 endpoints.

For each network and pattern, every planner's time (including candidate paths) and the fluid
time of its plan (busiest link load / capacity), against the default routes and the best
proven lower bound of the run. Writes results/network_planning.csv and network_planning.md.

    .venv/bin/python bench/network_planning.py                    # the recorded configuration
    .venv/bin/python bench/network_planning.py --cases io1024     # one case

Cases:
  io1024, io4096   mira:N+io. Patterns: `io` (every compute node sends 8 MiB to its pset's I/O
                   node: the I/O links bound it, no plan can beat them), `bridges` (every node
                   of a pset sends 8 MiB to the pset's two bridge nodes, half to each: the
                   thesis' aggregation to bridge nodes), and the 1:8 `disjoint` pattern on the
                   compute nodes, whose numbers must equal mira:N's.
  fabric1024, fabric4096   random switched fabrics from optiq.random_graph: 64 / 256 switches
                   of 16 endpoints, about 8 switch links each, cables of 12.5 or 25 GB/s,
                   routing `shortest`. Patterns: `random` (a seeded permutation of the
                   endpoints, 8 MiB each) and `disjoint` mapped onto the endpoints.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import random
import sys
import tempfile
import time

import optiq
from optiq.evaluate import PlannerOptions, run_planners
from optiq.random_graph import random_switched_graph
from optiq.workload import Workload, on_endpoints, pattern_pairs

BYTES = 8 << 20
CASES = {
    "io1024": ("mira:1024+io", ("io", "bridges", "disjoint"), ("default", "heu1", "heu2", "mcf", "optimal")),
    "io4096": ("mira:4096+io", ("io", "bridges", "disjoint"), ("default", "heu1", "heu2", "mcf")),
    "fabric1024": ((64, 1024), ("random", "disjoint"), ("default", "heu1", "heu2", "mcf", "optimal")),
    "fabric4096": ((256, 4096), ("random", "disjoint"), ("default", "heu1", "heu2", "mcf")),
}


def network_of(spec, directory: str):
    if isinstance(spec, str):
        return optiq.parse_network(spec), spec
    switches, endpoints = spec
    path = os.path.join(directory, f"fabric{endpoints}.json")
    with open(path, "w") as f:
        json.dump(random_switched_graph(switches, endpoints, 8, seed=1, capacities=(12.5e9, 25e9)), f)
    return optiq.parse_network(f"graph:{path}"), f"fabric: {switches} switches x {endpoints // switches} endpoints"


def jobs_of(net, pattern: str) -> list:
    compute = net.endpoints
    if pattern == "io":
        io = [v for v in range(net.num_vertices) if net.kind(v) == "io"]
        return [optiq.Job(c, io[c // optiq.PSET_NODES], BYTES) for c in compute]
    if pattern == "bridges":
        return [optiq.Job(c, (c // optiq.PSET_NODES) * optiq.PSET_NODES + b, BYTES // 2)
                for c in compute for b in optiq.BRIDGE_OFFSETS if c % optiq.PSET_NODES != b]
    if pattern == "random":
        order = list(range(len(compute)))
        random.Random(1).shuffle(order)
        return [optiq.Job(compute[a], compute[b], BYTES) for a, b in enumerate(order) if a != b]
    pairs = on_endpoints(net, pattern_pairs(pattern, len(compute)))
    return [optiq.Job(a, b, BYTES) for a, b in pairs]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", default=",".join(CASES), help="comma-separated (default: all)")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "results"))
    args = ap.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for case in args.cases.split(","):
            spec, patterns, planners = CASES[case]
            net, label = network_of(spec, tmp)
            routing = optiq.make_routing(net.default_routing, net)
            for pattern in patterns:
                work = Workload(net, routing, jobs_of(net, pattern), pattern)
                results = {}
                for name in planners:
                    start = time.perf_counter()
                    (r,) = run_planners(work, [name], PlannerOptions())
                    results[name] = (r, time.perf_counter() - start)
                    print(f"{case} {pattern} {name}: {results[name][1]:.2f} s, "
                          f"{r.metrics.predicted_seconds * 1e3:.3f} ms", file=sys.stderr, flush=True)
                bound = max((r.bound_seconds or 0.0) for r, _ in results.values())
                default_s = results["default"][0].metrics.predicted_seconds
                for name, (r, seconds) in results.items():
                    m = r.metrics
                    rows.append({
                        "case": case, "network": label, "vertices": net.num_vertices, "links": net.num_links,
                        "pattern": pattern, "jobs": len(work.jobs), "planner": name, "seconds": round(seconds, 3),
                        "predicted_ms": round(m.predicted_seconds * 1e3, 4),
                        "x_default": round(default_s / m.predicted_seconds, 3) if m.predicted_seconds else "",
                        "over_bound": round(m.predicted_seconds / bound - 1, 4) if bound else "",
                        "bound_ms": round(bound * 1e3, 4) if bound else "", "paths": m.paths,
                        "hops_max": m.hops_max})
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "network_planning.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    with open(os.path.join(args.out, "network_planning.md"), "w") as f:
        f.write("# Planning on BG/Q with its I/O side and on random switched fabrics (8 MiB per job)\n\n")
        f.write(f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}. "
                "One run; seconds include candidate paths. `x default`: the default routes' fluid time over "
                "the plan's; `over bound`: the plan's fluid time above the best lower bound any planner of "
                "the row's group proved (mcf, optimal).\n\n")
        f.write("| case | pattern | jobs | planner | s | fluid ms | x default | over bound | paths | max hops |\n")
        f.write("|---|---|---:|---|---:|---:|---:|---:|---:|---:|\n")
        for r in rows:
            over = f"{100 * r['over_bound']:.1f}%" if r["over_bound"] != "" else ""
            f.write(f"| {r['case']} | {r['pattern']} | {r['jobs']} | {r['planner']} | {r['seconds']:.2f} | "
                    f"{r['predicted_ms']:.3f} | {r['x_default']} | {over} | {r['paths']} | {r['hops_max']} |\n")
        f.write(
            "\nWhat the numbers are: fluid times (busiest link load over its capacity) of plans whose "
            "paths are all realizable (chains of the network's own routes, copies only at endpoints). "
            "They leave out what the runtime pays to forward (a copy per chunk at each proxy, per-message "
            "costs), the I/O nodes' own link to storage, and latency. `io`: every plan is held to the two "
            "I/O links of each pset, which no path avoids. `disjoint` on mira:N+io must equal mira:N's "
            "published numbers (bench/results/optimal_speed.md, planner_speed.md): the I/O side changes "
            "nothing between compute nodes. On the fabrics each endpoint has one cable, so `disjoint` "
            "(each source feeds 8 destinations) is held to the sources' cables and `random` is where "
            "routes through the switches collide.\n")
        f.write("\nRegenerate: `.venv/bin/python bench/network_planning.py`\n")
    print(f"wrote {args.out}/network_planning.csv and network_planning.md", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
