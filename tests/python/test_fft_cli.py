"""`optiq fft`: NAS FT under mpirun and under SimGrid SMPI, every variant verified against NPB's
published checksums (or a single-process FFT), its JSON document, its overlap figures and its
errors."""

import json

import pytest

VARIANTS = ["alltoall", "ialltoallv", "optiq", "optiq-overlap"]


def document(proc):
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_mpirun_every_variant_verifies_class_s(optiq_cli):
    doc = document(optiq_cli("fft", "--np", "4", "--class", "S", "--procs", "1x4", "--json"))
    assert doc["simulated"] is False and doc["charged"] is None
    assert (doc["class"], doc["grid"], doc["procs"], doc["ranks"]) == ("S", "64x64x64", "1x4", 4)
    assert doc["reference"] == "npb"
    assert [v["variant"] for v in doc["variants"]] == VARIANTS
    for v in doc["variants"]:
        assert v["verified"] is True and len(v["checksums"]) == 6
        assert v["seconds"] > 0 and 0 <= v["exchange_seconds"] <= v["seconds"]
    # A fraction only where a blocking counterpart ran in the same job.
    hidden = {v["variant"]: v["overlap_fraction"] for v in doc["variants"]}
    assert hidden["alltoall"] is None and hidden["optiq"] is None
    assert isinstance(hidden["ialltoallv"], float) and isinstance(hidden["optiq-overlap"], float)
    # Every variant computes the same field: the checksums agree far inside NPB's tolerance.
    first = doc["variants"][0]["checksums"]
    for v in doc["variants"][1:]:
        for (a, b), (c, d) in zip(v["checksums"], first):
            assert abs(a - c) <= 1e-13 * abs(c) and abs(b - d) <= 1e-13 * abs(d)


def test_mpirun_a_grid_of_no_class_matches_the_serial_fft(optiq_cli):
    doc = document(optiq_cli("fft", "--np", "6", "--grid", "60x36x24", "--procs", "2x3", "--iterations", "2",
                             "--variant", "optiq-overlap", "--planner", "mcf", "--json"))
    assert doc["class"] is None and doc["reference"] == "serial"
    [v] = doc["variants"]
    assert v["verified"] is True and v["overlap_fraction"] is None  # no blocking run beside it


def test_mpirun_report_and_single_variant(optiq_cli):
    out = optiq_cli("fft", "--np", "2", "--class", "S", "--iterations", "2", "--variant", "optiq").stdout
    assert "NPB class S" in out and "verification against NPB's published checksums: SUCCESSFUL" in out


def test_simulation_hides_the_exchange_behind_charged_work(optiq_cli):
    doc = document(optiq_cli("fft", "--np", "16", "--class", "S", "--iterations", "2", "--simulate",
                             "--topology", "torus:4x4", "--planner", "mcf", "--json"))
    assert doc["simulated"] is True
    assert doc["charged"]["fft_flops"] == pytest.approx(9e9) and doc["charged"]["copy_bandwidth"] > 0
    by = {v["variant"]: v for v in doc["variants"]}
    assert all(v["verified"] for v in by.values())
    # Charged work is the same in every variant (a model, not a measurement; SMPI charges a few
    # nanoseconds per MPI_Wtime besides).
    compute = {name: v["compute_seconds"] for name, v in by.items()}
    assert max(compute.values()) == pytest.approx(min(compute.values()), rel=0.01)
    # SMPI's network needs no CPU: the pipelined variants hide most of their exchange.
    for name, alone in (("ialltoallv", "alltoall"), ("optiq-overlap", "optiq")):
        assert by[name]["overlap_fraction"] > 0.5
        assert by[name]["seconds"] < by[alone]["seconds"]


def test_simulated_fft_rate_decides_the_compute_time(optiq_cli):
    def compute(rate):
        doc = document(optiq_cli("fft", "--np", "4", "--class", "S", "--iterations", "1", "--variant", "alltoall",
                                 "--simulate", "--topology", "torus:2x2", "--fft-rate", rate,
                                 "--copy-bandwidth", "inf", "--json"))
        return doc["variants"][0]["fft_seconds"]

    # 64^3 points, forward and one inverse 3-D transform: 2 * 5 N log2 N flops over 4 ranks.
    flops = 2 * 5 * 64 ** 3 * 18 / 4
    assert compute("1e9") == pytest.approx(flops / 1e9, rel=0.01)
    assert compute("4e9") == pytest.approx(flops / 4e9, rel=0.01)


@pytest.mark.parametrize("args, message", [
    (["--np", "4", "--simulate"], "--simulate needs --topology"),
    (["--np", "32", "--simulate", "--topology", "torus:4x4"], "--np 32 is more ranks than torus:4x4 holds"),
    (["--np", "2", "--procs", "3x1"], "--procs 3x1 needs 3 ranks, the job has 2"),
    (["--np", "2", "--grid", "60x36"], "--grid 60x36: expected NXxNYxNZ"),
    (["--np", "2", "--fft-rate", "0"], "--fft-rate"),
])
def test_bad_input_is_one_line(optiq_cli, args, message):
    proc = optiq_cli("fft", *args, check=False)
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr and "Traceback" not in proc.stderr
