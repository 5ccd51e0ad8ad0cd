"""``optiq workload``: write request files of modelled application exchanges (CESM's models
and coupler, docs/applications.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from .. import _core, cesm
from ..argtypes import SEED_MAX, byte_size, integer
from ..plots import plot_file, pyplot, save
from ..report import text_table
from ..workload import TOPOLOGY_HELP
from .common import print_json

EXAMPLES = """examples:
  optiq workload cesm --coupling atm --out atm.txt                    # ATM ranks to the coupler on mira:512
  optiq workload cesm --coupling lnd --by node --out lnd-nodes.txt --plot lnd.png
  optiq workload cesm --coupling ocn --direction from-cpl --seed 3 --point-bytes 32KiB --out ocn.txt
  optiq workload cesm --coupling ice --topology mira:1024 --by node --out ice.txt --json
  optiq workload cesm --coupling atm --topology 'fattree:2;8,16;1,8;1,1' --ranks-per-node 2 --out atm.txt
  optiq plan --topology mira:512 --requests lnd-nodes.txt --planner default,heu2,mcf

The thesis' CESM run (§6.5.1) had 2048 ranks, 4 per node, on 512 Mira nodes; its trace is not
public. This model places the components by the thesis' shares of every network's ranks (rank r
on the (r // R)-th endpoint), overlaps each model's decomposition of its grid with the coupler's,
and compares the pairs with Table XV and Figure 18. A rank pair exchanges the points both ranks
hold; --by node merges the rank pairs of one node pair, summing their bytes. Pairs of a rank with
itself are left out, and so are, in --by node files, pairs within one node (they never cross the
network). --by rank files name ranks (run them with the same --ranks-per-node), --by node files
endpoint vertices, which 'optiq plan --requests' reads. Sizes take KB = 1000 bytes and
KiB = 1024 bytes.
"""


def register(subparsers) -> None:
    p = subparsers.add_parser("workload", help="write request files of modelled application exchanges (CESM)",
                              description="Write the jobs of a modelled application exchange as a request file "
                                          "('src dst bytes' lines) and compare them with the thesis' figures.",
                              epilog=EXAMPLES)
    sub = p.add_subparsers(dest="application", metavar="APPLICATION", required=True)
    # cli.build_parser sets this formatter on the commands only: the examples need it here too.
    c = sub.add_parser("cesm", help="one CESM model's exchange with the coupler (thesis Table XV, Figure 18)",
                       description="Model the exchange between one CESM component model and the coupler: both "
                                   "decompose the model's grid, and each pair of ranks exchanges the points both "
                                   "hold (docs/applications.md). Writes the pairs as a request file and prints "
                                   "their counts beside Table XV's and their points beside Figure 18's.",
                       epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("--coupling", required=True, choices=cesm.MODELS, help="the model that exchanges with the coupler")
    c.add_argument("--direction", choices=("to-cpl", "from-cpl"), default="to-cpl",
                   help="to-cpl: model ranks send to coupler ranks; from-cpl: the reverse (default: %(default)s)")
    c.add_argument("--by", choices=("rank", "node"), default="rank",
                   help="jobs between ranks, or between nodes with each node pair's rank pairs merged "
                        "(default: %(default)s)")
    c.add_argument("--seed", type=integer(0, SEED_MAX), default=0,
                   help="seed of the modelled world: continents, costs, sea-ice edge (default: 0)")
    c.add_argument("--point-bytes", type=byte_size, default="32KB", metavar="SIZE",
                   help="bytes per exchanged point: 32KB is 32000 bytes, 32KiB 32768 (default: %(default)s)")
    net = c.add_argument_group("network")
    net.add_argument("--topology", default="mira:512", metavar="SPEC", help=TOPOLOGY_HELP + " (default: %(default)s)")
    net.add_argument("--ranks-per-node", type=integer(1, 4096), default=4, metavar="R",
                     help="ranks per endpoint; the model runs on every endpoint's R ranks (default: %(default)s)")
    out = c.add_argument_group("output")
    out.add_argument("--out", required=True, metavar="FILE", help="the request file to write")
    out.add_argument("--json", action="store_true", help="print one JSON document instead of the tables")
    out.add_argument("--plot", type=plot_file, metavar="PNG",
                     help="draw the points per rank pair and per node pair (.png, .pdf, .svg, ...)")
    c.set_defaults(func=run_cesm)


def _model(args, network):
    ranks = len(network.endpoints) * args.ranks_per_node
    if ranks < cesm.MIN_RANKS:
        raise _core.Error(f"{network.spec} has {len(network.endpoints)} endpoints, {ranks} ranks at "
                          f"{args.ranks_per_node} per node: the CESM model needs at least {cesm.MIN_RANKS} ranks")
    if ranks > cesm.MAX_RANKS:
        raise _core.Error(f"{network.spec} at {args.ranks_per_node} ranks per node has {ranks} ranks: "
                          f"the CESM model runs on at most {cesm.MAX_RANKS}")
    return cesm.exchange(args.coupling, ranks, args.ranks_per_node, args.seed)


def _jobs(ex: cesm.Exchange, by: str, direction: str, endpoints: list) -> np.ndarray:
    pairs = ex.rank_pairs if by == "rank" else ex.node_pairs
    src, dst = (pairs[:, 0], pairs[:, 1]) if direction == "to-cpl" else (pairs[:, 1], pairs[:, 0])
    if by == "node":
        where = np.asarray(endpoints, dtype=np.int64)
        src, dst = where[src], where[dst]
    order = np.lexsort((dst, src))
    return np.stack([src[order], dst[order], pairs[order, 2]], axis=1)


def _reference(ex: cesm.Exchange) -> tuple:
    """Table XV's counts at this run's scale: rank pairs scale with the ranks, node pairs too
    but only at the thesis' ranks per node."""
    rank, node = cesm.TABLE_XV[ex.model]
    scale = ex.layout.ranks / cesm.THESIS_RANKS
    return round(rank * scale), round(node * scale) if ex.ranks_per_node == cesm.THESIS_RANKS_PER_NODE else None


def _partners(pairs: np.ndarray, column: int, members: range) -> list:
    counts = np.bincount(pairs[:, column], minlength=members.stop)[members.start:members.stop]
    return [int(counts.min()), int(counts.max())]


def _points(values: np.ndarray) -> dict:
    if not len(values):  # every pair within one node
        return {"min": 0, "max": 0, "mean": 0.0, "under_20": 0.0, "over_20": 0.0,
                "histogram": dict(cesm.histogram(values))}
    return {"min": int(values.min()), "max": int(values.max()), "mean": round(float(values.mean()), 2),
            "under_20": round(float((values < 20).mean()), 4), "over_20": round(float((values > 20).mean()), 4),
            "histogram": dict(cesm.histogram(values))}


def summary(ex: cesm.Exchange, args, network, point_bytes: int, jobs: np.ndarray) -> dict:
    model, lay = ex.model, ex.layout
    ref_rank, ref_node = _reference(ex)
    scaled = lay.ranks != cesm.THESIS_RANKS
    return {
        "coupling": model, "direction": args.direction, "by": args.by, "seed": args.seed,
        "topology": network.spec, "ranks": lay.ranks, "ranks_per_node": ex.ranks_per_node,
        "nodes": len(network.endpoints), "point_bytes": point_bytes,
        "model_ranks": [lay.of(model).start, lay.of(model).stop - 1], "cpl_ranks": [lay.cpl.start, lay.cpl.stop - 1],
        "grid": {"name": ex.grid.name, "lon": ex.grid.lon, "lat": ex.grid.lat, "points": ex.points},
        "pairs": {"rank": len(ex.rank_pairs), "node": len(ex.node_pairs)},
        "table_xv": {"rank": cesm.TABLE_XV[model][0], "node": cesm.TABLE_XV[model][1],
                     "scaled_to_this_run": scaled, "compare_rank": ref_rank, "compare_node": ref_node},
        "left_out": {"same_rank_pairs": ex.same_rank[0], "same_rank_points": ex.same_rank[1],
                     "rank_pairs_within_a_node": ex.same_node[0], "node_pairs_within_a_node": ex.same_node[1],
                     "points_within_a_node": ex.same_node[2]},
        "partners": {"per_model_rank": _partners(ex.rank_pairs, 0, lay.of(model)),
                     "per_cpl_rank": _partners(ex.rank_pairs, 1, lay.cpl)},
        "points": {"rank": _points(ex.rank_pairs[:, 2]), "node": _points(ex.node_pairs[:, 2])},
        "out": args.out, "jobs": len(jobs), "bytes": int(jobs[:, 2].sum()) * point_bytes,
    }


def write_requests(path: str, ex: cesm.Exchange, args, network, point_bytes: int, jobs: np.ndarray) -> None:
    model = ex.model.upper()
    arrow = f"{model} -> CPL" if args.direction == "to-cpl" else f"CPL -> {model}"
    what = (f"ranks (rank r on endpoint r // {ex.ranks_per_node} of {network.spec})" if args.by == "rank"
            else f"endpoint vertices of {network.spec}")
    within = (f"{ex.same_node[0]} rank pairs within one node kept" if args.by == "rank"
              else f"{ex.same_node[1]} node pairs within one node left out")
    lines = [
        f"# optiq workload cesm --coupling {ex.model} --direction {args.direction} --by {args.by} --seed {args.seed} "
        f"--point-bytes {point_bytes} --topology {network.spec} --ranks-per-node {ex.ranks_per_node}",
        f"# CESM {arrow}, {ex.layout.ranks} ranks: {len(ex.rank_pairs)} rank pairs, {len(ex.node_pairs)} node pairs "
        f"(Table XV at 2048 ranks: {cesm.TABLE_XV[ex.model][0]}, {cesm.TABLE_XV[ex.model][1]})",
        f"# sources and destinations are {what}; {ex.same_rank[0]} pairs of a rank with itself left out; {within}",
        "# src dst bytes",
    ]
    lines += [f"{s} {d} {p * point_bytes}" for s, d, p in jobs.tolist()]
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")


def _bar(count: int, total: int, width: int = 24) -> str:
    return "#" * round(width * count / total) if total else ""


def histogram_lines(rank: dict, node: dict, pairs: dict) -> list[str]:
    """The two histograms side by side, each count with a bar of its share of the pairs."""
    lines = [f"{'points per pair':<17}{'rank pairs':>11}  {'':<24}  {'node pairs':>10}", "-" * 80]
    for label, count in rank["histogram"].items():
        other = node["histogram"][label]
        lines.append(f"{label:<17}{count:>11}  {_bar(count, pairs['rank']):<24}  {other:>10}  "
                     f"{_bar(other, pairs['node'])}".rstrip())
    return lines


def report(s: dict, topology: str) -> None:
    model = s["coupling"].upper()
    m0, m1 = s["model_ranks"]
    c0, c1 = s["cpl_ranks"]
    g = s["grid"]
    where = s["topology"] if topology == s["topology"] else f"{topology} ({s['topology']})"
    print(f"CESM {model} and coupler on {where}: {s['ranks']} ranks, {s['ranks_per_node']} per node "
          f"({model} ranks {m0}-{m1}, CPL ranks {c0}-{c1}), seed {s['seed']}")
    print(f"{g['name']} grid {g['lon']} x {g['lat']}, {g['points']} exchanged points of {s['point_bytes']} bytes")
    t = s["table_xv"]
    ref = f"Table XV x {s['ranks']}/2048" if t["scaled_to_this_run"] else "Table XV"

    def row(label, mine, theirs):
        diff = f"{(mine / theirs - 1) * 100:+.1f}%" if theirs else "-"
        return {"pairs": label, "this model": mine, ref: theirs if theirs is not None else "-", "difference": diff}

    print(text_table([row("by rank", s["pairs"]["rank"], t["compare_rank"]),
                      row("by node", s["pairs"]["node"], t["compare_node"])]))
    if t["compare_node"] is None:
        print(f"(Table XV's node pairs are for {cesm.THESIS_RANKS_PER_NODE} ranks per node)")
    lo = s["left_out"]
    print(f"left out: pairs of a rank with itself: {lo['same_rank_pairs']} ({lo['same_rank_points']} points); "
          f"node pairs within one node: {lo['node_pairs_within_a_node']} ({lo['points_within_a_node']} points), "
          f"their rank pairs ({lo['rank_pairs_within_a_node']}) stay in --by rank files")
    pm, pc = s["partners"]["per_model_rank"], s["partners"]["per_cpl_rank"]
    print(f"partners: each {model} rank exchanges with {pm[0]}-{pm[1]} CPL ranks, each CPL rank with "
          f"{pc[0]}-{pc[1]} {model} ranks")
    print()
    rank, node = s["points"]["rank"], s["points"]["node"]
    print("\n".join(histogram_lines(rank, node, s["pairs"])))
    print(f"rank pairs: {rank['min']}-{rank['max']} points, {rank['under_20'] * 100:.0f}% under 20; "
          f"node pairs: {node['min']}-{node['max']} points, {node['over_20'] * 100:.0f}% over 20")
    print("Figure 18: rank pairs carry 1 to 26 points, most under 20; most node pairs carry over 20")
    unit = "ranks" if s["by"] == "rank" else "nodes"
    print(f"wrote {s['jobs']} jobs between {unit}, {s['bytes'] / 1e6:.1f} MB, to {s['out']}")


def plot(ex: cesm.Exchange, path: str) -> None:
    """Figure 18's two panels: pairs per number of points, by rank pair and by node pair."""
    try:
        plt = pyplot()
    except OSError as e:
        print(f"{e}: no plot", file=sys.stderr)
        return
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for ax, pairs, what in ((axes[0], ex.rank_pairs, "rank"), (axes[1], ex.node_pairs, "node")):
        counts = np.bincount(pairs[:, 2]) if len(pairs) else np.zeros(1, dtype=np.int64)
        ax.bar(range(len(counts)), counts, width=1.0, color="C0" if what == "rank" else "C1")
        ax.axvline(20, color="0.4", linestyle="--", linewidth=0.8)
        ax.set_xlabel(f"points per {what} pair")
        ax.set_ylabel(f"{what} pairs")
        ax.set_title(f"{len(pairs)} {what} pairs")
    fig.suptitle(f"CESM {ex.model.upper()} and coupler, {ex.layout.ranks} ranks, seed {ex.seed}")
    save(fig, path)


def run_cesm(args) -> int:
    point_bytes = _core.parse_bytes(args.point_bytes)
    if point_bytes == 0:
        raise _core.Error("--point-bytes must be at least one byte")
    network = _core.parse_network(args.topology)
    ex = _model(args, network)
    jobs = _jobs(ex, args.by, args.direction, network.endpoints)
    if not len(jobs):
        raise _core.Error(f"no pairs cross between nodes at {args.ranks_per_node} ranks per node: nothing to write")
    limit = _core.parse_bytes("9223372036854775807")
    heaviest = int(jobs[:, 2].max())
    if heaviest * point_bytes > limit:
        raise _core.Error(f"--point-bytes {args.point_bytes}: a job of {heaviest} points would exceed {limit} bytes")
    write_requests(args.out, ex, args, network, point_bytes, jobs)
    if args.plot:
        plot(ex, args.plot)
    s = summary(ex, args, network, point_bytes, jobs)
    if args.json:
        print_json(s)
    else:
        report(s, args.topology)
        if args.plot:
            print(f"plot written to {args.plot}")
    return 0
