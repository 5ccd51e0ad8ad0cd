// Exact cheapest chains on fat-trees, without a search over the overlay of legs.
//
// On a fat-tree with one cable between a node and each parent, dmodk (and SimGrid's own rule,
// the same routes there) climbs from any host below a level-k switch's block by the ports the
// destination x names, so every route to x that turns at level k turns at one switch, T(k, x),
// and descends by one fixed set of links. With one cable per parent the only way up to T(k, x)
// is that climb. So a chain is a path in a small graph:
//   - every vertex of the tree entered going up (its up-links are the graph's arcs),
//   - each host's arrival, reached from T(k, x) at the cost of the descent,
//   - from an arrival, the same host going up again (a relay, at its node weight).
// Bellman-Ford over it takes one pass per leg: climb the levels, take every host's cheapest
// turn, seed the relays that may still lead to something cheaper. Turning higher than the
// route would costs no less and has more hops, so the cheapest chain by (cost, hops) only
// ever uses real routes. Cost per job: a few passes over the hosts and the switches' up-links,
// where the search over chains expands terminals with a scan of all terminals each.
#pragma once

#include <algorithm>
#include <memory>
#include <vector>

#include "optiq/core/legs.hpp"

namespace optiq::detail {

class FatTreeChains {
 public:
  // Null unless the legs are a fat-tree's hosts with one cable per parent, under a routing whose
  // routes climb and then descend as described above (checked on one route per host and level).
  static std::unique_ptr<FatTreeChains> make(const Legs& legs, const std::vector<double>& link_weight,
                                             const std::vector<double>& node_weight);

  struct Key {  // compared by cost, then hops
    double w;
    int h;
    bool operator<(const Key& o) const { return w != o.w ? w < o.w : h < o.h; }
  };
  struct Scratch {  // one per thread
    std::vector<Key> up, arrival;
    std::vector<LinkId> up_via;  // the up-link a vertex was reached by; -1 where a chain starts
    std::vector<int> turn;       // per host: the level its arrival turned at
    std::vector<char> changed;
  };

  // The cheapest chain from host src to host dst that costs less than `below` (among equally
  // cheap ones the fewest hops), as its hosts src, proxies..., dst; false when none does.
  bool cheapest(NodeId src, NodeId dst, double below, Scratch& s, std::vector<NodeId>& stops, double& cost) const;

  // The cost of each pair's cheapest chain, as `cheapest` finds it (infinity where none). Hosts
  // with one parent leave by it, so every chain from a host below one switch is its up-link and
  // a chain from that switch: one search settles all of that switch's sources at once, and each
  // search runs to the end instead of stopping at one destination. Spread over threads; each
  // entry is computed by one thread, so the result does not depend on how many.
  std::vector<double> cheapest_costs(const std::vector<std::pair<NodeId, NodeId>>& pairs) const;

  // Where the search of chains from `host` starts, and what reaching it costs: the host's one
  // parent and that up-link's weight, or the host itself and 0 when it has several parents.
  NodeId entry(NodeId host, double& offset) const;
  // The positions of `sources` grouped by their entry, in entry order, and each one's offset.
  using EntryGroups = std::vector<std::pair<NodeId, std::vector<std::size_t>>>;
  EntryGroups group_by_entry(const std::vector<NodeId>& sources, std::vector<double>& offset) const;
  // The routes' costs (no relays) from `entry` to every host, into s.arrival[host].w (infinity
  // where none). A host below `entry` pays the entry's offset on top, except to itself.
  void route_costs_from(NodeId entry, Scratch& s) const;

  // Whether every host has one parent. Then a route from a host climbs its up-link and goes on
  // as the route from that parent, the same for every host below it.
  bool one_parent() const { return one_parent_; }
  // Level-1 switches, numbered 0, 1, ...: switch i is vertex first_switch() + i.
  NodeId first_switch() const { return level_begin_[1]; }
  int num_switches_above_hosts() const { return level_begin_[std::min(2, levels_ + 1)] - level_begin_[1]; }
  // The cost of the route from each level-1 switch to host dst, by switch number: the climb to
  // the switch where it turns, then the descent. One walk down from each of dst's turning
  // switches, highest first, so each switch ends with its lowest turn: about as many steps as
  // there are switches below the top turn.
  void route_costs_to(NodeId dst, std::vector<double>& by_switch) const;

 private:
  FatTreeChains(const Legs& legs, const std::vector<double>& link_weight, const std::vector<double>& node_weight);
  bool build();
  void relax_up(NodeId v, Scratch& s) const;  // v's up-links from its cost so far
  void climb(Scratch& s) const;
  void start(NodeId v, Scratch& s) const;  // chains from v, nothing reached yet
  // From s.up as seeded: passes until no relay improves any arrival; `dst` >= 0 stops relays
  // that cannot beat its arrival, and `below` those that cannot beat that cost.
  void settle(NodeId src, NodeId dst, double below, Scratch& s) const;

  const Legs& legs_;
  const Network& net_;
  const std::vector<double>& lw_;
  const std::vector<double>& nw_;
  int levels_ = 0, hosts_ = 0;
  std::vector<int> level_begin_;       // vertices of level l: [level_begin_[l], level_begin_[l + 1])
  std::vector<int> up_begin_;          // per vertex, its up-links: up_[up_begin_[v] .. up_begin_[v + 1])
  std::vector<LinkId> up_;
  bool one_parent_ = false;
  std::vector<int> down_begin_;        // per switch above level 1, its children's up-links to it:
  std::vector<LinkId> down_;           // down_[down_begin_[v - level_begin_[2]] ..]
  std::vector<NodeId> turn_;           // [k * hosts + x]: T(k, x), -1 where no route turns at level k
  std::vector<double> descent_;        // [k * hosts + x]: the descent's cost
};

}  // namespace optiq::detail
