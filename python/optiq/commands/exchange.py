"""``optiq exchange``: the dynamic sparse data exchange microbenchmark (PEX, PCX, RSX, NBX) under
mpirun, or under SimGrid SMPI on a simulated torus, with every received byte checked."""

from __future__ import annotations

import tempfile
from pathlib import Path

from .. import _core, options
from ..failure import run_json_program
from ..argtypes import DRIVER_SEED_MAX, byte_size, integer
from .common import NP_MAX, REPEATS_MAX, add_launch_arguments, bundled_program, launch_and_report, launcher

EXAMPLES = """examples:
  optiq exchange --np 8 --neighbors 6 --bytes 1KiB --protocol nbx,pcx,pex,rsx
  optiq exchange --np 16 --neighbors 3 --bytes 64KiB --protocol nbx,auto --barrier dissemination --json
  optiq exchange --np 4 --neighbors 3 --bytes 8MiB --protocol pex,nbx --iterations 5 --seed 7
  optiq exchange --simulate --topology torus:8x8x8 --neighbors 6 --bytes 1KiB    # SimGrid SMPI, 512 ranks

In every exchange each rank sends one message of --bytes to --neighbors distinct random other
ranks (a new seeded draw per exchange, the same draws for every protocol), so no rank knows who
will send to it: the setting of Hoefler, Siebert and Lumsdaine (PPoPP 2010). The protocols
differ in how a rank learns what to receive:
  pex  sizes of every pair by MPI_Alltoall              (Theta(P) per rank)
  pcx  a count by MPI_Reduce_scatter_block              (Theta(P) data per rank)
  rsx  a count by MPI_Accumulate between two fences     (one-sided)
  nbx  synchronous sends, then a nonblocking barrier    (Theta(log P))
  auto optiq's rule (docs/exchange.md)
Times are per exchange, from a barrier to the slowest rank's return: median (min, max) over
--iterations. "verified" is true only if every rank received exactly the messages meant for it
with every byte right. Set OPTIQ_EXCHANGE (or OPTIQ_SMPI_EXCHANGE) to use another build.
"""

PROTOCOLS = ("nbx", "pcx", "pex", "rsx", "auto")
BARRIERS = ("auto", "ibarrier", "dissemination")
MAX_BYTES = (1 << 31) - 1  # message sizes are C ints


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "exchange", help="time the sparse data exchange protocols (PEX, PCX, RSX, NBX) and check every byte",
        description="Launch optiq-exchange: every rank sends to K random distinct neighbours per exchange; "
                    "time each protocol and check every delivered message.",
        epilog=EXAMPLES)
    job = p.add_argument_group("job")
    job.add_argument("--np", type=integer(1, NP_MAX), metavar="N",
                     help="number of MPI ranks (required without --simulate; with it, default: every node; "
                          "a simulation needs at least 2)")
    job.add_argument("--neighbors", type=integer(0, 2**31 - 1), default=6, metavar="K",
                     help="messages each rank sends per exchange, to distinct random other ranks; more than "
                          "N-1 is capped at N-1 (default: %(default)s)")
    job.add_argument("--bytes", type=byte_size, default="1KiB", metavar="SIZE",
                     help="bytes per message, below 2 GiB (default: %(default)s)")
    job.add_argument("--protocol", default="nbx,pcx,pex,rsx", metavar="LIST",
                     help=f"comma-separated among {', '.join(PROTOCOLS)} (default: %(default)s)")
    job.add_argument("--barrier", default="auto", choices=BARRIERS,
                     help="NBX's nonblocking barrier: MPI_Ibarrier, optiq's dissemination barrier, or auto "
                          "(dissemination under SimGrid SMPI, else MPI_Ibarrier) (default: %(default)s)")
    job.add_argument("--seed", type=integer(0, DRIVER_SEED_MAX), default=0,
                     help="seed of the neighbour draws (default: %(default)s)")
    meas = p.add_argument_group("measurement")
    meas.add_argument("--iterations", type=integer(1, REPEATS_MAX), default=20, metavar="I",
                      help="timed exchanges per protocol (default: %(default)s)")
    meas.add_argument("--warmup", type=integer(0, REPEATS_MAX), default=2, metavar="W",
                      help="untimed (but checked) exchanges per protocol first (default: %(default)s)")
    meas.add_argument("--no-verify", action="store_true",
                      help="do not fill or check message bytes (\"verified\" is then null)")
    add_launch_arguments(meas)
    sim = p.add_argument_group("simulation (SimGrid SMPI)")
    sim.add_argument("--simulate", action="store_true",
                     help="run under smpirun on a simulated torus instead of mpirun; times are simulated seconds")
    sim.add_argument("--topology", metavar="SPEC",
                     help="with --simulate: the simulated machine, one rank per node (torus:8x8x8, mira:1024, ...)")
    options.add_arguments(sim, "simulation", names=("link-bandwidth", "latency"))
    out = p.add_argument_group("output")
    out.add_argument("--json", action="store_true", help="print the driver's JSON document")
    p.set_defaults(func=run)


def protocol_list(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise _core.Error("--protocol names no protocol")
    for name in names:
        if name not in PROTOCOLS:
            raise _core.Error(f"unknown protocol '{name}' (known: {', '.join(PROTOCOLS)})")
    if len(set(names)) != len(names):
        raise _core.Error(f"--protocol names a protocol twice: {text}")
    return names


def check_arguments(args) -> int:
    """Checks the arguments; returns the message size in bytes."""
    if args.simulate:
        if not args.topology:
            raise _core.Error("--simulate needs --topology (the simulated machine)")
    else:
        if args.topology:
            raise _core.Error("--topology describes a simulated machine: use it with --simulate")
        if args.np is None:
            raise _core.Error("--np is required (or --simulate --topology T)")
    protocol_list(args.protocol)
    size = _core.parse_bytes(args.bytes)
    if size > MAX_BYTES:
        raise _core.Error(f"--bytes must be below 2 GiB (message sizes are C ints), got {args.bytes}")
    return size


def driver_arguments(args, size: int) -> list[str]:
    out = ["--neighbors", str(args.neighbors), "--bytes", str(size), "--protocol", args.protocol,
           "--barrier", args.barrier, "--iterations", str(args.iterations), "--warmup", str(args.warmup),
           "--seed", str(args.seed)]
    return out + (["--no-verify"] if args.no_verify else [])


def run_local(args, size: int) -> dict:
    program = bundled_program("optiq-exchange", "OPTIQ_EXCHANGE", "the exchange benchmark (optiq-exchange)")
    cmd = launcher(args.mpirun, args.np) + [str(program)] + driver_arguments(args, size)
    result = run_json_program(cmd, args.timeout, "the MPI job", "optiq-exchange")
    result["simulated"] = False
    return result


def run_simulated(args, size: int) -> dict:
    """One rank per node of a SimGrid torus, with the simulation settings of ``optiq simulate``."""
    from ..simulation import platform as plat, smpi  # SimGrid is optional: only needed here

    program = bundled_program("smpi/optiq-exchange", "OPTIQ_SMPI_EXCHANGE",
                              "the SMPI build of the exchange benchmark (optiq-exchange)",
                              needs="SimGrid (apt-get install libsimgrid-dev)")
    net = plat.simulated_network(args.topology, args.link_bandwidth)
    np = net.num_endpoints if args.np is None else args.np
    if np > net.num_endpoints:
        raise _core.Error(f"--np {np} is more than the {net.num_endpoints} nodes of {net.spec}")
    if np < 2:  # SMPI aborts in the collectives of a one-rank exchange
        raise _core.Error(f"a simulated exchange needs at least 2 ranks, got {np} ({net.spec})")
    with tempfile.TemporaryDirectory(prefix="optiq-exchange-") as tmp:
        platform, hosts = plat.write_platform(net, Path(tmp) / "platform.xml", args.latency, args.link_bandwidth)
        cmd = [smpi.smpirun(), "-np", str(np), "-platform", str(platform), "-hostfile", str(hosts)]
        cmd += [f"--cfg={setting}" for setting in smpi.MODEL_SETTINGS]
        cmd += ["--log=root.thres:warning", str(program)] + driver_arguments(args, size)
        result = run_json_program(cmd, args.timeout, "the simulation", "optiq-exchange")
    result.update(simulated=True, topology=net.spec)
    return result


def launch(args) -> dict:
    size = check_arguments(args)
    return run_simulated(args, size) if args.simulate else run_local(args, size)


def report(r: dict) -> None:
    where = f"simulated on {r['topology']}" if r.get("simulated") else "under mpirun"
    print(f"{r['ranks']} ranks {where}, {r['neighbors']} neighbours each, {_core.format_bytes(r['bytes'])} per "
          f"message, seed {r['seed']}; {r['iterations']} timed exchanges per protocol after {r['warmup']} warm-up")
    if r["verified"] is None:
        print("message bytes not checked (--no-verify)")
    else:
        state = "verified" if r["verified"] else "WRONG MESSAGES"
        print(f"every byte of {r['messages_received']} received messages checked: {state}")
    unit = "simulated ms" if r.get("simulated") else "ms"
    print(f"{'protocol':10}{'runs as':22}{'min ' + unit:>18}{'median ' + unit:>20}{'max ' + unit:>18}")
    for p in r["protocols"]:
        runs = p["ran"] + (f" + {p['barrier']}" if p["barrier"] else "")
        s = p["seconds"]
        print(f"{p['protocol']:10}{runs:22}{s['min'] * 1e3:18.4f}{s['median'] * 1e3:20.4f}{s['max'] * 1e3:18.4f}")
    if r["verified"] is False:
        print(f"wrong messages: {r['wrong_messages']}; received {r['messages_received']} of {r['messages_sent']} sent")


def run(args) -> int:
    return launch_and_report(args, launch, report, lambda r: r["verified"] is not False)
