"""`optiq simulate --ranks-per-node`: exchanges between ranks, several per node, planned by the
simulated runtime, with and without node aggregation (SimGrid SMPI)."""

import json

import pytest

TOPOLOGY = "torus:2x2x2"


@pytest.fixture(scope="module")
def ocn(tmp_path_factory, optiq_cli):
    d = tmp_path_factory.mktemp("cesm")
    by_rank, by_node = d / "rank.txt", d / "node.txt"
    for by, out in (("rank", by_rank), ("node", by_node)):
        optiq_cli("workload", "cesm", "--coupling", "ocn", "--topology", TOPOLOGY, "--ranks-per-node", "2",
                  "--by", by, "--out", out)
    return by_rank, by_node


def simulate(optiq_cli, requests, *extra):
    proc = optiq_cli("simulate", "--topology", TOPOLOGY, "--requests", requests, "--ranks-per-node", "2",
                     "--planner", "default,mcf", "--json", "--quiet", *extra)
    return json.loads(proc.stdout)


@pytest.mark.parametrize("aggregate", [False, True])
def test_rank_exchanges_verify_and_predict_like_the_node_plan(optiq_cli, ocn, aggregate):
    by_rank, by_node = ocn
    doc = simulate(optiq_cli, by_rank, *(["--aggregate-node"] if aggregate else []))
    assert doc["ranks_per_node"] == 2 and doc["aggregate_node"] is aggregate
    runs = {r["planner"]: r for r in doc["results"]}
    assert all(r["verified"] is True and r["ranks"] == 16 for r in runs.values())
    # An independent figure: the node-level file planned by `optiq plan` on the default route.
    node_plan = json.loads(optiq_cli("plan", "--topology", TOPOLOGY, "--routing", "simgrid", "--requests", by_node,
                                     "--planner", "default", "--json", "--quiet").stdout)["results"][0]["metrics"]
    assert runs["mpi_alltoallv"]["predicted_seconds"] == pytest.approx(node_plan["predicted_seconds"], rel=1e-9)
    mcf = runs["mcf"]
    assert mcf["predicted_seconds"] <= runs["default"]["predicted_seconds"] * (1 + 1e-9)
    assert mcf["simulated_seconds"] < runs["mpi_alltoallv"]["simulated_seconds"]
    if aggregate:
        assert mcf["aggregated_operations"] == 2  # the warm-up call and the timed one
        assert runs["default"]["planned_jobs"] == node_plan["paths"]  # one job per pair of nodes
    else:
        assert mcf["aggregated_operations"] == 0
        assert runs["default"]["planned_jobs"] > node_plan["paths"]


def test_rank_simulations_need_a_request_file(optiq_cli):
    proc = optiq_cli("simulate", "--topology", TOPOLOGY, "--ranks-per-node", "2", "--planner", "mcf", check=False)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    assert "needs --requests" in proc.stderr
