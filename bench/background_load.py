"""Planners on a shared machine: simulated optiq and MPI_Alltoallv beside a second job's traffic.

A background of load L (docs/simulation.md, "Background traffic"): half the nodes, paired at
random, stream to each other both ways along the default routes, each flow capped at L x the
link bandwidth. For each load, every planner plans twice: aware of the background (on what it
leaves of each link) and unaware (on the full links); both plans run under the same background,
as does MPI_Alltoallv on the default routes. Simulated times are deterministic, so one run each.

    .venv/bin/python bench/background_load.py [--topology mira:512] [--loads 0,0.25,0.5]

Writes bench/results/background_load.md, .csv and .png.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

from optiq.failure import run_interruptible
from optiq.plots import panel, save
from optiq.simulation.background import Background
from optiq.simulation.experiment import MPI, Setup, simulate

RESULTS = Path(__file__).resolve().parent / "results"


def rows_for(args, load: float) -> list[dict]:
    rows = []
    modes = [True] if load == 0 else [True, False]
    for aware in modes:
        s = Setup(args.topology, pattern=args.pattern, background=Background(load, args.nodes, args.seed),
                  plan_for_background=aware)
        print(f"[{time.strftime('%H:%M:%S')}] load {load:g}, {'aware' if aware else 'unaware'}", file=sys.stderr)
        for r in simulate(s, args.planners.split(",")):
            if r["planner"] == MPI and not aware:
                continue  # MPI plans nothing: the same run as the aware one
            rows.append({"load": load, "planner": r["planner"],
                         "planning": "-" if r["planner"] == MPI else ("aware" if aware else "unaware"),
                         "simulated_ms": r["simulated_seconds"] * 1e3, "predicted_ms": r["predicted_seconds"] * 1e3,
                         "wall_s": r["wall_seconds"]})
    mpi = next(r["simulated_ms"] for r in rows if r["planner"] == MPI)
    for r in rows:
        r["x_mpi"] = mpi / r["simulated_ms"]
    return rows


def plot(rows: list[dict], planners: list[str], path: Path) -> None:
    drawing = panel()
    if drawing is None:
        return
    fig, ax = drawing
    loads = sorted({r["load"] for r in rows})
    for i, p in enumerate(planners):
        color = f"C{i}"
        for mode, style in (("aware", "-o"), ("unaware", "--x")):
            pts = [(r["load"], r["simulated_ms"]) for r in rows if r["planner"] == p
                   and (r["planning"] == mode or (r["load"] == 0 and mode == "unaware" and r["planning"] == "aware"))]
            if pts:
                ax.plot(*zip(*sorted(pts)), style, color=color, label=f"{p}, {mode}")
    mpi = sorted((r["load"], r["simulated_ms"]) for r in rows if r["planner"] == MPI)
    ax.plot(*zip(*mpi), ":s", color="black", label="MPI_Alltoallv")
    ax.set_xticks(loads)
    ax.set_xlabel("background load (each flow's cap / link bandwidth)")
    ax.set_ylabel("simulated ms per call")
    ax.set_yscale("log")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)
    save(fig, path)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--topology", default="mira:512")
    p.add_argument("--pattern", default="disjoint")
    p.add_argument("--planners", default="heu1,heu2,optimal,mcf")
    p.add_argument("--loads", default="0,0.25,0.5")
    p.add_argument("--nodes", type=float, default=0.5, help="fraction of the nodes in the second job")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    rows = [r for load in (float(x) for x in args.loads.split(",")) for r in rows_for(args, load)]
    RESULTS.mkdir(exist_ok=True)
    with open(RESULTS / "background_load.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    planners = args.planners.split(",")
    plot(rows, planners, RESULTS / "background_load.png")
    md = ["# Planners on a shared machine", "",
          f"Command: `.venv/bin/python bench/background_load.py --topology {args.topology} --pattern {args.pattern} "
          f"--planners {args.planners} --loads {args.loads} --nodes {args.nodes:g} --seed {args.seed}` "
          "(SimGrid SMPI; simulated times are deterministic). Pattern: the thesis' 1:8 "
          f"{args.pattern}, 8 MiB per pair. Background: {args.nodes:g} of the nodes, paired at random, "
          "stream both ways along their default routes, each flow capped at the load times the link bandwidth "
          "(docs/simulation.md, \"Background traffic\"). *aware* plans on what the background leaves of each "
          "link, *unaware* on the full links; both run under the same background, as does MPI_Alltoallv. "
          "Predictions are on the network each plan was made for. Forwarders' copies and per-message costs are "
          "charged at the measured defaults (docs/simulation.md).", "",
          "![simulated time](background_load.png)", "",
          "| load | planner | planning | simulated ms | predicted ms | x MPI |", "|---:|---|---|---:|---:|---:|"]
    for r in rows:
        md.append(f"| {r['load']:g} | {r['planner']} | {r['planning']} | {r['simulated_ms']:.2f} | "
                  f"{r['predicted_ms']:.2f} | {r['x_mpi']:.2f} |")
    md += ["", "Aware against unaware, same planner and load (simulated time, unaware / aware; above 1: aware "
               "is faster):", ""]
    for load in sorted({r["load"] for r in rows if r["load"] > 0}):
        parts = []
        for pl in planners:
            a = next((r for r in rows if r["load"] == load and r["planner"] == pl and r["planning"] == "aware"), None)
            u = next((r for r in rows if r["load"] == load and r["planner"] == pl and r["planning"] == "unaware"), None)
            if a and u:
                parts.append(f"{pl} {u['simulated_ms'] / a['simulated_ms']:.2f}")
        md.append(f"- load {load:g}: " + ", ".join(parts))
    md += ["", "What this leaves out: the background is steady (its flows neither start nor stop during a call) "
               "and follows the default routes; planning knows it exactly; the background's own slowdown is not "
               "measured; MPI_Alltoallv's own algorithm is not background-aware."]
    (RESULTS / "background_load.md").write_text("\n".join(md) + "\n")
    print(f"wrote {RESULTS / 'background_load.md'}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(run_interruptible(main, "bench/background_load.py"))
