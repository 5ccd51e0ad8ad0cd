"""Overlap in simulation: an optiq_ialltoallv whose plan forwards, started before a computation
as long as the exchange, with and without optiq_progress between the computation's slices
(the driver's --compute and --progress-calls; SimGrid SMPI, 16 ranks on a 4x4 torus and on a
two-level fat-tree, each with a pattern whose mcf plan forwards).

The network moves bytes without the CPU in simulation, as an RDMA NIC does; a forwarder's
copies are CPU work, charged at the copy rate, that cannot run while its core computes."""

import math
from pathlib import Path

import pytest

from optiq import _core
from optiq.simulation import platform as plat
from optiq.workload import pattern_jobs
from optiq.simulation import smpi

# (machine, pattern): a shift on the torus, and on the fat-tree the pattern whose pairs D-mod-k
# routing puts on the same up-links (mcf spreads them through other leaves' hosts).
MACHINES = [("torus:4x4", "shift"), ("fattree:2;4,4;1,4;1,1", "dmodk-adversarial")]


@pytest.fixture(scope="module", params=MACHINES, ids=["torus", "fattree"])
def machine(request, tmp_path_factory):
    topology, pattern = request.param
    net = plat.simulated_network(topology, None)
    platform, hosts = plat.write_platform(net, tmp_path_factory.mktemp("overlap") / "platform.xml")
    if pattern in _core.network_pattern_names():  # the driver knows the 1:8 patterns and shift only
        requests = tmp_path_factory.mktemp("requests") / f"{pattern}.txt"
        requests.write_text("".join(f"{j.src} {j.dst} {j.bytes}\n" for j in pattern_jobs(net, pattern, "8MiB")))
        exchange = ["--requests", str(requests)]
    else:
        exchange = ["--pattern", pattern, "--bytes", "8MiB"]
    base = ["--topology", net.spec, "--routing", plat.routing_of(net)] + exchange + [
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
