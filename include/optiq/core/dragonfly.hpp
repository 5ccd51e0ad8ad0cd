// Dragonflies as SimGrid 3.32's DRAGONFLY cluster builds them (kernel::routing::DragonflyZone):
// groups of chassis of routers ("blades"), hosts on the routers, all-to-all green links inside
// a chassis, black links between the same blade of every chassis of a group, and one blue link
// between every two groups. docs/model.md, "Dragonflies", describes the numbering.
#pragma once

#include <algorithm>
#include <string>

#include "optiq/core/error.hpp"
#include "optiq/core/network.hpp"
#include "optiq/core/types.hpp"

namespace optiq {

// SimGrid's topo_parameters "G,nblue;C,nblack;B,ngreen;N".
struct DragonflyParams {
  int groups = 1, blue = 1;     // groups, and cables between every two groups
  int chassis = 1, black = 1;   // chassis per group, and cables between the same blade of two chassis
  int routers = 1, green = 1;   // routers (blades) per chassis, and cables between two of them
  int nodes = 1;                // hosts per router
};

// What the dragonfly generator knows beside the graph. Vertices: the hosts 0..N-1 (endpoints, in
// SimGrid's host order: host x sits on router x / nodes), then router r = (g*C + c)*B + b at
// vertex N + r. Links: SimGrid's links in its creation order, local, green, black, blue, each
// pair's `_UP` half before its `_DOWN` half. SimGrid folds a pair's parallel cables into one
// link of that many times the bandwidth, and so does this model (docs/model.md).
class DragonflyShape {
 public:
  // Throws optiq::Error naming `what` when a value is below 1, when there are more groups than
  // routers per chassis (SimGrid attaches group j's blue link to blade j of chassis 0 and reads
  // past its arrays otherwise), or when the network exceeds the limits.
  DragonflyShape(DragonflyParams params, const std::string& what = "the dragonfly");

  const DragonflyParams& params() const { return p_; }
  // SimGrid's topo_parameters string, e.g. "3,1;2,1;3,1;2".
  std::string topo_parameters() const;

  int num_hosts() const { return num_routers() * p_.nodes; }
  int num_routers() const { return p_.groups * p_.chassis * p_.routers; }
  int num_vertices() const { return num_hosts() + num_routers(); }
  int num_links() const { return 2 * num_cables_; }

  struct Place {
    int group, chassis, blade;
  };
  int router_index(int group, int chassis, int blade) const { return (group * p_.chassis + chassis) * p_.routers + blade; }
  NodeId router(int group, int chassis, int blade) const { return num_hosts() + router_index(group, chassis, blade); }
  NodeId router_of(NodeId host) const { return num_hosts() + host / p_.nodes; }
  int slot(NodeId host) const { return host % p_.nodes; }  // the host's place on its router
  Place place(NodeId v) const;  // of a router, or of a host's router
  bool is_router(NodeId v) const { return v >= num_hosts(); }

  // Links by what they join; each goes one way (the pair's `_UP` or `_DOWN` half).
  LinkId local_up(NodeId host) const { return 2 * (host); }         // host to its router
  LinkId local_down(NodeId host) const { return 2 * (host) + 1; }   // router to host
  // A pair's link goes "UP" from its lower member to its higher one, "DOWN" back. Inline: the
  // routing's rule asks one of them at every hop.
  LinkId green(int group, int chassis, int from_blade, int to_blade) const {
    OPTIQ_CHECK(from_blade != to_blade, "a green link joins two routers");
    const long long q = static_cast<long long>(group) * p_.chassis + chassis;
    const long long uid = green_base_ + q * pairs(p_.routers) + pair_index(p_.routers, std::min(from_blade, to_blade),
                                                                           std::max(from_blade, to_blade));
    return static_cast<LinkId>(2 * uid + (from_blade < to_blade ? 0 : 1));
  }
  LinkId black(int group, int from_chassis, int to_chassis, int blade) const {
    OPTIQ_CHECK(from_chassis != to_chassis, "a black link joins two chassis");
    const long long uid =
        black_base_ + (static_cast<long long>(group) * pairs(p_.chassis) +
                       pair_index(p_.chassis, std::min(from_chassis, to_chassis), std::max(from_chassis, to_chassis))) *
                          p_.routers +
        blade;
    return static_cast<LinkId>(2 * uid + (from_chassis < to_chassis ? 0 : 1));
  }
  // Between blade to_group and blade from_group of chassis 0.
  LinkId blue(int from_group, int to_group) const {
    OPTIQ_CHECK(from_group != to_group, "a blue link joins two groups");
    const long long uid = blue_base_ + pair_index(p_.groups, std::min(from_group, to_group), std::max(from_group, to_group));
    return static_cast<LinkId>(2 * uid + (from_group < to_group ? 0 : 1));
  }
  // SimGrid's link counter (the last number of a link's name): links 2u and 2u+1 are pair u's halves.
  static int uid_of(LinkId l) { return l / 2; }

 private:
  // Index of the pair (a, b), a < b, among the pairs of n things in SimGrid's loop order (a, then b).
  static long long pair_index(long long n, long long a, long long b) { return a * (2 * n - a - 1) / 2 + (b - a - 1); }
  static long long pairs(long long n) { return n * (n - 1) / 2; }

  DragonflyParams p_;
  int green_base_ = 0, black_base_ = 0, blue_base_ = 0, num_cables_ = 0;
};

// SimGrid's topo_parameters text "G,nblue;C,nblack;B,ngreen;N", each number decimal (blanks
// around it allowed, as SimGrid allows). Throws optiq::Error naming `spec` for a malformed
// text; DragonflyShape checks the values.
DragonflyParams parse_dragonfly_params(const std::string& text, const std::string& spec);

// The dragonfly network: vertices and links as DragonflyShape numbers them, named as SimGrid
// names them ("local_link_from_router_<r>_to_node_<slot>_<u>_UP", "green_link_in_chassis_<c>_
// between_routers_<b1>_and_<b2>_<u>_UP", "black_link_in_group_<g>_between_chassis_<c1>_and_<c2>_
// blade_<b>_<u>_UP", "blue_link_between_group_<g1>_and_<g2>_routers_<r1>_and_<r2>_<u>_UP" and
// the same with _DOWN); routers are named "router<r>". A local link has `link_bandwidth`, a green,
// black or blue link `link_bandwidth` times its cable count, as in SimGrid. The default routing
// is "simgrid".
Network make_dragonfly_network(DragonflyParams params, double link_bandwidth, std::string spec);

}  // namespace optiq
