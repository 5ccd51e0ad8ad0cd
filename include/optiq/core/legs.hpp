// Realizable paths: what software forwarding can make of the network's own routes.
//
// optiq cannot steer a packet through a switch; it can only choose where a copy is made. A
// realizable path is therefore a chain of legs, each leg the default route between two
// terminals (vertices that are not switches), with a proxy (an endpoint that copies the bytes
// onward) at each junction; junctions are distinct endpoints other than the path's ends.
//
// Two classes of networks, and one search for each (docs/model.md, "Realizable paths"):
// - direct: no switches, and every link is the default route between its two ends (a torus
//   and its I/O side, any switchless graph under `shortest`). A chain of one-link legs is any
//   walk, so the realizable paths are the simple paths whose inner vertices are endpoints, and
//   the planners search the link graph itself. Where only some endpoints may forward
//   (Network::with_forwarders) the overlay below is searched instead, since a route passes the
//   other endpoints in hardware: on a torus this needs a destination-based routing (dor, not
//   bgq, whose ties depend on the source) and tables that fit.
// - overlay: anything else. Planners search the complete graph of legs between terminals,
//   which needs a routing whose choice at a vertex depends on the destination alone. Its arcs
//   come from the routing's own formula where it has one (RoutingModel::next_link_is_formula:
//   fat-trees, dragonflies; nothing stored), else from one next-link table per terminal (time
//   and memory: terminals x vertices).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "optiq/core/routing.hpp"

namespace optiq {

// Whether the network is direct: no switch anywhere, and every link the default route between
// its own two ends. Cheap where a torus hint answers; otherwise one route per link.
bool links_are_legs(const Network& net, const RoutingModel& routing);

class Legs {
 public:
  // Throws optiq::Error when an overlay network needs tables and is too large for them
  // (kMaxTableEntries) or its routing is not destination-based. `overlay` searches chains even where every link
  // is a leg: what a bound on proxies per path needs, since the link graph does not count them.
  Legs(const Network& net, const RoutingModel& routing, bool overlay = false);

  const Network& network() const { return net_; }
  const RoutingModel& routing() const { return routing_; }
  bool direct() const { return direct_; }
  // Proxies host ranks: endpoints, and of them only those that may forward (a job's own on a
  // shared machine). I/O vertices and switches never copy bytes onward.
  bool can_proxy(NodeId v) const { return net_.may_forward(v); }

  // --- the overlay (not direct) -----------------------------------------------------------
  // Terminals in ascending vertex id, and the index of a vertex among them (-1 for a switch).
  const std::vector<NodeId>& terminals() const { return terminals_; }
  int terminal_index(NodeId v) const { return terminal_of_[v]; }
  // The link leaving `at` on the default route to terminal index t (-1 at the terminal itself
  // or where no route passes), and the route's remaining hops (0 where none). From the tables,
  // or from the routing's formula (then hops() walks the route: a leg's length in time).
  LinkId next(int t, NodeId at) const {
    return formula_ ? routing_.next_link(at, terminals_[t]) : next_[index(t, at)];
  }
  int hops(int t, NodeId at) const { return formula_ ? walk_hops(t, at) : hops_[index(t, at)]; }
  // True when next() asks the routing's formula: no tables are kept.
  bool formula() const { return formula_; }
  // Appends the default route from `from` to terminal `to`.
  void append_leg(NodeId from, NodeId to, LinkPath& out) const;

  // Largest terminals x vertices product an overlay keeps tables for: 6 bytes an entry, so
  // about 200 MB (4,096 endpoints with 4,096 switches is 33.5 million).
  static constexpr long long kMaxTableEntries = 1LL << 25;

 private:
  std::size_t index(int t, NodeId at) const { return static_cast<std::size_t>(t) * net_.num_vertices() + at; }
  void build_tables();
  int walk_hops(int t, NodeId at) const;

  const Network& net_;
  const RoutingModel& routing_;
  bool direct_ = false;
  bool formula_ = false;
  std::vector<NodeId> terminals_;
  std::vector<int> terminal_of_;
  std::vector<LinkId> next_;
  std::vector<std::uint16_t> hops_;
};

// The default-route legs a path consists of: indices into path_nodes(src, path) where a copy
// is made (neither end), as few as possible. `may_copy` says which vertices may make copies.
// Where every link is a leg only vertex sequences are compared (two links joining the same two
// vertices, as in BG/Q's rings of two, count as one choice the network makes); elsewhere the
// links themselves. Returns false when no such chain exists, with *stuck the index of the last
// junction the longest chain from the start reaches (the junctions then lead up to it).
bool leg_junctions(const Legs& legs, NodeId src, const LinkPath& path, const std::function<bool(NodeId)>& may_copy,
                   std::vector<std::size_t>& junctions, std::size_t* stuck = nullptr);

}  // namespace optiq
