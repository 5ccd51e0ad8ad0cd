"""Fat-trees and dragonflies on SimGrid: for every ordered pair of hosts, the links of the core's
'simgrid' route are the links SimGrid's own FAT_TREE and DRAGONFLY clusters route through, in
order; the platform, the CLI and a simulation end to end."""

import json

import pytest

from optiq import _core
from optiq.simulation import platform as plat
from optiq.simulation import smpi

FAT_TREES = [
    "fattree:2;4,4;1,2;1,2",        # SimGrid's documented example: two cables between leaf and top
    "fattree:2;2,2;1,2;2,2",        # two cables per host: the down scan goes on over the child's ports
    "fattree:3;2,3,2;2,2,2;2,1,3",  # more switches than 2N: negative SimGrid ids in link names
    "fattree:3;4,4,4;1,4,4;1,1,1",  # 64 hosts, one cable each
    "fattree:3;3,2,2;2,3,2;1,2,2",
]
DRAGONFLIES = [
    "dragonfly:3,1;2,1;3,1;2",  # several chassis and routers: SimGrid's routes within a group from chassis 1
    "dragonfly:4,2;3,3;4,2;2",  # parallel cables at every level, folded into bandwidth
    "dragonfly:2,1;4,1;3,1;3",
    "dragonfly:5,1;1,1;6,1;1",  # one chassis per group
]


def routes_differ(tmp_path, spec):
    net = plat.simulated_network(spec)
    assert net.spec == spec
    routing = _core.make_routing(plat.routing_of(net), net)
    assert routing.name == "simgrid"
    xml, hosts = plat.write_platform(net, tmp_path / "p.xml")
    assert hosts.read_text().split() == [f"node-{v}" for v in net.endpoints]
    n = net.num_endpoints
    simgrid = smpi.simgrid_routes(xml, [f"node-{v}" for v in range(n)])
    pairs = [(a, b) for a in range(n) for b in range(n) if a != b]
    assert len(simgrid) == len(pairs)
    return [(a, b) for a, b in pairs
            if simgrid[(f"node-{a}", f"node-{b}")] != [net.link_name(l) for l in routing.route(a, b)]], len(pairs)


@pytest.mark.parametrize("spec", FAT_TREES + DRAGONFLIES)
def test_simgrid_routes_equal_the_core_model_for_every_pair(tmp_path, spec):
    different, pairs = routes_differ(tmp_path, spec)
    assert not different, f"{len(different)} of {pairs} routes differ, e.g. {different[:3]}"


def test_platform_is_simgrids_own_cluster_with_one_cable_of_bandwidth(optiq_cli, tmp_path):
    out = optiq_cli("platform", "--topology", "dragonfly:4,2;3,3;4,2;2", "--link-bandwidth", "2e9",
                    "--out", tmp_path / "d.xml")
    assert "--topology dragonfly:4,2;3,3;4,2;2 --routing simgrid" in out.stdout
    xml = (tmp_path / "d.xml").read_text()
    # SimGrid multiplies the cable counts itself, as the network does.
    assert 'topology="DRAGONFLY" topo_parameters="4,2;3,3;4,2;2"' in xml and 'bw="2e+09Bps"' in xml
    net = _core.parse_network("dragonfly:4,2;3,3;4,2;2", 2e9)
    assert sorted({net.capacity(l) for l in range(net.num_links)}) == [2e9, 4e9, 6e9]
    optiq_cli("platform", "--topology", "fattree: 2;4,4 ;1,2;1,2", "--out", tmp_path / "f.xml")
    assert 'topology="FAT_TREE" topo_parameters="2;4,4;1,2;1,2"' in (tmp_path / "f.xml").read_text()
    assert (tmp_path / "f.hosts").read_text().split() == [f"node-{i}" for i in range(16)]
    bad = optiq_cli("platform", "--topology", "dragonfly:3,1;2,1;2,1;2", "--out", tmp_path / "x.xml", check=False)
    assert bad.returncode == 2 and "3 groups but 2 routers per chassis" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1


def test_plan_refuses_simgrids_unplannable_routes_and_names_the_way_out(optiq_cli):
    bad = optiq_cli("plan", "--topology", "fattree:2;4,4;1,2;1,2", "--routing", "simgrid", "--planner", "heu2",
                    check=False)
    assert bad.returncode == 2 and "--routing dmodk" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1
    bad = optiq_cli("plan", "--topology", "dragonfly:3,1;2,1;3,1;2", "--routing", "simgrid", "--planner", "default",
                    check=False)
    assert bad.returncode == 2 and "--routing minimal" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("spec", ["fattree:2;4,4;1,2;1,2", "dragonfly:3,1;2,1;3,1;2", "dragonfly:5,1;2,1;5,1;2"])
def test_the_default_routing_plans_on_every_fabric(optiq_cli, spec):
    """A fat-tree with parallel cables, dragonflies with several chassis: no option needed."""
    doc = json.loads(optiq_cli("plan", "--topology", spec, "--pattern", "random", "--bytes", "1MiB",
                               "--planner", "default,mcf", "--json", "--quiet").stdout)
    assert doc["routing"] == ("dmodk" if spec.startswith("fattree") else "minimal")
    runs = {r["planner"]: r for r in doc["results"]}
    assert runs["mcf"]["metrics"]["link_bytes_max"] <= runs["default"]["metrics"]["link_bytes_max"]


def test_fabrics_plan_with_every_routing_that_can(optiq_cli):
    for spec, routing in (("fattree:2;4,4;1,2;1,2", "dmodk"), ("dragonfly:3,1;2,1;3,1;2", "minimal"),
                          ("fattree:3;4,4,4;1,4,4;1,1,1", "simgrid"), ("dragonfly:5,1;1,1;6,1;1", "simgrid")):
        doc = json.loads(optiq_cli("plan", "--topology", spec, "--routing", routing, "--pattern", "random",
                                   "--bytes", "1MiB", "--planner", "default,heu2,mcf", "--json", "--quiet").stdout)
        assert doc["routing"] == routing
        runs = {r["planner"]: r for r in doc["results"]}
        assert runs["mcf"]["metrics"]["link_bytes_max"] <= runs["default"]["metrics"]["link_bytes_max"]


def test_a_fat_tree_simulates_end_to_end_with_a_request_file(optiq_cli, tmp_path):
    requests = tmp_path / "jobs.txt"
    requests.write_text("# three jobs on one leaf's uplinks\n0 4 1MiB\n1 8 1MiB\n2 12 1MiB\n3 3 64KiB\n")
    doc = json.loads(optiq_cli("simulate", "--topology", "fattree:2;4,4;1,4;1,1", "--requests", requests,
                               "--planner", "default,mcf", "--message-overhead", "0", "--json", "--quiet").stdout)
    assert doc["requests"] == str(requests) and doc["pattern"] is None and doc["routing"] == "simgrid"
    runs = {r["planner"]: r for r in doc["results"]}
    assert all(r["verified"] is True for r in runs.values())
    # The default plan is SimGrid's own routes: its prediction is the simulated time.
    assert runs["default"]["simulated_seconds"] == pytest.approx(runs["default"]["predicted_seconds"], rel=0.02)
    assert runs["mcf"]["predicted_seconds"] < runs["default"]["predicted_seconds"]


def test_a_dragonfly_simulates_with_the_documented_routes(optiq_cli):
    doc = json.loads(optiq_cli("simulate", "--topology", "dragonfly:3,1;2,1;3,1;2", "--routing", "minimal",
                               "--pattern", "random", "--bytes", "1MiB", "--planner", "default,mcf",
                               "--message-overhead", "0", "--json", "--quiet").stdout)
    assert doc["routing"] == "minimal"
    assert all(r["verified"] is True for r in doc["results"])


def test_simulate_reads_request_files_as_plan_does(optiq_cli, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("0 99 1MiB\n")
    for command in ("plan", "simulate"):
        out = optiq_cli(command, "--topology", "torus:4x4", "--requests", bad, "--quiet", check=False)
        assert out.returncode == 2 and "99" in out.stderr and len(out.stderr.strip().splitlines()) == 1
    switch = tmp_path / "switch.txt"
    switch.write_text("0 16 1MiB\n")  # vertex 16 is the first leaf switch
    out = optiq_cli("simulate", "--topology", "fattree:2;4,4;1,4;1,1", "--requests", switch, "--quiet", check=False)
    assert out.returncode == 2 and "is a switch" in out.stderr
    both = optiq_cli("simulate", "--topology", "torus:4x4", "--requests", bad, "--pattern", "subset", check=False)
    assert both.returncode == 2 and "not allowed with" in both.stderr
    good = tmp_path / "good.txt"
    good.write_text("0 5 256KiB\n5 0 256KiB\n")
    doc = json.loads(optiq_cli("simulate", "--topology", "torus:4x4", "--requests", good, "--planner", "default",
                               "--json", "--quiet").stdout)
    assert all(r["verified"] is True for r in doc["results"])
    assert doc["results"][0]["link_bytes_max"] == 256 * 1024


def test_a_pattern_that_cannot_gain_runs_on_the_default_route(optiq_cli, tmp_path):
    """Each host to the same host of the next pod: D-mod-k sends every message up its own link,
    so no plan beats the default route. heu1's plan is worse and mcf's only as good: both fall
    back and run as fast as MPI_Alltoallv; with --min-gain 0, heu1's plan runs and is slower."""
    shift = tmp_path / "shift.txt"
    shift.write_text("".join(f"{i} {(i + 4) % 16} 2MiB\n" for i in range(16)))
    common = ["--topology", "fattree:2;4,4;1,4;1,1", "--requests", shift, "--json", "--quiet"]
    runs = {r["planner"]: r for r in json.loads(optiq_cli("simulate", *common, "--planner", "heu1,mcf").stdout)["results"]}
    mpi = runs["mpi_alltoallv"]["simulated_seconds"]
    for planner in ("heu1", "mcf"):
        r = runs[planner]
        assert r["fell_back"] is True and r["forwarded_bytes"] == 0 and r["verified"] is True, planner
        assert r["simulated_seconds"] <= 1.05 * mpi, planner
    forced = json.loads(optiq_cli("simulate", *common, "--planner", "heu1", "--min-gain", "0").stdout)["results"][1]
    assert forced["fell_back"] is False and forced["forwarded_bytes"] > 0
    assert forced["predicted_seconds"] > runs["heu1"]["predicted_seconds"]
    bad = optiq_cli("simulate", *common, "--min-gain", "1", check=False)
    assert bad.returncode == 2 and "--min-gain" in bad.stderr
