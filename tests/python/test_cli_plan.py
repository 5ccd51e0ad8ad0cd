"""The acceptance commands of the planning core, run through the installed console script."""

import json
import re

import pytest

import optiq

# Thesis Table VII, MPI rows (1024 nodes, 1:8, 8 MiB per pair).
PUBLISHED_DEFAULT = {"disjoint": 3.07, "overlap": 3.38, "subset": 3.52}
METRIC_KEYS = {"paths", "paths_per_job_max", "paths_per_job_avg", "paths_per_link_max", "paths_per_link_avg",
               "link_bytes_max", "hops_max", "hops_avg", "total_bytes", "predicted_seconds", "predicted_throughput"}


@pytest.mark.parametrize("pattern", sorted(PUBLISHED_DEFAULT))
def test_default_routing_reproduces_table_vii(optiq_cli, pattern):
    out = optiq_cli("plan", "--topology", "bgq:4x4x4x8x2", "--pattern", pattern, "--bytes", "8MiB",
                    "--planner", "default", "--json")
    doc = json.loads(out.stdout)
    assert set(doc) == {"topology", "routing", "pattern", "jobs", "results"}
    assert doc["topology"] == "bgq:4x4x4x8x2" and doc["routing"] == "bgq" and doc["jobs"] == 512
    (result,) = doc["results"]
    assert result["planner"] == "default" and result["seconds"] >= 0
    m = result["metrics"]
    assert set(m) == METRIC_KEYS
    assert m["paths"] == 512
    assert m["paths_per_link_max"] == 16
    assert round(m["paths_per_link_avg"], 2) == PUBLISHED_DEFAULT[pattern]
    assert m["link_bytes_max"] == 134217728
    assert m["total_bytes"] == 512 * 8 * 2**20
    assert m["predicted_seconds"] == pytest.approx(134217728 / 1.8e9)
    assert m["predicted_throughput"] == pytest.approx(m["total_bytes"] / m["predicted_seconds"])


@pytest.mark.parametrize("pattern", sorted(PUBLISHED_DEFAULT))
def test_heuristics_relieve_the_busiest_link(optiq_cli, pattern):
    out = optiq_cli("plan", "--topology", "mira:1024", "--pattern", pattern, "--planner", "default,heu1,heu2",
                    "--json")
    results = {r["planner"]: r["metrics"] for r in json.loads(out.stdout)["results"]}
    assert results["heu1"]["link_bytes_max"] < results["default"]["link_bytes_max"]
    assert results["heu2"]["link_bytes_max"] < results["default"]["link_bytes_max"]
    assert results["heu1"]["paths_per_link_max"] <= 16
    for r in results.values():
        assert r["total_bytes"] == 512 * 8 * 2**20


def test_table_and_histogram_output(optiq_cli):
    out = optiq_cli("plan", "--topology", "mira:512", "--pattern", "overlap", "--planner", "default,heu2")
    text = out.stdout
    assert "bgq:4x4x4x4x2" in text and "256 jobs" in text
    assert "default" in text and "heu2" in text
    assert "links per load range" in text
    assert "Traceback" not in out.stderr


def test_out_then_show_round_trip(optiq_cli, tmp_path):
    plan = tmp_path / "plan.json"
    out = optiq_cli("plan", "--topology", "torus:4x4x4", "--pattern", "subset", "--sources", "4", "--dests", "16",
                    "--planner", "heu2", "--out", plan, "--json")
    planned = json.loads(out.stdout)["results"][0]["metrics"]
    doc = json.loads(plan.read_text())
    assert doc["format"] == "optiq-plan" and doc["version"] == 2
    assert doc["topology"] == "torus:4x4x4" and doc["routing"] == "dor" and doc["planner"] == "heu2"
    assert doc["network"] == optiq.parse_network("torus:4x4x4").digest
    job = doc["jobs"][0]
    assert set(job) == {"src", "dst", "bytes", "paths"}
    for path in job["paths"]:
        assert set(path) == {"bytes", "nodes", "links"}
        assert len(path["links"]) == len(path["nodes"]) - 1
        for node, link in zip(path["nodes"], path["links"]):  # each link named after the node it leaves
            assert re.fullmatch(rf"{node}:[ABC][+-]", link)
    assert sum(p["bytes"] for p in job["paths"]) == job["bytes"]
    shown = json.loads(optiq_cli("show", plan, "--json").stdout)
    assert shown["metrics"] == planned
    text = optiq_cli("show", plan).stdout
    assert "valid heu2 plan" in text


def test_version_1_plan_still_shows(optiq_cli, tmp_path):
    """A version-1 file (ports instead of link names, no digest) loads on a torus and measures
    the same as the version-2 file it was made from."""
    new, old = tmp_path / "v2.json", tmp_path / "v1.json"
    optiq_cli("plan", "--topology", "mesh:4x3", "--pattern", "disjoint", "--sources", "2", "--dests", "6",
              "--planner", "heu2", "--out", new, "--quiet")
    doc = json.loads(new.read_text())
    doc["version"] = 1
    del doc["network"]
    for job in doc["jobs"]:
        for path in job["paths"]:
            path["ports"] = [link.split(":")[1] for link in path.pop("links")]
    old.write_text(json.dumps(doc))
    shown = {f: json.loads(optiq_cli("show", f, "--json").stdout) for f in (new, old)}
    assert shown[old] == shown[new]
    assert shown[old]["metrics"]["paths"] > len(doc["jobs"])  # heu2 split jobs over several paths
    assert "valid heu2 plan" in optiq_cli("show", old).stdout


def test_requests_file(optiq_cli, tmp_path):
    req = tmp_path / "jobs.txt"
    req.write_text("# src dst bytes\n0 63 1MiB\n5 40 64KiB  # comment\n7 7 100\n")
    doc = json.loads(optiq_cli("plan", "--topology", "torus:4x4x4", "--requests", req, "--planner",
                               "default,heu1,heu2", "--json").stdout)
    assert doc["jobs"] == 3 and doc["pattern"] == str(req)
    for r in doc["results"]:
        assert r["metrics"]["total_bytes"] == 2**20 + 65536 + 100


def test_seeded_random_pattern_is_deterministic(optiq_cli, tmp_path):
    a, b, c = (tmp_path / f"{n}.json" for n in "abc")
    args = ["plan", "--topology", "mira:512", "--pattern", "random", "--bytes", "pareto:1.5:64KiB:8MiB",
            "--planner", "heu2"]
    optiq_cli(*args, "--seed", "4", "--out", a)
    optiq_cli(*args, "--seed", "4", "--out", b)
    optiq_cli(*args, "--seed", "5", "--out", c)
    assert a.read_text() == b.read_text()
    assert a.read_text() != c.read_text()


def test_plot_option_writes_png(optiq_cli, tmp_path):
    png = tmp_path / "loads.png"
    optiq_cli("plan", "--topology", "mira:512", "--planner", "default,heu1", "--plot", png)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_demo_prints_thesis_rows_and_a_plot(optiq_cli, tmp_path):
    out = optiq_cli("demo", "--out-dir", tmp_path)
    for needle in ("thesis MPI", "thesis HEU1", "thesis HEU2", "thesis OPT", "optiq heu2", "== subset"):
        assert needle in out.stdout
    png = tmp_path / "demo-link-loads.png"
    assert str(png) in out.stdout
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("command", ["plan", "show", "demo"])
def test_help_explains_with_examples(optiq_cli, command):
    text = optiq_cli(command, "--help").stdout
    assert "example" in text
    if command == "plan":
        for option in ("--topology", "--pattern", "--requests", "--bytes", "--planner", "--k", "--seed",
                       "--routing", "--link-bandwidth", "--json", "--out", "--maxload", "--heu2-chunk"):
            assert option in text
