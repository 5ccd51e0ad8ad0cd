"""Small networks and random cases for the bounds' tests against the optimum over every chain
(test_proxy_bound.py, test_cover_bound.py)."""

import json
import random

import optiq
from optiq.random_graph import random_switched_graph
from optiq.workload import Workload

from lp_oracle import all_chains, path_optimum

# Irregular switched graphs (switches, endpoints, switch degree, seed, share dual-homed), and
# SimGrid's fat-tree and dragonfly under their default routing; the last fat-tree has fewer
# uplinks than hosts per leaf, so that two destinations share one way into their leaf.
NETWORKS = [(3, 6, 2, 1, 0.0), (4, 7, 3, 2, 0.3), (5, 7, 4, 3, 0.0), "fattree:2;4,2;1,2;1,1", "fattree:2;4,2;1,1;1,1",
            "dragonfly:2,1;1,1;3,1;1", "dragonfly:2,1;1,1;2,1;2", "fattree:2;3,2;1,2;1,1"]


def network(tmp_path, shape):
    if isinstance(shape, str):
        net = optiq.parse_network(shape)
        return net, optiq.make_routing(net.default_routing, net)
    switches, endpoints, degree, seed, dual = shape
    path = tmp_path / f"net{seed}.json"
    path.write_text(json.dumps(random_switched_graph(switches, endpoints, degree, seed, dual_homed=dual)))
    net = optiq.parse_network(f"graph:{path}")
    return net, optiq.make_routing("shortest", net)


def random_case(net, seed):
    """A random pairing of the hosts (each sends to one and receives from one, so no endpoint is
    hot and colliding routes decide), some bytes already on links, and sometimes only some
    endpoints forwarding."""
    rng = random.Random(f"{net.spec}/{seed}")
    hosts = list(net.endpoints)
    order = hosts[:]
    while any(a == b for a, b in zip(hosts, order)):
        rng.shuffle(order)
    # At most 6 jobs: the oracle enumerates every chain, (hosts - 2)! of them per job.
    jobs = [optiq.Job(a, b, rng.randrange(10_000_000, 40_000_000)) for a, b in zip(hosts, order)][:6]
    preload = [0.0] * net.num_links
    if seed % 2:
        for link in rng.sample(range(net.num_links), 3):
            preload[link] = float(rng.randrange(1_000_000, 20_000_000))
    forwarders = sorted(rng.sample(hosts, max(2, len(hosts) * 2 // 3))) if seed % 3 == 2 else None
    return jobs, preload, forwarders


def oracle_cases(tmp_path, shape, seeds=6):
    """(seed, workload, preload, optimum over every chain) for the random cases of one network;
    the workload's network forwards only at the case's forwarders when it names some."""
    net, routing = network(tmp_path, shape)
    for seed in range(seeds):
        jobs, preload, forwarders = random_case(net, seed)
        planning = net.with_forwarders(forwarders) if forwarders else net
        w = Workload(planning, routing, jobs, "random")
        best = path_optimum(planning, jobs, [all_chains(w, j.src, j.dst, forwarders) for j in jobs], preload)
        yield seed, w, preload, best
