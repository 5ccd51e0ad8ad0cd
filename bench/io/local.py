"""The library on this machine: optiq's collective writes (optiq/io.h) against
MPI_File_write_at_all, through `optiq io-bench`, on tmpfs and on disk.

Rows: every workload (HACC-IO AoS and SoA, a 1-D array) at 16 ranks over the seed's data sizes
per rank (0.5-4 MB, plus 190 KB: the 5,000 particles where tessier2016 saw 15x), against Open
MPI's default MPI-IO (OMPIO) and against ROMIO with hints matching optiq's settings; and 1-16
ranks at 1 MB per rank on tmpfs. Each point alternates the two writes 15 times; `ratio` is the
median over those pairs of optiq's bandwidth over MPI-IO's, which a noisy machine disturbs less
than a ratio of separate medians."""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

from optiq.cli import build_parser
from optiq.commands.io_bench import launch

SIZES = [190_000, 500_000, 1_000_000, 2_000_000, 4_000_000]
WORKLOADS = [("hacc", "aos"), ("hacc", "soa"), ("array", "aos")]
REFERENCES = [("default", False), ("romio", True)]
RANKS = [1, 2, 4, 8, 16]


def log(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def filesystems() -> list:
    """tmpfs (/dev/shm) and the disk under this checkout, where they exist."""
    out = []
    if os.path.isdir("/dev/shm"):
        out.append(("tmpfs", "/dev/shm"))
    out.append(("disk", os.path.dirname(os.path.abspath(__file__))))
    return out


def one(np: int, workload: str, layout: str, per_rank: int, directory: str, mpiio: str, hints: bool,
        iterations: int) -> dict:
    # The command line's own parser: every option not given here takes its default from its record.
    argv = ["io-bench", "--np", str(np), "--workload", workload, "--layout", layout, "--per-rank", str(per_rank),
            "--dir", directory, "--mpiio", mpiio, "--iterations", str(iterations)] + (["--hints"] if hints else [])
    return launch(build_parser().parse_args(argv))


def row(r: dict, fs: str) -> dict:
    pairs = sorted(a / b for a, b in zip(r["optiq_write_bps"]["all"], r["mpiio_write_bps"]["all"]) if b > 0)
    return {"ratio": pairs[len(pairs) // 2] if pairs else 0.0, "fs": fs, "ranks": r["ranks"], "workload": r["workload"], "layout": r["layout"], "per_rank": r["per_rank"],
            "mpiio": r["mpiio"], "hints": r["mpiio_hints"], "identical": r["identical"],
            "aggregators": r["aggregators"], "rounds": r["rounds"], "bytes": r["bytes"],
            "optiq_bps": r["optiq_write_bps"]["median"], "mpiio_bps": r["mpiio_write_bps"]["median"],
            "optiq_read_bps": r["optiq_read_bps"]}


def kept_rows(sweeps: list) -> list:
    """The rows of results/local.json from the sweeps not run now, so that one sweep can be redone."""
    path = Path(__file__).resolve().parent / "results" / "local.json"
    if not path.is_file():
        return []
    return [r for r in json.loads(path.read_text())["rows"] if r.get("sweep", "sizes") not in sweeps]


def stage_local(args) -> list:
    sweeps = getattr(args, "sweeps", ["sizes", "ranks"])
    rows = kept_rows(sweeps)
    iterations = getattr(args, "iterations", 15)
    for fs, where in filesystems():
        with tempfile.TemporaryDirectory(prefix="optiq-io-local-", dir=where) as d:
            for workload, layout in WORKLOADS if "sizes" in sweeps else []:
                for size in SIZES:
                    for mpiio, hints in REFERENCES:
                        r = row(one(16, workload, layout, size, d, mpiio, hints, iterations), fs)
                        rows.append(r)
                        log(f"{fs} 16 ranks {workload}/{r['layout']} {size} B: optiq {r['optiq_bps'] / 1e6:.0f} MB/s, "
                            f"MPI-IO {mpiio}{'+hints' if hints else ''} {r['mpiio_bps'] / 1e6:.0f} MB/s, "
                            f"identical {r['identical']}")
            if fs == "tmpfs" and "ranks" in sweeps:
                for np in RANKS:
                    for workload, layout in WORKLOADS:
                        r = row(one(np, workload, layout, 1_000_000, d, "default", False, iterations), fs)
                        r["sweep"] = "ranks"
                        rows.append(r)
                        log(f"{fs} {np} ranks {workload}/{r['layout']}: optiq {r['optiq_bps'] / 1e6:.0f} MB/s, "
                            f"MPI-IO {r['mpiio_bps'] / 1e6:.0f} MB/s")
    return rows
