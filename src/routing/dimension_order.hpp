// Dimension-ordered routing: the models differ only in the order of the dimensions and in
// which way round a ring they go, so one class serves them all.
#pragma once


#include "optiq/error.hpp"
#include "optiq/routing.hpp"

namespace optiq::detail {

// The torus behind a network, or an error naming the routing that needs one.
inline const TorusShape& torus_of(const Network& net, const char* routing) {
  if (!net.torus()) throw Error("routing '" + std::string(routing) + "' needs a torus or mesh network, not '" + net.spec() + "'");
  return *net.torus();
}

// Chooses +1 or -1 for a move from coordinate s to t != s along dimension dim.
using DirectionRule = int (*)(const TorusShape&, int dim, int s, int t);

class DimensionOrderRouting final : public RoutingModel {
 public:
  DimensionOrderRouting(std::string name, const Network& net, std::vector<int> order, DirectionRule rule)
      : name_(std::move(name)), net_(net), topo_(torus_of(net, name_.c_str())), order_(std::move(order)), rule_(rule) {}

  std::string name() const override { return name_; }
  const Network& network() const override { return net_; }

  LinkPath route(NodeId src, NodeId dst) const override {
    if (!net_.contains(src) || !net_.contains(dst)) throw Error("route endpoint outside the topology");
    LinkPath path;
    NodeId here = src;
    for (int dim : order_) {
      int s = topo_.coord(here, dim);
      const int t = topo_.coord(dst, dim);
      if (s == t) continue;
      const int dir = rule_(topo_, dim, s, t);
      while (s != t) {
        const LinkId l = topo_.link(here, dim, dir);
        OPTIQ_CHECK(l >= 0, "routing stepped off the topology");
        path.push_back(l);
        here = net_.link_dst(l);
        s = topo_.coord(here, dim);
      }
    }
    OPTIQ_CHECK(here == dst, "routing did not reach its destination");
    return path;
  }

 private:
  std::string name_;
  const Network& net_;
  const TorusShape& topo_;
  std::vector<int> order_;
  DirectionRule rule_;
};

}  // namespace optiq::detail
