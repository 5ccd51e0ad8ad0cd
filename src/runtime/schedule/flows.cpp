// Plans become flows: where along each path the bytes are copied, and by which rank.
#include "optiq/core/error.hpp"
#include "optiq/core/legs.hpp"
#include "optiq/core/paths.hpp"
#include "optiq/core/schedule.hpp"

namespace optiq {

// Copies go where the path's legs meet (include/optiq/core/legs.hpp), and only to occupied nodes.
std::vector<std::size_t> forwarding_points(const Legs& legs, NodeId src, const LinkPath& path,
                                           const RankMap& placement, bool* off_plan) {
  std::vector<std::size_t> points;
  *off_plan = !leg_junctions(legs, src, path, [&](NodeId v) { return placement.occupied(v); }, points);
  return points;
}

std::vector<Flow> make_flows(const Network& topo, const RoutingModel& routing, const RankMap& placement,
                             const std::vector<RankJob>& jobs, const Plan& plan, const std::vector<bool>& planned) {
  OPTIQ_CHECK(plan.jobs.size() == jobs.size() && planned.size() == jobs.size(), "one plan entry per job");
  const Legs legs(topo, routing);
  std::vector<Flow> flows;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const RankJob& job = jobs[i];
    if (job.bytes == 0) continue;
    if (job.src == job.dst) {
      flows.push_back({i, job.offset, job.bytes, {job.src}, false});
      continue;
    }
    const NodeId a = placement.node_of(job.src), b = placement.node_of(job.dst);
    if (!planned[i] || a == b) {
      flows.push_back({i, job.offset, job.bytes, {job.src, job.dst}, false});
      continue;
    }
    const JobPlan& jp = plan.jobs[i];
    OPTIQ_CHECK(jp.job.src == a && jp.job.dst == b && jp.job.bytes == job.bytes, "plan entry matches its job");
    Bytes offset = job.offset;
    for (std::size_t p = 0; p < jp.paths.size(); ++p) {
      const PathShare& share = jp.paths[p];
      if (share.bytes == 0) continue;
      bool off_plan = false;
      const auto points = forwarding_points(legs, a, share.links, placement, &off_plan);
      const std::vector<NodeId> nodes = path_nodes(topo, a, share.links);
      Flow flow{i, offset, share.bytes, {job.src}, off_plan};
      for (std::size_t k : points) {
        // Spread forwarding over the node's ranks the same way on every rank: by source and path.
        const auto& here = placement.ranks_on(nodes[k]);
        flow.hops.push_back(here[(static_cast<std::size_t>(job.src) + p) % here.size()]);
      }
      flow.hops.push_back(job.dst);
      flows.push_back(std::move(flow));
      offset += share.bytes;
    }
    OPTIQ_CHECK(offset == job.offset + job.bytes, "path shares cover the job");
  }
  return flows;
}

}  // namespace optiq
