import io

from optiq.progress import Progress


def test_pipe_gets_quarter_lines_after_the_delay():
    out = io.StringIO()
    p = Progress(stream=out, delay=0.0)
    for done in range(0, 101):
        p("paths", done, 100)
    lines = out.getvalue().splitlines()
    assert [l.split()[2] for l in lines] == ["25/100", "50/100", "75/100", "100/100"]


def test_short_runs_stay_quiet_and_quiet_means_quiet():
    out = io.StringIO()
    p = Progress(stream=out, delay=3600)
    p("paths", 100, 100)
    p.note("planning with heu2")
    q = Progress(stream=out, quiet=True, delay=0.0)
    q("paths", 100, 100)
    assert out.getvalue() == ""


def test_byte_stages_print_megabytes():
    out = io.StringIO()
    Progress(stream=out, delay=0.0)("heu2 bytes", 50_000_000, 100_000_000)
    assert "heu2 50/100 MB (50%)" in out.getvalue()
