"""``optiq fft``: NAS FT's 3-D FFT on a pencil grid (examples/nas_ft), its transposes moved by
MPI_Alltoall, MPI_Ialltoallv, optiq_alltoallv and optiq_ialltoallv, under mpirun or SimGrid SMPI;
every variant verified against NPB's checksums."""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from .. import _core, options
from ..argtypes import integer
from ..failure import run_json_lines
from ..simulation import platform as plat
from ..simulation import smpi
from .common import (NP_MAX, add_launch_arguments, add_runtime_arguments, bundled_program, launcher, print_json,
                     runtime_values)

VARIANTS = ("alltoall", "ialltoallv", "optiq", "optiq-overlap")
CLASSES = ("S", "W", "A", "B", "C")

EXAMPLES = """examples:
  optiq fft --np 4 --class S
  optiq fft --np 16 --class A --procs 4x4 --variant optiq-overlap --planner mcf --json
  optiq fft --np 6 --grid 60x36x24 --procs 2x3 --iterations 3
  optiq fft --np 1024 --class B --iterations 2 --simulate --topology mira:1024 --planner mcf
  optiq fft --np 512 --class B --iterations 2 --simulate --topology fattree:3;8,8,8;1,8,8;1,1,1

Variants: alltoall (MPI_Alltoall per transpose), ialltoallv (MPI_Ialltoallv slab by slab, slab
k in flight while slab k+1 is transformed), optiq (optiq_alltoallv) and optiq-overlap
(optiq_ialltoallv with the same overlap). Each prints NPB's verification (every checksum within
1e-12 relative), its time (slowest rank) and, for the overlapping ones, the share of the exchange
hidden: 1 - (overlapped time - compute) / exchange alone, against the blocking variant of the
same run. Under mpirun on one machine every byte is a CPU copy and nothing can hide; --simulate
runs SMPI, where the network moves bytes without the CPU and the local work is charged by model
(--fft-rate, --copy-bandwidth; docs/applications.md, "NAS FT").
"""


def variant_list(text: str) -> str:
    names = text.split(",")
    if text != "all" and (len(set(names)) != len(names) or not set(names) <= set(VARIANTS)):
        raise argparse.ArgumentTypeError(f"'{text}': expected all, or a comma-separated list of {', '.join(VARIANTS)}")
    return text


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "fft", help="NAS FT's 3-D FFT with its transposes moved by MPI or optiq, verified",
        description="Run NAS FT (NPB's FT problem on a P1 x P2 pencil grid, FFTW for the local transforms) "
                    "with each way of moving its transposes, under mpirun or SimGrid SMPI.",
        epilog=EXAMPLES)
    job = p.add_argument_group("job")
    job.add_argument("--np", type=integer(1, NP_MAX), required=True, metavar="N", help="number of MPI ranks")
    job.add_argument("--procs", metavar="P1xP2",
                     help="the pencil grid (P1 divides nx and ny, P2 divides ny and nz; default: the squarest "
                          "that fits)")
    job.add_argument("--topology", metavar="SPEC",
                     help="the machine optiq plans for, and with --simulate the one simulated (default: a torus "
                          "of the pencil grid's shape; with --simulate, required)")
    prob = p.add_argument_group("problem")
    size = prob.add_mutually_exclusive_group()
    size.add_argument("--class", dest="npb_class", choices=CLASSES, default="S",
                      help="NPB's problem class: S 64^3, W 128x128x32, A 256x256x128, B 512x256x256, "
                           "C 512^3 (default: %(default)s)")
    size.add_argument("--grid", metavar="NXxNYxNZ",
                      help="a grid of no NPB class, checked against a single-process FFT (up to 2^22 points)")
    prob.add_argument("--iterations", type=integer(1, 1000), metavar="K",
                      help="iterations (default: the class's own; NPB's first K checksums still verify)")
    prob.add_argument("--variant", default="all", type=variant_list, metavar="LIST",
                      help=f"how the transposes move: all, or a comma-separated list of {', '.join(VARIANTS)} "
                           "(default: %(default)s)")
    prob.add_argument("--slabs", type=integer(1, 1 << 16), default=4, metavar="K",
                      help="slabs per overlapped transpose (default: %(default)s)")
    add_runtime_arguments(p)
    sim = p.add_argument_group("simulation (SimGrid SMPI; docs/applications.md)")
    sim.add_argument("--simulate", action="store_true",
                     help="run the SMPI build on a simulated --topology instead of mpirun")
    options.add_arguments(sim, "simulation", names=("fft-rate", "copy-bandwidth", "message-overhead",
                                                    "link-bandwidth", "latency"))
    meas = p.add_argument_group("measurement")
    add_launch_arguments(meas)
    p.add_argument("--json", action="store_true",
                   help='print {"variants": [...]}: per variant "verified", "checksums", "seconds", '
                        '"exchange_seconds", "overlap_fraction" and the phase times')
    p.set_defaults(func=run)


def program_arguments(args, topology: str | None) -> list[str]:
    out = ["--json", "--variant", args.variant, "--slabs", str(args.slabs)]
    out += ["--grid", args.grid] if args.grid else ["--class", args.npb_class]
    if args.iterations:
        out += ["--iterations", str(args.iterations)]
    if args.procs:
        out += ["--procs", args.procs]
    if topology:
        out += ["--topology", topology]
    return out + options.tool_arguments("runtime", runtime_values(args), flag_values=True)


def simulated(args) -> tuple:
    """(JSON lines, wall seconds) of the SMPI run."""
    if not args.topology:
        raise _core.Error("--simulate needs --topology: the machine to simulate (e.g. mira:1024)")
    network = plat.simulated_network(args.topology, args.link_bandwidth)
    rpn = args.ranks_per_node or 1
    if args.np > network.num_endpoints * rpn:
        raise _core.Error(f"--np {args.np} is more ranks than {network.spec} holds at {rpn} per node "
                          f"({network.num_endpoints * rpn})")
    program = smpi.smpi_nas_ft()
    settings, env = smpi.cpu_cost_settings(args.copy_bandwidth, args.message_overhead)
    env["OPTIQ_SIM_FFT_RATE"] = f"{args.fft_rate:.9g}"
    with tempfile.TemporaryDirectory(prefix="optiq-fft-") as tmp:
        platform, hosts = plat.write_platform(network, Path(tmp) / "platform.xml", args.latency,
                                              args.link_bandwidth, ranks_per_node=rpn)
        cmd, full_env = smpi.smpirun_command(program, args.np, platform, hosts,
                                             program_arguments(args, network.spec), (settings, env))
        return run_json_lines(cmd, args.timeout, "the simulation", "nas-ft", full_env)


def launch(args) -> dict:
    if args.simulate:
        lines, wall = simulated(args)
    else:
        program = bundled_program("nas-ft", "OPTIQ_NAS_FT", "NAS FT (nas-ft)", needs="Open MPI and FFTW 3")
        cmd = launcher(args.mpirun, args.np) + [str(program)] + program_arguments(args, args.topology)
        lines, wall = run_json_lines(cmd, args.timeout, "the MPI job", "nas-ft")
    first = lines[0]
    keep = ("class", "grid", "procs", "ranks", "slabs", "topology", "iterations", "reference", "charged")
    return {**{k: first[k] for k in keep}, "simulated": args.simulate, "wall_seconds": wall,
            "variants": [{k: v for k, v in line.items() if k not in keep} for line in lines]}


def report(r: dict) -> None:
    what = f"NPB class {r['class']}, " if r["class"] else ""
    where = "simulated" if r["simulated"] else "under mpirun"
    print(f"NAS FT: {what}{r['grid']} grid, {r['iterations']} iterations; {r['ranks']} ranks as a {r['procs']} "
          f"pencil grid on {r['topology']}, {where}")
    if r["charged"]:
        c = r["charged"]
        copies = f"{c['copy_bandwidth'] / 1e9:.2f} GB/s" if c["copy_bandwidth"] > 0 else "free"
        print(f"local work charged: FFTs at {c['fft_flops'] / 1e9:.2f} Gflop/s (5 n log2 n per line), copies {copies}")
    print(f"{'variant':15}{'verified':>9}{'total s':>11}{'exchange s':>12}{'compute s':>11}{'hidden':>9}")
    for v in r["variants"]:
        hidden = v["overlap_fraction"]
        print(f"{v['variant']:15}{'yes' if v['verified'] else 'NO':>9}{v['seconds']:11.4f}{v['exchange_seconds']:12.4f}"
              f"{v['compute_seconds'] + v['evolve_seconds']:11.4f}"
              f"{'' if hidden is None else f'{100 * hidden:.1f}%':>9}")
    best = {v["variant"]: v["seconds"] for v in r["variants"]}
    if "alltoall" in best and len(best) > 1:
        ratios = ", ".join(f"{name} {best['alltoall'] / s:.2f}x" for name, s in best.items()
                           if name != "alltoall" and s > 0)
        print(f"against MPI_Alltoall: {ratios}")
    reference = {"npb": "NPB's published checksums", "serial": "a single-process FFT of the same field"}
    print(f"verification against {reference.get(r['reference'], 'nothing (no reference for this grid)')}: "
          f"{'SUCCESSFUL' if all(v['verified'] for v in r['variants']) else 'UNSUCCESSFUL'}")


def run(args) -> int:
    result = launch(args)
    if args.json:
        print_json(result)
    else:
        report(result)
    return 0 if all(v["verified"] for v in result["variants"]) else 1
