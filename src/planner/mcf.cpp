// mcf planner: see include/optiq/mcf.hpp for the method and its certificate.
#include "optiq/mcf.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "common.hpp"
#include "optiq/cheapest.hpp"
#include "optiq/cut_bound.hpp"
#include "optiq/legs.hpp"

namespace optiq {

namespace {

// Sources searched per pricing round on large instances, when pricing cannot use the
// goal-directed search (node weights or a hop bound).
constexpr std::size_t kWindowSources = 512;

// Relaxation bounds keep the links loaded to at least these fractions of the busiest one.
constexpr double kHotFractions[] = {0.9, 0.8};
// ... and are tried once the potential is this sharp (before, loads say little about which
// links the optimum saturates), on contracted graphs of at most this many components.
constexpr double kRelaxFromEta = 3.0;
constexpr int kRelaxComponents = 300;
// A relaxation raising the bound by less than this fraction of epsilon counts as a miss.
constexpr double kRelaxGain = 0.05;
// Quotient bounds (merging nodes along some dimensions) are tried once the potential is this
// sharp, on quotients of at most this many nodes, the best-scoring few of them.
constexpr double kQuotientFromEta = 20.0;
constexpr int kQuotientComponents = 2048;
constexpr int kQuotientTries = 2;

// The potential sharpens by kSharpen per iteration. Pricing runs every iteration on instances
// with up to kEveryIterationSources sources; beyond, where a round of searches costs far more
// than the rebalancing between rounds, every other iteration (Mira 49,152: half the searches
// for a few more iterations). Every iteration also gives the seed of `optimal` a richer pool.
constexpr double kSharpen = 1.08;
constexpr std::size_t kEveryIterationSources = 512;
// That cadence holds while a round of the goal-directed search settles at most one node in
// kCheapSearchShare per source. While the potential is still smooth few links are free, the
// search settles nearly every node (Mira 49,152: 100 million nodes, 15x a cheap round), and
// pricing runs only every it/4 iterations; a sharp potential frees most links again. Mira
// 49,152 subset with a quarter, a sixth and a tenth: 36 s / 31 s / 28 s, gaps 1.50% / 1.69% /
// 2.00%.
constexpr std::size_t kCheapSearchShare = 6;
// Once fully sharp, a pricing round that gains less than this fraction of epsilon ends the run.
constexpr double kStall = 0.05;
// Rounds of removing paths too small (or too many) for a practical plan, and rebalancing
// sweeps after each.
constexpr int kPracticalRounds = 20;
constexpr int kPracticalSweeps = 3;

// Pricing on an overlay (chains of default routes) searches the chains through at most one
// proxy in every round: one scan of the terminals per job. Chains through more proxies, which
// the certificate needs (the cheapest over all chains), are searched only in rounds whose
// one-proxy prices would let the run stop, and each job's search then expands at most this
// many terminals beyond its source (a scan of the terminals each), keeping the cheapest chain
// found and a lower bound. On dragonflies of 1,024 and 4,096 endpoints the unlimited search
// found a cheaper chain than the one-proxy one for 12 of 1,736 and 12 of 3,540 jobs, and a
// few jobs of 9,216 endpoints expanded nearly every terminal (9,216 scans of 9,216).
constexpr std::size_t kChainSearchExpansions = 16;

// Potential values (at most 1) rounded down to multiples of 1 / kGrid for pricing.
constexpr double kGrid = 1e4;
double quantise(double g) { return std::floor(g * kGrid) / kGrid; }

struct PathFlow {
  LinkPath links;
  double x = 0;  // bytes
};

// Link and node loads with the exponential potential exp(eta * (u - U) / U) of each
// utilisation u (load over capacity, in seconds) against the reference utilisation U.
class Loads {
 public:
  Loads(const Network& topo, double forward_bandwidth)
      : topo_(topo), fwd_cap_(forward_bandwidth), link_(topo.num_links(), 0.0),
        node_(forward_bandwidth > 0 ? topo.num_vertices() : 0, 0.0), cap_(topo.num_links()) {
    for (LinkId l = 0; l < topo.num_links(); ++l) cap_[l] = topo.capacity(l);
  }

  void add(const LinkPath& p, double x) {
    for (std::size_t i = 0; i < p.size(); ++i) {
      link_[p[i]] += x;
      if (fwd_cap_ > 0 && i > 0 && topo_.is_terminal(topo_.link_src(p[i]))) node_[topo_.link_src(p[i])] += x;
    }
  }
  double capacity(LinkId l) const { return cap_[l]; }  // 0 for slots without a link
  double utilisation(LinkId l) const { return link_[l] / cap_[l]; }
  double max_utilisation() const {
    double u = 0;
    for (LinkId l = 0; l < static_cast<LinkId>(link_.size()); ++l)
      if (link_[l] > 0) u = std::max(u, link_[l] / cap_[l]);
    for (double f : node_) u = std::max(u, f / fwd_cap_);
    return u;
  }
  void set_reference(double eta, double U) { eta_ = eta, ref_ = U; }
  double link_g(LinkId l) const { return std::exp(eta_ * (link_[l] / cap_[l] - ref_) / ref_); }
  double node_g(NodeId v) const { return std::exp(eta_ * (node_[v] / fwd_cap_ - ref_) / ref_); }
  // First and second derivative of the potential along a path, up to the common factor eta/U.
  void slope(const LinkPath& p, double& d, double& h) const {
    d = h = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
      const double c = cap_[p[i]], g = link_g(p[i]);
      d += g / c, h += g / (c * c);
      if (fwd_cap_ > 0 && i > 0 && topo_.is_terminal(topo_.link_src(p[i]))) {  // switches relay in hardware
        const double gv = node_g(topo_.link_src(p[i]));
        d += gv / fwd_cap_, h += gv / (fwd_cap_ * fwd_cap_);
      }
    }
  }
  bool forwarding() const { return fwd_cap_ > 0; }
  double forward_capacity() const { return fwd_cap_; }

 private:
  const Network& topo_;
  double fwd_cap_;
  std::vector<double> link_, node_;
  std::vector<double> cap_;  // per link, looked up often enough to keep at hand
  double eta_ = 1, ref_ = 1;
};

}  // namespace

McfResult plan_mcf(const Network& topo, const RoutingModel& routing, const std::vector<Job>& jobs,
                   const McfOptions& o) {
  if (!(o.epsilon > 0 && o.epsilon < 1)) throw Error("epsilon must be in (0, 1), got " + std::to_string(o.epsilon));
  if (o.max_iterations < 1) throw Error("max_iterations must be at least 1");
  if (!(o.forward_bandwidth >= 0) || !std::isfinite(o.forward_bandwidth))
    throw Error("forward bandwidth must be a finite number of bytes/s, or 0 for unlimited");
  if (o.max_paths < 0) throw Error("max_paths must be non-negative");
  McfResult result;
  result.plan = detail::empty_plan(topo, routing, "mcf", jobs);

  std::vector<std::size_t> active;
  std::vector<Job> active_jobs;
  for (std::size_t j = 0; j < jobs.size(); ++j)
    if (jobs[j].bytes > 0) active.push_back(j), active_jobs.push_back(jobs[j]);
  if (active.empty()) return result;

  Loads loads(topo, o.forward_bandwidth);
  // Without node weights or a hop bound, and with one capacity on every link, pricing runs a
  // goal-directed search on whole-number weights (the potential's grid) that is fast enough to
  // search from every source each round; otherwise Dijkstra on the weights themselves.
  const auto [thinnest, widest] = std::minmax_element(topo.capacities().begin(), topo.capacities().end());
  const bool uniform = topo.num_links() == 0 || *thinnest == *widest;
  const double link_capacity = topo.num_links() ? *widest : 1.0;
  // Chains of legs on a network with switches are priced on the overlay (chains.hpp).
  if (o.max_proxies >= 0 && o.hop_bound >= 0)
    throw Error("a hop bound and a bound on proxies per path cannot be combined; choose one");
  const Legs legs(topo, routing, /*overlay=*/o.max_proxies >= 0);
  const bool unit_pricing = !loads.forwarding() && o.hop_bound < 0 && uniform && legs.direct();
  std::vector<double> link_w(topo.num_links(), 0.0), node_w(loads.forwarding() ? topo.num_vertices() : 0, 0.0);
  for (LinkId l = 0; l < topo.num_links(); ++l) link_w[l] = 1.0 / topo.capacity(l);
  std::vector<std::uint32_t> units(unit_pricing ? topo.num_links() : 0, 1);
  CheapestPaths priced = unit_pricing ? cheapest_paths_units(topo, active_jobs, units, 1.0 / link_capacity)
                                      : cheapest_paths(legs, active_jobs, link_w, node_w, o.hop_bound, o.max_proxies);
  std::vector<std::vector<PathFlow>> flows(active.size());
  for (std::size_t a = 0; a < active.size(); ++a) {
    detail::require_candidates(active_jobs[a], active[a], std::isinf(priced.cost[a]) ? 0 : 1,
                               o.hop_bound < 0 ? topo.num_vertices() : o.hop_bound);
    flows[a].push_back({priced.paths[a], static_cast<double>(active_jobs[a].bytes)});
    loads.add(priced.paths[a], flows[a][0].x);
  }

  // The potential sharpens from smooth to nearly the max: early steps spread flow broadly,
  // late steps act on the bottleneck links only. Pricing (the expensive part: a shortest-path
  // search per source) runs every iteration at first, then ever more rarely; in between, jobs
  // rebalance over the paths they already have, which costs far less.
  const double eta_max = 0.5 * std::log(static_cast<double>(topo.num_links()) + 1.0) / o.epsilon;
  // Cut bounds hold for any routing and cost little; the dual bound improves on them as the
  // flow converges.
  double eta = 1.0, best_bound = cut_lower_bound(topo, active_jobs), U = loads.max_utilisation();
  auto rebalance = [&](std::size_t a, std::size_t b) {  // Newton moves onto path b of job a
    auto& set = flows[a];
    const double step_scale = U / eta;  // the factor Loads::slope leaves out
    for (std::size_t p = 0; p < set.size(); ++p) {
      if (p == b || set[p].x <= 0) continue;
      double dp, hp, db, hb;
      loads.slope(set[p].links, dp, hp);
      loads.slope(set[b].links, db, hb);
      if (dp <= db) continue;
      const double move = std::min(set[p].x, step_scale * (dp - db) / (hp + hb));
      loads.add(set[p].links, -move);
      loads.add(set[b].links, move);
      set[p].x -= move;
      set[b].x += move;
    }
  };
  auto cheapest_own = [&](std::size_t a) {
    std::size_t b = 0;
    double best = INFINITY;
    for (std::size_t p = 0; p < flows[a].size(); ++p) {
      double d, h;
      loads.slope(flows[a][p].links, d, h);
      if (d < best) best = d, b = p;
    }
    return b;
  };
  auto drop_empty = [&](std::size_t a) {
    auto& set = flows[a];
    set.erase(std::remove_if(set.begin(), set.end(), [](const PathFlow& f) { return f.x <= 0; }), set.end());
  };
  // With many sources a pricing round searches from one window of sources only (rotating), and
  // the certificate comes from cheap lower bounds on a contracted graph instead of exact costs.
  std::map<NodeId, std::vector<std::size_t>> by_source;
  for (std::size_t a = 0; a < active.size(); ++a) by_source[active_jobs[a].src].push_back(a);
  // Chains of legs price every source each round: the contracted bounds that stand in for the
  // sources outside a window are bounds over any links, far below the chains' costs on a
  // switched network, and the certificate would stall there (6% on 1,024 endpoints).
  const std::size_t window_count =
      unit_pricing || !legs.direct() ? 1 : (by_source.size() + kWindowSources - 1) / kWindowSources;
  std::vector<std::vector<std::size_t>> windows(window_count);
  std::size_t source_index = 0;
  for (const auto& [src, members] : by_source) {
    auto& win = windows[source_index++ % window_count];
    win.insert(win.end(), members.begin(), members.end());
  }
  const int price_every = by_source.size() > kEveryIterationSources ? 2 : 1;
  const bool chains_by_one_proxy = !legs.direct() && o.max_proxies < 0 && o.hop_bound < 0;
  bool certify_next = false;
  double last_priced_U = INFINITY;
  std::vector<char> fresh(active.size(), 0);
  std::vector<LinkPath> fresh_path(active.size());
  std::size_t rounds = 0;
  int next_price = 1;
  bool quotient_tried = false;
  int relax_wait = 0, relax_backoff = 0;  // pricing rounds to skip relaxations for, and the next such pause
  for (int it = 1; it <= o.max_iterations && U > 0; ++it) {
    result.iterations = it;
    loads.set_reference(eta, U);
    const bool price = it >= next_price;
    std::fill(fresh.begin(), fresh.end(), 0);
    if (price) {
      double scale = 0, heaviest = 0;
      // Weights are rounded down to a grid: links far below the bottleneck become free, so among
      // otherwise equal paths the fewest hops win instead of long detours through links with
      // negligible load. Any non-negative weights certify a bound, rounded ones included.
      for (LinkId l = 0; l < topo.num_links(); ++l)
        if (loads.capacity(l) > 0) {
          const double g = quantise(loads.link_g(l));
          link_w[l] = g / loads.capacity(l);
          heaviest = std::max(heaviest, link_w[l]);
          scale += g;
        }
      for (std::size_t v = 0; v < node_w.size(); ++v) {
        if (!topo.is_terminal(static_cast<NodeId>(v))) continue;  // a switch costs no copy
        const double g = quantise(loads.node_g(static_cast<NodeId>(v)));
        node_w[v] = g / loads.forward_capacity();
        scale += g;
      }
      if (scale <= 0) scale = 1;  // all weights rounded to zero: the bound is 0, still valid
      const auto& window = windows[rounds++ % window_count];
      std::vector<Job> window_jobs;
      for (std::size_t a : window) window_jobs.push_back(active_jobs[a]);
      bool cheap = false;
      bool priced_all_chains = true;  // the costs are the cheapest over all chains: a bound
      if (unit_pricing) {
        for (LinkId l = 0; l < topo.num_links(); ++l)
          units[l] = static_cast<std::uint32_t>(std::llround(link_w[l] * loads.capacity(l) * kGrid));
        std::size_t settled = 0;
        priced = cheapest_paths_units(topo, window_jobs, units, 1.0 / (kGrid * link_capacity), 1024, &settled);
        cheap = settled * kCheapSearchShare <= by_source.size() * static_cast<std::size_t>(topo.num_vertices());
      } else if (chains_by_one_proxy) {
        priced = cheapest_paths(legs, window_jobs, link_w, node_w, -1, /*max_proxies=*/1);
        double one_proxy_bound = 0;  // what the bound would be if no chain through more were cheaper
        for (std::size_t i = 0; i < window.size(); ++i)
          one_proxy_bound += static_cast<double>(window_jobs[i].bytes) * priced.cost[i];
        one_proxy_bound /= scale;
        priced_all_chains = certify_next || U <= (1.0 + o.epsilon) * one_proxy_bound;
        if (priced_all_chains)
          priced = cheapest_paths(legs, window_jobs, link_w, node_w, -1, -1, kChainSearchExpansions);
        certify_next = false;
      } else {
        priced = cheapest_paths(legs, window_jobs, link_w, node_w, o.hop_bound, o.max_proxies);
      }
      next_price = it + (cheap ? price_every : std::max(price_every, it / 4));
      std::vector<double> lower(active.size(), 0.0);
      if (window_count > 1 && o.hop_bound < 0) {
        for (double relative : {1e-4, 1e-6}) {  // either threshold gives a valid bound; keep the best
          const auto b = cheapest_cost_lower_bounds(topo, active_jobs, link_w, relative * heaviest,
                                                    topo.num_vertices() / 4);
          for (std::size_t a = 0; a < b.size(); ++a) lower[a] = std::max(lower[a], b[a]);
        }
      }
      for (std::size_t i = 0; i < window.size(); ++i) {
        const std::size_t a = window[i];
        fresh[a] = 1;
        fresh_path[a] = std::move(priced.paths[i]);
        if (priced_all_chains) lower[a] = std::max(lower[a], priced.lower.empty() ? priced.cost[i] : priced.lower[i]);
      }
      double priced_sum = 0;
      for (std::size_t a = 0; a < active.size(); ++a)
        priced_sum += static_cast<double>(active_jobs[a].bytes) * lower[a];
      best_bound = std::max(best_bound, priced_sum / scale);
      // The quotient bound does not depend on the flow: solved once, when the flow shows which
      // dimensions' links are the bottlenecks (they rank the candidate quotients).
      if (!quotient_tried && eta >= kQuotientFromEta && U > (1.0 + o.epsilon) * best_bound) {
        quotient_tried = true;
        std::vector<double> score(topo.num_links(), 0.0);
        for (LinkId l = 0; l < topo.num_links(); ++l)
          if (loads.capacity(l) > 0) score[l] = loads.link_g(l);
        best_bound = std::max(best_bound, quotient_lower_bound(topo, active_jobs, o.epsilon / 8, kQuotientComponents,
                                                               score, kQuotientTries));
      }
      // Relaxations that fail to raise the bound are retried ever more rarely: on large
      // networks each costs seconds once the hot links split it into few components.
      if (eta >= kRelaxFromEta && U > (1.0 + o.epsilon) * best_bound && relax_wait-- <= 0) {
        const double before = best_bound;
        std::vector<char> hot(topo.num_links(), 0);
        for (double fraction : kHotFractions) {
          for (LinkId l = 0; l < topo.num_links(); ++l)
            hot[l] = loads.capacity(l) > 0 && loads.utilisation(l) >= fraction * U;
          best_bound = std::max(best_bound, relaxed_lower_bound(topo, active_jobs, hot, o.epsilon / 4, kRelaxComponents));
        }
        if (best_bound > (1.0 + kRelaxGain * o.epsilon) * before) {
          relax_backoff = 0;
        } else {
          relax_backoff = std::max(1, 2 * relax_backoff);
        }
        relax_wait = relax_backoff;
      }
      if (o.progress) o.progress("mcf", static_cast<std::size_t>(it), static_cast<std::size_t>(o.max_iterations));
      if (U <= (1.0 + o.epsilon) * best_bound) break;
      // Fully sharpened and no longer improving: what remains of the gap is the bound's, and
      // more rounds would not close it.
      if (eta >= eta_max && U > (1.0 - kStall * o.epsilon) * last_priced_U) {
        if (priced_all_chains) break;
        certify_next = true;  // not before pricing all chains once more: the bound needs it
        next_price = it + 1;
      }
      last_priced_U = U;
    }
    for (std::size_t a = 0; a < active.size(); ++a) {
      std::size_t b;
      if (fresh[a]) {
        auto& set = flows[a];
        b = 0;
        while (b < set.size() && set[b].links != fresh_path[a]) ++b;
        if (b == set.size()) set.push_back({fresh_path[a], 0.0});
      } else {
        b = cheapest_own(a);
      }
      rebalance(a, b);
      drop_empty(a);
    }
    U = loads.max_utilisation();
    eta = std::min(eta_max, eta * kSharpen);
  }
  result.bound_seconds = std::min(best_bound, U);

  // Practical plans: paths below the minimum size (and beyond the path limit) give their
  // flow to the job's currently cheapest remaining path, then the survivors rebalance, a few
  // sweeps per round (removing one path per job and round, with one sweep, left Mira 49,152
  // still removing after 20 rounds, 0.8% above the flow it started from).
  // The main loop may stop before the potential is fully sharp, and a smooth potential trades
  // the busiest link for the others: these moves use the sharpest one.
  eta = eta_max;
  for (int round = 0; round < kPracticalRounds && U > 0; ++round) {
    loads.set_reference(eta, U);
    bool removed = false;
    for (std::size_t a = 0; a < active.size(); ++a) {
      auto& set = flows[a];
      std::stable_sort(set.begin(), set.end(), [](const PathFlow& x, const PathFlow& y) { return x.x > y.x; });
      // Smallest first, so the larger paths left absorb them.
      while (set.size() > 1) {
        const std::size_t last = set.size() - 1;
        const bool too_small = set[last].x < static_cast<double>(o.min_path_bytes);
        const bool too_many = o.max_paths > 0 && static_cast<int>(last) >= o.max_paths;
        if (!too_small && !too_many) break;
        const double moved = set[last].x;
        loads.add(set[last].links, -moved);
        set.pop_back();
        const std::size_t b = cheapest_own(a);
        set[b].x += moved;
        loads.add(set[b].links, moved);
        removed = true;
      }
    }
    for (int sweep = 0; sweep < kPracticalSweeps; ++sweep)
      for (std::size_t a = 0; a < active.size(); ++a) {
        rebalance(a, cheapest_own(a));
        drop_empty(a);
      }
    U = loads.max_utilisation();
    if (!removed) break;
  }

  result.flow_seconds = U;

  // Whole bytes; practical limits on paths per job and bytes per path.
  Loads final_loads(topo, o.forward_bandwidth);
  for (std::size_t a = 0; a < active.size(); ++a) {
    auto set = flows[a];
    std::stable_sort(set.begin(), set.end(), [](const PathFlow& x, const PathFlow& y) { return x.x > y.x; });
    if (o.max_paths > 0 && static_cast<int>(set.size()) > o.max_paths) set.resize(o.max_paths);
    std::vector<double> shares;  // whole bytes; the merge only catches rounding leftovers
    for (const auto& f : set) shares.push_back(f.x);
    const auto split = merge_small_parts(split_by_shares(active_jobs[a].bytes, shares), o.min_path_bytes);
    for (std::size_t p = 0; p < set.size(); ++p)
      if (split[p] > 0) {
        result.plan.jobs[active[a]].paths.push_back({set[p].links, split[p]});
        final_loads.add(set[p].links, static_cast<double>(split[p]));
      }
  }
  result.plan_seconds = final_loads.max_utilisation();
  return result;
}

}  // namespace optiq
