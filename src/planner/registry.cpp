// The core's planners by name: the one place a planner is registered (docs/architecture.md).
#include <algorithm>

#include "optiq/core/error.hpp"
#include "optiq/core/mcf.hpp"
#include "optiq/core/metrics.hpp"
#include "optiq/core/planner.hpp"

namespace optiq {

namespace {

struct Registered {
  const char* name;
  bool needs_candidates;
  bool takes_preload;  // plans behind bytes other classes committed (PlannerOptions::link_preload)
  PlanResult (*run)(const Network&, const RoutingModel&, const std::vector<Job>&, const PlannerOptions&,
                    const CandidateSet*);
};

PlanResult unbounded(const Network& topo, Plan plan) {
  PlanResult r;
  r.plan_seconds = compute_metrics(plan, topo).predicted_seconds;
  r.plan = std::move(plan);
  return r;
}

const std::vector<Registered>& registry() {
  static const std::vector<Registered> planners = {
      {"default", false, true,
       [](const Network& t, const RoutingModel& r, const std::vector<Job>& j, const PlannerOptions&,
          const CandidateSet*) { return unbounded(t, plan_default(t, r, j)); }},
      {"heu1", true, false,
       [](const Network& t, const RoutingModel& r, const std::vector<Job>& j, const PlannerOptions& o,
          const CandidateSet* c) { return unbounded(t, plan_heu1(t, r, j, *c, o.maxload)); }},
      {"heu2", true, true,
       [](const Network& t, const RoutingModel& r, const std::vector<Job>& j, const PlannerOptions& o,
          const CandidateSet* c) { return unbounded(t, plan_heu2(t, r, j, *c, o.heu2_chunk, o.progress, o.link_preload)); }},
      {"mcf", false, true,
       [](const Network& t, const RoutingModel& r, const std::vector<Job>& j, const PlannerOptions& o,
          const CandidateSet*) { return plan_mcf(t, r, j, o); }},
      {"maxflow", false, false,
       [](const Network& t, const RoutingModel& r, const std::vector<Job>& j, const PlannerOptions& o,
          const CandidateSet*) { return unbounded(t, plan_maxflow(t, r, j, o)); }},
  };
  return planners;
}

const Registered& find(const std::string& name) {
  for (const auto& p : registry())
    if (name == p.name) return p;
  std::string known;
  for (const auto& p : registry()) known += (known.empty() ? "" : ", ") + std::string(p.name);
  throw Error("unknown planner '" + name + "' (known: " + known + ")");
}

}  // namespace

std::vector<std::string> planner_names() {
  std::vector<std::string> names;
  for (const auto& p : registry()) names.push_back(p.name);
  return names;
}

bool planner_needs_candidates(const std::string& name) { return find(name).needs_candidates; }

PlanResult make_plan(const std::string& name, const Network& topo, const RoutingModel& routing,
                     const std::vector<Job>& jobs, const PlannerOptions& options, const CandidateSet* candidates) {
  const Registered& planner = find(name);
  check_planner_options(options);
  total_bytes(jobs);  // every sum a planner forms is part of this one: refuse what overflows it
  if (!options.link_preload.empty()) {
    if (!planner.takes_preload)
      throw Error(std::string("planner ") + planner.name + " cannot plan behind other classes' bytes (use heu2, mcf, "
                  "opt or optimal)");
    if (options.link_preload.size() != static_cast<std::size_t>(topo.num_links()))
      throw Error("link preload has " + std::to_string(options.link_preload.size()) + " entries for " +
                  std::to_string(topo.num_links()) + " links");
  }
  CandidateSet generated;
  if (planner.needs_candidates && !candidates) {
    generated = generate_candidates(topo, routing, jobs, options.k, options.hop_bound, options.progress);
    candidates = &generated;
  }
  PlanResult result = planner.run(topo, routing, jobs, options, candidates);
  if (!options.link_preload.empty()) result.plan_seconds = preloaded_seconds(result.plan, topo, options.link_preload);
  return result;
}

}  // namespace optiq
