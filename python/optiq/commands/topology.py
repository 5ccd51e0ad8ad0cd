"""``optiq topology``: import a machine's own network description, and summarise any network."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from .. import _core, options
from ..workload import TOPOLOGY_HELP
from .common import print_json

EXAMPLES = """examples:
  optiq topology import slurm:/etc/slurm/topology.conf --out machine.json
  optiq topology import ibnetdiscover:fabric.txt --out machine.json
  optiq topology import 'slingshot:hosts.txt;routers=16;global=4' --out machine.json
  optiq topology show graph:machine.json                 # endpoints, switches, levels, links, diameter
  optiq topology show slurm:topology.conf --plot tree.png
  optiq topology show 'fattree:2;4,4;1,2;1,2' --json

An imported network names each endpoint by its host name (docs/your-machine.md): the runtime then
places every rank on the endpoint its host names, and plans relay only through the job's hosts.
"""


def register(subparsers) -> None:
    p = subparsers.add_parser("topology", help="import a machine's network description, or summarise a network",
                              description="Import a site's network description (Slurm topology.conf or "
                                          "topology.yaml, InfiniBand ibnetdiscover output, a Slingshot host list) "
                                          "as a graph file, or print a summary of any network.",
                              epilog=EXAMPLES)
    sub = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    imp = sub.add_parser("import", help="write a network as a graph file (docs/graph-format.md)",
                         description="Read SOURCE (any --topology form, typically slurm:FILE, ibnetdiscover:FILE or "
                                     "slingshot:FILE) and write it as a graph file whose endpoint ids are host names.",
                         epilog=EXAMPLES)
    imp.add_argument("source", metavar="SOURCE", help=TOPOLOGY_HELP)
    imp.add_argument("--out", required=True, metavar="NET.json", help="the graph file to write ('-': standard output)")
    options.add_arguments(imp, "simulation", names=("link-bandwidth",))
    imp.set_defaults(func=run_import)
    show = sub.add_parser("show", help="summarise a network: endpoints, switches, levels, links, diameter",
                          description="Print a summary of a network: its vertices by kind, switch levels, links "
                                      "and their capacities, and the diameter between endpoints.",
                          epilog=EXAMPLES)
    show.add_argument("spec", metavar="SPEC", help=TOPOLOGY_HELP)
    options.add_arguments(show, "simulation", names=("link-bandwidth",))
    show.add_argument("--json", action="store_true", help="print the summary as JSON")
    show.add_argument("--plot", metavar="FILE.png", help="draw the network by levels (endpoints at the bottom)")
    show.set_defaults(func=run_show)


def run_import(args) -> int:
    net = _core.parse_network(args.source, args.link_bandwidth)
    text = _core.network_to_graph_json(net)
    if args.out == "-":
        sys.stdout.write(text)
    else:
        Path(args.out).write_text(text)
        s = summary(net)
        print(f"{args.out}: {s['endpoints']} endpoints, {s['switches']} switches, {s['links']} links "
              f"from {args.source}", file=sys.stderr)
    return 0


def levels(net) -> list[int]:
    """Each vertex's distance in links from the nearest endpoint (endpoints 0, leaf switches 1)."""
    level = [-1] * net.num_vertices
    frontier = list(net.endpoints)
    for v in frontier:
        level[v] = 0
    while frontier:
        nxt = []
        for v in frontier:
            for link in net.out_links(v):
                w = net.link_dst(link)
                if level[w] < 0:
                    level[w] = level[v] + 1
                    nxt.append(w)
        frontier = nxt
    return level


def summary(net) -> dict:
    kinds = Counter(net.kind(v) for v in range(net.num_vertices))
    level = levels(net)
    capacities = Counter(net.capacity(l) for l in range(net.num_links))
    names = [net.vertex_name(v) for v in net.endpoints[:3]]
    return {"spec": net.spec, "routing": net.default_routing, "digest": net.digest,
            "endpoints": kinds.get("endpoint", 0), "switches": kinds.get("switch", 0), "io": kinds.get("io", 0),
            "switch_levels": max((level[v] for v in range(net.num_vertices) if net.kind(v) == "switch"), default=0),
            "links": net.num_links,
            "capacities": [{"bytes_per_s": c, "links": n} for c, n in sorted(capacities.items())],
            "diameter": net.diameter(), "hosts_named": net.hosts_named, "first_hosts": names}


def run_show(args) -> int:
    net = _core.parse_network(args.spec, args.link_bandwidth)
    s = summary(net)
    if args.plot:
        plot(net, args.plot)
    if args.json:
        print_json(s)
        return 0
    print(f"{s['spec']}: {s['endpoints']} endpoints, {s['switches']} switches"
          + (f", {s['io']} I/O nodes" if s["io"] else "")
          + f", {s['switch_levels']} switch levels, {s['links']} directed links, diameter {s['diameter']}, "
            f"routing {s['routing']}, digest {s['digest']}")
    for c in s["capacities"]:
        print(f"  {c['links']} links at {c['bytes_per_s'] / 1e9:g} GB/s")
    if s["hosts_named"]:
        print(f"  endpoints are host names ({', '.join(s['first_hosts'])}, ...): ranks are placed by host name")
    return 0


def plot(net, path: str) -> None:
    """Vertices in rows by level (endpoints at the bottom), links between them."""
    from ..plots import panel, save

    if net.num_vertices > 5000:
        raise _core.Error(f"{net.spec} has {net.num_vertices} vertices; --plot draws at most 5,000")
    drawing = panel(figsize=(9, 4.5))
    if drawing is None:
        return
    fig, ax = drawing
    level = levels(net)
    rows: dict[int, list[int]] = {}
    for v in range(net.num_vertices):
        rows.setdefault(level[v], []).append(v)
    where = {}
    for lv, members in rows.items():
        for i, v in enumerate(members):
            where[v] = ((i + 0.5) / len(members), lv)
    drawn = set()
    for l in range(net.num_links):
        a, b = sorted((net.link_src(l), net.link_dst(l)))
        if (a, b) in drawn or a not in where or b not in where:
            continue
        drawn.add((a, b))
        (x0, y0), (x1, y1) = where[a], where[b]
        ax.plot([x0, x1], [y0, y1], color="0.7", linewidth=0.4, zorder=1)
    for kind, marker, color in (("endpoint", "o", "C0"), ("switch", "s", "C3"), ("io", "^", "C2")):
        pts = [where[v] for v in where if net.kind(v) == kind]
        if pts:
            ax.scatter(*zip(*pts), s=12 if len(where) < 500 else 3, marker=marker, color=color, label=kind, zorder=2)
    ax.set_yticks(sorted(rows))
    ax.set_ylabel("links from the nearest endpoint")
    ax.set_xticks([])
    ax.set_title(net.spec if len(net.spec) < 80 else net.spec[:77] + "...")
    ax.legend(fontsize=7, loc="upper right")
    save(fig, path)
