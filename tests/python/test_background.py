"""Background traffic: the second job's flows, what planning sees of the links, and simulations
in which that traffic really loads the network."""

import json
import math

import pytest

from optiq import _core
from optiq.simulation import background as bg
from optiq.simulation import platform as plat


def test_flows_pair_a_seeded_fraction_of_the_nodes_both_ways():
    net = plat.simulated_network("torus:4x4x4")
    b = bg.Background(load=0.25, nodes=0.5, seed=3)
    flows = bg.flows(net, b)
    assert flows == bg.flows(net, bg.Background(load=0.25, nodes=0.5, seed=3))  # seeded
    assert flows != bg.flows(net, bg.Background(load=0.25, nodes=0.5, seed=4))
    nodes = [v for f in flows for v in f]
    assert len(flows) == 32 and len(set(nodes)) == 32  # 32 nodes, each in one pair, both directions
    assert {(b_, a) for a, b_ in flows} == set(flows)
    assert bg.flows(net, bg.Background(load=0.0)) == [] and bg.flows(net, bg.Background(load=1, nodes=0)) == []


def test_capacities_left_count_every_flow_on_its_route():
    """Brute force: walk each flow's route hop by hop from the routing's next links."""
    net = plat.simulated_network("torus:4x4")
    routing = _core.make_routing(plat.routing_of(net), net)
    b = bg.Background(load=0.4, nodes=1.0, seed=1)
    count = [0] * net.num_links
    for a, d in bg.flows(net, b):
        at, hops = a, 0
        for link in routing.route(a, d):
            assert net.link_src(link) == at
            at, hops = net.link_dst(link), hops + 1
            count[link] += 1
        assert at == d and hops == net.hop_distance(a, d)
    left = bg.capacities_left(net, routing, b)
    r = 0.4 * net.link_bandwidth
    for c, k, got in zip(net.capacities, count, left):
        assert got == pytest.approx(c if k == 0 else max(c - k * r, c / (k * bg.STREAMS + 1)))
    seen = bg.network_left(net, routing, b)
    assert list(seen.capacities) == pytest.approx(left) and seen.digest == net.digest


def test_with_capacities_keeps_the_wiring_and_refuses_bad_values():
    net = _core.parse_network("torus:4x4", 2e9)
    half = net.with_capacities([1e9] * net.num_links)
    assert half.digest == net.digest and half.spec == net.spec and set(half.capacities) == {1e9}
    assert set(net.capacities) == {2e9}  # the original is untouched
    for bad, words in (([1e9] * (net.num_links - 1), "values for"), ([0.0] + [1e9] * (net.num_links - 1), "positive"),
                       ([math.nan] * net.num_links, "positive"), ([math.inf] * net.num_links, "positive")):
        with pytest.raises(_core.Error, match=words):
            net.with_capacities(bad)


def test_background_rejects_values_outside_fractions():
    for kwargs in ({"load": 1.5}, {"load": -0.1}, {"nodes": 2.0}):
        with pytest.raises(_core.Error):
            bg.Background(**kwargs)


def test_background_loads_the_simulated_network_and_planning_sees_it(optiq_cli):
    """64 nodes, half of them streaming at half the link bandwidth: MPI_Alltoallv slows down, the
    aware plan expects less of the loaded links, and every byte still arrives."""
    def run(*extra):
        out = optiq_cli("simulate", "--topology", "torus:4x4x4", "--pattern", "disjoint", "--bytes", "1MiB",
                        "--planner", "heu2", "--json", "--quiet", *extra)
        doc = json.loads(out.stdout)
        return doc, {r["planner"]: r for r in doc["results"]}

    _, free = run()
    doc, aware = run("--background-load", "0.5")
    _, unaware = run("--background-load", "0.5", "--ignore-background")
    assert doc["background"] == {"load": 0.5, "nodes": 0.5, "seed": 1, "planned_for": True}
    for runs in (free, aware, unaware):
        assert all(r["verified"] is True for r in runs.values())
    assert aware["mpi_alltoallv"]["simulated_seconds"] > 1.2 * free["mpi_alltoallv"]["simulated_seconds"]
    assert aware["heu2"]["predicted_seconds"] > unaware["heu2"]["predicted_seconds"]
    assert unaware["heu2"]["predicted_seconds"] == pytest.approx(free["heu2"]["predicted_seconds"])
    bad = optiq_cli("simulate", "--topology", "torus:4x4", "--background-load", "2", check=False)
    assert bad.returncode == 2 and "--background-load" in bad.stderr and "Traceback" not in bad.stderr
