"""``optiq demo``: the thesis' 1024-node 1:8 experiment, planned and compared with its table."""

from __future__ import annotations

import os
import time

from .. import _core
from ..evaluate import PlannerOptions, run_planners
from ..plots import plot_link_loads
from ..progress import Progress
from ..reference import THESIS_NAME, THESIS_TABLE_VII
from ..report import comparison_table, result_row, thesis_row
from ..workload import Workload

PATTERNS = ("disjoint", "overlap", "subset")
PLANNERS = ("default", "heu1", "heu2", "mcf")


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "demo", help="plan the thesis' 1024-node 1:8 patterns and compare with its Table VII",
        description="Plan the disjoint, overlap and subset 1:8 patterns (64 sources, 512 destinations, "
                    "8 MiB per pair) on a Mira 1024-node partition (4x4x4x8x2 BG/Q torus) with the "
                    "default routing, heu1, heu2 and mcf (a certified near-optimal plan; the thesis' "
                    "OPT row sits beside it), print each next to the thesis' published row, and "
                    "plot the distribution of data per link (thesis Figure 9).",
        epilog="example:\n  optiq demo --out-dir results/")
    p.add_argument("--out-dir", default="optiq-output", metavar="DIR",
                   help="where the PNG plot goes (default: %(default)s)")
    p.add_argument("--quiet", action="store_true", help="no progress output on stderr")
    p.set_defaults(func=run)


def run(args) -> int:
    start = time.perf_counter()
    os.makedirs(args.out_dir or ".", exist_ok=True)  # an unusable directory fails now, not after planning
    network = _core.parse_network("mira:1024")
    routing = _core.make_routing("bgq", network)
    progress = Progress(quiet=args.quiet)
    panels = {}
    print(f"Mira 1024 nodes ({network.spec}, BG/Q routing, {network.link_bandwidth / 1e9:.1f} GB/s links), "
          "1:8 patterns, 8 MiB per pair.")
    print("Rows 'thesis X' are published (Table VII); their GB/s was measured on Mira. optiq rows are\n"
          "plans; their ms and GB/s are the fluid-model prediction (busiest link / link bandwidth).\n")
    for pattern in PATTERNS:
        jobs = _core.assign_sizes(_core.named_pattern(pattern, network.num_endpoints), "8MiB")
        results = run_planners(Workload(network, routing, jobs, pattern), list(PLANNERS), PlannerOptions(),
                               progress)
        rows = []
        for r in results:
            rows.append(result_row(r, f"optiq {r.planner}"))
            published = THESIS_TABLE_VII[pattern][THESIS_NAME[r.planner]]
            rows.append(thesis_row(f"  thesis {THESIS_NAME[r.planner]}", published))
        mcf = results[-1]
        print(f"== {pattern}: {len(jobs)} jobs")
        print(comparison_table(rows))
        print(f"mcf's proven bound: no plan of this pattern can put less than {mcf.bound / 1e6:.2f} MB on its "
              f"busiest link; the mcf plan is within {100 * mcf.gap:.2f}% of it.\n")
        panels[pattern] = {r.planner: _core.link_loads(r.plan, network) for r in results}
    path = plot_link_loads(panels, os.path.join(args.out_dir, "demo-link-loads.png"),
                           "Data per link, Mira 1024 nodes, 1:8 patterns, 8 MiB per pair")
    print(f"link-load plot: {os.path.abspath(path)}")
    print(f"done in {time.perf_counter() - start:.1f} s")
    return 0
