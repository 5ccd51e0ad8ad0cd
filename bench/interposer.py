"""Unmodified MPI programs under the PMPI interposer (liboptiq_pmpi.so).

1. MPICH's all-to-all tests (tests/external) for every core planner, both transports and 2, 4,
   8 and 16 ranks: each run checks its own data; the summary says whether optiq took the calls.
2. OSU's osu_alltoallv (and osu_ialltoallv with --with-ialltoallv) for every core planner, both
   transports and 2-16 ranks: each must exit 0 with its calls taken by optiq.
3. OSU's osu_alltoallv, latency per message size, without the interposer (MPI_Alltoallv) and
   with it, planner ``default`` (every message on its direct default route: what optiq itself
   costs, since one machine has no links for multiple paths to relieve) and ``mcf``
   (multi-path, with forwarding). The three configurations alternate, ``--repeats`` times, and
   each latency is the median of its repeats; ratios are optiq / MPI within that run.

OSU Micro-Benchmarks are not published by any package registry this project installs from, so
this part needs a built osu_alltoallv (its own configure and make, with CC=mpicc):

    .venv/bin/python bench/interposer.py --osu /path/to/osu_alltoallv [--ranks 4,8] [--no-mpich]
        [--no-osu-matrix] [--no-latency]

Writes bench/results/interposer.md (only the sections this run produced; the others stay as
they were), interposer_osu.csv and interposer_osu.png.
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path
from optiq.plots import panel, save

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
LIB = ROOT / "build" / "cpp" / "src" / "pmpi" / "liboptiq_pmpi.so"
CONFIGS = {"mpi": None, "optiq default": "default", "optiq mcf": "mcf"}
ROOT_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
            "OMPI_MCA_rmaps_base_oversubscribe": "1"}


def topology_for(np_: int) -> str:
    """The same rule as tests/pmpi/topology_for.sh: a 2-ary torus, one node per rank."""
    out = subprocess.run(["bash", "-c", f". {ROOT}/tests/pmpi/topology_for.sh; topology_for {np_}"],
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


def osu_once(osu: str, np_: int, planner: str | None, sizes: str, iterations: int) -> dict[int, float]:
    cmd = ["mpirun", "-np", str(np_), "--bind-to", "none"]
    if planner:
        cmd += ["-x", f"LD_PRELOAD={LIB}", "-x", f"OPTIQ_TOPOLOGY={topology_for(np_)}",
                "-x", f"OPTIQ_PLANNER={planner}", "-x", "OPTIQ_VERBOSE=1"]
    cmd += [osu, "-m", sizes, "-i", str(iterations), "-x", str(max(2, iterations // 5))]
    proc = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, **ROOT_ENV}, timeout=1800)
    if proc.returncode != 0:
        sys.exit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr[-2000:]}")
    if planner:
        summary = re.search(r"optiq: summary taken=(\d+) passed=(\d+)", proc.stderr)
        if not summary or int(summary.group(1)) == 0 or int(summary.group(2)) != 0:
            sys.exit(f"optiq did not take every call: {summary.group(0) if summary else 'no summary'}")
    rows = re.findall(r"^(\d+)\s+([\d.]+)\s*$", proc.stdout, re.M)
    if not rows:
        sys.exit(f"no OSU table in the output of {' '.join(cmd)}:\n{proc.stdout[-1000:]}")
    return {int(size): float(us) for size, us in rows}


def osu_matrix(osu: str, with_ialltoallv: bool) -> list[str]:
    """osu_alltoallv (and osu_ialltoallv beside it, on request) under the interposer for every
    core planner and transport at 2, 4, 8 and 16 ranks: exit 0, every call taken by optiq."""
    lines = []
    nonblocking = str(Path(osu).with_name("osu_ialltoallv"))
    programs = [osu] + ([nonblocking] if with_ialltoallv and os.access(nonblocking, os.X_OK) else [])
    for program in programs:
        for planner in ("default", "heu1", "heu2", "mcf"):
            for transport in ("p2p", "rma"):
                for np_ in (2, 4, 8, 16):
                    cmd = ["mpirun", "-np", str(np_), "--bind-to", "none", "-x", f"LD_PRELOAD={LIB}",
                           "-x", f"OPTIQ_TOPOLOGY={topology_for(np_)}", "-x", f"OPTIQ_PLANNER={planner}",
                           "-x", f"OPTIQ_TRANSPORT={transport}", "-x", "OPTIQ_VERBOSE=1",
                           program, "-m", "1:1048576", "-i", "5", "-x", "2"]
                    proc = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, **ROOT_ENV},
                                          timeout=900)
                    summary = re.search(r"optiq: summary taken=(\d+) passed=(\d+)", proc.stderr)
                    ok = proc.returncode == 0 and summary and int(summary.group(1)) > 0
                    where = f"{Path(program).name} {planner}/{transport} np={np_}"
                    lines.append(f"{'ok  ' if ok else 'FAIL'} {where}: exit {proc.returncode}, "
                                 f"{summary.group(0) if summary else 'no summary'}")
                    print(lines[-1], file=sys.stderr)
    failed = sum(line.startswith("FAIL") for line in lines)
    lines.append(f"osu: {len(lines) - failed} passed, {failed} failed")
    return lines


def osu_series(osu: str, ranks: list[int], sizes: str, iterations: int, repeats: int) -> list[dict]:
    rows = []
    for np_ in ranks:
        runs: dict[str, list[dict[int, float]]] = {name: [] for name in CONFIGS}
        for r in range(repeats):
            for name, planner in CONFIGS.items():
                print(f"osu_alltoallv np={np_} {name} (repeat {r + 1}/{repeats})", file=sys.stderr)
                runs[name].append(osu_once(osu, np_, planner, sizes, iterations))
        for size in sorted(runs["mpi"][0]):
            row = {"ranks": np_, "bytes": size}
            for name in CONFIGS:
                row[f"{name} us"] = statistics.median(run[size] for run in runs[name])
            for name in list(CONFIGS)[1:]:
                row[f"{name} / mpi"] = row[f"{name} us"] / row["mpi us"]
            rows.append(row)
    return rows


def mpich_matrix() -> list[str]:
    subprocess.run([str(ROOT / "tests/external/build.sh")], check=True, stdout=subprocess.DEVNULL)
    proc = subprocess.run([str(ROOT / "tests/external/matrix.sh"), "--full", "--lib", str(LIB)],
                          capture_output=True, text=True, env={**os.environ, **ROOT_ENV})
    lines = [line for line in proc.stdout.splitlines() if line.startswith(("ok", "FAIL", "external:"))]
    print("\n".join(lines), file=sys.stderr)
    return lines


def plot(rows: list[dict], path: Path) -> None:
    drawing = panel()
    if drawing is None:
        return
    fig, ax = drawing
    for np_ in sorted({r["ranks"] for r in rows}):
        for name, style in (("optiq default", "-o"), ("optiq mcf", "--s")):
            mine = [r for r in rows if r["ranks"] == np_]
            ax.plot([r["bytes"] for r in mine], [r[f"{name} / mpi"] for r in mine], style, label=f"{name}, {np_} ranks")
    ax.axhline(1.0, color="grey", lw=0.8)
    ax.axhline(1.1, color="grey", lw=0.8, ls=":")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("bytes per message (osu_alltoallv)")
    ax.set_ylabel("latency, optiq / MPI_Alltoallv")
    ax.set_title("osu_alltoallv under liboptiq_pmpi.so, one 2-core machine")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)
    save(fig, path)


def sections(text: str) -> dict[str, list[str]]:
    """The '## ' sections of a report, by title, each with its lines (title line included)."""
    out: dict[str, list[str]] = {}
    title = None
    for line in text.splitlines():
        if line.startswith("## "):
            title = line
            out[title] = []
        if title:
            out[title].append(line)
    return out


def write(rows: list[dict], matrix: list[str], osu_runs: list[str], args: argparse.Namespace) -> None:
    """Rewrites the sections this run produced and keeps the others from the last report, so a
    run of one part (say --no-mpich --no-osu-matrix) does not drop the rest."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    conditions = [f"Conditions: {args.note}", ""] if args.note else []
    fresh: dict[str, list[str]] = {}
    if matrix:
        title = "## MPICH's all-to-all tests, every planner and transport"
        fresh[title] = [title, "", *conditions,
                        "Command: `tests/external/matrix.sh --full --lib build/cpp/src/pmpi/liboptiq_pmpi.so` "
                        "(10 programs from MPICH 4.0.2's test/mpi/coll, unmodified; a configuration passes when every "
                        "program reports no error and optiq took calls in each program whose calls it can serve).", "",
                        "```", *matrix, "```", ""]
    if osu_runs:
        title = "## OSU under the interposer, every planner and transport"
        fresh[title] = [title, "", *conditions,
                        "osu_alltoallv (with --with-ialltoallv also osu_ialltoallv) at 2, 4, 8 and 16 ranks, 1 byte to "
                        "1 MiB per message, 5 iterations: a run passes when it exits 0 and optiq took its calls "
                        "(`taken` > 0; below the direct threshold, 16 KiB, optiq sends each message directly).", "",
                        "```", *osu_runs, "```", ""]
    if rows:
        with open(RESULTS / "interposer_osu.csv", "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
        plot(rows, RESULTS / "interposer_osu.png")
        title = "## osu_alltoallv latency, optiq / MPI"
        md = [title, "", *conditions,
              f"Command: `.venv/bin/python bench/interposer.py --osu PATH/osu_alltoallv --ranks "
              f"{','.join(map(str, args.ranks))} --sizes {args.sizes} --iterations {args.iterations} "
              f"--repeats {args.repeats} --no-mpich --no-osu-matrix` (OSU Micro-Benchmarks 5.3, built with mpicc). "
              "Latency in microseconds per call (OSU's average over ranks), median of the repeats, which "
              "alternate between the three configurations; `optiq default` sends every message on its direct "
              "default route, `optiq mcf` plans multiple paths (and forwards). OSU repeats one pattern, so from "
              "the second call on every rank of a direct plan starts early (docs/runtime.md, \"Agreeing on the pattern\").", "",
              "![ratio](interposer_osu.png)", "",
              "| ranks | bytes per message | MPI us | optiq default us | optiq mcf us | default / MPI | mcf / MPI |",
              "|---:|---:|---:|---:|---:|---:|---:|"]
        for r in rows:
            md.append(f"| {r['ranks']} | {r['bytes']} | {r['mpi us']:.1f} | {r['optiq default us']:.1f} | "
                      f"{r['optiq mcf us']:.1f} | {r['optiq default / mpi']:.2f} | {r['optiq mcf / mpi']:.2f} |")
        md.append("")
        for np_ in sorted({r["ranks"] for r in rows}):
            big = [r["optiq default / mpi"] for r in rows if r["bytes"] >= 1 << 20 and r["ranks"] == np_]
            if big:
                md.append(f"- {np_} ranks, 1 MiB and above: `optiq default` / MPI at most {max(big):.2f} "
                          f"(median {statistics.median(big):.2f}).")
        fresh[title] = md + [""]
    path = RESULTS / "interposer.md"
    kept = sections(path.read_text()) if path.exists() else {}
    order = list(kept) + [t for t in fresh if t not in kept]
    out = ["# Unmodified MPI programs under liboptiq_pmpi.so", "",
           "One shared 2-core VM, Open MPI 4.1 with shared memory between ranks, so there is no network for "
           "multiple paths to relieve: these numbers are what the interposer and the runtime cost, not what "
           "they gain. The simulation (bench/simulation) is where the gain is measured. Each section says "
           "how it was produced; a run rewrites only the sections it ran.", ""]
    for t in order:
        out += fresh.get(t, kept.get(t, []))
    path.write_text("\n".join(out).rstrip("\n") + "\n")
    print(f"wrote {path}", file=sys.stderr)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--osu", metavar="PATH", help="a built osu_alltoallv (without it, only the MPICH part runs)")
    p.add_argument("--ranks", default="4,8", type=lambda s: [int(x) for x in s.split(",")],
                   help="rank counts for OSU (default: 4,8)")
    p.add_argument("--sizes", default="1024:4194304", help="OSU's -m MIN:MAX (default: 1024:4194304)")
    p.add_argument("--iterations", type=int, default=50, help="OSU's -i (default: 50)")
    p.add_argument("--repeats", type=int, default=3, help="alternating runs per configuration (default: 3)")
    p.add_argument("--no-mpich", action="store_true", help="skip the MPICH test matrix")
    p.add_argument("--note", default="", help="what else the machine was doing, for the report")
    p.add_argument("--no-osu-matrix", action="store_true", help="skip OSU under every planner and transport")
    p.add_argument("--no-latency", action="store_true", help="skip the latency series (optiq / MPI)")
    p.add_argument("--with-ialltoallv", action="store_true",
                   help="osu_ialltoallv (beside --osu) in the matrix too; its compute calibration takes long "
                        "on an oversubscribed machine")
    args = p.parse_args()
    if not LIB.exists():
        sys.exit(f"{LIB} is missing: run scripts/setup.sh first")
    if args.osu and not os.access(args.osu, os.X_OK):
        sys.exit(f"--osu: not an executable: {args.osu}")
    rows = (osu_series(args.osu, args.ranks, args.sizes, args.iterations, args.repeats)
            if args.osu and not args.no_latency else [])
    osu_runs = osu_matrix(args.osu, args.with_ialltoallv) if args.osu and not args.no_osu_matrix else []
    matrix = [] if args.no_mpich else mpich_matrix()
    write(rows, matrix, osu_runs, args)


if __name__ == "__main__":
    main()
