"""SimGrid platforms for optiq topologies.

The simulated network is SimGrid's ``TORUS`` cluster. Its routing (``TorusZone``) is
dimension-ordered from SimGrid's dimension 0, so the platform lists the topology's dimensions
in the order of :func:`optiq._core.bgq_dimension_order` and the core's ``simgrid`` routing model
routes exactly as SimGrid does. SimGrid never routes over the second cable of a size-2 ring, so
the topology that plans for the simulated machine (:func:`simulated_topology`) treats size-2
dimensions as lines: every link a plan may use is one the simulated network can carry.

Node ``n`` of the topology runs on host ``node-<h>`` where ``h`` numbers the coordinates with the
first routed dimension fastest; the hostfile lists one host per rank in node order.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .. import _core

ROUTING = "simgrid"
CLUSTER = "torus"  # SimGrid names the links "<cluster>_link_from_<a>_to_<b>_UP|DOWN"
HOST_PREFIX = "node-"


def simulated_topology(spec: str, link_bandwidth: float = 1.8e9) -> _core.Topology:
    """The topology of the simulated machine for ``spec``: same nodes and ids, size-2 rings as lines.

    >>> simulated_topology("bgq:4x4x4x8x2").spec
    'torus:4x4x4x8x2m'
    """
    topo = _core.parse_topology(spec, link_bandwidth)
    dims = []
    for d, (size, ring) in enumerate(zip(topo.sizes, topo.wrap)):
        if not ring and size > 2:
            raise _core.Error(f"SimGrid's torus has no lines: dimension {chr(65 + d)} of '{topo.spec}' "
                              "is not a ring")
        dims.append(f"{size}m" if size == 2 else str(size))
    return _core.parse_topology("torus:" + "x".join(dims), link_bandwidth)


@dataclass(frozen=True)
class Layout:
    """Where the topology's nodes and links sit on the SimGrid torus."""

    topology: _core.Topology
    order: tuple  # topology dimension of SimGrid dimension j

    @classmethod
    def of(cls, topology: _core.Topology) -> "Layout":
        return cls(topology, tuple(_core.bgq_dimension_order(topology.sizes)))

    @property
    def simgrid_dims(self) -> list:
        """Sizes of SimGrid's dimensions. Size-1 dimensions carry no links and leave host
        numbers unchanged, but SimGrid would give each one a self-link of the same name, and
        it aborts on two: they are left out (a single node keeps one)."""
        return [self.topology.sizes[d] for d in self.order if self.topology.sizes[d] > 1] or [1]

    def host_index(self, node: int) -> int:
        coords, sizes = self.topology.coords(node), self.topology.sizes
        index, stride = 0, 1
        for d in self.order:
            index += coords[d] * stride
            stride *= sizes[d]
        return index

    def host(self, node: int) -> str:
        return f"{HOST_PREFIX}{self.host_index(node)}"

    def link_name(self, link: int) -> str:
        """SimGrid's name of the directed link the core calls ``link``."""
        t = self.topology
        dim, direction, src = t.link_dim(link), t.link_direction(link), t.link_src(link)
        if direction > 0:  # the cable src owns, towards its + neighbour
            owner, end = src, "UP"
        else:  # the cable the - neighbour owns, travelled backwards
            owner, end = t.link_dst(link), "DOWN"
        coords = t.coords(owner)
        coords[dim] = (coords[dim] + 1) % t.sizes[dim]  # SimGrid's cables all lead round the ring
        plus = t.node_at(coords)
        return f"{CLUSTER}_link_from_{self.host_index(owner)}_to_{self.host_index(plus)}_{end}"


def platform_xml(topology: _core.Topology, latency: float = 5e-8, link_bandwidth: float | None = None) -> str:
    """The platform file's text: one TORUS cluster, split-duplex links, no limiter.

    A message a rank sends to itself (a node that is its own destination, as in the subset
    pattern) crosses a loopback link as fast as a memory copy; SimGrid refuses an empty route.
    """
    layout = Layout.of(topology)
    bandwidth = link_bandwidth or topology.link_bandwidth
    n = topology.num_nodes
    params = ",".join(str(s) for s in layout.simgrid_dims)
    return (
        "<?xml version='1.0'?>\n"
        '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n'
        '<platform version="4.1">\n'
        f"  <!-- optiq platform for {topology.spec}: SimGrid dimensions in routing order "
        f"{''.join(chr(65 + d) for d in layout.order)}; routes equal optiq's '{ROUTING}' model -->\n"
        '  <zone id="world" routing="Full">\n'
        f'    <cluster id="{CLUSTER}" prefix="{HOST_PREFIX}" suffix="" radical="0-{n - 1}" speed="1Gf"\n'
        f'             bw="{bandwidth:.6g}Bps" lat="{latency:.6g}s" sharing_policy="SPLITDUPLEX"\n'
        f'             topology="TORUS" topo_parameters="{params}"\n'
        '             loopback_bw="100GBps" loopback_lat="0s"/>\n'
        "  </zone>\n"
        "</platform>\n")


def hostfile_text(topology: _core.Topology, ranks_per_node: int = 1) -> str:
    """One line per rank: rank r runs on node r // ranks_per_node."""
    layout = Layout.of(topology)
    return "".join(f"{layout.host(node)}\n" for node in range(topology.num_nodes) for _ in range(ranks_per_node))


def write_platform(topology: _core.Topology, out: str | Path, latency: float = 5e-8,
                   link_bandwidth: float | None = None, ranks_per_node: int = 1) -> tuple:
    """Writes ``out`` and its hostfile (same name, ``.hosts``); returns both paths."""
    out = Path(out)
    if not out.name or out.suffix == ".hosts":
        raise _core.Error(f"platform file name '{out}' leaves no name for its .hosts file")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(platform_xml(topology, latency, link_bandwidth))
    hosts = out.with_suffix(".hosts")
    hosts.write_text(hostfile_text(topology, ranks_per_node))
    return out, hosts
