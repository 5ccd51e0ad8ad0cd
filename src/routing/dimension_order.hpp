// Shared walk for dimension-ordered routing models: they differ only in the dimension order
// and in which way round a ring they go.
#pragma once

#include <functional>

#include "optiq/error.hpp"
#include "optiq/topology.hpp"

namespace optiq::detail {

// Chooses +1 or -1 for a move from coordinate s to t != s along dimension dim.
using DirectionRule = std::function<int(const Topology&, int dim, int s, int t)>;

inline LinkPath walk_dimension_order(const Topology& topo, const std::vector<int>& order, NodeId src, NodeId dst,
                                     const DirectionRule& rule) {
  if (!topo.contains(src) || !topo.contains(dst)) throw Error("route endpoint outside the topology");
  LinkPath path;
  NodeId here = src;
  for (int dim : order) {
    int s = topo.coord(here, dim);
    const int t = topo.coord(dst, dim);
    if (s == t) continue;
    const int dir = rule(topo, dim, s, t);
    while (s != t) {
      const LinkId l = topo.link(here, dim, dir);
      OPTIQ_CHECK(topo.link_exists(l), "routing stepped off the topology");
      path.push_back(l);
      here = topo.link_dst(l);
      s = topo.coord(here, dim);
    }
  }
  OPTIQ_CHECK(here == dst, "routing did not reach its destination");
  return path;
}

}  // namespace optiq::detail
