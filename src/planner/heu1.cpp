// Heuristic 1 (thesis 5.3.1). Jobs take turns offering their next candidate; a candidate is
// kept when no link on it would exceed `maxload` paths. Once every candidate has been offered,
// jobs still without a path raise the limit by one and offer their whole list again, until
// every job has a path. (The original retried with already-consumed lists and so never ended
// for such jobs.) Bytes are split equally among a job's kept paths.
#include <numeric>

#include "planner/common.hpp"
#include "optiq/core/planner.hpp"

namespace optiq {

Plan plan_heu1(const Network& topo, const RoutingModel& routing, const std::vector<Job>& jobs,
               const CandidateSet& candidates, int maxload) {
  if (maxload < 1) throw Error("maxload must be at least 1, got " + std::to_string(maxload));
  OPTIQ_CHECK(candidates.per_job.size() == jobs.size(), "candidate set does not match the jobs");
  Plan plan = detail::empty_plan(topo, routing, "heu1", jobs);

  std::vector<std::size_t> waiting;  // jobs that move bytes, in job order
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    detail::require_candidates(jobs[j], j, candidates.per_job[j].size(), candidates.hop_bound);
    if (jobs[j].bytes > 0) waiting.push_back(j);
  }
  std::vector<int> load(topo.num_links(), 0);
  std::vector<std::vector<std::size_t>> kept(jobs.size());
  int limit = maxload;
  while (!waiting.empty()) {
    std::vector<std::size_t> cursor(jobs.size(), 0);
    for (bool offered = true; offered;) {
      offered = false;
      for (std::size_t j : waiting) {
        const auto& list = candidates.per_job[j];
        if (cursor[j] == list.size()) continue;
        offered = true;
        const std::size_t c = cursor[j]++;
        bool fits = true;
        for (LinkId l : list[c]) fits = fits && load[l] + 1 <= limit;
        if (!fits) continue;
        for (LinkId l : list[c]) ++load[l];
        kept[j].push_back(c);
      }
    }
    std::vector<std::size_t> starved;
    for (std::size_t j : waiting)
      if (kept[j].empty()) starved.push_back(j);
    waiting.swap(starved);
    ++limit;
  }

  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const auto shares = split_evenly(jobs[j].bytes, kept[j].size());
    for (std::size_t i = 0; i < kept[j].size(); ++i)
      plan.jobs[j].paths.push_back({candidates.per_job[j][kept[j][i]], shares[i]});
  }
  return plan;
}

}  // namespace optiq
