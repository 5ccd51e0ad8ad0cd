"""The UGAL baseline: Valiant routes that are real paths, and an LP value checked against an
independent optimum over the same routes and against the bounds every routing obeys."""

import random

import pytest

import optiq
from optiq.evaluate import PlannerOptions, run_planners
from optiq.lp.ugal import ugal_seconds, valiant_routes
from optiq.workload import Workload, pattern_jobs

from lp_oracle import arc_optimum, path_optimum

SPECS = ["dragonfly:4,1;1,1;4,1;2", "dragonfly:5,2;1,1;5,1;1", "dragonfly:3,1;1,1;4,2;3"]


def workload(spec, jobs):
    net = optiq.parse_network(spec)
    return Workload(net, optiq.make_routing(net.default_routing, net), jobs(net), "test")


def random_jobs(seed):
    def make(net):
        rng = random.Random(seed)
        n = net.num_endpoints
        return [optiq.Job(rng.randrange(n), rng.randrange(n), rng.randrange(1, 4_000_000)) for _ in range(12)]
    return make


@pytest.mark.parametrize("spec", SPECS)
def test_valiant_routes_are_paths_through_one_other_group(spec):
    w = workload(spec, random_jobs(1))
    net = w.network
    for j, routes in zip(w.jobs, valiant_routes(w)):
        assert list(routes[0]) == list(w.routing.route(j.src, j.dst))
        for links in routes[1:]:
            assert net.link_src(links[0]) == j.src and net.link_dst(links[-1]) == j.dst
            assert all(net.link_dst(a) == net.link_src(b) for a, b in zip(links, links[1:]))
            blue = [net.link_name(l) for l in links if net.link_name(l).startswith("blue_")]
            assert len(blue) == 2
        groups = {(h // (net.num_endpoints // net.dragonfly.groups)) for h in (j.src, j.dst)}
        assert len(routes) == (1 if len(groups) == 1 else 1 + net.dragonfly.groups - 2)


@pytest.mark.parametrize("spec,seed", [(s, k) for s in SPECS for k in (1, 2)])
def test_ugal_is_the_optimum_over_its_routes_and_between_the_bounds(spec, seed):
    w = workload(spec, random_jobs(seed))
    active = [i for i, j in enumerate(w.jobs) if j.src != j.dst]
    routes = valiant_routes(w)
    best = path_optimum(w.network, [w.jobs[i] for i in active], [routes[i] for i in active])
    got = ugal_seconds(w)
    assert got == pytest.approx(best, rel=1e-6)
    (default,) = run_planners(w, ["default"], PlannerOptions())
    assert arc_optimum(w.network, w.jobs) * (1 - 1e-9) <= got <= default.metrics.predicted_seconds * (1 + 1e-9)


def test_group_to_group_spreads_over_every_other_group():
    # Eight hosts of group 0 to group 1 share one global link minimally; through the other three
    # groups (one global link each way) the same bytes have four.
    w = workload("dragonfly:5,1;1,1;8,1;1", lambda net: pattern_jobs(net, "group-to-group", "1MiB"))
    (default,) = run_planners(w, ["default"], PlannerOptions())
    assert default.metrics.predicted_seconds / ugal_seconds(w) == pytest.approx(4, rel=1e-6)


def test_ugal_refuses_other_networks():
    w = workload("fattree:2;4,4;1,4;1,1", random_jobs(3))
    with pytest.raises(optiq.Error, match="needs a dragonfly"):
        ugal_seconds(w)


def test_plan_cli_gives_the_baseline_and_refuses_it_off_dragonflies(optiq_cli):
    import json

    doc = json.loads(optiq_cli("plan", "--topology", "dragonfly:5,1;1,1;8,1;1", "--pattern", "group-to-group",
                               "--planner", "default", "--ugal", "--json").stdout)
    default = doc["results"][0]["metrics"]["predicted_seconds"]
    assert default / doc["baselines"]["ugal_seconds"] == pytest.approx(4, rel=1e-6)
    text = optiq_cli("plan", "--topology", "dragonfly:5,1;1,1;8,1;1", "--planner", "default", "--ugal").stdout
    assert "ideal adaptive routing (UGAL" in text
    proc = optiq_cli("plan", "--topology", "fattree:2;4,4;1,2;1,1", "--ugal", check=False)
    assert proc.returncode == 2 and "needs a dragonfly" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
