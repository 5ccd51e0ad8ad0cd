// Yen's algorithm with Lawler's refinement: a new path only spawns spurs from the node where it
// left its parent, because the spurs before that point were computed when the parent was found.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "optiq/core/error.hpp"
#include "optiq/core/graph/parallel.hpp"
#include "optiq/core/legs.hpp"
#include "optiq/core/paths.hpp"
#include "paths/chains.hpp"
#include "paths/spur_search.hpp"

namespace optiq {

namespace {

struct Found {
  LinkPath links;
  std::size_t deviation;  // index of the spur node in the parent path
};

// Candidates wait in order of hops; among equally short ones, the one that left its parent
// closest to the source goes first, then the earliest found. Lexicographic ties would make
// the first k paths share their first links (dozens of paths through one port of the source);
// preferring early deviations spreads them over the source's links, which is what the
// planners need. Hop order alone makes the result the k shortest paths.
struct Key {
  std::size_t hops, deviation, arrival;
  bool operator<(const Key& o) const {
    return std::tie(hops, deviation, arrival) < std::tie(o.hops, o.deviation, o.arrival);
  }
};

std::vector<LinkPath> yen(const Network& topo, detail::SpurSearch& search, NodeId src, NodeId dst, int k,
                          int bound) {
  std::vector<Found> accepted;
  LinkPath first;
  if (!search.find(src, dst, bound, first)) return {};
  accepted.push_back({first, 0});
  std::map<Key, Found> candidates;
  std::set<LinkPath> waiting;
  std::size_t arrivals = 0;
  std::vector<NodeId> nodes;
  LinkPath spur;
  while (static_cast<int>(accepted.size()) < k) {
    const Found& last = accepted.back();
    nodes = path_nodes(topo, src, last.links);
    for (std::size_t i = last.deviation; i < last.links.size(); ++i) {
      const int budget = bound - static_cast<int>(i);
      if (budget < 1) break;
      for (std::size_t j = 0; j < i; ++j) search.ban_node(nodes[j]);
      for (const Found& p : accepted)
        if (p.links.size() > i && std::equal(p.links.begin(), p.links.begin() + i, last.links.begin()))
          search.ban_first_link(p.links[i]);
      if (!search.find(nodes[i], dst, budget, spur)) continue;
      LinkPath path(last.links.begin(), last.links.begin() + i);
      path.insert(path.end(), spur.begin(), spur.end());
      if (!waiting.insert(path).second) continue;
      const Key key{path.size(), i, arrivals++};  // before `path` is moved from
      candidates.emplace(key, Found{std::move(path), i});
    }
    if (candidates.empty()) break;
    auto node = candidates.extract(candidates.begin());
    waiting.erase(node.mapped().links);
    accepted.push_back(std::move(node.mapped()));
  }
  std::vector<LinkPath> out;
  out.reserve(accepted.size());
  for (auto& f : accepted) out.push_back(std::move(f.links));
  return out;
}

void check_request(const Network& topo, NodeId src, NodeId dst, int k) {
  if (!topo.contains(src) || !topo.contains(dst))
    throw Error("node " + std::to_string(topo.contains(src) ? dst : src) + " is outside the topology (0.." +
                std::to_string(topo.num_vertices() - 1) + ")");
  if (k < 1) throw Error("k must be at least 1, got " + std::to_string(k));
}

}  // namespace

std::vector<NodeId> path_nodes(const Network& topo, NodeId src, const LinkPath& path) {
  std::vector<NodeId> nodes{src};
  for (LinkId l : path) nodes.push_back(topo.link_dst(l));
  return nodes;
}

int default_hop_bound(const Legs& legs) {
  const int d = legs.network().diameter();
  return legs.direct() ? d : 2 * d;
}

std::vector<LinkPath> k_shortest_paths(const Network& topo, const RoutingModel& routing, NodeId src, NodeId dst,
                                       int k, int hop_bound) {
  check_request(topo, src, dst, k);
  const Legs legs(topo, routing);
  const int bound = hop_bound < 0 ? default_hop_bound(legs) : hop_bound;
  if (!legs.direct()) return detail::candidate_chains(legs, src, dst, k, bound);
  detail::SpurSearch search(topo);
  return yen(topo, search, src, dst, k, bound);
}

CandidateSet generate_candidates(const Network& topo, const RoutingModel& routing, const std::vector<Job>& jobs, int k,
                                 int hop_bound, const Progress& progress) {
  const auto start = std::chrono::steady_clock::now();
  for (const Job& j : jobs) check_request(topo, j.src, j.dst, k);
  const Legs legs(topo, routing);
  CandidateSet set;
  set.k = k;
  set.hop_bound = hop_bound < 0 ? default_hop_bound(legs) : hop_bound;

  // One search per distinct (src, dst); jobs repeating a pair share its result.
  std::map<std::pair<NodeId, NodeId>, std::size_t> pair_index;
  std::vector<std::pair<NodeId, NodeId>> pairs;
  std::vector<std::size_t> job_pair(jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    auto [it, fresh] = pair_index.emplace(std::make_pair(jobs[i].src, jobs[i].dst), pairs.size());
    if (fresh) pairs.push_back(it->first);
    job_pair[i] = it->second;
  }

  // Pairs are independent and their results land by index.
  std::vector<std::vector<LinkPath>> results(pairs.size());
  std::atomic<std::size_t> finished{0};
  const std::size_t step = std::max<std::size_t>(1, pairs.size() / 100);
  struct Local {
    std::optional<detail::SpurSearch> search;  // on the link graph when every link is a leg
    bool reports;  // only the calling thread may call `progress`
  };
  graph::parallel_for(
      pairs.size(), legs.direct() ? 64 : 4,
      [&](bool caller) {
        return Local{legs.direct() ? std::optional<detail::SpurSearch>(std::in_place, topo) : std::nullopt, caller};
      },
      [&](Local& my, std::size_t i) {
        results[i] = my.search ? yen(topo, *my.search, pairs[i].first, pairs[i].second, k, set.hop_bound)
                               : detail::candidate_chains(legs, pairs[i].first, pairs[i].second, k, set.hop_bound);
        const std::size_t done = finished.fetch_add(1) + 1;
        if (my.reports && progress && done % step == 0) progress("paths", done, pairs.size());
      });
  if (progress && !pairs.empty() && pairs.size() % step != 0)
    progress("paths", pairs.size(), pairs.size());  // the last pair may have finished on a helper

  set.per_job.resize(jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) set.per_job[i] = results[job_pair[i]];
  set.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return set;
}

}  // namespace optiq
