// Heuristic 2 (thesis 5.3.2). The job with the most bytes still unassigned puts one chunk on
// the candidate whose busiest link currently carries the fewest bytes, in time where link
// capacities differ (ties: the earlier, i.e. shorter, candidate). The chunk size never changes; only a job's last piece may be smaller
// (the original let one short remainder shrink the chunk for everybody after it).
#include <algorithm>
#include <cmath>
#include <queue>

#include "planner/common.hpp"
#include "optiq/core/planner.hpp"

namespace optiq {

Plan plan_heu2(const Network& topo, const RoutingModel& routing, const std::vector<Job>& jobs,
               const CandidateSet& candidates, Bytes chunk, const Progress& progress,
               const std::vector<double>& preload) {
  if (chunk < 1) throw Error("chunk must be at least 1 byte");
  OPTIQ_CHECK(candidates.per_job.size() == jobs.size(), "candidate set does not match the jobs");
  Plan plan = detail::empty_plan(topo, routing, "heu2", jobs);

  // Max-heap on remaining bytes; among equals the lower job index goes first.
  using Entry = std::pair<Bytes, std::size_t>;
  auto before = [](const Entry& a, const Entry& b) { return a.first != b.first ? a.first < b.first : a.second > b.second; };
  std::priority_queue<Entry, std::vector<Entry>, decltype(before)> heap(before);
  Bytes total = 0;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    detail::require_candidates(jobs[j], j, candidates.per_job[j].size(), candidates.hop_bound);
    if (jobs[j].bytes > 0) heap.push({jobs[j].bytes, j});
    total += jobs[j].bytes;
  }

  // Other classes' bytes come first on their links (whole bytes in practice: sums of jobs').
  std::vector<Bytes> load(topo.num_links(), 0);
  for (std::size_t l = 0; l < preload.size() && l < load.size(); ++l) load[l] = static_cast<Bytes>(std::llround(preload[l]));
  // A link's load counts in time: bytes over its capacity, scaled by the widest link so that
  // where every link is alike (the thesis' networks) the comparison is of whole bytes, exactly
  // (long double holds every 64-bit count).
  const double widest = topo.num_links() ? *std::max_element(topo.capacities().begin(), topo.capacities().end()) : 1;
  std::vector<long double> scale(topo.num_links());
  for (LinkId l = 0; l < topo.num_links(); ++l) scale[l] = static_cast<long double>(widest) / topo.capacity(l);
  std::vector<std::vector<Bytes>> assigned(jobs.size());
  for (std::size_t j = 0; j < jobs.size(); ++j) assigned[j].assign(candidates.per_job[j].size(), 0);
  Bytes done = 0, next_report = total / 100;
  while (!heap.empty()) {
    auto [remaining, j] = heap.top();
    heap.pop();
    const auto& list = candidates.per_job[j];
    std::size_t best = 0;
    long double best_load = INFINITY;
    for (std::size_t c = 0; c < list.size(); ++c) {
      long double busiest = 0;
      for (LinkId l : list[c]) busiest = std::max(busiest, load[l] * scale[l]);
      if (busiest < best_load) best = c, best_load = busiest;
    }
    const Bytes piece = std::min(chunk, remaining);
    for (LinkId l : list[best]) load[l] += piece;
    assigned[j][best] += piece;
    if (remaining > piece) heap.push({remaining - piece, j});
    done += piece;
    if (progress && done >= next_report) {
      progress("heu2 bytes", done, total);
      next_report = done + total / 100;
    }
  }

  for (std::size_t j = 0; j < jobs.size(); ++j)
    for (std::size_t c = 0; c < assigned[j].size(); ++c)
      if (assigned[j][c] > 0) plan.jobs[j].paths.push_back({candidates.per_job[j][c], assigned[j][c]});
  return plan;
}

}  // namespace optiq
