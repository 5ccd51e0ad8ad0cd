"""``optiq run``: move a pattern's bytes with optiq and with MPI_Alltoallv under mpirun, check
every byte, and compare per-call times."""

from __future__ import annotations

import tempfile
from pathlib import Path

from .. import _core
from ..failure import run_json_program
from .. import options
from ..argtypes import DRIVER_SEED_MAX, integer, size_spec
from ..textfile import decode_text, read_requests
from ..workload import add_count_arguments, pattern_counts
from .common import (NP_MAX, REPEATS_MAX, add_launch_arguments, add_runtime_arguments, bundled_program,
                     launch_and_report, launcher, runtime_values)

EXAMPLES = """examples:
  optiq run --np 8 --topology torus:2x2x2 --pattern alltoall --bytes 1MiB --planner heu2
  optiq run --np 8 --topology torus:2x2x2 --pattern alltoall --bytes 8MiB --planner default --json
  optiq run --np 16 --topology bgq:2x2x2x2x2 --ranks-per-node 2 --pattern alltoall --bytes 64KiB \\
            --planner heu1 --transport rma --chunk 4KiB --iterations 10
  optiq run --np 16 --topology torus:4x4 --pattern disjoint --sources 2 --dests 8 --bytes 4MiB
  optiq run --np 8 --topology torus:2x2x2 --plan plan.json      # a plan made by 'optiq plan --out'
  optiq workload cesm --coupling ocn --topology torus:4x4 --ranks-per-node 4 --by rank --out ocn.txt
  optiq run --np 64 --topology torus:4x4 --ranks-per-node 4 --requests ocn.txt --aggregate-node

The driver program (optiq-driver) fills every message with bytes computed from its source,
destination and offset, runs MPI_Alltoallv and optiq alternately on the same buffers, and checks
every delivered byte of every call: "verified" is true only if all of them matched.
Set OPTIQ_DRIVER to use another build of the driver.
"""

PATTERNS = ("alltoall", "shift")


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "run", help="move a pattern's bytes with optiq and MPI_Alltoallv under mpirun and compare",
        description="Launch the optiq driver with mpirun: it runs the same exchange with MPI_Alltoallv and "
                    "with optiq (planned online, or from a plan file), checks every delivered byte and "
                    "reports per-call times (min, median, max over the timed calls, each the time of the "
                    "slowest rank) and throughput.",
        epilog=EXAMPLES)
    job = p.add_argument_group("job")
    job.add_argument("--np", type=integer(1, NP_MAX), required=True, metavar="N",
                     help="number of MPI ranks, at most the topology's nodes times --ranks-per-node")
    job.add_argument("--topology", required=True, metavar="SPEC",
                     help="the machine the ranks are placed on: torus:2x2x2, bgq:2x2x2x2x2, mira:512, ...")
    pat = p.add_argument_group("pattern (ranks are the endpoints)",
                               "Core patterns over N ranks: without --sources, N/16 sources, at least one\n"
                               "(fewer if the destinations would not split evenly), and N/2 destinations.")
    src = pat.add_mutually_exclusive_group()
    src.add_argument("--pattern", default="alltoall", metavar="P",
                     help=f"{', '.join(PATTERNS + tuple(_core.pattern_names()))}: every rank to every rank, "
                          "rank r to r + N/2, or the planning core's patterns over the N ranks "
                          "(default: %(default)s)")
    src.add_argument("--plan", metavar="FILE", help="execute this plan file instead (optiq plan --out)")
    src.add_argument("--requests", metavar="FILE",
                     help="move these jobs instead: 'SRC DST BYTES' lines between ranks 0..N-1 (pairs named twice "
                          "add up), e.g. from 'optiq workload cesm --by rank'")
    pat.add_argument("--bytes", type=size_spec, default="1MiB", metavar="SIZE",
                     help="bytes per message: 1MiB, 64KiB, uniform:LO:HI, pareto:ALPHA:MIN[:MAX] (default: %(default)s)")
    add_count_arguments(pat, seed_max=DRIVER_SEED_MAX, members="ranks")
    add_runtime_arguments(p)
    meas = p.add_argument_group("measurement")
    meas.add_argument("--iterations", type=integer(1, REPEATS_MAX), default=5, metavar="K",
                      help="timed calls of each (default: %(default)s)")
    meas.add_argument("--warmup", type=integer(0, REPEATS_MAX), default=1, metavar="W",
                      help="untimed (but checked) calls first; the first optiq call plans (default: %(default)s)")
    meas.add_argument("--agreement-baseline", action="store_true",
                      help="also time MPI_Alltoallv preceded by an allgather as large as optiq's per-call "
                           "agreement step, to tell that step's cost apart from the rest")
    add_launch_arguments(meas)
    out = p.add_argument_group("output")
    out.add_argument("--json", action="store_true", help="print the driver's JSON document")
    p.set_defaults(func=run)


def driver_path() -> Path:
    """The optiq-driver executable: $OPTIQ_DRIVER, else the one installed with the package."""
    return bundled_program("optiq-driver", "OPTIQ_DRIVER", "the MPI driver")


def check_arguments(args) -> None:
    """Everything the driver would refuse, refused before any process is launched."""
    network = _core.parse_network(args.topology)
    if args.np > network.num_endpoints * args.ranks_per_node:
        raise _core.Error(f"--np {args.np} is more ranks than {network.spec} holds at {args.ranks_per_node} per node "
                          f"({network.num_endpoints * args.ranks_per_node})")
    if args.plan:
        return
    if args.requests:
        read_requests(args.requests, args.np)
        return
    known = PATTERNS + tuple(_core.pattern_names())
    if args.pattern not in known:
        raise _core.Error(f"unknown pattern '{args.pattern}' (known: {', '.join(known)})")
    if args.pattern not in PATTERNS:  # the driver builds the same pairs from the same counts
        pairs = _core.named_pattern(args.pattern, args.np, *pattern_counts(args.np, args.sources, args.dests),
                                    args.start_src, args.start_dst, args.seed)
        _core.assign_sizes(pairs, args.bytes, args.seed)


def plan_for_driver(path: str, tmp: str) -> str:
    """The plan file the driver reads: ``path`` itself, or its UTF-8 text without a byte-order
    mark in ``tmp`` (the driver reads plain UTF-8). The plan is checked here first."""
    with open(path, "rb") as f:
        data = f.read()
    text = decode_text(data, path)
    _core.plan_from_json(text, path)
    if text.encode("utf-8") == data:
        return str(Path(path).resolve())
    copy = Path(tmp) / "plan.json"
    copy.write_text(text, encoding="utf-8")
    return str(copy)


def requests_for_driver(path: str, np: int, tmp: str) -> str:
    """The jobs of a request file (checked against ``np`` ranks), written for the driver as plain
    UTF-8 "src dst bytes" lines in ``tmp``."""
    jobs = read_requests(path, np)
    copy = Path(tmp) / "requests.txt"
    copy.write_text("".join(f"{j.src} {j.dst} {j.bytes}\n" for j in jobs), encoding="utf-8")
    return str(copy)


def driver_arguments(args, plan_file: str | None = None, requests_file: str | None = None) -> list[str]:
    """The driver's command line: the runtime's options through their records (optiq.options),
    then the measurement and the exchange."""
    runtime = runtime_values(args)
    if plan_file:
        runtime.pop("planner")  # a plan file brings its own
    out = ["--topology", args.topology] + options.tool_arguments("runtime", runtime)
    out += ["--iterations", str(args.iterations), "--warmup", str(args.warmup)]
    if args.agreement_baseline:
        out.append("--agreement-baseline")
    if plan_file:
        return out + ["--plan", plan_file]
    if requests_file:
        return out + ["--requests", requests_file]
    out += ["--pattern", args.pattern, "--bytes", args.bytes, "--seed", str(args.seed)]
    if args.pattern not in PATTERNS:
        sources, dests = pattern_counts(args.np, args.sources, args.dests)
        out += ["--sources", str(sources), "--dests", str(dests)]
    for flag in ("start_src", "start_dst"):
        value = getattr(args, flag)
        if value >= 0:
            out += ["--" + flag.replace("_", "-"), str(value)]
    return out


def launch(args) -> dict:
    check_arguments(args)
    with tempfile.TemporaryDirectory(prefix="optiq-run-") as tmp:
        plan_file = plan_for_driver(args.plan, tmp) if args.plan else None
        requests_file = requests_for_driver(args.requests, args.np, tmp) if args.requests else None
        cmd = launcher(args.mpirun, args.np) + [str(driver_path())] + driver_arguments(args, plan_file, requests_file)
        result = run_json_program(cmd, args.timeout, "the MPI job", "optiq-driver")
    if args.plan:
        result["plan"] = args.plan
    if args.requests:
        result["requests"] = args.requests
    return result


def milliseconds(summary: dict) -> str:
    return "  ".join(f"{summary[k] * 1e3:10.3f}" for k in ("min", "median", "max"))


def report(r: dict) -> None:
    if "plan" in r:
        what = f"plan {r['plan']}"
    else:
        what = f"{'requests ' + r['requests'] if 'requests' in r else 'pattern ' + r['pattern']}, planner {r['planner']}"
        if r.get("aggregate_node"):
            what += f", node aggregation ({r['aggregated_operations']} calls aggregated)"
    print(f"{r['ranks']} ranks on {r['topology']} ({r['ranks_per_node']} per node), {what}, "
          f"transport {r['transport']}")
    calls = r["iterations"] + r["warmup"]
    print(f"{r['messages']} messages, {r['bytes'] / 1e6:.3f} MB per call; every byte of {calls} calls of each "
          f"checked: {'verified' if r['verified'] else 'WRONG BYTES'}")
    print(f"{'':16}{'min ms':>10}  {'median ms':>10}  {'max ms':>10}  {'GB/s (median)':>14}")
    print(f"{'MPI_Alltoallv':16}{milliseconds(r['mpi_alltoallv_seconds'])}  {r['mpi_alltoallv_gbps']:14.3f}")
    if "mpi_allgather_alltoallv_seconds" in r:
        s = r["mpi_allgather_alltoallv_seconds"]
        print(f"{'MPI + allgather':16}{milliseconds(s)}  {r['bytes'] / s['median'] / 1e9:14.3f}")
    print(f"{'optiq':16}{milliseconds(r['optiq_seconds'])}  {r['optiq_gbps']:14.3f}")
    print(f"first optiq call (plans) {r['first_call_seconds'] * 1e3:.3f} ms; forwarded {r['forwarded_bytes'] / 1e6:.3f} MB "
          f"in {r['forwarded_chunks']} chunks; most held in one rank's slots {r['held_bytes_peak']} bytes "
          f"(budget {r['budget']})")
    if not r["verified"]:
        w = r["wrong_messages"]
        print(f"wrong messages: optiq {w['optiq']}, MPI_Alltoallv {w['mpi_alltoallv']}")


def run(args) -> int:
    return launch_and_report(args, launch, report, lambda r: bool(r["verified"]))
