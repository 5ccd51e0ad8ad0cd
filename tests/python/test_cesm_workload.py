"""optiq workload cesm: the CESM coupling model against the thesis' Table XV and Figure 18, its
request files checked by independent means (merging rank pairs by hand, transposing)."""

import doctest
import functools
import json
import subprocess
import sys
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from optiq import _core, cesm

SEEDS = range(31)


@functools.lru_cache(maxsize=None)
def counts(model, seed, ranks=2048, per_node=4):
    """(rank pairs, node pairs, fewest and most points of a rank pair, share of rank pairs under
    20 points, share of node pairs over 20): only these, so that the cache stays small."""
    ex = cesm.exchange(model, ranks, per_node, seed)
    rank, node = ex.rank_pairs[:, 2], ex.node_pairs[:, 2]
    return len(rank), len(node), int(rank.min()), int(rank.max()), (rank < 20).mean(), (node > 20).mean()


def within(value, expected, tolerance):
    return abs(value / expected - 1) <= tolerance


def cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "optiq.cli", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, stdin=subprocess.DEVNULL, timeout=300)


def requests(path):
    """A request file's jobs as (src, dst, bytes), comments left out."""
    jobs = []
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            s, d, b = line.split()
            jobs.append((int(s), int(d), int(b)))
    return jobs


def test_the_thesis_layout_and_its_rounding():
    lay = cesm.layout(2048)
    assert (lay.cpl, lay.atm, lay.lnd, lay.ice, lay.ocn) == (
        range(0, 1792), range(0, 1792), range(0, 516), range(516, 1792), range(1792, 2048))
    for ranks in (16, 17, 100, 512, 4096, 12345):
        lay = cesm.layout(ranks)
        assert lay.cpl == lay.atm and lay.lnd.start == 0 and lay.lnd.stop == lay.ice.start
        assert lay.ice.stop == lay.cpl.stop == lay.ocn.start and lay.ocn.stop == ranks
        assert min(len(lay.lnd), len(lay.ice), len(lay.ocn)) >= 1
        assert abs(len(lay.cpl) - ranks * 7 / 8) <= 0.5 and abs(len(lay.lnd) - ranks * 516 / 2048) <= 0.5


@pytest.mark.parametrize("model", cesm.MODELS)
def test_counts_within_10_percent_of_table_xv_at_seed_0(model):
    rank, node = counts(model, 0)[:2]
    expected_rank, expected_node = cesm.TABLE_XV[model]
    assert within(rank, expected_rank, 0.10), (rank, expected_rank)
    assert within(node, expected_node, 0.10), (node, expected_node)


@pytest.mark.parametrize("model", cesm.MODELS)
def test_counts_within_15_percent_and_points_in_range_for_every_seed(model):
    expected_rank, expected_node = cesm.TABLE_XV[model]
    for seed in SEEDS:
        rank, node, low, high, _, _ = counts(model, seed)
        assert within(rank, expected_rank, 0.15), (seed, rank)
        assert within(node, expected_node, 0.15), (seed, node)
        assert 1 <= low and high <= cesm.POINT_MAX, (seed, low, high)


@pytest.mark.parametrize("model", cesm.MODELS)
def test_figure_18_most_rank_pairs_under_20_points_most_node_pairs_over(model):
    *_, rank_under, node_over = counts(model, 0)
    assert rank_under > 0.5 and node_over > 0.5


def test_the_seed_moves_points_but_not_grids():
    a, b = cesm.exchange("ice", 2048, 4, 0), cesm.exchange("ice", 2048, 4, 1)
    assert a.points == b.points and (a.grid.lon, a.grid.lat) == (b.grid.lon, b.grid.lat)
    assert a.rank_pairs.shape != b.rank_pairs.shape or (a.rank_pairs != b.rank_pairs).any()


def test_no_pair_of_a_rank_with_itself_and_no_node_pair_within_a_node():
    for model in cesm.MODELS:
        ex = cesm.exchange(model, 2048, 4, 0)
        assert (ex.rank_pairs[:, 0] != ex.rank_pairs[:, 1]).all()
        assert (ex.node_pairs[:, 0] != ex.node_pairs[:, 1]).all()
        # Every point is exchanged once: in a rank pair or in the pairs left out.
        assert ex.rank_pairs[:, 2].sum() + ex.same_rank[1] == ex.points


@pytest.mark.parametrize("spec,ranks", [("mira:1024", 4096), ("fattree:2;8,16;1,8;1,1", 512)])
def test_scales_with_the_network(spec, ranks):
    assert len(_core.parse_network(spec).endpoints) * 4 == ranks
    scale = ranks / cesm.THESIS_RANKS
    for model in cesm.MODELS:
        rank, node, low, high, _, _ = counts(model, 0, ranks)
        expected_rank, expected_node = cesm.TABLE_XV[model]
        assert within(rank, expected_rank * scale, 0.15), (model, rank)
        assert within(node, expected_node * scale, 0.15), (model, node)
        assert 1 <= low and high <= cesm.POINT_MAX


@pytest.mark.parametrize("ranks,per_node", [(16, 4), (17, 1), (33, 2), (100, 4), (250, 8)])
def test_odd_sizes_keep_every_rank_busy_and_points_in_range(ranks, per_node):
    lay = cesm.layout(ranks)
    for model in cesm.MODELS:
        ex = cesm.exchange(model, ranks, per_node, 0)
        points = ex.rank_pairs[:, 2]
        assert 1 <= points.min() and points.max() <= cesm.POINT_MAX
        # A rank that holds nothing would show up as neither a source nor a pair with itself.
        assert len(set(ex.rank_pairs[:, 0].tolist())) + ex.same_rank[0] >= len(lay.of(model))
        assert len(set(ex.rank_pairs[:, 1].tolist())) + ex.same_rank[0] >= len(lay.cpl)


def test_same_seed_same_bytes_other_seed_other_bytes(tmp_path):
    base = ["workload", "cesm", "--coupling", "lnd", "--by", "node"]
    for name, seed in (("a.txt", 4), ("b.txt", 4), ("c.txt", 5)):
        assert cli(*base, "--seed", seed, "--out", tmp_path / name, "--json").returncode == 0
    assert (tmp_path / "a.txt").read_bytes() == (tmp_path / "b.txt").read_bytes()
    assert (tmp_path / "a.txt").read_bytes() != (tmp_path / "c.txt").read_bytes()


@pytest.fixture(scope="module")
def fattree_files(tmp_path_factory):
    """ICE's exchange on a fat-tree at 2 ranks per node, by rank and by node, both directions."""
    where = tmp_path_factory.mktemp("cesm")
    spec = "fattree:2;8,16;1,8;1,1"
    for by in ("rank", "node"):
        for direction in ("to-cpl", "from-cpl"):
            proc = cli("workload", "cesm", "--coupling", "ice", "--topology", spec, "--ranks-per-node", 2,
                       "--by", by, "--direction", direction, "--point-bytes", "32KiB",
                       "--out", where / f"{by}-{direction}.txt")
            assert proc.returncode == 0, proc.stderr
    return where, _core.parse_network(spec)


def test_by_node_is_the_by_rank_file_merged_by_hand(fattree_files):
    where, net = fattree_files
    merged = Counter()
    for src, dst, size in requests(where / "rank-to-cpl.txt"):
        a, b = net.endpoints[src // 2], net.endpoints[dst // 2]
        if a != b:
            merged[a, b] += size
    by_node = requests(where / "node-to-cpl.txt")
    assert {(s, d): b for s, d, b in by_node} == dict(merged)
    assert len(by_node) == len(merged)
    assert all(b % 32768 == 0 for _, _, b in by_node)


@pytest.mark.parametrize("by", ["rank", "node"])
def test_from_cpl_transposes_to_cpl(fattree_files, by):
    where, _ = fattree_files
    forward = requests(where / f"{by}-to-cpl.txt")
    backward = requests(where / f"{by}-from-cpl.txt")
    assert sorted((d, s, b) for s, d, b in forward) == sorted(backward)


def test_files_parse_as_request_files_and_name_the_right_members(fattree_files):
    where, net = fattree_files
    lay = cesm.layout(len(net.endpoints) * 2)
    rank_text = (where / "rank-to-cpl.txt").read_text()
    jobs = _core.parse_requests(rank_text, lay.ranks, "rank-to-cpl.txt")
    assert all(j.src in lay.ice and j.dst in lay.cpl and j.src != j.dst for j in jobs)
    node_jobs = _core.parse_requests((where / "node-to-cpl.txt").read_text(), net.num_vertices, "node-to-cpl.txt")
    endpoints = set(net.endpoints)
    assert all(j.src in endpoints and j.dst in endpoints and j.src != j.dst for j in node_jobs)
    assert rank_text.startswith("# optiq workload cesm --coupling ice")


def test_json_matches_the_file_and_the_model(tmp_path):
    proc = cli("workload", "cesm", "--coupling", "atm", "--by", "rank", "--out", tmp_path / "atm.txt", "--json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    jobs = requests(tmp_path / "atm.txt")
    assert doc["jobs"] == len(jobs) == doc["pairs"]["rank"] == counts("atm", 0)[0]
    assert doc["pairs"]["node"] == counts("atm", 0)[1]
    assert doc["bytes"] == sum(b for _, _, b in jobs) and doc["point_bytes"] == 32000
    assert doc["table_xv"] == {"rank": 5227, "node": 2233, "scaled_to_this_run": False,
                               "compare_rank": 5227, "compare_node": 2233}
    assert sum(doc["points"]["rank"]["histogram"].values()) == doc["pairs"]["rank"]


def test_text_report_shows_table_xv_and_figure_18(tmp_path):
    proc = cli("workload", "cesm", "--coupling", "ocn", "--out", tmp_path / "ocn.txt")
    assert proc.returncode == 0, proc.stderr
    assert "Table XV" in proc.stdout and "Figure 18" in proc.stdout and "26+" in proc.stdout


def test_plot_is_written(tmp_path):
    pytest.importorskip("matplotlib")
    proc = cli("workload", "cesm", "--coupling", "ocn", "--out", tmp_path / "o.txt", "--plot", tmp_path / "o.png")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "o.png").read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize("args,needle", [
    (["--coupling", "wave"], "wave"),
    (["--coupling", "atm"], "--out"),
    (["--coupling", "atm", "--topology", "torus:3", "--ranks-per-node", "5"], "at least 16 ranks"),
    (["--coupling", "atm", "--topology", "cube:3"], "cube"),
    (["--coupling", "atm", "--point-bytes", "0"], "--point-bytes"),
    (["--coupling", "atm", "--point-bytes", "lots"], "lots"),
    (["--coupling", "atm", "--ranks-per-node", "0"], "--ranks-per-node"),
    (["--coupling", "atm", "--direction", "sideways"], "sideways"),
    (["--coupling", "atm", "--plot", "x.bmp"], ".bmp"),
    (["--coupling", "atm", "--topology", "mira:49152", "--ranks-per-node", "16"], "at most"),
])
def test_bad_arguments_exit_2_with_one_line(tmp_path, args, needle):
    out = [] if "--out" == needle else ["--out", tmp_path / "x.txt"]
    proc = cli("workload", "cesm", *args, *out, cwd=tmp_path)
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1 and needle in lines[0], proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    assert not (tmp_path / "x.txt").exists()


HOSTILE = st.one_of(st.sampled_from(["", " ", "-1", "0", "nan", "1e999", "18446744073709551616", "8MiB", "torus:2x2",
                                     "mira:1024x", "x" * 300, "a.PNG", "\u00e9", "3"]),
                    st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=12))


@settings(max_examples=12, derandomize=True, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(option=st.sampled_from(["--seed", "--point-bytes", "--topology", "--ranks-per-node", "--out", "--plot",
                               "--direction", "--by"]), value=HOSTILE)
def test_any_value_ends_in_success_or_one_error_line(tmp_path_factory, option, value):
    where = tmp_path_factory.mktemp("hostile")
    args = {"--coupling": "ocn", "--topology": "torus:2x2", "--out": "x.txt", option: value}
    proc = cli("workload", "cesm", *(f"{k}={v}" for k, v in args.items()), cwd=where)
    assert "Traceback" not in proc.stderr and proc.returncode in (0, 2), proc.stderr
    if proc.returncode == 2:
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_module_examples_run():
    result = doctest.testmod(cesm, verbose=False)
    assert result.attempted >= 4 and result.failed == 0
