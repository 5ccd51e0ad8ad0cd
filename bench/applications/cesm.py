"""CESM's model-to-coupler exchanges in simulation, beside the thesis' Table XVI.

For each coupling (the model's ranks send their fields to the coupler's: `optiq workload cesm
--direction to-cpl`), 2,048 ranks at 4 per node on `mira:512` (and, with --machines, the same
ranks placed in block order on a 512-endpoint fat-tree and dragonfly), SimGrid SMPI runs
MPI_Alltoallv's messages, then optiq with each planner, planned inside the simulated application:
once with one planned job per rank pair, once with node aggregation (one per pair of nodes).
Every byte of every call is checked.

    .venv/bin/python bench/applications/cesm.py [--couplings atm,lnd,ocn,ice]
        [--planners default,heu1,heu2,maxflow,mcf] [--modes rank,node] [--machines mira]
        [--copy-bandwidth inf] [--force]

Each planner of each (machine, coupling, mode) is one `optiq simulate` call (with the MPI
baseline, a minute or two), kept in bench/results/cesm.json as it finishes, so an hours-long row
loses nothing already simulated: a rerun simulates only the planners missing from the file (all
of them with --force) and adds their rows beside the stored ones, keeping the stored
MPI_Alltoallv row and saying whether the new call reproduced it. The report (cesm.md) and the
plot (cesm.png) are written from that file after every call.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE.parent / "results"
OPTIQ = [sys.executable, "-m", "optiq.cli"]
MACHINES = {
    "mira": "mira:512",
    "fattree": "fattree:3;8,8,8;1,8,8;1,1,1",        # 512 hosts, three levels, full bisection
    "dragonfly": "dragonfly:4,1;4,1;8,1;4",           # 4 groups x 4 chassis x 8 routers x 4 hosts
}
# SimGrid's own dragonfly routes cannot be planned with on every parameter set: plans there
# assume the documented minimal rule (docs/simulation.md), which SimGrid's routes may differ from.
ROUTING = {"dragonfly": ["--routing", "minimal"]}
RANKS_PER_NODE = 4
ORDER = ["mpi_alltoallv", "default", "heu1", "heu2", "opt", "optimal", "maxflow", "mcf"]
# Table XVI (bui2015 §6.5.1): throughput in the thesis' unit, total paths, paths per job max/avg.
THESIS = {
    "atm": {"OPT": (352.24, 3987, 5, 1.37), "HEU2": (350.62, 13789, 15, 6.18), "MPI": (241.04, 2911, 1, 1.00)},
    "lnd": {"OPT": (343.5, 4004, 7, 1.38), "HEU2": (332.40, 15107, 14, 5.19), "MPI": (278.90, 2911, 1, 1.00)},
    "ocn": {"OPT": (135.16, 987, 5, 1.97), "HEU2": (136.06, 5924, 35, 11.80), "MPI": (104.44, 502, 1, 1.00)},
}


def key(machine: str, coupling: str, mode: str) -> str:
    return f"{machine}/{coupling}/{mode}"


def workload(machine: str, coupling: str, out: Path) -> dict:
    """Writes the coupling's rank-level request file; returns the generator's counts."""
    cmd = OPTIQ + ["workload", "cesm", "--coupling", coupling, "--topology", MACHINES[machine], "--ranks-per-node",
                   str(RANKS_PER_NODE), "--by", "rank", "--out", str(out), "--json"]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(done.stderr.strip())
    return json.loads(done.stdout)


def cross_node_pairs(path: Path) -> tuple[int, int]:
    """Rank pairs and node pairs that cross the network: MPI's messages and its paths."""
    ranks, nodes = 0, set()
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        s, d, b = (int(x) for x in line.split()[:3])
        if b > 0 and s // RANKS_PER_NODE != d // RANKS_PER_NODE:
            ranks += 1
            nodes.add((s // RANKS_PER_NODE, d // RANKS_PER_NODE))
    return ranks, len(nodes)


def simulate(machine: str, coupling: str, mode: str, planners: list[str], args, requests: Path) -> dict:
    cmd = OPTIQ + ["simulate", "--topology", MACHINES[machine], "--requests", str(requests), "--ranks-per-node",
                   str(RANKS_PER_NODE), "--planner", ",".join(planners), "--json", "--quiet",
                   "--timeout", "21600",  # six hours: heu2 and maxflow on ATM run for hours beside other work
                   "--verify"]  # every byte, even above the 1 GiB per call where checking is off by default
    cmd += ROUTING.get(machine, [])
    if mode == "node":
        cmd.append("--aggregate-node")
    if args.copy_bandwidth:
        cmd += ["--copy-bandwidth", args.copy_bandwidth]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)}: {out.stderr.strip()}")
    return json.loads(out.stdout)


def merge(stored: dict, new: dict, k: str) -> dict:
    """The stored call with the new call's planner rows added; the baseline stays the stored one."""
    old_mpi = next(r for r in stored["results"] if r["planner"] == "mpi_alltoallv")
    new_mpi = next(r for r in new["results"] if r["planner"] == "mpi_alltoallv")
    drift = new_mpi["simulated_seconds"] / old_mpi["simulated_seconds"] - 1
    print(f"{k}: MPI_Alltoallv {'reproduces' if abs(drift) < 1e-3 else 'moved'} "
          f"({old_mpi['simulated_seconds'] * 1e3:.3f} -> {new_mpi['simulated_seconds'] * 1e3:.3f} ms)",
          file=sys.stderr, flush=True)
    added = {r["planner"] for r in new["results"]} - {"mpi_alltoallv"}
    kept = [r for r in stored["results"] if r["planner"] not in added]
    stored["results"] = kept + [r for r in new["results"] if r["planner"] in added]
    return stored


def rows(results: dict) -> list[dict]:
    out = []
    for k, doc in results.items():
        machine, coupling, mode = k.split("/")
        mpi = next(r for r in doc["results"] if r["planner"] == "mpi_alltoallv")
        default_forwarded = next((r["forwarded_bytes"] for r in doc["results"] if r["planner"] == "default"), 0)
        for r in sorted(doc["results"], key=lambda r: ORDER.index(r["planner"])):
            if r["planner"] == "mpi_alltoallv" and mode == "node":
                continue  # the same baseline as the rank mode's
            is_mpi = r["planner"] == "mpi_alltoallv"
            out.append({
                "machine": machine, "coupling": coupling, "mode": "-" if is_mpi else mode, "planner": r["planner"],
                "gbps": r["throughput"] / 1e9, "x_mpi": mpi["simulated_seconds"] / r["simulated_seconds"],
                "of_prediction": r["predicted_seconds"] / r["simulated_seconds"],
                "paths": doc["mpi_paths"][0] if is_mpi else r["planned_paths"],
                "jobs": doc["mpi_paths"][0] if is_mpi else r["planned_jobs"],
                "most": 1 if is_mpi else r["most_paths"],
                "verified": r["verified"], "wall": r["wall_seconds"],
                # the runtime ran the default routes (its plan kept them, or promised too little):
                # one path per job and no bytes forwarded beyond the default run's (node aggregation
                # gathers and scatters in both)
                "kept_routes": not is_mpi and r["planner"] != "default" and r["most_paths"] == 1
                and r["forwarded_bytes"] == default_forwarded,
                "simulated_ms": r["simulated_seconds"] * 1e3, "predicted_ms": r["predicted_seconds"] * 1e3,
            })
    return out


def report(results: dict, path: Path) -> None:
    lines = ["# CESM coupling exchanges in simulation, beside Table XVI", "",
             "Regenerate: `.venv/bin/python bench/applications/cesm.py` (docs/applications.md explains the",
             "workload model, the aggregation scheme and what the simulation leaves out).", "",
             "2,048 ranks, 4 per node, the model's ranks sending to the coupler's (`optiq workload cesm",
             "--direction to-cpl --by rank`, seed 0); SimGrid SMPI with the settings of docs/simulation.md",
             "(copies at 3.4 GB/s per rank unless stated, 0.4 us per message). `rank`: the runtime plans one",
             "job per rank pair; `node`: node aggregation, one job per pair of nodes, gathered and scattered",
             "by one rank of each node. Paths: the plan's paths that carry bytes (MPI: one per rank pair",
             "that crosses nodes); per job: the most and the mean. Every byte of every call was checked",
             "(`verified`). \"(default routes)\": the runtime ran the network's own routes, because the",
             "plan kept them or promised less than the runtime's `min-gain` against them once its forwarders'",
             "copies are priced (docs/runtime.md, \"When a plan is not worth it\").", ""]
    table = rows(results)
    for machine in MACHINES:
        for coupling in ("atm", "lnd", "ice", "ocn"):
            part = [r for r in table if r["machine"] == machine and r["coupling"] == coupling]
            if not part:
                continue
            doc = results[next(k for k in results if k.startswith(f"{machine}/{coupling}/"))]
            lines += [f"## CPL-{coupling.upper()} on {MACHINES[machine]}", "",
                      f"{doc['rank_pairs']} rank pairs ({doc['mpi_paths'][0]} across nodes, "
                      f"{doc['mpi_paths'][1]} pairs of nodes), {doc['bytes'] / 1e9:.3f} GB per call.", "",
                      "| planner | mode | GB/s | x MPI | of prediction | total paths | per job max | per job avg "
                      "| checked | wall s |",
                      "|---|---|---:|---:|---:|---:|---:|---:|---|---:|"]
            for r in part:
                avg = r["paths"] / r["jobs"] if r["jobs"] else 0
                lines.append(f"| {r['planner']}{' (default routes)' if r['kept_routes'] else ''} | {r['mode']} | {r['gbps']:.1f} | {r['x_mpi']:.2f} | "
                             f"{100 * r['of_prediction']:.0f}% | {r['paths']} | {r['most']} | {avg:.2f} | "
                             f"{'verified' if r['verified'] else 'WRONG' if r['verified'] is False else '-'} | "
                             f"{r['wall']:.0f} |")
            if machine == "mira" and coupling in THESIS:
                t = THESIS[coupling]
                lines += ["", "Table XVI (thesis units; compare the ratios): "
                          + "; ".join(f"{name} {v[0]:g} ({v[0] / t['MPI'][0]:.2f} x MPI), {v[1]} paths, "
                                      f"max {v[2]}, avg {v[3]:.2f}" for name, v in t.items())]
            lines.append("")
    path.write_text("\n".join(lines))


def plot(results: dict, path: Path) -> None:
    from optiq.plots import grouped_bars, panel, save

    table = [r for r in rows(results) if r["planner"] != "mpi_alltoallv"]
    if not table:
        return
    drawing = panel((8, 4.2))
    if drawing is None:
        return
    fig, ax = drawing
    labels = sorted({(r["machine"], r["coupling"]) for r in table})
    series = {}
    for r in table:
        series.setdefault(f"{r['planner']} ({r['mode']})", {})[(r["machine"], r["coupling"])] = r["x_mpi"]
    grouped_bars(ax, [f"{m}\nCPL-{c.upper()}" for m, c in labels],
                 {name: [v.get(l, 0) for l in labels] for name, v in sorted(series.items())})
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_ylabel("speed-up over MPI_Alltoallv (simulated)")
    ax.set_title("CESM coupling, 2,048 ranks at 4 per node")
    ax.legend(fontsize=6, ncol=2)
    save(fig, path)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    p.add_argument("--couplings", default="atm,lnd,ocn,ice")
    p.add_argument("--planners", default="default,heu1,heu2,maxflow,mcf")
    p.add_argument("--modes", default="rank,node")
    p.add_argument("--machines", default="mira")
    p.add_argument("--copy-bandwidth", default=None, help="passed to optiq simulate (e.g. inf: copies are free)")
    p.add_argument("--name", default="cesm", help="results file stem (default: %(default)s)")
    p.add_argument("--force", action="store_true", help="simulate again what the results file already holds")
    args = p.parse_args()
    RESULTS.mkdir(exist_ok=True)
    store = RESULTS / f"{args.name}.json"
    results = json.loads(store.read_text()) if store.exists() else {}
    with tempfile.TemporaryDirectory(prefix="optiq-cesm-") as tmp:
        for machine in args.machines.split(","):
            for coupling in args.couplings.split(","):
                requests = Path(tmp) / f"{machine}-{coupling}.txt"
                counts = None
                for mode in args.modes.split(","):
                    k = key(machine, coupling, mode)
                    held = set() if args.force or k not in results else {r["planner"] for r in results[k]["results"]}
                    planners = [x for x in args.planners.split(",") if x not in held]
                    if not planners:
                        continue
                    if counts is None:
                        counts = workload(machine, coupling, requests)
                    shape = {"mpi_paths": cross_node_pairs(requests), "rank_pairs": counts["pairs"]["rank"],
                             "bytes": sum(int(line.split()[2]) for line in requests.read_text().splitlines()
                                          if line.strip() and not line.startswith("#"))}
                    replace = args.force  # a forced row starts afresh with its first call
                    for planner in planners:
                        print(f"simulating {k}: {planner} ...", file=sys.stderr, flush=True)
                        doc = {**simulate(machine, coupling, mode, [planner], args, requests), **shape}
                        results[k] = doc if replace or k not in results else merge(results[k], doc, k)
                        replace = False
                        store.write_text(json.dumps(results, indent=1))
                        report(results, RESULTS / f"{args.name}.md")
                        plot(results, RESULTS / f"{args.name}.png")
    report(results, RESULTS / f"{args.name}.md")
    plot(results, RESULTS / f"{args.name}.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
