#include "planner/common.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/planner.hpp"

namespace optiq {

namespace {

// A plan's path is a walk from its source to its destination. A routing model may return links
// that are not one (SimGrid's dragonfly route within a group from a chassis other than 0): such
// a route cannot be planned with, and is refused here rather than written into a plan.
void check_walk(const Network& topo, const RoutingModel& routing, const Job& job, const LinkPath& route) {
  NodeId at = job.src;
  for (LinkId l : route) {
    if (topo.link_src(l) != at)
      throw Error("routing '" + routing.name() + "': the route from " + std::to_string(job.src) + " to " +
                  std::to_string(job.dst) + " is not a path (link " + topo.link_name(l) + " does not leave vertex " +
                  std::to_string(at) + "); plan with --routing " + topo.default_routing() + " (docs/model.md)");
    at = topo.link_dst(l);
  }
  OPTIQ_CHECK(at == job.dst, "a default route ends at its destination");
}

}  // namespace

Plan plan_default(const Network& topo, const RoutingModel& routing, const std::vector<Job>& jobs) {
  Plan plan = detail::empty_plan(topo, routing, "default", jobs);
  for (JobPlan& jp : plan.jobs)
    if (jp.job.bytes > 0) {
      LinkPath route = routing.route(jp.job.src, jp.job.dst);
      check_walk(topo, routing, jp.job, route);
      jp.paths.push_back({std::move(route), jp.job.bytes});
    }
  return plan;
}

}  // namespace optiq
