#include <unordered_set>

#include "optiq/core/bytes.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/legs.hpp"
#include "optiq/core/paths.hpp"
#include "optiq/core/plan.hpp"
#include "optiq/core/routing.hpp"

namespace optiq {

namespace {

// A path runs src -> dst over existing, adjacent links and is a chain of default-route legs
// joined at distinct endpoints (include/optiq/core/legs.hpp). A leg may pass a switch or an
// endpoint another leg passes too; the junctions bound the path to fewer legs than the network
// has endpoints, and the hop count below bounds the work of checking it.
void check_path(const Legs& legs, const JobPlan& jp, const PathShare& share, const std::string& where) {
  const Network& topo = legs.network();
  if (share.links.size() > static_cast<std::size_t>(topo.num_links()))
    throw Error(where + ": " + std::to_string(share.links.size()) + " hops, more than the network's " +
                std::to_string(topo.num_links()) + " links");
  NodeId at = jp.job.src;
  for (std::size_t i = 0; i < share.links.size(); ++i) {
    const LinkId l = share.links[i];
    if (!topo.has_link(l)) throw Error(where + ": link " + std::to_string(l) + " does not exist");
    if (topo.link_src(l) != at)
      throw Error(where + ": link " + std::to_string(l) + " does not start at node " + std::to_string(at));
    at = topo.link_dst(l);
  }
  if (at != jp.job.dst) throw Error(where + ": ends at node " + std::to_string(at));
  std::vector<std::size_t> junctions;
  std::size_t stuck = 0;
  if (!leg_junctions(legs, jp.job.src, share.links, [&](NodeId v) { return legs.can_proxy(v); }, junctions, &stuck)) {
    const std::vector<NodeId> nodes = path_nodes(topo, jp.job.src, share.links);
    throw Error(where + ": no chain of '" + legs.routing().name() + "' routes realizes it: from node " +
                std::to_string(nodes[stuck]) + " (hop " + std::to_string(stuck) +
                ") no default route follows it to an endpoint that could forward");
  }
  if (junctions.empty()) return;
  const std::vector<NodeId> nodes = path_nodes(topo, jp.job.src, share.links);
  std::unordered_set<NodeId> seen{jp.job.src, jp.job.dst};
  for (std::size_t j : junctions)
    if (!seen.insert(nodes[j]).second)
      throw Error(where + ": forwards at node " + std::to_string(nodes[j]) + " twice, or at an end of its job");
}

}  // namespace

void validate_plan(const Plan& plan, const Network& topo) {
  const auto routing = make_routing(plan.routing, topo);
  const Legs legs(topo, *routing);
  Bytes total = 0;
  for (std::size_t j = 0; j < plan.jobs.size(); ++j) {
    const JobPlan& jp = plan.jobs[j];
    const std::string where = "job " + std::to_string(j) + " (" + std::to_string(jp.job.src) + "->" +
                              std::to_string(jp.job.dst) + ")";
    if (!topo.contains(jp.job.src) || !topo.contains(jp.job.dst))
      throw Error(where + ": node outside the topology (0.." + std::to_string(topo.num_vertices() - 1) + ")");
    Bytes sum = 0;
    for (std::size_t p = 0; p < jp.paths.size(); ++p) {
      const std::string path = where + ", path " + std::to_string(p);
      check_path(legs, jp, jp.paths[p], path);
      sum = checked_add(sum, jp.paths[p].bytes, path + ": the paths' bytes add up to more");
    }
    if (sum != jp.job.bytes)
      throw Error(where + ": paths carry " + std::to_string(sum) + " bytes, the job has " +
                  std::to_string(jp.job.bytes));
    // Every per-link, per-pair and per-rank sum a plan implies is part of this one.
    total = checked_add(total, jp.job.bytes, where + ": the plan's bytes add up to more");
  }
}

}  // namespace optiq
