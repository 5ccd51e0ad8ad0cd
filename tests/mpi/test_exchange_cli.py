"""`optiq exchange` end to end: mpirun (or smpirun), the exchange benchmark, byte checks and the
JSON it promises, and its argument errors.

Run by ctest with the project's virtual environment, OPTIQ_EXCHANGE set to the benchmark of the
same build and, when SimGrid is installed, OPTIQ_SMPI_EXCHANGE to its SMPI build."""

import json
import os
import subprocess
import sys

import pytest


def optiq(*args, check=True):
    proc = subprocess.run([sys.executable, "-m", "optiq.cli", *args], capture_output=True, text=True, timeout=300)
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


def test_json_reports_every_protocol_verified():
    r = json.loads(optiq("exchange", "--np", "4", "--neighbors", "6", "--bytes", "3000", "--protocol",
                         "nbx,pcx,pex,rsx,auto", "--iterations", "4", "--warmup", "1", "--json").stdout)
    assert r["verified"] is True and r["simulated"] is False and r["smpi"] is False
    assert r["ranks"] == 4 and r["neighbors"] == 3 and r["bytes"] == 3000  # 6 capped at the 3 other ranks
    assert r["messages_sent"] == r["messages_received"] == 4 * 3 * 5 * 5 and r["wrong_messages"] == 0
    assert [p["protocol"] for p in r["protocols"]] == ["nbx", "pcx", "pex", "rsx", "auto"]
    for p in r["protocols"]:
        s = p["seconds"]
        assert 0 < s["min"] <= s["median"] <= s["max"]
        assert p["ran"] in ("nbx", "pcx", "pex", "rsx")
        assert (p["barrier"] == "ibarrier") == (p["ran"] == "nbx")  # AUTO's barrier is MPI_Ibarrier off SMPI


def test_dissemination_barrier_large_messages_and_one_rank():
    r = json.loads(optiq("exchange", "--np", "3", "--neighbors", "2", "--bytes", "8MiB", "--protocol", "nbx",
                         "--barrier", "dissemination", "--iterations", "2", "--json").stdout)
    assert r["verified"] is True and r["protocols"][0]["barrier"] == "dissemination"
    r = json.loads(optiq("exchange", "--np", "1", "--json", "--iterations", "2").stdout)
    assert r["verified"] is True and r["neighbors"] == 0 and r["messages_received"] == 0


def test_table_and_no_verify():
    out = optiq("exchange", "--np", "2", "--iterations", "2").stdout
    assert "verified" in out and all(name in out for name in ("nbx", "pcx", "pex", "rsx"))
    r = json.loads(optiq("exchange", "--np", "2", "--iterations", "2", "--no-verify", "--json").stdout)
    assert r["verified"] is None
    assert "not checked" in optiq("exchange", "--np", "2", "--iterations", "2", "--no-verify").stdout


@pytest.mark.parametrize("args,needle", [
    (["--protocol", "nbx,bogus"], "unknown protocol 'bogus'"),
    (["--protocol", "nbx,nbx"], "twice"),
    (["--protocol", ","], "names no protocol"),
    (["--np", "0"], "--np: must be between 1 and"),
    (["--neighbors", "-1"], "--neighbors: must be between 0 and"),
    (["--bytes", "lots"], "lots"),
    (["--bytes", "3GiB"], "below 2 GiB"),
    (["--iterations", "0"], "--iterations: must be between 1 and"),
    (["--seed", "-4"], "--seed"),
    (["--barrier", "fast"], "invalid choice: 'fast'"),
    (["--topology", "torus:4"], "use it with --simulate"),
    (["--simulate"], "--simulate needs --topology"),
])
def test_bad_input_is_one_line_and_status_2(args, needle):
    options = {"--np": "2", **dict(zip(args[::2], args[1::2]))}
    flat = [x for pair in options.items() for x in pair if x is not None]
    if "--simulate" in args:
        flat = ["--simulate"]
    proc = optiq("exchange", *flat, check=False)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], proc.stderr
    assert proc.stdout == ""


def test_np_is_required_without_simulate():
    proc = optiq("exchange", "--neighbors", "2", check=False)
    assert proc.returncode == 2 and "--np is required" in proc.stderr


def test_help_has_examples():
    out = optiq("exchange", "--help").stdout
    assert "examples:" in out and "--simulate" in out


@pytest.mark.skipif(not os.environ.get("OPTIQ_SMPI_EXCHANGE"), reason="SimGrid's smpicxx build is not available")
def test_simulated_run_picks_the_dissemination_barrier():
    r = json.loads(optiq("exchange", "--simulate", "--topology", "torus:2x2x2", "--neighbors", "3", "--protocol",
                         "nbx,pex,auto", "--iterations", "3", "--json").stdout)
    assert r["simulated"] is True and r["smpi"] is True and r["ranks"] == 8 and r["verified"] is True
    assert r["protocols"][0]["barrier"] == "dissemination"
    proc = optiq("exchange", "--simulate", "--topology", "torus:2x2x2", "--np", "9", check=False)
    assert proc.returncode == 2 and "more than the 8 nodes" in proc.stderr
