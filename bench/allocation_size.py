"""What planning inside a job costs: mcf's predicted gain over the default route when only the
job's own endpoints may forward, for jobs on 100%, 50%, 25% and 12.5% of a fat-tree's and a
dragonfly's endpoints, compact (the first endpoints, as a scheduler packing a job does) or
scattered (a seeded random sample, as a fragmented machine gives).

Each job runs a random permutation among its endpoints (each sends --bytes to another, seeded).
Three figures per row, all in the fluid model of docs/model.md (no simulation): the default
route's time, mcf planned inside the job (Network.with_forwarders: what the runtime does on a
shared machine) and mcf as if every endpoint of the machine could forward (what a planner
unaware of the allocation would promise, and could not run). The model leaves out the other
jobs' traffic (docs/simulation.md, "Background traffic", for that) and relaying's CPU cost.

    .venv/bin/python bench/allocation_size.py [--fabrics fattree,dragonfly] [--seeds 5]

Writes bench/results/allocation_size.md, .csv and .png.
"""

from __future__ import annotations

import argparse
import csv
import math
import random
import sys
import time
from pathlib import Path

import optiq
from optiq.plots import panel, save

RESULTS = Path(__file__).resolve().parent / "results"
# A 2:1 tapered two-level fat-tree of 256 hosts (16 leaves of 16 hosts, 8 uplinks each) and a
# dragonfly of 9 groups x 9 routers x 4 hosts (324) with one global link between two groups.
FABRICS = {"fattree": "fattree:2;16,16;1,8;1,1", "dragonfly": "dragonfly:9,1;1,1;9,1;4"}
FRACTIONS = (1.0, 0.5, 0.25, 0.125)


def allocation(net, fraction: float, layout: str, rng: random.Random) -> list[int]:
    hosts = list(net.endpoints)
    count = max(2, round(fraction * len(hosts)))
    return sorted(hosts[:count] if layout == "compact" else rng.sample(hosts, count))


def permutation_jobs(hosts: list[int], size: int, rng: random.Random) -> list:
    order = hosts[:]
    while True:  # a derangement: nobody sends to itself
        rng.shuffle(order)
        if all(a != b for a, b in zip(hosts, order)):
            break
    return [optiq.Job(a, b, size) for a, b in zip(hosts, order)]


def row(fabric: str, fraction: float, layout: str, seed: int, args) -> dict:
    net = optiq.parse_network(FABRICS[fabric])
    routing = optiq.make_routing(net.default_routing, net)
    rng = random.Random(f"{seed}/{fabric}/{fraction}/{layout}")
    hosts = allocation(net, fraction, layout, rng)
    jobs = permutation_jobs(hosts, args.bytes, rng)
    options = optiq.PlannerOptions(epsilon=args.epsilon)
    default = optiq.compute_metrics(optiq.make_plan("default", net, routing, jobs, options).plan, net)
    inside_net = net.with_forwarders(hosts)
    start = time.perf_counter()
    inside = optiq.make_plan("mcf", inside_net, routing, jobs, options)
    seconds = time.perf_counter() - start
    optiq.validate_plan(inside.plan, inside_net)  # relays at the job's endpoints only
    whole = optiq.make_plan("mcf", net, routing, jobs, options)
    return {"fabric": fabric, "spec": FABRICS[fabric], "fraction": fraction, "layout": layout, "seed": seed,
            "hosts": len(hosts),
            "default_ms": default.predicted_seconds * 1e3, "inside_ms": inside.plan_seconds * 1e3,
            "inside_bound_ms": inside.bound_seconds * 1e3, "whole_ms": whole.plan_seconds * 1e3,
            "gain_inside": default.predicted_seconds / inside.plan_seconds,
            "gain_whole": default.predicted_seconds / whole.plan_seconds, "plan_s": seconds}


def summary(rows: list[dict]) -> list[dict]:
    """One line per fabric, share and layout: the seeds' geometric mean gains and their range."""
    out = []
    for key in dict.fromkeys((r["fabric"], r["fraction"], r["layout"]) for r in rows):
        group = [r for r in rows if (r["fabric"], r["fraction"], r["layout"]) == key]
        mean = lambda name: math.exp(sum(math.log(r[name]) for r in group) / len(group))  # noqa: E731
        out.append({"fabric": key[0], "fraction": key[1], "layout": key[2], "hosts": group[0]["hosts"],
                    "runs": len(group), "gain_inside": mean("gain_inside"), "gain_whole": mean("gain_whole"),
                    "inside_lo": min(r["gain_inside"] for r in group), "inside_hi": max(r["gain_inside"] for r in group),
                    "plan_s": max(r["plan_s"] for r in group)})
    return out


def plot(rows: list[dict], path: Path) -> None:
    drawing = panel()
    if drawing is None:
        return
    fig, ax = drawing
    for i, (fabric, layout) in enumerate((f, l) for f in FABRICS for l in ("compact", "scattered")):
        pts = sorted((r["fraction"], r["gain_inside"], r["gain_whole"]) for r in summary(rows)
                     if r["fabric"] == fabric and (r["layout"] == layout or r["fraction"] == 1.0))
        if not pts:
            continue
        x, inside, whole = zip(*pts)
        ax.plot(x, inside, "-o", color=f"C{i}", label=f"{fabric}, {layout}: inside the job")
        ax.plot(x, whole, ":x", color=f"C{i}", label=f"{fabric}, {layout}: every endpoint forwarding")
    ax.set_xscale("log", base=2)
    ax.set_xticks(FRACTIONS, [f"{f:g}" for f in FRACTIONS])
    ax.set_xlabel("share of the machine's endpoints in the job")
    ax.set_ylabel("mcf's predicted gain over the default route (x)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=6)
    save(fig, path)


def write(rows: list[dict], args) -> None:
    RESULTS.mkdir(exist_ok=True)
    with open(RESULTS / "allocation_size.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    lines = ["# Planning inside a job: mcf's predicted gain by allocation size", "",
             f"Regenerate: `.venv/bin/python bench/allocation_size.py --seeds {args.seeds}` "
             f"(a random permutation of {args.bytes} bytes per endpoint per seed, mcf epsilon {args.epsilon}; "
             "fluid model: no other jobs' traffic, relaying charged nothing). Gains are over the default route, "
             "geometric means over the seeds (range: the smallest and largest inside the job); every row's "
             "per-seed figures are in allocation_size.csv.", "",
             "| fabric | share | layout | endpoints | mcf inside the job | range | mcf if every endpoint forwarded | "
             "slowest plan s |",
             "|---|---|---|---|---|---|---|---|"]
    for r in summary(rows):
        lines.append(f"| {r['fabric']} | {r['fraction']:g} | {r['layout']} | {r['hosts']} | {r['gain_inside']:.2f}x | "
                     f"{r['inside_lo']:.2f}-{r['inside_hi']:.2f}x | {r['gain_whole']:.2f}x | {r['plan_s']:.2f} |")
    lines += ["", "Fabrics: " + ", ".join(f"{k} `{v}`" for k, v in FABRICS.items()) + ".", "",
              "![gain by allocation size](allocation_size.png)", ""]
    (RESULTS / "allocation_size.md").write_text("\n".join(lines))
    plot(rows, RESULTS / "allocation_size.png")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--fabrics", default=",".join(FABRICS), help="comma-separated: " + ", ".join(FABRICS))
    p.add_argument("--bytes", type=int, default=8 << 20, help="bytes each endpoint sends (default 8 MiB)")
    p.add_argument("--epsilon", type=float, default=0.05, help="mcf's certified gap (default 0.05)")
    p.add_argument("--seeds", type=int, default=5, help="permutations per cell, seeds 1..N (default 5)")
    args = p.parse_args()
    rows = []
    for fabric in args.fabrics.split(","):
        if fabric not in FABRICS:
            p.error(f"unknown fabric '{fabric}' (known: {', '.join(FABRICS)})")
        for fraction in FRACTIONS:
            for layout in ("compact", "scattered"):
                if fraction == 1.0 and layout == "scattered":
                    continue  # the whole machine has one layout
                print(f"[{time.strftime('%H:%M:%S')}] {fabric} {fraction:g} {layout}", file=sys.stderr)
                for seed in range(1, args.seeds + 1):
                    rows.append(row(fabric, fraction, layout, seed, args))
    write(rows, args)
    print((RESULTS / "allocation_size.md").read_text())


if __name__ == "__main__":
    main()
