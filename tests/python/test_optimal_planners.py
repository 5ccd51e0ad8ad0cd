"""opt, optimal and mcf against independent optima on small topologies."""

import json
import random

import pytest

import optiq
from optiq.evaluate import PlannerOptions, run_planners
from optiq.workload import Workload, pattern_jobs

from lp_oracle import arc_optimum, path_optimum

CASES = [("torus:4x4", 1), ("torus:3x3x2", 2), ("mesh:3x4", 3), ("bgq:2x2x2x2x2", 4), ("torus:6", 5),
         ("torus:4x3m", 6)]


def random_workload(spec, seed, count=None):
    rng = random.Random(seed)
    topo = optiq.parse_network(spec)
    jobs = [optiq.Job(rng.randrange(topo.num_endpoints), rng.randrange(topo.num_endpoints),
                      rng.choice([0, 1, rng.randrange(1, 5_000_000)]))
            for _ in range(count or rng.randint(3, 14))]
    return Workload(topo, optiq.make_routing(topo.default_routing, topo), jobs, "random")


def plan_seconds(result, topo):
    return result.metrics.predicted_seconds


@pytest.mark.parametrize("spec,seed", CASES)
def test_optimal_reaches_the_arc_lp_optimum(spec, seed):
    w = random_workload(spec, seed)
    best = arc_optimum(w.network, w.jobs)
    (r,) = run_planners(w, ["optimal"], PlannerOptions(min_path_bytes=1))
    capacity = w.network.link_bandwidth
    assert r.bound / capacity == pytest.approx(best, rel=1e-6, abs=1e-12)
    # Whole bytes cost at most one byte per path on a link.
    assert plan_seconds(r, w.network) <= best + r.metrics.paths / capacity + 1e-12
    assert r.gap < 1e-3 or r.metrics.link_bytes_max < 1000


@pytest.mark.parametrize("spec,seed", CASES)
def test_opt_is_the_optimum_over_its_candidates(spec, seed):
    w = random_workload(spec, seed)
    k = 4
    candidates = optiq.generate_candidates(w.network, w.routing, w.jobs, k)
    best = path_optimum(w.network, w.jobs, [candidates.paths(i) for i in range(len(w.jobs))])
    (r,) = run_planners(w, ["opt"], PlannerOptions(k=k, min_path_bytes=1))
    capacity = w.network.link_bandwidth
    assert r.bound / capacity == pytest.approx(best, rel=1e-6, abs=1e-12)
    assert r.bound / capacity >= arc_optimum(w.network, w.jobs) * (1 - 1e-9)  # candidates can only cost


@pytest.mark.parametrize("spec,seed", CASES + [("torus:5x5", 7), ("mesh:4x4", 8)])
def test_mcf_bound_is_valid_and_its_plan_never_beats_it(spec, seed):
    w = random_workload(spec, seed)
    best = arc_optimum(w.network, w.jobs)
    capacity = w.network.link_bandwidth
    for eps in (0.3, 0.05, 0.01):
        (r,) = run_planners(w, ["mcf"], PlannerOptions(epsilon=eps, min_path_bytes=1))
        assert r.bound / capacity <= best * (1 + 1e-9) + 1e-15, "a bound above the true optimum"
        assert plan_seconds(r, w.network) >= r.bound / capacity * (1 - 1e-9), "a plan better than its bound"
        assert plan_seconds(r, w.network) >= best * (1 - 1e-9)


@pytest.mark.parametrize("spec,seed", CASES[:4])
def test_forwarding_capacity_enters_the_models(spec, seed):
    w = random_workload(spec, seed, count=10)
    unlimited = arc_optimum(w.network, w.jobs)
    forward = w.network.link_bandwidth / 4
    limited = arc_optimum(w.network, w.jobs, forward)
    capacity = w.network.link_bandwidth
    (r,) = run_planners(w, ["optimal"], PlannerOptions(min_path_bytes=1, forward_bandwidth=forward))
    assert r.bound / capacity == pytest.approx(limited, rel=1e-6, abs=1e-12)
    assert limited >= unlimited * (1 - 1e-9)
    (m,) = run_planners(w, ["mcf"], PlannerOptions(min_path_bytes=1, forward_bandwidth=forward, epsilon=0.05))
    assert m.bound / capacity <= limited * (1 + 1e-9) + 1e-15
    relayed = {}
    for jp in m.plan.jobs:
        for share in jp.paths:
            for link in share.links[1:]:
                relayed[w.network.link_src(link)] = relayed.get(w.network.link_src(link), 0) + share.bytes
    worst = max([m.metrics.predicted_seconds] + [b / forward for b in relayed.values()])
    assert worst >= m.bound / capacity * (1 - 1e-9)


@pytest.mark.parametrize("spec", ["fattree:2;4,4;1,4;1,1", "dragonfly:3,1;1,1;3,1;2"])
def test_optimal_keeps_the_default_route_where_a_hot_destination_binds(spec):
    # Every host has one link, so a destination receiving 8x the bytes bounds any plan, and the
    # default route, which meets that bound, is optimal without column generation.
    net = optiq.parse_network(spec)
    w = Workload(net, optiq.make_routing(net.default_routing, net), pattern_jobs(net, "moe", "1MiB", dests=1), "moe")
    (r, d) = run_planners(w, ["optimal", "default"], PlannerOptions(min_path_bytes=1))
    assert r.extra["iterations"] == 0
    assert [[list(p.links) for p in jp.paths] for jp in r.plan.jobs] == \
        [[list(p.links) for p in jp.paths] for jp in d.plan.jobs]
    best = arc_optimum(w.network, w.jobs)
    assert r.metrics.predicted_seconds == pytest.approx(best, rel=1e-6)
    assert r.bound / w.network.link_bandwidth <= best * (1 + 1e-9)


def test_practical_limits_hold_and_their_cost_is_reported():
    topo = optiq.parse_network("mira:512")
    jobs = optiq.assign_sizes(optiq.named_pattern("disjoint", topo.num_endpoints), "8MiB")
    w = Workload(topo, optiq.make_routing("bgq", topo), jobs, "disjoint")
    free = {r.planner: r for r in run_planners(w, ["optimal", "mcf"], PlannerOptions())}
    tight = {r.planner: r for r in run_planners(w, ["optimal", "mcf"],
                                                PlannerOptions(max_paths=2, min_path_bytes=1 << 20))}
    for name, r in tight.items():
        for jp in r.plan.jobs:
            assert 1 <= len(jp.paths) <= 2
            assert all(p.bytes >= 1 << 20 for p in jp.paths) or len(jp.paths) == 1
        assert r.metrics.link_bytes_max >= free["optimal"].bound * (1 - 1e-9)
        # Whole bytes may round a busiest link's load down by a byte or so: 1e-7 of 8 MiB.
        assert r.extra["constraint_cost"] >= -1e-6
        assert r.gap >= 0


@pytest.mark.parametrize("pattern", ["permutation", "dmodk-adversarial"])
def test_mcf_whole_bytes_keep_the_flow_where_small_paths_keep_coming_back(pattern):
    # The practical rounds' last sweeps shrink paths below the minimum again: on this fat-tree's
    # permutation the rounds run out while paths are still going, on dmodk-adversarial they end
    # with a few left. Those must go where the loads allow, not onto their job's largest path
    # (which cost these plans 0.6% and 0.1% over their flows).
    w = Workload(*_fattree(pattern))
    r = run_planners(w, ["mcf"], PlannerOptions())[0]
    smallest = PlannerOptions().min_path_bytes
    assert all(p.bytes >= smallest for jp in r.plan.jobs for p in jp.paths if len(jp.paths) > 1)
    flow = r.extra["flow_seconds"]
    assert r.metrics.predicted_seconds <= flow * (1 + 1e-4)


def test_mcf_ends_by_sweeps_with_detours_well_before_the_iteration_cap():
    # On a torus the trial of sweeps prices detours at every step and finishes with the
    # practical ending: on all three patterns it certifies within a quarter of epsilon of the
    # bound (cut or quotient, both independent of the flow) at its first attempt, rounds
    # before the sharp phase. Without detours overlap and subset fell short there and took
    # more than 30 iterations.
    topo = optiq.parse_network("mira:4096")
    routing = optiq.make_routing("bgq", topo)
    options = PlannerOptions()
    for pattern in ("disjoint", "overlap", "subset"):
        jobs = optiq.assign_sizes(optiq.named_pattern(pattern, topo.num_endpoints), "8MiB")
        r = run_planners(Workload(topo, routing, jobs, pattern), ["mcf"], options)[0]
        assert r.extra["iterations"] <= 20
        assert r.gap <= options.epsilon / 4
        assert r.bound <= r.metrics.link_bytes_max


def test_mcf_finishes_sharp_where_the_bottlenecks_bound_the_swept_flow():
    # Mira 1,024 overlap: the swept flow is 1.9% above the cut bound, not the quarter of epsilon
    # the trial asks; the quotient its bottlenecks rank brings it within 0.3%, and the sharp
    # rounds end the run there (it went on to iteration 27 before). The plan must still match
    # the LP optimum that `optimal` proves, within 0.1%.
    topo = optiq.parse_network("mira:1024")
    routing = optiq.make_routing("bgq", topo)
    jobs = optiq.assign_sizes(optiq.named_pattern("overlap", topo.num_endpoints), "8MiB")
    options = PlannerOptions()
    mcf, optimal = run_planners(Workload(topo, routing, jobs, "overlap"), ["mcf", "optimal"], options)
    assert mcf.extra["iterations"] <= 20
    assert mcf.gap <= options.epsilon / 4
    assert optimal.gap <= 1e-5
    assert mcf.metrics.link_bytes_max <= optimal.metrics.link_bytes_max * 1.001
    assert mcf.bound <= optimal.metrics.link_bytes_max * (1 + 1e-9)


def _fattree(pattern):
    topo = optiq.parse_network("fattree:3;8,8,16;1,8,8;1,1,1")
    return topo, optiq.make_routing("dmodk", topo), pattern_jobs(topo, pattern, "8MiB"), pattern


def test_cli_json_carries_bound_and_gap(optiq_cli):
    doc = json.loads(optiq_cli("plan", "--topology", "mira:512", "--planner", "default,optimal,mcf,opt",
                               "--json").stdout)
    results = {r["planner"]: r for r in doc["results"]}
    assert "bound" not in results["default"]
    for name in ("optimal", "mcf", "opt"):
        r = results[name]
        assert 0 <= r["gap"] < 0.05
        assert r["bound"] <= r["metrics"]["link_bytes_max"] * (1 + 1e-9)
    assert results["mcf"]["metrics"]["link_bytes_max"] >= results["optimal"]["bound"] * (1 - 1e-9)
    assert results["optimal"]["bound"] <= results["opt"]["bound"] * (1 + 1e-9)


@pytest.mark.parametrize("args,needle", [
    (["--planner", "mcf", "--epsilon", "0"], "epsilon"),
    (["--planner", "optimal", "--max-paths", "-1"], "max-paths"),
    (["--planner", "mcf", "--forward-bandwidth", "-5"], "argument --forward-bandwidth"),
    (["--planner", "opt", "--gap", "2"], "gap"),
])
def test_cli_rejects_bad_optimiser_options(optiq_cli, args, needle):
    proc = optiq_cli("plan", "--topology", "torus:4x4", *args, check=False)
    assert proc.returncode == 2 and needle in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
