"""Overlap in simulation: an optiq_ialltoallv whose plan forwards, started before a computation
as long as the exchange, with and without optiq_progress between the computation's slices
(the driver's --compute and --progress-calls; SimGrid SMPI, 16 ranks on a 4x4 torus).

The network moves bytes without the CPU in simulation, as an RDMA NIC does; a forwarder's
copies are CPU work, charged at the copy rate, that cannot run while its core computes."""

import math
from pathlib import Path

import pytest

from optiq.simulation import platform as plat
from optiq.simulation import smpi

TOPOLOGY = "torus:4x4"


@pytest.fixture(scope="module")
def machine(tmp_path_factory):
    net = plat.simulated_network(TOPOLOGY, None)
    platform, hosts = plat.write_platform(net, tmp_path_factory.mktemp("overlap") / "platform.xml")
    base = ["--topology", net.spec, "--routing", plat.routing_of(net), "--pattern", "shift", "--bytes", "8MiB",
            "--planner", "mcf", "--min-gain", "0", "--direct-threshold", "0", "--iterations", "1", "--warmup", "1",
            "--only", "optiq"]

    def run(copy_bandwidth, *extra):
        r = smpi.run_driver(net.num_endpoints, platform, hosts, base + list(extra), 600,
                            smpi.cpu_cost_settings(copy_bandwidth))
        assert r["verified"] is True and r["forwarded_bytes"] > 0
        return r["optiq_seconds"]["median"]

    return run


@pytest.mark.parametrize("copy_bandwidth", [math.inf, smpi.COPY_BANDWIDTH])
def test_progress_calls_hide_the_exchange_behind_computation(machine, copy_bandwidth):
    alone = machine(copy_bandwidth)
    compute = f"{alone:.9f}"
    without = machine(copy_bandwidth, "--compute", compute)
    with_calls = machine(copy_bandwidth, "--compute", compute, "--progress-calls")
    # Without progress the forwarded chunks wait at their forwarders until the computation ends.
    assert without > 1.3 * alone
    assert with_calls < without
    if math.isinf(copy_bandwidth):
        assert with_calls <= 1.1 * alone  # within 10% of max(compute, exchange alone)
    else:
        # A forwarder's copies need its core: they add to the computation instead of hiding.
        assert with_calls > 1.1 * alone
