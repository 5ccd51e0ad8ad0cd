#include "common.hpp"
#include "optiq/planner.hpp"

namespace optiq {

Plan plan_default(const Network& topo, const RoutingModel& routing, const std::vector<Job>& jobs) {
  Plan plan = detail::empty_plan(topo, routing, "default", jobs);
  for (JobPlan& jp : plan.jobs)
    if (jp.job.bytes > 0) jp.paths.push_back({routing.route(jp.job.src, jp.job.dst), jp.job.bytes});
  return plan;
}

}  // namespace optiq
