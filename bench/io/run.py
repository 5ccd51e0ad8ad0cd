"""Two-phase I/O experiments: aggregator placement, aggregators x buffer size, sparse I/O and
HACC-IO aggregation to bridge nodes, predicted by the fluid model and (sparse, hacc) simulated
with SimGrid SMPI (docs/io.md).

Stages (each writes results/<stage>.json; `report` turns them into results/README.md and PNGs):
  placement  the seed's placement benchmark (mira:512, 16 ranks/node, 0-2 MB per rank, 16
             aggregators, 16 MB buffers): every strategy x planner, beside tessier2016's MBps
  buffers    aggregators per I/O node x buffer size (8/16/32 x 8/16/32 MB) at 1,024 nodes, 1 MB
             per rank, beside tessier2016's table
  sparse     bui2014's uniform and Pareto sparse data (20% of nodes hold data) at 512-4096
             nodes: the aggregation phase under default routes, heu2, mcf and maxflow; simulated
             at --simulate nodes (default 512 and 1024)
  placement-sim  the placement benchmark simulated (both phases, mcf, data scaled by 1/8)
  hacc       HACC-IO (8 ranks/node, 700-800 KB per rank) gathered on every node and sent to its
             bridge node (thesis 6.5.3, Fig. 19) at 256-4096 nodes: MPI_Alltoallv against optiq,
             simulated at --simulate nodes, predicted at the others
  local      the library on this machine (optiq io-bench): HACC-IO AoS/SoA and a 1-D array,
             optiq's collective write against MPI_File_write_at_all on tmpfs and disk (local.py)
  library-sim  the library in SMPI on mira:N+io (one rank per node and per I/O node), HACC-IO
             SoA, per-pset and shared files, placements and two-phase baselines (library_sim.py)
  buffers-sim  the library in SMPI at 512 nodes (--nodes), 16 MB per node: aggregators per pset
             x buffer size (8/16/32 x 8/16/32 MiB), written to the I/O nodes' disks

  .venv/bin/python bench/io/run.py all
  .venv/bin/python bench/io/run.py hacc --nodes 512,1024
  .venv/bin/python bench/io/run.py report
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from optiq import _core
from optiq.aggregation import evaluate_placements, io_data, io_groups
from optiq.evaluate import PlannerOptions, run_planners
from optiq.failure import run_interruptible
from optiq.workload import Workload
from optiq.argtypes import bandwidth_or_inf
from optiq.simulation.platform import IO_DISK_BANDWIDTH
from optiq.simulation.experiment import Setup, simulate

from library_sim import stage_buffers_sim, stage_library_sim
from local import stage_local

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
PLANNERS = ["default", "heu2", "mcf", "maxflow"]
HACC_PARTICLES = "uniform:18400:21000"  # 700-800 KB per rank at 38 bytes per particle
HACC_PLANNERS = ["heu2", "mcf", "maxflow"]
# Mira's smallest partition. The thesis ran HACC-IO from 256 nodes (2,048 cores) up: a smaller
# job is placed on the first node ids of one partition, half of it a 2x4x4x4x2 sub-block.
MIRA_PARTITION_MIN = 512


def log(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


ROW_KEYS = ("nodes", "distribution", "placement", "planner", "kind", "aggregators", "buffer_mib", "phase", "files",
            "layout", "per_rank", "variant", "disk_bandwidth", "ranks_per_node")
# What rows without the field meant: library-sim rows from before its sweeps ran 16 aggregators
# with 16 MiB buffers.
KEY_DEFAULTS = {"kind": "simulated", "ranks_per_node": 1, "aggregators": 16, "buffer_mib": 16}


def save(stage: str, rows: list, seconds: float) -> None:
    """Writes results/<stage>.json, keeping earlier rows these do not replace (other node counts)."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{stage}.json"

    def key(r):
        return tuple(r.get(k, KEY_DEFAULTS.get(k)) for k in ROW_KEYS)

    new = {key(r) for r in rows}
    old = json.loads(path.read_text())["rows"] if path.is_file() else []
    rows = [r for r in old if key(r) not in new] + rows
    path.write_text(json.dumps({"stage": stage, "wall_seconds": seconds, "rows": rows}, indent=1) + "\n")


def network(nodes: int):
    net = _core.parse_network(f"mira:{nodes}+io")
    return net, _core.make_routing("bgq", net)


def predicted_rows(nodes, data, placements, planners, aggregators, buffer, label) -> list:
    net, routing = network(nodes)
    groups = io_groups(net, routing, data)
    total = sum(g.file_bytes for g in groups)
    rows = []
    for r in evaluate_placements(net, routing, groups, placements, planners, aggregators, buffer):
        rows.append({**label, **r.json(), "bytes": total,
                     "mbps": total / r.total_seconds / 1e6 if r.total_seconds > 0 else None})
        log(f"  {r.placement:15} {r.planner:8} aggregation {r.aggregation_seconds * 1e3:8.3f} ms, "
            f"I/O {r.io_seconds * 1e3:8.3f} ms, total {r.total_seconds * 1e3:8.3f} ms ({r.placement_seconds:.1f} s to place)")
    return rows


def stage_placement(args) -> list:
    log("placement: mira:512+io, 16 ranks/node, 0-2 MB per rank, 16 aggregators, 16 MiB")
    data = io_data(512, 16, "uniform:0:2MB", 1.0, args.seed)
    return predicted_rows(512, data, _core.placement_names(), ["default", "mcf"], 16, 16 << 20, {"nodes": 512})


def stage_buffers(args) -> list:
    rows = []
    data = io_data(1024, 16, "1MB", 1.0, args.seed)
    for aggregators in (8, 16, 32):
        for mb in (8, 16, 32):
            log(f"buffers: {aggregators} aggregators, {mb} MiB")
            rows += predicted_rows(1024, data, ["topology-aware"], ["default", "mcf"], aggregators, mb << 20,
                                   {"nodes": 1024, "aggregators": aggregators, "buffer_mib": mb})
    return rows


def write_requests(jobs: list, path: Path) -> str:
    path.write_text("".join(f"{j.src} {j.dst} {j.bytes}\n" for j in jobs))
    return str(path)


def simulated_rows(nodes: int, jobs: list, label: dict, planners: list, tmp: Path, timeout: float) -> list:
    """MPI_Alltoallv and optiq with each planner moving `jobs` on the simulated torus of mira:N."""
    requests = write_requests(jobs, tmp / f"requests-{nodes}-{len(jobs)}.txt")
    rows = []
    for r in simulate(Setup(f"mira:{nodes}", requests=requests, timeout=timeout), planners):
        rows.append({**label, "bytes": sum(j.bytes for j in jobs), **{k: r[k] for k in ("planner", "simulated_seconds", "predicted_seconds", "wall_seconds")
                                 if k in r}})
        log(f"  {r['planner']:14} {r['simulated_seconds'] * 1e3:9.3f} ms simulated "
            f"(predicted {r['predicted_seconds'] * 1e3:8.3f}), {r['wall_seconds']:6.1f} s wall")
    return rows


def stage_sparse(args) -> list:
    rows = []
    laws = {"uniform": "uniform:0:4MiB", "pareto": "pareto:1.2:64KiB:64MiB"}
    with tempfile.TemporaryDirectory(prefix="optiq-io-") as tmp:
        for nodes in args.nodes or (512, 1024, 2048, 4096):
            for name, law in laws.items():
                log(f"sparse {name}: mira:{nodes}+io, 20% of nodes hold {law}")
                data = io_data(nodes, 1, law, 0.2, args.seed)
                label = {"nodes": nodes, "distribution": name}
                rows += [{**r, "kind": "predicted"} for r in
                         predicted_rows(nodes, data, ["topology-aware"], PLANNERS, 16, 16 << 20, label)]
                if nodes in args.simulate:
                    net, routing = network(nodes)
                    groups = io_groups(net, routing, data)
                    placed = [_core.place_aggregators("topology-aware", net, routing, g) for g in groups]
                    jobs = _core.aggregation_jobs(groups, placed)[0]
                    rows += [{**r, "kind": "simulated"} for r in
                             simulated_rows(nodes, jobs, label, PLANNERS, Path(tmp), args.timeout)]
                save("sparse", rows, 0)
    return rows


def hacc_partition(nodes: int) -> int:
    """The Mira partition a HACC-IO job of ``nodes`` nodes runs on."""
    return max(nodes, MIRA_PARTITION_MIN)


def bridge_jobs(nodes: int, seed: int) -> list:
    """Every node's HACC data (its 8 ranks gathered) to the bridge its route to the I/O node
    enters through; a bridge keeps its own. The job holds the first ``nodes`` nodes of its
    partition; their bridges may lie outside them."""
    net, routing = network(hacc_partition(nodes))
    data = io_data(nodes, 8, None, 1.0, seed, hacc=HACC_PARTICLES)
    io_of = _core.io_nodes_of_endpoints(net, routing)
    jobs = []
    for node in range(nodes):
        size = sum(data.rank_items[node * 8:(node + 1) * 8]) * 38
        bridge = net.link_src(routing.route(node, io_of[node])[-1])
        if bridge != node and size:
            jobs.append(_core.Job(node, bridge, size))
    return jobs


def stage_hacc(args) -> list:
    rows = []
    with tempfile.TemporaryDirectory(prefix="optiq-io-") as tmp:
        for nodes in args.nodes or (256, 512, 1024, 2048, 4096):
            partition = hacc_partition(nodes)
            log(f"hacc: {nodes} nodes of mira:{partition}, 8 ranks/node, {HACC_PARTICLES} particles per rank, "
                "to the bridge nodes")
            jobs = bridge_jobs(nodes, args.seed)
            label = {"nodes": nodes, "partition": partition}
            if nodes in args.simulate:
                rows += [{**r, "kind": "simulated"} for r in
                         simulated_rows(partition, jobs, label, args.planners or HACC_PLANNERS, Path(tmp),
                                         args.timeout)]
            else:
                net = _core.parse_network(f"mira:{partition}")
                workload = Workload(net, _core.make_routing("bgq", net), jobs, "hacc")
                for r in run_planners(workload, ["default"] + HACC_PLANNERS, PlannerOptions()):
                    rows.append({**label, "bytes": sum(j.bytes for j in jobs), "kind": "predicted",
                                 "planner": r.planner, "predicted_seconds": r.metrics.predicted_seconds,
                                 "planning_seconds": r.seconds})
                    log(f"  {r.planner:8} predicted {r.metrics.predicted_seconds * 1e3:8.3f} ms ({r.seconds:.1f} s to plan)")
            save("hacc", rows, 0)
    return rows


def stage_placement_sim(args) -> list:
    """The placement benchmark simulated, both phases, every strategy planned by mcf: each
    phase's simulated time, pipelined over the rounds as the model does (docs/io.md). The data
    is the seed's scaled by 1/8 (0-256 KiB per rank, 2 MiB buffers: the same 9 rounds) so that
    twelve simulations fit this machine's minutes."""
    rows = []
    nodes = 512
    net, routing = network(nodes)
    data = io_data(nodes, 16, "uniform:0:256KiB", 1.0, args.seed)
    groups = io_groups(net, routing, data)
    buffer = 2 << 20
    with tempfile.TemporaryDirectory(prefix="optiq-io-") as tmp:
        for name in _core.placement_names():
            log(f"placement-sim: {name}")
            placed = [_core.place_aggregators(name, net, routing, g, 16, buffer) for g in groups]
            agg_jobs, io_jobs, rounds = _core.aggregation_jobs(groups, placed, 16, buffer)
            for phase, jobs, topology in (("aggregation", agg_jobs, f"mira:{nodes}"), ("io", io_jobs, f"mira:{nodes}+io")):
                requests = write_requests(jobs, Path(tmp) / f"{name}-{phase}.txt")
                for r in simulate(Setup(topology, requests=requests), ["mcf"]):
                    rows.append({"nodes": nodes, "placement": name, "phase": phase, "rounds": rounds,
                                 "bytes": sum(j.bytes for j in jobs),
                                 **{k: r[k] for k in ("planner", "simulated_seconds", "predicted_seconds", "wall_seconds")}})
                    log(f"  {phase:11} {r['planner']:14} {r['simulated_seconds'] * 1e3:9.3f} ms simulated "
                        f"(predicted {r['predicted_seconds'] * 1e3:8.3f}), {r['wall_seconds']:6.1f} s wall")
            save("placement-sim", rows, 0)
    return rows


STAGES = {"placement": stage_placement, "buffers": stage_buffers, "sparse": stage_sparse, "hacc": stage_hacc,
          "placement-sim": stage_placement_sim, "local": stage_local,
          "library-sim": lambda args: stage_library_sim(args, log, lambda rows: save("library-sim", rows, 0)),
          "buffers-sim": lambda args: stage_buffers_sim(args, log, lambda rows: save("buffers-sim", rows, 0))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("stage", choices=list(STAGES) + ["all", "report"])
    parser.add_argument("--nodes", default=None, help="comma-separated node counts (sparse and hacc: 512..4096, hacc also 256)")
    parser.add_argument("--simulate", default="512,1024",
                        help="sparse and hacc: node counts simulated, the others only predicted (default: 512,1024)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the data sizes (default: 1)")
    parser.add_argument("--planners", default=None,
                        help="hacc: planners simulated (default: heu2,mcf,maxflow; MPI_Alltoallv always runs)")
    parser.add_argument("--timeout", type=float, default=Setup.timeout,
                        help="sparse and hacc: wall-clock seconds one simulated run may take (default: %(default).0f; "
                             "a 2,048-node HACC-IO run takes 23-58 minutes)")
    parser.add_argument("--files", default="pset,shared", help="library-sim: pset, shared or both (default)")
    parser.add_argument("--sizes", default="1000000,4000000,16000000",
                        help="library-sim: bytes per node (default: 1, 4 and 16 MB)")
    parser.add_argument("--variants", default=None, help="library-sim: configurations to run (default: all)")
    parser.add_argument("--ranks-per-node", type=int, default=1,
                        help="library-sim: simulated ranks per node, each with its share of the node's data (default: 1)")
    parser.add_argument("--layouts", default="soa", help="library-sim: HACC layouts, soa and/or aos (default: soa)")
    parser.add_argument("--sweeps", default="sizes,ranks",
                        help="local: sizes (16 ranks, every size) and/or ranks (1-16 ranks, 1 MB); the other's "
                             "rows are kept from results/local.json (default: both)")
    parser.add_argument("--disk-bandwidth", type=bandwidth_or_inf, default=IO_DISK_BANDWIDTH, metavar="BYTES_PER_S",
                        help="library-sim: bytes/s of each I/O node's disk (default: %(default).3g; inf: no disk)")
    args = parser.parse_args()
    args.nodes = [int(x) for x in args.nodes.split(",")] if args.nodes else None
    args.simulate = [int(x) for x in args.simulate.split(",") if x]
    args.files = args.files.split(",")
    args.sizes = [int(x) for x in args.sizes.split(",")]
    args.layouts = args.layouts.split(",")
    args.sweeps = args.sweeps.split(",")
    args.planners = args.planners.split(",") if args.planners else None
    args.variants = args.variants.split(",") if args.variants else None
    stages = list(STAGES) if args.stage == "all" else [] if args.stage == "report" else [args.stage]
    for stage in stages:
        start = time.perf_counter()
        rows = STAGES[stage](args)
        save(stage, rows, time.perf_counter() - start)
        log(f"wrote {RESULTS / (stage + '.json')}")
    from report import write_report  # noqa: E402  (plots need matplotlib; import only when reporting)

    write_report(RESULTS)
    return 0


if __name__ == "__main__":
    sys.exit(run_interruptible(main, "bench/io/run.py"))
