#include "planner/mcf_columns.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <utility>

#include "optiq/core/error.hpp"
#include "optiq/core/graph/parallel.hpp"
#include "optiq/core/routing.hpp"
#include "paths/fat_tree_chains.hpp"
#include "planner/pool_lp.hpp"

namespace optiq::detail {

namespace {

// Measured on the 9,216-endpoint fat-tree permutation (bench/results/mcf_profile.md, "The
// certificate by column generation"): with these the exact prices prove mcf's plan within 2%
// at round 5, and fewer master iterations or proxy columns take more rounds than they save.
// Every round is priced exactly: one search per first-level switch makes that a small part
// of a round.
constexpr int kRounds = 9;            // master solves at most
constexpr int kMasterIterations = 200;
constexpr double kMasterTolerance = 1e-3;
constexpr int kProxyColumns = 8;      // chains through one proxy added per job and round
constexpr double kKeptAbove = 0.05;   // paths without share stay while this close to their job's cheapest
constexpr double kShareKept = 1e-6;   // ... and paths with at least this share stay anyway

double path_cost(const LinkPath& p, const std::vector<double>& y) {
  double c = 0;
  for (LinkId l : p) c += y[l];
  return c;
}

// Any prices y >= 0 bound every plan: sum_j bytes_j * (cheapest chain of j under y) plus the
// preload they price, over sum_l capacity_l * y_l. A job's pool paths are chains, so its
// cheapest chain is the cheapest pool path unless the exact search finds one below it.
double exact_bound(const Network& net, const FatTreeChains& tree, const std::vector<Job>& jobs,
                   const std::vector<double>& y, const std::vector<double>& pool_min,
                   const std::vector<double>& preload) {
  std::vector<std::pair<NodeId, NodeId>> pairs;
  for (const Job& job : jobs) pairs.emplace_back(job.src, job.dst);
  const std::vector<double> chain = tree.cheapest_costs(pairs);
  std::vector<double> cheapest(pool_min);
  for (std::size_t j = 0; j < jobs.size(); ++j) cheapest[j] = std::min(cheapest[j], chain[j]);
  double num = 0, den = 0;
  for (std::size_t j = 0; j < jobs.size(); ++j) num += static_cast<double>(jobs[j].bytes) * cheapest[j];
  for (LinkId l = 0; l < net.num_links(); ++l) {
    den += net.capacity(l) * y[l];
    if (l < static_cast<LinkId>(preload.size())) num += y[l] * preload[l];
  }
  return den > 0 ? num / den : 0.0;
}

}  // namespace

// A chain through proxy p costs offset(src) + from(entry of src, p) + up-link(p) +
// route(parent of p, dst): the first three terms depend on the source's entry and p, the last
// on p's parent and dst. Each entry's hosts are sorted by the first part once, below each
// parent; a job then reads each parent's cheapest host and takes its chains from a heap of
// those, in about as many steps as there are parents instead of a scan of every host.
std::vector<std::vector<LinkPath>> one_proxy_columns(const Legs& legs, const FatTreeChains& tree, const std::vector<Job>& jobs,
                                                     const std::vector<double>& below, int count) {
  OPTIQ_CHECK(tree.one_parent(), "one-proxy columns need hosts with one parent");
  std::vector<NodeId> sources;
  for (const Job& job : jobs) sources.push_back(job.src);
  std::vector<double> offset;
  const FatTreeChains::EntryGroups groups = tree.group_by_entry(sources, offset);
  // The hosts below each parent switch, and each host's up-link weight (its entry's offset).
  const NodeId first = tree.first_switch();
  const int switches = tree.num_switches_above_hosts();
  const int hosts = static_cast<int>(legs.network().endpoints().size());  // hosts 0, 1, ... (FatTreeChains)
  std::vector<double> up(hosts);
  std::vector<int> parent(hosts), under_begin(switches + 1, 0);
  for (NodeId p = 0; p < hosts; ++p) ++under_begin[(parent[p] = tree.entry(p, up[p]) - first) + 1];
  for (int i = 0; i < switches; ++i) under_begin[i + 1] += under_begin[i];
  std::vector<NodeId> under(hosts);
  {
    std::vector<int> at(under_begin.begin(), under_begin.end() - 1);
    for (NodeId p = 0; p < hosts; ++p) under[at[parent[p]]++] = p;
  }
  struct Head {  // a parent's cheapest host not yet taken
    double cost;
    NodeId proxy;
    int at;  // its place in the parent's sorted hosts
    bool operator>(const Head& o) const { return cost != o.cost ? cost > o.cost : proxy > o.proxy; }
  };
  struct State {
    FatTreeChains::Scratch from;
    std::vector<double> part, to;  // per host: the part before its parent; per parent: the route on
    std::vector<NodeId> order;     // the hosts below each parent, by part
    std::vector<Head> heap;
  };
  std::vector<std::vector<LinkPath>> out(jobs.size());
  graph::parallel_for(
      groups.size(), 2, [](bool) { return State{}; },
      [&](State& s, std::size_t g) {
        tree.route_costs_from(groups[g].first, s.from);
        s.part.resize(hosts);
        for (NodeId p = 0; p < hosts; ++p)
          s.part[p] = legs.can_proxy(p) ? s.from.arrival[p].w + up[p] : std::numeric_limits<double>::infinity();
        s.order = under;
        for (int i = 0; i < switches; ++i)
          std::sort(s.order.begin() + under_begin[i], s.order.begin() + under_begin[i + 1],
                    [&](NodeId a, NodeId b) { return s.part[a] != s.part[b] ? s.part[a] < s.part[b] : a < b; });
        for (std::size_t j : groups[g].second) {
          const Job& job = jobs[j];
          tree.route_costs_to(job.dst, s.to);
          const double limit = below[j];
          // The next host below parent i from place `at` on that may relay this job.
          auto head = [&](int i, int at, Head& h) {
            for (; at < under_begin[i + 1]; ++at) {
              const NodeId p = s.order[at];
              if (p == job.src || p == job.dst) continue;
              h = {offset[j] + s.part[p] + s.to[i], p, at};
              return h.cost < limit;
            }
            return false;
          };
          s.heap.clear();
          for (int i = 0; i < switches; ++i)
            if (Head h; head(i, under_begin[i], h)) s.heap.push_back(h);
          std::make_heap(s.heap.begin(), s.heap.end(), std::greater<>());
          while (!s.heap.empty() && out[j].size() < static_cast<std::size_t>(count)) {
            std::pop_heap(s.heap.begin(), s.heap.end(), std::greater<>());
            const Head taken = s.heap.back();
            s.heap.pop_back();
            LinkPath path;
            legs.append_leg(job.src, taken.proxy, path);
            legs.append_leg(taken.proxy, job.dst, path);
            out[j].push_back(std::move(path));
            if (Head h; head(parent[taken.proxy], taken.at + 1, h)) {
              s.heap.push_back(h);
              std::push_heap(s.heap.begin(), s.heap.end(), std::greater<>());
            }
          }
        }
      });
  return out;
}

bool column_bound_applies(const Legs& legs, double forward_bandwidth, int hop_bound, int max_proxies) {
  if (legs.direct() || forward_bandwidth > 0 || hop_bound >= 0 || max_proxies >= 0) return false;
  const std::vector<double> probe(legs.network().num_links(), 1.0), no_node_weights;
  const std::unique_ptr<FatTreeChains> tree = FatTreeChains::make(legs, probe, no_node_weights);
  return tree && tree->one_parent();
}

double column_bound(const Legs& legs, const Plan& plan, const std::vector<double>& preload, double floor,
                    double target, const Progress& progress) {
  const Network& net = legs.network();
  std::vector<Job> jobs;
  PoolLpInput in;
  for (const JobPlan& jp : plan.jobs) {
    if (jp.job.bytes == 0 || jp.job.src == jp.job.dst || jp.paths.empty()) continue;
    jobs.push_back(jp.job);
    in.bytes.push_back(static_cast<double>(jp.job.bytes));
    in.paths.emplace_back();
    in.share.emplace_back();
    for (const PathShare& p : jp.paths) {
      in.paths.back().push_back(p.links);
      in.share.back().push_back(static_cast<double>(p.bytes) / static_cast<double>(jp.job.bytes));
    }
  }
  if (jobs.empty()) return floor;
  in.preload = preload;
  double bound = floor;
  for (int round = 0; round < kRounds; ++round) {
    if (progress) progress("mcf certificate", static_cast<std::size_t>(round), static_cast<std::size_t>(kRounds));
    PoolLpResult lp = solve_pool_lp(net, in, kMasterTolerance, kMasterIterations);
    in.price = std::move(lp.price);
    in.share = std::move(lp.share);
    std::vector<std::vector<double>> cost(jobs.size());
    std::vector<double> pool_min(jobs.size(), std::numeric_limits<double>::infinity());
    for (std::size_t j = 0; j < jobs.size(); ++j)
      for (const LinkPath& p : in.paths[j]) {
        cost[j].push_back(path_cost(p, in.price));
        pool_min[j] = std::min(pool_min[j], cost[j].back());
      }
    const std::vector<double> no_node_weights;  // the search keeps references: both must outlive it
    const std::unique_ptr<FatTreeChains> tree = FatTreeChains::make(legs, in.price, no_node_weights);
    // The exact bound is at most the pool's dual value under the same prices (each job's
    // cheapest chain costs at most its cheapest pool path): below the target it cannot certify,
    // and only the last round's is wanted then.
    if (lp.lower >= target * (1 - 1e-9) || round + 1 == kRounds)
      bound = std::max(bound, exact_bound(net, *tree, jobs, in.price, pool_min, preload));
    if (bound >= target || round + 1 == kRounds) break;
    // Paths that carry nothing and cost well above their job's cheapest leave the pool; each job
    // gains its cheapest chains through one proxy.
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      std::vector<LinkPath> kept;
      std::vector<double> kept_share;
      for (std::size_t q = 0; q < cost[j].size(); ++q)
        if (in.share[j][q] > kShareKept || cost[j][q] <= (1 + kKeptAbove) * pool_min[j]) {
          kept.push_back(std::move(in.paths[j][q]));
          kept_share.push_back(in.share[j][q]);
        }
      in.paths[j] = std::move(kept);
      in.share[j] = std::move(kept_share);
    }
    std::vector<double> below(jobs.size());
    for (std::size_t j = 0; j < jobs.size(); ++j) below[j] = pool_min[j] * (1 - 1e-9);
    std::vector<std::vector<LinkPath>> added = one_proxy_columns(legs, *tree, jobs, below, kProxyColumns);
    for (std::size_t j = 0; j < jobs.size(); ++j)
      for (LinkPath& p : added[j])
        if (std::find(in.paths[j].begin(), in.paths[j].end(), p) == in.paths[j].end()) {
          in.paths[j].push_back(std::move(p));
          in.share[j].push_back(0.0);
        }
  }
  return bound;
}

}  // namespace optiq::detail
