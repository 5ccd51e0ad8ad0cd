"""A machine imported from its Slurm topology.conf, end to end: the CLI imports and summarises
it, and SimGrid simulates a job on a scattered part of it. The simulated hosts carry the file's
host names, the runtime places every rank by MPI_Get_processor_name, and its plans relay only
through the job's hosts (no byte turns off plan, yet bytes are relayed)."""

import json

import pytest

from optiq import _core
from optiq.simulation import platform as plat
from optiq.simulation import smpi

# Three leaves of four hosts, a top switch for every two leaves (Slurm lets a switch have
# several parents) and a root: between two leaves the default route crosses their common top,
# and a relay on the third leaf reaches the other two tops.
CONF = """# a small site
SwitchName=leaf1 Nodes=n[01-04]
SwitchName=leaf2 Nodes=n[05-08]
switchname=leaf3 nodes=n[09-12]   # keys in any case
SwitchName=top12 Switches=leaf[1-2]
SwitchName=top23 Switches=leaf[2-3]
SwitchName=top13 Switches=leaf1,leaf3
SwitchName=root Switches=top[12,23,13]
"""
JOB_HOSTS = ["n06", "n02", "n09", "n05", "n01", "n07", "n03"]  # scattered, in the launcher's order


@pytest.fixture
def conf(tmp_path):
    path = tmp_path / "topology.conf"
    path.write_text(CONF)
    return path


def test_import_writes_a_graph_file_named_by_hosts(optiq_cli, conf, tmp_path):
    out = tmp_path / "machine.json"
    optiq_cli("topology", "import", f"slurm:{conf}", "--out", str(out))
    doc = json.loads(out.read_text())
    assert doc["graph"]["hosts"] is True
    ids = {n["id"]: n["kind"] for n in doc["nodes"]}
    assert [i for i, k in ids.items() if k == "endpoint"] == [f"n{k:02d}" for k in range(1, 13)]
    assert sorted(i for i, k in ids.items() if k == "switch") == ["leaf1", "leaf2", "leaf3", "root", "top12",
                                                                   "top13", "top23"]
    again = _core.parse_network(f"graph:{out}")
    assert again.digest == _core.parse_network(f"slurm:{conf}").digest
    assert again.endpoint_named("n07") == 6


def test_show_summarises_and_plots(optiq_cli, conf, tmp_path):
    s = json.loads(optiq_cli("topology", "show", f"slurm:{conf}", "--json", "--plot", str(tmp_path / "t.png")).stdout)
    assert (s["endpoints"], s["switches"], s["switch_levels"], s["diameter"]) == (12, 7, 3, 4)
    assert s["links"] == 2 * (12 + 6 + 3)  # host cables, leaf-top cables, top-root cables; each way
    assert s["hosts_named"] and s["first_hosts"] == ["n01", "n02", "n03"]
    assert (tmp_path / "t.png").stat().st_size > 0
    text = optiq_cli("topology", "show", f"slurm:{conf}").stdout
    assert "12 endpoints, 7 switches, 3 switch levels" in text and "placed by host name" in text


def test_a_defect_is_one_line_naming_the_file_and_line(optiq_cli, tmp_path):
    bad = tmp_path / "bad.conf"
    bad.write_text(CONF + "SwitchName=spine Switches=leaf9\n")
    r = optiq_cli("topology", "show", f"slurm:{bad}", check=False)
    assert r.returncode == 2
    line = r.stderr.strip()
    assert "\n" not in line and f"{bad}:9:" in line and "leaf9" in line


def test_a_job_on_scattered_hosts_is_placed_by_name_and_relays_only_through_them(conf, tmp_path):
    net = _core.parse_network(f"slurm:{conf}")
    platform, _ = plat.write_platform(net, tmp_path / "machine.xml")
    hosts = tmp_path / "job.hosts"
    hosts.write_text("".join(f"{h}\n" for h in JOB_HOSTS))
    r = smpi.run_driver(len(JOB_HOSTS), platform, hosts,
                        ["--topology", f"slurm:{conf}", "--pattern", "alltoall", "--bytes", "4MiB", "--iterations", "1",
                         "--warmup", "0", "--planner", "mcf", "--min-gain", "0", "--only", "optiq"], timeout=300)
    assert r["verified"] is True
    assert r["rank_nodes"] == [net.endpoint_named(h) for h in JOB_HOSTS]
    assert r["off_plan_bytes"] == 0
    assert r["forwarded_bytes"] > 0  # the plan does relay: through n09 to reach top13 and top23


def test_plan_on_the_jobs_hosts_relays_only_through_them(optiq_cli, conf, tmp_path):
    hosts = "n[01-03],n[05-07],n09"
    out = tmp_path / "plan.json"
    r = json.loads(optiq_cli("plan", "--topology", f"slurm:{conf}", "--job-hosts", hosts, "--pattern", "random",
                             "--sources", "3", "--dests", "3", "--planner", "mcf", "--json", "--out", out).stdout)
    assert r["pattern"] == "random on 7 job hosts"
    net = _core.parse_network(f"slurm:{conf}")
    own = [net.endpoint_named(h) for h in _core.expand_hostlist(hosts)]
    plan = _core.load_plan(str(out))
    _core.validate_plan(plan, net.with_forwarders(own))  # relays at the job's hosts only
    assert {v for jp in plan.jobs for v in (jp.job.src, jp.job.dst)} <= set(own)
    relayed = {v for jp in plan.jobs for s in jp.paths for v in _core.relay_vertices(net, s.links)}
    assert relayed and relayed <= set(own)  # it does relay, through n09 and the others of the job


@pytest.mark.parametrize("hosts, message", [
    ("n[01-03],x9", "x9 is not a host of"),
    ("n01", "at least two hosts"),
    ("n01,n01", "listed twice"),
])
def test_job_hosts_are_checked(optiq_cli, conf, hosts, message):
    r = optiq_cli("plan", "--topology", f"slurm:{conf}", "--job-hosts", hosts, "--planner", "mcf", check=False)
    assert r.returncode == 2 and message in r.stderr and len(r.stderr.strip().splitlines()) == 1


SW = 'Switch\t36 "S-00000000000000a1"\t\t# "sw" enhanced port 0 lid 1 lmc 0\n'
CA = 'Ca\t1 "H-0000000000000001"\t\t# "h1 mlx5_0"\n'


@pytest.mark.parametrize("kind, text, line, words", [
    ("slurm", "SwitchName=s0 Nodes=a1 Foo=1\n", 1, "unknown key 'Foo'"),
    ("slurm", "SwitchName=s0 Nodes=a1\nSwitchName=top Switches=s[0-1]\n", 2, "no switch of that name"),
    ("slurm", "SwitchName=a Switches=b\nSwitchName=b Switches=c\nSwitchName=c Switches=a Nodes=n1\n", 3, "cycle"),
    # A host under no switch: its Ca block lists no cable.
    ("ibnetdiscover", SW + '[2]\t"H-0000000000000001"[1]\t\t# "h1" lid 3 4xQDR\n' + CA
     + 'Ca\t1 "H-0000000000000002"\t\t# "h2"\n', None, "not joined by any route"),
    # Truncated: the switch names a host whose block never comes.
    ("ibnetdiscover", SW + '[2]\t"H-0000000000000001"[1](2) \t\t# "h1 mlx5_0" lid 3 4xQDR\n', 2, "cut short"),
])
def test_every_defect_of_an_imported_file_is_one_line_and_exit_2(optiq_cli, tmp_path, kind, text, line, words):
    path = tmp_path / "fabric.txt"
    path.write_text(text)
    for command in (["topology", "show", f"{kind}:{path}"], ["plan", "--topology", f"{kind}:{path}"]):
        r = optiq_cli(*command, check=False)
        message = r.stderr.strip()
        assert r.returncode == 2 and "\n" not in message and words in message, message
        assert f"{path}:{line}:" in message if line else f"{path}:" in message
