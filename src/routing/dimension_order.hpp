// Dimension-ordered routing: the models differ only in the order of the dimensions and in
// which way round a ring they go, so one class serves them all.
#pragma once


#include "optiq/core/error.hpp"
#include "optiq/core/routing.hpp"

namespace optiq::detail {

// The torus behind a network (whole, or beside BG/Q's I/O side), or an error naming the
// routing that needs one.
inline const TorusShape& torus_of(const Network& net, const char* routing) {
  if (!net.torus_part())
    throw Error("routing '" + std::string(routing) + "' needs a torus or mesh network, not '" + net.spec() + "'");
  return *net.torus_part();
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
    const int n = topo_.num_nodes();
    if (src < n && dst < n) {
      LinkPath path;
      torus_route(src, dst, path);
      return path;
    }
    // Beside the torus (BG/Q's I/O nodes): through the attached torus node nearest the other end
    // (fewest torus hops, then the lower id), the way BG/Q sends each node's I/O to its own
    // bridge node.
    NodeId from = src, to = dst, best_from = -1, best_to = -1;
    LinkId first = -1, last = -1;
    int best = -1;
    auto attached = [&](NodeId v, auto&& each) {
      if (v < n) return each(v, LinkId{-1}, LinkId{-1});
      const graph::Csr& g = net_.graph();
      for (int k = g.out_begin(v); k < g.out_end(v); ++k) {
        const NodeId b = g.head_at(k);
        if (b >= n) continue;
        LinkId back = -1;  // the link from b to v
        for (int j = g.out_begin(b); j < g.out_end(b) && back < 0; ++j)
          if (g.head_at(j) == v) back = g.arc_at(j);
        each(b, g.arc_at(k), back);
      }
    };
    attached(from, [&](NodeId a, LinkId out_of_src, LinkId) {
      attached(to, [&](NodeId b, LinkId, LinkId into_dst) {
        const int d = topo_.hop_distance(a, b);
        if (best < 0 || d < best) best = d, best_from = a, best_to = b, first = out_of_src, last = into_dst;
      });
    });
    if (best < 0 || (from >= n && first < 0) || (to >= n && last < 0))
      throw Error("no route from vertex " + std::to_string(src) + " to vertex " + std::to_string(dst));
    LinkPath path;
    if (first >= 0) path.push_back(first);
    torus_route(best_from, best_to, path);
    if (last >= 0) path.push_back(last);
    return path;
  }

 private:
  void torus_route(NodeId src, NodeId dst, LinkPath& path) const {
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
  }

  std::string name_;
  const Network& net_;
  const TorusShape& topo_;
  std::vector<int> order_;
  DirectionRule rule_;
};

}  // namespace optiq::detail
