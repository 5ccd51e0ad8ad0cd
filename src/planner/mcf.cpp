// mcf planner: see include/optiq/core/mcf.hpp for the method and its certificate.
//
// One run in phases: seed (every job on its cheapest path; on an overlay, the cheapest chain
// through at most one proxy), then iterations of price (search cheapest paths under the
// potential's weights, which also raises the proven bound, and stop once certified or
// stalled) and update (Newton moves of every job onto its fresh or cheapest path), then
// practical (paths below the minimum size or beyond the limit give their flow away) and whole
// bytes.
#include "optiq/core/mcf.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "optiq/core/bounds.hpp"
#include "optiq/core/cheapest.hpp"
#include "optiq/core/graph/parallel.hpp"
#include "optiq/core/legs.hpp"
#include "planner/common.hpp"
#include "planner/mcf_columns.hpp"
#include "planner/mcf_loads.hpp"
#include "planner/torus_detours.hpp"

namespace optiq {

namespace {

using detail::Loads;
using detail::PathFlow;


// Sources searched per pricing round on large instances, when pricing cannot use the
// goal-directed search (node weights or a hop bound).
constexpr std::size_t kWindowSources = 512;
// Chains of legs: a round prices every job through a scan of all terminals, so on large
// overlays a round prices one window of about this many sources (rotating) and, costing a
// fraction of a full round, runs at the cheap cadence. 9,216 endpoints (4 windows): dragonfly
// permutation 23.4 s -> 14.9 s with the same plan, fat-tree permutation 46.8 s -> 17.9 s with
// a plan 0.4% longer, fat-tree dmodk-adversarial 19.4 s -> 15.9 s. The certificate of a
// windowed round counts the window's jobs only; the cut and proxy bounds carry the rest.
constexpr std::size_t kChainWindowSources = 2304;

// Relaxation bounds keep the links loaded to at least these fractions of the busiest one.
constexpr double kHotFractions[] = {0.9, 0.8};
// ... and are tried once the potential is this sharp (before, loads say little about which
// links the optimum saturates), on contracted graphs of at most this many components.
constexpr double kRelaxFromEta = 3.0;
constexpr int kRelaxComponents = 300;
// Each is solved to this fraction of epsilon. At 1/20 they prove more on Mira (49,152 overlap
// 28.223 MB instead of 28.207) but also on dragonflies, where the run then stops sooner with
// a worse plan (1,024-endpoint permutation: 80.781 ms instead of 80.523, the optimum 80.335).
constexpr double kRelaxTolerance = 1.0 / 4;
// A relaxation raising the bound by less than this fraction of epsilon counts as a miss.
constexpr double kRelaxGain = 0.05;
// Quotient bounds (merging nodes along some dimensions) are tried once the potential is this
// sharp, on quotients of at most this many nodes, the best-scoring few of them.
constexpr double kQuotientFromEta = 20.0;
constexpr int kQuotientComponents = 2048;
constexpr int kQuotientTries = 2;
// ... each solved to this fraction of epsilon: the small solver converges in about the same
// time at 1/20 as at 1/8 (Mira 49,152 subset 1.1 s either way), and the bound rises with it
// (subset 26.307 -> 26.357 MB, overlap 28.175 -> 28.207 MB).
constexpr double kQuotientTolerance = 1.0 / 20;

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
// Sweeps after the rounds where they left paths below the minimum (make_practical), with moves
// kept from leaving any path below it.
constexpr int kFinalSweeps = 10;

// Pricing on an overlay (chains of default routes) searches the chains through at most one
// proxy in every round: one scan of the terminals per job. Chains through more proxies, which
// the certificate needs (the cheapest over all chains), are searched only in rounds whose
// one-proxy prices would let the run stop, and each job's search then expands at most this
// many terminals beyond its source (a scan of the terminals each), keeping the cheapest chain
// found and a lower bound. On dragonflies of 1,024 and 4,096 endpoints the unlimited search
// found a cheaper chain than the one-proxy one for 12 of 1,736 and 12 of 3,540 jobs, and a
// few jobs of 9,216 endpoints expanded nearly every terminal (9,216 scans of 9,216).
constexpr std::size_t kChainSearchExpansions = 16;

// Once the potential is past its smooth phase, before the first pricing round the last one
// predicts to be dear, the run tries once to sharpen by sweeps alone (kTrialSharpen per sweep
// up to full sharpness, no pricing) and ends there if that brings the flow within
// kTrialTarget * epsilon of the bound. Failing that, the sharp flow's bottlenecks rank the
// quotient bound and pick the relaxations' hot links; if the flow is then within epsilon of the
// bound, pricing rounds at full sharpness and the practical ending follow, and the run ends if
// they reach kTrialTarget * epsilon. Otherwise flow and schedule are put back (the bounds stay).
// That is the trial on networks without detours (below); on Mira 49,152, before detours:
// disjoint ended after the sweeps (0.27% in 16-18 s where the middle pricing rounds took 33 s
// to 0.22%); overlap after the sharp rounds (17-19 s instead of 32-35 s); subset fell short
// (3.1% above the quotient bound) and went on, with the quotient solved earlier. Retrying at
// sharper potentials fell short too (bench/results/mcf_profile.md).
constexpr double kTrialFromEta = 3.0;
constexpr double kTrialSharpen = 1.05;
constexpr double kTrialTarget = 0.25;

// On a torus the iterations between exact pricing rounds price detours instead
// (torus_detours.hpp): each job's cheapest own path moved one step aside for a stretch,
// offered when it costs at least kDetourGain of that path less (smaller gains multiply the
// paths, and every sweep pays for them). The trial of sweeps then prices detours at every
// step, starts at kDetourTrialFromEta, and sharpens kDetourTrialSharpen per step. Swept to
// full sharpness, the flow goes on only within kDetourTrialGate * epsilon of the bound (the
// quotient's included); then detour iterations at full sharpness until they stall (at most
// kSharpDetours) and the practical ending, which must reach kTrialTarget * epsilon. A trial
// that falls short is retried once the potential is kDetourTrialRetry times as sharp. Mira
// 49,152 (bench/results/mcf_profile.md, "Detours"): disjoint and overlap end after the first
// trial (0.31% and 0.42%), subset after the second (0.45%; 1.32% without detours).
constexpr double kDetourGain = 0.01;
constexpr double kDetourTrialFromEta = 2.0;
constexpr double kDetourTrialSharpen = 1.3;
constexpr double kDetourTrialGate = 0.5;
constexpr double kDetourTrialRetry = 1.5;
constexpr int kSharpDetours = 30;
// Detours leave jobs several paths each (Mira 49,152: about 6.5 against 2.4), and the
// practical ending's sweeps pay for every one: with detours it runs at most this many rounds.
// Mira 49,152 disjoint / overlap with 20 rounds: 0.27% / 0.37% in 11.4 / 11.6 s; with 8:
// 0.31% / 0.42% in 8.8 / 9.4 s; with 4: 0.34% / 0.46% in 8.0 / 8.5 s (one session).
constexpr int kDetourPracticalRounds = 8;
// Jobs per work item of a detour round.
constexpr std::size_t kDetourBlock = 512;

// Potential values (at most 1) rounded down to multiples of 1 / kGrid for pricing.
constexpr double kGrid = 1e4;
double quantise(double g) { return std::floor(g * kGrid) / kGrid; }


class McfRun {
 public:
  McfRun(const Network& topo, const RoutingModel& routing, const std::vector<Job>& jobs, const PlannerOptions& o)
      : topo_(topo), routing_(routing), o_(o), loads_(topo, o.forward_bandwidth, o.link_preload) {
    result_.bounded = true;
    result_.plan = detail::empty_plan(topo, routing, "mcf", jobs);
    result_.extras = {{"iterations", 0.0}, {"flow_seconds", 0.0}, {"constraint_cost", 0.0}};
    for (std::size_t j = 0; j < jobs.size(); ++j)
      if (jobs[j].bytes > 0) active_.push_back(j), active_jobs_.push_back(jobs[j]);
  }

  PlanResult run() {
    if (active_.empty()) return result_;
    seed();
    for (int it = 1; it <= o_.mcf_iterations && U_ > 0; ++it) {
      result_.extras["iterations"] = it;
      loads_.set_reference(eta_, U_);
      std::fill(fresh_.begin(), fresh_.end(), 0);
      const bool pricing = it >= next_price_;
      if (pricing && (sharpened_by_sweeps(it) || price(it))) break;
      if (!pricing && detours_) price_detours();
      update();
      U_ = loads_.max_utilisation();
      eta_ = std::min(eta_max_, eta_ * kSharpen);
    }
    result_.bound_seconds = std::min(best_bound_, U_);
    if (!practical_done_) make_practical();
    const double flow_seconds = U_;
    result_.extras["flow_seconds"] = flow_seconds;
    round_to_bytes();
    result_.extras["constraint_cost"] = flow_seconds > 0 ? result_.plan_seconds / flow_seconds - 1 : 0.0;
    // Short of epsilon on a fat-tree, the prices of the LP over the plan's paths certify what
    // the potential's weights cannot (mcf_columns.hpp); the plan stays as it is.
    const double target = result_.plan_seconds / (1 + o_.epsilon);
    if (o_.prove_bound && result_.bound_seconds < target &&
        detail::column_bound_applies(*legs_, o_.forward_bandwidth, o_.hop_bound, o_.max_proxies))
      result_.bound_seconds = std::min(
          result_.plan_seconds, detail::column_bound(*legs_, result_.plan, o_.link_preload, result_.bound_seconds, target, o_.progress));
    return result_;
  }

 private:
  // Every job on its cheapest path; the pricing mode, the windows of sources and the first bound.
  void seed() {
    // Without node weights or a hop bound, and with one capacity on every link, pricing runs a
    // goal-directed search on whole-number weights (the potential's grid) that is fast enough to
    // search from every source each round; otherwise Dijkstra on the weights themselves.
    const auto [thinnest, widest] = std::minmax_element(topo_.capacities().begin(), topo_.capacities().end());
    const bool uniform = topo_.num_links() == 0 || *thinnest == *widest;
    link_capacity_ = topo_.num_links() ? *widest : 1.0;
    // Chains of legs on a network with switches are priced on the overlay (chains.hpp).
    legs_.emplace(topo_, routing_, /*overlay=*/o_.max_proxies >= 0);
    unit_pricing_ = !loads_.forwarding() && o_.hop_bound < 0 && uniform && legs_->direct();
    link_w_.assign(topo_.num_links(), 0.0);
    node_w_.assign(loads_.forwarding() ? topo_.num_vertices() : 0, 0.0);
    for (LinkId l = 0; l < topo_.num_links(); ++l) link_w_[l] = 1.0 / topo_.capacity(l);
    units_.assign(unit_pricing_ ? topo_.num_links() : 0, 1);
    chains_by_one_proxy_ = !legs_->direct() && o_.max_proxies < 0 && o_.hop_bound < 0;
    if (unit_pricing_ && detail::TorusDetours::applies(topo_)) detours_.emplace(topo_);
    // On an overlay the seed takes the cheapest chain through at most one proxy, as the pricing
    // rounds do: under even weights and routes of fewest hops that is the default route, the
    // cheapest of all chains, and it spares the search over all chains a heuristic per
    // destination (a search of the whole network each: 15 of 58 s on the 9,216-endpoint fat-tree).
    CheapestPaths priced = unit_pricing_
                               ? cheapest_paths_units(topo_, active_jobs_, units_, 1.0 / link_capacity_)
                               : cheapest_paths(*legs_, active_jobs_, link_w_, node_w_, o_.hop_bound,
                                                chains_by_one_proxy_ ? 1 : o_.max_proxies);
    flows_.assign(active_.size(), {});
    for (std::size_t a = 0; a < active_.size(); ++a) {
      detail::require_candidates(active_jobs_[a], active_[a], std::isinf(priced.cost[a]) ? 0 : 1,
                                 o_.hop_bound < 0 ? topo_.num_vertices() : o_.hop_bound);
      flows_[a].push_back({priced.paths[a], static_cast<double>(active_jobs_[a].bytes)});
      loads_.add(priced.paths[a], flows_[a][0].x);
    }
    // The potential sharpens from smooth to nearly the max: early steps spread flow broadly,
    // late steps act on the bottleneck links only. Pricing (the expensive part: a shortest-path
    // search per source) runs every iteration at first, then ever more rarely; in between, jobs
    // rebalance over the paths they already have, which costs far less.
    eta_max_ = 0.5 * std::log(static_cast<double>(topo_.num_links()) + 1.0) / o_.epsilon;
    // Cut bounds hold for any routing and cost little; the dual bound improves on them as the
    // flow converges.
    eta_ = 1.0, best_bound_ = cut_lower_bound(topo_, active_jobs_), U_ = loads_.max_utilisation();
    // On an overlay the proxy bound keeps the routes: where they collide it certifies what the
    // dual bound, which the potential's weights approach slowly there, cannot.
    best_bound_ = std::max(best_bound_, proxy_lower_bound(*legs_, active_jobs_, o_.link_preload, o_.forward_bandwidth));
    // ... and the cover bound where destinations share their way into a part of the network.
    best_bound_ = std::max(best_bound_, cover_lower_bound(*legs_, active_jobs_, o_.link_preload));
    // Other classes' bytes ahead on a link hold it for their time whatever this plan does.
    for (LinkId l = 0; l < static_cast<LinkId>(o_.link_preload.size()); ++l)
      best_bound_ = std::max(best_bound_, o_.link_preload[l] / topo_.capacity(l));
    // With many sources a pricing round searches from one window of sources only (rotating), and
    // the certificate comes from cheap lower bounds on a contracted graph instead of exact costs.
    for (std::size_t a = 0; a < active_.size(); ++a) by_source_[active_jobs_[a].src].push_back(a);
    // Chains of legs get no contracted bounds for the sources outside a window: those are
    // bounds over any links, far below the chains' costs on a switched network (6% below on
    // 1,024 endpoints, where every source is priced each round).
    const std::size_t window_sources = legs_->direct() ? kWindowSources : kChainWindowSources;
    const std::size_t window_count =
        unit_pricing_ ? 1 : (by_source_.size() + window_sources - 1) / window_sources;
    windows_.assign(window_count, {});
    std::size_t source_index = 0;
    for (const auto& [src, members] : by_source_) {
      auto& win = windows_[source_index++ % window_count];
      win.insert(win.end(), members.begin(), members.end());
    }
    stop_epsilon_ = o_.epsilon;
    price_every_ = by_source_.size() > kEveryIterationSources ? 2 : 1;
    fresh_.assign(active_.size(), 0);
    fresh_path_.assign(active_.size(), {});
  }

  // One pricing round: cheapest paths for one window of sources under the potential's weights,
  // a better bound, and whether the run stops (certified, or stalled at full sharpness).
  bool price(int it) {
    double scale = 0, heaviest = 0;
    set_weights(scale, heaviest);
    const auto& window = windows_[rounds_++ % windows_.size()];
    std::vector<Job> window_jobs;
    for (std::size_t a : window) window_jobs.push_back(active_jobs_[a]);
    bool cheap = false;
    bool priced_all_chains = true;  // the costs are the cheapest over all chains: a bound
    bound_cannot_rise_ = false;
    CheapestPaths priced = search(window, window_jobs, scale, cheap, priced_all_chains);
    if (!legs_->direct() && windows_.size() > 1) cheap = true;  // a window's share of a round
    last_round_cheap_ = cheap;
    next_price_ = it + (cheap ? price_every_ : std::max(price_every_, it / 4));
    std::vector<double> lower(active_.size(), 0.0);
    if (windows_.size() > 1 && o_.hop_bound < 0 && legs_->direct()) {
      for (double relative : {1e-4, 1e-6}) {  // either threshold gives a valid bound; keep the best
        const auto b = cheapest_cost_lower_bounds(topo_, active_jobs_, link_w_, relative * heaviest,
                                                  topo_.num_vertices() / 4);
        for (std::size_t a = 0; a < b.size(); ++a) lower[a] = std::max(lower[a], b[a]);
      }
    }
    for (std::size_t i = 0; i < window.size(); ++i) {
      const std::size_t a = window[i];
      fresh_[a] = 1;
      fresh_path_[a] = std::move(priced.paths[i]);
      if (priced_all_chains) lower[a] = std::max(lower[a], priced.lower.empty() ? priced.cost[i] : priced.lower[i]);
    }
    double priced_sum = 0;
    for (std::size_t a = 0; a < active_.size(); ++a)
      priced_sum += static_cast<double>(active_jobs_[a].bytes) * lower[a];
    // Weak duality with bytes already on the links: sum_l w_l c_l T >= sum_l w_l (preload_l + load_l).
    for (LinkId l = 0; l < static_cast<LinkId>(o_.link_preload.size()); ++l) priced_sum += link_w_[l] * o_.link_preload[l];
    best_bound_ = std::max(best_bound_, priced_sum / scale);
    try_quotient_bound();
    try_relaxed_bounds();
    if (o_.progress) o_.progress("mcf", static_cast<std::size_t>(it), static_cast<std::size_t>(o_.mcf_iterations));
    if (U_ <= (1.0 + stop_epsilon_) * best_bound_) return true;
    // Fully sharpened and no longer improving: what remains of the gap is the bound's, and
    // more rounds would not close it.
    if (eta_ >= eta_max_ && U_ > (1.0 - kStall * o_.epsilon) * last_priced_U_) {
      if (priced_all_chains || bound_cannot_rise_) return true;
      certify_next_ = true;  // not before pricing all chains once more: the bound needs it
      next_price_ = it + 1;
    }
    last_priced_U_ = U_;
    return false;
  }

  // The trial of sharpening by sweeps instead of pricing (kTrialFromEta): true if it certified
  // and the flow is kept; otherwise flow, loads and schedule are put back exactly and the run
  // goes on as without the trial, except that the bounds it proved stay (so it may end sooner).
  bool sharpened_by_sweeps(int& it) {
    if (!unit_pricing_ || (last_round_cheap_ && !detours_) || eta_ >= eta_max_) return false;
    if (eta_ < (detours_ ? kDetourTrialFromEta : kTrialFromEta)) return false;
    if (trial_eta_ > 0 && !(detours_ && eta_ >= kDetourTrialRetry * trial_eta_)) return false;
    trial_eta_ = eta_;
    const auto saved_flows = flows_;
    const Loads saved_loads = loads_;
    const double saved_eta = eta_, saved_U = U_;
    while (eta_ < eta_max_) {
      eta_ = std::min(eta_max_, eta_ * (detours_ ? kDetourTrialSharpen : kTrialSharpen));
      loads_.set_reference(eta_, U_);
      if (detours_) {
        price_detours();
        update();
      } else {
        sweep();
      }
      U_ = loads_.max_utilisation();
    }
    if (U_ <= (1.0 + kTrialTarget * o_.epsilon) * best_bound_) return true;
    if (finished_sharp(it)) return true;
    flows_ = saved_flows, loads_ = saved_loads;
    eta_ = saved_eta, U_ = saved_U;
    return false;
  }

  // After the trial's sweeps: the bound the sharp flow's bottlenecks point to (the quotient
  // its loads rank, relaxations over its hot links), then, if the flow is within epsilon of
  // it, pricing rounds at full sharpness and the practical ending. True if that ends within
  // kTrialTarget * epsilon of the bound (or certified so before the practical ending);
  // otherwise the schedule is put back, and the caller puts back the flow.
  bool finished_sharp(int& it) {
    const int saved_it = it, saved_next_price = next_price_, saved_relax_wait = relax_wait_,
              saved_relax_backoff = relax_backoff_;
    const double saved_last_priced_U = last_priced_U_;
    const std::size_t saved_rounds = rounds_;
    const bool saved_cheap = last_round_cheap_, saved_certify = certify_next_;
    stop_epsilon_ = kTrialTarget * o_.epsilon;  // the bounds are tried up to this gap
    loads_.set_reference(eta_, U_);
    try_quotient_bound();
    if (detours_) {
      if (U_ <= (1.0 + kDetourTrialGate * o_.epsilon) * best_bound_) {
        for (int round = 0; round < kSharpDetours; ++round) {
          const double before = U_;
          loads_.set_reference(eta_, U_);
          price_detours();
          update();
          U_ = loads_.max_utilisation();
          if (U_ > (1.0 - kStall * o_.epsilon) * before) break;
        }
        make_practical();
        // The relaxations cost seconds on large tori: tried only when the plan is not certified.
        if (U_ > (1.0 + stop_epsilon_) * best_bound_) {
          relax_wait_ = 0;
          try_relaxed_bounds();
        }
        if (U_ <= (1.0 + stop_epsilon_) * best_bound_) return practical_done_ = true;
      }
    } else {
      relax_wait_ = 0;
      try_relaxed_bounds();
      if (U_ <= (1.0 + o_.epsilon) * best_bound_) {
        last_priced_U_ = INFINITY;
        bool certified = false;
        // The main loop's iterations, at full sharpness, starting with a pricing round in this one.
        for (bool first = true; first || it < o_.mcf_iterations; first = false) {
          if (!first) result_.extras["iterations"] = ++it;
          loads_.set_reference(eta_, U_);
          std::fill(fresh_.begin(), fresh_.end(), 0);
          if ((first || it >= next_price_) && price(it)) {
            certified = U_ <= (1.0 + stop_epsilon_) * best_bound_;
            break;
          }
          update();
          U_ = loads_.max_utilisation();
        }
        make_practical();
        if (certified || U_ <= (1.0 + stop_epsilon_) * best_bound_) return practical_done_ = true;
      }
    }
    stop_epsilon_ = o_.epsilon;
    it = saved_it, next_price_ = saved_next_price, relax_wait_ = saved_relax_wait, relax_backoff_ = saved_relax_backoff;
    last_priced_U_ = saved_last_priced_U, rounds_ = saved_rounds;
    last_round_cheap_ = saved_cheap, certify_next_ = saved_certify;
    result_.extras["iterations"] = it;
    return false;
  }

  // Weights are rounded down to a grid: links far below the bottleneck become free, so among
  // otherwise equal paths the fewest hops win instead of long detours through links with
  // negligible load. Any non-negative weights certify a bound, rounded ones included.
  void set_weights(double& scale, double& heaviest) {
    for (LinkId l = 0; l < topo_.num_links(); ++l)
      if (loads_.capacity(l) > 0) {
        const double g = quantise(loads_.link_g(l));
        link_w_[l] = g / loads_.capacity(l);
        heaviest = std::max(heaviest, link_w_[l]);
        scale += g;
      }
    for (std::size_t v = 0; v < node_w_.size(); ++v) {
      if (!relays_in_software(topo_, static_cast<NodeId>(v))) continue;
      const double g = quantise(loads_.node_g(static_cast<NodeId>(v)));
      node_w_[v] = g / loads_.forward_capacity();
      scale += g;
    }
    if (scale <= 0) scale = 1;  // all weights rounded to zero: the bound is 0, still valid
  }

  // The cheapest paths of a window's jobs, by the pricing mode seed() chose.
  CheapestPaths search(const std::vector<std::size_t>& window, const std::vector<Job>& window_jobs, double scale,
                       bool& cheap, bool& priced_all_chains) {
    if (unit_pricing_) {
      for (LinkId l = 0; l < topo_.num_links(); ++l)
        units_[l] = static_cast<std::uint32_t>(std::llround(link_w_[l] * loads_.capacity(l) * kGrid));
      // What each job's paths cost now: the search need not look beyond the dearest of a source's.
      std::vector<std::uint64_t> known(window.size(), 0);
      for (std::size_t i = 0; i < window.size(); ++i) {
        std::uint64_t best = ~std::uint64_t{0};  // a job always has a path after the seed
        for (const PathFlow& f : flows_[window[i]]) {
          std::uint64_t c = 0;
          for (LinkId l : f.links) c += units_[l];
          best = std::min(best, c);
        }
        known[i] = best;
      }
      std::size_t settled = 0;
      CheapestPaths priced =
          cheapest_paths_units(topo_, window_jobs, units_, 1.0 / (kGrid * link_capacity_), 1024, &settled, &known);
      cheap = settled * kCheapSearchShare <= by_source_.size() * static_cast<std::size_t>(topo_.num_vertices());
      return priced;
    }
    if (chains_by_one_proxy_) {
      CheapestPaths priced = cheapest_paths(*legs_, window_jobs, link_w_, node_w_, -1, /*max_proxies=*/1);
      double one_proxy_bound = 0;  // what the bound would be if no chain through more were cheaper
      for (std::size_t i = 0; i < window_jobs.size(); ++i)
        one_proxy_bound += static_cast<double>(window_jobs[i].bytes) * priced.cost[i];
      one_proxy_bound /= scale;
      priced_all_chains = certify_next_ || U_ <= (1.0 + o_.epsilon) * one_proxy_bound;
      // No chain costs more than the cheapest through one proxy, so when those prices prove no
      // more than the bound already held, pricing all chains cannot raise it: the round that
      // would (16 s of 58 on the 9,216-endpoint fat-tree permutation, for nothing) is skipped.
      if (priced_all_chains && one_proxy_bound <= best_bound_) {
        priced_all_chains = false;
        bound_cannot_rise_ = true;
      }
      if (priced_all_chains)
        priced = cheapest_paths(*legs_, window_jobs, link_w_, node_w_, -1, -1, kChainSearchExpansions);
      certify_next_ = false;
      return priced;
    }
    return cheapest_paths(*legs_, window_jobs, link_w_, node_w_, o_.hop_bound, o_.max_proxies);
  }

  // A detour round: for every job, the cheapest detour of its cheapest own path under the
  // potential's exact weights (nothing is certified from them, so no grid), marked fresh for
  // update() when it costs kDetourGain less. Jobs are independent: the round is the same on any
  // number of threads.
  void price_detours() {
    detour_w_.resize(topo_.num_links());
    for (LinkId l = 0; l < topo_.num_links(); ++l)
      detour_w_[l] = loads_.capacity(l) > 0 ? loads_.link_g(l) / loads_.capacity(l) : 0.0;
    const std::size_t blocks = (active_.size() + kDetourBlock - 1) / kDetourBlock;
    graph::parallel_for(blocks, 2, [](bool) { return detail::TorusDetours::Scratch{}; },
                        [&](detail::TorusDetours::Scratch& scratch, std::size_t block) {
                          const std::size_t end = std::min(active_.size(), (block + 1) * kDetourBlock);
                          for (std::size_t a = block * kDetourBlock; a < end; ++a) {
                            const LinkPath& own = flows_[a][cheapest_own(a)].links;
                            double cost = 0;
                            for (LinkId l : own) cost += detour_w_[l];
                            fresh_[a] = detours_->cheaper(own, detour_w_, kDetourGain * cost, scratch, fresh_path_[a]);
                          }
                        });
  }

  // The quotient bound does not depend on the flow: solved once, when the flow shows which
  // dimensions' links are the bottlenecks (they rank the candidate quotients): once the
  // potential is sharp, or at the trial of sweeps, whose flow is.
  void try_quotient_bound() {
    if (quotient_tried_ || eta_ < kQuotientFromEta || U_ <= (1.0 + stop_epsilon_) * best_bound_) return;
    quotient_tried_ = true;
    std::vector<double> score(topo_.num_links(), 0.0);
    for (LinkId l = 0; l < topo_.num_links(); ++l)
      if (loads_.capacity(l) > 0) score[l] = loads_.link_g(l);
    best_bound_ = std::max(best_bound_, quotient_lower_bound(topo_, active_jobs_, kQuotientTolerance * o_.epsilon,
                                                             kQuotientComponents, score, kQuotientTries, best_bound_));
  }

  // Relaxations that fail to raise the bound are retried ever more rarely: on large networks
  // each costs seconds once the hot links split it into few components.
  void try_relaxed_bounds() {
    if (!(eta_ >= kRelaxFromEta && U_ > (1.0 + stop_epsilon_) * best_bound_ && relax_wait_-- <= 0)) return;
    const double before = best_bound_;
    std::vector<char> hot(topo_.num_links(), 0);
    for (double fraction : kHotFractions) {
      for (LinkId l = 0; l < topo_.num_links(); ++l)
        hot[l] = loads_.capacity(l) > 0 && loads_.utilisation(l) >= fraction * U_;
      best_bound_ = std::max(best_bound_, relaxed_lower_bound(topo_, active_jobs_, hot, kRelaxTolerance * o_.epsilon,
                                                            kRelaxComponents, kRelaxedRounds, best_bound_));
    }
    if (best_bound_ > (1.0 + kRelaxGain * o_.epsilon) * before) {
      relax_backoff_ = 0;
    } else {
      relax_backoff_ = std::max(1, 2 * relax_backoff_);
    }
    relax_wait_ = relax_backoff_;
  }

  // Every job moves flow onto its freshly priced path, or else its currently cheapest one.
  void update() {
    for (std::size_t a = 0; a < active_.size(); ++a) {
      std::size_t b;
      if (fresh_[a]) {
        auto& set = flows_[a];
        b = 0;
        while (b < set.size() && set[b].links != fresh_path_[a]) ++b;
        if (b == set.size()) set.push_back({fresh_path_[a], 0.0});
      } else {
        b = cheapest_own(a);
      }
      rebalance(a, b);
      drop_empty(a);
    }
  }

  // Newton moves onto path b of job a. With `keep` > 0 a path keeps at least that many bytes
  // or gives them all: no move leaves it below a practical plan's minimum.
  void rebalance(std::size_t a, std::size_t b, double keep = 0) {
    auto& set = flows_[a];
    const double step_scale = U_ / eta_;  // the factor Loads::slope leaves out
    double db, hb;  // path b's slope, read again only after a move changed it
    loads_.slope(set[b].links, db, hb);
    for (std::size_t p = 0; p < set.size(); ++p) {
      if (p == b || set[p].x <= 0) continue;
      double dp, hp;
      loads_.slope(set[p].links, dp, hp);
      if (dp <= db) continue;
      double move = std::min(set[p].x, step_scale * (dp - db) / (hp + hb));
      if (move < set[p].x && set[p].x - move < keep) move = std::max(0.0, set[p].x - keep);
      if (move <= 0) continue;
      loads_.add(set[p].links, -move);
      loads_.add(set[b].links, move);
      set[p].x -= move;
      set[b].x += move;
      loads_.slope(set[b].links, db, hb);
    }
  }

  // Every job moves flow onto its currently cheapest path (rebalance's `keep` for all).
  void sweep(double keep = 0) {
    for (std::size_t a = 0; a < active_.size(); ++a) {
      rebalance(a, cheapest_own(a), keep);
      drop_empty(a);
    }
  }

  std::size_t cheapest_own(std::size_t a) const {
    std::size_t b = 0;
    double best = INFINITY;
    for (std::size_t p = 0; p < flows_[a].size(); ++p) {
      double d, h;
      loads_.slope(flows_[a][p].links, d, h);
      if (d < best) best = d, b = p;
    }
    return b;
  }

  void drop_empty(std::size_t a) {
    auto& set = flows_[a];
    set.erase(std::remove_if(set.begin(), set.end(), [](const PathFlow& f) { return f.x <= 0; }), set.end());
  }

  // Practical plans: paths below the minimum size (and beyond the path limit) give their
  // flow to the job's currently cheapest remaining path, then the survivors rebalance, a few
  // sweeps per round (removing one path per job and round, with one sweep, left Mira 49,152
  // still removing after 20 rounds, 0.8% above the flow it started from).
  // The main loop may stop before the potential is fully sharp, and a smooth potential trades
  // the busiest link for the others: these moves use the sharpest one.
  void make_practical() {
    eta_ = eta_max_;
    const int rounds = detours_ ? kDetourPracticalRounds : kPracticalRounds;
    for (int round = 0; round < rounds && U_ > 0; ++round) {
      loads_.set_reference(eta_, U_);
      bool removed = false;
      for (std::size_t a = 0; a < active_.size(); ++a) removed = give_away_small_paths(a) || removed;
      for (int s = 0; s < kPracticalSweeps; ++s) sweep();
      U_ = loads_.max_utilisation();
      if (!removed) break;
    }
    // The last round's sweeps may have shrunk paths below the minimum again (always so where
    // the rounds ran out while paths were still going). They give their flow to their job's
    // cheapest path here, rather than to its largest in whole bytes, which ignores the loads
    // (fat-tree 9,216 permutation: 36 such paths cost the plan 0.4%); then sweeps that leave
    // no path below the minimum rebalance what that moved (the give-away alone cost 0.3%).
    if (U_ > 0 && impractical_paths_left()) {
      loads_.set_reference(eta_, U_);
      for (std::size_t a = 0; a < active_.size(); ++a) give_away_small_paths(a);
      for (int s = 0; s < kFinalSweeps; ++s) {
        U_ = loads_.max_utilisation();
        loads_.set_reference(eta_, U_);
        sweep(o_.min_path_bytes);
      }
      U_ = loads_.max_utilisation();
    }
  }

  bool impractical_paths_left() const {
    for (const auto& set : flows_) {
      if (set.size() <= 1) continue;
      if (o_.max_paths > 0 && static_cast<int>(set.size()) > o_.max_paths) return true;
      for (const PathFlow& f : set)
        if (f.x < static_cast<double>(o_.min_path_bytes)) return true;
    }
    return false;
  }

  // Smallest first, so the larger paths left absorb them. True if a path went.
  bool give_away_small_paths(std::size_t a) {
    auto& set = flows_[a];
    std::stable_sort(set.begin(), set.end(), [](const PathFlow& x, const PathFlow& y) { return x.x > y.x; });
    bool removed = false;
    while (set.size() > 1) {
      const std::size_t last = set.size() - 1;
      const bool too_small = set[last].x < static_cast<double>(o_.min_path_bytes);
      const bool too_many = o_.max_paths > 0 && static_cast<int>(last) >= o_.max_paths;
      if (!too_small && !too_many) break;
      const double moved = set[last].x;
      loads_.add(set[last].links, -moved);
      set.pop_back();
      const std::size_t b = cheapest_own(a);
      set[b].x += moved;
      loads_.add(set[b].links, moved);
      removed = true;
    }
    return removed;
  }

  // Whole bytes; practical limits on paths per job and bytes per path.
  void round_to_bytes() {
    Loads final_loads(topo_, o_.forward_bandwidth, o_.link_preload);
    for (std::size_t a = 0; a < active_.size(); ++a) {
      auto set = flows_[a];
      std::stable_sort(set.begin(), set.end(), [](const PathFlow& x, const PathFlow& y) { return x.x > y.x; });
      if (o_.max_paths > 0 && static_cast<int>(set.size()) > o_.max_paths) set.resize(o_.max_paths);
      std::vector<double> shares;  // whole bytes; the merge only catches rounding leftovers
      for (const auto& f : set) shares.push_back(f.x);
      const auto split = merge_small_parts(split_by_shares(active_jobs_[a].bytes, shares), o_.min_path_bytes);
      for (std::size_t p = 0; p < set.size(); ++p)
        if (split[p] > 0) {
          result_.plan.jobs[active_[a]].paths.push_back({set[p].links, split[p]});
          final_loads.add(set[p].links, static_cast<double>(split[p]));
        }
    }
    result_.plan_seconds = final_loads.max_utilisation();
  }

  const Network& topo_;
  const RoutingModel& routing_;
  const PlannerOptions& o_;
  PlanResult result_;
  std::vector<std::size_t> active_;  // jobs with bytes, by index into the caller's jobs
  std::vector<Job> active_jobs_;
  Loads loads_;
  std::optional<Legs> legs_;  // made by seed(): a run without bytes to move needs none
  bool unit_pricing_ = false, chains_by_one_proxy_ = false;
  double link_capacity_ = 1.0;
  std::vector<double> link_w_, node_w_;
  std::vector<std::uint32_t> units_;
  std::optional<detail::TorusDetours> detours_;  // on tori priced by the goal-directed search
  std::vector<double> detour_w_;
  std::vector<std::vector<PathFlow>> flows_;
  double eta_ = 1.0, eta_max_ = 1.0, best_bound_ = 0, U_ = 0;
  std::map<NodeId, std::vector<std::size_t>> by_source_;
  std::vector<std::vector<std::size_t>> windows_;
  int price_every_ = 1;
  bool certify_next_ = false;
  bool bound_cannot_rise_ = false;  // this round: pricing every chain could not raise the bound
  double last_priced_U_ = INFINITY;
  std::vector<char> fresh_;  // per job: priced this iteration, fresh_path_ holds the path
  std::vector<LinkPath> fresh_path_;
  std::size_t rounds_ = 0;
  int next_price_ = 1;
  bool last_round_cheap_ = true;
  double trial_eta_ = 0;  // the potential's sharpness at the last trial of sweeps (0: none yet)
  bool practical_done_ = false;
  double stop_epsilon_ = 0;
  bool quotient_tried_ = false;
  int relax_wait_ = 0, relax_backoff_ = 0;  // pricing rounds to skip relaxations for, and the next such pause
};

}  // namespace

PlanResult plan_mcf(const Network& topo, const RoutingModel& routing, const std::vector<Job>& jobs,
                    const PlannerOptions& o) {
  check_planner_options(o);
  return McfRun(topo, routing, jobs, o).run();
}

}  // namespace optiq
