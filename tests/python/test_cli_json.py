"""Every command that takes --json, with every planner it accepts: standard output is exactly one
JSON document. Anything else written there (a solver's banner, a warning, progress) breaks the
parse, so these cases guard what keeps native libraries off the document."""

import json

import pytest

import optiq
from optiq.evaluate import planner_names

SMALL = ["--topology", "torus:2x2x2", "--bytes", "256KiB"]
PLANNERS = planner_names()


def document(proc):
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)  # the whole of stdout, or it raises


def test_every_planner_is_covered():
    assert set(PLANNERS) == {"default", "heu1", "heu2", "opt", "optimal", "mcf", "maxflow"}


@pytest.mark.parametrize("planner", PLANNERS)
def test_plan_and_show(optiq_cli, tmp_path, planner):
    out = tmp_path / "plan.json"
    doc = document(optiq_cli("plan", *SMALL, "--planner", planner, "--out", out, "--json", check=False))
    assert [r["planner"] for r in doc["results"]] == [planner]
    shown = document(optiq_cli("show", out, "--json", check=False))
    assert shown["planner"] == planner
    assert shown["metrics"] == doc["results"][0]["metrics"]


@pytest.mark.parametrize("planner", PLANNERS)
def test_simulate(optiq_cli, planner):
    doc = document(optiq_cli("simulate", *SMALL, "--planner", planner, "--json", check=False))
    assert [r["planner"] for r in doc["results"]] == ["mpi_alltoallv", planner]
    assert all(r["verified"] is True for r in doc["results"])


@pytest.mark.parametrize("planner", optiq.planner_names())
def test_run_online(optiq_cli, planner):
    doc = document(optiq_cli("run", "--np", "8", *SMALL, "--pattern", "disjoint", "--planner", planner,
                             "--iterations", "1", "--warmup", "0", "--json", check=False))
    assert doc["planner"] == planner and doc["verified"] is True


@pytest.mark.parametrize("planner", sorted(set(PLANNERS) - set(optiq.planner_names())))
def test_run_plan_file(optiq_cli, tmp_path, planner):
    """Planners the runtime does not have run from their plan file."""
    out = tmp_path / "plan.json"
    optiq_cli("plan", *SMALL, "--planner", planner, "--out", out, "--quiet")
    doc = document(optiq_cli("run", "--np", "8", "--topology", "torus:2x2x2", "--plan", out, "--iterations", "1",
                             "--warmup", "0", "--json", check=False))
    assert doc["plan"] == str(out) and doc["verified"] is True


@pytest.mark.parametrize("where", [["--np", "2"], ["--simulate", "--topology", "torus:2x2x2"]])
def test_exchange(optiq_cli, where):
    doc = document(optiq_cli("exchange", *where, "--neighbors", "1", "--bytes", "1KiB", "--protocol",
                             "nbx,pcx,pex,rsx,auto", "--iterations", "1", "--warmup", "0", "--json", check=False))
    assert [p["protocol"] for p in doc["protocols"]] == ["nbx", "pcx", "pex", "rsx", "auto"]
    assert doc["verified"] is True


def test_every_json_command_is_covered():
    """A command that gains --json must join the cases above."""
    from optiq.cli import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    with_json = {name for name, p in commands.items() if any("--json" in a.option_strings for a in p._actions)}
    assert with_json == {"plan", "show", "simulate", "run", "exchange", "io-plan", "io-bench", "fft", "options"}


def test_options(optiq_cli):
    doc = document(optiq_cli("options", "--layer", "planner", "--json"))
    assert [r["name"] for r in doc["planner"]][:2] == ["k", "hop-bound"]
    assert doc["planner"][0]["default"] == "50" and doc["planner"][0]["kind"] == "integer"


@pytest.mark.parametrize("planner", ["default", "heu2", "mcf", "maxflow"])
def test_io_plan(optiq_cli, planner):
    doc = document(optiq_cli("io-plan", "--topology", "bgq:2x4x4x4x1+io", "--ranks-per-node", "2", "--aggregators",
                             "4", "--placement", "greedy,topology-aware", "--planner", planner, "--json", check=False))
    assert [(r["placement"], r["planner"]) for r in doc["results"]] == [("greedy", planner),
                                                                        ("topology-aware", planner)]


@pytest.mark.parametrize("workload", [["--workload", "hacc", "--layout", "aos"], ["--workload", "hacc", "--layout", "soa"],
                                      ["--workload", "array", "--files", "pset", "--group-nodes", "2"]])
def test_io_bench(optiq_cli, workload):
    doc = document(optiq_cli("io-bench", "--np", "4", *workload, "--per-rank", "10000", "--aggregators", "2",
                             "--buffer", "4KiB", "--iterations", "2", "--warmup", "0", "--json", check=False))
    assert doc["identical"] is True
    per_rank = 10000 // 38 * 38 if workload[1] == "hacc" else 10000
    assert doc["bytes"] == 4 * per_rank
    assert doc["file_groups"] == (2 if "pset" in workload else 1)
    for key in ("optiq_write_bps", "mpiio_write_bps"):
        assert len(doc[key]["all"]) == 2 and doc[key]["min"] <= doc[key]["median"] <= doc[key]["max"]
