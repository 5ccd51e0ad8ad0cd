// Planners choose paths and split every job's bytes across them. All return the same Plan.
#pragma once

#include <string>
#include <vector>

#include "optiq/paths.hpp"
#include "optiq/plan.hpp"
#include "optiq/routing.hpp"

namespace optiq {

struct PlannerOptions {
  int k = 50;                  // candidate paths per job
  int hop_bound = -1;          // < 0: the topology's diameter
  int maxload = 16;            // heu1: starting limit on paths per link
  Bytes chunk = 64 * 1024;     // heu2: bytes assigned per step
  double epsilon = 0.02;       // mcf: target gap to its proven bound
  Bytes min_path_bytes = 64 * 1024;  // mcf, maxflow: no path carries fewer bytes
  int max_paths = 0;           // mcf, maxflow: paths per job, 0 = no limit
  int max_proxies = -1;        // mcf: forwarding endpoints per path, < 0 = no limit
  double forward_bandwidth = 0;  // mcf: bytes/s a node can relay, 0 = unlimited
  Progress progress = nullptr;
};

// The network's own single route for every job.
Plan plan_default(const Network& topo, const RoutingModel& routing, const std::vector<Job>& jobs);
// Thesis 5.3.1: select paths round-robin under a limit on paths per link; split bytes equally.
Plan plan_heu1(const Network& topo, const RoutingModel& routing, const std::vector<Job>& jobs,
               const CandidateSet& candidates, int maxload);
// Thesis 5.3.2: largest remaining demand first, one chunk at a time onto its least-loaded path.
Plan plan_heu2(const Network& topo, const RoutingModel& routing, const std::vector<Job>& jobs,
               const CandidateSet& candidates, Bytes chunk, const Progress& progress = nullptr);

// Many sources into a few sinks (bui2014): per destination, heaviest first, the maximum flow
// that finishes soonest over the links' remaining capacity, cut into paths per source; each
// job's bytes split by its paths' flow. Paths run over endpoints of a direct network only
// (legs.hpp); elsewhere (switches) it throws optiq::Error. Jobs no path serves take the
// default route, and so does every job if the plan would predict more time than those routes.
// Sets plan.seconds to the plan's predicted (fluid) time.
Plan plan_maxflow(const Network& topo, const RoutingModel& routing, const std::vector<Job>& jobs,
                  Bytes min_path_bytes = 64 * 1024, int max_paths = 0, const Progress& progress = nullptr);

std::vector<std::string> planner_names();
bool planner_needs_candidates(const std::string& name);
// Runs a planner by name ("default", "heu1", "heu2", "mcf", "maxflow"; mcf's hop bound < 0 means none). Candidate paths are generated unless `candidates` is given.
Plan make_plan(const std::string& name, const Network& topo, const RoutingModel& routing,
               const std::vector<Job>& jobs, const PlannerOptions& options, const CandidateSet* candidates = nullptr);

}  // namespace optiq
