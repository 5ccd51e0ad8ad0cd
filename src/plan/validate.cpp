#include "optiq/error.hpp"
#include "optiq/plan.hpp"

namespace optiq {

void validate_plan(const Plan& plan, const Topology& topo) {
  for (std::size_t j = 0; j < plan.jobs.size(); ++j) {
    const JobPlan& jp = plan.jobs[j];
    const std::string where = "job " + std::to_string(j) + " (" + std::to_string(jp.job.src) + "->" +
                              std::to_string(jp.job.dst) + ")";
    if (!topo.contains(jp.job.src) || !topo.contains(jp.job.dst))
      throw Error(where + ": node outside the topology (0.." + std::to_string(topo.num_nodes() - 1) + ")");
    Bytes sum = 0;
    for (std::size_t p = 0; p < jp.paths.size(); ++p) {
      const PathShare& share = jp.paths[p];
      NodeId at = jp.job.src;
      for (LinkId l : share.links) {
        if (!topo.link_exists(l))
          throw Error(where + ", path " + std::to_string(p) + ": link " + std::to_string(l) + " does not exist");
        if (topo.link_src(l) != at)
          throw Error(where + ", path " + std::to_string(p) + ": link " + std::to_string(l) + " does not start at node " +
                      std::to_string(at));
        at = topo.link_dst(l);
      }
      if (at != jp.job.dst)
        throw Error(where + ", path " + std::to_string(p) + ": ends at node " + std::to_string(at));
      if (sum + share.bytes < sum) throw Error(where + ": path bytes overflow");
      sum += share.bytes;
    }
    if (sum != jp.job.bytes)
      throw Error(where + ": paths carry " + std::to_string(sum) + " bytes, the job has " +
                  std::to_string(jp.job.bytes));
  }
}


}  // namespace optiq
