// Plans become flows: where along each path the bytes are copied, and by which rank.
#include "optiq/error.hpp"
#include "optiq/paths.hpp"
#include "optiq/schedule.hpp"

namespace optiq {

namespace {

// Does the stretch nodes[i..j] visit exactly the nodes of the default route between its ends?
bool follows_default_route(const Network& topo, const RoutingModel& routing, const std::vector<NodeId>& nodes,
                           std::size_t i, std::size_t j) {
  const LinkPath route = routing.route(nodes[i], nodes[j]);
  if (route.size() != j - i) return false;
  for (std::size_t k = 0; k < route.size(); ++k)
    if (topo.link_dst(route[k]) != nodes[i + k + 1]) return false;
  return true;
}

// The last index j such that nodes[i..j] is a shortest path. Every routing model routes along
// shortest paths, so no stretch beyond it can be a default route (a model that did not would
// only get extra copies); and a stretch that is not shortest has no shortest extension, so
// one walk finds it.
std::size_t shortest_reach(const Network& topo, const std::vector<NodeId>& nodes, std::size_t i) {
  std::size_t j = i + 1;
  while (j + 1 < nodes.size() && topo.hop_distance(nodes[i], nodes[j + 1]) == static_cast<int>(j + 1 - i)) ++j;
  return j;
}

}  // namespace

// Work grows with the path's length times the topology's diameter, not with the square of its
// length: a plan file may hold simple paths of hundreds of thousands of hops, which the
// planning rank schedules while every other rank waits.
std::vector<std::size_t> forwarding_points(const Network& topo, const RoutingModel& routing, NodeId src,
                                           const LinkPath& path, const Placement& placement, bool* off_plan) {
  const std::vector<NodeId> nodes = path_nodes(topo, src, path);
  const std::size_t h = path.size();
  std::vector<std::size_t> points;
  *off_plan = false;
  std::size_t i = 0;
  while (i < h) {
    // How far the default route follows the path: the default route to a node on the way is
    // the start of the default route beyond it (dimension by dimension, the same way round),
    // so "follows" holds up to some point and not after, and bisection finds it.
    std::size_t lo = i + 1, hi = shortest_reach(topo, nodes, i);  // one hop always follows
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo + 1) / 2;
      if (follows_default_route(topo, routing, nodes, i, mid)) lo = mid;
      else hi = mid - 1;
    }
    // The farthest occupied node up to there. Each candidate is checked again, so a routing
    // model without that property could only cost extra copies, never a stretch off its route.
    std::size_t reach = 0;
    for (std::size_t j = lo; j > i; --j) {
      if (j < h && !placement.occupied(nodes[j])) continue;
      if (j == i + 1 || follows_default_route(topo, routing, nodes, i, j)) {
        reach = j;
        break;
      }
    }
    if (reach == 0) {
      *off_plan = true;  // the path turns at a node without a rank: go straight to the end
      break;
    }
    if (reach < h) points.push_back(reach);
    i = reach;
  }
  return points;
}

std::vector<Flow> make_flows(const Network& topo, const RoutingModel& routing, const Placement& placement,
                             const std::vector<RankJob>& jobs, const Plan& plan, const std::vector<bool>& planned) {
  OPTIQ_CHECK(plan.jobs.size() == jobs.size() && planned.size() == jobs.size(), "one plan entry per job");
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
      const auto points = forwarding_points(topo, routing, a, share.links, placement, &off_plan);
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
