#!/usr/bin/env python3
"""Optimising planners: opt (thesis LP over k = 50 candidates), optimal (column generation
over all paths) and mcf (certified approximation, no LP solver) on the thesis' 1:8 patterns.

Records planning time, the busiest link of the plan, the proven bound and the gap, and the
thesis' reported times beside them. At 49,152 nodes only mcf runs (the LP planners need more
memory and time than this 2-core machine offers). Writes results/optimal_speed.csv and .md.

    .venv/bin/python bench/optimal_speed.py                       # 1024 and 4096 nodes
    .venv/bin/python bench/optimal_speed.py --nodes 49152 --planners mcf
    .venv/bin/python bench/optimal_speed.py --planners optimal,mcf --keep   # rerun two, keep opt's rows
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import sys
import time

import optiq
from optiq.evaluate import PlannerOptions, run_planners
from optiq.workload import Workload

PATTERNS = ("disjoint", "overlap", "subset")
# Thesis Table XIII (2048 nodes, k = 50): AMPL model time + solver time per pattern, seconds.
THESIS_OPT_SECONDS = {"disjoint": 224.0 + 84.0, "overlap": 198.7 + 530.3, "subset": 217.3 + 939.6}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nodes", default="1024,4096")
    ap.add_argument("--planners", default="opt,optimal,mcf")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "results"))
    ap.add_argument("--tag", default="", help="suffix for the result files")
    ap.add_argument("--keep", action="store_true",
                    help="keep the recorded rows of planners, node counts and patterns not rerun")
    args = ap.parse_args(argv)

    name = "optimal_speed" + args.tag
    kept = []
    if args.keep and os.path.exists(os.path.join(args.out, name + ".csv")):
        with open(os.path.join(args.out, name + ".csv"), newline="") as f:
            kept = list(csv.DictReader(f))
    rows = []
    load_start = os.getloadavg()[0]
    for nodes in (int(n) for n in args.nodes.split(",")):
        net = optiq.parse_network(f"mira:{nodes}")
        routing = optiq.make_routing("bgq", net)
        for pattern in PATTERNS:
            jobs = optiq.assign_sizes(optiq.named_pattern(pattern, nodes), "8MiB")
            workload = Workload(net, routing, jobs, pattern)
            for planner in args.planners.split(","):
                start = time.perf_counter()
                (r,) = run_planners(workload, [planner], PlannerOptions())
                wall = time.perf_counter() - start
                row = {"nodes": nodes, "pattern": pattern, "planner": planner, "seconds": round(r.seconds, 3),
                       "checked_seconds": round(wall, 3),
                       "link_mb_max": round(r.metrics.link_bytes_max / 1e6, 3),
                       "bound_mb": round(r.bound / 1e6, 3), "gap": round(r.gap, 5), "paths": r.metrics.paths,
                       "thesis_opt_seconds_2048": THESIS_OPT_SECONDS[pattern],
                       "rounds": int(r.extra.get("iterations", 0)), "peak_mb": round(r.peak_mb, 1)}
                rows.append(row)
                print(f"{nodes:>6} {pattern:<9} {planner:<8} {r.seconds:8.2f} s ({wall:.2f} s checked)  busiest {row['link_mb_max']:8.3f} MB  "
                      f"bound {row['bound_mb']:8.3f} MB  gap {100 * row['gap']:.2f}%", file=sys.stderr, flush=True)

    done = {(r["nodes"], r["pattern"], r["planner"]) for r in rows}
    for r in kept:
        r = {**r, "nodes": int(r["nodes"]), "seconds": float(r["seconds"]),
             "checked_seconds": float(r["checked_seconds"]) if r.get("checked_seconds") else None,
             "link_mb_max": float(r["link_mb_max"]),
             "bound_mb": float(r["bound_mb"]), "gap": float(r["gap"]), "paths": int(r["paths"]),
             "thesis_opt_seconds_2048": float(r["thesis_opt_seconds_2048"]),
             "rounds": int(r["rounds"]) if r.get("rounds") else None,
             "peak_mb": float(r["peak_mb"]) if r.get("peak_mb") else None}
        if (r["nodes"], r["pattern"], r["planner"]) not in done:
            rows.append(r)
    order = {p: i for i, p in enumerate(PATTERNS)}
    planners = ("opt", "optimal", "mcf")
    rows.sort(key=lambda r: (r["nodes"], order.get(r["pattern"], 9),
                             planners.index(r["planner"]) if r["planner"] in planners else 9))
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, name + ".csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    with open(os.path.join(args.out, name + ".md"), "w") as f:
        f.write("# Optimising planners: time and quality (8 MiB pairs, 1:8 patterns)\n\n")
        f.write(f"Machine: {platform.machine()}, {os.cpu_count()} cores. Seconds: the planner's wall time in "
                "one run, including candidate generation for opt. Checked: the same run with the plan's "
                "validation and metrics (what run_planners returns), which grow with the plan's paths. Bound: proven lower bound on the busiest link over "
                "the planner's path set (opt: its k candidates; optimal and mcf: all paths). Thesis: AMPL + "
                "solver seconds for its OPT on 2048 nodes with k = 50 (Table XIII). The machine is shared: "
                f"load average {load_start:.1f} when this run started, {os.getloadavg()[0]:.1f} when it ended "
                "(rows kept from earlier runs were timed under their own load).\n\n")
        f.write("Rounds: the planner's iterations (mcf: potential updates; opt, optimal: column generation "
                "rounds). Peak: resident memory's high-water mark during the run (reset before each run; "
                "blank for rows kept from runs that did not record it).\n\n")
        f.write("| nodes | pattern | planner | seconds | checked s | busiest link MB | bound MB | gap | paths | rounds "
                "| peak MB | thesis OPT s (2048) |\n")
        f.write("|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
        for r in rows:
            rounds = "" if r.get("rounds") is None else r["rounds"]
            peak = "" if r.get("peak_mb") is None else f"{r['peak_mb']:.0f}"
            checked = "" if r.get("checked_seconds") is None else f"{r['checked_seconds']:.2f}"
            f.write(f"| {r['nodes']} | {r['pattern']} | {r['planner']} | {r['seconds']:.2f} | {checked} | "
                    f"{r['link_mb_max']:.3f} | "
                    f"{r['bound_mb']:.3f} | {100 * r['gap']:.2f}% | {r['paths']} | {rounds} | {peak} | "
                    f"{r['thesis_opt_seconds_2048']:.0f} |\n")
        f.write(f"\nRegenerate: `.venv/bin/python bench/optimal_speed.py {' '.join(argv or sys.argv[1:])}`\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
