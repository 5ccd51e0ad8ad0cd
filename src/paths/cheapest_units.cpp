// Goal-directed cheapest paths under whole-number link weights (see include/optiq/core/cheapest.hpp).
//
// A path's cost is the pair (weight, hops), ordered lexicographically and packed into one
// integer key weight * M + hops with M above any simple path's hop count, so a monotone
// radix heap orders the search exactly. The search is A* with a consistent potential
// H(v) = hw(v) * M + hh(v):
//   hh(v): on a torus (the network's hint), hop distance from v to the product of the
//          targets' coordinate sets (at most the hop distance to the nearest target, changes
//          by at most one per link); 0 on other networks;
//   hw(v): the larger of (a) the cheapest weight from v's component to a target's component
//          in a contracted graph where pairs of nodes joined both ways by light links merge
//          and light links are free, and (b) hh(v) times the lightest link weight. On a torus
//          whose every link weighs at least 1/kContractBelow of the heaviest, (a) is left out:
//          it then never raised the bound enough to settle fewer nodes, and building and
//          searching the contracted graph took 8-15% of a round (bench/results/mcf_profile.md).
//          Without the torus hint hh is 0 and (a) is all the bound there is.
// Both parts underestimate and change along a link by no more than the link's cost, so
// every node is settled once with its exact cost, as plain Dijkstra would settle it; nodes
// whose cheapest route to a target is dearer than the target itself are never settled. With
// weights that leave most links free (late pricing rounds) a search settles a few thousand
// nodes instead of the whole machine.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>

#include "optiq/core/cheapest.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/graph/contract.hpp"
#include "optiq/core/graph/dijkstra.hpp"
#include "optiq/core/graph/heaps.hpp"
#include "optiq/core/graph/parallel.hpp"
#include "paths/by_source.hpp"

namespace optiq {

namespace {

using Key = std::uint64_t;
constexpr Key kNoKey = std::numeric_limits<Key>::max();

// On a torus, the contracted graph's part of the bound is built only when the lightest link
// weighs less than this fraction of the heaviest. Mira 49,152 and bgq:16x8x8x16x2, every
// pricing round of mcf: at sharpness up to 3.2 (lightest 1/24 of the heaviest) the search
// settled exactly as many nodes without it; at 4.3 (1/75) 6% more, at 10 and beyond (free
// links) 5-11% more.
constexpr std::uint32_t kContractBelow = 32;

// The contracted graph behind hw(v), shared read-only by all searches of one call: node pairs
// joined both ways by light links merge (lightest first, until at most max_components remain),
// and arcs between components keep their cheapest link's weight. Arcs point backwards (head
// component to tail component), for the searches from the targets.
struct Contraction {
  std::vector<int> comp;  // per node
  int count = 0;          // components
  graph::Csr back;
  std::vector<std::uint64_t> weight;  // per arc of `back`
};

Contraction contract(const graph::Csr& g, const std::vector<std::uint32_t>& units, int max_components) {
  if (max_components <= 1) {  // one component, no arcs: the bound's part (a) is 0 everywhere
    return Contraction{std::vector<int>(static_cast<std::size_t>(g.vertices()), 0), 1, graph::Csr(1, {}, {}), {}};
  }
  const graph::Components c = graph::merge_until(g, units, max_components);
  const graph::Quotient q = graph::quotient(g, c);
  // Merged links count as free, which is what makes hw a lower bound.
  std::vector<std::uint64_t> weight(q.groups(), std::numeric_limits<std::uint64_t>::max());
  for (int x = 0; x < q.groups(); ++x)
    for (int i = q.begin[x]; i < q.begin[x + 1]; ++i) weight[x] = std::min<std::uint64_t>(weight[x], units[q.arcs[i]]);
  return Contraction{c.of, c.count, graph::Csr(c.count, q.to, q.from), std::move(weight)};
}

// One out-arc as the search reads it: its head, its link and the link's weight side by side,
// so that relaxing a node's arcs reads one run of memory instead of three arrays.
struct Arc {
  NodeId head;
  LinkId link;
  std::uint32_t units;
};

// What every search of one call reads: the graph with its weights, per node whether it
// forwards, its coordinates and its contracted component (one record per node, so the bound
// of a node costs one cache line), and the contraction.
struct Shared {
  const Network& topo;
  const graph::Csr& g;
  const Contraction& con;
  std::uint32_t lightest;
  const TorusShape* torus;  // null: no coordinate part in the potential
  int hop_shift;
  std::vector<int> first;   // per node: its arcs are arcs[first[v], first[v + 1])
  std::vector<Arc> arcs;
  std::vector<char> forwards;  // per node: may_forward
  int row = 0;                 // bytes per node in `nodes`
  std::vector<std::uint8_t> nodes;  // per node: its coordinates (with the torus hint), then its component
};

class UnitSearch {
 public:
  explicit UnitSearch(const Shared& sh)
      : sh_(sh), dims_(sh.torus ? sh.torus->dims() : 0), node_(sh.topo.num_vertices()),
        settled_(sh.topo.num_vertices(), 0), comp_search_(sh.con.count), comp_dist_(sh.con.count, kNoKey) {
    for (int d = 0; d < dims_; ++d) table_.emplace_back(sh.torus->size(d), 0);
  }

  // Returns the number of nodes settled.
  std::size_t run(NodeId src, const std::vector<NodeId>& targets, Key limit, std::vector<std::uint64_t>& cost,
                  std::vector<LinkPath>& paths) {
    ++stamp_;
    limit_ = limit;
    std::size_t settled = 0;
    prepare_heuristic(targets);
    std::size_t remaining = 0;
    for (NodeId t : targets) remaining += want(t);
    heap_.clear();
    reach(src, 0, -1);
    const int shift = sh_.hop_shift;
    // No node is tested for being settled before it is relaxed or popped: a settled node's
    // cost is exact (the potential is consistent), so no arc lowers it and it is never pushed
    // again, and an entry left behind by a later improvement no longer matches its node's key.
    // Those tests, unpredictable branches on a second random read, took a sixth of the search
    // time (Mira 49,152, bench/results/mcf_profile.md).
    while (!heap_.empty() && remaining > 0) {
      const auto [f, v] = heap_.pop();
      Node& nv = node_[v];
      if (f != nv.g + nv.h) continue;
      settled_[v] = stamp_;
      ++settled;
      if (wanted_[v] == stamp_) --remaining;
      if (v != src && !sh_.forwards[v]) continue;  // only endpoints forward
      const Key gv = nv.g;
      if (const int next = heap_.peek(); next >= 0) {  // its memory arrives while this node's arcs are relaxed
        __builtin_prefetch(&node_[next]);
        __builtin_prefetch(&sh_.arcs[sh_.first[next]]);
      }
      for (int i = sh_.first[v]; i < sh_.first[v + 1]; ++i) {
        const Arc& a = sh_.arcs[i];
        reach(a.head, gv + (static_cast<Key>(a.units) << shift) + 1, a.link);
      }
    }
    for (NodeId t : targets) {
      paths.emplace_back();
      if (settled_[t] != stamp_) {
        cost.push_back(kNoKey);
        continue;
      }
      cost.push_back(node_[t].g >> shift);
      for (NodeId v = t; v != src; v = sh_.g.tail(node_[v].via)) paths.back().push_back(node_[v].via);
      std::reverse(paths.back().begin(), paths.back().end());
    }
    return settled;
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
      const std::uint8_t* c = sh_.nodes.data() + static_cast<std::size_t>(v) * sh_.row;  // no coordinates without the hint
      Key hops = 0;
      for (int d = 0; d < dims_; ++d) hops += table_[d][c[d]];
      std::int32_t comp;
      std::memcpy(&comp, c + sh_.row - sizeof comp, sizeof comp);
      const Key to_comp = comp_dist_[comp];
      if (to_comp == kNoKey) return;  // no target reachable from here
      nv.h = (std::max(to_comp, hops * sh_.lightest) << sh_.hop_shift) + hops;
      nv.g = kNoKey;
      nv.seen = stamp_;
    }
    if (g + nv.h > limit_) return;  // dearer than a known path to every target: never settled
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
        const int cx = sh_.nodes[static_cast<std::size_t>(x) * sh_.row + d];
        for (int c = 0; c < static_cast<int>(t.size()); ++c)
          t[c] = std::min<std::uint16_t>(t[c], static_cast<std::uint16_t>(sh_.torus->ring_distance(d, c, cx)));
      }
    }
    const graph::Csr& back = sh_.con.back;
    comp_search_.start();
    for (NodeId x : targets) comp_search_.seed(sh_.con.comp[x], 0);
    for (int b; (b = comp_search_.settle_next()) >= 0;)
      for (int i = back.out_begin(b); i < back.out_end(b); ++i)
        comp_search_.offer(back.head_at(i), comp_search_.key(b) + sh_.con.weight[back.arc_at(i)], back.arc_at(i));
    for (int c = 0; c < sh_.con.count; ++c) comp_dist_[c] = comp_search_.settled(c) ? comp_search_.key(c) : kNoKey;
  }

  const Shared& sh_;
  const int dims_;
  std::uint32_t stamp_ = 0;
  Key limit_ = kNoKey;
  std::vector<Node> node_;
  std::vector<std::uint32_t> settled_;  // read only for the targets, once the search ends
  std::vector<std::uint32_t> wanted_ = std::vector<std::uint32_t>(sh_.topo.num_vertices(), 0);
  std::vector<std::vector<std::uint16_t>> table_;
  graph::Dijkstra<Key> comp_search_;
  std::vector<Key> comp_dist_;
  graph::RadixHeap heap_;
};

}  // namespace

CheapestPaths cheapest_paths_units(const Network& topo, const std::vector<Job>& jobs,
                                   const std::vector<std::uint32_t>& units, double unit, int max_components,
                                   std::size_t* settled, const std::vector<std::uint64_t>* known) {
  if (static_cast<int>(units.size()) != topo.num_links())
    throw Error("link weights: expected " + std::to_string(topo.num_links()) + " entries, got " +
                std::to_string(units.size()));
  if (known && known->size() != jobs.size())
    throw Error("known path costs: expected " + std::to_string(jobs.size()) + " entries, got " +
                std::to_string(known->size()));
  if (!(unit > 0) || std::isinf(unit)) throw Error("weight unit must be positive and finite");
  std::uint32_t lightest = std::numeric_limits<std::uint32_t>::max(), heaviest = 0;
  for (LinkId l = 0; l < topo.num_links(); ++l) {
    if (units[l] > (1u << 24)) throw Error("link weights above 2^24 units are not supported");
    lightest = std::min(lightest, units[l]);
    heaviest = std::max(heaviest, units[l]);
  }
  {
    int bits = 1;  // the packed key must hold weight * 2^hop_bits + hops for any simple path
    while ((std::int64_t{1} << bits) <= topo.num_vertices()) ++bits;
    if (2 * bits + 25 > 63) throw Error("topology too large for packed search keys");
    for (int d = 0; topo.torus() && d < topo.torus()->dims(); ++d)
      if (topo.torus()->size(d) > 255) throw Error("dimensions longer than 255 nodes are not supported by this search");
  }
  std::map<NodeId, std::vector<std::size_t>> by_source;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (!topo.contains(jobs[i].src) || !topo.contains(jobs[i].dst))
      throw Error("job " + std::to_string(i) + ": node outside the topology");
    by_source[jobs[i].src].push_back(i);
  }
  const detail::SourceGroups groups(by_source.begin(), by_source.end());
  const graph::Csr& g = topo.graph();
  const bool even = topo.torus() && static_cast<std::uint64_t>(lightest) * kContractBelow >= heaviest;
  const Contraction con = contract(g, units, even ? 1 : std::max(1, max_components));
  Shared shared{topo, g, con, lightest, topo.torus(), 1, {}, {}, {}, 0, {}};
  const int n = topo.num_vertices();
  shared.first.resize(static_cast<std::size_t>(n) + 1);
  shared.arcs.reserve(static_cast<std::size_t>(g.arcs()));
  shared.forwards.resize(n);
  for (NodeId v = 0; v < n; ++v) {
    shared.first[v] = static_cast<int>(shared.arcs.size());
    for (int i = g.out_begin(v); i < g.out_end(v); ++i) shared.arcs.push_back({g.head_at(i), g.arc_at(i), units[g.arc_at(i)]});
    shared.forwards[v] = topo.may_forward(v);
  }
  shared.first[n] = static_cast<int>(shared.arcs.size());
  const int dims = topo.torus() ? topo.torus()->dims() : 0;
  shared.row = (dims + 3) / 4 * 4 + 4;  // coordinates padded to the component's alignment
  shared.nodes.assign(static_cast<std::size_t>(n) * shared.row, 0);
  for (NodeId v = 0; v < n; ++v) {
    std::uint8_t* row = shared.nodes.data() + static_cast<std::size_t>(v) * shared.row;
    for (int d = 0; d < dims; ++d) row[d] = static_cast<std::uint8_t>(topo.torus()->coord(v, d));
    const std::int32_t comp = con.comp[v];
    std::memcpy(row + shared.row - sizeof comp, &comp, sizeof comp);
  }
  while ((Key{1} << shared.hop_shift) <= static_cast<Key>(topo.num_vertices())) ++shared.hop_shift;

  CheapestPaths out;
  out.cost.assign(jobs.size(), std::numeric_limits<double>::infinity());
  out.paths.assign(jobs.size(), {});
  std::atomic<std::size_t> total_settled{0};
  detail::search_by_source<UnitSearch, std::uint64_t>(
      groups, jobs, [&] { return UnitSearch(shared); },
      [&](UnitSearch& search, NodeId src, const std::vector<std::size_t>& members, const std::vector<NodeId>& targets,
          std::vector<std::uint64_t>& cost, std::vector<LinkPath>& paths) {
        // A node whose cheapest route to a target would cost more than the dearest of the
        // source's known paths is never settled: the search ends before its key comes up.
        Key limit = known ? 0 : kNoKey;
        for (std::size_t j : members)
          if (limit != kNoKey)
            limit = (*known)[j] >= (Key{1} << (62 - shared.hop_shift))  // none, or too dear to bound anything
                        ? kNoKey
                        : std::max(limit, (((*known)[j] + 1) << shared.hop_shift) - 1);
        total_settled += search.run(src, targets, limit, cost, paths);
      },
      [&](std::size_t job, std::uint64_t cost, LinkPath&& path) {
        if (cost != kNoKey) out.cost[job] = static_cast<double>(cost) * unit;
        out.paths[job] = std::move(path);
      });
  if (settled) *settled = total_settled;
  return out;
}

}  // namespace optiq
