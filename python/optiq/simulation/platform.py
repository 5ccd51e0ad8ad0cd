"""SimGrid platforms for optiq's networks.

A torus (tori, meshes, BG/Q partitions) becomes SimGrid's ``TORUS`` cluster. Its routing
(``TorusZone``) is dimension-ordered from SimGrid's dimension 0, so the platform lists the
torus' dimensions in the order of :func:`optiq._core.bgq_dimension_order` and the core's
``simgrid`` routing model routes exactly as SimGrid does. SimGrid never routes over the second
cable of a size-2 ring, so the network that plans for the simulated machine
(:func:`simulated_network`) treats size-2 dimensions as lines: every link a plan may use is one
the simulated network can carry. Node ``n`` runs on host ``node-<h>`` where ``h`` numbers the
coordinates with the first routed dimension fastest.

A fat-tree or dragonfly (``fattree:...``, ``dragonfly:...``) becomes SimGrid's own ``FAT_TREE``
or ``DRAGONFLY`` cluster with the same topo_parameters: host ``node-<i>`` is endpoint ``i``, and
the network's links carry SimGrid's link names, so the core's ``simgrid`` routing model routes
exactly as SimGrid does.

Any other network (a graph file, BG/Q with its I/O side) becomes a platform library:
``NAME.so``, a copy of optiq's ``liboptiq-platform.so`` (src/simulation/platform_library.cpp),
which smpirun loads as ``-platform NAME.so``, and ``NAME.net`` beside it, the network's spec,
digest and link capacities. It builds one host ``node-<v>`` per vertex that is not a switch (an
endpoint of a network that names its hosts, such as an imported one, keeps its name), one
SimGrid link per directed link (named as in the network, its own capacity, shared by the flows
that cross it), and computes each route SimGrid asks for with the network's own routing model:
SimGrid routes exactly as the model, by construction, and memory grows with the links, not with
the square of the hosts. An I/O node's host has a disk (``IO_DISK_BANDWIDTH`` for reads and
writes unless told otherwise) on which SMPI's MPI-IO charges the time of what a rank there writes.

The hostfile lists one host per rank, ranks on the endpoints in ascending order.
"""

from __future__ import annotations

import math
import shutil
from dataclasses import dataclass
from pathlib import Path

from .. import _core, options
from .smpi import platform_library

ROUTING = "simgrid"  # the routing model of a torus platform
CLUSTER = "torus"  # SimGrid names the links "<cluster>_link_from_<a>_to_<b>_UP|DOWN"
HOST_PREFIX = "node-"
# The storage bandwidth behind one BG/Q I/O node: tessier2016 estimates the peak I/O bandwidth
# of 1,024 Mira nodes (8 I/O nodes) at 22.4 GBps, of 4,096 (32) at 89.6 GBps: 2.8 GB/s each,
# below the 2 x 1.8 GB/s its two I/O links carry.
IO_DISK_BANDWIDTH = 2.8e9


def torus_of(network: _core.Network) -> _core.TorusShape:
    """The network's torus shape; optiq.Error when the network is not a torus or mesh."""
    if network.torus is None:
        raise _core.Error(f"the SimGrid platform writer needs a torus or mesh network, not '{network.spec}'")
    return network.torus


def cluster_of(network: _core.Network) -> tuple | None:
    """SimGrid's cluster topology and topo_parameters for a fat-tree or dragonfly, else None.

    >>> cluster_of(_core.parse_network("fattree:2;4,4;1,2;1,2"))
    ('FAT_TREE', '2;4,4;1,2;1,2')
    >>> cluster_of(_core.parse_network("dragonfly:3,1;2,1;3,1;2"))
    ('DRAGONFLY', '3,1;2,1;3,1;2')
    """
    if network.fat_tree is not None:
        return "FAT_TREE", network.fat_tree.topo_parameters
    if network.dragonfly is not None:
        return "DRAGONFLY", network.dragonfly.topo_parameters
    return None


def routing_of(network: _core.Network) -> str:
    """The routing model a simulated ``network`` follows: SimGrid's own on a torus, fat-tree or
    dragonfly (whose default routing for planning is SimGrid's documented rule), else the
    network's own."""
    return ROUTING if network.torus is not None or cluster_of(network) is not None else network.default_routing


def simulated_network(spec: str, link_bandwidth: float | None = None) -> _core.Network:
    """The network of the simulated machine for ``spec``: a torus keeps its nodes and ids with
    size-2 rings as lines; any other network is simulated as it is.

    >>> simulated_network("bgq:4x4x4x8x2").spec
    'torus:4x4x4x8x2m'
    >>> simulated_network("mira:512+io").spec
    'bgq:4x4x4x4x2+io'
    """
    if link_bandwidth is None:
        link_bandwidth = options.default("simulation", "link-bandwidth")
    network = _core.parse_network(spec, link_bandwidth)
    if network.torus is None:
        return network
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


def platform_xml(network: _core.Network, latency: float | None = None, link_bandwidth: float | None = None) -> str:
    """The platform file's text for a torus, fat-tree or dragonfly (see :func:`write_platform`)."""
    latency = options.default("simulation", "latency") if latency is None else latency
    header = ("<?xml version='1.0'?>\n"
              '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n'
              '<platform version="4.1">\n')
    if cluster_of(network) is not None:
        return header + "".join(_cluster_zone(network, latency, link_bandwidth)) + "</platform>\n"
    # One TORUS cluster, split-duplex links, no limiter. A message a rank sends to itself (a
    # node that is its own destination, as in the subset pattern) crosses a loopback link as
    # fast as a memory copy; SimGrid refuses an empty route.
    layout = Layout.of(network)
    bandwidth = link_bandwidth or network.link_bandwidth
    n = network.num_endpoints
    params = ",".join(str(s) for s in layout.simgrid_dims)
    return (
        header +
        f"  <!-- optiq platform for {network.spec}: SimGrid dimensions in routing order "
        f"{''.join(chr(65 + d) for d in layout.order)}; routes equal optiq's '{ROUTING}' model -->\n"
        '  <zone id="world" routing="Full">\n'
        f'    <cluster id="{CLUSTER}" prefix="{HOST_PREFIX}" suffix="" radical="0-{n - 1}" speed="1Gf"\n'
        f'             bw="{bandwidth:.6g}Bps" lat="{latency:.6g}s" sharing_policy="SPLITDUPLEX"\n'
        f'             topology="TORUS" topo_parameters="{params}"\n'
        '             loopback_bw="100GBps" loopback_lat="0s"/>\n'
        "  </zone>\n"
        "</platform>\n")


def is_library_platform(network: _core.Network) -> bool:
    """Whether the network's platform is optiq's platform library rather than an XML file."""
    return network.torus is None and cluster_of(network) is None


def _cluster_zone(network: _core.Network, latency: float, link_bandwidth: float | None):
    """SimGrid's FAT_TREE or DRAGONFLY cluster: split-duplex links (each direction its own link,
    as in the network), no limiters, and a loopback for the messages a rank sends to itself
    (SimGrid refuses an empty route). SimGrid multiplies a dragonfly's bandwidth by the cable
    counts itself, as the network does: the cluster gets the bandwidth of one cable, that of
    link 0 (host 0's cable to its switch)."""
    topology, params = cluster_of(network)
    bandwidth = link_bandwidth or network.capacity(0)
    n = network.num_endpoints
    yield (f"  <!-- optiq platform for {network.spec}: SimGrid's {topology} cluster; routes equal optiq's "
           f"'{ROUTING}' model -->\n"
           '  <zone id="world" routing="Full">\n'
           f'    <cluster id="fabric" prefix="{HOST_PREFIX}" suffix="" radical="0-{n - 1}" speed="1Gf"\n'
           f'             bw="{bandwidth:.9g}Bps" lat="{latency:.6g}s" sharing_policy="SPLITDUPLEX"\n'
           f'             topology="{topology}" topo_parameters="{params}"\n'
           '             loopback_bw="100GBps" loopback_lat="0s"/>\n'
           "  </zone>\n")


def hosts_of(network: _core.Network) -> list:
    """Vertices with a host on an explicit platform: every vertex that is not a switch."""
    return [v for v in range(network.num_vertices) if network.kind(v) != "switch"]


def hosts_of(network: _core.Network) -> list:
    """Vertices with a host on a library platform: every vertex that is not a switch."""
    return [v for v in range(network.num_vertices) if network.kind(v) != "switch"]


def _description(network: _core.Network, latency: float, disk_bandwidth: float) -> str:
    """What the platform library reads beside itself (NAME.net): the network by its spec, checked
    by its digest, with every link's capacity as runs of equal values."""
    spec = network.spec
    if spec.startswith("graph:"):  # the library may run elsewhere: the file by its absolute path
        spec = "graph:" + str(Path(spec[len("graph:"):]).resolve())
    runs, caps = [], network.capacities
    for c in caps:
        if runs and runs[-1][1] == c:
            runs[-1][0] += 1
        else:
            runs.append([1, c])
    disk = "inf" if math.isinf(disk_bandwidth) else repr(float(disk_bandwidth))
    return (f"# optiq platform for {network.spec}, read by the platform library NAME.so beside this NAME.net\n"
            f"spec {spec}\ndigest {network.digest}\nlatency {float(latency)!r}\ndisk_bandwidth {disk}\n"
            f"capacities {len(caps)}\n" + "".join(f"{n} {float(c)!r}\n" for n, c in runs))


def host_namer(network: _core.Network):
    """The function from a vertex to the name of its host on the network's platform: an endpoint
    of a network that names its hosts (an imported one) by its own name."""
    if network.torus is not None:
        return Layout.of(network).host
    if network.hosts_named:
        return lambda v: network.vertex_name(v) if network.kind(v) == "endpoint" else f"{HOST_PREFIX}{v}"
    return lambda v: f"{HOST_PREFIX}{v}"


def hostfile_text(network: _core.Network, ranks_per_node: int = 1) -> str:
    """One line per rank: rank r runs on the endpoint numbered r // ranks_per_node."""
    host = host_namer(network)
    return "".join(f"{host(node)}\n" for node in network.endpoints for _ in range(ranks_per_node))


def append_io_ranks(network: _core.Network, hosts: Path) -> int:
    """Adds one rank on each I/O vertex after the endpoints' ranks in the hostfile ``hosts``
    (simulations of I/O: the driver's and the I/O benchmark's ``--io-ranks``); returns how many."""
    host = host_namer(network)
    ios = [v for v in range(len(network.endpoints), network.num_vertices) if network.kind(v) == "io"]
    hosts.write_text(hosts.read_text() + "".join(f"{host(v)}\n" for v in ios))
    return len(ios)


def write_platform(network: _core.Network, out: str | Path, latency: float | None = None,
                   link_bandwidth: float | None = None, ranks_per_node: int = 1,
                   disk_bandwidth: float = IO_DISK_BANDWIDTH) -> tuple:
    """Writes the platform for ``network`` at ``out`` and its hostfile (same name, ``.hosts``);
    returns both paths. A torus, fat-tree or dragonfly gets an XML file at ``out``; any other
    network the platform library, ``out`` with the suffix ``.so``, and its description (``.net``),
    whose links keep the network's capacities (``link_bandwidth`` applies to XML platforms).
    ``disk_bandwidth``: bytes/s of each I/O node's disk (inf: no disk)."""
    latency = options.default("simulation", "latency") if latency is None else latency
    out = Path(out)
    if not out.name or out.suffix in (".hosts", ".net"):
        raise _core.Error(f"platform file name '{out}' leaves no name for its .hosts file")
    out.parent.mkdir(parents=True, exist_ok=True)
    if is_library_platform(network):
        out = out.with_suffix(".so")
        shutil.copyfile(platform_library(), out)
        out.with_suffix(".net").write_text(_description(network, latency, disk_bandwidth))
    else:
        out.write_text(platform_xml(network, latency, link_bandwidth))
    hosts = out.with_suffix(".hosts")
    hosts.write_text(hostfile_text(network, ranks_per_node))
    return out, hosts
