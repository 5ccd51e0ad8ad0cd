"""mcf against optimal on every pattern of small fat-trees and dragonflies.

mcf prices chains through one proxy in most rounds and all chains only when that could end the
run (docs/model.md, "Candidates and pricing on the overlay"); its plans must still come within
2% of the optimum over every realizable path, and its bound must stay below that optimum.
bench/planning_scale.py checks the same at 1,024 endpoints.
"""

import pytest

import optiq
from optiq.evaluate import PlannerOptions, run_planners
from optiq.workload import Workload, pattern_jobs

DRAGONFLY = "dragonfly:4,1;2,1;4,1;4"    # 128 hosts: 4 groups of 2 chassis of 4 routers of 4
FATTREE = "fattree:3;4,4,8;1,4,4;1,1,1"  # 128 hosts, 3 levels
SMALL_FATTREE = "fattree:3;4,4,4;1,4,4;1,1,1"  # 64 hosts: moe's 4,032 jobs keep optimal quick

CASES = [(DRAGONFLY, "minimal", p) for p in ("group-to-group", "groups-alltoall", "permutation", "moe")] + [
    (FATTREE, "dmodk", p) for p in ("dmodk-adversarial", "permutation", "disjoint", "overlap", "subset")
] + [(SMALL_FATTREE, "dmodk", "moe"), ("fattree:2;8,8;1,4;1,2", "dmodk", "permutation")]


@pytest.mark.parametrize("spec,routing,pattern", CASES)
def test_mcf_comes_within_two_percent_of_optimal(spec, routing, pattern):
    net = optiq.parse_network(spec)
    w = Workload(net, optiq.make_routing(routing, net), pattern_jobs(net, pattern, "8MiB"), pattern)
    optimal, mcf = run_planners(w, ["optimal", "mcf"], PlannerOptions())
    best = optimal.metrics.predicted_seconds
    assert optimal.gap < 1e-3
    assert mcf.metrics.predicted_seconds <= 1.02 * best
    assert mcf.bound_seconds <= best * (1 + 1e-9)
    assert optimal.bound_seconds <= mcf.metrics.predicted_seconds * (1 + 1e-9)
