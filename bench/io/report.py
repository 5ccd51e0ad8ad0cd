"""results/README.md and plots from the two-phase I/O stages' JSON (bench/io/run.py)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from optiq.plots import grouped_bars, panel, save

MPI = "mpi_alltoallv"  # the planner name simulate gives the MPI baseline

CHARGES = """Predicted rows are the fluid model's (docs/io.md): link capacities only. The model leaves out
the software cost of aggregation (RMA epochs, the node-local gather) and the file system behind
each I/O node, whose writes go to /dev/null as in tessier2016's placement benchmark. Simulated
rows run optiq's runtime and MPI_Alltoallv under SimGrid SMPI, on the torus of mira:N, or on
mira:N+io with one rank on each I/O node for an I/O phase. They charge link bandwidth and
latency, each forwarded chunk's copy and each message's CPU cost (docs/simulation.md). The
aggregation-phase stages (placement-sim, sparse, hacc) simulate no disk: an I/O node's rank
receives its bytes and writes nothing. The library stages (library-sim, buffers-sim) store them
on each I/O node's disk, one shared bandwidth (2.8 GB/s unless a table says otherwise), in
simulated time; no file-system behaviour (locks, striping, caching) is simulated."""


def _load(results: Path, stage: str):
    path = results / f"{stage}.json"
    return json.loads(path.read_text())["rows"] if path.is_file() else None


def _table(head: list, rows: list) -> list:
    return ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)] + ["| " + " | ".join(map(str, r)) + " |" for r in rows]


def _placement(rows) -> list:
    out = ["## Aggregator placement (tessier2016's benchmark, 512 nodes)", "",
           "16 ranks per node, 0-2 MB per rank, 16 aggregators per I/O node, 16 MiB buffers; predicted MB/s of "
           "both phases pipelined, with default routes and with mcf, beside the seed's measurement on Mira.", ""]
    by = {(r["placement"], r["planner"]): r for r in rows}
    body = []
    for p in dict.fromkeys(r["placement"] for r in rows):
        d, m = by.get((p, "default")), by.get((p, "mcf"))
        body.append([p, f"{SEED_MBPS.get(p, '-')}", f"{d['mbps']:.0f}" if d else "-", f"{m['mbps']:.0f}" if m else "-",
                     f"{m['aggregation_seconds'] * 1e3:.2f}" if m else "-", f"{m['placement_seconds']:.1f}" if m else "-"])
    return out + _table(["placement", "tessier2016 MB/s", "default MB/s", "mcf MB/s", "mcf aggregation ms",
                         "placing s"], body) + [""]


# tessier2016 on Mira: MB/s per placement strategy (512 nodes), and by aggregators per pset and
# buffer MiB (1,024 nodes, topology-aware, 1 MB per rank).
SEED_MBPS = {"greedy": 1927, "longest": 2203, "shortest": 2484, "topology-aware": 2638}
SEED_BUFFERS = {(8, 8): 7652, (8, 16): 8848, (8, 32): 9051, (16, 8): 7318, (16, 16): 8775,
                (16, 32): 9332, (32, 8): 6330, (32, 16): 7797, (32, 32): 8134}


def _placement_sim(rows) -> list:
    """Both phases simulated per strategy; totals pipelined over the rounds from simulated phase times."""
    from optiq import _core

    out = ["## Aggregator placement, simulated (512 nodes, both phases)", "",
           "The placement benchmark with the seed's data scaled by 1/8 (16 ranks per node, 0-256 KiB per rank, "
           "16 aggregators, 2 MiB buffers: the seed's 9 rounds). Each phase is simulated on its own: aggregation on "
           "the torus, the I/O phase with a rank on each I/O node. The total pipelines the two simulated times over "
           "the rounds (docs/io.md). `MPI` moves each phase with MPI_Alltoallv on default routes; `mcf` with optiq's "
           "runtime.", ""]
    body = []
    for p in dict.fromkeys(r["placement"] for r in rows):
        t = {(r["phase"], r["planner"]): r for r in rows if r["placement"] == p}
        if not all((ph, pl) in t for ph in ("aggregation", "io") for pl in (MPI, "mcf")):
            continue
        rounds = t[("aggregation", "mcf")]["rounds"]
        total = {pl: _core.pipelined_seconds(t[("aggregation", pl)]["simulated_seconds"],
                                             t[("io", pl)]["simulated_seconds"], rounds) for pl in (MPI, "mcf")}
        size = t[("io", "mcf")]["bytes"]
        reached = min(t[(ph, "mcf")]["predicted_seconds"] / t[(ph, "mcf")]["simulated_seconds"]
                      for ph in ("aggregation", "io"))
        body.append([p] + [f"{t[(ph, pl)]['simulated_seconds'] * 1e3:.3f}" for ph in ("aggregation", "io")
                           for pl in (MPI, "mcf")]
                    + [f"{size / total[MPI] / 1e6:.0f}", f"{size / total['mcf'] / 1e6:.0f}", f"{100 * reached:.1f}%",
                       str(SEED_MBPS.get(p, "-"))])
    return out + _table(["placement", "aggregation MPI ms", "aggregation mcf ms", "I/O MPI ms", "I/O mcf ms",
                         "MPI MB/s", "mcf MB/s", "mcf of prediction (worse phase)", "tessier2016 MB/s"], body) + [""]


def _buffers(rows) -> list:
    out = ["## Aggregators x buffer size (1,024 nodes, 1 MB per rank, topology-aware)", "",
           "Predicted MB/s with mcf (default routes in brackets), beside tessier2016's measured MB/s.", ""]
    by = {(r["aggregators"], r["buffer_mib"], r["planner"]): r for r in rows}
    body = []
    for a in (8, 16, 32):
        cells = [str(a)]
        for b in (8, 16, 32):
            m, d = by.get((a, b, "mcf")), by.get((a, b, "default"))
            cells.append(f"{m['mbps']:.0f} ({d['mbps']:.0f}); seed {SEED_BUFFERS[(a, b)]}" if m and d else "-")
        body.append(cells)
    return out + _table(["aggregators per I/O node", "8 MiB", "16 MiB", "32 MiB"], body) + [""]


def _simulated_table(rows, key: str) -> list:
    body = []
    has_default = any(r["planner"] == "default" for r in rows)
    for label in dict.fromkeys(r[key] for r in rows):
        group = [r for r in rows if r[key] == label]
        mpi = next((r for r in group if r["planner"] == MPI), None)
        default = next((r for r in group if r["planner"] == "default"), None)
        for r in group:
            t = r["simulated_seconds"]
            reached = r["predicted_seconds"] / t if t and r["planner"] != MPI else None
            cells = [label, r["planner"], f"{t * 1e3:.2f}", f"{r['predicted_seconds'] * 1e3:.2f}",
                     f"{100 * reached:.1f}%" if reached else "-",
                     f"{mpi['simulated_seconds'] / t:.2f}x" if mpi and r is not mpi else "-"]
            if has_default:
                cells.append(f"{default['simulated_seconds'] / t:.2f}x" if default and r["planner"] not in (MPI, "default")
                             else "-")
            body.append(cells + [f"{r['wall_seconds']:.0f}"])
    head = [key, "planner", "simulated ms", "predicted ms", "of prediction", "vs MPI_Alltoallv"]
    return _table(head + (["vs default route"] if has_default else []) + ["wall s"], body)


RUN_ORDER = ("mpi_alltoallv", "default", "heu2", "mcf", "maxflow")


def _run_order(r) -> tuple:
    """Rows by node count, then the baseline before the planners, however the runs were merged."""
    planner = r["planner"]
    return r["nodes"], RUN_ORDER.index(planner) if planner in RUN_ORDER else len(RUN_ORDER)


def _sparse(rows) -> list:
    out = ["## Sparse I/O (bui2014): 20% of nodes hold data", "",
           "The aggregation phase of a topology-aware placement (16 aggregators per I/O node), predicted ms per "
           "planner; its speed-up over default routes in brackets.", ""]
    pred = sorted((r for r in rows if r.get("kind") == "predicted"), key=lambda r: r["nodes"])
    body = []
    for n, dist in dict.fromkeys((r["nodes"], r["distribution"]) for r in pred):
        by = {r["planner"]: r for r in pred if r["nodes"] == n and r["distribution"] == dist}
        base = by["default"]["aggregation_seconds"]
        body.append([n, dist] + [f"{by[p]['aggregation_seconds'] * 1e3:.3f} ({base / by[p]['aggregation_seconds']:.2f}x)"
                                 if p in by and by[p]["aggregation_seconds"] > 0 else "-"
                                 for p in ("default", "heu2", "mcf", "maxflow")])
    out += _table(["nodes", "sizes", "default", "heu2", "mcf", "maxflow"], body) + [""]
    sim = [r for r in rows if r.get("kind") == "simulated"]
    dists = list(dict.fromkeys(r["distribution"] for r in pred + sim))
    sim.sort(key=lambda r: (r["nodes"], dists.index(r["distribution"]), _run_order(r)[1]))
    if sim:
        for r in sim:
            r["case"] = f"{r['nodes']} {r['distribution']}"
        out += ["Simulated, the same aggregation jobs:", ""] + _simulated_table(sim, "case") + [""]
    return out


def _hacc(rows) -> list:
    out = ["## HACC-IO aggregation to the bridge nodes (thesis 6.5.3, Fig. 19)", "",
           "8 ranks per node, 700-800 KB per rank gathered on each node, every node's bytes to the bridge its "
           "route to the I/O node enters through. The thesis measured heu2 at 1.6x-3x MPI_Alltoallv on Mira. "
           "Mira's smallest partition has 512 nodes: the 256-node job holds the first half of one "
           "(a 2x4x4x4x2 sub-block, two psets with their four bridges).", ""]
    sim = sorted((r for r in rows if r.get("kind", "simulated") == "simulated"), key=_run_order)
    if sim:
        out += _simulated_table(sim, "nodes") + [""]
    pred = [r for r in rows if r.get("kind") == "predicted"]
    if pred:
        out += ["Predicted only: the fluid model on links alone (the simulated rows' predictions also charge "
                "copies); default is the network's own route:", ""]
        body = []
        for n in dict.fromkeys(r["nodes"] for r in pred):
            by = {r["planner"]: r for r in pred if r["nodes"] == n}
            base = by["default"]["predicted_seconds"]
            body.append([n] + [f"{by[p]['predicted_seconds'] * 1e3:.2f} ({base / by[p]['predicted_seconds']:.2f}x)"
                               for p in by])
        out += _table(["nodes"] + list(by), body) + [""]
    return out


LOCAL_CHARGES = """The library on this machine (stage `local`, `optiq io-bench`): 2 cores, 16 ranks
oversubscribed, one node. Both writes land in the page cache (tmpfs, or ext4 on a virtual disk);
neither side syncs, so these are the costs of aggregation and of handing bytes to the kernel,
not of a disk. The MPI-IO reference is Open MPI 4.1.4's default (OMPIO) and ROMIO 3.2.1 with
cb_nodes and cb_buffer_size set to optiq's 16 aggregators and 16 MiB. Ratio: the median over 15
alternating pairs of writes of optiq's bandwidth over MPI-IO's. Every file was compared byte for
byte with MPI-IO's and read back."""


def _local_key(r):
    return (r["fs"], r["workload"], r["layout"], r["per_rank"])


def _local(rows) -> list:
    out = ["## The library on this machine (optiq/io.h against MPI_File_write_at_all)", "", LOCAL_CHARGES, ""]
    sizes = [r for r in rows if r.get("sweep") != "ranks"]
    for fs in dict.fromkeys(r["fs"] for r in sizes):
        out += [f"### 16 ranks, {fs} (MB/s; ratio optiq / MPI-IO)", ""]
        body = []
        for key in dict.fromkeys(_local_key(r) for r in sizes if r["fs"] == fs):
            by = {r["mpiio"]: r for r in sizes if _local_key(r) == key}
            d, h = by.get("default"), by.get("romio")
            cells = [f"{key[1]} {key[2]}", f"{key[3] / 1e6:g} MB"]
            for r in (d, h):
                cells += [f"{r['optiq_bps'] / 1e6:.0f} / {r['mpiio_bps'] / 1e6:.0f}", f"{r['ratio']:.2f}x"] if r else ["", ""]
            cells.append("yes" if all(r["identical"] for r in (d, h) if r) else "NO")
            body.append(cells)
        out += _table(["workload", "per rank", "optiq / OMPIO", "ratio", "optiq / ROMIO+hints", "ratio",
                       "identical"], body) + [""]
    ranks = [r for r in rows if r.get("sweep") == "ranks"]
    if ranks:
        out += ["### 1-16 ranks, 1 MB per rank, tmpfs, against OMPIO (MB/s; ratio)", ""]
        body = [[r["ranks"], f"{r['workload']} {r['layout']}", f"{r['optiq_bps'] / 1e6:.0f}", f"{r['mpiio_bps'] / 1e6:.0f}",
                 f"{r['ratio']:.2f}x"] for r in ranks]
        out += _table(["ranks", "workload", "optiq", "OMPIO", "ratio"], body) + [""]
    return out


def _plot_local(rows, path: Path) -> None:
    """optiq's bandwidth over MPI-IO's by data size per rank, 16 ranks on tmpfs."""
    made = panel()
    if made is None:
        return
    fig, ax = made
    sizes = [r for r in rows if r.get("sweep") != "ranks" and r["fs"] == "tmpfs"]
    for workload, layout in dict.fromkeys((r["workload"], r["layout"]) for r in sizes):
        for mpiio, style in (("default", "-"), ("romio", "--")):
            pts = sorted((r["per_rank"] / 1e6, r["ratio"]) for r in sizes
                         if (r["workload"], r["layout"], r["mpiio"]) == (workload, layout, mpiio))
            if pts:
                label = f"{workload} {layout} vs {'OMPIO' if mpiio == 'default' else 'ROMIO+hints'}"
                ax.plot([p[0] for p in pts], [p[1] for p in pts], style, marker="o", label=label)
    ax.axhline(1, color="black", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_xlabel("data per rank (MB)")
    ax.set_ylabel("optiq / MPI_File_write_at_all bandwidth")
    ax.set_title("Collective write, 16 ranks, tmpfs (this machine)")
    ax.legend(fontsize=7)
    save(fig, path)


SEED_PEAKS = {1024: 22.4, 4096: 89.6}  # tessier2016: Mira's estimated peak, GBps; optiq's aggregation reached 90%


def _library_sim(rows) -> list:
    from library_sim import VARIANTS, __doc__ as what

    out = ["## The library simulated (optiq/io.h in SMPI on mira:N+io)", "", what.strip(), "",
           "GB/s of HACC-IO written per configuration (one rank per node unless a title says \"x R ranks\", each "
           "then with its share of the node's data; per-node data as given). "
           "tessier2016 on Mira, 16 ranks per node: 90% of an estimated 22.4 GBps peak at 1,024 nodes "
           "and of 89.6 GBps at 4,096, one file per pset.", ""]
    variants = list(VARIANTS)  # columns in a fixed order, whichever run was merged last
    disks = sorted(set(r.get("disk_bandwidth") for r in rows), key=lambda d: (d is None, d or 0))
    nodes_run = sorted(set(r["nodes"] for r in rows))
    rpns = sorted(set(r.get("ranks_per_node", 1) for r in rows))
    for nodes, rpn, files, disk, layout in itertools.product(nodes_run, rpns, ("pset", "shared"), disks,
                                                             ("soa", "aos")):
        sub = [r for r in rows if r["nodes"] == nodes and r["files"] == files and r.get("disk_bandwidth") == disk
               and r.get("layout", "soa") == layout and r.get("ranks_per_node", 1) == rpn]
        if not sub:
            continue
        # The seed's figure compares with runs that store the bytes, not with those that drop them.
        seed = f"; seed: {0.9 * SEED_PEAKS[nodes]:.1f} GBps" if nodes in SEED_PEAKS and files == "pset" and disk else ""
        where = (f"stored on {disk / 1e9:g} GB/s disks" if disk else
                 "no disk: the I/O nodes drop the bytes, a write ends when they have them")
        ranks = f" x {rpn} ranks" if rpn > 1 else ""
        out += [f"### {nodes} nodes{ranks}, HACC-IO {layout.upper()}, "
                f"{'one file per pset' if files == 'pset' else 'one shared file'}, {where}{seed}", ""]
        cols = [v for v in variants if any(r["variant"] == v for r in sub)]
        body = []
        for size in sorted(set(r["per_rank"] for r in sub)):
            by = {r["variant"]: r for r in sub if r["per_rank"] == size}
            body.append([f"{size / 1e6:g} MB"] + [f"{by[v]['bandwidth'] / 1e9:.2f}" if v in by else "" for v in cols])
        out += _table(["per node"] + cols, body) + [""]
    return out


def _buffers_sim(rows) -> list:
    out = []
    for nodes in sorted(set(r["nodes"] for r in rows)):
        sub = [r for r in rows if r["nodes"] == nodes]
        disk = sub[0].get("disk_bandwidth")
        out += [f"## Aggregators x buffer size simulated ({nodes} nodes, the library, 16 MB per node)", "",
                "GB/s written through optiq/io.h in SMPI (stage `buffers-sim`): one file per pset, romio-bgq "
                "placement, rounds overlapped, " +
                (f"stored on {disk / 1e9:g} GB/s I/O node disks" if disk else "no disk") +
                " (rounds in brackets). The network and disks charge nothing per round, so buffer size "
                "acts only through the number of rounds; tessier2016 found larger buffers faster on Mira, "
                "where each round also costs file-system and software time.", ""]
        by = {(r["aggregators"], r["buffer_mib"]): r for r in sub}
        body = []
        for a in (8, 16, 32):
            body.append([str(a)] + [f"{by[(a, b)]['bandwidth'] / 1e9:.2f} ({by[(a, b)]['rounds']})" if (a, b) in by
                                    else "-" for b in (8, 16, 32)])
        out += _table(["aggregators per pset", "8 MiB", "16 MiB", "32 MiB"], body) + [""]
    return out


def _plot_speedups(rows, key: str, path: Path, title: str) -> None:
    """Per case, each optiq planner's simulated speed-up over MPI_Alltoallv."""
    made = panel()
    if made is None:
        return
    fig, ax = made
    cases = list(dict.fromkeys(r[key] for r in rows))
    planners = [p for p in dict.fromkeys(r["planner"] for r in rows) if p != MPI]

    def speedup(c, p):
        mpi = next((r for r in rows if r[key] == c and r["planner"] == MPI), None)
        mine = next((r for r in rows if r[key] == c and r["planner"] == p), None)
        return mpi["simulated_seconds"] / mine["simulated_seconds"] if mpi and mine else 0

    grouped_bars(ax, cases, {p: [speedup(c, p) for c in cases] for p in planners})
    ax.axhline(1, color="black", linewidth=0.8)
    ax.set_ylabel("speed-up over MPI_Alltoallv (simulated)")
    ax.set_title(title)
    ax.legend(fontsize=7)
    save(fig, path)


def write_report(results: Path) -> None:
    lines = ["# Two-phase I/O results", "", "Regenerate with `.venv/bin/python bench/io/run.py all` (stages: "
             "placement, buffers, sparse, hacc, placement-sim, local, library-sim, buffers-sim; `report` rewrites "
             "this file).", "", CHARGES, ""]
    for stage, section in (("placement", _placement), ("placement-sim", _placement_sim), ("buffers", _buffers),
                           ("sparse", _sparse), ("hacc", _hacc)):
        rows = _load(results, stage)
        if rows:
            lines += section(rows)
    hacc = _load(results, "hacc")
    if hacc:
        _plot_speedups(sorted((r for r in hacc if r.get("kind", "simulated") == "simulated"), key=lambda r: r["nodes"]),
                       "nodes", results / "hacc.png", "HACC-IO to the bridge nodes, SMPI (nodes)")
        lines += ["![HACC-IO aggregation to the bridge nodes](hacc.png)", ""]
    sim = sorted((r for r in (_load(results, "sparse") or []) if r.get("kind") == "simulated"), key=lambda r: r["nodes"])
    if sim:
        for r in sim:
            r["case"] = f"{r['nodes']}\n{r['distribution']}"
        _plot_speedups(sim, "case", results / "sparse.png", "Sparse I/O aggregation, SMPI")
        lines += ["![Sparse I/O aggregation](sparse.png)", ""]
    library = _load(results, "library-sim")
    if library:
        lines += _library_sim(library)
    buffers = _load(results, "buffers-sim")
    if buffers:
        lines += _buffers_sim(buffers)
    local = _load(results, "local")
    if local:
        lines += _local(local)
        _plot_local(local, results / "local.png")
        lines += ["![optiq against MPI_File_write_at_all on this machine](local.png)", ""]
    (results / "README.md").write_text("\n".join(lines))
