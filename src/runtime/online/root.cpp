#include "runtime/online/root.hpp"

#include <algorithm>
#include <map>

#include "runtime/online/failure.hpp"
#include "optiq/core/bytes.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/fallback.hpp"
#include "optiq/core/legs.hpp"
#include "optiq/core/metrics.hpp"
#include "optiq/optiq.h"
#include "optiq/core/plan_io.hpp"
#include "optiq/core/planner.hpp"

namespace optiq::rt {

namespace {

// The most bytes one rank may send and receive under one plan file: more than any process can
// hold, and each of its chunks is a step of the schedule (docs/runtime.md, "Limits").
constexpr Bytes kMaxRankBytes = Bytes(1) << 47;

// The time the plan promises: its own statement, else its predicted time in this context's
// model (the busiest link, or the busiest copier when the copy rate is known).
double promised_seconds(const PlanningSetup& setup, const Plan& plan) {
  if (plan.seconds > 0) return plan.seconds;
  double seconds = compute_metrics(plan, *setup.topo).predicted_seconds;
  if (setup.copy_bandwidth > 0) {
    const auto copied = copy_loads(plan, *setup.topo);
    if (!copied.empty())
      seconds = std::max(seconds, static_cast<double>(*std::max_element(copied.begin(), copied.end())) /
                                      setup.copy_bandwidth);
  }
  return seconds;
}

// The whole operation's predicted time: the plan's paths, and the default route of each job
// that goes directly from node to node.
double whole_prediction(const PlanningSetup& setup, Plan plan, const std::vector<Job>& direct) {
  if (!direct.empty())
    for (JobPlan& jp : plan_default(*setup.topo, *setup.routing, direct).jobs) plan.jobs.push_back(std::move(jp));
  plan.seconds = 0;
  return promised_seconds(setup, plan);
}

std::vector<RankSchedule> schedule_flows(const PlanningSetup& setup, const std::vector<RankJob>& jobs,
                                         const std::vector<Flow>& flows, const Plan& plan, double predicted) {
  std::vector<RankSchedule> schedules;
  try {
    schedules = build_schedules(jobs, flows, setup.placement->num_ranks(), setup.schedule);
  } catch (const Error& e) {
    throw Failure(OPTIQ_ERR_SCHEDULE, e.what());
  }
  // Only a plan that forwards has shares to keep: direct flows go at the network's pace.
  if (std::any_of(flows.begin(), flows.end(), [](const Flow& f) { return f.hops.size() > 2; })) {
    const double seconds = promised_seconds(setup, plan);
    for (RankSchedule& s : schedules) s.planned_seconds = seconds;
  }
  std::uint64_t jobs_planned = 0, paths = 0, most = 0;
  for (const JobPlan& jp : plan.jobs) {
    std::uint64_t n = 0;
    for (const PathShare& p : jp.paths) n += p.bytes > 0;
    jobs_planned += n > 0;
    paths += n;
    most = std::max(most, n);
  }
  for (RankSchedule& s : schedules) {
    s.predicted_seconds = predicted;
    s.planned_jobs = jobs_planned;
    s.planned_paths = paths;
    s.most_paths = most;
  }
  return schedules;
}

// The planner's plan of node_jobs, or the default route's where the plan gains less than
// setup.min_gain over it.
Plan plan_node_jobs(const PlanningSetup& setup, const std::vector<Job>& node_jobs, Bytes largest) {
  PlannerOptions po;
  po.k = setup.paths_per_job;
  po.prove_bound = false;  // the exchange needs the plan, not its certificate
  // heu2 hands out bytes a unit at a time: fine enough to split every job (at most 64 units
  // per job) and never finer than the chunk the runtime will send.
  const Bytes floor_unit = setup.schedule.chunk > 0 ? setup.schedule.chunk : Bytes(4096);
  po.heu2_chunk = std::max(floor_unit, (largest + 63) / 64);
  Plan made;
  try {
    made = make_plan(setup.planner, *setup.topo, *setup.routing, node_jobs, po).plan;
  } catch (const Error& e) {
    throw Failure(OPTIQ_ERR_PLANNER, "planner '" + setup.planner + "': " + e.what());
  }
  made.seconds = 0;  // the promise is this context's model's, copy rate included (promised_seconds)
  if (setup.planner != "default" && setup.min_gain > 0) {
    Plan route = plan_default(*setup.topo, *setup.routing, node_jobs);
    if (!plan_gains_enough(promised_seconds(setup, made), promised_seconds(setup, route), setup.min_gain))
      return route;
  }
  return made;
}

// Each rank job planned as a job between its nodes.
std::vector<RankSchedule> schedule_each(const PlanningSetup& setup, const std::vector<RankJob>& jobs) {
  const RankMap& pl = *setup.placement;
  std::vector<bool> planned(jobs.size(), false);
  std::vector<Job> node_jobs;
  Bytes largest = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const RankJob& j = jobs[i];
    planned[i] = j.bytes > 0 && j.bytes >= setup.direct_threshold && pl.node_of(j.src) != pl.node_of(j.dst);
    if (planned[i]) {
      node_jobs.push_back({pl.node_of(j.src), pl.node_of(j.dst), j.bytes});
      largest = std::max(largest, j.bytes);
    }
  }
  Plan plan{setup.topo->spec(), setup.routing->name(), setup.planner, {}};
  for (const RankJob& j : jobs) plan.jobs.push_back({{pl.node_of(j.src), pl.node_of(j.dst), j.bytes}, {}});
  if (!node_jobs.empty()) {
    Plan made = plan_node_jobs(setup, node_jobs, largest);
    std::size_t k = 0;
    for (std::size_t i = 0; i < jobs.size(); ++i)
      if (planned[i]) plan.jobs[i] = std::move(made.jobs[k++]);
  }
  std::vector<Job> direct;
  for (std::size_t i = 0; i < jobs.size(); ++i)
    if (!planned[i] && jobs[i].bytes > 0 && plan.jobs[i].job.src != plan.jobs[i].job.dst) direct.push_back(plan.jobs[i].job);
  const auto flows = make_flows(*setup.topo, *setup.routing, pl, jobs, plan, planned);
  return schedule_flows(setup, jobs, flows, plan, whole_prediction(setup, plan, direct));
}

// Node aggregation: one planned transfer per pair of nodes whose jobs reach the threshold
// together; the other jobs go directly.
std::vector<RankSchedule> schedule_aggregated(const PlanningSetup& setup, const std::vector<RankJob>& jobs) {
  const RankMap& pl = *setup.placement;
  std::vector<NodePair> pairs = node_pairs(pl, jobs);
  std::vector<bool> combined(jobs.size(), false);
  std::vector<NodePair> planned;
  std::vector<Job> node_jobs;
  Bytes largest = 0;
  for (NodePair& p : pairs) {
    if (p.bytes < setup.direct_threshold) continue;
    for (std::size_t i : p.members) combined[i] = true;
    node_jobs.push_back({p.src, p.dst, p.bytes});
    largest = std::max(largest, p.bytes);
    planned.push_back(std::move(p));
  }
  std::vector<Flow> flows;
  std::vector<Job> direct;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const RankJob& j = jobs[i];
    if (j.bytes == 0 || combined[i]) continue;
    if (pl.node_of(j.src) != pl.node_of(j.dst)) direct.push_back({pl.node_of(j.src), pl.node_of(j.dst), j.bytes});
    flows.push_back({i, j.offset, j.bytes, j.src == j.dst ? std::vector<Rank>{j.src} : std::vector<Rank>{j.src, j.dst},
                     false});
  }
  Plan plan{setup.topo->spec(), setup.routing->name(), setup.planner, {}};
  if (!node_jobs.empty()) {
    plan = plan_node_jobs(setup, node_jobs, largest);
    const Legs legs(*setup.topo, *setup.routing);
    for (std::size_t k = 0; k < planned.size(); ++k)
      append_pair_flows(*setup.topo, legs, pl, jobs, planned[k], plan.jobs[k], &flows);
  }
  auto schedules = schedule_flows(setup, jobs, flows, plan, whole_prediction(setup, plan, direct));
  for (RankSchedule& s : schedules) s.aggregated_pairs = planned.size();
  return schedules;
}

}  // namespace

std::vector<RankJob> match_pattern(const std::vector<std::vector<PeerBytes>>& sends,
                                   const std::vector<std::vector<PeerBytes>>& recvs) {
  std::map<std::pair<Rank, Rank>, std::pair<Bytes, Bytes>> pairs;  // (src, dst) -> (sent, expected)
  for (std::size_t s = 0; s < sends.size(); ++s)
    for (const PeerBytes& p : sends[s]) pairs[{static_cast<Rank>(s), p.peer}].first = p.bytes;
  for (std::size_t d = 0; d < recvs.size(); ++d)
    for (const PeerBytes& p : recvs[d]) pairs[{p.peer, static_cast<Rank>(d)}].second = p.bytes;
  std::vector<RankJob> jobs;
  Bytes total = 0;
  for (const auto& [pair, bytes] : pairs) {
    if (bytes.first != bytes.second)
      throw Failure(OPTIQ_ERR_MISMATCH, "rank " + std::to_string(pair.second) + " expects " +
                                            std::to_string(bytes.second) + " bytes from rank " +
                                            std::to_string(pair.first) + ", which sends it " +
                                            std::to_string(bytes.first));
    jobs.push_back({pair.first, pair.second, bytes.first, 0});
    try {  // every sum the schedule forms (per rank, per pair) is part of this one
      total = checked_add(total, bytes.first, "the exchange's bytes add up to more");
    } catch (const Error& e) {
      throw Failure(OPTIQ_ERR_ARG, e.what());
    }
  }
  return jobs;
}

std::vector<RankSchedule> schedule_jobs(const PlanningSetup& setup, const std::vector<RankJob>& jobs) {
  return setup.aggregate_node ? schedule_aggregated(setup, jobs) : schedule_each(setup, jobs);
}

std::vector<RankSchedule> schedule_plan_file(const PlanningSetup& setup, const std::string& path) {
  Plan plan;
  try {
    plan = load_plan(path);
  } catch (const Error& e) {
    throw Failure(OPTIQ_ERR_PLAN, e.what());
  }
  if (plan.topology != setup.topo->spec())
    throw Failure(OPTIQ_ERR_PLAN, path + ": the plan is for " + plan.topology + ", this context runs on " +
                                      setup.topo->spec());
  const RankMap& pl = *setup.placement;
  std::vector<RankJob> jobs;
  std::map<std::pair<Rank, Rank>, Bytes> used;  // bytes already placed between two ranks
  std::vector<Bytes> moved(static_cast<std::size_t>(pl.num_ranks()), 0);  // sent plus received, per rank
  for (std::size_t i = 0; i < plan.jobs.size(); ++i) {
    const Job& j = plan.jobs[i].job;
    for (NodeId n : {j.src, j.dst})
      if (!pl.occupied(n))
        throw Failure(OPTIQ_ERR_PLAN, path + ": jobs[" + std::to_string(i) + "] needs node " + std::to_string(n) +
                                          ", which has no rank among the communicator's " +
                                          std::to_string(pl.num_ranks()));
    const Rank a = pl.leader(j.src), b = pl.leader(j.dst);
    Bytes& at = used[{a, b}];
    jobs.push_back({a, b, j.bytes, at});
    at = checked_add(at, j.bytes, path + ": jobs[" + std::to_string(i) + "]");  // bounded by the plan's checked total
    for (Rank r : {a, b}) {
      moved[r] = checked_add(moved[r], j.bytes, path + ": jobs[" + std::to_string(i) + "]");
      if (moved[r] > kMaxRankBytes)
        throw Failure(OPTIQ_ERR_PLAN, path + ": rank " + std::to_string(r) + " would move " + std::to_string(moved[r]) +
                                          " bytes by jobs[" + std::to_string(i) + "], more than the " +
                                          std::to_string(kMaxRankBytes) + " (128 TiB) a rank may move in one plan");
    }
  }
  const std::vector<bool> planned(jobs.size(), true);
  return schedule_flows(setup, jobs, make_flows(*setup.topo, *setup.routing, pl, jobs, plan, planned), plan,
                        promised_seconds(setup, plan));
}

}  // namespace optiq::rt
