#!/usr/bin/env python3
"""Planning at scale on fat-trees and dragonflies, and mcf against optimal at 1,024 endpoints.

Two parts, each written to results/planning_scale.md and results/planning_scale.json:

  speed    wall time of default, heu1, heu2 and mcf on a dragonfly and a 3-level fat-tree of
           about 1,000 and about 10,000 endpoints (the 10,000-endpoint dragonfly's 9,216 hosts
           are 16 groups of 6 chassis of 16 routers with 6 hosts each, Frontier's order of
           size), with the fluid time of each plan, mcf's proven bound, its rounds and the
           peak resident memory of each run (optiq.memory).
  quality  mcf against optimal (the path LP solved to optimality) on every pattern of both
           families at 1,024 endpoints: their fluid times, mcf's excess over optimal (the
           target is at most 2%), the planning times and mcf's own certified gap.

Seconds include candidate paths (heu1, heu2) and are one run on a shared machine: compare
within a table. Each case plans its pattern at 8 MiB per job (moe: 8 MiB to cold destinations,
8 x 8 MiB to hot ones).

    .venv/bin/python bench/planning_scale.py                  # both parts (about 25 min)
    .venv/bin/python bench/planning_scale.py --parts speed    # one part, keeping the other's rows
    .venv/bin/python bench/planning_scale.py --quick          # the small sizes only
    .venv/bin/python bench/planning_scale.py --report         # report and plot from the JSON
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import sys
import time

import optiq
from optiq.evaluate import PlannerOptions, run_planners
from optiq.workload import Workload, pattern_jobs

BYTES = "8MiB"
DRAGONFLY = {1024: "dragonfly:8,1;4,1;8,1;4", 9216: "dragonfly:16,1;6,1;16,1;6"}
FATTREE = {1024: "fattree:3;8,8,16;1,8,8;1,1,1", 9216: "fattree:3;24,24,16;1,24,16;1,1,1"}
ROUTING = {"dragonfly": "minimal", "fattree": "dmodk"}  # the documented rules, destination-based

SPEED_PLANNERS = ("default", "heu1", "heu2", "mcf")
SPEED_CASES = [  # (family, endpoints, pattern)
    ("dragonfly", 1024, "group-to-group"), ("dragonfly", 9216, "group-to-group"),
    ("dragonfly", 1024, "permutation"), ("dragonfly", 9216, "permutation"),
    ("fattree", 1024, "dmodk-adversarial"), ("fattree", 9216, "dmodk-adversarial"),
    ("fattree", 1024, "permutation"), ("fattree", 9216, "permutation"),
]
# optimal's column generation keeps every job in its LP: on moe's million jobs at 1,024 endpoints
# it had not finished after 15 minutes (2.6 GB). Beyond this many jobs the table gives mcf's
# own certified gap instead, which bounds its excess over the optimum (its bound is a lower
# bound on any plan's fluid time, the optimum's included).
OPTIMAL_MAX_JOBS = 100_000
QUALITY_CASES = [
    ("dragonfly", 1024, p) for p in ("group-to-group", "groups-alltoall", "permutation", "moe")
] + [
    ("fattree", 1024, p) for p in ("dmodk-adversarial", "permutation", "moe", "disjoint", "overlap", "subset")
]


def workload(family: str, endpoints: int, pattern: str) -> Workload:
    spec = (DRAGONFLY if family == "dragonfly" else FATTREE)[endpoints]
    net = optiq.parse_network(spec)
    routing = optiq.make_routing(ROUTING[family], net)
    return Workload(net, routing, pattern_jobs(net, pattern, BYTES), pattern)


def plan_case(work: Workload, planners) -> dict:
    out = {}
    for name in planners:
        start = time.perf_counter()
        (r,) = run_planners(work, [name], PlannerOptions())
        seconds = time.perf_counter() - start
        out[name] = {"seconds": round(r.seconds, 3), "checked_seconds": round(seconds, 3), "fluid_ms": round(r.metrics.predicted_seconds * 1e3, 4),
                     "link_mb_max": round(r.metrics.link_bytes_max / 1e6, 3), "paths": r.metrics.paths,
                     "bound_ms": round(r.bound_seconds * 1e3, 4) if r.bound_seconds is not None else None,
                     "gap": round(r.gap, 5) if r.gap is not None else None,
                     "rounds": int(r.extra["iterations"]) if "iterations" in r.extra else None,
                     "peak_mb": round(r.peak_mb, 1)}
        print(f"  {name}: {r.seconds:.2f} s ({seconds:.2f} s checked), {out[name]['fluid_ms']:.3f} ms fluid",
              file=sys.stderr, flush=True)
    return out


def speed(quick: bool) -> list:
    rows = []
    for family, endpoints, pattern in SPEED_CASES:
        if quick and endpoints > 1024:
            continue
        work = workload(family, endpoints, pattern)
        print(f"speed: {work.network.spec} {pattern} ({len(work.jobs)} jobs)", file=sys.stderr, flush=True)
        rows.append({"family": family, "endpoints": endpoints, "network": work.network.spec, "pattern": pattern,
                     "jobs": len(work.jobs), "vertices": work.network.num_vertices, "links": work.network.num_links,
                     "planners": plan_case(work, SPEED_PLANNERS)})
    return rows


def quality(quick: bool) -> list:
    rows = []
    for family, endpoints, pattern in QUALITY_CASES:
        work = workload(family, endpoints, pattern)
        print(f"quality: {work.network.spec} {pattern} ({len(work.jobs)} jobs)", file=sys.stderr, flush=True)
        exact = len(work.jobs) <= OPTIMAL_MAX_JOBS
        result = plan_case(work, ("optimal", "mcf") if exact else ("mcf",))
        mcf = result["mcf"]
        if exact:
            over = mcf["fluid_ms"] / result["optimal"]["fluid_ms"] - 1 if result["optimal"]["fluid_ms"] else 0.0
        else:  # at most what separates mcf's plan from its bound
            over = mcf["fluid_ms"] / mcf["bound_ms"] - 1 if mcf["bound_ms"] else 0.0
        rows.append({"family": family, "endpoints": endpoints, "network": work.network.spec, "pattern": pattern,
                     "jobs": len(work.jobs), "planners": result, "optimal_ran": exact,
                     "mcf_over_optimal": round(over, 5)})
    return rows


def machine() -> dict:
    return {"arch": platform.machine(), "cores": os.cpu_count(), "python": platform.python_version(),
            "load_end": round(os.getloadavg()[0], 2)}


def write(out_dir: str, speed_rows: list, quality_rows: list, command: str, where: dict) -> None:
    os.makedirs(out_dir, exist_ok=True)
    doc = {"machine": where,
           "bytes_per_job": BYTES, "speed": speed_rows, "quality": quality_rows, "command": command}
    with open(os.path.join(out_dir, "planning_scale.json"), "w") as f:
        json.dump(doc, f, indent=1)
    with open(os.path.join(out_dir, "planning_scale.md"), "w") as f:
        f.write("# Planning fat-trees and dragonflies at scale\n\n")
        f.write(f"Machine: {where['arch']}, {where['cores']} cores (shared with other work; load average "
                f"{where.get('load_end', '?')} at the end of the run), Python {where['python']}. One run per "
                "planner; s: the planner's wall time, candidate paths included; checked s: the same run with the "
                "plan's validation and metrics. "
                f"{BYTES} per job. Routing: `minimal` on dragonflies, `dmodk` on fat-trees (SimGrid's "
                "documented rules: plans need routes that are one forwarding table per destination).\n\n")
        if speed_rows:
            f.write("## Planner speed\n\n")
            f.write("Fluid: the plan's predicted transfer time (busiest link over its capacity); mcf's bound is "
                    "a proven lower bound on the fluid time of any plan made of the network's own routes "
                    "forwarded at endpoints. Rounds: mcf's iterations. Peak: resident memory's high-water mark "
                    "during the run (the process's, reset before each run).\n\n")
            f.write("| network | endpoints | pattern | jobs | planner | s | checked s | fluid ms | busiest link MB "
                    "| paths | mcf bound ms | mcf gap | rounds | peak MB |\n")
            f.write("|---|---:|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
            for r in speed_rows:
                for name, p in r["planners"].items():
                    bound = f"{p['bound_ms']:.3f}" if name == "mcf" else ""
                    gap = f"{100 * p['gap']:.2f}%" if name == "mcf" else ""
                    f.write(f"| `{r['network']}` | {r['endpoints']} | {r['pattern']} | {r['jobs']} | {name} | "
                            f"{p['seconds']:.2f} | {p.get('checked_seconds', p['seconds']):.2f} | {p['fluid_ms']:.3f} | {p['link_mb_max']:.2f} | {p['paths']} | "
                            f"{bound} | {gap} | {p.get('rounds') or ''} | {p.get('peak_mb', r.get('peak_mb'))} |\n")
            if plot(out_dir, speed_rows):
                f.write("![mcf planning time against endpoints](planning_scale.png)\n\n")
                f.write("The torus (Mira) points are mcf's rows of optimal_speed.md and optimal_speed_49152.md "
                        "(bench/optimal_speed.py), as recorded when this plot was drawn.\n\n")
            f.write("\n")
        if quality_rows:
            f.write("## mcf against optimal at 1,024 endpoints\n\n")
            f.write("`optimal` solves the path LP over every realizable path by column generation (HiGHS) to a "
                    "gap of 1e-6; mcf stops within 2% of its own bound. `optimum`: the LP's proven optimum; "
                    "`optimal fluid`: its plan's time once whole bytes and path limits (at most max-paths "
                    "paths of at least min-path-bytes each) are applied. `mcf over optimal`: how much "
                    "longer mcf's plan takes in the fluid model.\n\n")
            f.write("| network | pattern | jobs | optimal s | mcf s | optimum ms | optimal fluid ms | mcf fluid ms | "
                    "mcf over optimal | mcf gap to its bound |\n")
            f.write("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
            for r in quality_rows:
                m = r["planners"]["mcf"]
                if r["optimal_ran"]:
                    o = r["planners"]["optimal"]
                    opt_s, opt_ms, over = f"{o['seconds']:.2f}", f"{o['fluid_ms']:.3f}", f"{100 * r['mcf_over_optimal']:.2f}%"
                    optimum = f"{o['bound_ms']:.3f}"
                else:
                    opt_s, opt_ms, over = "not run", "", f"<= {100 * r['mcf_over_optimal']:.2f}%"
                    optimum = f">= {m['bound_ms']:.3f}"
                f.write(f"| `{r['network']}` | {r['pattern']} | {r['jobs']} | {opt_s} | {m['seconds']:.2f} | "
                        f"{optimum} | {opt_ms} | {m['fluid_ms']:.3f} | {over} | {100 * m['gap']:.2f}% |\n")
            f.write(f"\nBeyond {OPTIMAL_MAX_JOBS:,} jobs optimal is not run (on moe's million jobs its column "
                    "generation had not finished after 15 minutes, 2.6 GB); mcf's bound is a lower bound on the "
                    "optimum, so its excess is at most its own gap.\n")
            f.write("\n")
        f.write(f"Regenerate: `{command}`\n")


TARGET_SECONDS = 10.0  # planning time the runtime can afford at a pattern's first call


def torus_rows(out_dir: str) -> list:
    """mcf's recorded times on Mira (bench/optimal_speed.py's tables), as (endpoints, pattern, s)."""
    rows = []
    for name in ("optimal_speed.csv", "optimal_speed_49152.csv"):
        path = os.path.join(out_dir, name)
        if os.path.exists(path):
            with open(path, newline="") as f:
                rows += [(int(r["nodes"]), r["pattern"], float(r["seconds"])) for r in csv.DictReader(f)
                         if r["planner"] == "mcf"]
    return rows


def plot(out_dir: str, speed_rows: list) -> str | None:
    """mcf's planning time against endpoints, one line per family and pattern, and the target."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    lines: dict = {}
    for r in speed_rows:
        lines.setdefault((r["family"], r["pattern"]), []).append((r["endpoints"], r["planners"]["mcf"]["seconds"]))
    for endpoints, pattern, seconds in torus_rows(out_dir):
        lines.setdefault(("torus (Mira)", pattern), []).append((endpoints, seconds))
    fig, ax = plt.subplots(figsize=(7, 4.5))
    styles = {"dragonfly": "o-", "fattree": "s-", "torus (Mira)": "^-"}
    for (family, pattern), points in sorted(lines.items()):
        points.sort()
        ax.plot([p[0] for p in points], [p[1] for p in points], styles.get(family, "x-"), label=f"{family} {pattern}")
    ax.axhline(TARGET_SECONDS, color="red", linestyle="--", label=f"{TARGET_SECONDS:g} s target")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("endpoints")
    ax.set_ylabel("mcf planning time (s, 2 cores)")
    ax.set_title("mcf planning time by network family")
    ax.legend(fontsize=7, ncol=2)
    ax.grid(True, which="both", alpha=0.3)
    path = os.path.join(out_dir, "planning_scale.png")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--parts", default="speed,quality", help="comma-separated: speed, quality (default: both)")
    ap.add_argument("--quick", action="store_true", help="speed at 1,024 endpoints only")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "results"))
    ap.add_argument("--report", action="store_true",
                    help="rewrite the report and plot from planning_scale.json only, planning nothing")
    args = ap.parse_args(argv)
    if args.report:
        with open(os.path.join(args.out, "planning_scale.json")) as f:
            doc = json.load(f)
        write(args.out, doc["speed"], doc["quality"], doc["command"], doc["machine"])
        return 0
    parts = set(args.parts.split(","))
    unknown = parts - {"speed", "quality"}
    if unknown:
        ap.error(f"unknown part(s): {', '.join(sorted(unknown))}")
    # A part not run keeps its rows from the last report, so one part can be regenerated alone.
    path = os.path.join(args.out, "planning_scale.json")
    kept = {"speed": [], "quality": []}
    if os.path.isfile(path):
        with open(path) as f:
            kept.update({k: v for k, v in json.load(f).items() if k in kept})
    speed_rows = speed(args.quick) if "speed" in parts else kept["speed"]
    quality_rows = quality(args.quick) if "quality" in parts else kept["quality"]
    command = ".venv/bin/python bench/planning_scale.py" + (" --quick" if args.quick else "")
    write(args.out, speed_rows, quality_rows, command, machine())
    print(f"wrote {args.out}/planning_scale.md, .json and .png", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
