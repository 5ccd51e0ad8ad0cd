"""Bad input: exit status 2, one line naming the problem and the value, no traceback."""

import pytest

import optiq

CASES = [
    (["plan", "--topology", "cube:4x4"], "cube"),
    (["plan", "--topology", "mira:1000"], "1000"),
    (["plan", "--pattern", "spiral"], "spiral"),
    (["plan", "--planner", "default,fastest"], "fastest"),
    (["plan", "--bytes=-5"], "-5"),
    (["plan", "--bytes", "lots"], "lots"),
    (["plan", "--bytes", "uniform:9MiB:1MiB"], "uniform:9MiB:1MiB"),
    (["plan", "--k", "0", "--planner", "heu1"], "argument --k: must be between 1 and"),
    (["plan", "--k", "three"], "three"),
    (["plan", "--maxload", "0", "--planner", "heu1"], "maxload"),
    (["plan", "--heu2-chunk", "0", "--planner", "heu2"], "heu2-chunk"),
    (["plan", "--routing", "ecube"], "ecube"),
    (["plan", "--link-bandwidth", "-1"], "-1"),
    (["plan", "--topology", "torus:4x4", "--start-dst", "15"], "does not fit"),
    (["plan", "--requests", "/nonexistent/jobs.txt"], "/nonexistent/jobs.txt"),
    (["plan", "--planner", "heu1,heu2", "--out", "x.json"], "heu1,heu2"),
    (["plan", "--topology", "torus:4x4", "--planner", "heu1", "--hop-bound", "1", "--pattern", "disjoint",
      "--sources", "1", "--dests", "8"], "hop bound 1"),
    (["plan", "--topology", "fattree:2;4,4;1,2"], "needs 4 fields"),
    (["plan", "--topology", "fattree:2;4,4;1,2;1,2", "--routing", "minimal"], "needs a dragonfly network"),
    (["plan", "--topology", "dragonfly:3,1;2,1;2,1;2"], "3 groups but 2 routers per chassis"),
    (["plan", "--topology", "dragonfly:3,1;2,0;3,1;2"], "black cables must be at least 1, got 0"),
    (["platform", "--topology", "fattree:2;4,x;1,2;1,2", "--out", "x.xml"], "bad children count 'x'"),
    (["simulate", "--topology", "dragonfly:2,1;1,1;2,1;0"], "hosts per router must be at least 1"),
    (["simulate", "--requests", "/nonexistent/jobs.txt"], "/nonexistent/jobs.txt"),
    (["show", "/nonexistent/plan.json"], "/nonexistent/plan.json"),
    (["frobnicate"], "frobnicate"),
]


def check_one_line_error(proc, needle):
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert needle in lines[0]
    assert "Traceback" not in proc.stderr and proc.stdout == ""


@pytest.mark.parametrize("args,needle", CASES, ids=[" ".join(c[0]) for c in CASES])
def test_bad_arguments(optiq_cli, args, needle, tmp_path):
    check_one_line_error(optiq_cli(*args, check=False, cwd=tmp_path), needle)


@pytest.mark.parametrize("content,needle", [
    ("0 99999 10\n", "node 99999 is outside"),
    ("0 1\n", ":1: expected 'src dst bytes [priority]'"),
    ("0 1 10 high\n", ":1: bad priority 'high'"),
    ("0 1 -4\n", "'-4'"),
    ("0 1 ten\n", "'ten'"),
    ("# only comments\n", "no requests"),
])
@pytest.mark.parametrize("command", ["plan", "simulate"])
def test_malformed_request_files(optiq_cli, tmp_path, content, needle, command):
    req = tmp_path / "jobs.txt"
    req.write_text(content)
    check_one_line_error(optiq_cli(command, "--requests", req, "--quiet", check=False), needle)


TORUS_4X4 = optiq.parse_network("torus:4x4").digest
HEAD_V2 = ('{"format":"optiq-plan","version":2,"topology":"torus:4x4","network":"' + TORUS_4X4 + '",'
           '"routing":"dor","planner":"x",')
HEAD_V1 = '{"format":"optiq-plan","version":1,"topology":"torus:4x4","routing":"dor","planner":"x",'


@pytest.mark.parametrize("content,needle", [
    ("{not json", "invalid JSON at line 1"),
    ('{"format":"optiq-plan","version":7}', "version 7"),
    (HEAD_V2 + '"jobs":[{"src":0,"dst":1,"bytes":9,"paths":[{"bytes":8,"nodes":[0,4],"links":["0:A+"]}]}]}',
     "ends at node 4"),
    (HEAD_V2 + '"jobs":[{"src":0,"dst":4,"bytes":9,"paths":[{"bytes":8,"nodes":[0,4],"links":["0:A+"]}]}]}',
     "carry 8 bytes"),
    (HEAD_V2 + '"jobs":[{"src":0,"dst":4,"bytes":8,"paths":[{"bytes":8,"nodes":[0,4],"links":["0:E+"]}]}]}',
     "no link named '0:E+'"),
    (HEAD_V2 + '"jobs":[{"src":0,"dst":4,"bytes":8,"paths":[{"bytes":8,"nodes":[0,4],"links":["1:A+"]}]}]}',
     "link 1:A+ leaves node 1, not 0"),
    (HEAD_V2 + '"jobs":[{"src":0,"dst":4,"bytes":8,"paths":[{"bytes":8,"nodes":[0,4],"ports":["A+"]}]}]}',
     "links"),
    (HEAD_V2.replace(TORUS_4X4, "0123456789abcdef") + '"jobs":[]}', "made for another network"),
    (HEAD_V2.replace("torus:4x4", "mesh:4x4", 1) + '"jobs":[]}', "made for another network"),
    (HEAD_V1 + '"jobs":[{"src":0,"dst":1,"bytes":9,"paths":[{"bytes":8,"nodes":[0,4],"ports":["A+"]}]}]}',
     "ends at node 4"),
    (HEAD_V1 + '"jobs":[{"src":0,"dst":4,"bytes":9,"paths":[{"bytes":8,"nodes":[0,4],"ports":["A+"]}]}]}',
     "carry 8 bytes"),
])
def test_malformed_plan_files(optiq_cli, tmp_path, content, needle):
    plan = tmp_path / "plan.json"
    plan.write_text(content)
    check_one_line_error(optiq_cli("show", plan, check=False), needle)
