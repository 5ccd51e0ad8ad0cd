"""``optiq show``: validate a plan file and print its metrics."""

from __future__ import annotations

from .. import options
from ..argtypes import bandwidth
from ..metrics import PlanMetrics
from ..report import comparison_table, load_histogram, metrics_row
from ..textfile import read_plan
from .. import _core
from .common import print_json

EXAMPLES = """examples:
  optiq plan --topology mira:1024 --planner heu2 --out plan.json && optiq show plan.json
  optiq show plan.json --json
"""


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "show", help="validate a plan file and print its metrics",
        description="Read a plan file (UTF-8 JSON), check it (every path runs from its job's source to its "
                    "destination over adjacent links of the plan's network; path bytes sum to the job's "
                    "bytes) and print "
                    "its metrics and link-load histogram.",
        epilog=EXAMPLES)
    p.add_argument("plan", metavar="PLAN.json", help="a file written by 'optiq plan --out'")
    options.add_arguments(p, "simulation", names=("link-bandwidth",))
    p.add_argument("--forward-bandwidth", type=bandwidth, default=None, metavar="BYTES_PER_S",
                   help="bytes/s a node can relay for others, counted in the predicted time (default: unlimited)")
    p.add_argument("--json", action="store_true", help="print the metrics as JSON")
    p.set_defaults(func=run)


def run(args) -> int:
    plan = read_plan(args.plan)
    network = _core.parse_network(plan.topology, args.link_bandwidth)
    m = PlanMetrics(plan, network, args.forward_bandwidth)
    if args.json:
        print_json({"topology": plan.topology, "routing": plan.routing, "planner": plan.planner,
                    "jobs": len(plan.jobs), "metrics": m.as_dict()})
        return 0
    print(f"{args.plan}: valid {plan.planner} plan on {plan.topology} (routing {plan.routing}), "
          f"{len(plan.jobs)} jobs, {m.total_bytes / 1e6:.2f} MB")
    print(comparison_table([metrics_row(m, plan.planner)]))
    if m.relay_bytes_max is not None:
        print(f"busiest relaying node: {m.relay_bytes_max / 1e6:.2f} MB at {args.forward_bandwidth:g} bytes/s")
    print()
    print(load_histogram({plan.planner: _core.link_loads(plan, network)}))
    return 0
