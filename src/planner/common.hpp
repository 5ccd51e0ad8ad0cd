// Pieces every planner shares.
#pragma once

#include <string>

#include "optiq/core/error.hpp"
#include "optiq/core/plan.hpp"
#include "optiq/core/routing.hpp"

namespace optiq::detail {

inline Plan empty_plan(const Network& topo, const RoutingModel& routing, const std::string& planner,
                       const std::vector<Job>& jobs) {
  Plan plan{topo.spec(), routing.name(), planner, {}};
  plan.jobs.reserve(jobs.size());
  for (const Job& j : jobs) {
    if (!topo.contains(j.src) || !topo.contains(j.dst))
      throw Error("node " + std::to_string(topo.contains(j.src) ? j.dst : j.src) + " is outside the topology (0.." +
                  std::to_string(topo.num_vertices() - 1) + ")");
    plan.jobs.push_back({j, {}});
  }
  return plan;
}

// A job that must move bytes but has no candidate path cannot be planned: say so instead of
// looping (the original heuristic waited forever for such a job).
inline void require_candidates(const Job& job, std::size_t index, std::size_t count, int hop_bound) {
  if (job.bytes > 0 && count == 0)
    throw Error("job " + std::to_string(index) + " (" + std::to_string(job.src) + "->" + std::to_string(job.dst) +
                ") has no path within the hop bound " + std::to_string(hop_bound));
}

}  // namespace optiq::detail
