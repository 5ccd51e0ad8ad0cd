"""With a forwarding capacity, bounds and metrics use one model: no proven bound exceeds the
time of the plan it bounds, and the bounds over all paths hold for every planner's plan."""

import json

import pytest

import optiq
from optiq.evaluate import PlannerOptions, planner_names, run_planners
from optiq.metrics import PlanMetrics, relay_loads
from optiq.workload import Workload

# Bounds over every path (optimal, mcf without a hop bound) bound every plan; opt's only its own.
UNIVERSAL = ("optimal", "mcf")


def workload(spec="torus:4x4x2", pattern="disjoint", size="1MiB"):
    topo = optiq.parse_network(spec)
    jobs = optiq.assign_sizes(optiq.named_pattern(pattern, topo.num_endpoints, 2, 16), size)
    return Workload(topo, optiq.make_routing(topo.default_routing, topo), jobs, pattern)


@pytest.mark.parametrize("forward", [None, 1.8e9, 4e8, 5e7])
@pytest.mark.parametrize("pattern", ["disjoint", "subset"])
def test_no_bound_exceeds_a_plans_own_metric(forward, pattern):
    w = workload(pattern=pattern)
    results = run_planners(w, planner_names(), PlannerOptions(forward_bandwidth=forward, max_paths=4))
    assert {r.planner for r in results if r.bound is not None} == {"opt", "optimal", "mcf"}
    floor = max(r.bound_seconds for r in results if r.planner in UNIVERSAL)
    for r in results:
        seconds = r.metrics.predicted_seconds
        assert seconds >= floor * (1 - 1e-9), f"{r.planner} beats a proven bound"
        if r.bound is not None:
            assert r.bound_seconds <= seconds * (1 + 1e-9)
            assert r.bound == pytest.approx(r.bound_seconds * w.network.link_bandwidth)
            assert 0 <= r.gap < 1
            assert r.gap == pytest.approx(1 - r.bound_seconds / seconds, abs=1e-12)
        if forward is None:
            assert r.metrics.relay_bytes_max is None
            assert seconds == optiq.compute_metrics(r.plan, w.network).predicted_seconds
            if r.bound is not None:  # without relaying the bound is on the busiest link's bytes
                assert r.bound <= r.metrics.link_bytes_max * (1 + 1e-9)
        else:
            relayed = relay_loads(r.plan, w.network)
            assert r.metrics.relay_bytes_max == relayed.max()
            assert seconds == max(r.metrics.link_bytes_max / w.network.link_bandwidth, relayed.max() / forward)


def test_a_tight_relay_limit_is_what_the_time_reports():
    w = workload()
    (r,) = run_planners(w, ["default"], PlannerOptions(forward_bandwidth=1e7))
    link_seconds = optiq.compute_metrics(r.plan, w.network).predicted_seconds
    assert r.metrics.predicted_seconds == r.metrics.relay_bytes_max / 1e7 > link_seconds
    assert r.metrics.predicted_throughput == pytest.approx(r.metrics.total_bytes / r.metrics.predicted_seconds)


def test_relay_loads_count_every_inner_node_once_per_path():
    topo = optiq.parse_network("torus:8")
    links = [topo.torus.link(n, 0, 1) for n in range(4)]  # 0 -> 4 through 1, 2, 3
    plan = optiq.Plan(topo.spec, "dor", "x", [optiq.JobPlan(optiq.Job(0, 4, 30), [optiq.PathShare(links, 30)])])
    assert relay_loads(plan, topo).tolist() == [0, 30, 30, 30, 0, 0, 0, 0]
    assert PlanMetrics(plan, topo, 10.0).predicted_seconds == 3.0


@pytest.mark.parametrize("forward", ["1e8", "1.8e9"])
def test_cli_reports_bound_and_metrics_in_one_model(optiq_cli, forward):
    out = optiq_cli("plan", "--topology", "torus:4x4x2", "--bytes", "1MiB", "--planner", ",".join(planner_names()),
                    "--forward-bandwidth", forward, "--max-paths", "4", "--json")
    results = json.loads(out.stdout)["results"]
    floor = max(r["bound_seconds"] for r in results if r["planner"] in UNIVERSAL)
    for r in results:
        m = r["metrics"]
        assert m["predicted_seconds"] >= floor * (1 - 1e-9)
        assert m["predicted_seconds"] >= m["relay_bytes_max"] / float(forward) * (1 - 1e-12)
        if "bound" in r:
            assert r["bound_seconds"] <= m["predicted_seconds"] * (1 + 1e-9)
            assert r["bound"] <= m["predicted_seconds"] * 1.8e9 * (1 + 1e-9)
    table = optiq_cli("plan", "--topology", "torus:4x4x2", "--bytes", "1MiB", "--planner", "default,mcf",
                      "--forward-bandwidth", forward).stdout
    assert "on the transfer time (links and relaying nodes)" in table and "MB on the busiest link" not in table
