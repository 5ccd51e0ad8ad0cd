// Independent, slow reference computations for the tests.
#pragma once

#include <algorithm>
#include <functional>
#include <queue>
#include <vector>

#include "optiq/topology.hpp"

namespace optiq::oracle {

// Every simple path (no repeated node) from src to dst with at most `bound` links.
inline std::vector<LinkPath> all_simple_paths(const Topology& t, NodeId src, NodeId dst, int bound) {
  std::vector<LinkPath> out;
  std::vector<char> on_path(t.num_nodes(), 0);
  LinkPath path;
  std::function<void(NodeId)> dfs = [&](NodeId v) {
    if (v == dst) {
      out.push_back(path);
      return;
    }
    if (static_cast<int>(path.size()) == bound) return;
    on_path[v] = 1;
    for (LinkId l = 0; l < t.num_link_slots(); ++l) {
      if (t.link_src(l) != v || !t.link_exists(l)) continue;
      const NodeId w = t.link_dst(l);
      if (on_path[w]) continue;
      path.push_back(l);
      dfs(w);
      path.pop_back();
    }
    on_path[v] = 0;
  };
  dfs(src);
  std::sort(out.begin(), out.end(), [](const LinkPath& a, const LinkPath& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
  });
  return out;
}

// Hop distance by breadth-first search over existing links.
inline int bfs_distance(const Topology& t, NodeId src, NodeId dst) {
  std::vector<int> dist(t.num_nodes(), -1);
  std::queue<NodeId> q;
  dist[src] = 0;
  q.push(src);
  while (!q.empty()) {
    const NodeId v = q.front();
    q.pop();
    for (int d = 0; d < t.dims(); ++d)
      for (int dir : {+1, -1}) {
        const NodeId w = t.step(v, d, dir);
        if (w >= 0 && dist[w] < 0) dist[w] = dist[v] + 1, q.push(w);
      }
  }
  return dist[dst];
}

}  // namespace optiq::oracle
