"""The collective I/O library (optiq/io.h) run unchanged in SimGrid SMPI on Mira with its I/O
nodes: HACC-IO written by every node (one rank per node, or --ranks-per-node) into one shared file or one file per
pset, through the aggregators' buffers, to one rank on each I/O node that stores the bytes on
its node's disk (platform.IO_DISK_BANDWIDTH, 2.8 GB/s; `--disk-bandwidth inf`: no disk, the
bytes are dropped as the seed's /dev/null runs did). A write ends when its bytes are on disk.

Configurations of the same library, so that only placement, movement and pipelining differ
(16 aggregators per file, 16 MiB buffers, the same rounds; one-sided puts unless forwarded):
  topology-aware   tessier2016's placement, rounds overlapped with the writes
  romio-bgq        ROMIO's BG/Q placement rule, rounds overlapped
  forwarded        the same, each round moved through optiq's multi-path exchange (mcf, planned
                   at declare) instead of one-sided puts on the torus' own routes
  spread           aggregators evenly over the file's nodes, rounds overlapped
  two-phase        ROMIO's two-phase I/O as it runs on BG/Q: its placement rule, each round's
                   write after its aggregation
  two-phase-spread the same on a machine without BG/Q's rule (aggregators spread evenly)
A shared file has 16 aggregators per pset: spread over all its nodes, or ROMIO's BG/Q lists
dealt round the psets (topology-aware needs a single I/O node per file); each aggregator writes
through its own pset's I/O node. Charged: every torus, bridge and I/O
link, each I/O node's disk bandwidth in simulated time, and message overheads. Not charged: the
packing and buffer copies (SMPI does not simulate computation here), and the file system's own
behaviour (locks, striping, caches): a disk is one shared bandwidth."""

from __future__ import annotations

import math
import tempfile
import time
from pathlib import Path

from optiq import _core
from optiq.simulation import platform as plat
from optiq.simulation import smpi

# name: (placement, rounds overlapped with writes, rounds forwarded through the exchange)
VARIANTS = {"topology-aware": ("topology-aware", True, False), "romio-bgq": ("romio-bgq", True, False),
            "forwarded": ("romio-bgq", True, True), "spread": ("spread", True, False),
            "two-phase": ("romio-bgq", False, False), "two-phase-spread": ("spread", False, False)}
SHARED_VARIANTS = ("romio-bgq", "forwarded", "spread", "two-phase", "two-phase-spread")


def run_one(nodes: int, files: str, layout: str, per_node: int, variant: str, tmp: Path, timeout: float,
            disk_bandwidth: float = plat.IO_DISK_BANDWIDTH, aggregators: int = 16, buffer_mib: int = 16,
            ranks_per_node: int = 1) -> dict:
    net = _core.parse_network(f"mira:{nodes}+io")
    platform, hosts = plat.write_platform(net, tmp / f"mira{nodes}.xml", disk_bandwidth=disk_bandwidth,
                                          ranks_per_node=ranks_per_node)
    world = net.num_endpoints * ranks_per_node + plat.append_io_ranks(net, hosts)
    placement, overlap, forward = VARIANTS[variant]
    args = ["--topology", f"mira:{nodes}+io", "--io-ranks", "--workload", "hacc", "--layout", layout,
            "--per-rank", str(per_node // ranks_per_node), "--ranks-per-node", str(ranks_per_node),
            "--files", files, "--aggregators", str(aggregators), "--buffer", f"{buffer_mib}MiB",
            "--iterations", "1", "--warmup", "0"]
    args += ["--placement", placement]
    if not overlap:
        args.append("--no-overlap")
    if forward:
        args.append("--forward")
    if not math.isinf(disk_bandwidth):
        args.append("--disk")
    r = smpi.run_program(smpi.smpi_io_bench(), world, platform, hosts, args, timeout,
                         smpi.cpu_cost_settings(), env={"OPTIQ_SMPI_SHARED_IO": "1"})
    if not r["delivered"] or (r["disk"] and r["disk_bytes"] != r["io_node_bytes"]):
        raise _core.Error(f"{variant} at {nodes} nodes: the I/O nodes received {r['io_node_bytes']} bytes, "
                          f"not {r['bytes']}")
    return {"nodes": nodes, "files": files, "layout": layout, "per_rank": per_node, "variant": variant,
            "ranks_per_node": ranks_per_node,
            "disk_bandwidth": None if math.isinf(disk_bandwidth) else disk_bandwidth,
            "aggregators": aggregators, "buffer_mib": buffer_mib,
            "kind": "simulated", "bandwidth": r["optiq_write_bps"]["median"], "bytes": r["bytes"],
            "rounds": r["rounds"], "aggregator_ranks": r["aggregators"], "file_groups": r["file_groups"],
            "io_node_bytes": r["io_node_bytes"], "wall_seconds": r["wall_seconds"]}


def timed(log, checkpoint, label: str, *args) -> dict:
    """run_one(*args), logged with its wall time and checkpointed."""
    start = time.perf_counter()
    r = run_one(*args)
    log(f"{label}: {r['bandwidth'] / 1e9:.2f} GB/s, {r['rounds']} rounds ({time.perf_counter() - start:.0f} s wall)")
    if checkpoint:
        checkpoint([r])
    return r


def stage_library_sim(args, log=print, checkpoint=None) -> list:
    rows = []
    nodes = args.nodes or [512, 1024]
    sizes = args.sizes  # per node (one rank per node)
    with tempfile.TemporaryDirectory(prefix="optiq-io-lib-") as d:
        for n in nodes:
            for files in args.files:
                # AoS's per-record pieces take memory per piece on every simulated rank of the
                # one SMPI process (docs/io.md): 1 MB per node at 512 nodes needs about 7 GB.
                for layout in args.layouts:
                    for size in sizes:
                        for variant in (VARIANTS if files == "pset" else SHARED_VARIANTS):
                            if args.variants and variant not in args.variants:
                                continue
                            rpn = args.ranks_per_node
                            r = timed(log, checkpoint,
                                      f"{n} nodes x {rpn} ranks, {files} file(s), {layout}, {size} B/node, {variant}",
                                      n, files, layout, size, variant, Path(d), 7200, args.disk_bandwidth, 16, 16, rpn)
                            rows.append(r)
    return rows


def stage_buffers_sim(args, log=print, checkpoint=None) -> list:
    """Aggregators per pset x buffer size (8/16/32 x 8/16/32 MiB), the library with its default
    placement and one file per pset, 16 MB per node: enough that every buffer size is used
    whole (a domain is at least four buffers) and rounds differ in number."""
    rows = []
    nodes = args.nodes or [512]
    with tempfile.TemporaryDirectory(prefix="optiq-io-buf-") as d:
        for n in nodes:
            for aggregators in (8, 16, 32):
                for mib in (8, 16, 32):
                    rows.append(timed(log, checkpoint, f"{n} nodes, {aggregators} aggregators, {mib} MiB buffers",
                                      n, "pset", "soa", 16_000_000, "romio-bgq", Path(d), 7200, args.disk_bandwidth,
                                      aggregators, mib))
    return rows
