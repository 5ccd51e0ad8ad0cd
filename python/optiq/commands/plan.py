"""``optiq plan``: plan one pattern with several planners and compare them."""

from __future__ import annotations

from .. import _core
from ..evaluate import run_planners
from ..plots import plot_file, plot_link_loads
from ..progress import Progress
from ..qos import MODES, parse_weights, plan_with_classes
from ..report import comparison_table, load_histogram, result_row
from ..workload import add_network_arguments, add_pattern_arguments, build_workload
from .common import add_planner_arguments, planner_list, planner_options, print_json

EXAMPLES = """examples:
  optiq plan --topology mira:1024 --pattern disjoint --bytes 8MiB --planner default,heu1,heu2
  optiq plan --topology bgq:4x4x4x8x2 --pattern subset --planner default --json
  optiq plan --topology torus:8x8x8 --requests jobs.txt --planner heu2 --out plan.json
  optiq plan --topology mira:4096 --pattern random --seed 3 --bytes pareto:1.5:64KiB:8MiB
  optiq plan --topology mira:1024 --planner opt,optimal,mcf --max-paths 4 --json
  optiq plan --topology 'fattree:3;8,8,8;1,8,8;1,1,1' --pattern random --planner default,heu2,mcf
  optiq plan --topology 'dragonfly:4,1;4,1;4,1;4' --routing minimal --planner default,heu2,mcf
  optiq plan --topology 'dragonfly:4,1;4,1;4,1;4' --routing minimal --pattern group-to-group --planner default,mcf
  optiq plan --topology 'dragonfly:8,1;1,1;8,1;4' --pattern group-to-group --planner default,mcf --ugal
  optiq plan --topology 'fattree:2;4,4;1,2;1,1' --pattern dmodk-adversarial --planner default,heu2,mcf
  optiq plan --topology torus:8x8 --pattern moe --dests 4 --bytes 1MiB --planner default,mcf
  optiq plan --topology mira:512+io --requests to_io_nodes.txt --planner default,heu2,mcf,maxflow
  optiq plan --topology slurm:topology.conf --job-hosts 'n[001-064]' --pattern random --planner default,mcf
  optiq plan --topology torus:4x4x4 --requests classes.txt --planner mcf,optimal --qos lexicographic
  optiq plan --topology torus:4x4x4 --requests classes.txt --planner mcf --qos weighted --class-weights 0=4,1=1

Request files may give each job a priority in a fourth column (0, the default, is the most
urgent). --qos plans the classes so that urgent ones go first: lexicographic plans the most
urgent class alone and each next one behind the bytes of those before it; weighted shares the
links in proportion to the classes' weights (docs/qos.md).

Fat-trees and dragonflies take SimGrid's topo_parameters and route by SimGrid's documented rules
(dmodk, minimal), which plan on every parameter set. --routing simgrid follows SimGrid's code
route for route; where those routes cannot be planned with (a fat-tree with parallel cables, a
dragonfly with several chassis and routers) planning says so and names the routing that works
(docs/model.md).
"""


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "plan", help="plan a pattern with several planners and compare link loads",
        description="Plan a communication pattern with one or more planners and print the thesis "
                    "Table VII columns (paths, paths per job and per link, data on the busiest link) "
                    "plus the predicted transfer time (busiest link / link bandwidth) and throughput, "
                    "and a histogram of bytes per link.",
        epilog=EXAMPLES)
    add_network_arguments(p)
    p.add_argument("--job-hosts", metavar="HOSTS",
                   help="plan a job on these endpoints only, as on a shared machine: they alone relay bytes, and "
                        "patterns run over them in the order given; a Slurm host list of an imported network's "
                        "host names ('n[01-16],n40'), or endpoint numbers ('0-15,32') (docs/your-machine.md)")
    add_pattern_arguments(p)
    add_planner_arguments(p)
    q = p.add_argument_group("quality of service (docs/qos.md)")
    q.add_argument("--qos", choices=MODES,
                   help="plan the workload's priority classes (the request file's fourth column): lexicographic "
                        "gives the most urgent class its optimum alone and plans each next one behind the bytes of "
                        "those before it; weighted shares the links by class weight (weighted max concurrent flow). "
                        "Adds a predicted time per class")
    q.add_argument("--class-weights", metavar="P=W,...",
                   help="--qos weighted: a weight per priority, e.g. 0=4,1=1 (default: 2^-priority, each class twice "
                        "the share of the next)")
    out = p.add_argument_group("output")
    out.add_argument("--json", action="store_true", help="print one JSON document instead of the table")
    out.add_argument("--out", metavar="PLAN.json", help="write the plan (single planner only) to this file")
    out.add_argument("--plot", type=plot_file, metavar="PNG",
                     help="also draw the link-load distribution to this image (.png, .pdf, .svg, ...)")
    out.add_argument("--quiet", action="store_true", help="no progress output on stderr")
    out.add_argument("--ugal", action="store_true",
                     help="dragonflies: also give the time ideal adaptive routing (UGAL) would reach, the "
                          "best split of every pair over its minimal and Valiant routes (fluid model; a "
                          "baseline to compare with, not a plan: docs/model.md)")
    p.set_defaults(func=run)


def run(args) -> int:
    names = planner_list(args.planner)
    if args.out and len(names) != 1:
        raise _core.Error(f"--out writes one plan: give a single planner, not '{args.planner}'")
    options = planner_options(args)
    workload = build_workload(args)
    progress = Progress(quiet=args.quiet)
    ugal = None
    if args.ugal:  # first, so that a network without it fails before any planning
        from ..lp.ugal import ugal_seconds

        progress.note("UGAL baseline")
        ugal = ugal_seconds(workload, progress)
    if args.class_weights and args.qos != "weighted":
        raise _core.Error("--class-weights applies to --qos weighted only")
    classes = {}
    if args.qos:
        planned = plan_with_classes(workload, names, options, args.qos, parse_weights(args.class_weights), progress)
        results = [r for r, _ in planned]
        classes = {r.planner: c for r, c in planned}
    else:
        results = run_planners(workload, names, options, progress)

    if args.out:
        _core.save_plan(results[0].plan, workload.network, args.out)
    loads = {r.planner: _core.link_loads(r.plan, workload.network) for r in results}
    if args.plot:
        plot_link_loads({workload.description: loads}, args.plot,
                        f"{workload.network.spec}, {len(workload.jobs)} jobs")
    if args.json:
        print_json({
            "topology": workload.network.spec,
            "routing": workload.routing.name,
            "pattern": workload.description,
            "jobs": len(workload.jobs),
            **({"qos": args.qos} if args.qos else {}),
            "results": [{**r.json(), **({"classes": {str(c.priority): c.json() for c in classes[r.planner]}}
                                        if args.qos else {})} for r in results],
            **({"baselines": {"ugal_seconds": ugal}} if ugal is not None else {}),
        })
        return 0
    total = sum(j.bytes for j in workload.jobs)
    print(f"{workload.network.spec} ({workload.network.num_endpoints} nodes, routing {workload.routing.name}), "
          f"pattern {workload.description}: {len(workload.jobs)} jobs, {total / 1e6:.2f} MB")
    print(comparison_table([result_row(r) for r in results]))
    forward = options.forward_bandwidth or None
    # A bound in bytes on the busiest link holds when every link has the same capacity; otherwise
    # (or with relaying nodes) the bound is on the transfer time.
    in_time = forward is not None or len(set(workload.network.capacities)) > 1
    if forward is not None:
        print(f"nodes relay at most {forward:g} bytes/s: predicted times count the busiest relaying node "
              "(" + ", ".join(f"{r.planner} {r.metrics.relay_bytes_max / 1e6:.2f} MB" for r in results) + ")")
    for r in results:
        if r.bound is not None:
            cost = r.extra.get("constraint_cost")
            what = (f"{r.bound / 1e6:.2f} MB on the busiest link" if not in_time
                    else f"{r.bound_seconds * 1e3:.3f} ms on the transfer time"
                    + (" (links and relaying nodes)" if forward is not None else ""))
            print(f"{r.planner}: proven bound {what}, plan within {100 * r.gap:.2f}%"
                  + (f" (whole bytes and path limits cost {100 * cost:.2f}%)" if cost else ""))
    for r in results:
        for c in classes.get(r.planner, []):
            extra = f", weight {c.weight:g}" if c.weight is not None else ""
            print(f"{r.planner} class {c.priority} ({args.qos}{extra}): {c.jobs} jobs, {c.bytes / 1e6:.2f} MB, "
                  f"predicted {c.predicted_seconds * 1e3:.3f} ms")
    if ugal is not None:
        print(f"ideal adaptive routing (UGAL, a fluid-model baseline, not a plan): {ugal * 1e3:.3f} ms")
    print()
    print(load_histogram(loads))
    if args.out:
        print(f"plan written to {args.out}")
    if args.plot:
        print(f"plot written to {args.plot}")
    return 0
