"""Option records: one declaration per option, read everywhere.

Every default the docs and the C headers quote equals its record's; docs/options.md is the
records' own table; the C structs, the command lines and the tools take every record; and
the defaults that used to be written by hand in many places stand once in product code.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

import optiq
from optiq import options
from optiq.commands.common import bundled_program

ROOT = Path(__file__).resolve().parents[2]


def normal(text: str) -> str:
    """A quoted default as a record writes it: no backticks, quotes, spaces or remarks in
    parentheses; C enum names as their choice ("OPTIQ_TRANSPORT_P2P" -> "p2p")."""
    t = text.strip().strip("`").strip('"').strip()
    t = re.sub(r"\s*\(.*\)\s*$", "", t).replace(" ", "").strip("`").strip('"')
    enum = re.fullmatch(r"OPTIQ_(?:TRANSPORT|DISPATCH|QUEUE|FILES|SINK)_([A-Z0-9_]+)", t)
    if enum:
        t = enum.group(1).lower().replace("_", "-")
    return {"group": "pset"}.get(t, t)


def record_by_field(layer: str) -> dict:
    return {r.field: r for r in options.records(layer)}


def field_table(path: Path, heading: str) -> dict:
    """``{field: default}`` of the first "| field | default | meaning |" table after ``heading``."""
    text = path.read_text()
    rows = {}
    start = text.index(heading)
    for line in text[start:].splitlines()[1:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if rows and not line.startswith("|"):
            break
        if len(cells) >= 3 and cells[0].startswith("`"):
            rows[cells[0].strip("`")] = cells[1]
    assert rows, f"no table after {heading!r} in {path}"
    return rows


@pytest.mark.parametrize("doc, heading, layer", [
    ("docs/runtime.md", "### Options", "runtime"),
    ("docs/io.md", "**Options** (`optiq_io_options`)", "io"),
])
def test_every_default_a_doc_table_quotes_is_the_records(doc, heading, layer):
    records = record_by_field(layer)
    quoted = field_table(ROOT / doc, heading)
    checked = 0
    for field, default in quoted.items():
        if field not in records:
            continue  # rank_to_node and custom are pointers, not records
        rec = records[field]
        if rec.kind == "text" and not rec.default:
            continue  # "the topology's own", "romio-bgq ... else spread": what an unset text means
        assert normal(default) == normal(rec.default), f"{doc}: {field} quoted as {default}, record {rec.default}"
        checked += 1
    assert checked >= len(records) - 2, f"{doc} leaves records out of its table"


def test_every_default_the_c_header_quotes_is_the_records():
    header = (ROOT / "include/optiq/options.h").read_text()
    records = {**record_by_field("runtime"), **record_by_field("io")}
    # A member and the comment that follows it, which may run over several lines.
    members = re.findall(r"^ +[\w ]+?[ *]+(\w+); +/\*(.*?)\*/", header, re.M | re.S)
    checked = 0
    for field, comment in members:
        found = re.search(r"\(default ([^),]+)", comment)
        if field in records and found:
            assert normal(found.group(1)) == normal(records[field].default), f"options.h: {field}"
            checked += 1
    assert checked >= 10


def test_docs_options_is_the_records_table(optiq_cli):
    table = optiq_cli("options", "--markdown").stdout
    assert table.strip() and table in (ROOT / "docs/options.md").read_text()


def test_options_json_lists_every_record(optiq_cli):
    import json

    doc = json.loads(optiq_cli("options", "--json").stdout)
    assert set(doc) == set(optiq.option_layers())
    for layer, rows in doc.items():
        assert [r["name"] for r in rows] == [r.name for r in options.records(layer)]
    assert all(r["environment"].startswith("OPTIQ_") for r in doc["runtime"])


@pytest.mark.parametrize("layer", ["planner", "runtime", "io", "simulation"])
def test_every_default_passes_its_own_record(layer):
    for rec in options.records(layer):
        if rec.kind != "text":
            optiq.option_number(layer, rec.name, rec.default)


def test_planner_options_struct_holds_the_records_defaults():
    o = optiq.PlannerOptions()
    for rec in options.records("planner"):
        assert o.get(rec.name) == rec.default or optiq.option_number("planner", rec.name, o.get(rec.name)) == \
            optiq.option_number("planner", rec.name, rec.default), rec.name
    assert optiq.PlannerOptions(k=7, max_paths=2).k == 7
    with pytest.raises(optiq.Error, match="max-paths"):
        optiq.PlannerOptions(max_paths=-3)


@pytest.mark.parametrize("program, variable, layers", [("optiq-driver", "OPTIQ_DRIVER", ("runtime",)),
                                                        ("optiq-io-bench", "OPTIQ_IO_BENCH", ("runtime", "io"))])
def test_every_tool_takes_every_record(program, variable, layers):
    path = bundled_program(program, variable, program)
    out = subprocess.run([str(path), "--help"], capture_output=True, text=True, timeout=60)
    text = out.stdout + out.stderr
    for layer in layers:
        for rec in options.records(layer):
            assert f"--{rec.name}" in text, f"{program} lacks --{rec.name}"


@pytest.mark.parametrize("command, layer", [("run", "runtime"), ("io-bench", "runtime"), ("io-bench", "io"),
                                            ("plan", "planner"), ("simulate", "planner")])
def test_every_command_that_runs_a_layer_takes_its_records(optiq_cli, command, layer):
    text = optiq_cli(command, "--help").stdout
    for rec in options.records(layer):
        assert f"--{rec.name}" in text, f"optiq {command} lacks --{rec.name}"


# Defaults once written by hand in many places: each literal now stands once in product code.
ONCE = {
    r"1\.8e9": "the BG/Q link capacity",
    r"\"16MiB\"|16u << 20|16 << 20|16ULL << 20|Bytes\(16\) << 20": "the forwarding budget and the I/O buffer",
    r"\"16KiB\"|16u << 10": "the direct threshold",
    r"64 \* 1024|65536\b|\"64KiB\"": "the planners' 64 KiB",
}


@pytest.mark.parametrize("pattern", list(ONCE))
def test_each_default_is_a_literal_once_in_product_code(pattern):
    hits = []
    for folder in ("src", "include", "python", "tools"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in (".cpp", ".hpp", ".h", ".py", ".c") or not path.is_file():
                continue
            text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group().count("\n"), path.read_text(errors="replace"),
                          flags=re.S)  # comments may quote a default
            for n, line in enumerate(text.splitlines(), 1):
                code = re.sub(r"(//|#).*$", "", line)
                if re.search(pattern, code):
                    hits.append(f"{path.relative_to(ROOT)}:{n}")
    # Two defaults of 16 MiB (the forwarding budget, the I/O buffer) and two of 64 KiB (heu2's
    # unit, the least bytes on a path): each is its own record.
    limit = 2 if "16MiB" in pattern or "64KiB" in pattern else 1
    assert len(hits) <= limit, f"{ONCE[pattern]} written {len(hits)} times: {hits}"
