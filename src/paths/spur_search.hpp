// Lexicographically smallest shortest path under Yen's spur constraints, by a bounded
// backward A* whose heuristic is the unconstrained torus distance (breadth-first search on a
// network without a torus). Only endpoints lie inside a path.
#pragma once

#include <cstdint>
#include <vector>

#include "optiq/core/network.hpp"

namespace optiq::detail {

class SpurSearch {
 public:
  explicit SpurSearch(const Network& net);

  // Marks a node as unusable for the next search only.
  void ban_node(NodeId node) { banned_[node] = epoch_ + 1; }
  // Forbids a first link out of the start node for the next search only.
  void ban_first_link(LinkId link) { banned_links_.push_back(link); }

  // Shortest path from `from` to `to` of at most `budget` hops that avoids the banned nodes and
  // first links; among those, the smallest link-id sequence. Returns false when there is none.
  // Clears the bans.
  bool find(NodeId from, NodeId to, int budget, LinkPath& out);

 private:
  bool first_link_banned(LinkId link) const;
  int h(NodeId a, NodeId b) const;
  // Depth-first walk along links that each bring the target one hop closer; succeeds when the
  // bans leave a path of exactly the unconstrained distance.
  bool descend(NodeId from, NodeId x, NodeId to, LinkPath& out);
  bool astar(NodeId from, NodeId to, int budget, LinkPath& out);
  bool closed_at(NodeId node, int g) const { return closed_[node] == epoch_ && g_[node] == g; }
  // Only endpoints forward: an I/O vertex may end a path but not lie inside one.
  bool may_pass(NodeId v, NodeId end) const {
    return !has_non_endpoints_ || v == end || net_.may_forward(v);
  }

  const Network& net_;
  const TorusShape* torus_;
  const TorusShape* part_;  // a torus beside other vertices: distances from Network::hop_distance
  bool has_non_endpoints_ = false;  // some vertex may not forward
  graph::Csr back_;  // links reversed: the backward search's in-links
  std::uint32_t epoch_ = 0;
  std::vector<std::uint32_t> banned_, seen_, closed_, dead_;
  // Lookup tables so the hot loops need no division: coordinates (node-major) and
  // per-dimension ring distances.
  std::vector<std::uint8_t> coords_;
  std::vector<std::vector<std::uint8_t>> ring_;  // ring_[d][a * size + b]
  std::vector<int> g_;  // hops to the target, exact once closed
  std::vector<LinkId> banned_links_;
  std::vector<std::vector<NodeId>> buckets_;  // open list indexed by f = g + h
};

}  // namespace optiq::detail
