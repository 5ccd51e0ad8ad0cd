#include "bounds/levels.hpp"

namespace optiq::bounds {

std::vector<int> switch_levels(const Network& topo) {
  bool switches = false;
  for (NodeId v = 0; v < topo.num_vertices() && !switches; ++v) switches = !topo.is_terminal(v);
  if (!switches) return {};
  const graph::Csr& g = topo.graph();
  std::vector<int> level(topo.num_vertices(), -1);
  std::vector<NodeId> queue;
  for (NodeId v = 0; v < topo.num_vertices(); ++v)
    if (topo.is_terminal(v)) level[v] = 0, queue.push_back(v);
  for (std::size_t i = 0; i < queue.size(); ++i)
    for (int a = g.out_begin(queue[i]); a < g.out_end(queue[i]); ++a)
      if (level[g.head_at(a)] < 0) level[g.head_at(a)] = level[queue[i]] + 1, queue.push_back(g.head_at(a));
  return level;
}

LevelParts parts_below(const Network& topo, const std::vector<int>& level, int k) {
  const graph::Csr& g = topo.graph();
  LevelParts out;
  out.part.assign(topo.num_vertices(), -1);
  for (NodeId s = 0; s < topo.num_vertices(); ++s) {
    if (level[s] < 0 || level[s] >= k || out.part[s] >= 0) continue;
    std::vector<NodeId> stack = {s};
    out.part[s] = out.count;
    while (!stack.empty()) {
      const NodeId v = stack.back();
      stack.pop_back();
      for (int a = g.out_begin(v); a < g.out_end(v); ++a) {
        const NodeId w = g.head_at(a);
        if (level[w] >= 0 && level[w] < k && out.part[w] < 0) out.part[w] = out.count, stack.push_back(w);
      }
    }
    ++out.count;
  }
  return out;
}

}  // namespace optiq::bounds
