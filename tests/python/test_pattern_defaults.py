"""Default counts of the core patterns: at least one source on any number of nodes, the
thesis' P/16 and P/2 wherever those work, and Table VII unchanged."""

import json

import pytest

import optiq
from optiq.workload import pattern_counts, pattern_pairs

PATTERNS = optiq.pattern_names()


@pytest.mark.parametrize("nodes,expected", [
    (1, (1, 1)), (2, (1, 1)), (8, (1, 4)), (16, (1, 8)), (48, (3, 24)), (100, (5, 50)), (1024, (64, 512)),
    (49152, (3072, 24576)),
])
def test_rule(nodes, expected):
    assert pattern_counts(nodes) == expected


def test_given_counts_are_kept():
    assert pattern_counts(1024, 7, 21) == (7, 21)
    assert pattern_counts(1024, dests=2) == (64, 2)  # 64 sources, 32 to each destination, as before
    assert pattern_counts(8, dests=3) == (1, 3)
    assert pattern_counts(1024, dests=96) == (48, 96)


def test_every_size_has_a_working_default():
    for nodes in range(1, 600):
        m, n = pattern_counts(nodes)
        assert m >= 1 and n >= 1 and (n % m == 0 or m % n == 0), nodes
        for name in PATTERNS:
            assert len(pattern_pairs(name, nodes)) == max(m, n), (name, nodes)


@pytest.mark.parametrize("nodes", [16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 49152])
def test_where_p_over_16_works_the_core_default_is_unchanged(nodes):
    for name in PATTERNS:
        assert pattern_pairs(name, nodes, seed=5) == optiq.named_pattern(name, nodes, seed=5)


@pytest.mark.parametrize("pattern,average", [("disjoint", 3.07), ("overlap", 3.38), ("subset", 3.52)])
def test_table_vii_rows_stay_exact(optiq_cli, pattern, average):
    out = optiq_cli("plan", "--topology", "mira:1024", "--pattern", pattern, "--bytes", "8MiB", "--planner",
                    "default", "--json")
    (r,) = json.loads(out.stdout)["results"]
    assert r["metrics"]["paths_per_link_max"] == 16
    assert round(r["metrics"]["paths_per_link_avg"], 2) == average


@pytest.mark.parametrize("pattern", PATTERNS)
def test_small_topologies_plan_every_pattern(optiq_cli, pattern):
    out = optiq_cli("plan", "--topology", "torus:2x2x2", "--pattern", pattern, "--planner", "default", "--json")
    assert json.loads(out.stdout)["jobs"] == 4


def test_run_uses_the_same_rule_over_its_ranks(optiq_cli):
    out = optiq_cli("run", "--np", "8", "--topology", "torus:2x2x2", "--pattern", "random", "--bytes", "64KiB",
                    "--planner", "default", "--iterations", "1", "--warmup", "0", "--json")
    doc = json.loads(out.stdout)
    assert doc["messages"] == 4 and doc["verified"] is True
