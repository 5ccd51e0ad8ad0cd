#include "optiq/core/bounds.hpp"

#include <algorithm>

#include "bounds/levels.hpp"

namespace optiq {

namespace {

// max(bytes leaving S / capacity leaving S, bytes entering S / capacity entering S).
double cut_value(const Network& topo, const std::vector<Job>& jobs, const std::vector<char>& in) {
  double out_bytes = 0, in_bytes = 0, out_cap = 0, in_cap = 0;
  for (const Job& j : jobs) {
    if (in[j.src] && !in[j.dst]) out_bytes += static_cast<double>(j.bytes);
    if (!in[j.src] && in[j.dst]) in_bytes += static_cast<double>(j.bytes);
  }
  for (LinkId l = 0; l < topo.num_links(); ++l) {
    const NodeId v = topo.link_dst(l);
    const bool from_in = in[topo.link_src(l)], to_in = in[v];
    if (from_in && !to_in) out_cap += topo.capacity(l);
    if (!from_in && to_in) in_cap += topo.capacity(l);
  }
  double best = 0;
  if (out_bytes > 0 && out_cap > 0) best = std::max(best, out_bytes / out_cap);
  if (in_bytes > 0 && in_cap > 0) best = std::max(best, in_bytes / in_cap);
  return best;
}

double grow_and_cut(const Network& topo, const std::vector<Job>& jobs, std::vector<char> in) {
  double best = 0;
  const graph::Csr& g = topo.graph();
  while (true) {  // one ring of neighbours more each round, until nothing grows
    best = std::max(best, cut_value(topo, jobs, in));
    std::vector<char> next = in;
    bool grew = false;
    for (NodeId v = 0; v < topo.num_vertices(); ++v)
      if (in[v])
        for (int i = g.out_begin(v); i < g.out_end(v); ++i) grew |= !next[g.head_at(i)], next[g.head_at(i)] = 1;
    if (!grew) break;
    in.swap(next);
  }
  return best;
}

// The cuts around the parts a network falls into below each level of switches (a fat-tree's
// leaves, then its pods): every part at once, one pass over the jobs and links per level.
double level_cuts(const Network& topo, const std::vector<Job>& jobs) {
  const std::vector<int> level = bounds::switch_levels(topo);
  const int top = level.empty() ? 0 : *std::max_element(level.begin(), level.end());
  double best = 0;
  for (int k = 1; k <= top; ++k) {
    const auto [part, parts] = bounds::parts_below(topo, level, k);
    std::vector<double> out_bytes(parts, 0.0), in_bytes(parts, 0.0), out_cap(parts, 0.0), in_cap(parts, 0.0);
    for (const Job& j : jobs)
      if (j.bytes > 0 && part[j.src] != part[j.dst]) {
        if (part[j.src] >= 0) out_bytes[part[j.src]] += static_cast<double>(j.bytes);
        if (part[j.dst] >= 0) in_bytes[part[j.dst]] += static_cast<double>(j.bytes);
      }
    for (LinkId l = 0; l < topo.num_links(); ++l) {
      const NodeId a = topo.link_src(l), b = topo.link_dst(l);
      if (a < 0 || b < 0 || part[a] == part[b]) continue;
      if (part[a] >= 0) out_cap[part[a]] += topo.capacity(l);
      if (part[b] >= 0) in_cap[part[b]] += topo.capacity(l);
    }
    for (int p = 0; p < parts; ++p) {
      if (out_bytes[p] > 0 && out_cap[p] > 0) best = std::max(best, out_bytes[p] / out_cap[p]);
      if (in_bytes[p] > 0 && in_cap[p] > 0) best = std::max(best, in_bytes[p] / in_cap[p]);
    }
  }
  return best;
}

}  // namespace

double cut_lower_bound(const Network& topo, const std::vector<Job>& jobs) {
  std::vector<char> sources(topo.num_vertices(), 0), dests(topo.num_vertices(), 0);
  for (const Job& j : jobs)
    if (j.bytes > 0) sources[j.src] = 1, dests[j.dst] = 1;
  return std::max({grow_and_cut(topo, jobs, sources), grow_and_cut(topo, jobs, dests), level_cuts(topo, jobs)});
}

}  // namespace optiq
