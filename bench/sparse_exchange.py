"""Time per dynamic sparse exchange against the number of ranks for PEX, PCX, RSX and NBX.

The microbenchmark of Hoefler, Siebert and Lumsdaine (PPoPP 2010): in every exchange each rank
sends one message to k random distinct other ranks (a new seeded draw per exchange). NBX runs
with MPI_Ibarrier and with optiq's dissemination barrier; AUTO shows which protocol optiq's rule
picks. Every byte of every exchange is checked (``optiq exchange``).

Local series: 1 to 16 ranks under mpirun on this machine (oversubscribed beyond its cores),
k = 6 (capped at P - 1), k = 2 and k = P - 1 with 1 KiB messages, and k = 6 with 64 KiB.
With ``--simulate T1,T2,...``: also 1 KiB messages under SimGrid SMPI on those topologies, one
rank per node, for each k of ``--sim-neighbors`` (simulated seconds; docs/simulation.md has
the model). Simulating 1024 ranks costs 15-20 minutes per k.

Writes bench/results/sparse_exchange{TAG}.csv, .md and .png. The recorded results came from

    .venv/bin/python bench/sparse_exchange.py
    .venv/bin/python bench/sparse_exchange.py --no-local --merge --jobs 2 \
        --simulate torus:4x4x4,torus:8x8x4,torus:8x8x8,torus:8x8x16 --sim-neighbors 6,1,16
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from optiq.plots import pyplot

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
PROTOCOLS = ["pex", "pcx", "rsx", "nbx", "auto"]
ALL = "1000000"  # more neighbours than ranks: every other rank
COLUMNS = ["pex", "pcx", "rsx", "nbx+ibarrier", "nbx+dissemination"]  # auto is reported apart


class RunFailed(Exception):
    pass


def exchange(*args: str) -> dict:
    cmd = [sys.executable, "-m", "optiq.cli", "exchange", "--json", *args]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RunFailed(f"failed: {' '.join(cmd)}\n{proc.stderr}")
    return json.loads(proc.stdout)


def series_runs(where: list, neighbors: str, size: str, iterations: int, simulated: bool = False) -> list:
    """One row per protocol for one configuration; NBX once per barrier, except under SMPI, whose
    MPI_Ibarrier completes early (NBX would lose messages), so there only the dissemination one."""
    common = where + ["--neighbors", neighbors, "--bytes", size, "--iterations", str(iterations), "--warmup", "3"]
    runs = [exchange(*common, "--protocol", ",".join(PROTOCOLS), "--barrier", "auto")]
    if not simulated:  # auto is MPI_Ibarrier here: NBX again with the other barrier
        runs.append(exchange(*common, "--protocol", "nbx", "--barrier", "dissemination"))
    rows = []
    for r in runs:
        for p in r["protocols"]:
            name = p["protocol"] + (f"+{p['barrier']}" if p["protocol"] == "nbx" else "")
            rows.append({"mode": "simulated" if r["simulated"] else "local", "topology": r.get("topology", ""),
                         "ranks": r["ranks"], "neighbors": r["neighbors"], "neighbors_asked": neighbors,
                         "bytes": r["bytes"], "protocol": name,
                         "ran": p["ran"] + (f"+{p['barrier']}" if p["ran"] == "nbx" else ""),
                         "median_us": p["seconds"]["median"] * 1e6, "min_us": p["seconds"]["min"] * 1e6,
                         "max_us": p["seconds"]["max"] * 1e6, "verified": r["verified"],
                         "wall_seconds": r["wall_seconds"]})
    return rows


def describe(neighbors: str, size: str) -> str:
    k = "k = P - 1 (every rank to every rank)" if neighbors == ALL else f"k = {neighbors} (at most P - 1)"
    return f"{k}, {size} messages"


def series_key(row: dict) -> tuple:
    return row["mode"], row["neighbors_asked"], row["bytes"]


def series_title(key: tuple) -> str:
    mode, neighbors, size = key
    size = f"{int(size) // 1024} KiB" if int(size) % 1024 == 0 else f"{size} B"
    where = "local (mpirun)" if mode == "local" else "simulated (SMPI torus)"
    return f"{where}, {describe(str(neighbors), size)}"


def table(rows: list, title: str) -> list:
    """Markdown: one line per rank count, median microseconds per protocol, the fastest in bold."""
    md = [f"### {title}", "",
          "| ranks | topology | k | " + " | ".join(COLUMNS) + " | auto ran (µs) | auto / best | verified |",
          "|---:|---|---:|" + "---:|" * len(COLUMNS) + "---|---:|---|"]
    for ranks in sorted({int(r["ranks"]) for r in rows}):
        at = {r["protocol"]: r for r in rows if int(r["ranks"]) == ranks}
        best = min(float(at[c]["median_us"]) for c in COLUMNS if c in at)
        cells = []
        for c in COLUMNS:
            v = float(at[c]["median_us"]) if c in at else None
            cells.append("–" if v is None else f"**{v:.1f}**" if v == best else f"{v:.1f}")
        auto = at["auto"]
        verified = all(str(r["verified"]) == "True" for r in at.values())
        md.append(f"| {ranks} | {at['pex']['topology'] or '–'} | {at['pex']['neighbors']} | " + " | ".join(cells) +
                  f" | {auto['ran']} ({float(auto['median_us']):.1f}) | {float(auto['median_us']) / best:.2f} | {verified} |")
    return md + [""]


def plot(groups: list, path: Path) -> None:
    plt = pyplot()

    cols = min(3, len(groups))
    nrows = (len(groups) + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(5.2 * cols, 4.2 * nrows), squeeze=False)
    for ax in axes.flat[len(groups):]:
        ax.set_visible(False)
    for ax, (title, rows, unit) in zip(axes.flat, groups):
        for c, style in zip(COLUMNS, ["s-", "^-", "v-", "o-", "o--"]):
            pts = sorted((int(r["ranks"]), float(r["median_us"])) for r in rows if r["protocol"] == c)
            if not pts:
                continue
            ax.plot([p[0] for p in pts], [p[1] for p in pts], style, label=c)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("ranks")
        ax.set_ylabel(f"median time per exchange ({unit})")
        ax.set_title(title, fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=80)


def read_rows(path: Path) -> list:
    if not path.exists():
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--iterations", type=int, default=50, help="timed exchanges per protocol and run (default: 50)")
    ap.add_argument("--quick", action="store_true", help="fewer configurations and iterations, to try the script")
    ap.add_argument("--simulate", default="", metavar="T1,T2", help="also simulate on these topologies (SMPI)")
    ap.add_argument("--sim-neighbors", default="6", metavar="K1,K2",
                    help="neighbour counts of the simulated runs, each on every topology (default: 6)")
    ap.add_argument("--sim-iterations", type=int, default=10, help="timed exchanges per simulated run (default: 10)")
    ap.add_argument("--jobs", type=int, default=1, help="simulations run at once (each uses one core; default: 1)")
    ap.add_argument("--local", action=argparse.BooleanOptionalAction, default=True, help="run the local series")
    ap.add_argument("--ranks", default="1,2,4,8,16", help="rank counts of the local series (default: 1,2,4,8,16)")
    ap.add_argument("--local-configs", default="6:1KiB,2:1KiB,all:1KiB,6:64KiB", metavar="K:SIZE,...",
                    help="local series as neighbours:message size, 'all' for P - 1 (default: %(default)s)")
    ap.add_argument("--merge", action="store_true",
                    help="keep the rows of the existing result files that this run does not measure again")
    ap.add_argument("--tag", default="", help="suffix of the result files")
    args = ap.parse_args()
    iterations = 5 if args.quick else args.iterations
    ranks = [1, 2, 4] if args.quick else [int(p) for p in args.ranks.split(",")]

    configs = [(ALL if k == "all" else k, size) for k, size in
               (c.split(":") for c in args.local_configs.split(","))]
    if args.quick:
        configs = configs[:1]
    rows = []
    if args.local:
        for neighbors, size in configs:
            for p in ranks:
                new = series_runs(["--np", str(p)], neighbors, size, iterations)
                rows += new
                print(f"local {describe(neighbors, size)}, {p} ranks: " +
                      ", ".join(f"{r['protocol']} {r['median_us']:.1f} us" for r in new), flush=True)

    failures = []

    def simulated(job):
        """One simulated configuration; a failure is reported and the others still recorded."""
        topology, neighbors = job
        try:
            return simulated_run(topology, neighbors)
        except RunFailed as e:
            print(e, file=sys.stderr, flush=True)
            failures.append(job)
            return []

    def simulated_run(topology, neighbors):
        new = series_runs(["--simulate", "--topology", topology, "--timeout", "7200"], neighbors, "1KiB",
                          args.sim_iterations, simulated=True)
        print(f"simulated {topology}, k = {neighbors}: " + ", ".join(
            f"{r['protocol']} {r['median_us']:.2f} us" for r in new) + f" ({new[0]['wall_seconds']:.0f} s wall)",
            flush=True)
        return new

    jobs = [(t, k) for k in args.sim_neighbors.split(",") for t in args.simulate.split(",") if t]
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for new in pool.map(simulated, jobs):
            rows += new

    RESULTS.mkdir(exist_ok=True)
    stem = RESULTS / f"sparse_exchange{args.tag}"
    rows = [{k: f"{v:.4f}" if isinstance(v, float) else str(v) for k, v in r.items()} for r in rows]
    if args.merge:
        measured = {(r["mode"], r["topology"], r["ranks"], r["neighbors_asked"], r["bytes"]) for r in rows}
        rows = [r for r in read_rows(stem.with_suffix(".csv"))
                if (r["mode"], r["topology"], r["ranks"], r["neighbors_asked"], r["bytes"]) not in measured] + rows
    if not rows:
        sys.exit("nothing measured (--no-local without --simulate)")
    with open(stem.with_suffix(".csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    series = []  # (title, rows, unit)
    for key in sorted({series_key(r) for r in rows}, key=lambda k: (k[0], int(k[2]), k[1] != "6", k[1])):
        part = [r for r in rows if series_key(r) == key]
        series.append((series_title(key), part, "µs" if key[0] == "local" else "simulated µs"))
    md = ["# Dynamic sparse data exchange: time per exchange", "",
          "Each rank sends one message to k random distinct other ranks per exchange (a new seeded draw "
          "each time, the same draws for every protocol); times are medians over "
          f"the timed exchanges ({iterations} locally, {args.sim_iterations} simulated), each from a barrier "
          "to the slowest rank's return, in microseconds. Bold: the fastest. \"auto\" is what optiq's rule "
          "chose and its time in the same run. Local runs share one 2-core VM with other work, "
          "oversubscribed beyond 2 ranks: compare protocols within a line, not across runs. Simulated "
          "runs have no NBX with MPI_Ibarrier (\u2013): SMPI's completes before every rank has entered. "
          "docs/exchange.md discusses the results.", "",
          "Command: `.venv/bin/python bench/sparse_exchange.py " + " ".join(sys.argv[1:]) + "`"
          + (" (merged into earlier results)" if args.merge else ""), "",
          "![time per exchange](" + stem.with_suffix(".png").name + ")", ""]
    for title, part, _ in series:
        md += table(part, title)
    stem.with_suffix(".md").write_text("\n".join(md))
    plot(series, stem.with_suffix(".png"))
    print(f"wrote {stem}.csv, .md and .png")
    if failures:
        print("failed (not in the results): " + ", ".join(f"{t} k = {k}" for t, k in failures), file=sys.stderr)
    return 0 if not failures and all(r["verified"] != "False" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
