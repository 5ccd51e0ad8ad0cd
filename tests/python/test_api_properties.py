"""Properties of the Python API on random patterns: valid plans, determinism, JSON round trip."""

import json
import random

import pytest

import optiq


def random_jobs(rng, topo, count):
    n = topo.num_endpoints
    return [optiq.Job(rng.randrange(n), rng.randrange(n), rng.randrange(0, 1 << 20)) for _ in range(count)]


@pytest.mark.parametrize("spec", ["torus:4x4x4", "mesh:5x4", "bgq:2x2x4x2x2", "torus:8x3m"])
def test_every_planner_gives_a_valid_plan(spec):
    rng = random.Random(spec)
    topo = optiq.parse_network(spec)
    routing = optiq.make_routing(topo.default_routing, topo)
    for _ in range(8):
        jobs = random_jobs(rng, topo, rng.randint(1, 60))
        candidates = optiq.generate_candidates(topo, routing, jobs, k=rng.randint(1, 20))
        for name in optiq.planner_names():
            options = optiq.PlannerOptions(heu2_chunk=rng.randint(1, 99999), maxload=rng.randint(1, 8))
            plan = optiq.make_plan(name, topo, routing, jobs, options, candidates=candidates).plan
            optiq.validate_plan(plan, topo)
            for jp in plan.jobs:
                assert sum(p.bytes for p in jp.paths) == jp.job.bytes
                node = jp.job.src
                for link in (l for p in jp.paths[:1] for l in p.links):
                    assert topo.link_src(link) == node
                    node = topo.link_dst(link)
            again = optiq.make_plan(name, topo, routing, jobs, candidates=candidates).plan
            assert optiq.plan_to_json(again, topo) == optiq.plan_to_json(
                optiq.make_plan(name, topo, routing, jobs, candidates=candidates).plan, topo)


def test_plan_built_in_python_round_trips_and_validates():
    topo = optiq.parse_network("torus:4x4")
    a_plus = topo.torus.link(0, 0, +1)
    plan = optiq.Plan("torus:4x4", "dor", "hand", [
        optiq.JobPlan(optiq.Job(0, 4, 10), [optiq.PathShare([a_plus], 10)]),
    ])
    optiq.validate_plan(plan, topo)
    text = optiq.plan_to_json(plan, topo)
    doc = json.loads(text)
    assert doc["version"] == 2 and doc["network"] == topo.digest
    assert doc["jobs"][0]["paths"] == [{"bytes": 10, "nodes": [0, 4], "links": ["0:A+"]}]
    assert optiq.plan_to_json(optiq.plan_from_json(text), topo) == text
    broken = optiq.Plan("torus:4x4", "dor", "hand", [
        optiq.JobPlan(optiq.Job(0, 5, 10), [optiq.PathShare([a_plus], 10)]),
    ])
    with pytest.raises(optiq.Error, match="ends at node 4"):
        optiq.validate_plan(broken, topo)


@pytest.mark.parametrize("spec", ["torus:4x4", "mesh:3x2", "bgq:2x2x2x2x2", "torus:5x1x3m"])
def test_network_links_are_dense_named_and_agree_with_the_torus_ports(spec):
    net = optiq.parse_network(spec)
    torus = net.torus
    assert net.num_vertices == net.num_endpoints == torus.num_nodes
    assert net.endpoints == list(range(net.num_vertices))
    assert {net.kind(v) for v in range(net.num_vertices)} == {"endpoint"}
    assert len(net.capacities) == net.num_links and set(net.capacities) == {net.link_bandwidth}
    names = [net.link_name(l) for l in range(net.num_links)]
    assert len(set(names)) == net.num_links
    assert [net.link_named(n) for n in names] == list(range(net.num_links))
    assert net.link_named("no such link") == -1
    ports = []
    for node in range(net.num_vertices):
        assert net.out_links(node) == sorted(l for l in range(net.num_links) if net.link_src(l) == node)
        for dim in range(torus.dims):
            for direction in (+1, -1):
                link = torus.link(node, dim, direction)
                if link < 0:
                    continue
                ports.append(link)
                assert net.link_src(link) == node
                assert torus.link_dim(link) == dim and torus.link_direction(link) == direction
                label = f"{'ABCDE'[dim]}{'+' if direction > 0 else '-'}"
                assert names[link] == f"{node}:{torus.port_label(link)}" == f"{node}:{label}"
    assert ports == list(range(net.num_links))  # ids run through the ports in order, none skipped


def test_network_digest_follows_the_wiring_not_the_capacities():
    a = optiq.parse_network("torus:4x4")
    assert a.digest == optiq.parse_network("torus:4x4", 12.5e9).digest
    assert len({a.digest, optiq.parse_network("torus:4x4m").digest, optiq.parse_network("mesh:4x4").digest,
                optiq.parse_network("torus:16").digest}) == 4
    assert optiq.parse_network("mira:1024").digest == optiq.parse_network("bgq:4x4x4x8x2").digest


def test_k_shortest_paths_are_nondecreasing_and_distinct():
    topo = optiq.parse_network("mira:512")
    paths = optiq.k_shortest_paths(topo, optiq.make_routing("bgq", topo), 0, 300, 50)
    assert len(paths) == 50
    assert len({tuple(p) for p in paths}) == 50
    hops = [len(p) for p in paths]
    assert hops == sorted(hops) and hops[0] == topo.hop_distance(0, 300)
    assert all(h <= topo.diameter() for h in hops)


def test_errors_are_value_errors():
    assert issubclass(optiq.Error, ValueError)
    with pytest.raises(optiq.Error, match="unknown topology"):
        optiq.parse_network("ring:5")
