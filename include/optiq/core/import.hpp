// Networks from the descriptions sites already keep of their machines: Slurm's topology files,
// InfiniBand's ibnetdiscover output and a list of a Slingshot machine's hosts. Each gives a
// network whose endpoints are named by host name (Network::hosts_named, endpoint_named) and
// whose switches are named as the site names them; every cable is one link each way, named
// "A->B" after its ends (with "#k" for further parallel links); hosts come first in the
// order the file first names them. The default routing is "shortest" (fewest links, lowest
// link ids on ties): on a tree, whose hosts each hang under one leaf switch, that is the
// up-down route through the lowest common ancestor that subnet managers program.
//
// Every error is one line, optiq::Error "<file>:<line>: ..." (or "<file>: ..." for the file as
// a whole). The read_* functions read a file; the parse_* ones take its text, `origin` naming
// it in errors and `spec` becoming the network's spec.
#pragma once

#include <string>

#include "optiq/core/network.hpp"

namespace optiq {

// --- Slurm: `slurm:FILE` --------------------------------------------------------------------
// topology.conf (topology/tree and topology/block), or topology.yaml when FILE ends in .yaml or
// .yml. Keys are case-insensitive in topology.conf; `#` starts a comment; every name list is a
// host list expression (include/optiq/core/hostlist.hpp).
//   - Tree: `SwitchName=S Nodes=HOSTLIST`, `SwitchName=S Switches=LIST`, or both on one line,
//     with `LinkSpeed=N` optional (default 1). A switch is joined to each node and child switch
//     its line lists; a switch listed under several parents, or a node under several switches, has
//     a cable to each (Slurm accepts both). Refused: an unknown key, a switch defined twice or with
//     neither Nodes nor Switches, a child switch that is not defined (or is a node), a name
//     listed as a node that is a switch, a cycle, and switches that share no common ancestor
//     (Slurm only warns; optiq needs one connected network).
//   - Link capacities: Slurm's LinkSpeed is a relative number ("units are arbitrary"), so a
//     switch's cables to its children get link_bandwidth * LinkSpeed / (largest LinkSpeed of
//     the file): link_bandwidth everywhere when no line gives a speed.
//   - Blocks: `BlockName=B Nodes=HOSTLIST` lines and at most one `BlockSizes=N,M,...` line. Each
//     block becomes a switch joined to its nodes, and one more switch, "block-top", joins every
//     block switch (the network between blocks, which Slurm does not describe); all links have
//     link_bandwidth. Block sizes are checked as Slurm does (positive, power-of-two multiples of
//     the first, the base size), and so is every block having at least the base size's nodes (the
//     first block's count when BlockSizes is not given).
//   - topology.yaml: a list of topologies (`topology: NAME`, `cluster_default: true|false`, and one
//     of `tree: {switches: [{switch, children, nodes, link_speed}]}` or `block: {block_sizes:
//     [...], blocks: [{block, nodes}]}`); the first with cluster_default true is imported, else
//     the first; a `flat` one is refused. The YAML and the .conf of one topology give the same
//     network, digest included.
Network read_slurm_topology(const std::string& path, double link_bandwidth);
Network parse_slurm_topology_conf(const std::string& text, const std::string& origin, double link_bandwidth,
                                  const std::string& spec);
Network parse_slurm_topology_yaml(const std::string& text, const std::string& origin, double link_bandwidth,
                                  const std::string& spec);

// --- InfiniBand: `ibnetdiscover:FILE` -------------------------------------------------------
// The output of rdma-core's ibnetdiscover (also with -g, -f or a node name map): `Switch N
// "S-<guid>" # "<description>" ...` and `Ca N "H-<guid>" # "<description>"` blocks (`Rt` blocks
// are read as switches), each followed by its connected ports, `[port](guid) "S-<guid>"[port]
// ... lid L 4xEDR`. A switch is named by its description (with " S-<guid>" added when several
// switches share one), a host by the first word of its Ca's description ("node01 mlx5_0" is host
// node01; several HCAs of one host are one endpoint with a cable each). Every cable, listed from
// both of its ends, is one link each way; parallel cables stay separate links. Capacities come
// from the width and speed (ib_link_bandwidth). Refused with the line: a port line outside a
// block, a malformed line, a port listed twice, a peer guid the file never defines (a truncated
// file), two ends that disagree about a cable, an unknown width or speed; and an empty file.
Network read_ibnetdiscover(const std::string& path);
Network parse_ibnetdiscover(const std::string& text, const std::string& origin, const std::string& spec);
// Bytes/s of one direction of a link written like "4xEDR": lanes x signalling rate x encoding
// efficiency / 8, with per-lane rates SDR 2.5, DDR 5, QDR 10 Gb/s (8b/10b), FDR10 10.3125, FDR
// 14.0625, EDR 25.78125, HDR 53.125, NDR 106.25, XDR 212.5 Gb/s (64b/66b); widths 1x, 2x, 4x, 8x,
// 12x. So 4xQDR is 4 GB/s and 4xEDR 12.5 GB/s. (HDR and later use PAM4 with forward error
// correction, whose overhead this leaves out: within 3 % of their 50, 100 and 200 Gb/s per lane.)
// Throws optiq::Error naming `text` when it is not one of these.
double ib_link_bandwidth(const std::string& text);

// --- Slingshot: `slingshot:FILE[;key=value...]` ---------------------------------------------
// FILE has one host per line, `#` comments and blank lines aside: an HPE Cray xname
// (x<cabinet>c<chassis>s<slot>b<board>n<node>, e.g. x1000c0s0b0n0), which is then also the host
// name, or a host name and its xname. The network is a dragonfly with one group per cabinet:
// `routers` routers per group, joined all to all; `global` cables between every two groups,
// spread round-robin over the routers of each; a group's hosts, in xname order (chassis, slot,
// board, node), attached `hosts` per router from router 0 on. Routers are named
// "<cabinet>r<k>" (e.g. x1000r3). Options, each at most once:
//   routers=R           routers per group (default 32: an HPE Cray EX cabinet's 8 chassis of 4
//                       switch blades)
//   hosts=H             hosts per router (default: the largest group's hosts over R, rounded up);
//                       a group with more than R*H hosts is refused
//   global=K            cables between every two groups (default 1)
//   bandwidth=B         bytes/s of every link (default: parse_network's link_bandwidth)
//   host_bandwidth=B, local_bandwidth=B, global_bandwidth=B
//                       bytes/s of host, in-group and between-group links (default: bandwidth)
// The dragonfly generator (include/optiq/core/dragonfly.hpp) is SimGrid's, with as many hosts on
// every router, one cable between two groups and at least as many routers as groups, which a
// site's cabinets need not have; this builds the graph directly.
// The spec recorded is `slingshot:FILE` and the options in key order.
Network read_slingshot(const std::string& path, const std::string& options, double link_bandwidth);
Network parse_slingshot(const std::string& text, const std::string& origin, const std::string& options,
                        double link_bandwidth, const std::string& spec);

}  // namespace optiq
