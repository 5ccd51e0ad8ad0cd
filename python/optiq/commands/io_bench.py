"""``optiq io-bench``: the same collective write with optiq's two-phase I/O (optiq/io.h) and with
MPI_File_write_at_all under mpirun; both files compared byte for byte, bandwidths reported."""

from __future__ import annotations

import os
import tempfile

from .. import _core, options
from ..failure import run_json_program
from ..argtypes import byte_size, integer
from .common import (NP_MAX, REPEATS_MAX, add_launch_arguments, add_runtime_arguments, bundled_program,
                     launch_and_report, launcher, runtime_values)

EXAMPLES = """examples:
  optiq io-bench --np 16 --workload hacc --layout aos --per-rank 190KB --dir /dev/shm
  optiq io-bench --np 16 --workload hacc --layout soa --per-rank 4MB --aggregators 4 --buffer 1MiB
  optiq io-bench --np 8 --workload array --per-rank 1MiB --files pset --group-nodes 4 --dir out --keep
  optiq io-bench --np 16 --workload hacc --per-rank 1MB --mpiio romio --hints --json
  optiq io-bench --np 8 --workload array --per-rank 4MiB --aggregators 2 --forward

Each iteration writes the file with optiq, then with MPI_File_write_at_all (a file view and a
memory datatype over the same arrays, as an application would); both files are then compared
byte for byte and optiq reads its file back. Bandwidth: total bytes over the slowest rank's
time. Writes go to the page cache: neither side syncs (docs/io.md).
"""


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "io-bench", help="collective writes: optiq's two-phase I/O against MPI_File_write_at_all",
        description="Launch optiq-io-bench with mpirun: the same HACC-IO or array write with optiq "
                    "(optiq/io.h) and with MPI_File_write_at_all, timed alternately, then both files "
                    "compared byte for byte.",
        epilog=EXAMPLES)
    job = p.add_argument_group("job")
    job.add_argument("--np", type=integer(1, NP_MAX), required=True, metavar="N", help="number of MPI ranks")
    job.add_argument("--topology", metavar="SPEC",
                     help="the machine the ranks are placed on (default: torus:N/R, one node per rank group); "
                          "mira:512+io places aggregators by I/O node")
    work = p.add_argument_group("workload")
    work.add_argument("--workload", default="hacc", choices=("hacc", "array"),
                      help="HACC-IO particles (nine variables, 38 bytes each) or a 1-D array, one contiguous "
                           "block per rank (default: %(default)s)")
    work.add_argument("--layout", default="aos", choices=("aos", "soa"),
                      help="HACC's file layout: array of structures or structure of arrays (default: %(default)s)")
    work.add_argument("--per-rank", type=byte_size, default="1MiB", metavar="SIZE",
                      help="bytes per rank (HACC: SIZE / 38 particles; default: %(default)s)")
    work.add_argument("--seed", type=integer(0, 1 << 62), default=1, metavar="S",
                      help="seed of the data bytes (default: %(default)s)")
    options.add_arguments(p.add_argument_group("optiq's I/O library (optiq_io_options)"), "io", skip=("sink",))
    opt = p.add_argument_group("optiq's I/O sink")
    sink = options.record("io", "sink")
    opt.add_argument("--sink", default=sink.default, choices=[c for c in sink.choices if c != "custom"],
                     help=options.help_text(sink))
    add_runtime_arguments(p)
    ref = p.add_argument_group("MPI-IO reference")
    ref.add_argument("--mpiio", default="default", choices=("default", "ompio", "romio"),
                     help="Open MPI's I/O component: its default, OMPIO, or ROMIO (default: %(default)s)")
    ref.add_argument("--hints", action="store_true",
                     help="give MPI-IO ROMIO-style hints matching optiq's settings: cb_nodes=A, "
                          "cb_buffer_size=SIZE, romio_cb_write=enable")
    meas = p.add_argument_group("measurement")
    meas.add_argument("--dir", metavar="DIR",
                      help="where the files go (default: a temporary directory, removed afterwards)")
    meas.add_argument("--keep", action="store_true",
                      help="leave optiq.dat and mpiio.dat (one pair per file group: .0, .1, ...) in --dir")
    meas.add_argument("--iterations", type=integer(1, REPEATS_MAX), default=5, metavar="K",
                      help="timed writes of each (default: %(default)s)")
    meas.add_argument("--warmup", type=integer(0, REPEATS_MAX), default=1, metavar="W",
                      help="untimed writes of each first (default: %(default)s)")
    add_launch_arguments(meas)
    p.add_argument("--json", action="store_true", help="print the benchmark's JSON document")
    p.set_defaults(func=run)


def check_arguments(args) -> None:
    if args.keep and not args.dir:
        raise _core.Error("--keep needs --dir: the default directory is temporary")
    if args.dir and not os.path.isdir(args.dir):
        raise _core.Error(f"--dir {args.dir}: no such directory")
    if args.topology:
        network = _core.parse_network(args.topology)
        if args.np > network.num_endpoints * args.ranks_per_node:
            raise _core.Error(f"--np {args.np} is more ranks than {network.spec} holds at {args.ranks_per_node} "
                              f"per node ({network.num_endpoints * args.ranks_per_node})")
    if _core.parse_bytes(args.per_rank) >= 1 << 31:
        raise _core.Error(f"--per-rank {args.per_rank} must stay below 2 GiB (MPI-IO's counts are ints)")


def bench_arguments(args, directory: str) -> list[str]:
    """optiq-io-bench's command line: the workload, then the I/O library's and the runtime's
    options through their records (optiq.options)."""
    out = ["--workload", args.workload, "--layout", args.layout, "--per-rank", args.per_rank, "--dir", directory,
           "--iterations", str(args.iterations), "--warmup", str(args.warmup), "--seed", str(args.seed)]
    if args.topology:
        out += ["--topology", args.topology]
    if args.keep:
        out.append("--keep")
    if args.hints:
        out.append("--hints")
    return out + options.tool_arguments("io", options.values(args, "io")) + \
        options.tool_arguments("runtime", runtime_values(args))


def launch(args) -> dict:
    check_arguments(args)
    program = bundled_program("optiq-io-bench", "OPTIQ_IO_BENCH", "the I/O benchmark")
    mca = [] if args.mpiio == "default" else ["--mca", "io", "ompio" if args.mpiio == "ompio" else "romio321"]
    with tempfile.TemporaryDirectory(prefix="optiq-io-bench-", dir=args.dir) as tmp:
        directory = args.dir if args.keep else tmp
        cmd = launcher(args.mpirun, args.np) + mca + [str(program)] + bench_arguments(args, directory)
        result = run_json_program(cmd, args.timeout, "the MPI job", "optiq-io-bench")
    result["mpiio"] = args.mpiio
    return result


def report(r: dict) -> None:
    files = "one shared file" if r["files"] == "shared" else f"{r['file_groups']} files (one per group)"
    print(f"{r['ranks']} ranks on {r['topology']}: {r['workload']} ({r['layout']}), {r['per_rank']} bytes per rank, "
          f"{r['bytes'] / 1e6:.3f} MB in {files}")
    print(f"optiq: {r['aggregators']} aggregators, {r['buffer']}-byte buffers, {r['rounds']} round(s), sink {r['sink']}"
          f"{', rounds forwarded' if r.get('forward') else ''}; "
          f"MPI-IO: {r['mpiio']}{' with hints' if r['mpiio_hints'] else ''}")
    print(f"{'':24}{'min MB/s':>10}  {'median MB/s':>12}  {'max MB/s':>10}")
    for name, key in (("optiq", "optiq_write_bps"), ("MPI_File_write_at_all", "mpiio_write_bps")):
        s = r[key]
        print(f"{name:24}{s['min'] / 1e6:10.1f}  {s['median'] / 1e6:12.1f}  {s['max'] / 1e6:10.1f}")
    mpi = r["mpiio_write_bps"]["median"]
    if mpi > 0:
        print(f"optiq / MPI-IO (median): {r['optiq_write_bps']['median'] / mpi:.2f}x; "
              f"optiq read back at {r['optiq_read_bps'] / 1e6:.1f} MB/s")
    if r["identical"] is None:
        print("files not compared: the null sink writes nothing")
    else:
        print("files identical byte for byte" if r["identical"] else "FILES DIFFER")


def run(args) -> int:
    return launch_and_report(args, launch, report, lambda r: r["identical"] is not False)
