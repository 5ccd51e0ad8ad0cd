"""Hostile input by class: numbers out of range or not numbers at all, empty and huge sizes,
files in other encodings, odd text, and simulations SimGrid cannot run. Each ends with exit
status 2 and one line naming the problem (or, where the input is fine, in success)."""

import codecs
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import optiq
from optiq.failure import failure_summary, run_json_program

from conftest import OPTIQ
from test_cli_errors import check_one_line_error

TINY = ["--topology", "torus:2x2x2", "--bytes", "64KiB"]

NUMBERS = [
    (["plan", "--k", "99999999999999999999999"], "argument --k"),
    (["plan", "--k", "\u0665"], "argument --k: not a whole number"),  # an Arabic-Indic five
    (["plan", "--k", "1_0"], "argument --k: not a whole number"),
    (["plan", "--seed", "99999999999999999999999"], "argument --seed"),
    (["plan", "--sources", "-3"], "argument --sources"),
    (["plan", "--start-dst", "-2"], "argument --start-dst"),
    (["plan", "--hop-bound", "-7"], "argument --hop-bound"),
    (["plan", "--max-paths", "18446744073709551616"], "argument --max-paths"),
    (["plan", "--epsilon", "nan"], "argument --epsilon"),
    (["plan", "--gap", "-0.5"], "argument --gap"),
    (["plan", "--link-bandwidth", "inf"], "argument --link-bandwidth"),
    (["plan", "--link-bandwidth", "1e999"], "argument --link-bandwidth"),
    (["plan", "--forward-bandwidth", "NaN"], "argument --forward-bandwidth"),
    (["show", "x.json", "--link-bandwidth", "infinity"], "argument --link-bandwidth"),
    (["simulate", "--link-bandwidth", "inf"], "argument --link-bandwidth"),
    (["simulate", "--latency", "-1"], "argument --latency"),
    (["simulate", "--timeout", "nan"], "argument --timeout"),
    (["simulate", "--max-inflight", "0"], "argument --max-inflight"),
    (["run", "--np", "8", "--topology", "torus:2x2x2", "--timeout", "nan"], "argument --timeout"),
    (["run", "--np", "1" + "0" * 30, "--topology", "torus:2x2x2"], "argument --np"),
    (["run", "--np", "8", "--topology", "torus:2x2x2", "--seed", "-4"], "argument --seed"),
    (["exchange", "--np", "2", "--timeout", "inf"], "argument --timeout"),
    (["exchange", "--np", "2", "--neighbors", "-1"], "argument --neighbors"),
    (["exchange", "--simulate", "--topology", "torus:2x2x2", "--latency", "nan"], "argument --latency"),
    (["platform", "--topology", "torus:2x2", "--out", "p.xml", "--ranks-per-node", "99999999999"],
     "argument --ranks-per-node"),
]

SIZES = [
    (["plan", *TINY[:2], "--bytes", ""], "argument --bytes: empty size"),
    (["simulate", *TINY[:2], "--bytes", ""], "argument --bytes: empty size"),
    (["run", "--np", "8", *TINY[:2], "--bytes", ""], "argument --bytes: empty size"),
    (["plan", *TINY[:2], "--min-path-bytes", ""], "argument --min-path-bytes"),
    (["simulate", *TINY, "--chunk", "1.5.5"], "argument --chunk"),
    (["plan", *TINY[:2], "--bytes", "1" * 400 + ".5"], "byte size too large"),
    (["plan", *TINY[:2], "--bytes", "uniform:0:18446744073709551615"], "byte size too large"),
    (["plan", *TINY[:2], "--bytes", "uniform:0:9223372036854775807"], "more"),  # four such jobs overflow
]

ELSEWHERE = [
    (["plan", *TINY, "--plot", "loads.foo"], "unknown plot file extension ('.foo')"),
    (["plan", *TINY, "--plot", "loads"], "unknown plot file extension (no extension)"),
    (["plan", "--topology", "torus:2\nx2"], "torus:2\\nx2"),
    (["simulate", "--topology", "torus:1", "--bytes", "1KiB"], "at least 2 nodes"),
    (["exchange", "--simulate", "--topology", "torus:1"], "at least 2 ranks"),
    (["run", "--np", "9", "--topology", "torus:2x2x2"], "more ranks than torus:2x2x2 holds"),
    (["platform", "--topology", "torus:2x2", "--out", ""], "no name"),
]


@pytest.mark.parametrize("args,needle", NUMBERS + SIZES + ELSEWHERE,
                         ids=[" ".join(a)[:60] for a, _ in NUMBERS + SIZES + ELSEWHERE])
def test_rejected_with_one_line(optiq_cli, tmp_path, args, needle):
    check_one_line_error(optiq_cli(*args, check=False, cwd=tmp_path), needle)


def test_text_that_is_not_utf8_is_named(tmp_path):
    proc = subprocess.run([os.fsencode(str(OPTIQ)), b"plan", b"--topology", b"torus:\xff"], capture_output=True,
                          text=True, cwd=tmp_path, stdin=subprocess.DEVNULL)
    check_one_line_error(proc, "argument --topology: not valid UTF-8 text")


def test_sizes_never_crash_the_core():
    pairs = [(0, 1)] * 3
    with pytest.raises(optiq.Error, match="empty size spec"):
        optiq.assign_sizes(pairs, "")
    assert len(optiq.assign_sizes(pairs, "uniform:0:9223372036854775807")) == 3
    assert all(j.bytes < 2**63 for j in optiq.assign_sizes(pairs, "pareto:1e-9:1:9223372036854775807"))
    with pytest.raises(optiq.Error, match="too large"):
        optiq.parse_bytes("9" * 400 + ".5")


REQUESTS = b"0 1 64KiB\n2 3 1000\n"


@pytest.mark.parametrize("content,needle", [
    (b"0 1 64KiB\n\xff\xfe 2 3\n", "jobs.txt:2: not UTF-8 text (byte 0xff at offset 10)"),
    (codecs.BOM_UTF16_LE + REQUESTS.decode().encode("utf-16-le"), "UTF-16"),
    (codecs.BOM_UTF32_BE + REQUESTS.decode().encode("utf-32-be"), "UTF-32"),
    (b"0 1 \xe2\x80\x8b5\n", "bad byte size"),  # a zero-width space, quoted intact
])
def test_request_files_in_other_encodings(optiq_cli, tmp_path, content, needle):
    (tmp_path / "jobs.txt").write_bytes(content)
    check_one_line_error(optiq_cli("plan", "--topology", "torus:4x4", "--requests", "jobs.txt", "--planner",
                                   "default", check=False, cwd=tmp_path), needle)


def test_a_utf8_byte_order_mark_is_read_over(optiq_cli, tmp_path):
    (tmp_path / "jobs.txt").write_bytes(codecs.BOM_UTF8 + REQUESTS)
    (tmp_path / "plain.txt").write_bytes(REQUESTS)
    docs = [json.loads(optiq_cli("plan", "--topology", "torus:4x4", "--requests", name, "--planner", "heu2",
                                 "--json", cwd=tmp_path).stdout) for name in ("jobs.txt", "plain.txt")]
    assert [r["metrics"] for r in docs[0]["results"]] == [r["metrics"] for r in docs[1]["results"]]
    assert docs[0]["jobs"] == docs[1]["jobs"] == 2


def make_plan_file(optiq_cli, tmp_path):
    path = tmp_path / "plan.json"
    optiq_cli("plan", *TINY, "--planner", "heu2", "--out", path, "--quiet")
    return path


def test_plan_files_with_a_byte_order_mark_are_shown_and_run(optiq_cli, tmp_path):
    path = make_plan_file(optiq_cli, tmp_path)
    marked = tmp_path / "marked.json"
    marked.write_bytes(codecs.BOM_UTF8 + path.read_bytes())
    assert optiq_cli("show", marked, "--json").stdout == optiq_cli("show", path, "--json").stdout
    out = optiq_cli("run", "--np", "8", "--topology", "torus:2x2x2", "--plan", marked, "--iterations", "1",
                    "--warmup", "0")
    assert "verified" in out.stdout


@pytest.mark.parametrize("damage,needle", [
    (lambda d: d.replace(b'"heu2"', b'"h\xffu2"'), "not UTF-8 text (byte 0xff"),
    (lambda d: codecs.BOM_UTF16_BE + d.decode().encode("utf-16-be"), "UTF-16"),
    (lambda d: b"{\xc3\xa9" + d, "plan.json"),  # the parser stops inside a two-byte character
])
def test_damaged_plan_files(optiq_cli, tmp_path, damage, needle):
    path = make_plan_file(optiq_cli, tmp_path)
    path.write_bytes(damage(path.read_bytes()))
    check_one_line_error(optiq_cli("show", path, check=False), needle)
    check_one_line_error(optiq_cli("run", "--np", "8", "--topology", "torus:2x2x2", "--plan", path, check=False),
                         needle)


def test_size_one_dimensions_simulate(optiq_cli):
    """SimGrid aborts on two size-1 dimensions (same-named self-links); the platform leaves them out."""
    out = optiq_cli("simulate", "--topology", "torus:2x1x1", "--bytes", "64KiB", "--planner", "default", "--quiet")
    assert "verified" in out.stdout


def test_simgrid_failures_are_reported_by_their_reason():
    stderr = ("[0.000000] ./src/kernel/resource/StandardLinkImpl.cpp:23: [root/CRITICAL] Link 'l' declared "
              "several times in the platform.\nBacktrace (displayed in actor maestro):\n  ->  15# 0x55 in smpimain\n"
              "\nAborted\n")
    assert failure_summary(stderr) == "SimGrid: Link 'l' declared several times in the platform."
    assert failure_summary("mpirun: cannot start\n  ->  3# main\n") == "mpirun: cannot start"
    assert failure_summary("") == "no output"


def _gone(pid: int, within: float = 10) -> bool:
    """True once the process is gone, or a zombie waiting for a reaper (what a container's first
    process may never be). A killed process closes its pipes before it turns zombie, so it may
    still show as running for a moment; a survivor would sleep on for a minute."""
    status = Path(f"/proc/{pid}/status")
    deadline = time.monotonic() + within
    while True:
        try:
            if "State:\tZ" in status.read_text():
                return True
        except FileNotFoundError:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


def _launcher(pidfile: Path) -> list:
    # The child lets go of the output pipes, so only a kill of the whole group can stop it.
    return ["sh", "-c", f"sleep 60 >/dev/null 2>&1 & echo $! > {pidfile}; wait"]


def test_a_timed_out_job_is_stopped_whole(tmp_path):
    """smpirun and mpirun are launchers: a timeout must stop what they started too, or a
    simulation would run on, unseen, after optiq has given up on it."""
    pidfile = tmp_path / "child.pid"
    with pytest.raises(optiq.Error, match=r"no result after 1 s; the job was stopped"):
        run_json_program(_launcher(pidfile), 1, "the job", "sleep")
    assert _gone(int(pidfile.read_text()))


def test_a_job_whose_ranks_leave_the_launchers_group_is_stopped_whole(tmp_path):
    """Open MPI puts each rank in a process group of its own: a kill of the launcher's group
    alone left 512-rank jobs' ranks running, reparented to init. Every process of the job's
    session goes, those ignoring SIGTERM too."""
    pids = tmp_path / "ranks.pid"
    rank = ("import os, signal, sys, time; os.setpgid(0, 0); signal.signal(signal.SIGTERM, signal.SIG_IGN); "
            f"open({str(pids)!r}, 'a').write(f'{{os.getpid()}}\\n'); time.sleep(120)")
    launcher = ["sh", "-c", f"for r in 1 2 3; do {sys.executable} -c \"{rank}\" >/dev/null 2>&1 & done; wait"]
    with pytest.raises(optiq.Error, match=r"no result after 2 s"):
        run_json_program(launcher, 2, "the job", "rank")
    started = [int(x) for x in pids.read_text().split()]
    assert len(started) == 3
    assert all(_gone(pid) for pid in started)


def test_a_terminated_program_stops_its_jobs(tmp_path):
    """SIGTERM (kill, timeout, a batch system's limit) on a program running a simulation must
    stop the simulation too, as Ctrl-C does."""
    pidfile = tmp_path / "child.pid"
    # As the bench scripts run: one line and status 130, not a traceback.
    script = ("import sys\n"
              "from optiq.failure import run_interruptible, run_json_program\n"
              "def main():\n"
              f"    run_json_program({_launcher(pidfile)!r}, 100, 'the job', 'sleep')\n"
              "sys.exit(run_interruptible(main, 'bench'))\n")
    proc = subprocess.Popen([sys.executable, "-c", script], stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while not (pidfile.exists() and pidfile.read_text().strip()) and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 130
    assert proc.stderr.read() == "bench: interrupted\n"
    assert _gone(int(pidfile.read_text()))

def test_a_killed_job_is_reported_as_such():
    """The out-of-memory killer's SIGKILL reaches a launcher's child; the shell reports 137."""
    for cmd in (["sh", "-c", "kill -9 $$"], ["sh", "-c", "sh -c 'kill -9 $$'"]):
        with pytest.raises(optiq.Error, match=r"^the job was killed \(SIGKILL\), which is how Linux stops a "
                                              r"program when memory runs out"):
            run_json_program(cmd, 10, "the job", "sh")


def test_a_bench_script_ends_an_error_with_one_line():
    script = ("import sys, optiq\n"
              "from optiq.failure import run_interruptible\n"
              "def main():\n"
              "    raise optiq.Error('no such stage')\n"
              "sys.exit(run_interruptible(main, 'bench'))\n")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and proc.stderr == "bench: error: no such stage\n"
