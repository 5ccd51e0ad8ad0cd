"""SimGrid platforms for optiq's torus networks.

The simulated network is SimGrid's ``TORUS`` cluster. Its routing (``TorusZone``) is
dimension-ordered from SimGrid's dimension 0, so the platform lists the torus' dimensions in
the order of :func:`optiq._core.bgq_dimension_order` and the core's ``simgrid`` routing model
routes exactly as SimGrid does. SimGrid never routes over the second cable of a size-2 ring, so
the network that plans for the simulated machine (:func:`simulated_network`) treats size-2
dimensions as lines: every link a plan may use is one the simulated network can carry.

Node ``n`` of the network runs on host ``node-<h>`` where ``h`` numbers the coordinates with the
first routed dimension fastest; the hostfile lists one host per rank in node order. Only torus
networks (tori, meshes, BG/Q partitions) have a SimGrid platform here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .. import _core

ROUTING = "simgrid"
CLUSTER = "torus"  # SimGrid names the links "<cluster>_link_from_<a>_to_<b>_UP|DOWN"
HOST_PREFIX = "node-"


def torus_of(network: _core.Network) -> _core.TorusShape:
    """The network's torus shape; optiq.Error when the network is not a torus or mesh."""
    if network.torus is None:
        raise _core.Error(f"the SimGrid platform writer needs a torus or mesh network, not '{network.spec}'")
    return network.torus


def simulated_network(spec: str, link_bandwidth: float = 1.8e9) -> _core.Network:
    """The network of the simulated machine for ``spec``: same nodes and ids, size-2 rings as lines.

    >>> simulated_network("bgq:4x4x4x8x2").spec
    'torus:4x4x4x8x2m'
    """
    network = _core.parse_network(spec, link_bandwidth)
    torus = torus_of(network)
    dims = []
    for d, (size, ring) in enumerate(zip(torus.sizes, torus.wrap)):
        if not ring and size > 2:
            raise _core.Error(f"SimGrid's torus has no lines: dimension {chr(65 + d)} of '{network.spec}' "
                              "is not a ring")
        dims.append(f"{size}m" if size == 2 else str(size))
    return _core.parse_network("torus:" + "x".join(dims), link_bandwidth)


@dataclass(frozen=True)
class Layout:
    """Where the network's nodes and links sit on the SimGrid torus."""

    network: _core.Network
    torus: _core.TorusShape
    order: tuple  # torus dimension of SimGrid dimension j

    @classmethod
    def of(cls, network: _core.Network) -> "Layout":
        torus = torus_of(network)
        return cls(network, torus, tuple(_core.bgq_dimension_order(torus.sizes)))

    @property
    def simgrid_dims(self) -> list:
        """Sizes of SimGrid's dimensions. Size-1 dimensions carry no links and leave host
        numbers unchanged, but SimGrid would give each one a self-link of the same name, and
        it aborts on two: they are left out (a single node keeps one)."""
        sizes = self.torus.sizes
        return [sizes[d] for d in self.order if sizes[d] > 1] or [1]

    def host_index(self, node: int) -> int:
        coords, sizes = self.torus.coords(node), self.torus.sizes
        index, stride = 0, 1
        for d in self.order:
            index += coords[d] * stride
            stride *= sizes[d]
        return index

    def host(self, node: int) -> str:
        return f"{HOST_PREFIX}{self.host_index(node)}"

    def link_name(self, link: int) -> str:
        """SimGrid's name of the directed link the core calls ``link``."""
        net, t = self.network, self.torus
        dim, direction, src = t.link_dim(link), t.link_direction(link), net.link_src(link)
        if direction > 0:  # the cable src owns, towards its + neighbour
            owner, end = src, "UP"
        else:  # the cable the - neighbour owns, travelled backwards
            owner, end = net.link_dst(link), "DOWN"
        coords = t.coords(owner)
        coords[dim] = (coords[dim] + 1) % t.sizes[dim]  # SimGrid's cables all lead round the ring
        plus = t.node_at(coords)
        return f"{CLUSTER}_link_from_{self.host_index(owner)}_to_{self.host_index(plus)}_{end}"


def platform_xml(network: _core.Network, latency: float = 5e-8, link_bandwidth: float | None = None) -> str:
    """The platform file's text: one TORUS cluster, split-duplex links, no limiter.

    A message a rank sends to itself (a node that is its own destination, as in the subset
    pattern) crosses a loopback link as fast as a memory copy; SimGrid refuses an empty route.
    """
    layout = Layout.of(network)
    bandwidth = link_bandwidth or network.link_bandwidth
    n = network.num_endpoints
    params = ",".join(str(s) for s in layout.simgrid_dims)
    return (
        "<?xml version='1.0'?>\n"
        '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n'
        '<platform version="4.1">\n'
        f"  <!-- optiq platform for {network.spec}: SimGrid dimensions in routing order "
        f"{''.join(chr(65 + d) for d in layout.order)}; routes equal optiq's '{ROUTING}' model -->\n"
        '  <zone id="world" routing="Full">\n'
        f'    <cluster id="{CLUSTER}" prefix="{HOST_PREFIX}" suffix="" radical="0-{n - 1}" speed="1Gf"\n'
        f'             bw="{bandwidth:.6g}Bps" lat="{latency:.6g}s" sharing_policy="SPLITDUPLEX"\n'
        f'             topology="TORUS" topo_parameters="{params}"\n'
        '             loopback_bw="100GBps" loopback_lat="0s"/>\n'
        "  </zone>\n"
        "</platform>\n")


def hostfile_text(network: _core.Network, ranks_per_node: int = 1) -> str:
    """One line per rank: rank r runs on node r // ranks_per_node."""
    layout = Layout.of(network)
    return "".join(f"{layout.host(node)}\n" for node in network.endpoints for _ in range(ranks_per_node))


def write_platform(network: _core.Network, out: str | Path, latency: float = 5e-8,
                   link_bandwidth: float | None = None, ranks_per_node: int = 1) -> tuple:
    """Writes ``out`` and its hostfile (same name, ``.hosts``); returns both paths."""
    out = Path(out)
    if not out.name or out.suffix == ".hosts":
        raise _core.Error(f"platform file name '{out}' leaves no name for its .hosts file")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(platform_xml(network, latency, link_bandwidth))
    hosts = out.with_suffix(".hosts")
    hosts.write_text(hostfile_text(network, ranks_per_node))
    return out, hosts
