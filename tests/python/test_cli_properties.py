"""Property: whatever value any option of any command gets, optiq ends with exit status 0, or
with exit status 2 and exactly one line on standard error, never a traceback.

Each example changes one option of a small valid command line. Values are mostly hostile
(huge, negative, NaN, empty, odd Unicode, random text); the few valid ones are small, so the
commands that launch MPI or SimGrid stay quick when an example is valid. Examples are
derandomized: every run tries the same ones.
"""

import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import OPTIQ

NO_NUL = st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")
TEXT = st.text(NO_NUL, max_size=16)
TRICKY = st.sampled_from([
    "", " ", "-", "--", "-1", "-0", "0", "+3", "nan", "NaN", "-nan", "inf", "-inf", "Infinity", "1e999", "-1e999",
    "1e-400", "4.9e-324", "1_000", "0x10", "1e3", " 7", "7 ", "5\n", "\t", "\u0665", "\uff17", "\u00bd", "\u200b5",
    "\u202e8", "18446744073709551616", "9223372036854775808", "-9223372036854775809", "2147483648", "8MiB",
    "1.5KiB", "uniform:1:9", "pareto:1:1", "pareto:nan:1", "uniform:", "ten", "torus:2x2", "mira:1024x",
    "default,,heu2", "\u00e9\u00e8", "\U0001f600",
])
SMALL_VALID = st.integers(0, 8).map(str)
HUGE = st.one_of(st.integers(2**31, 2**80), st.integers(-2**80, -2)).map(str)
FLOATS = st.floats(allow_nan=True, allow_infinity=True).map(repr)

INTEGER = st.one_of(SMALL_VALID, HUGE, TRICKY, TEXT)
REAL = st.one_of(FLOATS, TRICKY, HUGE, TEXT)
WORD = st.one_of(TRICKY, TEXT)
PATH = st.one_of(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00/"), max_size=24),
                 st.sampled_from(["", ".", "..", "x" * 300, "plan.json/inside", "a.PNG", "a.svgz"]))
# optiq demo runs a full 1024-node comparison for any usable directory (test_cli_plan covers
# that): here only unusable ones, beneath a file or with a name too long.
UNUSABLE_DIR = st.one_of(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00/"),
                                 max_size=16).map(lambda s: "plan.json/" + s),
                         st.sampled_from(["plan.json", "x" * 300]))
# --mpirun runs what it names: only names that cannot be a harmful program.
LAUNCHER = st.sampled_from(["", "mpirun-that-does-not-exist", "/nonexistent/mpirun", "\u00e9", " "])

PLANNER_OPTIONS = {
    "--planner": WORD, "--k": INTEGER, "--hop-bound": INTEGER, "--maxload": INTEGER, "--epsilon": REAL,
    "--gap": REAL, "--min-path-bytes": WORD, "--max-paths": INTEGER, "--forward-bandwidth": REAL,
}
PATTERN_OPTIONS = {
    "--pattern": WORD, "--bytes": WORD, "--sources": INTEGER, "--dests": INTEGER, "--start-src": INTEGER,
    "--start-dst": INTEGER, "--seed": INTEGER,
}

# command: (valid baseline, {option: values}, examples, launches MPI or SimGrid)
COMMANDS = {
    "plan": (["--topology=torus:2x2x2", "--bytes=64KiB", "--planner=default,heu1,heu2,opt,optimal,mcf", "--quiet"],
             {"--topology": WORD, "--routing": WORD, "--link-bandwidth": REAL, "--requests": PATH, "--heu2-chunk": WORD,
              "--out": PATH, "--plot": PATH, **PATTERN_OPTIONS, **PLANNER_OPTIONS}, 20),
    "show": (["{plan}"], {"": PATH, "--link-bandwidth": REAL, "--forward-bandwidth": REAL}, 20),
    "demo": (["--quiet"], {"--out-dir": UNUSABLE_DIR}, 5),
    "platform": (["--topology=torus:2x2", "--out=p.xml"],
                 {"--topology": WORD, "--link-bandwidth": REAL, "--latency": REAL, "--ranks-per-node": INTEGER,
                  "--out": PATH}, 20),
    "run": (["--np=8", "--topology=torus:2x2x2", "--bytes=4KiB", "--iterations=1", "--warmup=0", "--timeout=30"],
            {"--np": INTEGER, "--topology": WORD, "--ranks-per-node": INTEGER, "--plan": PATH, "--planner": WORD,
             "--transport": WORD, "--chunk": WORD, "--forward-budget": WORD, "--direct-threshold": WORD,
             "--queue": WORD, "--min-gain": REAL, "--max-inflight": INTEGER, "--iterations": INTEGER, "--warmup": INTEGER, "--timeout": REAL,
             "--mpirun": LAUNCHER, **PATTERN_OPTIONS}, 15),
    "exchange": (["--np=2", "--neighbors=1", "--bytes=1KiB", "--protocol=nbx", "--iterations=1", "--warmup=0",
                  "--timeout=30"],
                 {"--np": INTEGER, "--neighbors": INTEGER, "--bytes": WORD, "--protocol": WORD, "--barrier": WORD,
                  "--seed": INTEGER, "--iterations": INTEGER, "--warmup": INTEGER, "--timeout": REAL,
                  "--mpirun": LAUNCHER, "--topology": WORD, "--link-bandwidth": REAL, "--latency": REAL}, 15),
    "io-plan": (["--topology=bgq:2x4x4x4x1+io", "--ranks-per-node=1", "--aggregators=2", "--placement=greedy",
                 "--planner=default", "--quiet"],
                {"--topology": WORD, "--routing": WORD, "--link-bandwidth": REAL, "--ranks-per-node": INTEGER,
                 "--data": WORD, "--hacc": WORD, "--layout": WORD, "--holders": REAL, "--seed": INTEGER,
                 "--io-nodes": WORD, "--aggregators": INTEGER, "--buffer": WORD, "--placement": WORD,
                 "--planner": WORD, "--out": PATH, "--plot": PATH}, 15),
    "io-bench": (["--np=2", "--per-rank=4KiB", "--aggregators=2", "--buffer=1KiB", "--iterations=1", "--warmup=0",
                  "--timeout=30"],
                 {"--np": INTEGER, "--topology": WORD, "--ranks-per-node": INTEGER, "--workload": WORD,
                  "--layout": WORD, "--per-rank": WORD, "--seed": INTEGER, "--files": WORD, "--group-nodes": INTEGER,
                  "--aggregators": INTEGER, "--buffer": WORD, "--placement": WORD, "--sink": WORD, "--mpiio": WORD,
                  "--dir": PATH, "--iterations": INTEGER, "--warmup": INTEGER, "--timeout": REAL,
                  "--mpirun": LAUNCHER}, 15),
    "simulate": (["--topology=torus:2x2x2", "--bytes=4KiB", "--planner=default", "--quiet", "--timeout=60"],
                 {"--topology": WORD, "--link-bandwidth": REAL, "--latency": REAL, "--heu2-chunk": WORD,
                  "--transport": WORD, "--chunk": WORD, "--direct-threshold": WORD, "--forward-budget": WORD,
                  "--max-inflight": INTEGER, "--iterations": INTEGER, "--mpi-call": WORD, "--timeout": REAL,
                  "--plans-dir": PATH, **PATTERN_OPTIONS, **PLANNER_OPTIONS}, 15),
}


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """A directory for the commands to run in, holding a valid plan file for 'show'."""
    path = tmp_path_factory.mktemp("hostile")
    subprocess.run([str(OPTIQ), "plan", "--topology", "torus:2x2x2", "--bytes", "64KiB", "--planner", "heu2",
                    "--out", str(path / "plan.json"), "--quiet"], check=True, capture_output=True)
    return path


def command_line(command, option, value, workdir):
    base = [a.format(plan=workdir / "plan.json") for a in COMMANDS[command][0]]
    if not option:  # the positional argument: after '--' any text is a value
        return [command, "--", value]
    kept = [a for a in base if not a.startswith(option + "=")]
    if option == "--requests":  # --requests and --pattern exclude each other
        kept = [a for a in kept if not a.startswith("--pattern=")]
    return [command, *kept, f"{option}={value}"]


def check(argv, workdir):
    proc = subprocess.run([str(OPTIQ), *argv], capture_output=True, text=True, errors="backslashreplace",
                          cwd=workdir, stdin=subprocess.DEVNULL, timeout=120)
    assert "Traceback" not in proc.stderr, (argv, proc.stderr)
    assert proc.returncode in (0, 2), (argv, proc.returncode, proc.stderr)
    if proc.returncode == 2:
        assert len(proc.stderr.strip().splitlines()) == 1, (argv, proc.stderr)


@pytest.mark.parametrize("command", list(COMMANDS))
def test_any_option_value_ends_in_success_or_one_error_line(command, workdir):
    options, examples = COMMANDS[command][1], COMMANDS[command][2]

    @settings(max_examples=examples, derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def one_option(data):
        option = data.draw(st.sampled_from(sorted(options)), label="option")
        value = data.draw(options[option], label="value")
        check(command_line(command, option, value, workdir), workdir)

    one_option()


def test_the_baselines_are_valid(workdir):
    """Each example changes one option of a command line that works as it is."""
    for command, (base, _, _) in COMMANDS.items():
        if command == "demo":  # test_cli_plan runs it as it is
            continue
        argv = [command, *(a.format(plan=workdir / "plan.json") for a in base)]
        proc = subprocess.run([str(OPTIQ), *argv], capture_output=True, text=True, cwd=workdir,
                              stdin=subprocess.DEVNULL, timeout=120)
        assert proc.returncode == 0, (argv, proc.stderr)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
