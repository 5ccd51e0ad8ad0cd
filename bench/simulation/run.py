"""Simulated experiments: optiq's runtime and MPI_Alltoallv under SimGrid SMPI on BG/Q-shaped tori,
fat-trees and dragonflies.

Stages (each writes results/<stage>.json; `report` turns them into results/README.md and PNGs):
  patterns   the thesis' 1:8 patterns, 8 MiB per pair, every planner (thesis Fig. 7/8, Table VII)
  sizes      message sizes 16 KiB..8 MiB, optiq always multi-path and with its default policy (Fig. 14)
  chunks     forwarded chunk sizes (Fig. 13)
  random     five seeded random pairings (Table IX)
  transports p2p against rma on the 1:8 patterns (--start-dst: with their destinations shifted)
  dispatch   paced against eager dispatch on the 1:8 patterns, every planner (docs/runtime.md)
  fabrics    fat-trees and dragonflies of 64 to 1024 endpoints, their patterns, every planner
  ugal       the dragonfly patterns' time under ideal adaptive (UGAL) routing, fluid model only
  stale      (no simulation) marks the fabrics rows whose plan the current planners make differently

  .venv/bin/python bench/simulation/run.py all          # everything, then the report
  .venv/bin/python bench/simulation/run.py patterns --nodes 512,1024
  .venv/bin/python bench/simulation/run.py transports --nodes 1024 --patterns disjoint --transports rma --merge
  .venv/bin/python bench/simulation/run.py transports --nodes 512 --patterns overlap --chunk 128KiB --start-dst 24 --merge
  .venv/bin/python bench/simulation/run.py report
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from optiq import options, parse_bytes
from optiq.failure import run_interruptible
from optiq.simulation.experiment import MPI, Setup, planning_network, predictions, simulate, ugal_prediction, write_plans
from optiq.simulation.smpi import COPY_BANDWIDTH, MESSAGE_OVERHEAD, POLL_COST, PROBE_COST

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
SHAPES = {512: "mira:512", 1024: "mira:1024", 2048: "mira:2048"}
PATTERNS = ("disjoint", "overlap", "subset")
SIZES = ("16KiB", "32KiB", "64KiB", "128KiB", "256KiB", "512KiB", "1MiB", "2MiB", "8MiB")
CHUNKS = ("64KiB", "128KiB", "256KiB", "512KiB", "1MiB", "0")
TRANSPORTS = ("p2p", "rma")
TRANSPORT_PLANNERS = ("heu2", "mcf")


def log(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


# Called with a stage's rows after every simulation, so that a long stage stopped half-way keeps
# what it measured (main sets it).
checkpoint = None


def run(rows: list, label: dict, setup: Setup, planners: list) -> None:
    log(f"{label} ...")
    for r in simulate(setup, planners):
        rows.append({**label, **r})
        log(f"  {r['planner']:14} {r['simulated_seconds'] * 1e3:9.3f} ms simulated "
            f"(predicted {r['predicted_seconds'] * 1e3:8.3f}), {r['wall_seconds']:6.1f} s wall")
    if checkpoint:
        checkpoint(rows)


ROW_KEYS = ("nodes", "pattern", "planner", "bytes", "policy", "chunk", "seed", "transport", "dispatch", "family",
            "start_dst")


def save(stage: str, rows: list, merge: bool, seconds: float) -> None:
    """Writes results/<stage>.json; with merge, keeps earlier rows that these do not replace."""
    path = RESULTS / f"{stage}.json"
    if merge and path.is_file():
        def key(r):
            return tuple(sorted((k, v) for k, v in r.items() if k in ROW_KEYS))

        new = {key(r) for r in rows}
        rows = [r for r in json.loads(path.read_text())["rows"] if key(r) not in new] + rows
    doc = {"stage": stage, "wall_seconds": seconds, "rows": rows,
           "cpu_costs": {"copy_bandwidth": COPY_BANDWIDTH, "message_overhead": MESSAGE_OVERHEAD,
                         "poll_cost": POLL_COST, "probe_cost": PROBE_COST}}
    path.write_text(json.dumps(doc, indent=1) + "\n")


def stage_patterns(nodes: list, planners: list, patterns=PATTERNS) -> list:
    rows = []
    for n in nodes:
        for p in patterns:
            run(rows, {"nodes": n, "pattern": p}, Setup(SHAPES[n], pattern=p), planners)
    return rows


# The dispatch stage's paced runs are this stage's runs: the same Setup (paced is the default
# dispatch, the other runtime settings at their defaults), so the same simulated numbers (at 512
# nodes the two stages agree to the last digit). At 1,024 nodes they cost two hours of wall
# clock; --from-dispatch takes them instead of running them again.
REUSED_FROM_DISPATCH = "the dispatch stage's paced run (the same settings)"


def rows_from_dispatch(nodes: list, planners: list, patterns) -> list:
    path = RESULTS / "dispatch.json"
    found = {(r["nodes"], r["pattern"], r["planner"]): r for r in json.loads(path.read_text())["rows"]
             if r.get("dispatch") == "paced"} if path.is_file() else {}
    rows = []
    for n in nodes:
        for p in patterns:
            for planner in planners:
                r = found.get((n, p, planner))
                if r is None:
                    raise SystemExit(f"--from-dispatch: no paced dispatch run of {planner} on {p} at {n} nodes "
                                     f"(run: bench/simulation/run.py dispatch --nodes {n} --dispatch paced)")
                rows.append({**{k: v for k, v in r.items() if k != "dispatch"}, "made_by": REUSED_FROM_DISPATCH})
    return rows


def stage_sizes(nodes: list) -> list:
    """Multi-path at every size; the default policy differs from it only below its threshold."""
    default_threshold = parse_bytes(options.default("runtime", "direct-threshold"))
    rows = []
    for n in nodes:
        for size in SIZES:
            policies = [("multipath", "0")]
            if parse_bytes(size) < default_threshold:
                policies.append(("default-policy", options.default("runtime", "direct-threshold")))
            for policy, threshold in policies:
                # Multi-path means every plan runs, whatever it promises over the default route.
                min_gain = 0.0 if policy == "multipath" else options.default("runtime", "min-gain")
                setup = Setup(SHAPES[n], pattern="disjoint", bytes=size,
                              runtime={"direct-threshold": threshold, "min-gain": min_gain})
                run(rows, {"nodes": n, "bytes": size, "policy": policy, "threshold": threshold}, setup, ["mcf"])
            if len(policies) == 1:  # above the threshold the default policy is multi-path itself
                rows += [{**r, "policy": "default-policy"} for r in rows[-2:]]
    return rows


def stage_chunks(nodes: list) -> list:
    rows = []
    for n in nodes:
        for chunk in CHUNKS:
            run(rows, {"nodes": n, "chunk": chunk}, Setup(SHAPES[n], pattern="disjoint", runtime={"chunk": chunk}), ["heu2", "mcf"])
    return rows


def stage_random(nodes: list) -> list:
    rows = []
    for n in nodes:
        for seed in range(1, 6):
            run(rows, {"nodes": n, "seed": seed}, Setup(SHAPES[n], pattern="random", seed=seed),
                ["default", "heu1", "heu2", "optimal", "mcf"])
    return rows


def stage_transports(nodes: list, patterns=PATTERNS, transports=TRANSPORTS, chunk="0",
                     planners=TRANSPORT_PLANNERS, start_dst=None) -> list:
    rows = []
    shifted = {} if start_dst is None else {"start_dst": start_dst}
    for n in nodes:
        for p in patterns:
            for transport in transports:
                run(rows, {"nodes": n, "pattern": p, "transport": transport, "chunk": chunk, **shifted},
                    Setup(SHAPES[n], pattern=p, runtime={"transport": transport, "chunk": chunk},
                          start_dst=-1 if start_dst is None else start_dst), list(planners))
    return rows


# Eager dispatch runs with the cap and the chunk it had as defaults, which suited it best
# (docs/simulation.md, "Dispatch that meets the plan").
EAGER_INFLIGHT = 32
EAGER_CHUNK = "128KiB"


def stage_dispatch(nodes: list, dispatches=("paced", "eager"), patterns=PATTERNS) -> list:
    rows = []
    for n in nodes:
        for p in patterns:
            for dispatch in dispatches:
                eager = dispatch == "eager"
                run(rows, {"nodes": n, "pattern": p, "dispatch": dispatch},
                    Setup(SHAPES[n], pattern=p, runtime={"dispatch": dispatch,
                                                         "max-inflight": EAGER_INFLIGHT if eager else None,
                                                         "chunk": EAGER_CHUNK if eager else None}),
                    ["heu1", "heu2", "optimal", "mcf"])
    return rows


# Fat-trees and dragonflies (docs/model.md), SimGrid's parameters, at 64 to 1024 endpoints. The
# dragonflies have one chassis per group: with more, SimGrid's routes are not paths (docs/model.md)
# and a plan for the documented rule would not describe the simulated machine.
FABRICS = {
    "dragonfly": {64: "dragonfly:4,1;1,1;4,1;4", 128: "dragonfly:8,1;1,1;8,1;2",
                  256: "dragonfly:8,1;1,1;8,1;4", 1024: "dragonfly:16,1;1,1;16,1;4"},
    "fattree": {64: "fattree:2;8,8;1,8;1,1", 128: "fattree:2;8,16;1,8;1,1",
                256: "fattree:2;16,16;1,16;1,1", 1024: "fattree:3;8,8,16;1,8,8;1,1,1"},
}
LARGE = (256, 1024)
# (pattern, bytes per pair, endpoint counts). groups-alltoall moves less per pair so that a
# simulation stays within this machine's memory and minutes; so do the fat-tree patterns, whose
# every flow crosses the top switches: SimGrid then re-solves one sharing system of all flows at
# each chunk's completion, and a forwarding plan at 8 MiB per pair ran for over 20 minutes at 256
# hosts (1 MiB: 1 minute). moe's P(P-1) messages all start at once under MPI_Alltoallv: at 256
# endpoints 12 GB and 4-17 minutes of wall clock per run, ten times the cost per doubling, so the
# million messages of 1,024 endpoints are beyond this machine.
MOE_SIZES = (64, 128, 256)
FABRIC_PATTERNS = {
    "dragonfly": [("group-to-group", "8MiB", LARGE), ("groups-alltoall", "1MiB", LARGE),
                  ("permutation", "8MiB", LARGE), ("disjoint", "8MiB", LARGE), ("moe", "64KiB", MOE_SIZES)],
    "fattree": [("dmodk-adversarial", "2MiB", LARGE), ("permutation", "2MiB", LARGE), ("leaf-shift", "2MiB", LARGE),
                ("disjoint", "2MiB", LARGE), ("moe", "64KiB", MOE_SIZES)],
}
FABRIC_PLANNERS = ["default", "heu1", "heu2", "optimal", "mcf"]


def leaf_shift_requests(spec: str, size: str, path: Path) -> str:
    """Each host to the same host of the next leaf switch: D-mod-k sends every message up a link
    of its own, so no plan can beat the default route (the pattern for the min_gain fallback)."""
    hosts_per_leaf = int(spec.split(";")[1].split(",")[0])
    n = 1
    for m in spec.split(";")[1].split(","):
        n *= int(m)
    path.write_text("".join(f"{i} {(i + hosts_per_leaf) % n} {size}\n" for i in range(n)))
    return str(path)


def fabric_setup(spec: str, pattern: str, size: str, tmp: Path) -> Setup:
    if pattern == "leaf-shift":
        return Setup(spec, requests=leaf_shift_requests(spec, size, tmp / f"shift-{spec.replace(';', '_')}.txt"))
    return Setup(spec, pattern=pattern, bytes=size)


# A row whose plan the current planners would make differently came from an older generation
# of them: `stale` marks such rows of the fabrics stage (their "recorded" says so, and the report
# gives them the older-row mark) until the case is simulated again.
STALE_PLAN = "with a plan the current planners no longer make (found by `run.py stale`)"


def mark_stale_plans() -> None:
    path = RESULTS / "fabrics.json"
    doc = json.loads(path.read_text())
    cases = {}
    for r in doc["rows"]:
        cases.setdefault((r["topology"], r["pattern"], r["bytes"]), []).append(r)
    marked = 0
    with tempfile.TemporaryDirectory(prefix="optiq-stale-") as tmp:
        for (spec, pattern, size), rows in cases.items():
            setup = fabric_setup(spec, pattern, size, Path(tmp))
            planned = [r for r in rows if r["planner"] != MPI]
            files = write_plans(predictions(setup, [r["planner"] for r in planned]), planning_network(setup), Path(tmp))
            for r in planned:
                if files[r["planner"]][2] != r["plan_sha256"]:
                    r["recorded"] = STALE_PLAN
                    marked += 1
                    log(f"{spec} {pattern} {size} {r['planner']}: the plan differs from the recorded one")
    path.write_text(json.dumps(doc, indent=1) + "\n")
    log(f"{marked} rows of {path} marked")


def stage_fabrics(nodes: list, planners=FABRIC_PLANNERS, families=tuple(FABRICS), patterns=None,
                  size_override=None) -> list:
    rows = []
    with tempfile.TemporaryDirectory(prefix="optiq-fabrics-") as tmp:
        for family in families:
            for n in nodes:
                spec = FABRICS[family][n]
                for pattern, size, sizes in FABRIC_PATTERNS[family]:
                    if patterns and pattern not in patterns:
                        continue
                    if n not in sizes:
                        log(f"{family} {pattern}: runs at {', '.join(map(str, sizes))} endpoints, not {n}")
                        continue
                    size = size_override or size
                    setup = fabric_setup(spec, pattern, size, Path(tmp))
                    run(rows, {"family": family, "nodes": n, "topology": spec, "pattern": pattern, "bytes": size},
                        setup, planners)
    return rows


def stage_ugal(nodes: list) -> list:
    """For every dragonfly case the fabrics stage simulated: its time under ideal adaptive routing
    (optiq.lp.ugal; fluid model, since SimGrid's dragonflies route minimally only)."""
    path = RESULTS / "fabrics.json"
    if not path.is_file():
        raise SystemExit(f"ugal: {path} does not exist; run the fabrics stage first")
    cases = dict.fromkeys((r["nodes"], r["topology"], r["pattern"], r["bytes"])
                          for r in json.loads(path.read_text())["rows"]
                          if r["family"] == "dragonfly" and r["nodes"] in nodes)
    rows = []
    for n, spec, pattern, size in cases:
        start = time.perf_counter()
        seconds = ugal_prediction(Setup(spec, pattern=pattern, bytes=size))
        rows.append({"nodes": n, "topology": spec, "pattern": pattern, "bytes": size,
                     "ugal_predicted_seconds": seconds, "wall_seconds": time.perf_counter() - start})
        log(f"{n} {pattern} {size}: UGAL {seconds * 1e3:.3f} ms ({rows[-1]['wall_seconds']:.1f} s)")
    return rows


STAGES = {"patterns": stage_patterns, "sizes": stage_sizes, "chunks": stage_chunks, "random": stage_random,
          "transports": stage_transports, "dispatch": stage_dispatch, "fabrics": stage_fabrics,
          "ugal": stage_ugal}
DEFAULT_NODES = {"patterns": [512, 1024], "sizes": [512], "chunks": [512], "random": [512], "transports": [512],
                 "dispatch": [512, 1024], "fabrics": [64, 128, 256, 1024], "ugal": [64, 128, 256, 1024]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("stage", choices=list(STAGES) + ["all", "report", "stale"])
    parser.add_argument("--nodes", default=None,
                        help="comma-separated partition sizes (512, 1024, 2048; fabrics, ugal: 64, 128, 256, 1024)")
    parser.add_argument("--planners", default=None,
                        help="patterns, transports and fabrics stages: planners to run (default: "
                             "default,heu1,heu2,mcf; transports: heu2,mcf; fabrics: default,heu1,heu2,optimal,mcf)")
    parser.add_argument("--patterns", default=None,
                        help="patterns, transports and dispatch stages: 1:8 patterns to run (default: "
                             f"{','.join(PATTERNS)}); fabrics: the family's patterns to run (default: all)")
    parser.add_argument("--dispatch", default="paced,eager", help="dispatch stage: dispatches to run")
    parser.add_argument("--transports", default=",".join(TRANSPORTS),
                        help="transports stage: transports to run (with --merge, the others' rows stay)")
    parser.add_argument("--chunk", default="0", metavar="SIZE",
                        help="transports stage: chunk size (default 0, the runtime's automatic choice)")
    parser.add_argument("--start-dst", type=int, default=None, metavar="NODE",
                        help="transports stage: the patterns' destinations start at this node instead of their "
                             "own first one (rows keep it as start_dst)")
    parser.add_argument("--families", default=",".join(FABRICS), help="fabrics stage: network families to run")
    parser.add_argument("--bytes", default=None, metavar="SIZE",
                        help="fabrics stage: bytes per pair for every pattern run (default: each pattern's own)")
    parser.add_argument("--from-dispatch", action="store_true",
                        help="patterns stage: take the planners' rows from the dispatch stage's paced runs, which "
                             "use the same settings, instead of simulating them again")
    parser.add_argument("--merge", action="store_true",
                        help="keep the stage's earlier rows for other node counts, patterns and planners")
    args = parser.parse_args()
    try:
        parse_bytes(args.chunk)
    except ValueError as e:
        parser.error(f"--chunk: {e}")
    unknown = sorted(set(args.transports.split(",")) - set(TRANSPORTS))
    if unknown:
        parser.error(f"--transports: unknown transport {', '.join(unknown)} (known: {', '.join(TRANSPORTS)})")
    RESULTS.mkdir(parents=True, exist_ok=True)
    if args.stage == "stale":
        mark_stale_plans()
    stages = list(STAGES) if args.stage == "all" else [] if args.stage in ("report", "stale") else [args.stage]
    global checkpoint
    for stage in stages:
        nodes = [int(x) for x in args.nodes.split(",")] if args.nodes else DEFAULT_NODES[stage]
        start = time.perf_counter()

        def checkpoint(rows, stage=stage, start=start):
            save(stage, rows, args.merge, time.perf_counter() - start)
        patterns = args.patterns.split(",") if args.patterns else None
        if stage == "patterns" and args.from_dispatch:
            rows = rows_from_dispatch(nodes, (args.planners or "heu1,heu2,mcf").split(","), patterns or PATTERNS)
        elif stage == "patterns":
            rows = stage_patterns(nodes, (args.planners or "default,heu1,heu2,mcf").split(","), patterns or PATTERNS)
        elif stage == "fabrics":
            rows = stage_fabrics(nodes, args.planners.split(",") if args.planners else FABRIC_PLANNERS,
                                 args.families.split(","), patterns, args.bytes)
        elif stage == "dispatch":
            rows = stage_dispatch(nodes, args.dispatch.split(","), patterns or PATTERNS)
        elif stage == "transports":
            rows = stage_transports(nodes, patterns or PATTERNS, args.transports.split(","), args.chunk,
                                    args.planners.split(",") if args.planners else TRANSPORT_PLANNERS, args.start_dst)
        else:
            rows = STAGES[stage](nodes)
        save(stage, rows, args.merge, time.perf_counter() - start)
        log(f"wrote {RESULTS / (stage + '.json')}")
    from report import write_report  # noqa: E402  (plots need matplotlib; import only when reporting)

    write_report(RESULTS)
    return 0


if __name__ == "__main__":
    sys.exit(run_interruptible(main, "bench/simulation/run.py"))
