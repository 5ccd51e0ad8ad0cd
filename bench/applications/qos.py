"""Quality of service in simulation: an urgent coupling exchange started while a bulk I/O
aggregation is in flight (docs/qos.md), with and without traffic classes.

Bulk: HACC-IO's aggregation step, every compute rank sends its particles (--bulk-bytes) to an
aggregator: on a BG/Q partition with its I/O side (mira:N+io) a rank on its pset's I/O node, on
a fat-tree one of --aggregators evenly spaced hosts. Urgent: a coupling exchange, a few ranks far
from the couplers (--urgent-senders) each send --urgent-bytes to the coupler ranks, which sit
where the bulk bytes converge (BG/Q: the bridge nodes; fat-tree: the aggregators). The urgent
exchange starts --delay seconds after the bulk one. Runs per machine (tools/qos/main.cpp): each
exchange alone, both at once in one class, and both with the bulk context at priority 1 for
every --class-windows value, and for every --until-done-windows value with the urgent context's
class-until-done (its window closes once it completed on every rank); a value WINDOW:SHARE also
gives the bulk context that class-share (it keeps sending at that fraction of its planned rate
while held).

    .venv/bin/python bench/applications/qos.py [--machines bgq,fattree] [--bgq mira:512+io] [--delay 1e-3]

Writes bench/results/qos.{json,md,png}; --report rewrites the report and plot from the json.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import optiq
from optiq.simulation import platform as plat
from optiq.simulation import smpi

RESULTS = Path(__file__).resolve().parent.parent / "results"


def requests(network, io: list[int], args) -> tuple[str, str, int]:
    """(bulk lines, urgent lines, ranks) for the machine (ranks are endpoints in order, then one
    per I/O node)."""
    compute = network.num_endpoints
    if io:  # BG/Q: rank compute + k on I/O node k, which serves compute nodes in blocks
        per_io = -(-compute // len(io))
        bulk = [(r, compute + r // per_io) for r in range(compute)]
        # The coupler: the bridge nodes, whose links the whole pset's bulk bytes cross.
        couplers = sorted({network.link_src(l) for l in range(network.num_links) if network.link_dst(l) in io})
        ranks = compute + len(io)
    else:
        step = compute // args.aggregators
        aggregators = list(range(0, compute, step))[:args.aggregators]
        bulk = [(r, r // step * step) for r in range(compute) if r % step]
        couplers = aggregators  # the coupler runs on the aggregators
        ranks = compute
    # The urgent exchange: the model components (ranks far from the couplers) send to the
    # coupler ranks, round-robin.
    far = [r for r in range(compute) if r not in couplers]
    senders = far[len(far) // 2:][:args.urgent_senders]
    urgent = [(s, couplers[i % len(couplers)]) for i, s in enumerate(senders)]
    line = "{} {} {}\n".format
    return ("".join(line(s, d, args.bulk_bytes) for s, d in bulk),
            "".join(line(s, d, args.urgent_bytes) for s, d in urgent), ranks)


def io_nodes(network) -> list[int]:
    """The network's I/O nodes (a BG/Q partition with its I/O side; none elsewhere)."""
    return [v for v in range(network.num_endpoints, network.num_vertices) if network.kind(v) == "io"]


def urgent_link_seconds(network, urgent: str) -> float:
    """The longest any coupler's links in need for the urgent bytes it receives: the capacity the
    urgent exchange takes from the bulk one where both converge (the most a bulk exchange served
    second should lose)."""
    into: dict[int, int] = {}
    for line in urgent.splitlines():
        _, dst, size = line.split()
        into[int(dst)] = into.get(int(dst), 0) + int(size)
    capacity_in = {d: sum(network.capacity(l) for l in range(network.num_links) if network.link_dst(l) == d)
                   for d in into}
    return max(b / capacity_in[d] for d, b in into.items())


def run_machine(spec: str, args) -> dict:
    net = plat.simulated_network(spec)
    io = io_nodes(net)
    out = {"topology": spec, "compute_ranks": net.num_endpoints, "io_ranks": len(io), "runs": []}
    with tempfile.TemporaryDirectory(prefix="optiq-qos-") as tmp:
        platform, hosts = plat.write_platform(net, Path(tmp) / "platform.xml")
        if io:
            plat.append_io_ranks(net, hosts)
        bulk, urgent, ranks = requests(net, io, args)
        (Path(tmp) / "bulk.txt").write_text(bulk)
        (Path(tmp) / "urgent.txt").write_text(urgent)
        out["ranks"] = ranks
        out["urgent_link_seconds"] = urgent_link_seconds(net, urgent)
        runs = [("urgent-alone", None), ("bulk-alone", None), ("together", None)]
        runs += [("together", {"window": w, "until_done": False, "share": 0.0}) for w in args.class_windows]
        runs += [("together", {"window": w, "until_done": True, "share": share}) for w, share in args.until_done_windows]
        for mode, classes in runs:
            cmd = ["--topology", spec, "--bulk", str(Path(tmp) / "bulk.txt"), "--urgent", str(Path(tmp) / "urgent.txt"),
                   "--mode", mode, "--delay", str(args.delay), "--planner", args.planner,
                   "--bulk-inflight", str(args.bulk_inflight), "--chunk", str(args.chunk)]
            cmd += ["--urgent-chunk", str(args.urgent_chunk)] if args.urgent_chunk else []
            cmd += ["--tick", str(args.tick)] if args.tick is not None else []
            if classes:
                cmd += ["--classes", "--class-window", str(classes["window"])]
                cmd += ["--class-until-done"] if classes["until_done"] else []
                cmd += ["--class-share", str(classes["share"])] if classes["share"] else []
            cmd += ["--io-ranks"] if io else []
            print(f"simulating {spec}: {mode}{f' with classes {classes}' if classes else ''} ...", file=sys.stderr,
                  flush=True)
            doc = smpi.run_program(smpi.smpi_qos(), ranks, platform, hosts, cmd, 36000, smpi.cpu_cost_settings())
            doc["class_window"] = classes and classes["window"]
            doc["until_done"] = bool(classes and classes["until_done"])
            doc["class_share"] = classes["share"] if classes else 0.0
            if not doc.get("verified"):
                raise SystemExit(f"{spec} {mode}: bytes wrong")
            out["runs"].append(doc)
    return out


def summary(m: dict) -> tuple[dict, list[dict]]:
    """(the runs without classes, the runs with classes by window)."""
    by = {(r["mode"], r["classes"]): r for r in m["runs"] if not r["classes"]}
    base = {"urgent_alone": by[("urgent-alone", False)]["urgent_seconds"],
            "bulk_alone": by[("bulk-alone", False)]["bulk_seconds"],
            "urgent_mixed": by[("together", False)]["urgent_seconds"],
            "bulk_mixed": by[("together", False)]["bulk_seconds"]}
    qos = [{"window": r["class_window"], "until_done": r.get("until_done", False), "share": r.get("class_share", 0.0),
            "urgent": r["urgent_seconds"],
            "bulk": r["bulk_seconds"], "held_rounds": r["bulk_held_rounds_max"]} for r in m["runs"] if r["classes"]]
    return base, qos


def label(q: dict) -> str:
    return f"{q['window']:g}" + (" until done" if q["until_done"] else "") + (f", share {q['share']:g}" if q["share"] else "")


def recomputed_link_seconds(m: dict, args) -> float:
    """urgent_link_seconds for results recorded before runs stored it (the same requests again)."""
    net = plat.simulated_network(m["topology"])
    io = io_nodes(net)
    return urgent_link_seconds(net, requests(net, io, args)[1])


def report(results: dict, path: Path, args) -> None:
    lines = ["# Quality of service in simulation (`bench/applications/qos.py`)", "",
             f"Bulk: every compute rank sends {args.bulk_bytes} bytes to its aggregator (BG/Q: a rank on its pset's "
             f"I/O node; fat-tree: {args.aggregators} evenly spaced hosts). Urgent: a coupling exchange, "
             f"{args.urgent_senders} ranks far from the couplers each send {args.urgent_bytes} bytes to the coupler "
             "ranks (BG/Q: the bridge nodes, whose links the pset's I/O bytes cross; fat-tree: the aggregators), "
             f"starting {args.delay * 1e3:g} ms after the bulk exchange. Messages of {args.chunk} bytes at most (at "
             "and above SMPI's 64 KiB eager threshold a send completes when delivered, so a rank's messages in "
             "flight are what it has on the wire)"
             + (f", the urgent exchange's of {args.urgent_chunk}" if args.urgent_chunk else "") +
             f"; the bulk exchange keeps at most {args.bulk_inflight} in flight "
             f"per rank. Planner {args.planner}."
             # A rank reacts to a completed chunk up to a tick late; said only where it is not the default.
             + (f" Between polling rounds that complete nothing a rank sleeps {args.tick:g} s (optiq-qos --tick)."
                if args.tick is not None else "") +
             " Times are the slowest rank's, each exchange from its own start, in "
             "milliseconds; every byte checked. With classes the bulk context has priority 1; `window` is the "
             "urgent context's class-window (multiples of its planned time for which every rank holds its bulk "
             "sends back); \"until done\": with class-until-done, which closes the window once the urgent exchange "
             "completed on every rank. The urgent bytes' link time is the longest a coupler's links in need for "
             "the urgent bytes it receives: the capacity the urgent exchange takes from the bulk one where both "
             "converge, so a bulk exchange served second need lose no more (last column: at most 1).", "",
             "| machine | urgent alone | urgent bytes' link time | bulk alone | one class: urgent (slowdown) | "
             "one class: bulk | window | classes: urgent (slowdown) | classes: bulk | bulk's loss against one class / "
             "alone (in urgent times alone) | bulk's loss against alone / urgent bytes' link time |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, m in results.items():
        b, qos = summary(m)
        link = m.get("urgent_link_seconds") or recomputed_link_seconds(m, args)
        head = (f"| {name} `{m['topology']}` ({m['ranks']} ranks) | {b['urgent_alone'] * 1e3:.3f} | {link * 1e3:.3f} | "
                f"{b['bulk_alone'] * 1e3:.3f} | {b['urgent_mixed'] * 1e3:.3f} ({b['urgent_mixed'] / b['urgent_alone']:.2f}x) | "
                f"{b['bulk_mixed'] * 1e3:.3f} |")
        for i, q in enumerate(qos):
            mixed, alone = q["bulk"] - b["bulk_mixed"], q["bulk"] - b["bulk_alone"]
            lines.append((head if i == 0 else "| | | | | | |") +
                         f" {label(q)} | {q['urgent'] * 1e3:.3f} ({q['urgent'] / b['urgent_alone']:.2f}x) | "
                         f"{q['bulk'] * 1e3:.3f} | {mixed * 1e3:+.3f} / {alone * 1e3:+.3f} ms "
                         f"({mixed / b['urgent_alone']:+.2f} / {alone / b['urgent_alone']:+.2f}) | {alone / link:.3f} |")
    lines += ["", "What the simulation leaves out, and what it shows: the simulated links serve every message alike "
              "(no traffic classes in the network). Priority acts where optiq controls it: at the senders and "
              "forwarders, which send nothing new for a less urgent exchange while a more urgent one is active on "
              "the rank or inside its window. Bulk messages already on the wire when the urgent exchange starts "
              "still share links with it, and where the urgent exchange outlasts its window (its planned time is a "
              "fluid bound) the bulk ranks resume beside it; a longer window shields it better and costs the bulk "
              "exchange about the window, unless the urgent context has class-until-done: then every rank resumes "
              "once the urgent exchange has ended everywhere (two notices per rank through rank 0), and the window "
              "only caps the hold. CPU costs are charged as in every optiq simulation (docs/simulation.md).",
              ""]
    path.write_text("\n".join(lines))


def plot(results: dict, path: Path, args) -> None:
    """Per machine what the acceptance judges: the urgent exchange's slowdown against its time
    alone (line: 1.2x) and the bulk exchange's loss in urgent bytes' link times (line: 1)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    most = max(len(summary(m)[1]) for m in results.values()) + 1
    fig, axes = plt.subplots(len(results), 2, figsize=(max(5, 0.75 * most) * 2, 3.6 * len(results)), squeeze=False)
    for row, (name, m) in zip(axes, results.items()):
        b, qos = summary(m)
        link = m.get("urgent_link_seconds") or recomputed_link_seconds(m, args)
        groups = [("one class", b["urgent_mixed"], b["bulk_mixed"])]
        groups += [(f"window {q['window']:g}" + ("\nuntil done" if q["until_done"] else "") +
                    (f"\nshare {q['share']:g}" if q["share"] else ""), q["urgent"], q["bulk"]) for q in qos]
        xs = list(range(len(groups)))
        colors = ["tab:gray"] + ["tab:blue"] * len(qos)
        urgent, bulk = row
        urgent.bar(xs, [g[1] / b["urgent_alone"] for g in groups], 0.6, color=colors)
        urgent.axhline(1.2, color="tab:red", linestyle="--", linewidth=1, label="1.2x its time alone")
        urgent.set_ylabel("urgent: x its time alone")
        bulk.bar(xs, [(g[2] - b["bulk_alone"]) / link for g in groups], 0.6, color=colors)
        bulk.axhline(1.0, color="tab:red", linestyle="--", linewidth=1, label="the urgent bytes' link time")
        bulk.set_ylabel("bulk's loss / urgent bytes' link time")
        for ax, what in ((urgent, "urgent exchange"), (bulk, "bulk exchange")):
            ax.set_xticks(xs, [g[0] for g in groups], fontsize=7)
            ax.set_title(f"{what}, {name} (gray: one class, blue: with classes)", fontsize=8)
            ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def window_shares(text: str) -> list:
    """'1.5,3,1.5:0.1' -> [(1.5, 0.0), (3.0, 0.0), (1.5, 0.1)]"""
    out = []
    for item in filter(None, text.split(",")):
        window, _, share = item.partition(":")
        out.append((float(window), float(share or 0)))
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--machines", default="bgq,fattree", help="bgq, fattree (default: %(default)s)")
    p.add_argument("--bgq", default="mira:512+io", help="the BG/Q partition with its I/O side (default: %(default)s)")
    p.add_argument("--fattree", default="fattree:3;8,8,8;1,8,8;1,1,1", help="the fat-tree (default: %(default)s)")
    p.add_argument("--bulk-bytes", type=optiq.parse_bytes, default=optiq.parse_bytes("1MiB"))
    p.add_argument("--urgent-bytes", type=optiq.parse_bytes, default=optiq.parse_bytes("512KiB"))
    p.add_argument("--aggregators", type=int, default=8,
                   help="fat-tree: aggregator hosts, evenly spaced (default: %(default)s)")
    p.add_argument("--urgent-senders", type=int, default=16, help="ranks sending the urgent exchange (default: %(default)s)")
    p.add_argument("--delay", type=float, default=1e-3, help="seconds between the starts (default: %(default)s)")
    p.add_argument("--planner", default="mcf")
    p.add_argument("--class-windows", type=lambda t: [float(x) for x in t.split(",")], default=[1.0, 1.5, 2.0],
                   help="the urgent context's class-window in the runs with classes (default: 1,1.5,2)")
    p.add_argument("--until-done-windows", type=window_shares, default=[],
                   help="class-windows of further runs with classes where the urgent context has class-until-done, "
                        "each WINDOW or WINDOW:SHARE (the bulk context's class-share) "
                        "(default: none)")
    p.add_argument("--chunk", type=optiq.parse_bytes, default=optiq.parse_bytes("64KiB"),
                   help="bytes per message of both exchanges, direct ones too (default: 65536)")
    p.add_argument("--urgent-chunk", type=optiq.parse_bytes, default=0,
                   help="bytes per message of the urgent exchange alone: finer chunks fill the pipelines through its "
                        "relays sooner (default: --chunk)")
    p.add_argument("--bulk-inflight", type=int, default=1,
                   help="messages in flight per rank of the bulk exchange: what it has on the wire when the urgent "
                        "one starts, which no class can call back (default: %(default)s)")
    p.add_argument("--tick", type=float, default=None,
                   help="seconds a rank sleeps between polling rounds that complete nothing (simulated time): it "
                        "reacts to a completed chunk up to this late (default: optiq-qos's own)")
    p.add_argument("--name", default="qos", help="results file stem (default: %(default)s)")
    p.add_argument("--report", action="store_true", help="rewrite the report and plot from the results file only")
    args = p.parse_args()
    path = RESULTS / f"{args.name}.json"
    results = json.loads(path.read_text()) if path.exists() else {}
    if not args.report:
        for name in [m.strip() for m in args.machines.split(",") if m.strip()]:
            spec = {"bgq": args.bgq, "fattree": args.fattree}.get(name)
            if spec is None:
                raise SystemExit(f"unknown machine '{name}' (bgq, fattree)")
            try:
                results[name] = run_machine(spec, args)
            except optiq.Error as e:
                raise SystemExit(f"qos.py: {name}: {e}") from None
            results["_args"] = {k: v for k, v in vars(args).items() if k != "report"}
            path.write_text(json.dumps(results, indent=1) + "\n")
    stored = argparse.Namespace(**{**vars(args), **results.get("_args", {})})
    machines = {k: v for k, v in results.items() if not k.startswith("_")}
    report(machines, RESULTS / f"{args.name}.md", stored)
    plot(machines, RESULTS / f"{args.name}.png", stored)
    return 0


if __name__ == "__main__":
    sys.exit(main())
