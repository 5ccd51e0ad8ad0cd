"""The network patterns and every planner on small fat-trees and dragonflies, through the CLI."""

import json

import pytest

FATTREE = "fattree:2;4,4;1,2;1,1"     # 16 hosts, destination-based under simgrid (no parallel cables)
DRAGONFLY = "dragonfly:3,1;2,1;3,1;2"  # 36 hosts, 12 per group; plans route minimal
PLANNERS = "default,heu1,heu2,opt,optimal,mcf"


def plan(optiq_cli, topology, *args):
    out = optiq_cli("plan", "--topology", topology, *args, "--json", "--quiet")
    return json.loads(out.stdout)


def results(doc):
    return {r["planner"]: r for r in doc["results"]}


@pytest.mark.parametrize("topology,routing,pattern,jobs", [
    (DRAGONFLY, "minimal", "group-to-group", 12),
    (DRAGONFLY, "minimal", "groups-alltoall", 72),
    (DRAGONFLY, "minimal", "permutation", 36),
    (FATTREE, "dmodk", "dmodk-adversarial", 16),
    (FATTREE, "simgrid", "permutation", 16),
    (FATTREE, "dmodk", "moe", 240),
    (FATTREE, "dmodk", "disjoint", 8),
    (DRAGONFLY, "minimal", "subset", 18),
    (DRAGONFLY, "minimal", "overlap", 18),
])
def test_patterns_plan_on_endpoints(optiq_cli, topology, routing, pattern, jobs):
    doc = plan(optiq_cli, topology, "--routing", routing, "--pattern", pattern, "--planner", "default")
    assert doc["pattern"] == pattern and doc["jobs"] == jobs
    assert results(doc)["default"]["metrics"]["total_bytes"] > 0


def test_every_planner_runs_on_both_families(optiq_cli):
    for topology, routing, pattern in [(DRAGONFLY, "minimal", "group-to-group"), (FATTREE, "dmodk", "dmodk-adversarial")]:
        doc = plan(optiq_cli, topology, "--routing", routing, "--pattern", pattern, "--planner", PLANNERS)
        by = results(doc)
        assert set(by) == set(PLANNERS.split(","))
        for name in ("opt", "optimal", "mcf"):
            assert by[name]["bound"] <= by[name]["metrics"]["link_bytes_max"] * (1 + 1e-9)


def test_mcf_halves_the_busiest_link_of_group_to_group(optiq_cli):
    # 16 hosts send 8 MiB each over the one blue link of the default routes; the plan spreads them
    # over detours through the other two groups' blue links (3 links in all: a third each).
    by = results(plan(optiq_cli, "dragonfly:4,1;2,1;4,1;2", "--routing", "minimal", "--pattern", "group-to-group",
                      "--bytes", "8MiB", "--planner", "default,mcf"))
    assert by["default"]["metrics"]["link_bytes_max"] == 16 * 8 * 2**20
    assert by["mcf"]["metrics"]["link_bytes_max"] <= by["default"]["metrics"]["link_bytes_max"] / 2


def test_moe_hot_destinations_receive_eight_times_as_much(optiq_cli):
    doc = plan(optiq_cli, FATTREE, "--pattern", "moe", "--dests", "2", "--bytes", "1MiB", "--planner", "default")
    total = results(doc)["default"]["metrics"]["total_bytes"]
    assert total == (16 * 15 + 2 * 15 * 7) * 2**20


def test_moe_hot_factor_sets_what_hot_destinations_receive(optiq_cli):
    doc = plan(optiq_cli, FATTREE, "--pattern", "moe", "--dests", "2", "--hot-factor", "2.5", "--bytes", "1MiB",
               "--planner", "default")
    assert results(doc)["default"]["metrics"]["total_bytes"] == (16 * 15 - 2 * 15) * 2**20 + 2 * 15 * 5 * 2**19
    # The same hot destinations as with the default factor, and the same jobs.
    default = plan(optiq_cli, FATTREE, "--pattern", "moe", "--dests", "2", "--bytes", "1MiB", "--planner", "default")
    assert doc["jobs"] == default["jobs"] == 240


@pytest.mark.parametrize("command", ["plan", "simulate"])
@pytest.mark.parametrize("value", ["0", "-1", "abc", "nan", "inf", "1e7"])
def test_bad_hot_factors_exit_2_naming_the_option(optiq_cli, command, value):
    proc = optiq_cli(command, "--topology", FATTREE, "--pattern", "moe", "--hot-factor", value, "--planner", "default",
                     check=False)
    assert proc.returncode == 2, proc.stderr
    assert "--hot-factor" in proc.stderr.strip().splitlines()[-1], proc.stderr


def test_seeds_reproduce_and_change_permutations(optiq_cli, tmp_path):
    def jobs(seed):
        out = tmp_path / f"p{seed}.json"
        optiq_cli("plan", "--topology", FATTREE, "--pattern", "permutation", "--seed", seed, "--planner", "default",
                  "--out", out, "--quiet")
        return [(j["src"], j["dst"]) for j in json.loads(out.read_text())["jobs"]]
    assert jobs(1) == jobs(1) != jobs(2)


@pytest.mark.parametrize("args,needle", [
    (["--topology", FATTREE, "--pattern", "group-to-group"], "needs a dragonfly network"),
    (["--topology", "torus:4x4", "--pattern", "dmodk-adversarial"], "needs a fat-tree network"),
    (["--topology", "fattree:1;4;1;1", "--pattern", "dmodk-adversarial"], "two or more levels"),
    (["--topology", DRAGONFLY, "--routing", "minimal", "--pattern", "group-to-group", "--start-dst", "0"],
     "two different groups"),
    (["--topology", FATTREE, "--pattern", "permutation", "--sources", "3"], "does not take --sources"),
    (["--topology", FATTREE, "--pattern", "moe", "--dests", "17"], "hot destinations"),
    (["--topology", FATTREE, "--pattern", "permutation", "--hot-factor", "2"], "does not take --hot-factor"),
    (["--topology", FATTREE, "--pattern", "disjoint", "--hot-factor", "2"], "does not take --hot-factor"),
])
def test_patterns_that_do_not_apply_exit_2_with_one_line(optiq_cli, args, needle):
    proc = optiq_cli("plan", *args, "--planner", "default", check=False)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], proc.stderr


def test_simulate_runs_a_network_pattern(optiq_cli):
    out = optiq_cli("simulate", "--topology", DRAGONFLY, "--routing", "minimal", "--pattern", "group-to-group",
                    "--bytes", "256KiB", "--planner", "default,mcf", "--quiet")
    assert "pattern group-to-group" in out.stdout
    assert out.stdout.count("verified") == 3, out.stdout
