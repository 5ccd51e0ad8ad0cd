#include <algorithm>

#include "optiq/error.hpp"
#include "optiq/mcf.hpp"
#include "optiq/planner.hpp"

namespace optiq {

std::vector<std::string> planner_names() { return {"default", "heu1", "heu2", "mcf", "maxflow"}; }

bool planner_needs_candidates(const std::string& name) { return name == "heu1" || name == "heu2"; }

Plan make_plan(const std::string& name, const Network& topo, const RoutingModel& routing,
               const std::vector<Job>& jobs, const PlannerOptions& options, const CandidateSet* candidates) {
  const auto names = planner_names();
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    std::string known;
    for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
    throw Error("unknown planner '" + name + "' (known: " + known + ")");
  }
  total_bytes(jobs);  // every sum a planner forms is part of this one: refuse what overflows it
  if (name == "default") return plan_default(topo, routing, jobs);
  if (name == "maxflow") return plan_maxflow(topo, routing, jobs, options.min_path_bytes, options.max_paths, options.progress);
  if (name == "mcf") {
    McfOptions m;
    m.epsilon = options.epsilon;
    m.hop_bound = options.hop_bound;
    m.min_path_bytes = options.min_path_bytes;
    m.max_paths = options.max_paths;
    m.max_proxies = options.max_proxies;
    m.forward_bandwidth = options.forward_bandwidth;
    m.progress = options.progress;
    return plan_mcf(topo, routing, jobs, m).plan;
  }
  CandidateSet generated;
  if (!candidates) {
    generated = generate_candidates(topo, routing, jobs, options.k, options.hop_bound, options.progress);
    candidates = &generated;
  }
  if (name == "heu1") return plan_heu1(topo, routing, jobs, *candidates, options.maxload);
  return plan_heu2(topo, routing, jobs, *candidates, options.chunk, options.progress);
}

}  // namespace optiq
