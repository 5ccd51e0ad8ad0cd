"""Planning with traffic classes (optiq.qos, docs/qos.md) against independent LPs (lp_oracle)."""

import json
import random
import subprocess
import sys

import pytest

import optiq
from optiq.evaluate import PlannerOptions, run_planners
from optiq.qos import parse_weights, plan_with_classes
from optiq.workload import Workload

from lp_oracle import arc_optimum, weighted_concurrent_flow

CASES = [("torus:4x4", 1), ("torus:3x3x2", 2), ("mesh:3x4", 3), ("torus:6", 4)]


def classed_workload(spec, seed, classes=2):
    rng = random.Random(seed)
    topo = optiq.parse_network(spec)
    n = topo.num_endpoints
    jobs = [optiq.Job(rng.randrange(n), rng.randrange(n), rng.randrange(1, 4_000_000), rng.randrange(classes))
            for _ in range(rng.randint(6, 14))]
    for p in range(classes):  # every class present, with bytes that cross a link
        jobs.append(optiq.Job(p, n - 1 - p, 2_000_000, p))
    return Workload(topo, optiq.make_routing(topo.default_routing, topo), jobs, "classes")


def loads_of(plan, topo):
    return [float(b) for b in optiq.link_loads(plan, topo)]


def class_plan(workload, plan, priority):
    return optiq.Plan(plan.topology, plan.routing, plan.planner,
                      [jp for jp in plan.jobs if jp.job.priority == priority])


@pytest.mark.parametrize("spec,seed", CASES)
@pytest.mark.parametrize("planner,tolerance", [("optimal", 1e-4), ("mcf", 5e-3)])
def test_lexicographic_classes_reach_their_optimum_behind_the_earlier_ones(spec, seed, planner, tolerance):
    w = classed_workload(spec, seed, classes=3)
    options = PlannerOptions(min_path_bytes=1, epsilon=0.001)
    ((result, classes),) = plan_with_classes(w, [planner], options, "lexicographic")
    topo = w.network
    preload = [0.0] * topo.num_links
    for c in classes:
        jobs = [j for j in w.jobs if j.priority == c.priority]
        best = arc_optimum(topo, jobs, preload=preload if any(preload) else None)
        # Whole bytes cost at most a byte per path on a link.
        slack = sum(len(jp.paths) for jp in result.plan.jobs) / topo.link_bandwidth
        assert best * (1 - 1e-6) <= c.predicted_seconds <= best * (1 + tolerance) + slack
        assert c.bound_seconds <= best * (1 + 1e-6)
        preload = [a + b for a, b in zip(preload, loads_of(class_plan(w, result.plan, c.priority), topo))]
    # The last class finishes when every link has moved all its bytes.
    last = max(u / topo.capacity(l) for l, u in enumerate(preload))
    assert classes[-1].predicted_seconds == pytest.approx(last, rel=1e-12)


@pytest.mark.parametrize("spec,seed", CASES)
def test_lexicographic_costs_the_total_at_most_the_urgent_time(spec, seed):
    w = classed_workload(spec, seed)
    options = PlannerOptions(min_path_bytes=1)
    ((_, classes),) = plan_with_classes(w, ["optimal"], options, "lexicographic")
    (joint,) = run_planners(w, ["optimal"], options)
    assert classes[-1].predicted_seconds <= joint.metrics.predicted_seconds + classes[0].predicted_seconds + 1e-9
    # ... and the urgent class is never slower than in the joint plan's shared links.
    urgent_alone = arc_optimum(w.network, [j for j in w.jobs if j.priority == 0])
    assert classes[0].predicted_seconds == pytest.approx(urgent_alone, rel=1e-4)


@pytest.mark.parametrize("spec,seed", CASES)
@pytest.mark.parametrize("planner", ["optimal", "mcf"])
def test_weighted_classes_match_the_weighted_concurrent_flow_lp(spec, seed, planner):
    w = classed_workload(spec, seed)
    weights = {0: 4.0, 1: 1.0}
    options = PlannerOptions(min_path_bytes=1, epsilon=0.002)
    ((result, classes),) = plan_with_classes(w, [planner], options, "weighted", weights)
    rate = weighted_concurrent_flow(w.network, w.jobs, lambda j: weights[j.priority])
    for c in classes:
        assert c.weight == weights[c.priority]
        assert c.predicted_seconds == pytest.approx(1.0 / (rate * c.weight), rel=0.01)
    assert classes[0].predicted_seconds * 4 == pytest.approx(classes[1].predicted_seconds, rel=1e-12)
    # Every job's bytes are planned exactly, each job on its own class's paths.
    for job, jp in zip(w.jobs, result.plan.jobs):
        assert sum(s.bytes for s in jp.paths) == job.bytes and jp.job.priority == job.priority


def test_heu2_and_default_plan_classes_too():
    w = classed_workload("torus:4x4", 9)
    options = PlannerOptions()
    planned = plan_with_classes(w, ["default", "heu2"], options, "lexicographic")
    default_classes = planned[0][1]
    heu2_classes = planned[1][1]
    alone = arc_optimum(w.network, [j for j in w.jobs if j.priority == 0])
    assert heu2_classes[0].predicted_seconds >= alone * (1 - 1e-9)
    assert heu2_classes[0].predicted_seconds <= default_classes[0].predicted_seconds
    for result, _ in planned:
        optiq.validate_plan(result.plan, w.network)


def test_one_class_is_the_plan_without_classes():
    w = classed_workload("torus:4x4", 3, classes=1)
    options = PlannerOptions(min_path_bytes=1)
    ((result, classes),) = plan_with_classes(w, ["optimal"], options, "lexicographic")
    (plain,) = run_planners(w, ["optimal"], options)
    assert classes[0].predicted_seconds == pytest.approx(plain.metrics.predicted_seconds, rel=1e-9)


def test_preload_shifts_heu2_off_busy_links():
    topo = optiq.parse_network("torus:4")
    w = Workload(topo, optiq.make_routing("dor", topo), [optiq.Job(0, 1, 1 << 20)], "one")
    direct = optiq.make_routing("dor", topo).route(0, 1)
    options = PlannerOptions(k=2, hop_bound=3)  # the ring's other way round is 3 hops
    options.link_preload = [float(1 << 22) if l in direct else 0.0 for l in range(topo.num_links)]
    (r,) = run_planners(w, ["heu2"], options)
    assert all(share.links != direct for share in r.plan.jobs[0].paths)
    with pytest.raises(optiq.Error, match="cannot plan behind"):
        run_planners(w, ["heu1"], options)
    options.link_preload = [0.0]
    with pytest.raises(optiq.Error, match="1 entries for"):
        run_planners(w, ["mcf"], options)
    options.link_preload = [-1.0] * topo.num_links
    with pytest.raises(optiq.Error, match="finite and >= 0"):
        run_planners(w, ["mcf"], options)


def test_request_files_carry_priorities():
    jobs = optiq.parse_requests("0 1 1KiB\n1 2 2KiB 3\n2 3 4KiB 0 # urgent\n", 4)
    assert [j.priority for j in jobs] == [0, 3, 0]
    for bad, what in [("0 1 1KiB 16", "bad priority '16'"), ("0 1 1KiB -1", "bad priority"),
                      ("0 1 1KiB x", "bad priority 'x'"), ("0 1 1KiB 1 2", "expected 'src dst bytes \\[priority\\]'")]:
        with pytest.raises(optiq.Error, match=what):
            optiq.parse_requests(bad, 4, "r.txt")
    with pytest.raises(optiq.Error, match="outside 0..15"):
        optiq.Job(0, 1, 5, 99)


def test_weights_parse_and_refuse_nonsense():
    assert parse_weights("0=4,1=0.5") == {0: 4.0, 1: 0.5}
    for bad in ["0=0", "0=-1", "0=inf", "x=1", "16=1", "0", "0=1,0=2"]:
        with pytest.raises(optiq.Error, match="--class-weights"):
            parse_weights(bad)


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "optiq.cli", *args], capture_output=True, text=True)


def test_plan_command_reports_classes(tmp_path):
    requests = tmp_path / "classes.txt"
    requests.write_text("0 5 4MiB 0\n1 5 4MiB 0\n2 6 8MiB 1\n0 6 8MiB 1\n3 7 8MiB 1\n")
    done = _cli("plan", "--topology", "torus:4x4", "--requests", str(requests), "--planner", "default,mcf",
                "--qos", "lexicographic", "--json", "--quiet")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["qos"] == "lexicographic"
    for r in doc["results"]:
        assert set(r["classes"]) == {"0", "1"}
        assert r["classes"]["0"]["bytes"] == 8 << 20 and r["classes"]["1"]["jobs"] == 3
        assert r["classes"]["0"]["predicted_seconds"] < r["classes"]["1"]["predicted_seconds"]
    text = _cli("plan", "--topology", "torus:4x4", "--requests", str(requests), "--planner", "mcf", "--qos",
                "weighted", "--class-weights", "0=4,1=1", "--quiet")
    assert text.returncode == 0, text.stderr
    assert "mcf class 0 (weighted, weight 4)" in text.stdout and "mcf class 1 (weighted, weight 1)" in text.stdout
    for args, what in [(["--qos", "lexicographic", "--planner", "heu1"], "cannot plan behind"),
                       (["--qos", "weighted", "--class-weights", "0=1"], "no weight for priority 1"),
                       (["--class-weights", "0=1"], "applies to --qos weighted only"),
                       (["--qos", "lexicographic", "--forward-bandwidth", "1e9"], "cannot be combined")]:
        bad = _cli("plan", "--topology", "torus:4x4", "--requests", str(requests), "--quiet", *args)
        assert bad.returncode == 2 and what in bad.stderr and "Traceback" not in bad.stderr, (args, bad.stderr)
