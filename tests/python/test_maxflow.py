"""The maxflow planner from the command line: many holders sending to the I/O nodes of
mira:512+io, against heu2 and mcf on the same jobs; plan files; refusal on switched networks."""

import json
import random

import pytest


def io_requests(path, seed=7, holders=64, size=4 << 20):
    """Seeded random holders, each sending `size` bytes to one of the four I/O nodes in turn."""
    rng = random.Random(seed)
    lines = [f"{h} {512 + i % 4} {size}" for i, h in enumerate(sorted(rng.sample(range(512), holders)))]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_maxflow_against_heu2_and_mcf_on_io_nodes(optiq_cli, tmp_path):
    requests = io_requests(tmp_path / "to_io.txt")
    out = optiq_cli("plan", "--topology", "mira:512+io", "--requests", requests,
                    "--planner", "default,heu2,mcf,maxflow", "--json", "--quiet")
    doc = json.loads(out.stdout)
    results = {r["planner"]: r for r in doc["results"]}
    assert list(results) == ["default", "heu2", "mcf", "maxflow"]
    seconds = {name: r["metrics"]["predicted_seconds"] for name, r in results.items()}
    total = 64 * (4 << 20)
    assert results["maxflow"]["metrics"]["total_bytes"] == total
    # 16 holders per I/O node, whose two bridge links (1.8 GB/s each) are the only way in.
    bridges = 16 * (4 << 20) / (2 * 1.8e9)
    assert results["mcf"]["bound_seconds"] >= bridges * (1 - 1e-9)
    assert seconds["maxflow"] >= results["mcf"]["bound_seconds"] * (1 - 1e-9)
    assert seconds["maxflow"] <= results["mcf"]["bound_seconds"] * 1.02
    assert seconds["maxflow"] <= seconds["heu2"] * (1 + 1e-9)
    assert seconds["maxflow"] < seconds["default"]


def test_plan_file_states_its_planner_and_predicted_time(optiq_cli, tmp_path):
    requests = io_requests(tmp_path / "to_io.txt", seed=3, holders=24, size=3 << 20)
    plan = tmp_path / "plan.json"
    out = optiq_cli("plan", "--topology", "mira:512+io", "--requests", requests, "--planner", "maxflow",
                    "--max-paths", "2", "--out", plan, "--json", "--quiet")
    predicted = json.loads(out.stdout)["results"][0]["metrics"]["predicted_seconds"]
    doc = json.loads(plan.read_text())
    assert doc["planner"] == "maxflow"
    assert doc["seconds"] == pytest.approx(predicted, rel=1e-12)
    assert all(1 <= len(job["paths"]) <= 2 for job in doc["jobs"])
    shown = json.loads(optiq_cli("show", plan, "--json").stdout)
    assert shown["metrics"]["predicted_seconds"] == pytest.approx(predicted, rel=1e-12)


def test_help_names_the_planner(optiq_cli):
    assert "maxflow" in optiq_cli("plan", "--help").stdout


@pytest.mark.parametrize("topology", ["fattree:2;4,4;1,2;1,2", "dragonfly:2,1;2,1;2,1;2"])
def test_switched_networks_are_refused_in_one_line(optiq_cli, topology):
    proc = optiq_cli("plan", "--topology", topology, "--routing", "minimal" if "dragonfly" in topology else "dmodk",
                     "--planner", "maxflow", check=False)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "maxflow needs a network without switches" in proc.stderr
