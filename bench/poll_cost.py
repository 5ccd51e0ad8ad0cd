"""What a poll costs on this machine, the figure behind the simulation's ``smpi/test``.

SMPI charges a simulated rank ``smpi/test`` seconds for every request it tests (MPI_Test, and
each request of an MPI_Testsome) and for every MPI_Iprobe. bench/poll_cost.c times those calls
on requests that never complete, under Open MPI with 2 ranks; the simulation charges the
median of repeated runs of MPI_Test on one request (POLL_COST in
python/optiq/simulation/smpi.py).

Writes bench/results/poll_cost.md. Run after scripts/setup.sh:

    .venv/bin/python bench/poll_cost.py [--repeats N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=7, help="runs of the measuring program (default: 7)")
    args = ap.parse_args()
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    times = defaultdict(list)
    with tempfile.TemporaryDirectory() as tmp:
        program = Path(tmp) / "poll_cost"
        subprocess.run(["mpicc", "-O2", str(HERE / "poll_cost.c"), "-o", str(program)], check=True)
        for _ in range(args.repeats):
            out = subprocess.run(["mpirun", "-np", "2", str(program)], capture_output=True, text=True, env=env)
            if out.returncode != 0:
                sys.exit(f"poll_cost failed:\n{out.stderr}")
            for line in out.stdout.splitlines():
                r = json.loads(line)
                times[(r["call"], r["requests"])].append(r["ns_per_call"])
    rows = ["| call | requests tested | ns per call (median) | ns per request |", "|---|---:|---:|---:|"]
    for (call, n), ns in sorted(times.items()):
        med = statistics.median(ns)
        rows.append(f"| {call} | {n} | {med:.1f} | {med / max(n, 1):.1f} |")
    test = statistics.median(times[("MPI_Test", 1)])
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "poll_cost.md").write_text(
        "# What a poll costs\n\n"
        f"Open MPI, 2 ranks on this machine, requests that never complete; medians of {args.repeats} runs.\n\n"
        "Command: `.venv/bin/python bench/poll_cost.py`\n\n" + "\n".join(rows) + "\n\n"
        f"MPI_Test on one request: **{test:.0f} ns**, the simulation's `smpi/test` and `smpi/iprobe`. "
        "SMPI charges that per request tested, so an MPI_Testsome over many requests costs more in a "
        "simulation than here, where each further request adds about 1 ns.\n")
    print(f"MPI_Test: {test:.1f} ns (bench/results/poll_cost.md)")


if __name__ == "__main__":
    main()
