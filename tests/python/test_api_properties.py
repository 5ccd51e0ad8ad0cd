"""Properties of the Python API on random patterns: valid plans, determinism, JSON round trip."""

import random

import pytest

import optiq


def random_jobs(rng, topo, count):
    return [optiq.Job(rng.randrange(topo.num_nodes), rng.randrange(topo.num_nodes), rng.randrange(0, 1 << 20))
            for _ in range(count)]


@pytest.mark.parametrize("spec", ["torus:4x4x4", "mesh:5x4", "bgq:2x2x4x2x2", "torus:8x3m"])
def test_every_planner_gives_a_valid_plan(spec):
    rng = random.Random(spec)
    topo = optiq.parse_topology(spec)
    routing = optiq.make_routing(topo.default_routing, topo)
    for _ in range(8):
        jobs = random_jobs(rng, topo, rng.randint(1, 60))
        candidates = optiq.generate_candidates(topo, jobs, k=rng.randint(1, 20))
        for name in optiq.planner_names():
            plan = optiq.make_plan(name, topo, routing, jobs, candidates=candidates, chunk=rng.randint(1, 99999),
                                   maxload=rng.randint(1, 8))
            optiq.validate_plan(plan, topo)
            for jp in plan.jobs:
                assert sum(p.bytes for p in jp.paths) == jp.job.bytes
                node = jp.job.src
                for link in (l for p in jp.paths[:1] for l in p.links):
                    assert topo.link_src(link) == node
                    node = topo.link_dst(link)
            again = optiq.make_plan(name, topo, routing, jobs, candidates=candidates)
            assert optiq.plan_to_json(again, topo) == optiq.plan_to_json(
                optiq.make_plan(name, topo, routing, jobs, candidates=candidates), topo)


def test_plan_built_in_python_round_trips_and_validates():
    topo = optiq.parse_topology("torus:4x4")
    a_plus = topo.link(0, 0, +1)
    plan = optiq.Plan("torus:4x4", "dor", "hand", [
        optiq.JobPlan(optiq.Job(0, 4, 10), [optiq.PathShare([a_plus], 10)]),
    ])
    optiq.validate_plan(plan, topo)
    text = optiq.plan_to_json(plan, topo)
    assert optiq.plan_to_json(optiq.plan_from_json(text), topo) == text
    broken = optiq.Plan("torus:4x4", "dor", "hand", [
        optiq.JobPlan(optiq.Job(0, 5, 10), [optiq.PathShare([a_plus], 10)]),
    ])
    with pytest.raises(optiq.Error, match="ends at node 4"):
        optiq.validate_plan(broken, topo)


def test_k_shortest_paths_are_nondecreasing_and_distinct():
    topo = optiq.parse_topology("mira:512")
    paths = optiq.k_shortest_paths(topo, 0, 300, 50)
    assert len(paths) == 50
    assert len({tuple(p) for p in paths}) == 50
    hops = [len(p) for p in paths]
    assert hops == sorted(hops) and hops[0] == topo.hop_distance(0, 300)
    assert all(h <= topo.diameter() for h in hops)


def test_errors_are_value_errors():
    assert issubclass(optiq.Error, ValueError)
    with pytest.raises(optiq.Error, match="unknown topology"):
        optiq.parse_topology("ring:5")
