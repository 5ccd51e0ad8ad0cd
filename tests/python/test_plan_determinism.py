"""Plans do not depend on the run or on the number of threads that made them.

The planners spread their searches over threads (graph::parallel_for, OPTIQ_THREADS); results
land by index, so one and two threads, and two runs, must give byte-identical plan files. The
cases are large enough that every parallel search really runs on two threads (more sources
than parallel_for's serial threshold) and cover each pricing mode of mcf: the goal-directed
search on a torus, chains of default routes on a fat-tree and a dragonfly.
"""

from __future__ import annotations

import os

import pytest

import optiq
from optiq import _core
from optiq.evaluate import PlannerOptions, run_planners
from optiq.workload import Workload, pattern_jobs

CASES = [  # network, routing, pattern, planner
    ("mira:512", "bgq", "subset", "mcf"),
    # The trial of sweeps with detours, its quotient bound and its practical ending end this run.
    ("mira:1024", "bgq", "overlap", "mcf"),
    # 2,048 jobs: detour rounds split into work items on two threads.
    ("mira:4096", "bgq", "disjoint", "mcf"),
    ("mira:512", "bgq", "overlap", "heu1"),
    ("mira:512", "bgq", "overlap", "heu2"),
    ("fattree:3;8,8,16;1,8,8;1,1,1", "dmodk", "dmodk-adversarial", "mcf"),
    ("dragonfly:8,1;4,1;8,1;4", "minimal", "permutation", "mcf"),
    # 2,560 endpoints: chains priced one window of sources per round, windows in turn.
    ("dragonfly:8,1;4,1;8,1;10", "minimal", "permutation", "mcf"),
    # optimal's pricing: every chain, searched exactly on the fat-tree (fat_tree_chains.cpp).
    ("fattree:3;8,8,16;1,8,8;1,1,1", "dmodk", "permutation", "optimal"),
]


def plan_text(spec: str, routing: str, pattern: str, planner: str, threads: str) -> str:
    saved = os.environ.get("OPTIQ_THREADS")
    os.environ["OPTIQ_THREADS"] = threads
    try:
        net = optiq.parse_network(spec)
        model = optiq.make_routing(routing, net)
        workload = Workload(net, model, pattern_jobs(net, pattern, "8MiB", seed=3), pattern)
        (result,) = run_planners(workload, [planner], PlannerOptions())
        return _core.plan_to_json(result.plan, net)
    finally:
        if saved is None:
            del os.environ["OPTIQ_THREADS"]
        else:
            os.environ["OPTIQ_THREADS"] = saved


@pytest.mark.parametrize("spec,routing,pattern,planner", CASES)
def test_plans_are_identical_across_runs_and_thread_counts(spec, routing, pattern, planner):
    one = plan_text(spec, routing, pattern, planner, "1")
    two = plan_text(spec, routing, pattern, planner, "2")
    again = plan_text(spec, routing, pattern, planner, "2")
    assert one == two, f"{planner} on {spec}: one and two threads planned differently"
    assert two == again, f"{planner} on {spec}: two runs planned differently"
    assert '"paths"' in one  # a real plan, not an empty one


@pytest.mark.parametrize("bad", ["0", "two", "300"])
def test_a_bad_thread_count_is_refused_with_its_name(bad):
    with pytest.raises(optiq.Error, match="OPTIQ_THREADS"):
        plan_text("mira:512", "bgq", "subset", "mcf", bad)
