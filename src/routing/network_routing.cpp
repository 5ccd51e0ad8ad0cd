#include "optiq/core/network_routing.hpp"

#include <algorithm>
#include <string>

#include "optiq/core/error.hpp"

namespace optiq {

namespace {

class ShortestRouting final : public RoutingModel {
 public:
  explicit ShortestRouting(const Network& net) : net_(net), back_(net.graph().reversed()) {
    for (NodeId v = 0; v < net.num_vertices() && !switched_; ++v) switched_ = net.kind(v) == VertexKind::Switch;
  }
  std::string name() const override { return "shortest"; }

  const Network& network() const override { return net_; }

  LinkPath route(NodeId src, NodeId dst) const override {
    if (!net_.contains(src) || !net_.contains(dst)) throw Error("route endpoint outside the network");
    if (src == dst) return {};
    const graph::Csr& g = net_.graph();
    // Neighbours are one hop apart: the lowest-id link between them, without a search.
    for (int k = g.out_begin(src); k < g.out_end(src); ++k)
      if (g.head_at(k) == dst) return {g.arc_at(k)};
    const std::vector<int> dist = hops_to(dst, src);
    if (dist[src] < 0)
      throw Error("no route from vertex " + std::to_string(src) + " ('" + net_.vertex_name(src) + "') to vertex " +
                  std::to_string(dst) + " ('" + net_.vertex_name(dst) + "')" +
                  (switched_ ? ": not joined through switches (endpoints do not forward in hardware)" : ""));
    LinkPath path;
    for (NodeId v = src; v != dst;) {
      const int k = closer(g, dist, v);
      path.push_back(g.arc_at(k));
      v = g.head_at(k);
    }
    return path;
  }

  std::vector<LinkId> next_links(NodeId dst) const override {
    if (!net_.contains(dst)) throw Error("route endpoint outside the network");
    const std::vector<int> dist = hops_to(dst, -1);
    const graph::Csr& g = net_.graph();
    std::vector<LinkId> next(net_.num_vertices(), -1);
    for (NodeId v = 0; v < net_.num_vertices(); ++v)
      if (v != dst && dist[v] > 0) next[v] = g.arc_at(closer(g, dist, v));
    return next;
  }

 private:
  // Hops to dst from every vertex, by breadth-first search along reversed links, stopping once
  // `until` is reached (-1: never). Where there are switches, hosts do not forward in hardware:
  // a route passes switches only (a host cabled to two switches is no shortcut between them).
  std::vector<int> hops_to(NodeId dst, NodeId until) const {
    std::vector<int> dist(net_.num_vertices(), -1);
    std::vector<NodeId> open{dst};
    dist[dst] = 0;
    for (std::size_t i = 0; i < open.size() && (until < 0 || dist[until] < 0); ++i) {
      if (switched_ && open[i] != dst && !transit(open[i])) continue;
      for (int k = back_.out_begin(open[i]); k < back_.out_end(open[i]); ++k)
        if (dist[back_.head_at(k)] < 0) dist[back_.head_at(k)] = dist[open[i]] + 1, open.push_back(back_.head_at(k));
    }
    return dist;
  }
  // The first link out of v (links in ascending id) that is a hop closer through a vertex that
  // forwards in hardware (or is the destination, at distance 0): the tie rule.
  int closer(const graph::Csr& g, const std::vector<int>& dist, NodeId v) const {
    int k = g.out_begin(v);
    while (dist[g.head_at(k)] != dist[v] - 1 || (switched_ && dist[g.head_at(k)] > 0 && !transit(g.head_at(k)))) ++k;
    return k;
  }
  bool transit(NodeId v) const { return net_.kind(v) == VertexKind::Switch; }

  const Network& net_;
  graph::Csr back_;
  bool switched_ = false;
};

class TableRouting final : public RoutingModel {
 public:
  explicit TableRouting(const Network& net) : net_(net), next_(net.forwarding_table()) {
    if (static_cast<int>(next_.size()) != net.num_vertices())
      throw Error("forwarding table: one row per vertex expected (" + std::to_string(net.num_vertices()) + "), got " +
                  std::to_string(next_.size()));
    for (NodeId v = 0; v < net.num_vertices(); ++v)
      for (std::size_t i = 0; i < next_[v].size(); ++i) {
        const auto [t, l] = next_[v][i];
        const std::string at = "forwarding table: vertex " + std::to_string(v) + ", destination " + std::to_string(t);
        if (!net.contains(t) || (i > 0 && next_[v][i - 1].first >= t))
          throw Error(at + ": destinations must be vertices, ascending, each once");
        if (l < 0 || l >= net.num_links() || net.link_src(l) != v)
          throw Error(at + ": link " + std::to_string(l) + " does not leave vertex " + std::to_string(v));
      }
  }
  std::string name() const override { return "table"; }
  const Network& network() const override { return net_; }

  std::vector<LinkId> next_links(NodeId dst) const override {
    if (!net_.contains(dst)) throw Error("route endpoint outside the network");
    std::vector<LinkId> next(net_.num_vertices(), -1);
    for (NodeId v = 0; v < net_.num_vertices(); ++v) {
      if (v == dst) continue;
      const auto& row = next_[v];
      const auto it = std::lower_bound(row.begin(), row.end(), std::make_pair(dst, LinkId{-1}));
      if (it != row.end() && it->first == dst) next[v] = it->second;
    }
    return next;
  }

  LinkPath route(NodeId src, NodeId dst) const override {
    if (!net_.contains(src) || !net_.contains(dst)) throw Error("route endpoint outside the network");
    LinkPath path;
    for (NodeId v = src; v != dst;) {
      const auto& row = next_[v];
      const auto it = std::lower_bound(row.begin(), row.end(), std::make_pair(dst, LinkId{-1}));
      if (it == row.end() || it->first != dst)
        throw Error("forwarding table: vertex " + std::to_string(v) + " has no entry for destination " +
                    std::to_string(dst) + " (route from " + std::to_string(src) + ")");
      if (static_cast<int>(path.size()) >= net_.num_vertices())
        throw Error("forwarding table: the route from " + std::to_string(src) + " to " + std::to_string(dst) +
                    " loops");
      path.push_back(it->second);
      v = net_.link_dst(it->second);
    }
    return path;
  }

 private:
  const Network& net_;
  const std::vector<std::vector<std::pair<NodeId, LinkId>>>& next_;
};

}  // namespace

std::unique_ptr<RoutingModel> make_shortest_routing(const Network& net) { return std::make_unique<ShortestRouting>(net); }

std::unique_ptr<RoutingModel> make_table_routing(const Network& net) { return std::make_unique<TableRouting>(net); }

}  // namespace optiq
