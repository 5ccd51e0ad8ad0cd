// Dimension-ordered routing: the models differ only in the order of the dimensions and in
// which way round a ring they go, so one class serves them all.
#pragma once


#include "optiq/error.hpp"
#include "optiq/routing.hpp"

namespace optiq::detail {

// Chooses +1 or -1 for a move from coordinate s to t != s along dimension dim.
using DirectionRule = int (*)(const Topology&, int dim, int s, int t);

class DimensionOrderRouting final : public RoutingModel {
 public:
  DimensionOrderRouting(std::string name, const Topology& topo, std::vector<int> order, DirectionRule rule)
      : name_(std::move(name)), topo_(topo), order_(std::move(order)), rule_(rule) {}

  std::string name() const override { return name_; }

  LinkPath route(NodeId src, NodeId dst) const override {
    if (!topo_.contains(src) || !topo_.contains(dst)) throw Error("route endpoint outside the topology");
    LinkPath path;
    NodeId here = src;
    for (int dim : order_) {
      int s = topo_.coord(here, dim);
      const int t = topo_.coord(dst, dim);
      if (s == t) continue;
      const int dir = rule_(topo_, dim, s, t);
      while (s != t) {
        const LinkId l = topo_.link(here, dim, dir);
        OPTIQ_CHECK(topo_.link_exists(l), "routing stepped off the topology");
        path.push_back(l);
        here = topo_.link_dst(l);
        s = topo_.coord(here, dim);
      }
    }
    OPTIQ_CHECK(here == dst, "routing did not reach its destination");
    return path;
  }

 private:
  std::string name_;
  const Topology& topo_;
  std::vector<int> order_;
  DirectionRule rule_;
};

}  // namespace optiq::detail
