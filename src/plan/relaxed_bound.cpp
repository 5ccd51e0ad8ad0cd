// Relaxation bounds: see include/optiq/cut_bound.hpp.
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
#include <numeric>
#include <queue>

#include "optiq/cut_bound.hpp"
#include "optiq/error.hpp"

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

class SmallGraph {
 public:
  SmallGraph(int nodes, std::vector<Arc> arcs) : arcs_(std::move(arcs)), out_(nodes) {
    for (int a = 0; a < static_cast<int>(arcs_.size()); ++a) out_[arcs_[a].from].push_back(a);
  }
  int nodes() const { return static_cast<int>(out_.size()); }
  const std::vector<Arc>& arcs() const { return arcs_; }

  // Cheapest paths from src under arc weights (ties: fewer arcs); dist and the arc into each node.
  void cheapest(int src, const std::vector<double>& w, std::vector<double>& dist, std::vector<int>& via) const {
    const int n = nodes();
    dist.assign(n, kInf);
    std::vector<int> hops(n, 0);
    via.assign(n, -1);
    using Entry = std::tuple<double, int, int>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> open;
    dist[src] = 0;
    open.push({0.0, 0, src});
    while (!open.empty()) {
      const auto [d, h, v] = open.top();
      open.pop();
      if (d != dist[v] || h != hops[v]) continue;
      for (int a : out_[v]) {
        const int u = arcs_[a].to;
        const double nd = d + w[a];
        if (nd < dist[u] || (nd == dist[u] && h + 1 < hops[u])) {
          dist[u] = nd, hops[u] = h + 1, via[u] = a;
          open.push({nd, h + 1, u});
        }
      }
    }
  }

 private:
  std::vector<Arc> arcs_;
  std::vector<std::vector<int>> out_;
};

// Max-concurrent-flow bound (seconds) for commodities on a small graph with capacities in
// bytes/s and demands in bytes.
double solve_small(const SmallGraph& g, const std::vector<Commodity>& goods, double tolerance, int max_rounds) {
  const auto& arcs = g.arcs();
  const std::size_t m = arcs.size();
  std::vector<double> load(m, 0.0), w(m, 0.0), dist;
  std::vector<int> via;
  std::map<int, std::vector<std::size_t>> by_src;
  for (std::size_t k = 0; k < goods.size(); ++k) by_src[goods[k].src].push_back(k);
  auto path_to = [&](int src, int dst) {
    std::vector<int> p;
    for (int v = dst; v != src; v = arcs[via[v]].from) p.push_back(via[v]);
    std::reverse(p.begin(), p.end());
    return p;
  };
  auto utilisation = [&] {
    double u = 0;
    for (std::size_t a = 0; a < m; ++a)
      if (std::isfinite(arcs[a].cap)) u = std::max(u, load[a] / arcs[a].cap);
    return u;
  };
  // Start on fewest-arc paths with every capacity-limited arc weighing the same.
  for (std::size_t a = 0; a < m; ++a) w[a] = std::isfinite(arcs[a].cap) ? 1.0 : 0.0;
  std::vector<std::vector<Flow>> flows(goods.size());
  for (const auto& [src, members] : by_src) {
    g.cheapest(src, w, dist, via);
    for (std::size_t k : members) {
      if (!std::isfinite(dist[goods[k].dst])) return 0.0;  // cannot happen in a torus
      flows[k].push_back({path_to(src, goods[k].dst), goods[k].demand});
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
    double priced = 0;
    std::vector<std::vector<int>> fresh(goods.size());
    for (const auto& [src, members] : by_src) {
      g.cheapest(src, w, dist, via);
      for (std::size_t k : members) {
        priced += goods[k].demand * dist[goods[k].dst];
        fresh[k] = path_to(src, goods[k].dst);
      }
    }
    best = std::max(best, priced / scale);
    if (U <= (1 + tolerance) * best) break;
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

int find(std::vector<int>& parent, int x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

}  // namespace

double relaxed_lower_bound(const Topology& topo, const std::vector<Job>& jobs, const std::vector<char>& hot,
                           double tolerance, int max_components, int max_rounds) {
  OPTIQ_CHECK(static_cast<int>(hot.size()) == topo.num_link_slots(), "one hot flag per link slot");
  if (!(tolerance > 0 && tolerance < 1)) throw Error("relaxed bound: tolerance must be in (0, 1)");
  const int n = topo.num_nodes(), slots = 2 * topo.dims();
  std::vector<int> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  int count = n;
  for (LinkId l = 0; l < topo.num_link_slots(); ++l) {
    const NodeId v = topo.link_dst(l), u = topo.link_src(l);
    if (v < 0 || hot[l]) continue;
    for (LinkId r = v * slots; r < (v + 1) * slots; ++r)
      if (topo.link_dst(r) == u && !hot[r]) {
        const int a = find(parent, u), b = find(parent, v);
        if (a != b) parent[a] = b, --count;
        break;
      }
  }
  if (count > max_components) return 0.0;
  std::vector<int> comp(n, -1), id(n, -1);
  int k = 0;
  for (NodeId v = 0; v < n; ++v) {
    const int r = find(parent, v);
    if (id[r] < 0) id[r] = k++;
    comp[v] = id[r];
  }
  std::map<std::pair<int, int>, double> bundle;  // capacity between components; inf if any free link
  for (LinkId l = 0; l < topo.num_link_slots(); ++l) {
    const NodeId v = topo.link_dst(l);
    if (v < 0) continue;
    const int a = comp[topo.link_src(l)], b = comp[v];
    if (a == b) continue;
    double& cap = bundle[{a, b}];
    cap = hot[l] ? cap + topo.capacity(l) : kInf;
  }
  std::vector<Arc> arcs;
  for (const auto& [ab, cap] : bundle) arcs.push_back({ab.first, ab.second, cap});
  std::map<std::pair<int, int>, double> demand;
  for (const Job& j : jobs)
    if (j.bytes > 0 && comp[j.src] != comp[j.dst]) demand[{comp[j.src], comp[j.dst]}] += static_cast<double>(j.bytes);
  if (demand.empty()) return 0.0;
  std::vector<Commodity> goods;
  for (const auto& [st, d] : demand) goods.push_back({st.first, st.second, d});
  return solve_small(SmallGraph(k, std::move(arcs)), goods, tolerance, max_rounds);
}

}  // namespace optiq
