// Relaxation bounds: see include/optiq/core/bounds.hpp.
//
// Giving every link outside `hot` unlimited capacity can only lower the optimum. Node pairs
// joined both ways by such links then exchange bytes for free, so they merge; when the hot
// links are the bottlenecks of a good plan, a few dozen to a few thousand components remain.
// On that small graph the relaxed problem is solved by the same exponential-potential
// iteration mcf uses (Newton moves between a commodity's paths, exact cheapest paths every
// round). Its certificate is weak duality for weights that live on hot links only: under
// such weights a cheapest path in the network costs exactly what the cheapest contracted
// path costs, so the relaxed bound holds for the network itself.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "optiq/core/bounds.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/graph/contract.hpp"
#include "optiq/core/graph/dijkstra.hpp"
#include "optiq/core/graph/parallel.hpp"

namespace optiq {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// Potential sharpening per round and rebalancing sweeps per round of the small solver
// (measured on a 1,536-component relaxation of Mira's 49,152 nodes: 1.05 and one sweep took
// 870 rounds and 20 s to reach 1%, 1.2 and four sweeps about 50 rounds and 1 s to reach 0.1%).
constexpr double kSharpen = 1.2;
constexpr int kSweepsPerRound = 4;

struct Arc {
  int from, to;
  double cap;  // +inf: some link of unlimited capacity joins the two components this way
};

struct Commodity {
  int src, dst;
  double demand;
};

struct Flow {
  std::vector<int> arcs;
  double x;
};

// The contracted graph: arcs with capacities, and cheapest paths on it (ties: fewer arcs).
class SmallGraph {
 public:
  struct Cost {  // compared by weight, then arcs
    double d;
    int h;
    bool operator<(const Cost& o) const { return d != o.d ? d < o.d : h < o.h; }
  };
  // One search's state: one per thread.
  using Search = graph::Dijkstra<Cost>;

  SmallGraph(int nodes, std::vector<Arc> arcs) : arcs_(std::move(arcs)), nodes_(nodes) {
    std::vector<int> tails, heads;
    for (const Arc& a : arcs_) tails.push_back(a.from), heads.push_back(a.to);
    g_ = graph::Csr(nodes, std::move(tails), std::move(heads));
  }
  const std::vector<Arc>& arcs() const { return arcs_; }
  Search search() const { return Search(nodes_); }

  // Searches from src under arc weights w; then path_to gives the cheapest path to a node.
  void cheapest(Search& search, int src, const std::vector<double>& w) const {
    search.start();
    search.seed(src, Cost{0.0, 0});
    for (int v; (v = search.settle_next()) >= 0;) {
      const Cost c = search.key(v);
      for (int i = g_.out_begin(v); i < g_.out_end(v); ++i)
        search.offer(g_.head_at(i), Cost{c.d + w[g_.arc_at(i)], c.h + 1}, g_.arc_at(i));
    }
  }
  static bool reached(const Search& search, int v) { return search.settled(v); }
  static double dist(const Search& search, int v) { return search.settled(v) ? search.key(v).d : kInf; }
  std::vector<int> path_to(const Search& search, int v) const {
    std::vector<int> p;
    search.path_to(v, g_, p);
    return p;
  }

 private:
  std::vector<Arc> arcs_;
  int nodes_;
  graph::Csr g_;
};

// Max-concurrent-flow bound (seconds) for commodities on a small graph with capacities in
// bytes/s and demands in bytes.
double solve_small(const SmallGraph& g, const std::vector<Commodity>& goods, double tolerance, int max_rounds,
                   double beat) {
  const auto& arcs = g.arcs();
  const std::size_t m = arcs.size();
  std::vector<double> load(m, 0.0), w(m, 0.0);
  std::map<int, std::vector<std::size_t>> by_src;
  for (std::size_t k = 0; k < goods.size(); ++k) by_src[goods[k].src].push_back(k);
  std::vector<const std::pair<const int, std::vector<std::size_t>>*> sources;
  for (const auto& entry : by_src) sources.push_back(&entry);
  auto utilisation = [&] {
    double u = 0;
    for (std::size_t a = 0; a < m; ++a)
      if (std::isfinite(arcs[a].cap)) u = std::max(u, load[a] / arcs[a].cap);
    return u;
  };
  // Start on fewest-arc paths with every capacity-limited arc weighing the same.
  for (std::size_t a = 0; a < m; ++a) w[a] = std::isfinite(arcs[a].cap) ? 1.0 : 0.0;
  std::vector<std::vector<Flow>> flows(goods.size());
  SmallGraph::Search first = g.search();
  for (const auto& [src, members] : by_src) {
    g.cheapest(first, src, w);
    for (std::size_t k : members) {
      if (!SmallGraph::reached(first, goods[k].dst)) return 0.0;  // cannot happen in a torus
      flows[k].push_back({g.path_to(first, goods[k].dst), goods[k].demand});
      for (int a : flows[k].back().arcs) load[a] += goods[k].demand;
    }
  }
  double U = utilisation();
  if (U <= 0) return 0.0;  // every commodity crosses unlimited links only
  const double eta_max = std::log(static_cast<double>(m) + 1.0) / tolerance;
  double eta = 1.0, best = 0, best_flow = U;
  std::vector<double> gw(m);
  // Exponents are capped so weights stay finite when an arc runs past the reference load
  // (any weights certify a bound).
  auto potential = [&](std::size_t a) { return std::exp(std::min(50.0, eta * (load[a] / arcs[a].cap - U) / U)); };
  auto slope = [&](const std::vector<int>& p, double& d, double& h) {
    d = h = 0;
    for (int a : p)
      if (std::isfinite(arcs[a].cap)) d += gw[a] / arcs[a].cap, h += gw[a] / (arcs[a].cap * arcs[a].cap);
  };
  for (int round = 0; round < max_rounds; ++round) {
    double scale = 0;
    for (std::size_t a = 0; a < m; ++a) {
      gw[a] = std::isfinite(arcs[a].cap) ? potential(a) : 0.0;
      w[a] = std::isfinite(arcs[a].cap) ? gw[a] / arcs[a].cap : 0.0;
      scale += gw[a];
    }
    // The sources' searches are independent: on any number of threads, then summed in order.
    std::vector<std::vector<int>> fresh(goods.size());
    std::vector<double> dist(goods.size(), 0.0);
    graph::parallel_for(sources.size(), 2, [&](bool) { return g.search(); },
                        [&](SmallGraph::Search& search, std::size_t i) {
                          const auto& [src, members] = *sources[i];
                          g.cheapest(search, src, w);
                          for (std::size_t k : members) {
                            dist[k] = SmallGraph::dist(search, goods[k].dst);
                            fresh[k] = g.path_to(search, goods[k].dst);
                          }
                        });
    double priced = 0;
    for (const auto& [src, members] : by_src)
      for (std::size_t k : members) priced += goods[k].demand * dist[k];
    best = std::max(best, priced / scale);
    if (U <= (1 + tolerance) * best || best_flow <= (1 + tolerance) * beat) break;
    // A commodity aggregates many jobs and spreads over many paths, so one move per round
    // leaves most of the work to the next (costly) pricing: a few sweeps between a
    // commodity's own paths first cut the rounds needed 5-20x.
    for (int sweep = 0; sweep < kSweepsPerRound; ++sweep)
    for (std::size_t k = 0; k < goods.size(); ++k) {
      auto& set = flows[k];
      std::size_t b = 0;
      if (sweep == 0) {
        while (b < set.size() && set[b].arcs != fresh[k]) ++b;
        if (b == set.size()) set.push_back({fresh[k], 0.0});
      } else {
        double cheapest = kInf;
        for (std::size_t p = 0; p < set.size(); ++p) {
          double d, h;
          slope(set[p].arcs, d, h);
          if (d < cheapest) cheapest = d, b = p;
        }
      }
      for (std::size_t p = 0; p < set.size(); ++p) {
        if (p == b || set[p].x <= 0) continue;
        double dp, hp, db, hb;
        slope(set[p].arcs, dp, hp);
        slope(set[b].arcs, db, hb);
        if (dp <= db || hp + hb <= 0) continue;
        const double move = std::min(set[p].x, (U / eta) * (dp - db) / (hp + hb));
        for (int a : set[p].arcs) load[a] -= move;
        for (int a : set[b].arcs) load[a] += move;
        set[p].x -= move;
        set[b].x += move;
        // Keep the potential current for the commodity's next move.
        for (int a : set[p].arcs)
          if (std::isfinite(arcs[a].cap)) gw[a] = potential(a);
        for (int a : set[b].arcs)
          if (std::isfinite(arcs[a].cap)) gw[a] = potential(a);
      }
      set.erase(std::remove_if(set.begin(), set.end(), [](const Flow& f) { return f.x <= 0; }), set.end());
    }
    U = utilisation();
    best_flow = std::min(best_flow, U);
    eta = std::min(eta_max, eta * kSharpen);
  }
  return std::min(best, best_flow);
}


}  // namespace

double relaxed_lower_bound(const Network& topo, const std::vector<Job>& jobs, const std::vector<char>& hot,
                           double tolerance, int max_components, int max_rounds, double beat) {
  OPTIQ_CHECK(static_cast<int>(hot.size()) == topo.num_links(), "one hot flag per link");
  if (!(tolerance > 0 && tolerance < 1)) throw Error("relaxed bound: tolerance must be in (0, 1)");
  const graph::Csr& g = topo.graph();
  const graph::Components comp = graph::merge_below(g, hot, char{1});
  if (comp.count > max_components) return 0.0;
  const int k = comp.count;
  // Capacity between components: the hot links' sum, unlimited as soon as one link is not hot.
  const graph::Quotient q = graph::quotient(g, comp);
  std::vector<Arc> arcs;
  for (int x = 0; x < q.groups(); ++x) {
    double cap = 0;
    for (int i = q.begin[x]; i < q.begin[x + 1]; ++i) cap = hot[q.arcs[i]] ? cap + topo.capacity(q.arcs[i]) : kInf;
    arcs.push_back({q.from[x], q.to[x], cap});
  }
  std::map<std::pair<int, int>, double> demand;
  for (const Job& j : jobs)
    if (j.bytes > 0 && comp.of[j.src] != comp.of[j.dst]) demand[{comp.of[j.src], comp.of[j.dst]}] += static_cast<double>(j.bytes);
  if (demand.empty()) return 0.0;
  std::vector<Commodity> goods;
  for (const auto& [st, d] : demand) goods.push_back({st.first, st.second, d});
  SmallGraph small(k, std::move(arcs));
  return solve_small(small, goods, tolerance, max_rounds, beat);
}

}  // namespace optiq
