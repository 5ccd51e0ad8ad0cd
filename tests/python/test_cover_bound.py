"""The cover bound (include/optiq/core/bounds.hpp) against the optimum over every realizable path.

Never above the path LP over every chain of default routes (lp_oracle.all_chains, brute force,
HiGHS), with bytes already on links and with only some endpoints forwarding; and where two
destinations share one way into their part of a fat-tree, equal to the optimum that the cut
and proxy bounds miss."""

import pytest

import optiq
from optiq import _core
from optiq.evaluate import PlannerOptions, run_planners
from optiq.workload import Workload, pattern_jobs

from bound_cases import NETWORKS, oracle_cases
from lp_oracle import all_chains, path_optimum

MIB8 = 8 * 2**20


@pytest.mark.parametrize("shape", NETWORKS + ["fattree:3;2,2,2;1,2,1;1,1,1"], ids=str)
def test_never_above_the_optimum_over_every_chain(tmp_path, shape):
    for seed, w, preload, best in oracle_cases(tmp_path, shape):
        bound = _core.cover_lower_bound(w.legs, w.jobs, preload)
        assert 0 <= bound <= best * (1 + 1e-9), (seed, bound, best)


def shared_entry_case(preload_bytes=0.0):
    """Two leaves of three hosts with two uplinks each: under dmodk hosts 0 and 2 share one way
    into their leaf, host 1 has the other (likewise 3, 5 and 4). 0 and 2 receive from the other
    leaf, 1 from its neighbour: their bytes must squeeze through the shared link or borrow host
    1's link, which its own bytes already fill."""
    net = optiq.parse_network("fattree:2;3,2;1,2;1,1")
    routing = optiq.make_routing("dmodk", net)
    jobs = [optiq.Job(a, b, MIB8) for a, b in [(0, 1), (1, 5), (2, 3), (3, 0), (4, 2), (5, 4)]]
    w = Workload(net, routing, jobs, "shared")
    preload = [0.0] * net.num_links
    shared = routing.route(3, 0)[-2]  # the link into the leaf that 0 and 2 share
    assert shared == routing.route(4, 2)[-2] and shared != routing.route(3, 1)[-2]
    preload[shared] = preload_bytes
    return net, w, preload


@pytest.mark.parametrize("preload_bytes", [0.0, MIB8 / 4])
def test_reaches_the_optimum_where_destinations_share_a_way_in(preload_bytes):
    net, w, preload = shared_entry_case(preload_bytes)
    best = path_optimum(net, w.jobs, [all_chains(w, j.src, j.dst) for j in w.jobs], preload)
    cover = _core.cover_lower_bound(w.legs, w.jobs, preload)
    assert cover == pytest.approx(best, rel=1e-9)
    assert _core.proxy_lower_bound(w.legs, w.jobs, preload) < 0.9 * best
    # The shared link and host 1's in-link carry 0's, 2's and 1's bytes and the preload.
    assert best == pytest.approx((3 * MIB8 + preload_bytes) / (2 * net.capacity(0)), rel=1e-9)


def test_tapered_pods_certify_what_mcf_plans():
    """Pods of 36 hosts with 24 uplinks (2:3): the permutation's optimum is set by the pods
    whose destinations share their ways in; mcf reports the bound and certifies within 2%."""
    net = optiq.parse_network("fattree:3;6,6,8;1,6,4;1,1,1")
    w = Workload(net, optiq.make_routing("dmodk", net), pattern_jobs(net, "permutation", "8MiB"), "perm")
    cover = _core.cover_lower_bound(w.legs, w.jobs)
    (optimal, mcf) = run_planners(w, ["optimal", "mcf"], PlannerOptions())
    assert optimal.gap < 1e-3
    best = optimal.bound_seconds
    assert cover == pytest.approx(best, rel=1e-4)
    assert _core.proxy_lower_bound(w.legs, w.jobs) < 0.95 * best
    assert mcf.bound_seconds >= cover * (1 - 1e-12)
    assert mcf.gap <= 0.02


def test_zero_where_every_link_is_a_leg():
    net = optiq.parse_network("torus:4x4")
    w = Workload(net, optiq.make_routing("dor", net), pattern_jobs(net, "permutation", "8MiB"), "perm")
    assert _core.cover_lower_bound(w.legs, w.jobs) == 0
