"""Launching optiq's driver under SimGrid SMPI.

The model settings, and why (docs/simulation.md has the longer story):

- ``network/model:CM02`` with ``TCP-gamma:0``, ``weight-S:0`` and no cross-traffic: links are
  shared max-min fairly and a message of ``b`` bytes alone on a route takes ``latency + b / bw``.
  That is the fluid model the planners optimise, so a simulated time can be set beside a plan's
  prediction. SMPI's default model would multiply bandwidths by factors measured on an Ethernet
  cluster, and cross-traffic would charge acknowledgements to the reverse links.
- ``smpi/simulate-computation:no``: CPU time of the simulated ranks is not injected. The simulation
  runs 1024 ranks on a shared 2-core host, so measured bursts would be this machine's noise; the
  result is the network time of the exchange (planning is reported separately, in wall seconds).
- ``smpi/test`` at 17 ns and ``smpi/iprobe`` at 27 ns, ``grow-injected-times:no``: each poll
  costs what MPI_Test and MPI_Iprobe cost on this machine (bench/poll_cost.py; a polling loop
  must cost something, or simulated time would not advance while a rank spins), without SMPI's
  growing back-off.
- ``smpi/coll-selector:ompi`` (the default selector sends P^2 messages in some collectives) and
  ``smpi/alltoallv:ompi_basic_linear``: MPI_Alltoallv posts all its messages at once, so its time
  is the network's default routing at work, not a pairwise algorithm's serialisation.
- ``smpi/bcast:binomial_tree``: SMPI 3.32's Open MPI bcast selection takes about 18 s of wall
  clock per call on 512 ranks, and every MPI_Comm_dup broadcasts once; the binomial tree takes 10 ms.
- ``smpi/privatization:no``: the runtime keeps no global mutable state, so ranks need no copies of
  the program (its table of parsed networks is then shared by every simulated rank's context, on
  purpose); ``smpi/shared-malloc-blocksize`` lets shared buffers of 1024 ranks fit in memory.
"""

from __future__ import annotations

import math
import os
import shutil
import subprocess
from pathlib import Path

from .. import _core, options
from ..failure import run_json_program

# Seconds per request tested and per MPI_Iprobe, measured by bench/poll_cost.py
# (bench/results/poll_cost.md); the "simulation" option records hold them.
POLL_COST = options.default("simulation", "poll-cost")
PROBE_COST = options.default("simulation", "probe-cost")

MODEL_SETTINGS = (
    "network/model:CM02",
    "network/TCP-gamma:0",
    "network/weight-S:0",
    "network/crosstraffic:0",
    "smpi/simulate-computation:no",
    f"smpi/test:{POLL_COST:g}",
    f"smpi/iprobe:{PROBE_COST:g}",
    "smpi/grow-injected-times:no",
    "smpi/coll-selector:ompi",
    "smpi/alltoallv:ompi_basic_linear",
    "smpi/bcast:binomial_tree",
    "smpi/privatization:no",
    "smpi/shared-malloc-blocksize:67108864",
)


def _bin_dir() -> Path:
    return Path(__file__).resolve().parent.parent / "bin"


def _tool(env: str, path: Path, what: str) -> Path:
    chosen = Path(os.environ[env]) if os.environ.get(env) else path
    if not chosen.is_file():
        raise _core.Error(f"{what} is not at {chosen}: install SimGrid (apt-get install libsimgrid-dev) and "
                          f"rebuild the package (scripts/setup.sh does both), or set {env}")
    return chosen


def smpi_driver() -> Path:
    """The driver built with smpicxx: $OPTIQ_SMPI_DRIVER, else the one installed with the package."""
    return _tool("OPTIQ_SMPI_DRIVER", _bin_dir() / "smpi" / "optiq-driver", "the SMPI build of optiq-driver")


def smpi_io_bench() -> Path:
    """The I/O benchmark built with smpicxx: $OPTIQ_SMPI_IO_BENCH, else the installed one."""
    return _tool("OPTIQ_SMPI_IO_BENCH", _bin_dir() / "smpi" / "optiq-io-bench", "the SMPI build of optiq-io-bench")


def smpi_flood() -> Path:
    """The flood and latency microbenchmark built with smpicxx: $OPTIQ_SMPI_FLOOD, else the
    installed one (bench/applications/flood.py)."""
    return _tool("OPTIQ_SMPI_FLOOD", _bin_dir() / "smpi" / "optiq-flood", "the SMPI build of optiq-flood")


def smpi_qos() -> Path:
    """The traffic-class benchmark built with smpicxx: $OPTIQ_SMPI_QOS, else the installed one
    (bench/applications/qos.py)."""
    return _tool("OPTIQ_SMPI_QOS", _bin_dir() / "smpi" / "optiq-qos", "the SMPI build of optiq-qos")


def smpi_nas_ft() -> Path:
    """NAS FT built with smpicxx: $OPTIQ_SMPI_NAS_FT, else the installed one (built when FFTW 3
    is there)."""
    return _tool("OPTIQ_SMPI_NAS_FT", _bin_dir() / "smpi" / "nas-ft", "the SMPI build of nas-ft (it needs FFTW 3 too: "
                 "apt-get install libfftw3-dev)")


def simroutes() -> Path:
    """The route query tool: $OPTIQ_SIMROUTES, else the one installed with the package."""
    return _tool("OPTIQ_SIMROUTES", _bin_dir() / "optiq-simroutes", "optiq-simroutes")


def platform_library() -> Path:
    """The SimGrid platform library for networks without an XML platform
    (src/simulation/platform_library.cpp): $OPTIQ_PLATFORM_LIBRARY, else the installed one."""
    return _tool("OPTIQ_PLATFORM_LIBRARY", _bin_dir().parent / "lib" / "liboptiq-platform.so",
                 "the SimGrid platform library")


def smpirun() -> str:
    exe = shutil.which("smpirun")
    if not exe:
        raise _core.Error("smpirun not found: install SimGrid (apt-get install libsimgrid-dev; scripts/setup.sh does)")
    return exe


# CPU costs every simulation charges unless told otherwise, measured on a 2-core VM
# (docs/simulation.md, "CPU costs charged in simulated time"):
# - a forwarder copies at 3.4 GB/s: bench/results/runtime_overhead.md, 8 ranks forwarding
#   1 MiB messages on 2 cores moved 6.76 GB/s through one forwarding level, 3.4 GB/s per core;
# - a message costs 0.4 us: bench/results/interposer.md, osu_alltoallv at 2 ranks (one per
#   core) and 1 KiB took 0.4 us per call, one message each way.
COPY_BANDWIDTH = options.default("simulation", "copy-bandwidth")
MESSAGE_OVERHEAD = options.default("simulation", "message-overhead")


def cpu_cost_settings(copy_bandwidth: float = COPY_BANDWIDTH, message_overhead: float = MESSAGE_OVERHEAD) -> tuple:
    """(SMPI settings, environment) that charge the CPU costs of a run in simulated time.

    ``copy_bandwidth``: bytes/s at which a forwarding rank copies each chunk it relays, charged
    by the runtime as computation on its host (inf: free). ``message_overhead``: seconds a rank
    spends per message it sends, SMPI's ``smpi/os`` (the MPI baseline's too; SMPI charges it to
    messages below its eager threshold, 64 KiB, only).
    """
    settings = [f"smpi/os:0:{message_overhead:.9g}:0"] if message_overhead > 0 else []
    env = {"OPTIQ_SIM_COPY_BANDWIDTH": "inf" if math.isinf(copy_bandwidth) else f"{copy_bandwidth:.9g}"}
    return settings, env


def run_driver(np: int, platform: Path, hostfile: Path, driver_args: list, timeout: float,
               costs: tuple = ((), {})) -> dict:
    """Runs the SMPI driver on ``np`` simulated ranks; returns its JSON document plus ``wall_seconds``.
    ``costs``: :func:`cpu_cost_settings` (default: none charged)."""
    # Unchecked runs share forwarding slots between simulated ranks too (slot_pool.hpp).
    env = {"OPTIQ_SMPI_SHARED_SLOTS": "1" if "--shared-buffers" in driver_args else "0"}
    return run_program(smpi_driver(), np, platform, hostfile, driver_args, timeout, costs, env)


def smpirun_command(program: Path, np: int, platform: Path, hostfile: Path, args: list,
                    costs: tuple = ((), {}), env: dict | None = None) -> tuple:
    """(command, environment) that run an SMPI build of ``program`` on ``np`` simulated ranks,
    with the model settings above and ``costs`` (:func:`cpu_cost_settings`)."""
    settings, cost_env = costs
    cmd = [smpirun(), "-np", str(np), "-platform", str(platform), "-hostfile", str(hostfile)]
    cmd += [f"--cfg={setting}" for setting in list(MODEL_SETTINGS) + list(settings)]
    cmd += ["--log=root.thres:warning", str(program)] + list(args)
    return cmd, {**cost_env, **(env or {})}


def run_program(program: Path, np: int, platform: Path, hostfile: Path, args: list, timeout: float,
                costs: tuple = ((), {}), env: dict | None = None) -> dict:
    """Runs an SMPI build of one of optiq's programs (its errors start with "NAME: error: ", its
    result is its last JSON line) on ``np`` simulated ranks, with the model settings above."""
    cmd, full_env = smpirun_command(program, np, platform, hostfile, args, costs, env)
    return run_json_program(cmd, timeout, "the simulation", program.name, full_env)


def simgrid_routes(platform: Path, sources: list) -> dict:
    """SimGrid's own routes from the given hosts: {(src_host, dst_host): [link names]}."""
    out = subprocess.run([str(simroutes()), str(platform)] + list(sources), capture_output=True, text=True,
                         check=True, stdin=subprocess.DEVNULL).stdout
    routes = {}
    for line in out.splitlines():
        a, b, *links = line.split()
        routes[(a, b)] = links
    return routes
