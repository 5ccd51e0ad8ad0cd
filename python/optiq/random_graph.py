"""Random switched networks in the graph-file format (docs/graph-format.md).

A Jellyfish-like fabric: switches joined at random (each switch gets ``switch_degree`` random
neighbours, so the switch graph is irregular), endpoints spread over the switches, some of
them with a second cable to another switch, and capacities drawn per cable. It is what the
realizable-path tests and the irregular-network benchmark plan on: default routes through
switches that software forwarding cannot steer, heterogeneous links, parallel cables.

Examples
--------
>>> g = random_switched_graph(switches=4, endpoints=6, seed=1)
>>> sum(n["kind"] == "endpoint" for n in g["nodes"])
6
"""

from __future__ import annotations

import random


def random_switched_graph(switches: int, endpoints: int, switch_degree: int = 3, seed: int = 0,
                          capacities: tuple[float, ...] = (1e9, 2e9, 4e9), dual_homed: float = 0.0) -> dict:
    """A connected random network as a node-link dict (``json.dump`` it to get a graph file).

    Vertices: endpoints ``h0..`` first, then switches ``s0..``. Every cable is two links, one
    each way, with one capacity drawn from ``capacities``. The switches form a ring (so the
    fabric is connected) plus random extra cables up to about ``switch_degree`` per switch,
    repeats allowed (parallel cables). Endpoint i hangs off switch ``i mod switches`` and, with
    probability ``dual_homed``, off a second random switch as well. Routing: ``shortest``.
    """
    if switches < 1 or endpoints < 2:
        raise ValueError("need at least one switch and two endpoints")
    rng = random.Random(seed)
    nodes = [{"id": f"h{i}", "kind": "endpoint"} for i in range(endpoints)]
    nodes += [{"id": f"s{i}", "kind": "switch"} for i in range(switches)]
    links = []

    def cable(a: str, b: str) -> None:
        c = rng.choice(capacities)
        links.append({"source": a, "target": b, "capacity": c})
        links.append({"source": b, "target": a, "capacity": c})

    if switches > 1:
        for i in range(switches if switches > 2 else 1):
            cable(f"s{i}", f"s{(i + 1) % switches}")
        for i in range(switches):
            for _ in range(max(0, switch_degree - 2) // 2 + (1 if switch_degree % 2 and i % 2 else 0)):
                j = rng.randrange(switches - 1)
                cable(f"s{i}", f"s{j if j < i else j + 1}")
    for i in range(endpoints):
        home = i % switches
        cable(f"h{i}", f"s{home}")
        if switches > 1 and rng.random() < dual_homed:
            other = rng.randrange(switches - 1)
            cable(f"h{i}", f"s{other if other < home else other + 1}")
    return {"directed": True, "nodes": nodes, "links": links, "routing": "shortest"}
