"""The proxy bound (include/optiq/core/bounds.hpp) against the optimum over every realizable path.

The oracle enumerates every chain of default routes by brute force (lp_oracle.all_chains) and
solves the path LP over all of them with HiGHS: the bound must never exceed it, with or without
bytes already on the links and a job restricted to its own forwarders. Where default routes
collide on a fat-tree it must also certify: reach the optimum that cut bounds miss."""

import pytest

import optiq
from optiq import _core
from optiq.evaluate import PlannerOptions, run_planners
from optiq.workload import Workload, pattern_jobs

from bound_cases import NETWORKS, oracle_cases


@pytest.mark.parametrize("shape", NETWORKS, ids=str)
def test_never_above_the_optimum_over_every_chain(tmp_path, shape):
    for seed, w, preload, best in oracle_cases(tmp_path, shape):
        bound = _core.proxy_lower_bound(w.legs, w.jobs, preload)
        assert 0 <= bound <= best * (1 + 1e-9), (seed, bound, best)
        assert bound >= _endpoint_bound(w.network, w.jobs, preload) * (1 - 1e-6)


def _endpoint_bound(net, jobs, preload):
    """Each endpoint's own bytes over its own links, out and in (with what is already on them)."""
    own, cap = {}, {}
    for j in jobs:
        own[("out", j.src)] = own.get(("out", j.src), 0.0) + j.bytes
        own[("in", j.dst)] = own.get(("in", j.dst), 0.0) + j.bytes
    for link in range(net.num_links):
        for end in (("out", net.link_src(link)), ("in", net.link_dst(link))):
            if end in own:
                own[end] += preload[link]
                cap[end] = cap.get(end, 0.0) + net.capacity(link)
    return max(own[e] / cap[e] for e in own)


def test_copy_bandwidth_only_raises_it_and_stays_below_optimal():
    net = optiq.parse_network("fattree:2;4,2;1,1;1,1")
    w = Workload(net, optiq.make_routing("dmodk", net), pattern_jobs(net, "dmodk-adversarial", "8MiB"), "adv")
    free = _core.proxy_lower_bound(w.legs, w.jobs)
    slow = _core.proxy_lower_bound(w.legs, w.jobs, [], 0.2e9)
    assert slow > free
    options = PlannerOptions()
    options.forward_bandwidth = 0.2e9
    (optimal,) = run_planners(w, ["optimal"], options)
    assert optimal.gap < 1e-3
    assert slow <= optimal.metrics.predicted_seconds * (1 + 1e-9)


@pytest.mark.parametrize("spec", ["fattree:3;4,4,8;1,4,4;1,1,1", "fattree:2;8,8;1,4;1,2"])
def test_certifies_colliding_fat_tree_routes(spec):
    """dmodk-adversarial makes every leaf's default routes share uplinks: the optimum relays, and
    the hosts' links (not any cut) decide its time. The bound reaches it; the cut bound cannot."""
    net = optiq.parse_network(spec)
    w = Workload(net, optiq.make_routing("dmodk", net), pattern_jobs(net, "dmodk-adversarial", "8MiB"), "adv")
    bound = _core.proxy_lower_bound(w.legs, w.jobs)
    (optimal, mcf) = run_planners(w, ["optimal", "mcf"], PlannerOptions())
    best = optimal.metrics.predicted_seconds
    assert optimal.gap < 1e-3
    assert 0.995 * best <= bound <= best * (1 + 1e-9)
    assert bound > 1.2 * _endpoint_bound(net, w.jobs, [0.0] * net.num_links)
    assert mcf.bound_seconds >= bound  # mcf reports it


def test_zero_where_every_link_is_a_leg():
    net = optiq.parse_network("torus:4x4")
    w = Workload(net, optiq.make_routing("dor", net), pattern_jobs(net, "permutation", "8MiB"), "perm")
    assert w.legs.direct
    assert _core.proxy_lower_bound(w.legs, w.jobs) == 0


def test_optimal_stopped_early_reports_it():
    net = optiq.parse_network("fattree:3;4,4,8;1,4,4;1,1,1")
    w = Workload(net, optiq.make_routing("dmodk", net), pattern_jobs(net, "dmodk-adversarial", "8MiB"), "adv")
    options = PlannerOptions()
    options.lp_iterations = 1
    (early,) = run_planners(w, ["optimal"], options)
    assert early.bound_seconds >= _core.proxy_lower_bound(w.legs, w.jobs) * (1 - 1e-9)
    assert early.bound_seconds <= early.metrics.predicted_seconds * (1 + 1e-9)
