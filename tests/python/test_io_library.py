"""The collective I/O library (optiq/io.h) run unchanged in SimGrid SMPI, with one rank on each
I/O node receiving what the aggregators write: every written byte arrives there exactly once,
for every placement and with or without overlapping the rounds; with a disk on the I/O node,
every byte is stored and the write is as fast as the disk, no faster."""

import math

import pytest

from optiq import _core
from optiq.commands.common import bundled_program, launcher
from optiq.failure import run_json_program
from optiq.simulation import platform as plat
from optiq.simulation import smpi

TOPOLOGY = "bgq:2x4x4x4x1+io"  # one pset of 128 nodes and its I/O node


@pytest.fixture(scope="module")
def machine(tmp_path_factory):
    net = _core.parse_network(TOPOLOGY)
    platform, hosts = plat.write_platform(net, tmp_path_factory.mktemp("io-lib") / "platform.xml")
    return platform, hosts, net.num_endpoints + plat.append_io_ranks(net, hosts)


def simulate(machine, *extra, platform=None):
    default_platform, hosts, world = machine
    platform = platform or default_platform
    args = ["--topology", TOPOLOGY, "--io-ranks", "--workload", "hacc", "--layout", "soa", "--per-rank", "50000",
            "--aggregators", "4", "--buffer", "64KiB", "--iterations", "2", "--warmup", "1", *extra]
    return smpi.run_program(smpi.smpi_io_bench(), world, platform, hosts, args, 600, smpi.cpu_cost_settings(),
                            env={"OPTIQ_SMPI_SHARED_IO": "1"})


@pytest.mark.parametrize("extra", [[], ["--placement", "topology-aware"], ["--placement", "spread", "--no-overlap"],
                                   ["--files", "pset", "--placement", "greedy"]])
def test_every_byte_reaches_the_io_node_once(machine, extra):
    r = simulate(machine, *extra)
    per_rank = 50000 // 38 * 38
    assert r["ranks"] == 128 and r["io_ranks"] == 1
    assert r["bytes"] == 128 * per_rank
    assert r["io_node_bytes"] == 3 * r["bytes"] and r["delivered"] is True
    assert r["rounds"] > 1  # 64 KiB buffers: several rounds, so the pipeline is exercised
    assert r["optiq_write_bps"]["median"] > 0


def test_forwarded_rounds_deliver_every_byte_once(machine):
    # Rounds through the runtime's exchange (mcf plans at declare) instead of puts, natively
    # checked byte for byte by tests/mpi/mpi_io.cpp; here, simulated, every byte arrives once.
    platform, hosts, world = machine
    args = ["--topology", TOPOLOGY, "--io-ranks", "--workload", "hacc", "--layout", "aos", "--per-rank", "20000",
            "--aggregators", "4", "--buffer", "1MiB", "--iterations", "1", "--warmup", "0", "--forward"]
    r = smpi.run_program(smpi.smpi_io_bench(), world, platform, hosts, args, 600, smpi.cpu_cost_settings(),
                         env={"OPTIQ_SMPI_SHARED_IO": "1"})
    assert r["forward"] is True and r["rounds"] > 1
    assert r["bytes"] == 128 * (20000 // 38 * 38) and r["io_node_bytes"] == r["bytes"] and r["delivered"] is True


def test_a_bad_option_fails_the_simulation_with_its_message(machine):
    with pytest.raises(_core.Error, match="unknown placement"):
        simulate(machine, "--placement", "nearest")


def disk_platform(tmp_path, bandwidth):
    net = _core.parse_network(TOPOLOGY)
    platform, _ = plat.write_platform(net, tmp_path / "platform.xml", disk_bandwidth=bandwidth)
    return platform


def test_the_io_node_stores_every_byte_at_its_disks_bandwidth(machine, tmp_path):
    # 0.5 GB/s is far below the 3.6 GB/s of the I/O node's two links: the disk sets the pace.
    disk = 0.5e9
    r = simulate(machine, "--disk", "--buffer", "1MiB", "--per-rank", "400000",
                 platform=disk_platform(tmp_path, disk))
    assert r["disk"] is True and r["delivered"] is True
    assert r["disk_bytes"] == r["io_node_bytes"] == 3 * r["bytes"]
    rates = r["optiq_write_bps"]["all"]
    # No faster than the disk; and the links and the disk overlap, so hardly slower.
    assert all(0.9 * disk <= rate <= disk * (1 + 1e-9) for rate in rates), rates


def test_without_a_disk_the_links_set_the_pace(machine, tmp_path):
    common = ["--buffer", "1MiB", "--per-rank", "400000"]
    free = simulate(machine, *common, platform=disk_platform(tmp_path, math.inf))
    stored = simulate(machine, "--disk", *common)  # the default disk, IO_DISK_BANDWIDTH
    assert free["disk_bytes"] == 0 and stored["disk_bytes"] == stored["io_node_bytes"]
    assert stored["optiq_write_bps"]["median"] <= plat.IO_DISK_BANDWIDTH * (1 + 1e-9)
    assert free["optiq_write_bps"]["median"] > plat.IO_DISK_BANDWIDTH


def test_a_disk_the_platform_lacks_is_a_clear_error(machine, tmp_path):
    with pytest.raises(_core.Error, match="no disk in the platform"):
        simulate(machine, "--disk", platform=disk_platform(tmp_path, math.inf))


def test_io_ranks_store_through_a_real_mpi(tmp_path):
    # The same servers under Open MPI, with files: the wildcard receives, the syncs and the
    # drain at the end work on a real MPI too, and every byte is written once.
    program = bundled_program("optiq-io-bench", "OPTIQ_IO_BENCH", "the I/O benchmark")
    args = ["--topology", TOPOLOGY, "--io-ranks", "--disk", "--dir", str(tmp_path), "--workload", "array",
            "--per-rank", "300000", "--aggregators", "2", "--buffer", "64KiB", "--iterations", "2", "--warmup", "1"]
    r = run_json_program(launcher("mpirun", 5) + [str(program)] + args, 300, "the MPI job", "optiq-io-bench")
    assert r["ranks"] == 4 and r["io_ranks"] == 1 and r["delivered"] is True
    assert r["disk_bytes"] == r["io_node_bytes"] == 3 * 4 * 300000
    assert list(tmp_path.iterdir()) == []  # the I/O node's file is removed at the end
