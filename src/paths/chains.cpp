#include "paths/chains.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>

#include "optiq/core/error.hpp"
#include "optiq/core/graph/dijkstra.hpp"
#include "optiq/core/graph/parallel.hpp"
#include "paths/fat_tree_chains.hpp"

namespace optiq::detail {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// Relative difference below which two sums of the same weights in different orders count as
// the same cost (a chain's cost against the heuristic's bound).
constexpr double kSameCost = 1e-12;
// Largest sources x terminals table of route costs a call shares between its threads (12 bytes
// an entry: 100 MB).
constexpr std::size_t kSharedSourceEntries = std::size_t{1} << 23;

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

// Routes from the sources of a call costed once and shared by every thread: where sources
// recur (an all-to-all prices each source once per destination) this spares all but one
// bulk costing per source.
struct SourceCosts {
  std::vector<int> row;  // per terminal: its row, -1 when it is not a source of the call
  std::size_t width = 0;
  std::vector<double> cost;
  std::vector<int> hops;
};

// Prices chains ending at one destination under fixed weights.
class ChainPricer {
 public:
  ChainPricer(const Legs& legs, const std::vector<double>& lw, const std::vector<double>& nw,
              const SourceCosts* shared = nullptr, const FatTreeChains* tree = nullptr)
      : legs_(legs), net_(legs.network()), lw_(lw), nw_(nw), shared_(shared), tree_(tree), phys_(net_.num_vertices()) {
    // Routes costed from one terminal to all at once, where the routing can (its routes pass
    // no endpoint, so node weights add nothing inside a leg) and terminals are its endpoints.
    if (legs.terminals().size() == net_.endpoints().size()) bulk_ = legs.routing().route_costs(lw);
    // Where the endpoints are vertices 0..T-1 in order (fat-trees, dragonflies), the bulk
    // costs by endpoint are the costs by vertex of every vertex a leg can start at.
    for (NodeId t : legs.terminals()) proxy_.push_back(legs.can_proxy(t) ? 1 : 0);
    const auto& ends = net_.endpoints();
    ends_first_ = bulk_ != nullptr;
    for (std::size_t i = 0; ends_first_ && i < ends.size(); ++i) ends_first_ = ends[i] == static_cast<NodeId>(i);
  }

  // Weight of passing vertex v without it being an end: its node weight unless it is a switch.
  double pass(NodeId v) const { return nw_.empty() || !net_.is_terminal(v) ? 0.0 : nw_[v]; }

  // The default route from `at` to terminal index t: links plus the endpoints it passes. Into
  // the prepared destination it is read from the tree prepare() built, from the terminal
  // costed last (costs_from) from its costs.
  double leg_cost(NodeId at, int t, int* hops) const {
    if (t == dst_index_) {
      *hops = into_hops_[at];
      return into_[at];
    }
    if (at == from_) {
      *hops = from_hops_at_[t];
      return from_cost_at_[t];
    }
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

  // Routes from terminal `at` to every terminal costed at once, where the routing can: then
  // leg_cost() from `at` reads them.
  void costs_from(NodeId at) {
    if (!bulk_ || at == from_) return;
    const int row = shared_ ? shared_->row[legs_.terminal_index(at)] : -1;
    if (row >= 0) {
      from_cost_at_ = &shared_->cost[row * shared_->width];
      from_hops_at_ = &shared_->hops[row * shared_->width];
    } else {
      bulk_->from(at, from_cost_, from_hops_);
      from_cost_at_ = from_cost_.data(), from_hops_at_ = from_hops_.data();
    }
    from_ = at;
  }

  // For the destination: the cost of its default route from every vertex (the tree of its
  // routes, each vertex once). Where routes are costed in bulk, from every terminal only (legs
  // start there).
  void prepare(NodeId dst) {
    const int n = net_.num_vertices();
    dst_ = dst;
    dst_index_ = legs_.terminal_index(dst);
    heuristic_ready_ = false;
    if (bulk_) {
      // Legs start and end at endpoints: only their entries are ever read.
      if (ends_first_) {
        bulk_->to(dst, into_, into_hops_);
      } else {
        bulk_->to(dst, to_cost_, to_hops_);
        if (into_.size() != static_cast<std::size_t>(n)) into_.assign(n, kInf), into_hops_.assign(n, 0);
        const auto& ends = net_.endpoints();
        for (std::size_t i = 0; i < ends.size(); ++i) into_[ends[i]] = to_cost_[i], into_hops_[ends[i]] = to_hops_[i];
      }
      // What a chain pays from arriving at each terminal on: its copy and its route to dst
      // (infinite where it cannot forward), so that the one-proxy scan is a sum and a minimum.
      const auto& terms = legs_.terminals();
      const std::size_t T = terms.size();
      onward_.resize(T);
      const double* into = into_.data();
      const char* proxy = proxy_.data();
      if (nw_.empty()) {  // pass() is 0 everywhere
        for (std::size_t w = 0; w < T; ++w) {
          const double c = into[terms[w]];
          onward_[w] = proxy[w] && c < kInf ? 0.0 + c : kInf;
        }
      } else {
        for (std::size_t w = 0; w < T; ++w)
          onward_[w] = proxy[w] && into[terms[w]] < kInf ? pass(terms[w]) + into[terms[w]] : kInf;
      }
      if (dst_index_ >= 0) onward_[dst_index_] = kInf;
      return;
    }
    into_.assign(n, kInf);
    into_hops_.assign(n, -1);
    into_[dst] = 0, into_hops_[dst] = 0;
    for (NodeId v = 0; v < n; ++v) {
      if (into_hops_[v] >= 0) continue;
      walk_.clear();
      NodeId at = v;
      LinkId l = -1;
      while (into_hops_[at] < 0 && (l = legs_.next(dst_index_, at)) >= 0) {
        walk_.push_back(l);
        at = net_.link_dst(l);
      }
      // Back from where the cost is known (or from a vertex without a route: none).
      for (auto it = walk_.rbegin(); it != walk_.rend(); ++it) {
        const NodeId from = net_.link_src(*it), to = net_.link_dst(*it);
        const bool known = into_hops_[to] >= 0 && into_[to] < kInf;
        into_[from] = known ? lw_[*it] + (to == dst ? 0.0 : pass(to)) + into_[to] : kInf;
        into_hops_[from] = known ? into_hops_[to] + 1 : 0;
      }
      if (into_hops_[v] < 0) into_hops_[v] = 0;  // no route from here
    }
  }

  // The heuristic of the searches towards the destination, computed the first time a job
  // needs it: the cheapest path in the link graph to some terminal, then that terminal's
  // default route to dst (one backward search from every terminal). Every chain ends with
  // such a route, so this is a lower bound on any chain's cost, and consistent (the link graph
  // part is a shortest path); it is at least the cheapest unrestricted path, and equal to the
  // chain's cost where the cheapest chain has one leg after the search's present terminal.
  void prepare_heuristic() {
    if (heuristic_ready_) return;
    heuristic_ready_ = true;
    const NodeId dst = dst_;
    const graph::Csr& back = back_graph();
    phys_.start();
    for (NodeId p : legs_.terminals())
      if (into_[p] < kInf) phys_.seed(p, into_[p]);
    for (int v; (v = phys_.settle_next()) >= 0;) {
      const double through = phys_.key(v) + (v == dst ? 0.0 : pass(v));
      for (int k = back.out_begin(v); k < back.out_end(v); ++k)
        phys_.offer(back.head_at(k), through + lw_[back.arc_at(k)], back.arc_at(k));
    }
  }
  double h(NodeId v) const { return phys_.settled(v) ? phys_.key(v) : kInf; }

  // The cheapest chain to the prepared destination; among equally cheap ones the fewest hops,
  // except that a chain through at most one proxy wins a tie with one through more. First the
  // cheapest chain through at most one proxy (one scan of the terminals): where it costs no
  // more than the heuristic's lower bound it is the cheapest of all, as on fabrics in most
  // rounds. Otherwise an A* over the overlay looks for a strictly cheaper chain: its
  // expansions cost a scan of the terminals each, and ties are what make them many (every
  // proxy of a symmetric fabric as good as the next), so the bound from the first chain
  // spares them.
  //
  // With a settle limit (terminals expanded after the source) the A* may stop before it has
  // settled the destination; it then returns the best chain found and, in *lower, the key it
  // had reached: a lower bound on the cheapest chain (keys settle in order, and some terminal
  // of the cheapest chain is still open below it). *lower is the cost where the search ends.
  double price(NodeId src, LinkPath& path, std::size_t settle_limit, double* lower) {
    const auto& terms = legs_.terminals();
    const int ts = legs_.terminal_index(src), tt = legs_.terminal_index(dst_);
    path.clear();
    *lower = kInf;
    if (tree_ && settle_limit == 0) return *lower = price_on_tree(src, path);
    prepare_heuristic();
    if (ts < 0 || tt < 0 || h(src) == kInf) return kInf;
    NodeId proxy = -1;
    int one_hops = 0;
    const double one = price_one_proxy(src, &proxy, &one_hops);
    auto one_path = [&] {
      if (one < kInf) path = proxy < 0 ? chain_links(legs_, {src, dst_}) : chain_links(legs_, {src, proxy, dst_});
      return one;
    };
    if (one <= h(src) * (1 + kSameCost)) return *lower = one_path();
    if (g_.size() != terms.size()) g_.assign(terms.size(), kInf), hops_.assign(terms.size(), 0);
    touched_.clear();
    Search& s = open_;
    s.start();
    g_[ts] = 0, hops_[ts] = 0, touched_.push_back(ts);
    s.seed(ts, OverlayKey{h(src), 0});
    std::size_t expanded = 0;
    double reached = kInf;  // the key of the last terminal settled, while the search goes on
    for (int u; (u = s.settle_next()) >= 0;) {
      if (u == tt) break;
      if (settle_limit > 0 && expanded > settle_limit) {
        reached = s.key(u).f;
        break;
      }
      ++expanded;
      const NodeId at = terms[u];
      if (at != src && !legs_.can_proxy(at)) continue;
      costs_from(at);
      const double base = g_[u] + (at == src ? 0.0 : pass(at));
      auto relax = [&](int w) {
        const NodeId x = terms[w];
        if (w == u || s.settled(w) || (w != tt && !legs_.can_proxy(x))) return;
        const double hx = h(x);
        // No chain through x can beat the chain through one proxy, or the best one to the
        // destination found so far: skip the walk along the leg (the heuristic is
        // consistent, so nothing beyond x can either).
        if (hx == kInf || base + hx >= one || base + hx > g_[tt] || (from_ != at && legs_.next(w, at) < 0)) return;
        int leg_hops = 0;
        const double g = base + leg_cost(at, w, &leg_hops);
        const int hops = hops_[u] + leg_hops;
        if (g + hx >= one) return;
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
    if (s.settled(tt) || (reached < kInf && g_[tt] < one)) {  // settled, or the best one found
      cost = g_[tt];
      std::vector<NodeId> stops;
      for (int v = tt; v >= 0; v = s.via(v)) stops.push_back(terms[v]);
      std::reverse(stops.begin(), stops.end());
      path = chain_links(legs_, stops);
    }
    for (int w : touched_) g_[w] = kInf;
    if (cost == kInf) cost = one_path();
    *lower = std::min(cost, reached);
    return cost;
  }

  // price() on a fat-tree whose chains FatTreeChains searches exactly: the chain through at most
  // one proxy, unless one through more is cheaper beyond rounding (it wins ties, as above).
  double price_on_tree(NodeId src, LinkPath& path) {
    if (legs_.terminal_index(src) < 0 || dst_index_ < 0) return kInf;
    NodeId proxy = -1;
    int one_hops = 0;
    const double one = price_one_proxy(src, &proxy, &one_hops);
    double cost = kInf;
    if (tree_->cheapest(src, dst_, one * (1 - kSameCost), tree_scratch_, stops_, cost)) {
      path = chain_links(legs_, stops_);
      return cost;
    }
    if (one < kInf) path = proxy < 0 ? chain_links(legs_, {src, dst_}) : chain_links(legs_, {src, proxy, dst_});
    return one;
  }

  // The cheapest chain through at most one proxy: the default route, then every proxy in
  // terminal order, ties to the fewer hops, then to the first found. *proxy is -1 for the
  // default route. One scan of the terminals, a walk along the leg to each proxy whose leg
  // on to the destination does not already cost more than the best chain so far.
  double price_one_proxy(NodeId src, NodeId* proxy, int* hops) {
    const auto& terms = legs_.terminals();
    const int tt = dst_index_;
    double best = kInf;
    *proxy = -1, *hops = 0;
    if (legs_.next(tt, src) >= 0) best = into_[src], *hops = into_hops_[src];
    costs_from(src);
    if (from_ == src && !onward_.empty()) {
      // Every leg from src costed and every onward cost known: the cheapest sum first (a loop
      // the compiler vectorises), then the fewest hops among the proxies that reach it.
      const int ts = legs_.terminal_index(src);
      const std::size_t T = terms.size();
      const double keep = onward_[ts];
      onward_[ts] = kInf;  // src is no proxy of its own chains
      // Four running minima, so that each comparison need not wait for the one before (costs
      // are never NaN or -0, so the least of the four is the least of all, exactly).
      double lows[4] = {kInf, kInf, kInf, kInf};
      std::size_t w = 0;
      for (; w + 4 <= T; w += 4)
        for (int i = 0; i < 4; ++i) lows[i] = std::min(lows[i], from_cost_at_[w + i] + onward_[w + i]);
      for (; w < T; ++w) lows[0] = std::min(lows[0], from_cost_at_[w] + onward_[w]);
      const double low = std::min(std::min(lows[0], lows[1]), std::min(lows[2], lows[3]));
      if (low <= best)
        for (w = 0; w < T; ++w)
          if (from_cost_at_[w] + onward_[w] == low) {
            const int h = from_hops_at_[w] + into_hops_[terms[w]];
            if (low < best || h < *hops) best = low, *hops = h, *proxy = terms[w];
          }
      onward_[ts] = keep;
      return best;
    }
    for (int w = 0; w < static_cast<int>(terms.size()); ++w) {
      const NodeId x = terms[w];
      if (x == src || w == tt || !legs_.can_proxy(x) || into_[x] == kInf) continue;
      if (pass(x) + into_[x] > best || legs_.next(w, src) < 0) continue;
      int first_hops = 0;
      const double c = (leg_cost(src, w, &first_hops) + pass(x)) + into_[x];
      const int h = first_hops + into_hops_[x];
      if (c < best || (c == best && h < *hops)) best = c, *hops = h, *proxy = x;
    }
    return best;
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
    if (proxies == 1) {  // the same choice, without the layers
      NodeId proxy = -1;
      int hops = 0;
      const double cost = price_one_proxy(src, &proxy, &hops);
      if (cost < kInf) path = proxy < 0 ? chain_links(legs_, {src, dst_}) : chain_links(legs_, {src, proxy, dst_});
      return cost;
    }
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
  const SourceCosts* shared_;
  const FatTreeChains* tree_;  // null: chains through several proxies are searched on the overlay
  FatTreeChains::Scratch tree_scratch_;
  std::vector<NodeId> stops_;
  graph::Dijkstra<double> phys_;
  graph::Csr back_;
  NodeId dst_ = -1;
  int dst_index_ = -1;
  bool heuristic_ready_ = false;
  std::unique_ptr<RouteCosts> bulk_;  // nullptr: legs are walked
  bool ends_first_ = false;           // bulk costs by endpoint index are by vertex too
  NodeId from_ = -1;  // the terminal from_cost_at_ and from_hops_at_ are for
  const double* from_cost_at_ = nullptr;
  const int* from_hops_at_ = nullptr;
  std::vector<double> from_cost_, to_cost_;
  std::vector<int> from_hops_, to_hops_;
  std::vector<double> onward_;  // per terminal, with bulk costs: pass + into_, inf if no proxy
  std::vector<char> proxy_;     // per terminal: whether it may relay (Legs::can_proxy)
  std::vector<double> into_;   // cost of the default route from each vertex to dst_
  std::vector<int> into_hops_;  // its links
  LinkPath walk_;
  Search open_{static_cast<int>(legs_.terminals().size())};
  std::vector<double> g_;
  std::vector<int> hops_;
  std::vector<int> touched_;
};

}  // namespace

CheapestPaths cheapest_chains(const Legs& legs, const std::vector<Job>& jobs, const std::vector<double>& link_weight,
                              const std::vector<double>& node_weight, int hop_bound, int max_proxies,
                              std::size_t settle_limit) {
  if (hop_bound >= 0 && max_proxies >= 0)
    throw Error("a hop bound and a bound on proxies per path cannot be combined; choose one");
  std::map<NodeId, std::vector<std::size_t>> by_destination;
  for (std::size_t i = 0; i < jobs.size(); ++i) by_destination[jobs[i].dst].push_back(i);
  std::vector<std::pair<NodeId, std::vector<std::size_t>>> groups(by_destination.begin(), by_destination.end());
  // Sources that recur (more jobs than sources) are costed once, if their table stays small.
  SourceCosts shared;
  const std::size_t T = legs.terminals().size();
  std::vector<NodeId> sources;
  for (const Job& j : jobs) sources.push_back(j.src);
  std::sort(sources.begin(), sources.end());
  sources.erase(std::unique(sources.begin(), sources.end()), sources.end());
  const bool share = T == legs.network().endpoints().size() && jobs.size() >= 2 * sources.size() &&
                     sources.size() * T <= kSharedSourceEntries &&
                     std::all_of(sources.begin(), sources.end(), [&](NodeId v) { return legs.terminal_index(v) >= 0; }) &&
                     legs.routing().route_costs(link_weight) != nullptr;
  if (share) {
    shared.row.assign(T, -1);
    shared.width = T;
    shared.cost.resize(sources.size() * T);
    shared.hops.resize(sources.size() * T);
    for (std::size_t i = 0; i < sources.size(); ++i) shared.row[legs.terminal_index(sources[i])] = static_cast<int>(i);
    graph::parallel_for(
        sources.size(), 16,
        [&](bool) {
          struct Local {
            std::unique_ptr<RouteCosts> costs;
            std::vector<double> cost;
            std::vector<int> hops;
          };
          return Local{legs.routing().route_costs(link_weight), {}, {}};
        },
        [&](auto& local, std::size_t i) {
          local.costs->from(sources[i], local.cost, local.hops);
          std::copy(local.cost.begin(), local.cost.end(), shared.cost.begin() + i * T);
          std::copy(local.hops.begin(), local.hops.end(), shared.hops.begin() + i * T);
        });
  }
  CheapestPaths out;
  out.cost.assign(jobs.size(), kInf);
  out.paths.assign(jobs.size(), {});
  if (settle_limit > 0) out.lower.assign(jobs.size(), kInf);
  // Exact searches on fat-trees need no search over the overlay.
  const std::unique_ptr<FatTreeChains> tree = settle_limit == 0 && hop_bound < 0 && max_proxies < 0
                                                  ? FatTreeChains::make(legs, link_weight, node_weight)
                                                  : nullptr;
  graph::parallel_for(
      groups.size(), 4,
      [&](bool) { return ChainPricer(legs, link_weight, node_weight, share ? &shared : nullptr, tree.get()); },
      [&](ChainPricer& pricer, std::size_t gi) {
        const auto& [dst, members] = groups[gi];
        if (legs.terminal_index(dst) < 0) return;
        pricer.prepare(dst);
        for (std::size_t j : members) {
          double lower = 0;
          if (jobs[j].src == dst) out.cost[j] = 0;
          else if (max_proxies >= 0) out.cost[j] = pricer.price_by_legs(jobs[j].src, max_proxies, out.paths[j]);
          else if (hop_bound >= 0) out.cost[j] = pricer.price_bounded(jobs[j].src, hop_bound, out.paths[j]);
          else out.cost[j] = pricer.price(jobs[j].src, out.paths[j], settle_limit, &lower);
          if (settle_limit > 0) out.lower[j] = max_proxies < 0 && hop_bound < 0 && jobs[j].src != dst ? lower : out.cost[j];
        }
      });
  return out;
}

}  // namespace optiq::detail
