"""The collective I/O library (optiq/io.h) run unchanged in SimGrid SMPI, with one rank on each
I/O node receiving what the aggregators write: every written byte arrives there exactly once,
for every placement and with or without overlapping the rounds."""

import pytest

from optiq import _core
from optiq.simulation import platform as plat
from optiq.simulation import smpi

TOPOLOGY = "bgq:2x4x4x4x1+io"  # one pset of 128 nodes and its I/O node


@pytest.fixture(scope="module")
def machine(tmp_path_factory):
    net = _core.parse_network(TOPOLOGY)
    platform, hosts = plat.write_platform(net, tmp_path_factory.mktemp("io-lib") / "platform.xml")
    return platform, hosts, net.num_endpoints + plat.append_io_ranks(net, hosts)


def simulate(machine, *extra):
    platform, hosts, world = machine
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


def test_a_bad_option_fails_the_simulation_with_its_message(machine):
    with pytest.raises(_core.Error, match="unknown placement"):
        simulate(machine, "--placement", "nearest")
