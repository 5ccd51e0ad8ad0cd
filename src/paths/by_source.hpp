// Cheapest-path searches one per source, in parallel: each searches from its source to the
// destinations of that source's jobs, and each job's cost and path are handed back by job.
#pragma once

#include <utility>
#include <vector>

#include "optiq/core/graph/parallel.hpp"
#include "optiq/core/pattern.hpp"

namespace optiq::detail {

using SourceGroups = std::vector<std::pair<NodeId, std::vector<std::size_t>>>;  // source, its jobs

// make() builds one thread's Search; run(search, src, members, targets, cost, paths) fills the
// costs and paths of targets (the destinations of the jobs `members`, in order); store(job,
// cost, path) takes each job's.
template <class Search, class Cost, class Make, class Run, class Store>
void search_by_source(const SourceGroups& groups, const std::vector<Job>& jobs, Make make, Run run, Store store) {
  struct Local {
    Search search;
    std::vector<Cost> cost;
    std::vector<LinkPath> paths;
    std::vector<NodeId> targets;
  };
  graph::parallel_for(
      groups.size(), 8, [&](bool) { return Local{make(), {}, {}, {}}; },
      [&](Local& my, std::size_t gi) {
        const auto& [src, members] = groups[gi];
        my.targets.clear();
        for (std::size_t j : members) my.targets.push_back(jobs[j].dst);
        my.cost.clear();
        my.paths.clear();
        run(my.search, src, members, my.targets, my.cost, my.paths);
        for (std::size_t i = 0; i < members.size(); ++i) store(members[i], my.cost[i], std::move(my.paths[i]));
      });
}

}  // namespace optiq::detail
