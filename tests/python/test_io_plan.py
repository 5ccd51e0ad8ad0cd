"""optiq io-plan: aggregator placement and both phases of two-phase I/O, checked against
independent computations (hop distances, a brute-force C1 + C2, byte totals)."""

import json

import pytest

from optiq import _core
from optiq.aggregation import io_data, io_groups

PSET = "bgq:2x4x4x4x1+io"  # one pset: 128 nodes, bridges 0 and 64, I/O node 128


def plan_json(optiq_cli, *args):
    return json.loads(optiq_cli("io-plan", "--json", "--quiet", *args).stdout)


def test_json_has_one_row_per_placement_and_planner_with_consistent_times(optiq_cli):
    doc = plan_json(optiq_cli, "--topology", "mira:512+io", "--ranks-per-node", "4", "--data", "uniform:0:2MiB",
                    "--seed", "5", "--placement", "greedy,shortest,longest,romio-bgq,topology-aware",
                    "--planner", "default,heu2,mcf,maxflow")
    assert doc["io_nodes"] == ["io0", "io1", "io2", "io3"]
    rows = doc["results"]
    assert [(r["placement"], r["planner"]) for r in rows] == [
        (p, q) for p in ("greedy", "shortest", "longest", "romio-bgq", "topology-aware")
        for q in ("default", "heu2", "mcf", "maxflow")]
    data = io_data(512, 4, "uniform:0:2MiB", 1.0, 5)
    assert doc["bytes"] == data.total_bytes
    for r in rows:
        a, w, t = r["aggregation_seconds"], r["io_seconds"], r["total_seconds"]
        assert max(a, w) <= t <= a + w + 1e-15
        # Each I/O node takes a quarter of the bytes over its two bridge links at best.
        assert w >= doc["bytes"] / 4 / (2 * 1.8e9) * 0.999
        assert r["link_bytes_max"] > 0
    by = {(r["placement"], r["planner"]): r for r in rows}
    for p in ("greedy", "topology-aware", "romio-bgq"):
        assert by[(p, "mcf")]["aggregation_seconds"] <= by[(p, "default")]["aggregation_seconds"]


def test_same_seed_same_answer_other_seed_other_data(optiq_cli):
    args = ["--topology", PSET, "--data", "pareto:1.5:64KiB:4MiB", "--holders", "0.2", "--planner", "default",
            "--placement", "greedy,topology-aware"]
    def answer(seed):
        doc = plan_json(optiq_cli, *args, "--seed", seed)
        for r in doc["results"]:
            del r["placement_seconds"]  # wall time
        return doc

    first = answer("3")
    assert answer("3") == first
    assert answer("4")["bytes"] != first["bytes"]


def test_topology_aware_minimises_c1_plus_c2_computed_independently():
    net = _core.parse_network(PSET)
    routing = _core.make_routing("bgq", net)
    bw = net.capacity(0)
    for seed in (1, 2, 3):
        data = io_data(128, 1, "uniform:1:1MiB", 0.3, seed)
        (group,) = io_groups(net, routing, data)
        aggregators = 6
        span, totals, held = _core.file_domains(group, aggregators)
        chosen = _core.place_aggregators("topology-aware", net, routing, group, aggregators)
        used = set()
        for k, total in enumerate(totals):
            def cost(a):
                c1 = max((_core.HOP_LATENCY * net.hop_distance(n, a) + b / bw
                          for n, b in zip(group.nodes, held[k]) if b and n != a), default=0.0)
                return c1 + _core.HOP_LATENCY * net.hop_distance(a, group.io) + total / bw
            pool = [n for n, b in zip(group.nodes, held[k]) if b and n not in used] or \
                [n for n in group.nodes if n not in used]
            best = min(pool, key=lambda n: (cost(n), n))
            assert chosen[k] == best, (seed, k)
            used.add(best)


def test_flow_aware_is_never_slower_than_any_other_placement_under_its_planner(optiq_cli):
    # Few holders, few domains: flow-aware tries every placement onto holders.
    doc = plan_json(optiq_cli, "--topology", PSET, "--ranks-per-node", "2", "--data", "uniform:64KiB:4MiB",
                    "--holders", "0.1", "--seed", "9", "--aggregators", "4", "--buffer", "1MiB",
                    "--planner", "mcf")
    totals = {r["placement"]: r["total_seconds"] for r in doc["results"]}
    assert set(totals) == set(_core.placement_names())
    assert totals["flow-aware"] <= min(totals.values()) * (1 + 1e-9)


def test_hacc_layouts_move_the_same_bytes_soa_to_more_aggregators():
    net = _core.parse_network(PSET)
    routing = _core.make_routing("bgq", net)
    jobs = {}
    for layout in ("aos", "soa"):
        data = io_data(128, 8, "uniform:18400:21000", 1.0, 1, hacc="uniform:18400:21000", layout=layout)
        groups = io_groups(net, routing, data)
        assert sum(g.file_bytes for g in groups) == data.total_bytes == sum(data.rank_items) * 38
        placements = [_core.place_aggregators("greedy", net, routing, g) for g in groups]
        jobs[layout] = _core.aggregation_jobs(groups, placements)
    assert sum(j.bytes for j in jobs["aos"][1]) == sum(j.bytes for j in jobs["soa"][1])
    assert len(jobs["soa"][0]) > 2 * len(jobs["aos"][0])  # each node's variables land in several domains


def test_out_writes_a_valid_aggregation_plan_and_plot_draws(optiq_cli, tmp_path):
    out, png = tmp_path / "agg.json", tmp_path / "psets.png"
    proc = optiq_cli("io-plan", "--topology", "mira:512+io", "--ranks-per-node", "2", "--placement", "topology-aware",
                     "--planner", "mcf", "--out", out, "--plot", png, "--quiet")
    assert "plan written" in proc.stdout
    net = _core.parse_network("mira:512+io")
    plan = _core.load_plan(str(out))
    _core.validate_plan(plan, net)
    assert all(jp.job.dst < 512 and jp.job.src != jp.job.dst for jp in plan.jobs)
    assert png.stat().st_size > 1000


@pytest.mark.parametrize("args, message", [
    (["--aggregators", "0"], "--aggregators"),
    (["--topology", PSET, "--aggregators", "129"], "at most one aggregator per node"),
    (["--topology", "mira:512"], "has no I/O nodes"),
    (["--io-nodes", "io7"], "is not an I/O node"),
    (["--io-nodes", "5"], "is not an I/O node"),
    (["--data", "-1MiB"], "--data"),
    (["--buffer", "0"], "--buffer"),
    (["--placement", "nearest"], "unknown placement"),
    (["--planner", "opt"], "unknown planner"),
    (["--layout", "soa"], "needs --hacc"),
    (["--out", "x.json"], "single --placement"),
])
def test_bad_input_exits_2_in_one_line(optiq_cli, args, message):
    proc = optiq_cli("io-plan", "--topology", "mira:512+io", *args, check=False)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], proc.stderr


def test_simulation_runs_ranks_on_the_io_nodes_and_delivers_every_byte(optiq_cli, tmp_path):
    """Jobs into and out of an I/O node: the simulation gives each I/O node a rank after the
    endpoints' and checks every byte; multi-path beats the one bridge a default route takes."""
    requests = tmp_path / "io.txt"
    # Two nodes near bridge 0 write 2 MiB each to the I/O node; it reads 512 KiB back to node 3.
    requests.write_text("1 128 2097152\n2 128 2097152\n128 3 524288\n9 40 65536\n")
    doc = json.loads(optiq_cli("simulate", "--topology", PSET, "--requests", requests, "--planner", "default,mcf",
                               "--json", "--quiet").stdout)
    rows = {r["planner"]: r for r in doc["results"]}
    assert all(r["verified"] is True for r in rows.values())
    assert rows["mcf"]["simulated_seconds"] < 0.8 * rows["default"]["simulated_seconds"]
    assert rows["mcf"]["simulated_seconds"] > 0.8 * rows["mcf"]["predicted_seconds"]
