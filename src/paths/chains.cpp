#include "chains.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include "optiq/error.hpp"
#include "optiq/graph/dijkstra.hpp"
#include "optiq/graph/parallel.hpp"

namespace optiq::detail {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Hops from every vertex to dst over any links: a lower bound on every chain's length.
std::vector<int> hops_to(const Network& net, const graph::Csr& back, NodeId dst) {
  std::vector<int> dist(net.num_vertices(), -1);
  std::vector<NodeId> open{dst};
  dist[dst] = 0;
  for (std::size_t i = 0; i < open.size(); ++i)
    for (int k = back.out_begin(open[i]); k < back.out_end(open[i]); ++k)
      if (dist[back.head_at(k)] < 0) dist[back.head_at(k)] = dist[open[i]] + 1, open.push_back(back.head_at(k));
  return dist;
}

LinkPath chain_links(const Legs& legs, const std::vector<NodeId>& stops) {
  LinkPath out;
  for (std::size_t i = 0; i + 1 < stops.size(); ++i) legs.append_leg(stops[i], stops[i + 1], out);
  return out;
}

// Yen's spur search on the overlay: the chain with fewest links from `from` to `to` within
// `budget` links, avoiding banned terminals and banned first legs; ties go to the smaller
// terminal ids (the order Dijkstra settles them in).
class SpurChains {
 public:
  SpurChains(const Legs& legs, const std::vector<int>& hops_to_dst)
      : legs_(legs), h_(hops_to_dst), search_(static_cast<int>(legs.terminals().size())),
        banned_(legs.terminals().size(), 0) {}

  void ban(NodeId v) { banned_[legs_.terminal_index(v)] = 1, banned_list_.push_back(v); }
  void ban_first(NodeId v) { first_banned_.push_back(v); }

  bool find(NodeId from, NodeId to, int budget, std::vector<NodeId>& stops) {
    struct Clear {
      SpurChains* s;
      ~Clear() {
        for (NodeId v : s->banned_list_) s->banned_[s->legs_.terminal_index(v)] = 0;
        s->banned_list_.clear();
        s->first_banned_.clear();
      }
    } clear{this};
    const auto& terms = legs_.terminals();
    const int tf = legs_.terminal_index(from), tt = legs_.terminal_index(to);
    if (banned_[tf] || banned_[tt] || h_[from] < 0 || h_[from] > budget) return false;
    search_.start();
    search_.seed(tf, 0);
    for (int u; (u = search_.settle_next()) >= 0;) {
      if (u == tt) break;
      const int g = search_.key(u);
      const NodeId at = terms[u];
      if (at != from && !legs_.can_proxy(at)) continue;
      for (int w = 0; w < static_cast<int>(terms.size()); ++w) {
        const NodeId x = terms[w];
        if (w == u || banned_[w] || (x != to && !legs_.can_proxy(x)) || h_[x] < 0) continue;
        const int leg = legs_.hops(w, at);
        if (leg == 0 || g + leg + h_[x] > budget) continue;
        if (at == from && std::find(first_banned_.begin(), first_banned_.end(), x) != first_banned_.end()) continue;
        search_.offer(w, g + leg, u);
      }
    }
    if (!search_.settled(tt)) return false;
    stops.clear();
    for (int v = tt; v >= 0; v = search_.via(v)) stops.push_back(terms[v]);
    std::reverse(stops.begin(), stops.end());
    return true;
  }

 private:
  const Legs& legs_;
  const std::vector<int>& h_;
  graph::Dijkstra<int> search_;
  std::vector<char> banned_;
  std::vector<NodeId> banned_list_, first_banned_;
};

struct Found {
  std::vector<NodeId> stops;
  int hops;
  std::size_t deviation;  // index of the spur stop in the parent chain
};

int chain_hops(const Legs& legs, const std::vector<NodeId>& stops, std::size_t upto) {
  int h = 0;
  for (std::size_t i = 0; i < upto; ++i) h += legs.hops(legs.terminal_index(stops[i + 1]), stops[i]);
  return h;
}

}  // namespace

std::vector<LinkPath> k_shortest_chains(const Legs& legs, NodeId src, NodeId dst, int k, int bound) {
  const Network& net = legs.network();
  if (legs.terminal_index(src) < 0 || legs.terminal_index(dst) < 0)
    throw Error("paths run between endpoints; vertex " + std::to_string(legs.terminal_index(src) < 0 ? src : dst) +
                " is a switch");
  if (src == dst) return {LinkPath{}};
  const std::vector<int> h = hops_to(net, net.graph().reversed(), dst);
  SpurChains search(legs, h);
  std::vector<Found> accepted;
  std::vector<NodeId> spur;
  if (!search.find(src, dst, bound, spur)) return {};
  accepted.push_back({spur, chain_hops(legs, spur, spur.size() - 1), 0});
  // Two chains can make one path, when a route passes an endpoint that another chain forwards
  // at: Yen runs over chains, and the output keeps each path once.
  std::vector<LinkPath> out{chain_links(legs, spur)};
  std::set<LinkPath> seen{out.front()};
  // Candidates in order of links, then earlier deviation (spreads paths over the source's
  // legs, as on the link graph), then arrival.
  std::map<std::tuple<int, std::size_t, std::size_t>, Found> candidates;
  std::set<std::vector<NodeId>> waiting;
  std::size_t arrivals = 0;
  while (static_cast<int>(out.size()) < k) {
    const Found last = accepted.back();
    for (std::size_t i = last.deviation; i + 1 < last.stops.size(); ++i) {
      const int root = chain_hops(legs, last.stops, i);
      if (bound - root < 1) break;
      for (std::size_t j = 0; j < i; ++j) search.ban(last.stops[j]);
      for (const Found& p : accepted)
        if (p.stops.size() > i + 1 && std::equal(p.stops.begin(), p.stops.begin() + i + 1, last.stops.begin()))
          search.ban_first(p.stops[i + 1]);
      if (!search.find(last.stops[i], dst, bound - root, spur)) continue;
      std::vector<NodeId> stops(last.stops.begin(), last.stops.begin() + i);
      stops.insert(stops.end(), spur.begin(), spur.end());
      if (!waiting.insert(stops).second) continue;
      const int hops = chain_hops(legs, stops, stops.size() - 1);
      candidates.emplace(std::make_tuple(hops, i, arrivals++), Found{std::move(stops), hops, i});
    }
    if (candidates.empty()) break;
    auto node = candidates.extract(candidates.begin());
    waiting.erase(node.mapped().stops);
    LinkPath links = chain_links(legs, node.mapped().stops);
    if (seen.insert(links).second) out.push_back(std::move(links));
    accepted.push_back(std::move(node.mapped()));
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
  double pass(NodeId v) const { return nw_.empty() || !net_.forwards_in_software(v) ? 0.0 : nw_[v]; }

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
      for (int w = 0; w < static_cast<int>(terms.size()); ++w) {
        const NodeId x = terms[w];
        if (w == u || s.settled(w) || (w != tt && !legs_.can_proxy(x)) || legs_.next(w, at) < 0) continue;
        const double hx = h(x);
        if (hx == kInf) continue;
        int leg_hops = 0;
        const double g = base + leg_cost(at, w, &leg_hops);
        const int hops = hops_[u] + leg_hops;
        if (g_[w] == kInf) touched_.push_back(w);
        else if (!(g < g_[w] || (g == g_[w] && hops < hops_[w]))) continue;
        g_[w] = g, hops_[w] = hops;
        s.offer(w, OverlayKey{g + hx, hops}, u);
      }
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
