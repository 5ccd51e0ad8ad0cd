"""`optiq run` end to end: mpirun, the driver, byte checks and the JSON it promises.

Run by ctest with the project's virtual environment and OPTIQ_DRIVER set to the driver of the
same build."""

import json
import os
import subprocess
import sys

import pytest


def optiq(*args, check=True, cwd=None):
    proc = subprocess.run([sys.executable, "-m", "optiq.cli", *args], capture_output=True, text=True,
                          timeout=300, cwd=cwd)
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


@pytest.mark.parametrize("transport", ["p2p", "rma"])
def test_json_reports_verified_times_and_bytes(transport):
    proc = optiq("run", "--np", "4", "--topology", "torus:2x2", "--pattern", "alltoall", "--bytes", "48KiB",
                 "--planner", "heu1", "--transport", transport, "--chunk", "1000", "--threshold", "0",
                 "--iterations", "3", "--json")
    r = json.loads(proc.stdout)
    assert r["verified"] is True
    assert r["bytes"] == 4 * 4 * 48 * 1024
    for key in ("optiq_seconds", "mpi_alltoallv_seconds"):
        s = r[key]
        assert 0 < s["min"] <= s["median"] <= s["max"]
    assert r["plans_made"] == 1 and r["plan_cache_hits"] == 3  # warm-up plans, timed calls reuse it


def test_table_output_and_plan_files(tmp_path):
    requests = tmp_path / "jobs.txt"
    requests.write_text("0 7 100000\n1 6 50000\n2 5 0\n3 3 7000\n0 7 20000\n")
    plan = tmp_path / "plan.json"
    optiq("plan", "--topology", "torus:2x2x2", "--requests", str(requests), "--planner", "heu2",
          "--chunk", "8KiB", "--out", str(plan), "--quiet")
    proc = optiq("run", "--np", "8", "--topology", "torus:2x2x2", "--plan", str(plan), "--chunk", "4KiB")
    assert "verified" in proc.stdout and "MPI_Alltoallv" in proc.stdout
    r = json.loads(optiq("run", "--np", "8", "--topology", "torus:2x2x2", "--plan", str(plan), "--json").stdout)
    assert r["verified"] is True and r["bytes"] == 177000


@pytest.mark.parametrize("args,needle", [
    (["--planner", "nope"], "unknown planner 'nope'"),
    (["--topology", "torus:2x3y"], "2x3y"),
    (["--pattern", "spiral"], "spiral"),
    (["--np", "5"], "more ranks than torus:2x2 holds"),
    (["--bytes", "lots"], "lots"),
    (["--plan", "/nonexistent/plan.json"], "/nonexistent/plan.json"),
])
def test_bad_input_is_one_line_and_status_2(args, needle):
    options = {"--np": "4", "--topology": "torus:2x2", **dict(zip(args[::2], args[1::2]))}
    proc = optiq("run", *[x for pair in options.items() for x in pair], check=False)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], proc.stderr
    assert proc.stdout == ""


def test_help_has_examples():
    assert "examples:" in optiq("run", "--help").stdout
