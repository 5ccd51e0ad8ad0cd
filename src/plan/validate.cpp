#include <algorithm>
#include <unordered_set>

#include "optiq/bytes.hpp"
#include "optiq/error.hpp"
#include "optiq/plan.hpp"

namespace optiq {

namespace {

// A path visits each node at most once. A walk that comes back to a node moves no byte a
// shorter path would not, while costing the runtime work per hop (and counting its bytes again
// on every link it repeats); a file could otherwise make one path of any length.
void check_path(const Network& topo, const JobPlan& jp, const PathShare& share, const std::string& where) {
  if (share.links.size() >= static_cast<std::size_t>(topo.num_vertices()))
    throw Error(where + ": " + std::to_string(share.links.size()) + " hops cannot be a simple path in " +
                std::to_string(topo.num_vertices()) + " nodes");
  // Short paths (nearly all) are compared pairwise without allocating; long ones hashed.
  constexpr std::size_t kShort = 24;
  NodeId recent[kShort + 1];
  std::unordered_set<NodeId> seen;
  const bool hashed = share.links.size() > kShort;
  auto visit = [&](NodeId n, std::size_t i) {
    bool again = false;
    if (hashed) {
      again = !seen.insert(n).second;
    } else {
      again = std::find(recent, recent + i, n) != recent + i;
      recent[i] = n;
    }
    if (again) throw Error(where + ": visits node " + std::to_string(n) + " twice");
  };
  if (hashed) seen.reserve(share.links.size() + 1);
  NodeId at = jp.job.src;
  visit(at, 0);
  for (std::size_t i = 0; i < share.links.size(); ++i) {
    const LinkId l = share.links[i];
    if (!topo.has_link(l)) throw Error(where + ": link " + std::to_string(l) + " does not exist");
    if (topo.link_src(l) != at)
      throw Error(where + ": link " + std::to_string(l) + " does not start at node " + std::to_string(at));
    at = topo.link_dst(l);
    visit(at, i + 1);
  }
  if (at != jp.job.dst) throw Error(where + ": ends at node " + std::to_string(at));
}

}  // namespace

void validate_plan(const Plan& plan, const Network& topo) {
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
      check_path(topo, jp, jp.paths[p], path);
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
