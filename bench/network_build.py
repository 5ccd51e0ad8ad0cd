#!/usr/bin/env python3
"""How long building a large network model takes.

Times optiq.parse_network for a 10,368-host fat-tree, a 10,952-host dragonfly (840,000 links)
and Mira's 49,152 nodes, best of three runs each, and writes results/network_build.md. Routing
models compute routes on demand, so building one costs nothing to speak of.

    .venv/bin/python bench/network_build.py
"""

from __future__ import annotations

import os
import platform
import time

import optiq

SPECS = ["fattree:3;24,24,18;1,24,24;1,1,1", "dragonfly:74,1;2,1;74,1;1", "mira:49152"]
REPEATS = 3


def best_build(spec: str) -> tuple[float, optiq.Network]:
    best, net = float("inf"), None
    for _ in range(REPEATS):
        start = time.perf_counter()
        net = optiq.parse_network(spec)
        best = min(best, time.perf_counter() - start)
    return best, net


def main() -> None:
    rows = []
    for spec in SPECS:
        seconds, net = best_build(spec)
        rows.append((spec, net.num_endpoints, net.num_links, seconds))
        print(f"{spec}: {seconds:.3f} s", flush=True)
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "network_build.md")
    with open(out, "w") as f:
        f.write("# Building large network models\n\n")
        f.write(f"Machine: {platform.machine()}, {os.cpu_count()} cores (shared; load average "
                f"{os.getloadavg()[0]:.2f} at the end of the run), release build. Best of {REPEATS} runs "
                "of `optiq.parse_network`.\n\n")
        f.write("| network | endpoints | links | build s |\n|---|---:|---:|---:|\n")
        for spec, endpoints, links, seconds in rows:
            f.write(f"| `{spec}` | {endpoints} | {links} | {seconds:.3f} |\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
