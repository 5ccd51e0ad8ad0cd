"""BG/Q's I/O side from the command line: requests that name I/O nodes, planned by every planner."""

import json
import subprocess
import sys

import pytest


def optiq(*args):
    proc = subprocess.run([sys.executable, "-m", "optiq.cli", *args], capture_output=True, text=True, timeout=300)
    return proc


@pytest.mark.parametrize("planner", ["default", "heu1", "heu2", "opt", "mcf", "optimal", "maxflow"])
def test_requests_to_an_io_node_are_bound_by_its_two_io_links(tmp_path, planner):
    requests = tmp_path / "jobs.txt"
    # Vertex 128 is the I/O node of the only pset; three nodes send 8 MB to it, it sends 1 MB back.
    requests.write_text("0 128 8000000\n5 128 8000000\n77 128 8000000\n128 3 1000000\n")
    proc = optiq("plan", "--topology", "bgq:4x4x2x2x2+io", "--requests", str(requests), "--planner", planner,
                 "--json")
    assert proc.returncode == 0, proc.stderr
    r = json.loads(proc.stdout)
    result = r["results"][0] if "results" in r else r
    two_links = 24e6 / (2 * 1.8e9)  # the I/O node's two links in, at 1.8 GB/s each
    seconds = result["metrics"]["predicted_seconds"]
    assert seconds >= two_links * (1 - 1e-9)
    if planner in ("opt", "mcf", "optimal"):
        assert result["bound_seconds"] == pytest.approx(two_links, rel=1e-9)
        assert seconds <= two_links * 1.02
    if planner == "maxflow":  # one sink: the max-flow is the optimum
        assert seconds == pytest.approx(two_links, rel=1e-6)


def test_an_io_spec_that_is_not_whole_psets_is_one_line():
    proc = optiq("plan", "--topology", "bgq:2x2x2x2x2+io", "--pattern", "disjoint")
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "whole psets of 128 nodes" in proc.stderr
