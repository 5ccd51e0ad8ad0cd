#include "chains.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "optiq/error.hpp"
#include "optiq/graph/dijkstra.hpp"
#include "optiq/graph/parallel.hpp"

namespace optiq::detail {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

LinkPath chain_links(const Legs& legs, const std::vector<NodeId>& stops) {
  LinkPath out;
  for (std::size_t i = 0; i + 1 < stops.size(); ++i) legs.append_leg(stops[i], stops[i + 1], out);
  return out;
}

}  // namespace

std::vector<LinkPath> candidate_chains(const Legs& legs, NodeId src, NodeId dst, int k, int bound) {
  if (legs.terminal_index(src) < 0 || legs.terminal_index(dst) < 0)
    throw Error("paths run between endpoints; vertex " + std::to_string(legs.terminal_index(src) < 0 ? src : dst) +
                " is a switch");
  if (src == dst) return {LinkPath{}};
  // (links, proxy) for the default route (proxy -1) and every chain through one endpoint.
  const int td = legs.terminal_index(dst);
  std::vector<std::pair<int, NodeId>> order;
  if (legs.next(td, src) >= 0 && legs.hops(td, src) <= bound) order.emplace_back(legs.hops(td, src), -1);
  for (NodeId p : legs.terminals()) {
    if (p == src || p == dst || !legs.can_proxy(p)) continue;
    const int tp = legs.terminal_index(p);
    if (legs.next(tp, src) < 0 || legs.next(td, p) < 0) continue;
    const int hops = legs.hops(tp, src) + legs.hops(td, p);
    if (hops <= bound) order.emplace_back(hops, p);
  }
  std::sort(order.begin(), order.end());
  std::vector<LinkPath> out;
  std::vector<LinkPath> kept_sorted;
  for (const auto& [hops, proxy] : order) {
    if (static_cast<int>(out.size()) >= k) break;
    LinkPath links = proxy < 0 ? chain_links(legs, {src, dst}) : chain_links(legs, {src, proxy, dst});
    LinkPath sorted(links);
    std::sort(sorted.begin(), sorted.end());
    bool dominated = false;
    for (const LinkPath& kept : kept_sorted)
      if (std::includes(sorted.begin(), sorted.end(), kept.begin(), kept.end())) dominated = true;
    if (dominated) continue;
    kept_sorted.push_back(std::move(sorted));
    out.push_back(std::move(links));
  }
  return out;
}

namespace {

// Prices chains ending at one destination under fixed weights.
class ChainPricer {
 public:
  ChainPricer(const Legs& legs, const std::vector<double>& lw, const std::vector<double>& nw)
      : legs_(legs), net_(legs.network()), lw_(lw), nw_(nw),
        phys_(net_.num_vertices()) {}

  // Weight of passing vertex v without it being an end: its node weight unless it is a switch.
  double pass(NodeId v) const { return nw_.empty() || !net_.is_terminal(v) ? 0.0 : nw_[v]; }

  // The default route from `at` to terminal index t: links plus the endpoints it passes.
  double leg_cost(NodeId at, int t, int* hops) const {
    const NodeId dst = legs_.terminals()[t];
    double c = 0;
    *hops = 0;
    for (NodeId v = at; v != dst;) {
      const LinkId l = legs_.next(t, v);
      if (v != at) c += pass(v);
      c += lw_[l];
      ++*hops;
      v = net_.link_dst(l);
    }
    return c;
  }

  // Cheapest unrestricted path cost from every vertex to dst in the link graph.
  void prepare(NodeId dst) {
    const graph::Csr& back = back_graph();
    phys_.start();
    phys_.seed(dst, 0.0);
    dst_ = dst;
    for (int v; (v = phys_.settle_next()) >= 0;) {
      const double through = phys_.key(v) + (v == dst ? 0.0 : pass(v));
      for (int k = back.out_begin(v); k < back.out_end(v); ++k)
        phys_.offer(back.head_at(k), through + lw_[back.arc_at(k)], back.arc_at(k));
    }
  }
  double h(NodeId v) const { return phys_.settled(v) ? phys_.key(v) : kInf; }

  // A* over the overlay from src to the prepared destination.
  double price(NodeId src, LinkPath& path) {
    const auto& terms = legs_.terminals();
    const int ts = legs_.terminal_index(src), tt = legs_.terminal_index(dst_);
    path.clear();
    if (ts < 0 || tt < 0 || h(src) == kInf) return kInf;
    if (g_.size() != terms.size()) g_.assign(terms.size(), kInf), hops_.assign(terms.size(), 0);
    touched_.clear();
    Search& s = open_;
    s.start();
    g_[ts] = 0, hops_[ts] = 0, touched_.push_back(ts);
    s.seed(ts, OverlayKey{h(src), 0});
    for (int u; (u = s.settle_next()) >= 0;) {
      if (u == tt) break;
      const NodeId at = terms[u];
      if (at != src && !legs_.can_proxy(at)) continue;
      const double base = g_[u] + (at == src ? 0.0 : pass(at));
      auto relax = [&](int w) {
        const NodeId x = terms[w];
        if (w == u || s.settled(w) || (w != tt && !legs_.can_proxy(x)) || legs_.next(w, at) < 0) return;
        const double hx = h(x);
        // No chain through x can beat the best one to the destination found so far: skip the
        // walk along the leg (the heuristic is consistent, so nothing beyond x can either).
        if (hx == kInf || base + hx > g_[tt]) return;
        int leg_hops = 0;
        const double g = base + leg_cost(at, w, &leg_hops);
        const int hops = hops_[u] + leg_hops;
        if (g_[w] == kInf) touched_.push_back(w);
        else if (!(g < g_[w] || (g == g_[w] && hops < hops_[w]))) return;
        g_[w] = g, hops_[w] = hops;
        s.offer(w, OverlayKey{g + hx, hops}, u);
      };
      relax(tt);  // first: its cost bounds what the other legs may cost
      for (int w = 0; w < static_cast<int>(terms.size()); ++w)
        if (w != tt) relax(w);
    }
    double cost = kInf;
    if (s.settled(tt)) {
      cost = g_[tt];
      std::vector<NodeId> stops;
      for (int v = tt; v >= 0; v = s.via(v)) stops.push_back(terms[v]);
      std::reverse(stops.begin(), stops.end());
      path = chain_links(legs_, stops);
    }
    for (int w : touched_) g_[w] = kInf;
    return cost;
  }

  // Cheapest chain of at most `proxies` + 1 legs, layer by layer: the last layer only needs the
  // legs into the destination, so one proxy costs two scans of the terminals and each further
  // one a scan of all terminal pairs.
  double price_by_legs(NodeId src, int proxies, LinkPath& path) {
    const auto& terms = legs_.terminals();
    const std::size_t T = terms.size();
    const int ts = legs_.terminal_index(src), tt = legs_.terminal_index(dst_);
    path.clear();
    if (ts < 0 || tt < 0) return kInf;
    struct Label {
      double cost = kInf;
      int hops = 0;
      int from = -1;  // terminal index in the previous layer
    };
    std::vector<std::vector<Label>> layer(1, std::vector<Label>(T));
    layer[0][ts] = {0.0, 0, -1};
    Label best;
    int best_layer = -1;
    auto better = [](const Label& a, double c, int h) { return c < a.cost || (c == a.cost && h < a.hops); };
    for (int k = 0; k <= proxies; ++k) {
      const bool last = k == proxies;
      if (!last) layer.emplace_back(T);
      for (std::size_t u = 0; u < T; ++u) {
        const Label& lu = layer[k][u];
        const NodeId at = terms[u];
        if (lu.cost == kInf || static_cast<int>(u) == tt) continue;
        const double base = lu.cost + (at == src ? 0.0 : pass(at));
        auto relax = [&](std::size_t w, Label& into) {
          if (w == u || legs_.next(static_cast<int>(w), at) < 0) return false;
          int leg_hops = 0;
          const double c = base + leg_cost(at, static_cast<int>(w), &leg_hops);
          if (!better(into, c, lu.hops + leg_hops)) return false;
          into = {c, lu.hops + leg_hops, static_cast<int>(u)};
          return true;
        };
        Label to_dst = best;
        if (relax(tt, to_dst)) best = to_dst, best_layer = k + 1;
        if (last) continue;
        for (std::size_t w = 0; w < T; ++w)
          if (static_cast<int>(w) != tt && terms[w] != src && legs_.can_proxy(terms[w])) relax(w, layer[k + 1][w]);
      }
    }
    if (best_layer < 0) return kInf;
    std::vector<NodeId> stops{dst_};
    for (int k = best_layer - 1, at = best.from; k >= 0; at = layer[k][at].from, --k) stops.push_back(terms[at]);
    std::reverse(stops.begin(), stops.end());
    path = chain_links(legs_, stops);
    return best.cost;
  }

  // Cheapest chain of at most `bound` links: cost[b][w] over chains of exactly b links.
  double price_bounded(NodeId src, int bound, LinkPath& path) {
    const auto& terms = legs_.terminals();
    const std::size_t T = terms.size();
    const int ts = legs_.terminal_index(src), tt = legs_.terminal_index(dst_);
    path.clear();
    if (ts < 0 || tt < 0) return kInf;
    std::vector<double> cost(static_cast<std::size_t>(bound + 1) * T, kInf);
    std::vector<int> from(cost.size(), -1);
    cost[ts] = 0;
    for (int b = 0; b < bound; ++b)
      for (std::size_t u = 0; u < T; ++u) {
        const double c = cost[b * T + u];
        const NodeId at = terms[u];
        if (c == kInf || static_cast<int>(u) == tt || (at != src && !legs_.can_proxy(at))) continue;
        const double base = c + (at == src ? 0.0 : pass(at));
        for (std::size_t w = 0; w < T; ++w) {
          const int leg = legs_.hops(static_cast<int>(w), at);
          if (w == u || leg == 0 || b + leg > bound || (static_cast<int>(w) != tt && !legs_.can_proxy(terms[w])))
            continue;
          int leg_hops = 0;
          const double g = base + leg_cost(at, static_cast<int>(w), &leg_hops);
          const std::size_t at_w = (b + leg) * T + w;
          if (g < cost[at_w]) cost[at_w] = g, from[at_w] = static_cast<int>(b * T + u);
        }
      }
    double best = kInf;
    int best_b = -1;
    for (int b = 0; b <= bound; ++b)  // fewest links among the cheapest
      if (cost[b * T + tt] < best) best = cost[b * T + tt], best_b = b;
    if (best_b < 0) return kInf;
    std::vector<NodeId> stops;
    for (int at = static_cast<int>(best_b * T + tt); at >= 0; at = from[at]) stops.push_back(terms[at % T]);
    std::reverse(stops.begin(), stops.end());
    // A walk of the layers could come back to a terminal, but cutting out the loop gives one
    // as cheap with fewer links, which the layer choice above prefers.
    std::vector<NodeId> sorted(stops);
    std::sort(sorted.begin(), sorted.end());
    OPTIQ_CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end(),
                "a cheapest bounded chain repeats a junction");
    path = chain_links(legs_, stops);
    return best;
  }

 private:
  struct OverlayKey {
    double f;
    int hops;
    bool operator<(const OverlayKey& o) const { return f != o.f ? f < o.f : hops < o.hops; }
  };
  using Search = graph::Dijkstra<OverlayKey>;
  const graph::Csr& back_graph() {
    if (back_.vertices() == 0) back_ = net_.graph().reversed();
    return back_;
  }

  const Legs& legs_;
  const Network& net_;
  const std::vector<double>& lw_;
  const std::vector<double>& nw_;
  graph::Dijkstra<double> phys_;
  graph::Csr back_;
  NodeId dst_ = -1;
  Search open_{static_cast<int>(legs_.terminals().size())};
  std::vector<double> g_;
  std::vector<int> hops_;
  std::vector<int> touched_;
};

}  // namespace

CheapestPaths cheapest_chains(const Legs& legs, const std::vector<Job>& jobs, const std::vector<double>& link_weight,
                              const std::vector<double>& node_weight, int hop_bound, int max_proxies) {
  if (hop_bound >= 0 && max_proxies >= 0)
    throw Error("a hop bound and a bound on proxies per path cannot be combined; choose one");
  std::map<NodeId, std::vector<std::size_t>> by_destination;
  for (std::size_t i = 0; i < jobs.size(); ++i) by_destination[jobs[i].dst].push_back(i);
  std::vector<std::pair<NodeId, std::vector<std::size_t>>> groups(by_destination.begin(), by_destination.end());
  CheapestPaths out;
  out.cost.assign(jobs.size(), kInf);
  out.paths.assign(jobs.size(), {});
  graph::parallel_for(
      groups.size(), 4, [&](bool) { return ChainPricer(legs, link_weight, node_weight); },
      [&](ChainPricer& pricer, std::size_t gi) {
        const auto& [dst, members] = groups[gi];
        if (legs.terminal_index(dst) < 0) return;
        pricer.prepare(dst);
        for (std::size_t j : members) {
          if (jobs[j].src == dst) {
            out.cost[j] = 0;
            continue;
          }
          out.cost[j] = max_proxies >= 0 ? pricer.price_by_legs(jobs[j].src, max_proxies, out.paths[j])
                        : hop_bound >= 0 ? pricer.price_bounded(jobs[j].src, hop_bound, out.paths[j])
                                         : pricer.price(jobs[j].src, out.paths[j]);
        }
      });
  return out;
}

}  // namespace optiq::detail
