"""Turns the stage results of run.py into results/README.md and PNG plots."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

from optiq import _core, options
from optiq.plots import grouped_bars, pyplot

THESIS_SPEEDUP = {"disjoint": 4.2, "overlap": 4.7, "subset": 4.8}  # thesis OPT over MPI_Alltoallv, Mira 1024
THESIS_BREAK_EVEN = "512 KiB"
# Fluid time of the default route under BG/Q's own routing (`optiq plan --topology mira:N
# --planner default`): the same for the three 1:8 patterns. SimGrid's tie rule is worse at 1024.
BGQ_DEFAULT_MS = {512: 37.283, 1024: 74.565}
# Thesis Table VII: measured GB/s on 1024 Mira nodes, 8 MB per pair. Its OPT is the LP over
# candidate paths (optiq's `opt`; `optimal` solves it over all paths); MPI is MPI_Alltoallv.
THESIS_TABLE7_GBS = {
    "disjoint": {"opt": 188.62, "heu2": 84.50, "heu1": 74.88, "mpi_alltoallv": 45.18},
    "overlap": {"opt": 200.03, "heu2": 121.05, "heu1": 113.17, "mpi_alltoallv": 42.84},
    "subset": {"opt": 199.20, "heu2": 106.56, "heu1": 61.71, "mpi_alltoallv": 41.37},
}
THESIS_ROW = {"optimal": "opt"}  # optiq planners reported beside a thesis row of another name


def load(results: Path, stage: str):
    path = results / f"{stage}.json"
    return json.loads(path.read_text()) if path.is_file() else None


def with_costs(section: list, doc: dict) -> list:
    """The section, saying under its title what CPU work its runs were charged."""
    costs = doc.get("cpu_costs")
    if costs is None:
        note = ("*Recorded before CPU work was charged by default: copies and messages were free here "
                "(see docs/simulation.md); not re-run since.*")
    else:
        note = (f"CPU work charged: copies at {costs['copy_bandwidth'] / 1e9:g} GB/s, "
                f"{costs['message_overhead'] * 1e6:g} us per message, ")
        if "poll_cost" in costs:
            note += (f"{costs['poll_cost'] * 1e9:g} ns per request tested and {costs['probe_cost'] * 1e9:g} ns "
                     "per probe (measured, bench/results/poll_cost.md).")
        else:
            note += ("100 ns per request tested or probe (recorded before polls were charged their measured "
                     "cost, 17-27 ns; not re-run since).")
    return section[:1] + ["", note] + section[1:]


def mpi_of(rows, **match):
    for r in rows:
        if r["planner"] == "mpi_alltoallv" and all(r.get(k) == v for k, v in match.items()):
            return r
    raise KeyError(match)


def table(header, lines):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(x) for x in line) + " |" for line in lines]
    return out


def run_line(r, mpi):
    return [r["planner"], f"{r['simulated_seconds'] * 1e3:.2f}", f"{r['throughput'] / 1e9:.1f}",
            f"{r['predicted_seconds'] * 1e3:.2f}", f"{100 * r['predicted_seconds'] / r['simulated_seconds']:.1f}%",
            f"{mpi['simulated_seconds'] / r['simulated_seconds']:.2f}x", f"{r['wall_seconds']:.0f}"]


RUN_HEADER = ["planner", "simulated ms", "GB/s", "predicted ms", "of prediction", "vs MPI", "wall s"]


# Marks a row made by an older generation of the runtime (its "recorded" says when and how).
OLDER = "†"
# Marks a row taken from another stage's run with the same settings (its "made_by" says which).
REUSED = "‡"


def older_note(rows, verb="recorded", since=""):
    """The footnote for rows marked OLDER: when and how they were made (empty when none is)."""
    older = sorted({r["recorded"] for r in rows if r.get("recorded")})
    if not older:
        return []
    return [f"{OLDER} {verb} {'; '.join(older)}{since}: compare these rows with each other, not with the others."]


def patterns_section(doc, results, plt):
    rows = doc["rows"]
    out = ["## 1:8 patterns, 8 MiB per pair (thesis Fig. 7/8, Table VII)", ""]
    for n in sorted({r["nodes"] for r in rows}):
        fig, ax = plt.subplots(figsize=(7, 3.5))
        planners = list(dict.fromkeys(r["planner"] for r in rows if r["nodes"] == n))
        width = 0.8 / len(planners)
        for i, pname in enumerate(planners):
            xs, ys, ps = [], [], []
            for j, p in enumerate(sorted({r["pattern"] for r in rows if r["nodes"] == n})):
                r = next(r for r in rows if r["nodes"] == n and r["pattern"] == p and r["planner"] == pname)
                xs.append(j + i * width)
                ys.append(r["throughput"] / 1e9)
                ps.append(r["throughput"] / 1e9 * r["simulated_seconds"] / r["predicted_seconds"])
            ax.bar(xs, ys, width, label=pname)
            ax.plot(xs, ps, "k_", markersize=10)
        pats = sorted({r["pattern"] for r in rows if r["nodes"] == n})
        ax.set_xticks([j + 0.4 - width / 2 for j in range(len(pats))], pats)
        ax.set_ylabel("GB/s (simulated; bars) / predicted (ticks)")
        ax.set_title(f"{n} simulated BG/Q nodes, 1:8, 8 MiB per pair")
        ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(results / f"patterns_{n}.png", dpi=110)
        plt.close(fig)
        out.append(f"### {n} nodes ([plot](patterns_{n}.png))")
        for p in pats:
            mpi = mpi_of(rows, nodes=n, pattern=p)
            out += ["", f"**{p}** (baseline {mpi.get('mpi_call', 'MPI_Alltoallv')}; thesis OPT/MPI on Mira 1024: "
                    f"{THESIS_SPEEDUP[p]}x)", ""]
            these = [r for r in rows if r["nodes"] == n and r["pattern"] == p]
            lines = [run_line(r, mpi) for r in these]
            header = RUN_HEADER
            if n == 1024:
                thesis = THESIS_TABLE7_GBS[p]
                header = RUN_HEADER + ["thesis GB/s (Mira)"]
                for line in lines:
                    row = THESIS_ROW.get(line[0], line[0])
                    line.append(f"{thesis[row]:.1f} ({row.replace('_alltoallv', '').upper()})" if row in thesis else "–")
            for line, r in zip(lines, these):  # a row of an older runtime, or of another stage, says so
                if r.get("recorded"):
                    line[0] += f" {OLDER}"
                if r.get("made_by"):
                    line[0] += f" {REUSED}"
            out += table(header, lines)
            reused = sorted({r["made_by"] for r in these if r.get("made_by")})
            if reused:
                out += ["", f"{REUSED} from {'; '.join(reused)}."]
            note = older_note(these, since=", and not re-run since")
            if note:
                out += [""] + note
            if n in BGQ_DEFAULT_MS:
                best = min(r["simulated_seconds"] for r in rows if r["nodes"] == n and r["pattern"] == p)
                out += ["", f"Against Mira's own default route ({BGQ_DEFAULT_MS[n]:.2f} ms in the fluid model, "
                        f"BG/Q tie rule) the best simulated optiq run is {BGQ_DEFAULT_MS[n] / (best * 1e3):.2f}x."]
        out.append("")
    return out


def sizes_section(doc, results, plt):
    rows = doc["rows"]
    out = ["## Message size sweep, disjoint, mcf (the runtime's default planner; thesis Fig. 14)", ""]
    for n in sorted({r["nodes"] for r in rows}):
        speed = defaultdict(dict)
        for r in rows:
            if r["nodes"] == n and r["planner"] != "mpi_alltoallv":
                mpi = mpi_of(rows, nodes=n, bytes=r["bytes"])
                speed[r["policy"]][r["bytes"]] = mpi["simulated_seconds"] / r["simulated_seconds"]
        sizes = list(speed["multipath"])
        fig, ax = plt.subplots(figsize=(7, 3.5))
        for policy, values in speed.items():
            ax.plot(range(len(sizes)), [values[s] for s in sizes], "o-", label=f"optiq ({policy})")
        ax.axhline(1.0, color="gray", lw=0.8)
        ax.set_xticks(range(len(sizes)), sizes, rotation=45)
        ax.set_ylabel("speed-up over MPI_Alltoallv")
        ax.set_title(f"{n} simulated nodes, disjoint 1:8")
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(results / f"sizes_{n}.png", dpi=110)
        plt.close(fig)
        even = next((s for s in sizes if speed["multipath"][s] >= 1.0), None)
        worst = min(speed["default-policy"].values())
        policies = list(speed)
        out += [f"### {n} nodes ([plot](sizes_{n}.png))", "",
                f"Break-even of multi-path (smallest size where it is at least as fast as MPI_Alltoallv): **{even}** "
                f"or below (thesis: {THESIS_BREAK_EVEN}). With the default policy (pairs below 16 KiB go direct) optiq "
                f"is never below **{worst:.2f}x** MPI_Alltoallv over the sweep.", "",
                doc.get("note", ""), ""]
        out += table(["bytes per pair"] + policies,
                     [[s] + [f"{speed[p][s]:.2f}x" if s in speed[p] else "" for p in policies] for s in sizes])
        out.append("")
    return out


def simple_section(title, doc, key, note=""):
    rows = doc["rows"]
    out = [title, ""] + ([note, ""] if note else [])
    extra = [k for k in ("nodes", "pattern", "start_dst", "chunk") if k != key and len({r.get(k) for r in rows}) > 1]
    lines = []
    for r in rows:
        if r["planner"] == "mpi_alltoallv":
            continue
        match = {k: r[k] for k in ("nodes", key, "pattern", "transport", "seed", "chunk") if k in r and k != "planner"}
        mpi = next((m for m in rows if m["planner"] == "mpi_alltoallv" and m.get("start_dst") == r.get("start_dst")
                    and all(m.get(k) == v for k, v in match.items() if k not in ("transport", "chunk"))), None)
        line = run_line(r, mpi or r)
        if r.get("recorded"):
            line[0] += f" {OLDER}"
        lines.append([str(r.get(k, "")) for k in extra] + [str(r[key])] + line)
    out += table(extra + [key] + RUN_HEADER, lines) + [""]
    note = older_note(rows)
    return out + (note + [""] if note else [])


# Thesis Table IX: mean GB/s over five random 1:8 pairings on 1024 Mira nodes, 8 MB per pair.
THESIS_RANDOM_GBS = {"disjoint": {"opt": 193.21, "heu2": 206.81, "heu1": 116.92, "mpi_alltoallv": 56.00},
                     "overlap": {"opt": 208.29, "heu2": 210.88, "heu1": 124.62, "mpi_alltoallv": 58.40},
                     "subset": {"opt": 207.10, "heu2": 207.92, "heu1": 124.58, "mpi_alltoallv": 55.00}}


def random_summary(doc):
    """Mean simulated GB/s per planner and partition over the seeds, beside the thesis' means."""
    rows = doc["rows"]
    out = ["Means over the seeds (GB/s simulated; the thesis' means for its three randomly paired "
           "patterns on 1024 Mira nodes beside them):", ""]
    lines = []
    for n in sorted({r["nodes"] for r in rows}):
        for planner in dict.fromkeys(r["planner"] for r in rows if r["nodes"] == n):
            got = [r["throughput"] / 1e9 for r in rows if r["nodes"] == n and r["planner"] == planner]
            row = THESIS_ROW.get(planner, planner)
            thesis = " / ".join(f"{THESIS_RANDOM_GBS[p][row]:.0f}" for p in PATTERNS_OF_THESIS) \
                if row in THESIS_RANDOM_GBS["disjoint"] else "–"
            lines.append([str(n), planner, f"{sum(got) / len(got):.1f}", f"{min(got):.1f}-{max(got):.1f}", thesis])
    return out + table(["nodes", "planner", "mean GB/s", "range", "thesis mean GB/s (disjoint / overlap / subset)"],
                       lines) + [""]


PATTERNS_OF_THESIS = ("disjoint", "overlap", "subset")


def chunks_plot(doc, results, plt):
    rows = [r for r in doc["rows"] if r["planner"] != "mpi_alltoallv"]
    fig, ax = plt.subplots(figsize=(7, 3.5))
    for pname in dict.fromkeys(r["planner"] for r in rows):
        sel = [r for r in rows if r["planner"] == pname]
        ax.plot(range(len(sel)), [r["simulated_seconds"] * 1e3 for r in sel], "o-", label=pname)
        ax.set_xticks(range(len(sel)), [r["chunk"] if r["chunk"] != "0" else "auto" for r in sel], rotation=45)
    ax.set_ylabel("simulated ms per call")
    ax.set_xlabel("forwarded chunk")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(results / "chunks.png", dpi=110)
    plt.close(fig)


def dispatch_section(doc, results, plt):
    """Paced against eager per planner: share of the prediction reached and speed-up over MPI."""
    rows = doc["rows"]
    out = ["## Dispatch: paced against eager ([plot](dispatch.png))", "",
           "The same plans, once paced to their predicted time (the default, docs/runtime.md) and once "
           "eager with at most 32 messages in flight per rank and chunks of at most 128 KiB, the settings "
           "that suited eager dispatch best (its earlier defaults). Paced runs use the runtime's "
           "automatic chunk, capped at 32 KiB. Each cell: simulated ms, % of the plan's prediction, speed-up over MPI_Alltoallv.", ""]
    keys = [(n, p) for n in sorted({r["nodes"] for r in rows}) for p in dict.fromkeys(r["pattern"] for r in rows)]
    planners = list(dict.fromkeys(r["planner"] for r in rows if r["planner"] != "mpi_alltoallv"))
    lines, bars = [], {}
    for n, p in keys:
        for planner in planners:
            cells = [str(n), p, planner]
            for dispatch in ("paced", "eager"):
                r = next((r for r in rows if (r["nodes"], r["pattern"], r["planner"], r.get("dispatch")) ==
                          (n, p, planner, dispatch)), None)
                mpi = next((m for m in rows if (m["nodes"], m["pattern"], m["planner"]) == (n, p, "mpi_alltoallv")), None)
                if r is None or mpi is None:
                    cells.append("–")
                    continue
                share = r["predicted_seconds"] / r["simulated_seconds"]
                bars.setdefault(dispatch, []).append(100 * share)
                cells.append(f"{r['simulated_seconds'] * 1e3:.2f} ms, {100 * share:.1f}%, "
                             f"{mpi['simulated_seconds'] / r['simulated_seconds']:.2f}x")
            lines.append(cells)
    out += table(["nodes", "pattern", "planner", "paced", "eager"], lines) + [""]
    if plt is not None and bars.get("paced") and len(bars.get("eager", [])) == len(bars["paced"]):
        fig, ax = plt.subplots(figsize=(9, 3.6))
        labels = [f"{n} {p[:3]} {planner}" for n, p in keys for planner in planners]
        x = range(len(labels))
        ax.bar([i - 0.2 for i in x], bars["paced"], width=0.4, label="paced")
        ax.bar([i + 0.2 for i in x], bars["eager"], width=0.4, label="eager")
        ax.axhline(90, color="grey", lw=0.8, ls="--")
        ax.set_xticks(list(x), labels, rotation=75, fontsize=7)
        ax.set_ylabel("% of the plan's prediction")
        ax.set_ylim(0, 105)
        ax.legend(fontsize=8, loc="lower right", framealpha=1)
        fig.tight_layout()
        fig.savefig(results / "dispatch.png", dpi=100)
        plt.close(fig)
    return out


PLANNER_ORDER = ("mpi_alltoallv", "default", "heu1", "heu2", "opt", "optimal", "mcf", "maxflow")


def planner_rank(name: str) -> int:
    return PLANNER_ORDER.index(name) if name in PLANNER_ORDER else len(PLANNER_ORDER)


def fabrics_section(doc, results, plt):
    """Fat-trees and dragonflies: every planner against MPI_Alltoallv, one plot per family."""
    rows = doc["rows"]
    out = ["## Fat-trees and dragonflies", "",
           "SimGrid's FAT_TREE and DRAGONFLY clusters (docs/model.md), routes as SimGrid routes them; "
           "bytes are per pair. `leaf-shift` sends each host to the same host of the next leaf switch, "
           "a pattern D-mod-k already spreads, so no plan can gain; a plan that does not promise "
           f"min_gain ({options.default('runtime', 'min-gain'):.0%}) less time than the default route runs on the default route instead "
           "(\"fell back\"; docs/runtime.md, \"When a plan is not worth it\"). `moe` is a mixture-of-experts "
           "all-to-all: every endpoint to every other, with P/16 seeded hot destinations receiving 8x the bytes "
           "given. A host has one link, and on these networks what limits the default route is a hot "
           "destination's own link, which every plan must use: no plan can gain. "
           "Planning s is the planner's wall time on this machine.", ""]
    for family in dict.fromkeys(r["family"] for r in rows):
        keys = sorted(dict.fromkeys((r["nodes"], r["topology"], r["pattern"], r["bytes"])
                                    for r in rows if r["family"] == family), key=lambda k: k[0])
        lines, bars = [], {}
        for n, spec, pattern, size in keys:
            group = sorted((r for r in rows if (r["family"], r["nodes"], r["topology"], r["pattern"], r["bytes"]) ==
                            (family, n, spec, pattern, size)), key=lambda r: planner_rank(r["planner"]))
            mpi = next(r for r in group if r["planner"] == "mpi_alltoallv")
            for r in group:
                line = [str(n), f"`{spec}`", pattern, size] + run_line(r, mpi)
                if r.get("recorded"):
                    line[4] += f" {OLDER}"
                line.append(f"{r.get('planning_seconds', 0):.2f}" if r["planner"] != "mpi_alltoallv" else "–")
                line.append("fell back" if r.get("fell_back") else "")
                lines.append(line)
                if r["planner"] != "mpi_alltoallv":
                    bars.setdefault(r["planner"], {})[(n, pattern, size)] = mpi["simulated_seconds"] / r["simulated_seconds"]
        out += [f"### {family} ([plot](fabrics_{family}.png))", ""]
        out += table(["endpoints", "topology", "pattern", "bytes"] + RUN_HEADER + ["planning s", ""], lines) + [""]
        note = older_note([r for r in rows if r["family"] == family], verb="made")
        if note:
            out += note + [""]
        if plt is None or not bars:
            continue
        fig, ax = plt.subplots(figsize=(9, 3.6))
        cases = [(n, p, size) for n, _, p, size in keys]
        grouped_bars(ax, [f"{n} {p} {size}" for n, p, size in cases],
                     {planner: [speedups.get(c, 0) for c in cases] for planner, speedups in bars.items()}, rotation=30)
        ax.axhline(1, color="grey", lw=0.8, ls="--")
        ax.set_ylabel("speed-up over MPI_Alltoallv (simulated)")
        ax.set_title(f"{family}: every planner against MPI_Alltoallv")
        ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(results / f"fabrics_{family}.png", dpi=100)
        plt.close(fig)
    return out


def ugal_section(ugal, fabrics):
    """Dragonfly cases: minimal routing (simulated MPI_Alltoallv), ideal adaptive routing (fluid)
    and optiq's best simulated plan."""
    rows = fabrics["rows"]
    out = ["## Dragonflies: optiq against ideal adaptive routing (UGAL)", "",
           "SimGrid's dragonflies route minimally, as MPI_Alltoallv's column shows. Adaptive hardware "
           "(UGAL on Aries and Slingshot) also sends packets through an intermediate group (Valiant). "
           "*UGAL ideal* is the best split of every pair's bytes over its minimal route and its Valiant "
           "routes through each other group, with perfect global knowledge: a fluid-model optimum "
           "(optiq.lp.ugal), not a simulation, and more than real UGAL reaches with local queue "
           "lengths. optiq's best is its fastest simulated plan (fallbacks included).", ""]
    lines = []
    for u in sorted(ugal["rows"], key=lambda u: u["nodes"]):
        case = [r for r in rows if r["family"] == "dragonfly" and
                (r["nodes"], r["topology"], r["pattern"], r["bytes"]) == (u["nodes"], u["topology"], u["pattern"], u["bytes"])]
        mpi = next((r for r in case if r["planner"] == "mpi_alltoallv"), None)
        plans = [r for r in case if r["planner"] != "mpi_alltoallv"]
        if mpi is None or not plans:
            continue
        best = min(plans, key=lambda r: r["simulated_seconds"])
        ideal = u["ugal_predicted_seconds"]
        lines.append([str(u["nodes"]), f"`{u['topology']}`", u["pattern"], u["bytes"],
                      f"{mpi['simulated_seconds'] * 1e3:.2f}", f"{ideal * 1e3:.2f}",
                      f"{mpi['simulated_seconds'] / ideal:.2f}x",
                      f"{best['planner']} {best['simulated_seconds'] * 1e3:.2f}",
                      f"{100 * ideal / best['simulated_seconds']:.0f}%", f"{u['wall_seconds']:.1f}"])
    return out + table(["endpoints", "topology", "pattern", "bytes", "MPI_Alltoallv ms (minimal, simulated)",
                        "UGAL ideal ms (fluid)", "UGAL over minimal", "optiq's best ms (simulated)",
                        "optiq's throughput, of UGAL ideal's", "UGAL LP s"], lines) + [""]


def write_report(results: Path) -> None:
    plt = pyplot()

    out = ["# Simulated results (SimGrid SMPI)", "",
           "Regenerate with `.venv/bin/python bench/simulation/run.py all` (model settings: docs/simulation.md). "
           "Simulated ms are one call after a warm-up call. Runs charge CPU work at the measured defaults "
           "(docs/simulation.md, \"CPU costs charged in simulated time\"; each section says what it charged): "
           "every chunk a forwarder relays is copied at the copy rate, every message below 64 KiB costs the "
           "per-message time. Predicted ms are the executed plan's busiest link over 1.8 GB/s, or "
           "its busiest copier's copied bytes over the copy rate if that takes longer; "
           "'of prediction' is predicted / simulated; wall s is this machine's cost of the simulation.", ""]
    doc = load(results, "patterns")
    if doc:
        out += with_costs(patterns_section(doc, results, plt), doc)
    doc = load(results, "sizes")
    if doc:
        out += with_costs(sizes_section(doc, results, plt), doc)
    doc = load(results, "chunks")
    if doc:
        chunks_plot(doc, results, plt)
        out += with_costs(simple_section("## Chunk size sweep, disjoint 8 MiB (thesis Fig. 13; [plot](chunks.png))",
                                         doc, "chunk", "chunk 0 is the automatic choice."), doc)
    doc = load(results, "random")
    if doc:
        out += with_costs(simple_section("## Random pairings, 8 MiB (thesis Table IX)", doc, "seed",
                              "Pattern `random`: the node sets of disjoint (the first P/16 nodes send to the last P/2, eight destinations each) with the destinations shuffled by the seed; the thesis paired its three patterns at random the same way."), doc)
        out += random_summary(doc)
    doc = load(results, "transports")
    if doc:
        order = ("disjoint", "overlap", "subset")
        doc["rows"].sort(key=lambda r: (r["transport"], order.index(r["pattern"]) if r["pattern"] in order else 9,
                                        r["nodes"]))
        out += with_costs(simple_section("## Transports: two-sided (p2p) and one-sided (rma)", doc, "transport",
                                         "Chunk 0 is the runtime's automatic choice (at most 32 KiB). Both transports "
                                         "ran disjoint with it, and overlap and subset with 128 KiB chunks (`--chunk "
                                         "128KiB`, a quarter of the messages): a 1024-node rma run with the automatic "
                                         "chunk takes half an hour to an hour of wall clock per planner beside other work (the wall s column). "
                                         "Rows with a "
                                         "start_dst ran overlap with its destinations starting at that node "
                                         "(`--start-dst`), so that they no longer line up with the sources' blocks."), doc)
    doc = load(results, "dispatch")
    if doc:
        out += with_costs(dispatch_section(doc, results, plt), doc)
    doc = load(results, "fabrics")
    if doc:
        out += with_costs(fabrics_section(doc, results, plt), doc)
        ugal = load(results, "ugal")
        if ugal:
            out += ugal_section(ugal, doc)
    (results / "README.md").write_text("\n".join(out) + "\n")
