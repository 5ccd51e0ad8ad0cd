"""NAS FT at scale in simulation: MPI_Alltoall, MPI_Ialltoallv with overlap, optiq_alltoallv and
optiq_ialltoallv with overlap, on BG/Q partitions, a fat-tree and a dragonfly.

Each case is one `optiq fft --simulate` call (every variant verified against NPB's published
checksums): NPB class B (512x256x256) by default, one rank per node, rank r on node r, the
squarest pencil grid that fits. The ranks' local work is charged by model (docs/applications.md,
"NAS FT"): FFT lines at --fft-rate, copies at the forwarders' copy rate.

    .venv/bin/python bench/applications/fft.py [--ranks 512,1024] [--machines bgq,fattree,dragonfly]
        [--class B] [--iterations 1] [--planners mcf] [--force]

Cases are kept in bench/results/fft.json as they finish (a rerun skips those already there
unless --force); the report (fft.md) and the plot (fft.png) are written after every case.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE.parent / "results"
OPTIQ = [sys.executable, "-m", "optiq.cli"]
MACHINES = {
    "bgq": {512: "mira:512", 1024: "mira:1024", 2048: "mira:2048", 4096: "mira:4096"},
    "fattree": {512: "fattree:3;8,8,8;1,8,8;1,1,1", 1024: "fattree:3;8,8,16;1,8,8;1,1,1"},
    "dragonfly": {512: "dragonfly:4,1;4,1;8,1;4", 1024: "dragonfly:8,1;4,1;8,1;4"},
}
# Plans on dragonflies assume the documented minimal rule (docs/simulation.md).
ROUTING = {"dragonfly": ["--routing", "minimal"]}
MPI_VARIANTS = "alltoall,ialltoallv"
OPTIQ_VARIANTS = "optiq,optiq-overlap"


def key(machine: str, ranks: int, planner: str) -> str:
    return f"{machine}/{ranks}/{planner}"


def run_case(machine: str, ranks: int, planner: str | None, args) -> dict:
    """One `optiq fft --simulate`: the MPI variants when planner is None, else optiq's with it."""
    cmd = OPTIQ + ["fft", "--np", str(ranks), "--class", args.npb_class, "--iterations", str(args.iterations),
                   "--simulate", "--topology", MACHINES[machine][ranks], "--timeout", "36000", "--json"]
    cmd += ["--variant", MPI_VARIANTS] if planner is None else ["--variant", OPTIQ_VARIANTS, "--planner", planner]
    cmd += ROUTING.get(machine, [])
    print(f"simulating {machine} {ranks} ranks {planner or 'mpi'} ...", file=sys.stderr, flush=True)
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)}\n{done.stderr.strip()}")
    doc = json.loads(done.stdout)
    doc["bench_wall_seconds"] = time.perf_counter() - start
    return doc


def rows(results: dict) -> list[dict]:
    """One row per (machine, ranks, variant, planner); the overlap figures of the optiq variants
    are against optiq_alltoallv's run with the same planner."""
    out = []
    for k in sorted(results, key=lambda k: (k.split("/")[0], int(k.split("/")[1]), k.split("/")[2])):
        machine, ranks, planner = k.split("/")
        doc = results[k]
        mpi = results.get(key(machine, int(ranks), "mpi"))
        base = next((v["seconds"] for v in mpi["variants"] if v["variant"] == "alltoall"), None) if mpi else None
        for v in doc["variants"]:
            out.append({"machine": machine, "ranks": int(ranks), "topology": doc["topology"], "procs": doc["procs"],
                        "variant": v["variant"], "planner": "" if planner == "mpi" else planner,
                        "verified": v["verified"], "seconds": v["seconds"], "exchange": v["exchange_seconds"],
                        "compute": v["compute_seconds"] + v["evolve_seconds"], "hidden": v["overlap_fraction"],
                        "speedup": base / v["seconds"] if base and v["seconds"] > 0 else None,
                        "per_iteration": v["seconds"] / (doc["iterations"] + 1),
                        "wall": doc["bench_wall_seconds"]})
    return out


def report(results: dict, path: Path, args) -> None:
    lines = ["# NAS FT in simulation (`bench/applications/fft.py`)", "",
             f"NPB class {args.npb_class}, {args.iterations} iteration(s) timed with the forward transform "
             "(NPB's timed region; every variant's checksums verified against NPB's), one rank per node, "
             "rank r on node r, the squarest pencil grid. Local work charged by model: FFT lines at "
             "`--fft-rate` (5 n log2 n flops each), copies at the forwarders' copy rate; the initial field "
             "and the checksum are not charged. Times are the slowest rank's; \"hidden\" is 1 - (overlapped "
             "time - compute) / exchange alone, against the blocking variant of the same moving layer. "
             "Regenerate: `.venv/bin/python bench/applications/fft.py`.", "",
             "| machine | ranks | grid | variant | planner | verified | total ms | exchange ms | compute ms "
             "| hidden | vs MPI_Alltoall | wall s |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows(results):
        hidden = "" if r["hidden"] is None else f"{100 * r['hidden']:.0f}%"
        speedup = "" if r["speedup"] is None else f"{r['speedup']:.2f}x"
        lines.append(f"| {r['topology']} | {r['ranks']} | {r['procs']} | {r['variant']} | {r['planner']} | "
                     f"{'yes' if r['verified'] else 'NO'} | {1e3 * r['seconds']:.2f} | {1e3 * r['exchange']:.2f} | "
                     f"{1e3 * r['compute']:.2f} | {hidden} | {speedup} | {r['wall']:.0f} |")
    path.write_text("\n".join(lines) + "\n")


def plot(results: dict, path: Path) -> None:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    table = rows(results)
    machines = sorted({r["machine"] for r in table})
    fig, axes = plt.subplots(1, len(machines), figsize=(4.5 * len(machines), 3.6), squeeze=False)
    for ax, machine in zip(axes[0], machines):
        mine = [r for r in table if r["machine"] == machine]
        labels = sorted({(r["variant"], r["planner"]) for r in mine})
        sizes = sorted({r["ranks"] for r in mine})
        width = 0.8 / len(labels)
        for i, label in enumerate(labels):
            ms = {r["ranks"]: 1e3 * r["per_iteration"] for r in mine if (r["variant"], r["planner"]) == label}
            xs = [k + i * width for k, n in enumerate(sizes) if n in ms]
            ax.bar(xs, [ms[n] for n in sizes if n in ms], width,
                   label=label[0] + (f" ({label[1]})" if label[1] else ""))
        ax.set_xticks([k + 0.4 - width / 2 for k in range(len(sizes))], [str(n) for n in sizes])
        ax.set_title(machine)
        ax.set_xlabel("ranks (one per node)")
        ax.set_ylabel("simulated ms per transform")
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ranks", default="512,1024")
    p.add_argument("--machines", default="bgq,fattree,dragonfly")
    p.add_argument("--class", dest="npb_class", default="B")
    p.add_argument("--iterations", type=int, default=1)
    p.add_argument("--planners", default="mcf", help="optiq's planners (default: %(default)s)")
    p.add_argument("--name", default="fft", help="results file stem (default: %(default)s)")
    p.add_argument("--force", action="store_true")
    p.add_argument("--report", action="store_true", help="rewrite the report and plot from the results file only")
    args = p.parse_args()
    store = RESULTS / f"{args.name}.json"
    results = json.loads(store.read_text()) if store.exists() else {}
    if args.report:
        report(results, RESULTS / f"{args.name}.md", args)
        plot(results, RESULTS / f"{args.name}.png")
        return 0
    for machine in args.machines.split(","):
        for ranks in map(int, args.ranks.split(",")):
            if ranks not in MACHINES[machine]:
                raise SystemExit(f"no {machine} of {ranks} nodes here: {sorted(MACHINES[machine])}")
            for planner in [None] + args.planners.split(","):
                k = key(machine, ranks, planner or "mpi")
                if k in results and not args.force:
                    continue
                results[k] = run_case(machine, ranks, planner, args)
                store.write_text(json.dumps(results, indent=1) + "\n")
                report(results, RESULTS / f"{args.name}.md", args)
                plot(results, RESULTS / f"{args.name}.png")
    report(results, RESULTS / f"{args.name}.md", args)
    plot(results, RESULTS / f"{args.name}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
