"""Planning inside a job: only the job's endpoints forward (Network.with_forwarders).

The oracle is lp_oracle.all_chains restricted the same way: every chain of default
routes whose proxies are the job's endpoints, enumerated by brute force from `route()` alone,
and the path LP over all of them solved with HiGHS."""

import json
import random

import pytest

import optiq
from optiq.evaluate import PlannerOptions, run_planners
from optiq.random_graph import random_switched_graph
from optiq.workload import Workload

from lp_oracle import all_chains, fluid_seconds, path_optimum

# Irregular switched graphs (switches, endpoints, switch degree, seed, share dual-homed), and
# SimGrid's fat-tree and dragonfly under their own routing.
NETWORKS = [(3, 6, 2, 1, 0.0), (4, 7, 3, 2, 0.3), (5, 7, 4, 3, 0.0), "fattree:2;4,2;1,2;1,1", "dragonfly:3,1;1,1;3,1;1"]


def job_workload(tmp_path, shape, seed=0):
    if isinstance(shape, str):
        net = optiq.parse_network(shape)
        routing = optiq.make_routing(net.default_routing, net)
    else:
        switches, endpoints, degree, graph_seed, dual = shape
        path = tmp_path / f"net{graph_seed}.json"
        path.write_text(json.dumps(random_switched_graph(switches, endpoints, degree, graph_seed, dual_homed=dual)))
        net = optiq.parse_network(f"graph:{path}")
        routing = optiq.make_routing("shortest", net)
    rng = random.Random(f"{shape}/{seed}")
    hosts = sorted(rng.sample(list(net.endpoints), max(3, len(net.endpoints) * 2 // 3)))
    pairs = [(a, b) for a in hosts for b in hosts if a != b]
    jobs = [optiq.Job(a, b, rng.randrange(1_000_000, 50_000_000)) for a, b in rng.sample(pairs, min(6, len(pairs)))]
    return hosts, Workload(net.with_forwarders(hosts), routing, jobs, "random"), Workload(net, routing, jobs, "random")






@pytest.mark.parametrize("shape", NETWORKS)
def test_optimal_and_mcf_meet_the_lp_restricted_to_the_jobs_endpoints(tmp_path, shape):
    hosts, inside, whole = job_workload(tmp_path, shape)
    assert inside.network.forwarding_restricted and not whole.network.forwarding_restricted
    best = path_optimum(inside.network, inside.jobs, [all_chains(inside, j.src, j.dst, hosts) for j in inside.jobs])
    unrestricted = path_optimum(whole.network, whole.jobs,
                                [all_chains(whole, j.src, j.dst) for j in whole.jobs])
    assert unrestricted <= best * (1 + 1e-9)  # fewer proxies can only cost
    (opt,) = run_planners(inside, ["optimal"], PlannerOptions(min_path_bytes=1))
    assert opt.bound_seconds == pytest.approx(best, rel=1e-6)
    assert fluid_seconds(opt.plan, inside.network) <= best * (1 + 1e-6)
    (mcf,) = run_planners(inside, ["mcf"], PlannerOptions(min_path_bytes=1))
    assert mcf.bound_seconds <= best * (1 + 1e-9)
    assert best * (1 - 1e-9) <= fluid_seconds(mcf.plan, inside.network) <= best * 1.02
    for r in (opt, mcf):
        optiq.validate_plan(r.plan, inside.network)
        for jp in r.plan.jobs:  # every relay is the job's
            for share in jp.paths:
                assert set(optiq.relay_vertices(inside.network, share.links)) <= set(hosts)


def test_the_restriction_bites_somewhere(tmp_path):
    """On at least one of the networks above the job's optimum is worse than the machine's:
    otherwise the test above could not tell a restricted planner from an unrestricted one."""
    worse = 0
    for shape in NETWORKS:
        for seed in range(3):
            hosts, inside, whole = job_workload(tmp_path, shape, seed)
            best = path_optimum(inside.network, inside.jobs,
                                [all_chains(inside, j.src, j.dst, hosts) for j in inside.jobs])
            free = path_optimum(whole.network, whole.jobs,
                                [all_chains(whole, j.src, j.dst) for j in whole.jobs])
            worse += best > free * (1 + 1e-6)
    assert worse > 0


def test_forwarders_must_be_endpoints():
    net = optiq.parse_network("fattree:2;4,2;1,1;1,1")
    with pytest.raises(optiq.Error, match="not an endpoint"):
        net.with_forwarders([net.num_vertices - 1])
