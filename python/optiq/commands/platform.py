"""``optiq platform``: write a SimGrid platform (and hostfile) for any network."""

from __future__ import annotations

from .. import options
from ..argtypes import bandwidth_or_inf
from ..simulation import platform as plat

EXAMPLES = """examples:
  optiq platform --topology mira:1024 --out mira1024.xml
  optiq platform --topology torus:8x8x8 --link-bandwidth 12.5e9 --latency 1e-7 --out t.xml
  optiq platform --topology graph:fabric.json --out fabric.so
  optiq platform --topology mira:512+io --out mira512io.so
  optiq platform --topology mira:512+io --disk-bandwidth 1e9 --out mira512io.so
  optiq platform --topology 'fattree:2;4,4;1,2;1,2' --out fattree.xml
  optiq platform --topology 'dragonfly:3,1;2,1;3,1;2' --out dragonfly.xml
  smpirun -np 1024 -platform mira1024.xml -hostfile mira1024.hosts ./app

Writes the platform and PLATFORM.hosts (one host per rank, ranks on the endpoints in order). A
torus becomes SimGrid's TORUS cluster with the dimensions in BG/Q routing order, so SimGrid
routes exactly as optiq's 'simgrid' routing model does. A fat-tree or dragonfly becomes SimGrid's
FAT_TREE or DRAGONFLY cluster with the same topo_parameters (host node-<i> is endpoint i, link
names are SimGrid's), routed exactly as optiq's 'simgrid' model. Any other network (graph files,
BG/Q with its I/O side) becomes a platform library, PLATFORM.so (whatever suffix --out has),
with its description PLATFORM.net beside it: smpirun loads it with -platform PLATFORM.so, and
it routes every message with the network's own routing model, at any size. Each I/O node's
host has a disk ("/"), on which a simulated rank's writes take the disk's time. Plan for the
platform with the topology and routing printed.
"""


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "platform", help="write a SimGrid platform whose routes equal an optiq routing model",
        description="Write a SimGrid platform file and hostfile for a network.", epilog=EXAMPLES)
    p.add_argument("--topology", required=True, metavar="SPEC",
                   help="bgq:AxBxCxDxE[+io], mira:N[+io], torus:AxB.. (all dimensions rings), "
                        "fattree:L;m..;w..;p.., dragonfly:G,b;C,b;B,b;N (SimGrid's topo_parameters) or graph:FILE")
    options.add_arguments(p, "simulation", names=("link-bandwidth", "latency"))
    p.add_argument("--disk-bandwidth", type=bandwidth_or_inf, default=plat.IO_DISK_BANDWIDTH, metavar="BYTES_PER_S",
                   help="read and write bytes/s of each I/O node's disk (default: %(default).3g, tessier2016's "
                        "estimated peak per Mira I/O node; inf: no disk)")
    options.add_arguments(p, "runtime", names=("ranks-per-node",), extra_help={"ranks-per-node": "hostfile lines per node"})
    p.add_argument("--out", required=True, metavar="PLATFORM",
                   help="where to write the platform (PLATFORM.so and PLATFORM.net for a library platform)")
    p.set_defaults(func=run)


def run(args) -> int:
    net = plat.simulated_network(args.topology, args.link_bandwidth)
    platform, hosts = plat.write_platform(net, args.out, args.latency, args.link_bandwidth, args.ranks_per_node,
                                          args.disk_bandwidth)
    written = f"{platform}, {platform.with_suffix('.net')}" if plat.is_library_platform(net) else str(platform)
    print(f"wrote {written} and {hosts}: {net.num_endpoints} hosts; plan for it with "
          f"--topology {net.spec} --routing {plat.routing_of(net)}")
    return 0
