"""A second job on the simulated machine: its traffic, and what it leaves of each link.

A background of load L on fraction F of the machine: round(F x endpoints) endpoints, drawn
with the seed and paired at random, stream data to each other in both directions along the
network's default routes, each flow at most L x the link bandwidth (a flow the network cannot
serve that fast runs at the share max-min sharing gives it). The simulation runs these flows
as extra ranks beside the measured job (optiq-driver --background), each flow keeping STREAMS
messages in flight: links share bandwidth among messages (max-min), and a job that plans
multiple paths keeps many messages on a link, so a flow of one message at a time would be
squeezed to a sliver of its cap. Planning that knows the background plans on what is left of
each link: k flows of rate r take k r, but never more than kS/(kS+1) of it against one message
more, so a link of capacity C leaves max(C - k r, C / (k S + 1)).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from .. import _core

STREAMS = 8  # messages each background flow keeps in flight

@dataclass(frozen=True)
class Background:
    load: float = 0.0      # each flow's rate cap as a fraction of the link bandwidth; 0: no background
    nodes: float = 0.5     # fraction of the endpoints that run the second job
    seed: int = 1

    def __post_init__(self):
        if not 0 <= self.load <= 1:
            raise _core.Error(f"background load {self.load} is not between 0 and 1")
        if not 0 <= self.nodes <= 1:
            raise _core.Error(f"background nodes {self.nodes} is not a fraction between 0 and 1")

    @property
    def active(self) -> bool:
        return self.load > 0 and self.nodes > 0


def flows(network: _core.Network, bg: Background) -> list:
    """The second job's flows as (source vertex, destination vertex): pairs both ways."""
    if not bg.active:
        return []
    endpoints = list(network.endpoints)
    count = int(round(bg.nodes * len(endpoints))) // 2 * 2
    chosen = random.Random(bg.seed).sample(endpoints, count)
    pairs = list(zip(chosen[0::2], chosen[1::2]))
    return [f for a, b in pairs for f in ((a, b), (b, a))]


def rate(network: _core.Network, bg: Background) -> float:
    """Bytes/s each background flow is capped at: a fraction of one cable's bandwidth (a
    dragonfly's links carry several cables; link 0 is a host's own)."""
    return bg.load * (network.capacity(0) if network.dragonfly is not None else network.link_bandwidth)


def link_flows(network: _core.Network, routing: _core.RoutingModel, bg: Background) -> list:
    """How many background flows cross each link (along their default routes)."""
    count = [0] * network.num_links
    for a, b in flows(network, bg):
        for link in routing.route(a, b):
            count[link] += 1
    return count


def capacities_left(network: _core.Network, routing: _core.RoutingModel, bg: Background) -> list:
    """Bytes/s each link leaves beside the background: max(C - k r, C / (k S + 1)) for k flows of rate r."""
    r = rate(network, bg)
    return [c if k == 0 else max(c - k * r, c / (k * STREAMS + 1))
            for c, k in zip(network.capacities, link_flows(network, routing, bg))]


def network_left(network: _core.Network, routing: _core.RoutingModel, bg: Background) -> _core.Network:
    """The network planning sees beside the background (the same network when there is none)."""
    if not bg.active:
        return network
    return network.with_capacities(capacities_left(network, routing, bg))


def write_flows(network: _core.Network, bg: Background, job_ranks: int, path: Path) -> list:
    """Writes the driver's --background file; background ranks follow the job's (one rank per
    flow end, in flow order). Returns the vertex each background rank runs on."""
    hosts, lines = [], ["# sender receiver bytes/s streams: the second job's flows (optiq.simulation.background)"]
    r = rate(network, bg)
    for a, b in flows(network, bg):
        sender, receiver = job_ranks + len(hosts), job_ranks + len(hosts) + 1
        hosts += [a, b]
        lines.append(f"{sender} {receiver} {r:.9g} {STREAMS}")
    path.write_text("\n".join(lines) + "\n")
    return hosts
