// The planning rank's work: check the whole pattern, plan it with the core, build schedules.
#pragma once

#include <string>
#include <vector>

#include "optiq/core/schedule.hpp"

namespace optiq::rt {

struct PlanningSetup {
  const Network* topo = nullptr;
  const RoutingModel* routing = nullptr;
  const RankMap* placement = nullptr;
  std::string planner;
  int paths_per_job = 0;  // optiq_options.paths_per_job
  Bytes direct_threshold = 0;
  double min_gain = 0;  // see optiq_options.min_gain
  bool aggregate_node = false;  // optiq_options.aggregate_node: one planned transfer per pair of nodes
  ScheduleOptions schedule;
  // Bytes/s a forwarder copies at, when known (0: unknown): the time a plan promises counts
  // its busiest copier. Under SMPI, the simulated copy rate.
  double copy_bandwidth = 0;
};

// The jobs of an alltoallv, once every receive count matches its sender's send count.
// Throws Failure(OPTIQ_ERR_MISMATCH) naming the first pair that disagrees.
std::vector<RankJob> match_pattern(const std::vector<std::vector<PeerBytes>>& sends,
                                   const std::vector<std::vector<PeerBytes>>& recvs);

// Plans the jobs (those at or above the direct threshold between different nodes; with node
// aggregation, the pairs of nodes whose jobs add up to the threshold) and schedules all of them.
std::vector<RankSchedule> schedule_jobs(const PlanningSetup& setup, const std::vector<RankJob>& jobs);

// Reads, checks and schedules a plan file made for this topology and placement.
std::vector<RankSchedule> schedule_plan_file(const PlanningSetup& setup, const std::string& path);

}  // namespace optiq::rt
