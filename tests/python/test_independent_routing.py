"""The default plans on other Mira partitions, checked against an independent implementation.

This file re-derives BG/Q routing, the 1:8 patterns and the link metrics from the written
rules (DESIGN §2) in plain Python, without touching the core, and compares link by link (links
by their documented names, ``NODE:PORT``).
"""

import collections

import pytest

import optiq

SHAPES = {512: (4, 4, 4, 4, 2), 2048: (4, 4, 8, 8, 2), 4096: (4, 8, 8, 8, 2)}


def dimension_order(sizes):
    dims, n, total = list(sizes), len(sizes), 1
    for s in sizes:
        total *= s
    order = []
    for i in range(n):
        best, length = i, dims[i]
        for j in range(n):
            if dims[j] > length:
                best, length = j, dims[j]
        if best == 0 and dims[0] == dims[1] and total in (128, 256):
            best = 1
        order.append(best)
        dims[best] = -1
    return order


def coords_of(node, sizes):
    out = []
    for s in reversed(sizes):
        out.append(node % s)
        node //= s
    return out[::-1]


def node_of(coords, sizes):
    node = 0
    for c, s in zip(coords, sizes):
        node = node * s + c
    return node


def bgq_route(src, dst, sizes):
    """List of (node, dim, sign) ports."""
    here, target = coords_of(src, sizes), coords_of(dst, sizes)
    ports = []
    for dim in dimension_order(sizes):
        s, d, ring = here[dim], target[dim], sizes[dim]
        if s == d:
            continue
        dist = abs(d - s)
        direct = 1 if d > s else -1
        sign = direct if (2 * dist < ring or (2 * dist == ring and s % 2 == 0)) else -direct
        while here[dim] != d:
            ports.append((node_of(here, sizes), dim, sign))
            here[dim] = (here[dim] + sign) % ring
    return ports


def pattern_pairs(name, P):
    m, n = P // 16, P // 2
    startm, startn = {"disjoint": (0, P // 2), "overlap": (0, m // 2), "subset": (n // 4, 0)}[name]
    fan = n // m
    return [(startm + i, startn + i * fan + j) for i in range(m) for j in range(fan)]


@pytest.mark.parametrize("nodes", sorted(SHAPES))
@pytest.mark.parametrize("pattern", ["disjoint", "overlap", "subset"])
def test_default_plan_matches_independent_model(nodes, pattern):
    sizes = SHAPES[nodes]
    nbytes = 8 * 2**20
    counts = collections.Counter()
    for src, dst in pattern_pairs(pattern, nodes):
        for node, dim, sign in bgq_route(src, dst, sizes):
            counts[f"{node}:{'ABCDE'[dim]}{'+' if sign > 0 else '-'}"] += 1

    topo = optiq.parse_network(f"mira:{nodes}")
    jobs = optiq.assign_sizes(optiq.named_pattern(pattern, nodes), "8MiB")
    plan = optiq.make_plan("default", topo, optiq.make_routing("bgq", topo), jobs).plan
    loads = optiq.link_loads(plan, topo)
    assert len(loads) == topo.num_links
    assert {topo.link_name(link): load for link, load in enumerate(loads) if load} == {
        name: c * nbytes for name, c in counts.items()}
    m = optiq.compute_metrics(plan, topo)
    assert m.paths == len(jobs)
    assert m.paths_per_link_max == max(counts.values())
    assert m.paths_per_link_avg == pytest.approx(sum(counts.values()) / len(counts))
    assert m.link_bytes_max == max(counts.values()) * nbytes
