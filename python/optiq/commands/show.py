"""``optiq show``: validate a plan file and print its metrics."""

from __future__ import annotations

import os

from .. import _core
from ..evaluate import METRIC_KEYS
from ..report import comparison_table, load_histogram, metrics_row
from ..workload import positive_float
from .common import print_json

EXAMPLES = """examples:
  optiq plan --topology mira:1024 --planner heu2 --out plan.json && optiq show plan.json
  optiq show plan.json --json
"""


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "show", help="validate a plan file and print its metrics",
        description="Read a plan file, check it (every path runs from its job's source to its "
                    "destination over adjacent ports; path bytes sum to the job's bytes) and print "
                    "its metrics and link-load histogram.",
        epilog=EXAMPLES)
    p.add_argument("plan", metavar="PLAN.json", help="a file written by 'optiq plan --out'")
    p.add_argument("--link-bandwidth", type=positive_float, default=1.8e9, metavar="BYTES_PER_S",
                   help="link capacity for the predicted time (default: 1.8e9)")
    p.add_argument("--json", action="store_true", help="print the metrics as JSON")
    p.set_defaults(func=run)


def run(args) -> int:
    if not os.path.isfile(args.plan):
        raise _core.Error(f"cannot read plan file '{args.plan}'")
    plan = _core.load_plan(args.plan)
    topology = _core.parse_topology(plan.topology, args.link_bandwidth)
    m = _core.compute_metrics(plan, topology)
    if args.json:
        print_json({"topology": plan.topology, "routing": plan.routing, "planner": plan.planner,
                    "jobs": len(plan.jobs), "metrics": {k: getattr(m, k) for k in METRIC_KEYS}})
        return 0
    print(f"{args.plan}: valid {plan.planner} plan on {plan.topology} (routing {plan.routing}), "
          f"{len(plan.jobs)} jobs, {m.total_bytes / 1e6:.2f} MB")
    print(comparison_table([metrics_row(m, plan.planner)]))
    print()
    print(load_histogram({plan.planner: _core.link_loads(plan, topology)}))
    return 0
