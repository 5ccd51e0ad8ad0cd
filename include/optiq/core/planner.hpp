// Planners choose paths and split every job's bytes across them. make_plan runs any of the
// core's planners by name with one options struct (optiq/options.hpp) and returns one result type.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "optiq/core/options.hpp"
#include "optiq/core/paths.hpp"
#include "optiq/core/plan.hpp"
#include "optiq/core/routing.hpp"

namespace optiq {

// What a planner returns: its plan and, for the planners that prove one, a bound.
struct PlanResult {
  Plan plan;
  bool bounded = false;       // true when bound_seconds is a proven lower bound
  double bound_seconds = 0;   // on the fluid time of any plan, in the planner's model
  double plan_seconds = 0;    // the plan's fluid time in the planner's model (links, and relaying if limited)
  std::map<std::string, double> extras;  // planner-specific figures (mcf: iterations, flow_seconds, ...)
  double gap() const { return bounded && plan_seconds > 0 ? std::max(0.0, 1.0 - bound_seconds / plan_seconds) : 0.0; }
};

// The network's own single route for every job.
Plan plan_default(const Network& topo, const RoutingModel& routing, const std::vector<Job>& jobs);
// Thesis 5.3.1: select paths round-robin under a limit on paths per link; split bytes equally.
Plan plan_heu1(const Network& topo, const RoutingModel& routing, const std::vector<Job>& jobs,
               const CandidateSet& candidates, int maxload);
// Thesis 5.3.2: largest remaining demand first, one chunk at a time onto its least-loaded path;
// links start with `preload` bytes (PlannerOptions::link_preload) when given.
Plan plan_heu2(const Network& topo, const RoutingModel& routing, const std::vector<Job>& jobs,
               const CandidateSet& candidates, Bytes chunk, const Progress& progress = nullptr,
               const std::vector<double>& preload = {});

// Many sources into a few sinks (bui2014): per destination, heaviest first, the maximum flow
// that finishes soonest over the links' remaining capacity, cut into paths per source; each
// job's bytes split by its paths' flow (options.min_path_bytes, options.max_paths). Paths run
// over endpoints of a direct network only (legs.hpp); elsewhere (switches) it throws
// optiq::Error. Jobs no path serves take the default route, and so does every job if the plan
// would predict more time than those routes. Sets plan.seconds to the plan's predicted time.
Plan plan_maxflow(const Network& topo, const RoutingModel& routing, const std::vector<Job>& jobs,
                  const PlannerOptions& options);

// The core's planners: "default", "heu1", "heu2", "mcf", "maxflow" (Python adds the LP
// planners opt and optimal, python/optiq/lp).
std::vector<std::string> planner_names();
bool planner_needs_candidates(const std::string& name);
// Runs a planner by name. Candidate paths are generated unless `candidates` is given.
PlanResult make_plan(const std::string& name, const Network& topo, const RoutingModel& routing,
                     const std::vector<Job>& jobs, const PlannerOptions& options = PlannerOptions(),
                     const CandidateSet* candidates = nullptr);

}  // namespace optiq
