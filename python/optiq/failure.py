"""Programs optiq launches (mpirun, smpirun and what they run): their JSON result, or why they
failed, in one line."""

from __future__ import annotations

import json
import os
import re
import signal
import sys
import subprocess
import threading
import time

from . import _core

_CRITICAL = re.compile(r"\[[\w/.-]*CRITICAL\]\s*(.*)")
_FRAME = re.compile(r"(->|\d+#|Backtrace|\*\*\* )")


def failure_summary(stderr: str) -> str:
    """Why a launched program failed, in one line, from its standard error.

    SimGrid states a fatal problem on a ``[...CRITICAL]`` line and then prints a backtrace;
    the statement is the reason, the backtrace is not. Otherwise the last lines that are not
    backtrace frames are.
    """
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for line in lines:
        critical = _CRITICAL.search(line)
        if critical:
            return f"SimGrid: {critical.group(1)}"
    useful = [line for line in lines if not _FRAME.match(line)]
    return " | ".join(useful[-3:]) or "no output"


def stop_on_terminate() -> None:
    """Makes SIGTERM (``kill``, ``timeout``, a batch system's time limit) stop the program as
    Ctrl-C does, so that the jobs :func:`run_json_program` started are stopped with it; by
    default Python would die at once and leave them running."""
    def interrupt(signum, frame):
        raise KeyboardInterrupt
    if threading.current_thread() is threading.main_thread():  # only there may handlers be set
        signal.signal(signal.SIGTERM, interrupt)


def run_interruptible(main, name: str) -> int:
    """Runs a script's ``main`` with SIGTERM stopping it as Ctrl-C does (stop_on_terminate).
    Either ends with one line and status 130, and an optiq.Error with one line and status 1,
    instead of a traceback."""
    stop_on_terminate()
    try:
        return main() or 0
    except KeyboardInterrupt:
        sys.stderr.write(f"{name}: interrupted\n")
        return 130
    except _core.Error as e:
        sys.stderr.write(f"{name}: error: {e}\n")
        return 1


def _session_members(session: int) -> list:
    """The live processes of a session (zombies excluded: they are only waiting to be reaped)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        pid = int(entry)
        try:
            if os.getsid(pid) != session:
                continue
            with open(f"/proc/{pid}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue  # gone meanwhile, or not ours to see
        if state != "Z":
            out.append(pid)
    return out


def stop_session(session: int, grace: float = 3.0) -> None:
    """Stops every process of a job's session: the launcher and all it started, those in process
    groups of their own too (Open MPI gives each rank its own group, so a kill of the launcher's
    group alone left ranks running). SIGTERM first, so that a launcher can stop its ranks in
    order, then SIGKILL to whatever is left after ``grace`` seconds."""
    if not os.path.isdir("/proc"):  # no process table to read: the launcher's group is what can be reached
        try:
            os.killpg(session, signal.SIGKILL)
        except ProcessLookupError:
            pass
        return
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, grace)):
        members = _session_members(session)
        for pid in members:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + wait
        while members and time.monotonic() < deadline:
            time.sleep(0.05)
            members = _session_members(session)
        if not members:
            return


def run_json_program(cmd: list, timeout: float, what: str, name: str, env: dict | None = None) -> dict:
    """Runs one of optiq's programs and returns its result, the last JSON line of its output,
    plus ``wall_seconds``. Its own error line ("NAME: error: ...") becomes an Error with that
    message; no result at all, an Error saying that ``what`` failed and why. ``env`` is added to
    the environment."""
    lines, wall = run_json_lines(cmd, timeout, what, name, env)
    result = lines[-1]
    result["wall_seconds"] = wall
    return result


def run_json_lines(cmd: list, timeout: float, what: str, name: str, env: dict | None = None) -> tuple:
    """As :func:`run_json_program`, for programs that print one JSON line per result: returns
    (every JSON line of the output, parsed, in order; the wall-clock seconds of the run)."""
    start = time.perf_counter()
    # In a session of its own, so that a timeout stops the whole job: smpirun and mpirun are
    # launchers, and killing them alone would leave the simulation or the ranks running.
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="backslashreplace",
                            stdin=subprocess.DEVNULL, env={**os.environ, **env} if env else None,
                            start_new_session=True)
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except BaseException as stop:  # the timeout, or an interrupt: nothing of the job may outlive it
        stop_session(proc.pid)
        proc.communicate()
        if isinstance(stop, subprocess.TimeoutExpired):
            raise _core.Error(f"no result after {timeout:g} s; {what} was stopped") from None
        raise
    proc = subprocess.CompletedProcess(cmd, proc.returncode, stdout, stderr)
    # The library's warnings (legal but slow settings) reach the user, each once.
    for line in dict.fromkeys(line for line in proc.stderr.splitlines() if line.startswith("optiq: warning: ")):
        print(line, file=sys.stderr)
    marker = f"{name}: error: "
    errors = [line for line in proc.stderr.splitlines() if marker in line]
    if errors:
        raise _core.Error(errors[0].split(marker, 1)[1])
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if not lines and proc.returncode in (-signal.SIGKILL, 128 + signal.SIGKILL):  # a shell reports its child's kill
        raise _core.Error(f"{what} was killed (SIGKILL), which is how Linux stops a program when memory runs out: "
                          "run it alone or on a smaller case")
    if not lines:
        raise _core.Error(f"{what} failed (exit status {proc.returncode}): {failure_summary(proc.stderr)}")
    return [json.loads(line) for line in lines], time.perf_counter() - start
