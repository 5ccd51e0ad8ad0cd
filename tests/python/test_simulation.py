"""SimGrid simulation: platform routes equal the core's 'simgrid' model; a small case end to end."""

import json
import subprocess
import types

import pytest

from optiq import _core
from optiq.simulation import platform as plat
from optiq.simulation import smpi


def core_and_simgrid_routes(tmp_path, spec, stride=1):
    topo = plat.simulated_network(spec)
    layout = plat.Layout.of(topo)
    routing = _core.make_routing(plat.ROUTING, topo)
    xml, _ = plat.write_platform(topo, tmp_path / "p.xml")
    sources = list(range(0, topo.num_endpoints, stride))
    simgrid = smpi.simgrid_routes(xml, [layout.host(s) for s in sources])
    pairs = [(s, d) for s in sources for d in range(topo.num_endpoints) if s != d]
    core = {(s, d): [layout.link_name(link) for link in routing.route(s, d)] for s, d in pairs}
    return {(s, d): simgrid[(layout.host(s), layout.host(d))] for s, d in pairs}, core


@pytest.mark.parametrize("spec", ["torus:4x8x2", "torus:5x6x3", "bgq:2x2x4x4x2", "torus:6"])
def test_simgrid_routes_equal_the_core_model_for_every_pair(tmp_path, spec):
    simgrid, core = core_and_simgrid_routes(tmp_path, spec)
    different = [pair for pair in core if simgrid[pair] != core[pair]]
    assert not different, f"{len(different)} of {len(core)} routes differ, e.g. {different[:3]}"


def test_simgrid_routes_equal_the_core_model_on_mira_1024(tmp_path):
    simgrid, core = core_and_simgrid_routes(tmp_path, "mira:1024", stride=41)
    assert len(core) == 25 * 1023
    assert all(simgrid[pair] == core[pair] for pair in core)


def test_every_link_name_is_a_distinct_simgrid_link(tmp_path):
    topo = plat.simulated_network("bgq:2x2x4x4x2")
    layout = plat.Layout.of(topo)
    names = [layout.link_name(link) for link in range(topo.num_links)]
    assert len(set(names)) == len(names) == topo.num_links


def test_simulated_network_keeps_nodes_and_makes_size_two_rings_lines():
    topo = plat.simulated_network("bgq:4x4x4x8x2")
    assert topo.spec == "torus:4x4x4x8x2m" and topo.num_endpoints == 1024
    assert topo.num_links == 1024 * 9  # E has one cable, used both ways
    with pytest.raises(_core.Error, match="not a ring"):
        plat.simulated_network("mesh:4x4")


def test_the_torus_layout_needs_a_torus():
    not_a_torus = types.SimpleNamespace(torus=None, spec="graph:x.json")  # what a non-torus network reports
    with pytest.raises(_core.Error, match="^the SimGrid platform writer needs a torus or mesh network"):
        plat.Layout.of(not_a_torus)


def explicit_network(tmp_path, spec):
    if spec.startswith("random"):
        from optiq.random_graph import random_switched_graph

        path = tmp_path / "net.json"
        path.write_text(json.dumps(random_switched_graph(7, 12, 4, seed=int(spec[6:]), dual_homed=0.3)))
        spec = f"graph:{path}"
    return plat.simulated_network(spec)


@pytest.mark.parametrize("spec", ["random1", "random2", "bgq:4x4x2x2x2+io"])
def test_explicit_platform_routes_equal_the_model_for_every_pair(tmp_path, spec):
    net = explicit_network(tmp_path, spec)
    assert net.torus is None
    routing = _core.make_routing(plat.routing_of(net), net)
    xml, hosts = plat.write_platform(net, tmp_path / "p.xml")
    vertices = plat.hosts_of(net)
    simgrid = smpi.simgrid_routes(xml, [f"node-{v}" for v in vertices])
    pairs = [(a, b) for a in vertices for b in vertices if a != b]
    assert len(simgrid) == len(pairs)
    different = [(a, b) for a, b in pairs
                 if simgrid[(f"node-{a}", f"node-{b}")] != [net.link_name(l) for l in routing.route(a, b)]]
    assert not different, f"{len(different)} of {len(pairs)} routes differ, e.g. {different[:3]}"
    assert hosts.read_text().split() == [f"node-{v}" for v in net.endpoints]


def test_a_library_platform_of_more_hosts_than_a_route_list_could_hold_routes_as_the_model(tmp_path):
    # 4,128 hosts: 17 million routes, which a platform listing them could not hold; the library
    # computes the ones asked for.
    net = plat.simulated_network("mira:4096+io")
    platform, hosts = plat.write_platform(net, tmp_path / "p.xml")
    assert platform.suffix == ".so" and len(plat.hosts_of(net)) == 4128
    assert platform.with_suffix(".net").stat().st_size < 10_000  # capacities as runs, not one line per link
    routing = _core.make_routing(plat.routing_of(net), net)
    sources = [0, 1234, 4095, 4096, 4127]  # compute nodes and I/O nodes
    simgrid = smpi.simgrid_routes(platform, [f"node-{v}" for v in sources])
    vertices = plat.hosts_of(net)
    for a in sources:
        for b in vertices[::97] + sources:
            if a != b:
                assert simgrid[(f"node-{a}", f"node-{b}")] == [net.link_name(l) for l in routing.route(a, b)]


def test_a_library_platform_refuses_a_description_of_another_network(tmp_path):
    net = plat.simulated_network("bgq:4x4x2x2x2+io")
    platform, _ = plat.write_platform(net, tmp_path / "p.xml")
    description = platform.with_suffix(".net")
    description.write_text(description.read_text().replace("spec bgq:4x4x2x2x2+io", "spec bgq:4x4x2x2x4+io"))
    with pytest.raises(subprocess.CalledProcessError) as failed:
        smpi.simgrid_routes(platform, ["node-0"])
    assert "is not the network the platform was written for" in failed.value.stderr


def test_a_switched_network_simulates_end_to_end(optiq_cli, tmp_path):
    net = explicit_network(tmp_path, "random3")
    # --min-gain 0: mcf's plan runs even where it promises little, so that forwarding is exercised.
    out = optiq_cli("simulate", "--topology", net.spec, "--pattern", "random", "--bytes", "1MiB",
                    "--planner", "default,mcf", "--message-overhead", "0", "--min-gain", "0", "--json")
    runs = {x["planner"]: x for x in json.loads(out.stdout)["results"]}
    assert set(runs) == {"mpi_alltoallv", "default", "mcf"}
    assert all(x["verified"] is True for x in runs.values())
    # The default plan is MPI's own routes: the same simulated time within a microsecond (with
    # no per-message charge: optiq's few small control messages would add 0.4 us each).
    assert runs["default"]["simulated_seconds"] == pytest.approx(runs["mpi_alltoallv"]["simulated_seconds"], abs=1e-6)
    assert runs["mcf"]["forwarded_bytes"] > 0


def test_platform_command_writes_platform_and_hostfile(optiq_cli, tmp_path):
    out = optiq_cli("platform", "--topology", "mira:512", "--out", tmp_path / "m.xml")
    assert "--topology torus:4x4x4x4x2m --routing simgrid" in out.stdout
    assert 'topo_parameters="4,4,4,4,2"' in (tmp_path / "m.xml").read_text()
    hosts = (tmp_path / "m.hosts").read_text().split()
    assert len(hosts) == 512 and len(set(hosts)) == 512
    bad = optiq_cli("platform", "--topology", "mesh:4x4", "--out", tmp_path / "x.xml", check=False)
    assert bad.returncode == 2 and "not a ring" in bad.stderr


@pytest.mark.parametrize("pattern", ["disjoint", "subset"])  # subset: one node sends to itself
def test_small_simulation_end_to_end(optiq_cli, pattern):
    """64 simulated nodes: every byte checked, the default route's time equals its prediction, and
    no run beats its plan's fluid bound (the busiest link must carry its bytes)."""
    out = optiq_cli("simulate", "--topology", "torus:4x4x4", "--pattern", pattern, "--bytes", "512KiB",
                    "--planner", "default,heu2,mcf", "--json", "--quiet")
    doc = json.loads(out.stdout)
    runs = {r["planner"]: r for r in doc["results"]}
    assert list(runs) == ["mpi_alltoallv", "default", "heu2", "mcf"]
    for r in runs.values():
        assert set(r) >= {"planner", "simulated_seconds", "throughput", "predicted_seconds", "wall_seconds"}
        assert r["verified"] is True
        assert r["simulated_seconds"] >= r["predicted_seconds"] * (1 - 1e-6)
    for name in ("mpi_alltoallv", "default"):
        assert runs[name]["simulated_seconds"] == pytest.approx(runs[name]["predicted_seconds"], rel=0.02)
    for name in ("heu2", "mcf"):
        assert runs[name]["predicted_seconds"] < runs["default"]["predicted_seconds"] / 2
        assert runs[name]["simulated_seconds"] < runs["mpi_alltoallv"]["simulated_seconds"] / 1.5
        assert runs[name]["forwarded_bytes"] > 0


def test_simulate_rejects_bad_input(optiq_cli):
    bad = optiq_cli("simulate", "--topology", "mesh:4x4", "--quiet", check=False)
    assert bad.returncode == 2 and "not a ring" in bad.stderr
    bad = optiq_cli("simulate", "--topology", "torus:4x4", "--planner", "magic", check=False)
    assert bad.returncode == 2 and "unknown planner" in bad.stderr


def test_p2p_baseline_takes_the_simulated_time_of_mpi_alltoallv(optiq_cli):
    times = {}
    for call in ("alltoallv", "p2p"):
        out = optiq_cli("simulate", "--topology", "torus:4x4x2", "--pattern", "overlap", "--bytes", "1MiB",
                        "--planner", "default", "--mpi-call", call, "--json", "--quiet")
        (mpi,) = [r for r in json.loads(out.stdout)["results"] if r["planner"] == "mpi_alltoallv"]
        assert mpi["verified"] is True
        assert mpi["mpi_call"] == {"alltoallv": "MPI_Alltoallv", "p2p": "MPI_Isend/MPI_Irecv"}[call]
        times[call] = mpi["simulated_seconds"]
    assert times["p2p"] == pytest.approx(times["alltoallv"], rel=0.01)


def test_copies_are_charged_at_junctions_only():
    """The runtime copies where a path's default-route legs meet, not at every node it crosses."""
    net = _core.parse_network("torus:4x4")
    straight = [net.link_named("0:B+"), net.link_named("1:B+")]                       # 0 -> 1 -> 2: one leg
    turning = [net.link_named("0:B+"), net.link_named("1:A+")]                        # 0 -> 1 -> 5: dor goes A first
    plan = _core.Plan(net.spec, "dor", "x", [_core.JobPlan(_core.Job(0, 2, 7), [_core.PathShare(straight, 7)]),
                                             _core.JobPlan(_core.Job(0, 5, 9), [_core.PathShare(turning, 9)])])
    copied = _core.copy_loads(plan, net)
    assert copied[1] == 9 and sum(copied) == 9


def test_charged_copies_slow_forwarding_plans_as_predicted(optiq_cli):
    planner = "heu2"

    # Eager dispatch keeps the copier's queue full from the start, so the run measures the charge
    # itself; paced, a plan whose copier must copy without a pause from start to end loses more
    # (docs/simulation.md, "Dispatch that meets the plan"). --min-gain 0: the plan runs even where
    # slow copies make it lose to the default route, which is what is measured.
    def run(*extra):
        out = optiq_cli("simulate", "--topology", "torus:4x4x2", "--pattern", "disjoint", "--bytes", "256KiB",
                        "--planner", planner, "--dispatch", "eager", "--min-gain", "0", "--json", *extra)
        return {x["planner"]: x for x in json.loads(out.stdout)["results"]}

    free, slow = run("--copy-bandwidth", "inf"), run("--copy-bandwidth", "1e8")
    assert free[planner]["forwarded_bytes"] > 0
    # The MPI baseline forwards nothing: copies cost it nothing.
    assert slow["mpi_alltoallv"]["simulated_seconds"] == pytest.approx(free["mpi_alltoallv"]["simulated_seconds"])
    # Copy-bound at 100 MB/s: the plan takes as long as its busiest copier, as predicted.
    assert slow[planner]["simulated_seconds"] > 5 * free[planner]["simulated_seconds"]
    assert slow[planner]["simulated_seconds"] == pytest.approx(slow[planner]["predicted_seconds"], rel=0.1)
    # The default charges the measured copy rate: between free copies and 100 MB/s.
    charged = run()[planner]["simulated_seconds"]
    assert free[planner]["simulated_seconds"] < charged < slow[planner]["simulated_seconds"]


def test_message_overhead_is_charged_per_message(optiq_cli):
    # Eager: paced, part of the overhead hides in the time a rank waits for a chunk to be due.
    def optiq_seconds(*extra):
        out = optiq_cli("simulate", "--topology", "torus:4x4x2", "--pattern", "disjoint", "--bytes", "64KiB",
                        "--planner", "heu2", "--chunk", "4KiB", "--dispatch", "eager", "--json", *extra)
        return {x["planner"]: x for x in json.loads(out.stdout)["results"]}["heu2"]["simulated_seconds"]

    # Dozens of chunks, at least ten of them one after another on the slowest rank's path.
    assert optiq_seconds("--message-overhead", "1e-4") > optiq_seconds("--message-overhead", "0") + 0.9e-3


def test_one_sided_transport_keeps_pace_with_two_sided():
    """rma fetches every chunk with MPI_Rget once its holder announces it and never waits for
    remote completion: forwarding plans must run about as fast as on p2p, bytes checked."""
    from optiq.simulation.experiment import Setup, simulate

    runs = {}
    for transport in ("p2p", "rma"):
        rows = simulate(Setup("torus:4x4x2", pattern="disjoint", bytes="2MiB", runtime={"transport": transport}), ["heu2"])
        (run,) = [r for r in rows if r["planner"] == "heu2"]
        assert run["verified"] is True and run["forwarded_bytes"] > 0
        runs[transport] = run["simulated_seconds"]
    assert runs["rma"] <= 1.11 * runs["p2p"]


def test_one_sided_forwarders_pass_chunks_on_while_they_copy():
    """A forwarder with a backlog copies chunk after chunk. Under rma each chunk leaves with an
    announce and arrives by a get the forwarder itself issues: if both waited for the end of the
    backlog, the chains behind the forwarder would stall (before the transport's progress
    between copies, this run took rma 1.49x p2p's time; after it, 1.01x). Since gets wait in a
    per-holder queue (at most 256 KiB in flight), those that queue behind a forwarder's backlog
    start only at its next poll: 1.05x here, with copies at 1 GB/s."""
    from optiq.simulation.experiment import Setup, simulate

    runs = {}
    for transport in ("p2p", "rma"):
        setup = Setup("bgq:2x2x4x2x2", pattern="overlap", copy_bandwidth=1e9, runtime={"chunk": "128KiB", "transport": transport})
        (run,) = [r for r in simulate(setup, ["mcf"]) if r["planner"] == "mcf"]
        assert run["verified"] is True and run["forwarded_bytes"] > 0
        runs[transport] = run["simulated_seconds"]
    assert runs["rma"] <= 1.1 * runs["p2p"]


def test_plan_files_state_their_prediction_and_both_dispatches_deliver(optiq_cli, tmp_path):
    """The executed plan file carries the prediction as the time the runtime paces it to, and
    paced and eager dispatch both move every byte (checked by the driver)."""
    for dispatch in ("paced", "eager"):
        out = optiq_cli("simulate", "--topology", "torus:4x4x2", "--pattern", "disjoint", "--bytes", "256KiB",
                        "--planner", "heu2", "--dispatch", dispatch, "--plans-dir", str(tmp_path / dispatch), "--json")
        r = {x["planner"]: x for x in json.loads(out.stdout)["results"]}["heu2"]
        assert r["verified"] is True and r["forwarded_bytes"] > 0
        plan = json.loads((tmp_path / dispatch / "heu2.json").read_text())
        assert plan["seconds"] == r["predicted_seconds"] > 0
