// Independent, slow reference computations for the tests.
#pragma once

#include <algorithm>
#include <functional>
#include <queue>
#include <vector>

#include "optiq/core/network.hpp"

namespace optiq::oracle {

// Every simple path (no repeated node) from src to dst with at most `bound` links.
inline std::vector<LinkPath> all_simple_paths(const Network& t, NodeId src, NodeId dst, int bound) {
  std::vector<LinkPath> out;
  std::vector<char> on_path(t.num_vertices(), 0);
  LinkPath path;
  std::function<void(NodeId)> dfs = [&](NodeId v) {
    if (v == dst) {
      out.push_back(path);
      return;
    }
    if (static_cast<int>(path.size()) == bound) return;
    on_path[v] = 1;
    for (LinkId l = 0; l < t.num_links(); ++l) {
      if (t.link_src(l) != v) continue;
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

// Hop distance by breadth-first search over the network's links (read as a plain list of
// source and destination vertices, not through any torus hint).
inline int bfs_distance(const Network& t, NodeId src, NodeId dst) {
  std::vector<std::vector<NodeId>> next(t.num_vertices());
  for (LinkId l = 0; l < t.num_links(); ++l) next[t.link_src(l)].push_back(t.link_dst(l));
  std::vector<int> dist(t.num_vertices(), -1);
  std::queue<NodeId> q;
  dist[src] = 0;
  q.push(src);
  while (!q.empty()) {
    const NodeId v = q.front();
    q.pop();
    for (NodeId w : next[v])
      if (dist[w] < 0) dist[w] = dist[v] + 1, q.push(w);
  }
  return dist[dst];
}

// One port of a torus or mesh node: the node, the dimension, the direction (+1 or -1) and the
// node it leads to, or -1 when it leads nowhere (a size-1 dimension, past a mesh edge).
struct Port {
  NodeId node;
  int dim;
  int dir;
  NodeId to;
};

// Every port of the shape in port order (node, dimension, + before -), from coordinates alone:
// node ids are row-major with the last dimension fastest.
inline std::vector<Port> torus_ports(const std::vector<int>& sizes, const std::vector<bool>& wrap) {
  const int dims = static_cast<int>(sizes.size());
  std::vector<int> stride(dims, 1);
  for (int d = dims - 2; d >= 0; --d) stride[d] = stride[d + 1] * sizes[d + 1];
  const int nodes = dims ? stride[0] * sizes[0] : 0;
  std::vector<Port> ports;
  for (NodeId v = 0; v < nodes; ++v)
    for (int d = 0; d < dims; ++d)
      for (int dir : {+1, -1}) {
        const int c = v / stride[d] % sizes[d];
        int n = c + dir;
        if (wrap[d]) n = (n + sizes[d]) % sizes[d];
        const bool leads = sizes[d] > 1 && n >= 0 && n < sizes[d];
        ports.push_back({v, d, dir, leads ? v + (n - c) * stride[d] : -1});
      }
  return ports;
}

}  // namespace optiq::oracle
