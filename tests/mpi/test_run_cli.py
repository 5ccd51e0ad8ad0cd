"""`optiq run` end to end: mpirun, the driver, byte checks and the JSON it promises.

Run by ctest with the project's virtual environment and OPTIQ_DRIVER set to the driver of the
same build."""

import json
import os
import subprocess
import sys
import time

import pytest


def optiq(*args, check=True, cwd=None):
    proc = subprocess.run([sys.executable, "-m", "optiq.cli", *args], capture_output=True, text=True,
                          timeout=300, cwd=cwd)
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


def test_a_stopped_run_leaves_no_rank_behind():
    """--timeout stops mpirun and every rank it started (each in its own process group)."""
    seed = str(900_000_000 + os.getpid() % 99_999_999)  # marks this job's ranks among all processes
    proc = optiq("run", "--np", "4", "--topology", "torus:2x2", "--pattern", "alltoall", "--bytes", "64MiB",
                 "--iterations", "1000", "--seed", seed, "--timeout", "3", check=False)
    assert proc.returncode == 2 and "no result after 3 s" in proc.stderr, proc.stderr

    def ranks():
        out = []
        for entry in os.listdir("/proc"):
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    words = f.read().split(b"\0")
                with open(f"/proc/{entry}/stat") as f:
                    zombie = f.read().rsplit(")", 1)[1].split()[0] == "Z"
            except (OSError, IndexError):
                continue
            if not zombie and any(w.endswith(b"optiq-driver") for w in words) and seed.encode() in words:
                out.append(int(entry))
        return out
    deadline = time.monotonic() + 10
    while ranks() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert ranks() == []


@pytest.mark.parametrize("transport", ["p2p", "rma"])
def test_json_reports_verified_times_and_bytes(transport):
    proc = optiq("run", "--np", "4", "--topology", "torus:2x2", "--pattern", "alltoall", "--bytes", "48KiB",
                 "--planner", "heu1", "--transport", transport, "--chunk", "1000", "--direct-threshold", "0",
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
          "--heu2-chunk", "8KiB", "--out", str(plan), "--quiet")
    proc = optiq("run", "--np", "8", "--topology", "torus:2x2x2", "--plan", str(plan), "--chunk", "4KiB")
    assert "verified" in proc.stdout and "MPI_Alltoallv" in proc.stdout
    r = json.loads(optiq("run", "--np", "8", "--topology", "torus:2x2x2", "--plan", str(plan), "--json").stdout)
    assert r["verified"] is True and r["bytes"] == 177000


@pytest.mark.parametrize("transport", ["p2p", "rma"])
def test_plans_on_a_switched_network_deliver_every_byte(tmp_path, transport):
    """Ranks sit on the graph's endpoints; paths are chains of routes through switches with
    copies at other endpoints, which the byte check at every receiver verifies."""
    from optiq.random_graph import random_switched_graph

    net = tmp_path / "net.json"
    net.write_text(json.dumps(random_switched_graph(6, 8, 3, seed=7, dual_homed=0.3)))
    topology = f"graph:{net}"
    common = ["--topology", topology, "--pattern", "alltoall", "--bytes", "300KiB"]
    for planner in ("mcf", "heu2"):
        r = json.loads(optiq("run", "--np", "8", *common, "--planner", planner, "--transport", transport,
                             "--chunk", "20000", "--direct-threshold", "0", "--iterations", "2",
                             "--min-gain", "0", "--json").stdout)  # every plan runs: forwarding is the point
        assert r["verified"] is True and r["bytes"] == 8 * 8 * 300 * 1024
        assert r["forwarded_bytes"] > 0, planner  # the plan forwards at endpoints
    # Two ranks per endpoint, on a plan file from the exact LP.
    requests = tmp_path / "jobs.txt"
    requests.write_text("".join(f"{a} {b} {50000 + 999 * a + b}\n" for a in range(8) for b in range(8) if a != b))
    plan = tmp_path / "plan.json"
    optiq("plan", "--topology", topology, "--requests", str(requests), "--planner", "optimal", "--out", str(plan),
          "--quiet")
    r = json.loads(optiq("run", "--np", "16", "--ranks-per-node", "2", "--topology", topology, "--plan", str(plan),
                         "--transport", transport, "--chunk", "16KiB", "--json").stdout)
    assert r["verified"] is True


@pytest.mark.parametrize("args,needle", [
    (["--planner", "nope"], "got 'nope'"),
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


def driver(*args, np=4):
    env = {**os.environ, "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMPI_MCA_rmaps_base_oversubscribe": "1"}
    return subprocess.run(["mpirun", "-np", str(np), os.environ["OPTIQ_DRIVER"], *args], capture_output=True,
                          text=True, timeout=300, env=env)


def test_background_ranks_stream_beside_the_job(tmp_path):
    """Ranks beyond --job-ranks run the second job's flows; the job's JSON counts only its own."""
    flows = tmp_path / "bg.txt"
    flows.write_text("# sender receiver rate streams\n4 5 1e9 2\n\n6 7 inf\n")
    proc = driver("--topology", "torus:2x2", "--pattern", "alltoall", "--bytes", "32KiB", "--job-ranks", "4",
                  "--background", str(flows), np=8)
    assert proc.returncode == 0, proc.stderr
    r = json.loads(proc.stdout)
    assert r["ranks"] == 4 and r["verified"] is True


@pytest.mark.parametrize("text, needle", [
    ("4 5 1e9\n4 6 1e9\n", "rank 4 is in two flows"),
    ("4 5\n", "expected SENDER RECEIVER RATE"),
    ("4 5 fast\n", "is not a number"),
    ("4 5 -3\n", "must be positive"),
    ("3 5 1e9\n", "rank 3 is not a background rank"),
    ("4 5 1e9 0\n", "STREAMS must be"),
])
def test_bad_background_files_fail_with_one_line(tmp_path, text, needle):
    flows = tmp_path / "bg.txt"
    flows.write_text(text)
    proc = driver("--topology", "torus:2x2", "--job-ranks", "4", "--background", str(flows), np=6)
    assert proc.returncode != 0
    errors = [line for line in proc.stderr.splitlines() if line.startswith("optiq-driver: error:")]
    assert len(errors) == 1 and needle in errors[0], proc.stderr


def test_small_one_sided_chunks_warn_once_and_still_deliver():
    """Legal but slow settings say so in one line (docs/errors.md, "Legal but slow")."""
    proc = optiq("run", "--np", "4", "--topology", "torus:2x2", "--pattern", "alltoall", "--bytes", "8KiB",
                 "--planner", "heu1", "--transport", "rma", "--chunk", "64", "--direct-threshold", "0",
                 "--iterations", "2", "--json")
    assert json.loads(proc.stdout)["verified"] is True
    warnings = [line for line in proc.stderr.splitlines() if line.startswith("optiq: warning: ")]
    assert len(warnings) == 1 and "chunks of 64 bytes on the one-sided transport" in warnings[0]
    quiet = optiq("run", "--np", "4", "--topology", "torus:2x2", "--pattern", "alltoall", "--bytes", "8KiB",
                  "--transport", "rma", "--chunk", "4KiB", "--iterations", "1", "--json")
    assert "warning" not in quiet.stderr


def test_tiny_aggregation_buffers_warn_once_and_still_store_every_byte(tmp_path):
    proc = optiq("io-bench", "--np", "4", "--topology", "torus:2x2", "--workload", "array", "--per-rank", "2KiB",
                 "--buffer", "1", "--dir", str(tmp_path), "--json")
    r = json.loads(proc.stdout)
    assert r["identical"] is True  # the file equals MPI-IO's, byte for byte
    warnings = [line for line in proc.stderr.splitlines() if line.startswith("optiq: warning: ")]
    assert len(warnings) == 1 and "aggregation buffers of 1 bytes" in warnings[0]


def cesm_requests(tmp_path, coupling, topology, rpn, direction="to-cpl"):
    out = tmp_path / f"{coupling}.txt"
    optiq("workload", "cesm", "--coupling", coupling, "--direction", direction, "--topology", topology,
          "--ranks-per-node", str(rpn), "--by", "rank", "--out", str(out))
    return out


@pytest.mark.parametrize("coupling,direction,transport", [
    ("lnd", "to-cpl", "p2p"), ("ocn", "from-cpl", "rma"), ("atm", "to-cpl", "rma"), ("ice", "from-cpl", "p2p")])
def test_cesm_exchanges_arrive_whole_with_and_without_node_aggregation(tmp_path, coupling, direction, transport):
    """The generator's small instances, rank pairs on and across nodes, every byte checked in each
    of the warm-up and timed calls; aggregation combines every call, and only when asked."""
    requests = cesm_requests(tmp_path, coupling, "torus:2x4", 2, direction)
    common = ("run", "--np", "16", "--topology", "torus:2x4", "--ranks-per-node", "2", "--requests", str(requests),
              "--planner", "heu2", "--transport", transport, "--min-gain", "0", "--iterations", "2", "--json")
    plain = json.loads(optiq(*common).stdout)
    aggregated = json.loads(optiq(*common, "--aggregate-node").stdout)
    for r in (plain, aggregated):
        assert r["verified"] is True and r["requests"] == str(requests)
        assert r["predicted_seconds"] > 0 and r["planned_paths"] >= r["planned_jobs"] > 0
    assert plain["aggregated_operations"] == 0 and aggregated["aggregated_operations"] == 3
    assert aggregated["aggregate_node"] is True and plain["aggregate_node"] is False
    assert aggregated["planned_jobs"] < plain["planned_jobs"]  # one job per pair of nodes


@pytest.mark.parametrize("np_,rpn", [(7, 2), (10, 4), (5, 3)])
def test_uneven_nodes_empty_ranks_and_own_node_pairs_aggregate_exactly(tmp_path, np_, rpn):
    """Block placement leaves the last node short; some ranks send nothing, some only to their own
    node, one pair is named twice."""
    import random
    rng = random.Random(np_ * 100 + rpn)
    lines = []
    for s in range(np_ - 1):  # the last rank sends nothing
        for d in range(np_):
            if rng.random() < 0.5:
                lines.append(f"{s} {d} {rng.choice([1, 999, 20000, 70001])}")
    lines += [f"0 {np_ - 1} 33333", f"0 {np_ - 1} 44444", "1 0 5000"]  # rank 1 and 0 share a node
    requests = tmp_path / "jobs.txt"
    requests.write_text("\n".join(lines) + "\n")
    nodes = (np_ + rpn - 1) // rpn
    topology = f"torus:{max(nodes, 2)}"
    for transport in ("p2p", "rma"):
        r = json.loads(optiq("run", "--np", str(np_), "--topology", topology, "--ranks-per-node", str(rpn),
                             "--requests", str(requests), "--transport", transport, "--planner", "mcf",
                             "--min-gain", "0", "--direct-threshold", "0", "--aggregate-node", "--chunk", "4KiB",
                             "--iterations", "2", "--json").stdout)
        assert r["verified"] is True and r["aggregated_operations"] == 3, r


def test_bad_request_files_for_run_exit_2_with_one_line(tmp_path):
    requests = tmp_path / "jobs.txt"
    requests.write_text("0 1 100\n3 9 100\n")
    proc = optiq("run", "--np", "4", "--topology", "torus:2x2", "--requests", str(requests), check=False)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert "jobs.txt:2" in proc.stderr


@pytest.mark.parametrize("transport", ["p2p", "rma"])
def test_a_context_of_one_rank_moves_its_own_bytes(transport):
    """One rank alone has no peer: no window, no message, every byte copied to itself."""
    r = json.loads(optiq("run", "--np", "1", "--topology", "torus:2", "--transport", transport, "--pattern",
                         "alltoall", "--bytes", "100KiB", "--iterations", "2", "--json").stdout)
    assert r["verified"] is True and r["bytes"] == 100 * 1024
