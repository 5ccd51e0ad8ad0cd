#!/usr/bin/env python3
"""Planner speed: heu1 and heu2 (k = 50) on the thesis' 1:8 patterns at 1024 and 4096 nodes.

Each case is timed --repeat times in one run and the median is kept; the time of a planner
includes generating its candidate paths, as the thesis' path-searching times do. Writes
results/planner_speed.csv and results/planner_speed.md.

    .venv/bin/python bench/planner_speed.py            # the recorded configuration
    .venv/bin/python bench/planner_speed.py --nodes 1024 --repeat 1
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import statistics
import sys
import time

import optiq
import optiq.options

PATTERNS = ("disjoint", "overlap", "subset")
PLANNERS = ("heu1", "heu2")
# Thesis: heu1 path search ~1.9-2.2 s at 1024 nodes (Table XI); heu2 8-100 s over the 91 runs (Fig. 16).
THESIS_SECONDS = {"heu1": "1.9-2.2 (1024 nodes)", "heu2": "8-100 (512-4096 nodes)"}


def time_case(nodes: int, pattern: str, planner: str, k: int) -> dict:
    net = optiq.parse_network(f"mira:{nodes}")
    routing = optiq.make_routing("bgq", net)
    jobs = optiq.assign_sizes(optiq.named_pattern(pattern, nodes), "8MiB")
    start = time.perf_counter()
    candidates = optiq.generate_candidates(net, optiq.make_routing(net.default_routing, net), jobs, k)
    middle = time.perf_counter()
    options = optiq.PlannerOptions()
    options.k = k
    plan = optiq.make_plan(planner, net, routing, jobs, options, candidates).plan
    end = time.perf_counter()
    metrics = optiq.compute_metrics(plan, net)
    return {"paths_s": middle - start, "select_s": end - middle, "total_s": end - start,
            "link_mb_max": metrics.link_bytes_max / 1e6, "paths": metrics.paths}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nodes", default="1024,4096", help="Mira partition sizes (default: %(default)s)")
    ap.add_argument("--k", type=int, default=optiq.options.default("planner", "k"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "results"))
    args = ap.parse_args(argv)

    rows = []
    for nodes in (int(n) for n in args.nodes.split(",")):
        for pattern in PATTERNS:
            for planner in PLANNERS:
                runs = [time_case(nodes, pattern, planner, args.k) for _ in range(args.repeat)]
                row = {"nodes": nodes, "pattern": pattern, "planner": planner, "k": args.k, "repeat": args.repeat}
                for key in ("paths_s", "select_s", "total_s"):
                    row[key] = round(statistics.median(r[key] for r in runs), 4)
                row["link_mb_max"] = round(runs[0]["link_mb_max"], 2)
                row["paths"] = runs[0]["paths"]
                rows.append(row)
                print(f"{nodes:>5} {pattern:<9} {planner}: {row['total_s']:.3f} s "
                      f"(paths {row['paths_s']:.3f} s + selection {row['select_s']:.3f} s), "
                      f"busiest link {row['link_mb_max']} MB", file=sys.stderr)

    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "planner_speed.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    with open(os.path.join(args.out, "planner_speed.md"), "w") as f:
        f.write("# Planner speed (heu1, heu2; k = %d; 8 MiB pairs)\n\n" % args.k)
        f.write(f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}. "
                f"Median of {args.repeat} runs; seconds include candidate-path generation.\n\n")
        f.write("| nodes | pattern | planner | total s | paths s | selection s | busiest link MB | paths | thesis s |\n")
        f.write("|---:|---|---|---:|---:|---:|---:|---:|---|\n")
        for r in rows:
            f.write(f"| {r['nodes']} | {r['pattern']} | {r['planner']} | {r['total_s']:.3f} | {r['paths_s']:.3f} | "
                    f"{r['select_s']:.3f} | {r['link_mb_max']:.2f} | {r['paths']} | {THESIS_SECONDS[r['planner']]} |\n")
        f.write("\nRegenerate: `.venv/bin/python bench/planner_speed.py`\n")
    print(f"wrote {args.out}/planner_speed.csv and planner_speed.md", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
