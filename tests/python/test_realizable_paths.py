"""Planning on networks with switches: realizable paths only, optimal against a dense LP.

The oracle enumerates every chain of default routes (every sequence of distinct intermediate
endpoints) by brute force, from `route()` alone, and solves the path LP over all of them with
HiGHS; none of the planners' search code is involved."""

import itertools
from collections import Counter
import json
import random

import pytest

import optiq
from optiq.evaluate import PlannerOptions, run_planners
from optiq.random_graph import random_switched_graph
from optiq.workload import Workload

from lp_oracle import all_chains, arc_optimum, fluid_seconds, path_optimum

# (switches, endpoints, switch degree, seed, share of endpoints with a second cable)
GRAPHS = [(3, 5, 2, 1, 0.0), (4, 6, 3, 2, 0.3), (5, 6, 4, 3, 0.0), (4, 5, 3, 4, 0.5), (6, 6, 3, 5, 0.2)]


def irregular_workload(tmp_path, shape, jobs=6):
    switches, endpoints, degree, seed, dual = shape
    path = tmp_path / f"net{seed}.json"
    path.write_text(json.dumps(random_switched_graph(switches, endpoints, degree, seed, dual_homed=dual)))
    net = optiq.parse_network(f"graph:{path}")
    rng = random.Random(seed)
    pairs = [(a, b) for a in range(endpoints) for b in range(endpoints) if a != b]
    chosen = rng.sample(pairs, jobs)
    work = [optiq.Job(a, b, rng.randrange(1_000_000, 50_000_000)) for a, b in chosen]
    return Workload(net, optiq.make_routing("shortest", net), work, "random")






@pytest.mark.parametrize("shape", GRAPHS)
def test_optimal_equals_the_lp_over_every_realizable_path(tmp_path, shape):
    w = irregular_workload(tmp_path, shape)
    assert not w.legs.direct
    chains = [all_chains(w, j.src, j.dst) for j in w.jobs]
    best = path_optimum(w.network, w.jobs, chains)
    # Switches make some walks unreachable by software: the unrestricted optimum can only be lower.
    assert arc_optimum(w.network, w.jobs) <= best * (1 + 1e-9)
    (r,) = run_planners(w, ["optimal"], PlannerOptions(min_path_bytes=1))
    assert r.bound_seconds == pytest.approx(best, rel=1e-6)
    assert fluid_seconds(r.plan, w.network) <= best * (1 + 1e-6)
    optiq.validate_plan(r.plan, w.network)


@pytest.mark.parametrize("shape", GRAPHS)
def test_mcf_is_within_two_percent_with_a_valid_bound(tmp_path, shape):
    w = irregular_workload(tmp_path, shape)
    best = path_optimum(w.network, w.jobs, [all_chains(w, j.src, j.dst) for j in w.jobs])
    (r,) = run_planners(w, ["mcf"], PlannerOptions(min_path_bytes=1))
    assert r.bound_seconds <= best * (1 + 1e-9)
    assert best * (1 - 1e-9) <= fluid_seconds(r.plan, w.network) <= best * 1.02
    optiq.validate_plan(r.plan, w.network)


@pytest.mark.parametrize("shape", GRAPHS)
def test_every_planner_makes_realizable_plans(tmp_path, shape):
    w = irregular_workload(tmp_path, shape, jobs=10)
    for r in run_planners(w, ["default", "heu1", "heu2", "opt", "mcf", "optimal"], PlannerOptions(k=8)):
        optiq.validate_plan(r.plan, w.network)  # raises on a path no chain of routes realizes
        for jp in r.plan.jobs:
            real = set(all_chains(w, jp.job.src, jp.job.dst))
            for share in jp.paths:
                assert tuple(share.links) in real, (r.name, jp.job.src, jp.job.dst)


def undominated(paths):
    """Paths in order of hops, without those that use every link of a path kept before them."""
    kept = []
    for p in paths:
        links = Counter(p)
        if not any(not (Counter(k) - links) for k in kept):
            kept.append(p)
    return kept


@pytest.mark.parametrize("shape", GRAPHS[:3])
def test_candidates_are_the_shortest_undominated_paths_through_at_most_one_proxy(tmp_path, shape):
    w = irregular_workload(tmp_path, shape)
    bound = optiq.default_hop_bound(w.legs)
    for j in w.jobs:
        every = undominated(sorted((p for p in all_chains_upto(w, j.src, j.dst, 1) if len(p) <= bound), key=len))
        got = optiq.k_shortest_paths(w.network, w.routing, j.src, j.dst, 6)
        assert len({tuple(p) for p in got}) == len(got) == min(6, len(every))
        assert all(tuple(p) in every for p in got)
        assert sorted(len(p) for p in got) == [len(p) for p in every[:len(got)]]


def test_a_path_through_switches_off_the_default_routes_is_refused(tmp_path):
    w = irregular_workload(tmp_path, GRAPHS[2])
    net = w.network
    for j in w.jobs:
        real = set(all_chains(w, j.src, j.dst))
        # Walks from src to dst over any links, shortest first: the first one software cannot make.
        frontier = [(j.src, ())]
        for _ in range(6):
            frontier = [(net.link_dst(l), p + (l,)) for v, p in frontier for l in range(net.num_links)
                        if net.link_src(l) == v and len(p) < 6]
            walks = [p for v, p in frontier if v == j.dst and len(set(p)) == len(p)]
            unreal = [p for p in walks if p not in real]
            if unreal:
                plan = optiq.Plan(net.spec, "shortest", "x", [optiq.JobPlan(j, [optiq.PathShare(list(unreal[0]), j.bytes)])])
                with pytest.raises(optiq.Error, match="no chain of 'shortest' routes realizes it|forwards at node"):
                    optiq.validate_plan(plan, net)
                return
    pytest.fail("every walk was realizable: the graph is too regular to test this")


@pytest.mark.parametrize("shape", GRAPHS[:3])
@pytest.mark.parametrize("proxies", [0, 1])
def test_mcf_under_a_bound_on_proxies_meets_the_lp_over_those_chains(tmp_path, shape, proxies):
    w = irregular_workload(tmp_path, shape)
    limited = [[p for p in all_chains_upto(w, j.src, j.dst, proxies)] for j in w.jobs]
    best = path_optimum(w.network, w.jobs, limited)
    (r,) = run_planners(w, ["mcf"], PlannerOptions(min_path_bytes=1, max_proxies=proxies))
    assert r.bound_seconds <= best * (1 + 1e-9)
    assert best * (1 - 1e-9) <= fluid_seconds(r.plan, w.network) <= best * 1.02
    for jp in r.plan.jobs:
        allowed = {tuple(p) for p in all_chains_upto(w, jp.job.src, jp.job.dst, proxies)}
        assert all(tuple(s.links) in allowed for s in jp.paths)


def test_a_bound_on_proxies_works_on_a_torus_too():
    net = optiq.parse_network("torus:4x4")
    rng = random.Random(9)
    jobs = [optiq.Job(rng.randrange(16), rng.randrange(16), rng.randrange(1_000_000, 9_000_000)) for _ in range(8)]
    w = Workload(net, optiq.make_routing("dor", net), jobs, "random")
    (none,) = run_planners(w, ["mcf"], PlannerOptions(min_path_bytes=1, max_proxies=0))
    (default,) = run_planners(w, ["default"], PlannerOptions())
    assert fluid_seconds(none.plan, net) == fluid_seconds(default.plan, net)  # no proxy: the default routes
    (one,) = run_planners(w, ["mcf"], PlannerOptions(min_path_bytes=1, max_proxies=1))
    best = path_optimum(net, jobs, [all_chains_upto(w, j.src, j.dst, 1) for j in jobs])
    assert best * (1 - 1e-9) <= fluid_seconds(one.plan, net) <= best * 1.02


def all_chains_upto(w, src, dst, proxies):
    if src == dst:
        return [()]
    others = [e for e in w.network.endpoints if e not in (src, dst)]
    found = set()
    for n in range(proxies + 1):
        for middle in itertools.permutations(others, n):
            stops = (src, *middle, dst)
            found.add(tuple(l for a, b in zip(stops, stops[1:]) for l in w.routing.route(a, b)))
    return sorted(found)
