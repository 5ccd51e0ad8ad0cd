"""Failures inside the LP planners (and anywhere else in a command) end as one error line with
exit status 2, never as a traceback."""

import highspy
import numpy as np
import pytest

from optiq import cli
from optiq.lp import master


def bad_status(monkeypatch):
    monkeypatch.setattr(highspy.Highs, "getModelStatus", lambda self: highspy.HighsModelStatus.kInfeasible)


def run_error(monkeypatch):
    monkeypatch.setattr(highspy.Highs, "run", lambda self: highspy.HighsStatus.kError)


def run_raises(monkeypatch):
    def run(self):
        raise RuntimeError("solver crashed\nin two lines")
    monkeypatch.setattr(highspy.Highs, "run", run)


def construction_fails(monkeypatch):
    def new_solver():
        raise MemoryError("no memory for the solver")
    monkeypatch.setattr(master, "new_solver", new_solver)


def garbage_solution(monkeypatch):
    class Empty:
        col_value = np.empty(0)
        row_dual = np.empty(0)
    monkeypatch.setattr(highspy.Highs, "getSolution", lambda self: Empty())


FAILURES = [bad_status, run_error, run_raises, construction_fails, garbage_solution]


def one_line_error(capfd, argv):
    code = cli.main(argv)
    out, err = capfd.readouterr()
    assert code == 2, err
    assert out == "" and "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"optiq {argv[0]}: error: ")
    return lines[0]


@pytest.mark.parametrize("failure", FAILURES, ids=[f.__name__ for f in FAILURES])
@pytest.mark.parametrize("planner", ["opt", "optimal"])
@pytest.mark.parametrize("json", [False, True])
def test_lp_failures_are_one_line(monkeypatch, capfd, failure, planner, json):
    failure(monkeypatch)
    argv = ["plan", "--topology", "torus:2x2x2", "--bytes", "1MiB", "--planner", f"default,{planner}"]
    line = one_line_error(capfd, argv + (["--json"] if json else []))
    assert planner in line or "HiGHS" in line


def test_lp_failures_in_simulate_are_one_line_before_any_launch(monkeypatch, capfd):
    run_raises(monkeypatch)
    one_line_error(capfd, ["simulate", "--topology", "torus:2x2x2", "--bytes", "1MiB", "--planner", "optimal"])


def test_an_unexpected_failure_in_any_command_is_one_line(monkeypatch, capfd):
    from optiq.commands import show

    def broken(args):
        raise ZeroDivisionError("division by zero")
    monkeypatch.setattr(show, "run", broken)
    line = one_line_error(capfd, ["show", "plan.json"])
    assert "internal error (ZeroDivisionError)" in line
