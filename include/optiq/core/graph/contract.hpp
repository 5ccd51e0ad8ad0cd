// Merging vertices into components and the graph between the components: the relaxations
// behind the core's cheap lower bounds. Merging two vertices treats the arcs inside a component
// as free, so any cost computed on the contracted graph underestimates the original.
#pragma once

#include <algorithm>
#include <numeric>
#include <tuple>
#include <vector>

#include "optiq/core/graph/csr.hpp"

namespace optiq::graph {

class UnionFind {
 public:
  explicit UnionFind(int n) : parent_(n), sets_(n) { std::iota(parent_.begin(), parent_.end(), 0); }
  int find(int x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  // Joins the sets of a and b; false when they were one already.
  bool unite(int a, int b) {
    a = find(a), b = find(b);
    if (a == b) return false;
    parent_[a] = b;
    --sets_;
    return true;
  }
  int sets() const { return sets_; }
  int size() const { return static_cast<int>(parent_.size()); }

 private:
  std::vector<int> parent_;
  int sets_;
};

// A component per vertex, numbered 0..count-1 in order of each component's lowest vertex.
struct Components {
  std::vector<int> of;
  int count = 0;
};
Components components(UnionFind& sets);

// Vertices u < v joined by arcs both ways, each with the larger of the two directions'
// lightest arc weights (the weight below which both ways are light), ascending by (u, v).
template <class W>
struct TwoWayPair {
  W weight;
  int u, v;
};
template <class W>
std::vector<TwoWayPair<W>> two_way_pairs(const Csr& g, const std::vector<W>& w) {
  std::vector<std::tuple<int, int, int, W>> ends;  // (low, high, 0 when low -> high, weight)
  for (int a = 0; a < g.arc_ids(); ++a) {
    const int t = g.tail(a), h = g.head(a);
    if (t < 0 || t == h) continue;
    ends.emplace_back(std::min(t, h), std::max(t, h), t < h ? 0 : 1, w[a]);
  }
  std::sort(ends.begin(), ends.end());
  std::vector<TwoWayPair<W>> pairs;
  for (std::size_t i = 0; i < ends.size();) {
    const auto [u, v, dir, lightest_up] = ends[i];
    std::size_t j = i;
    while (j < ends.size() && std::get<0>(ends[j]) == u && std::get<1>(ends[j]) == v && std::get<2>(ends[j]) == 0) ++j;
    if (dir == 0 && j < ends.size() && std::get<0>(ends[j]) == u && std::get<1>(ends[j]) == v)
      pairs.push_back({std::max(lightest_up, std::get<3>(ends[j])), u, v});  // sorted: the first of each side is its lightest
    while (j < ends.size() && std::get<0>(ends[j]) == u && std::get<1>(ends[j]) == v) ++j;
    i = j;
  }
  return pairs;
}

// Merges every pair joined both ways by arcs lighter than `threshold`.
template <class W>
Components merge_below(const Csr& g, const std::vector<W>& w, W threshold) {
  UnionFind sets(g.vertices());
  for (const auto& p : two_way_pairs(g, w))
    if (p.weight < threshold) sets.unite(p.u, p.v);
  return components(sets);
}

// Merges pairs joined both ways, lightest weight class first (as Kruskal would), until at most
// `max_components` components remain; whole classes at once, so the outcome is the merge at
// the smallest sufficient threshold.
template <class W>
Components merge_until(const Csr& g, const std::vector<W>& w, int max_components) {
  auto pairs = two_way_pairs(g, w);
  std::stable_sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) { return a.weight < b.weight; });
  UnionFind sets(g.vertices());
  for (std::size_t i = 0; i < pairs.size() && sets.sets() > max_components;) {
    std::size_t j = i;
    for (; j < pairs.size() && !(pairs[i].weight < pairs[j].weight); ++j) sets.unite(pairs[j].u, pairs[j].v);
    i = j;
  }
  return components(sets);
}

// The arcs between different components, grouped by (tail component, head component) in
// ascending order; within a group, ascending arc id.
struct Quotient {
  std::vector<int> from, to;  // per group
  std::vector<int> begin;     // per group, into arcs; one past the last at the end
  std::vector<int> arcs;
  int groups() const { return static_cast<int>(from.size()); }
};
Quotient quotient(const Csr& g, const Components& c);

}  // namespace optiq::graph
