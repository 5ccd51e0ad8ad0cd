// Goal-directed cheapest paths under whole-number link weights (see include/optiq/cheapest.hpp).
//
// A path's cost is the pair (weight, hops), ordered lexicographically and packed into one
// integer key weight * M + hops with M above any simple path's hop count, so a monotone
// radix heap orders the search exactly. The search is A* with a consistent potential
// H(v) = hw(v) * M + hh(v):
//   hh(v): hop distance from v to the product of the targets' coordinate sets (at most the
//          hop distance to the nearest target, changes by at most one per link);
//   hw(v): the larger of (a) the cheapest weight from v's component to a target's component
//          in a contracted graph where pairs of nodes joined both ways by light links merge
//          and light links are free, and (b) hh(v) times the lightest link weight.
// Both parts underestimate and change along a link by no more than the link's cost, so
// every node is settled once with its exact cost, as plain Dijkstra would settle it; nodes
// whose cheapest route to a target is dearer than the target itself are never settled. With
// weights that leave most links free (late pricing rounds) a search settles a few thousand
// nodes instead of the whole machine.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <thread>

#include "optiq/cheapest.hpp"
#include "optiq/error.hpp"

namespace optiq {

namespace {

using Key = std::uint64_t;
constexpr Key kNoKey = std::numeric_limits<Key>::max();

// Monotone priority queue of (key, node): pops never decrease, as A* with a consistent
// potential guarantees. Stale entries are skipped by the caller.
class RadixHeap {
 public:
  void clear() {
    for (auto& b : buckets_) b.clear();
    size_ = 0;
    last_ = 0;
  }
  bool empty() const { return size_ == 0; }
  void push(Key k, NodeId v) {
    buckets_[bucket(k)].push_back({k, v});
    ++size_;
  }
  std::pair<Key, NodeId> pop() {
    if (buckets_[0].empty()) {
      std::size_t i = 1;
      while (buckets_[i].empty()) ++i;
      Key lo = kNoKey;
      for (const auto& e : buckets_[i]) lo = std::min(lo, e.first);
      last_ = lo;
      for (const auto& e : buckets_[i]) buckets_[bucket(e.first)].push_back(e);
      buckets_[i].clear();
    }
    const auto top = buckets_[0].back();
    buckets_[0].pop_back();
    --size_;
    return top;
  }

 private:
  std::size_t bucket(Key k) const { return k == last_ ? 0 : 64 - static_cast<std::size_t>(__builtin_clzll(k ^ last_)); }
  std::vector<std::pair<Key, NodeId>> buckets_[65];
  std::size_t size_ = 0;
  Key last_ = 0;
};

// The contracted graph behind hw(v), shared read-only by all searches of one call.
struct Contraction {
  std::vector<int> comp;                          // per node
  int count = 0;                                  // components
  std::vector<int> in_begin;                      // per component, into in_arcs (CSR)
  std::vector<std::pair<int, std::uint64_t>> in;  // (from component, cheapest weight)
};

int find(std::vector<int>& parent, int x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

// Merges node pairs joined both ways by links lighter than a threshold chosen as the smallest
// that leaves at most `max_components` components (lightest pairs first, as Kruskal would).
Contraction contract(const Topology& topo, const std::vector<std::uint32_t>& units, int max_components) {
  const int n = topo.num_nodes(), slots = 2 * topo.dims();
  struct Pair {
    std::uint32_t w;
    NodeId u, v;
  };
  std::vector<Pair> pairs;
  for (LinkId l = 0; l < topo.num_link_slots(); ++l) {
    const NodeId v = topo.link_dst(l), u = topo.link_src(l);
    if (v < 0 || v < u) continue;
    std::uint32_t back = std::numeric_limits<std::uint32_t>::max();
    for (LinkId r = v * slots; r < (v + 1) * slots; ++r)
      if (topo.link_dst(r) == u) back = std::min(back, units[r]);
    pairs.push_back({std::max(units[l], back), u, v});
  }
  std::stable_sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) { return a.w < b.w; });
  std::vector<int> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  int count = n;
  for (std::size_t i = 0; i < pairs.size() && count > max_components;) {
    // Whole weight classes at once, so the threshold is well defined.
    std::size_t j = i;
    while (j < pairs.size() && pairs[j].w == pairs[i].w) {
      const int a = find(parent, pairs[j].u), b = find(parent, pairs[j].v);
      if (a != b) parent[a] = b, --count;
      ++j;
    }
    i = j;
  }
  Contraction c;
  c.comp.assign(n, -1);
  std::vector<int> id(n, -1);
  for (NodeId v = 0; v < n; ++v) {
    const int r = find(parent, v);
    if (id[r] < 0) id[r] = c.count++;
    c.comp[v] = id[r];
  }
  // Arcs between components keep their links' weights (the cheapest of parallel ones): merged
  // links count as free, which is what makes hw a lower bound.
  std::vector<std::tuple<int, int, std::uint64_t>> arcs;  // (to, from, weight)
  for (LinkId l = 0; l < topo.num_link_slots(); ++l) {
    const NodeId v = topo.link_dst(l);
    if (v < 0) continue;
    const int a = c.comp[topo.link_src(l)], b = c.comp[v];
    if (a == b) continue;
    arcs.emplace_back(b, a, units[l]);
  }
  std::sort(arcs.begin(), arcs.end());
  c.in_begin.assign(c.count + 1, 0);
  for (std::size_t i = 0; i < arcs.size(); ++i) {
    const auto [b, a, w] = arcs[i];
    if (i > 0 && std::get<0>(arcs[i - 1]) == b && std::get<1>(arcs[i - 1]) == a) continue;  // sorted: first is cheapest
    c.in.push_back({a, w});
    ++c.in_begin[b + 1];
  }
  for (int b = 0; b < c.count; ++b) c.in_begin[b + 1] += c.in_begin[b];
  return c;
}

// What every search of one call reads: neighbours behind link slots, weights, coordinates
// (one row per node, so the hop bound of a node costs one cache line) and the contraction.
struct Shared {
  const Topology& topo;
  const std::vector<std::uint32_t>& units;
  const Contraction& con;
  std::uint32_t lightest;
  std::vector<NodeId> next;
  std::vector<std::uint8_t> coord;  // node * dims + dim
  int hop_shift;
};

class UnitSearch {
 public:
  explicit UnitSearch(const Shared& sh)
      : sh_(sh), dims_(sh.topo.dims()), slots_(2 * sh.topo.dims()), node_(sh.topo.num_nodes()),
        closed_(sh.topo.num_nodes(), 0), comp_dist_(sh.con.count, kNoKey) {
    for (int d = 0; d < dims_; ++d) table_.emplace_back(sh.topo.size(d), 0);
  }

  std::size_t settled() const { return settled_; }

  void run(NodeId src, const std::vector<NodeId>& targets, std::vector<std::uint64_t>& cost, std::vector<LinkPath>& paths) {
    ++stamp_;
    prepare_heuristic(targets);
    std::size_t remaining = 0;
    for (NodeId t : targets) remaining += want(t);
    heap_.clear();
    reach(src, 0, -1);
    const int shift = sh_.hop_shift;
    while (!heap_.empty() && remaining > 0) {
      const auto [f, v] = heap_.pop();
      Node& nv = node_[v];
      if (closed_[v] == stamp_ || f != nv.g + nv.h) continue;
      closed_[v] = stamp_;
      ++settled_;
      if (wanted_[v] == stamp_) --remaining;
      const Key gv = nv.g;
      const LinkId first = v * slots_;
      for (LinkId l = first; l < first + slots_; ++l) {
        const NodeId w = sh_.next[l];
        if (w < 0 || closed_[w] == stamp_) continue;
        reach(w, gv + (static_cast<Key>(sh_.units[l]) << shift) + 1, l);
      }
    }
    for (NodeId t : targets) {
      paths.emplace_back();
      if (closed_[t] != stamp_) {
        cost.push_back(kNoKey);
        continue;
      }
      cost.push_back(node_[t].g >> shift);
      for (NodeId v = t; v != src; v = sh_.topo.link_src(node_[v].via)) paths.back().push_back(node_[v].via);
      std::reverse(paths.back().begin(), paths.back().end());
    }
  }

 private:
  struct Node {  // one search's state of a node; stamps tell which search wrote it
    Key g, h;
    LinkId via;
    std::uint32_t seen = 0;
  };

  std::size_t want(NodeId t) {
    if (wanted_[t] == stamp_) return 0;
    wanted_[t] = stamp_;
    return 1;
  }

  void reach(NodeId v, Key g, LinkId via) {
    Node& nv = node_[v];
    if (nv.seen != stamp_) {
      const std::uint8_t* c = &sh_.coord[static_cast<std::size_t>(v) * dims_];
      Key hops = 0;
      for (int d = 0; d < dims_; ++d) hops += table_[d][c[d]];
      const Key to_comp = comp_dist_[sh_.con.comp[v]];
      if (to_comp == kNoKey) return;  // no target reachable from here
      nv.h = (std::max(to_comp, hops * sh_.lightest) << sh_.hop_shift) + hops;
      nv.g = kNoKey;
      nv.seen = stamp_;
    }
    if (g < nv.g) {
      nv.g = g;
      nv.via = via;
      heap_.push(g + nv.h, v);
    }
  }

  // Per dimension, the ring distance from every coordinate to the nearest target coordinate;
  // and the contracted graph's cheapest weights from every component to a target component.
  void prepare_heuristic(const std::vector<NodeId>& targets) {
    for (int d = 0; d < dims_; ++d) {
      auto& t = table_[d];
      std::fill(t.begin(), t.end(), std::numeric_limits<std::uint16_t>::max());
      for (NodeId x : targets) {
        const int cx = sh_.coord[static_cast<std::size_t>(x) * dims_ + d];
        for (int c = 0; c < static_cast<int>(t.size()); ++c)
          t[c] = std::min<std::uint16_t>(t[c], static_cast<std::uint16_t>(sh_.topo.ring_distance(d, c, cx)));
      }
    }
    std::fill(comp_dist_.begin(), comp_dist_.end(), kNoKey);
    cheap_.clear();
    for (NodeId x : targets) {
      const int c = sh_.con.comp[x];
      if (comp_dist_[c] != 0) comp_dist_[c] = 0, cheap_.push(0, c);
    }
    while (!cheap_.empty()) {
      const auto [d, b] = cheap_.pop();
      if (d != comp_dist_[b]) continue;
      for (int i = sh_.con.in_begin[b]; i < sh_.con.in_begin[b + 1]; ++i) {
        const auto [a, w] = sh_.con.in[i];
        if (d + w < comp_dist_[a]) comp_dist_[a] = d + w, cheap_.push(d + w, a);
      }
    }
  }

  const Shared& sh_;
  const int dims_, slots_;
  std::uint32_t stamp_ = 0;
  std::size_t settled_ = 0;
  std::vector<Node> node_;
  std::vector<std::uint32_t> closed_;  // the innermost loop reads these: kept apart and small
  std::vector<std::uint32_t> wanted_ = std::vector<std::uint32_t>(sh_.topo.num_nodes(), 0);
  std::vector<std::vector<std::uint16_t>> table_;
  std::vector<Key> comp_dist_;
  RadixHeap heap_, cheap_;
};

}  // namespace

CheapestPaths cheapest_paths_units(const Topology& topo, const std::vector<Job>& jobs,
                                   const std::vector<std::uint32_t>& units, double unit, int max_components,
                                   std::size_t* settled) {
  if (static_cast<int>(units.size()) != topo.num_link_slots())
    throw Error("link weights: expected " + std::to_string(topo.num_link_slots()) + " entries, got " +
                std::to_string(units.size()));
  if (!(unit > 0) || std::isinf(unit)) throw Error("weight unit must be positive and finite");
  std::uint32_t lightest = std::numeric_limits<std::uint32_t>::max();
  for (LinkId l = 0; l < topo.num_link_slots(); ++l)
    if (topo.link_exists(l)) {
      if (units[l] > (1u << 24)) throw Error("link weights above 2^24 units are not supported");
      lightest = std::min(lightest, units[l]);
    }
  {
    int bits = 1;  // the packed key must hold weight * 2^hop_bits + hops for any simple path
    while ((std::int64_t{1} << bits) <= topo.num_nodes()) ++bits;
    if (2 * bits + 25 > 63) throw Error("topology too large for packed search keys");
    for (int d = 0; d < topo.dims(); ++d)
      if (topo.size(d) > 255) throw Error("dimensions longer than 255 nodes are not supported by this search");
  }
  std::map<NodeId, std::vector<std::size_t>> by_source;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (!topo.contains(jobs[i].src) || !topo.contains(jobs[i].dst))
      throw Error("job " + std::to_string(i) + ": node outside the topology");
    by_source[jobs[i].src].push_back(i);
  }
  std::vector<std::pair<NodeId, std::vector<std::size_t>>> groups(by_source.begin(), by_source.end());
  const Contraction con = contract(topo, units, std::max(1, max_components));
  Shared shared{topo, units, con, lightest, std::vector<NodeId>(topo.num_link_slots()),
                std::vector<std::uint8_t>(static_cast<std::size_t>(topo.num_nodes()) * topo.dims()), 1};
  for (LinkId l = 0; l < topo.num_link_slots(); ++l) shared.next[l] = topo.link_dst(l);
  for (NodeId v = 0; v < topo.num_nodes(); ++v)
    for (int d = 0; d < topo.dims(); ++d) shared.coord[static_cast<std::size_t>(v) * topo.dims() + d] = static_cast<std::uint8_t>(topo.coord(v, d));
  while ((Key{1} << shared.hop_shift) <= static_cast<Key>(topo.num_nodes())) ++shared.hop_shift;

  CheapestPaths out;
  out.cost.assign(jobs.size(), std::numeric_limits<double>::infinity());
  out.paths.assign(jobs.size(), {});
  std::atomic<std::size_t> next{0}, total_settled{0};
  auto work = [&] {
    UnitSearch search(shared);
    std::vector<std::uint64_t> cost;
    std::vector<LinkPath> paths;
    std::vector<NodeId> targets;
    for (std::size_t g; (g = next.fetch_add(1)) < groups.size();) {
      targets.clear();
      for (std::size_t j : groups[g].second) targets.push_back(jobs[j].dst);
      cost.clear();
      paths.clear();
      search.run(groups[g].first, targets, cost, paths);
      for (std::size_t i = 0; i < groups[g].second.size(); ++i) {
        const std::size_t j = groups[g].second[i];
        if (cost[i] != kNoKey) out.cost[j] = static_cast<double>(cost[i]) * unit;
        out.paths[j] = std::move(paths[i]);
      }
    }
    total_settled += search.settled();
  };
  const unsigned helpers = groups.size() < 8 ? 0 : std::min(3u, std::max(1u, std::thread::hardware_concurrency()) - 1);
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < helpers; ++t) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  if (settled) *settled = total_settled;
  return out;
}

}  // namespace optiq
