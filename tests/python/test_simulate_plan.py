"""optiq simulate executes exactly the plan whose prediction it prints."""

import hashlib
import json
from pathlib import Path

import pytest

import optiq
from optiq.metrics import PlanMetrics
from optiq.simulation import experiment
from optiq.simulation import platform as plat


def forwarded_bytes(plan, topo, routing):
    """What the runtime copies at forwarding nodes for ``plan`` with a rank on every node: along
    each path the bytes go as far as the default route follows it, then a node relays them."""
    total = 0
    for jp in plan.jobs:
        for share in jp.paths:
            nodes = [jp.job.src] + [topo.link_dst(link) for link in share.links]
            i, hops = 0, len(share.links)
            while i < hops:
                reach = max(j for j in range(i + 1, hops + 1)
                            if [topo.link_dst(link) for link in routing.route(nodes[i], nodes[j])] == nodes[i + 1:j + 1])
                total += share.bytes if reach < hops else 0
                i = reach
    return total


def test_each_run_executes_the_plan_file_its_prediction_comes_from(optiq_cli, tmp_path):
    # Settings the runtime's own planners would not choose: re-planning inside the simulated
    # application would move bytes along other paths.
    out = optiq_cli("simulate", "--topology", "torus:4x4x2", "--pattern", "overlap", "--bytes", "512KiB",
                    "--planner", "default,heu2,mcf,optimal", "--heu2-chunk", "256KiB", "--epsilon", "0.3",
                    "--max-paths", "2", "--iterations", "1", "--plans-dir", tmp_path, "--json", "--quiet")
    calls = 2  # the warm-up call and the timed one; the driver's counters sum over calls
    runs = json.loads(out.stdout)["results"]
    topo = plat.simulated_network("torus:4x4x2")
    routing = optiq.make_routing(plat.ROUTING, topo)
    moved = set()
    for r in runs:
        name = "default" if r["planner"] == experiment.MPI else r["planner"]
        path = tmp_path / f"{name}.json"
        assert r["plan_file"] == str(path)
        assert r["plan_sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
        plan = optiq.load_plan(str(path))
        metrics = PlanMetrics(plan, topo)
        assert r["predicted_seconds"] == metrics.predicted_seconds
        assert r["link_bytes_max"] == metrics.link_bytes_max
        assert r["verified"] is True
        if r["planner"] != experiment.MPI:  # the driver's count of what it relayed is the file's
            assert r["forwarded_bytes"] == calls * forwarded_bytes(plan, topo, routing)
            moved.add(r["forwarded_bytes"])
    assert len(moved - {0}) >= 2, "the plans relay nothing: the comparison would prove little"


def test_a_run_of_another_plan_is_refused():
    topo = plat.simulated_network("torus:2x2x2")
    plan = optiq.make_plan("default", topo, optiq.make_routing(plat.ROUTING, topo),
                           [optiq.Job(0, 1, 1000)]).plan
    metrics = PlanMetrics(plan, topo)
    experiment._check_executed({"plan": "/x/heu2.json", "bytes": 1000}, Path("/x/heu2.json"), metrics)
    with pytest.raises(optiq.Error, match="not the predicted plan"):
        experiment._check_executed({"plan": "/x/other.json", "bytes": 1000}, Path("/x/heu2.json"), metrics)
    with pytest.raises(optiq.Error, match="not the predicted plan"):
        experiment._check_executed({"plan": "/x/heu2.json", "bytes": 999}, Path("/x/heu2.json"), metrics)
