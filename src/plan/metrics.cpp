#include <algorithm>

#include "optiq/core/metrics.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/legs.hpp"
#include "optiq/core/paths.hpp"
#include "optiq/core/routing.hpp"

namespace optiq {

std::vector<Bytes> link_loads(const Plan& plan, const Network& topo) {
  std::vector<Bytes> load(topo.num_links(), 0);
  for (const JobPlan& jp : plan.jobs)
    for (const PathShare& p : jp.paths)
      for (LinkId l : p.links) load[l] += p.bytes;
  return load;
}

std::vector<std::size_t> link_path_counts(const Plan& plan, const Network& topo) {
  std::vector<std::size_t> count(topo.num_links(), 0);
  for (const JobPlan& jp : plan.jobs)
    for (const PathShare& p : jp.paths)
      for (LinkId l : p.links) ++count[l];
  return count;
}

double preloaded_seconds(const Plan& plan, const Network& topo, const std::vector<double>& preload) {
  OPTIQ_CHECK(preload.empty() || preload.size() == static_cast<std::size_t>(topo.num_links()),
              "link preload does not match the network's links");
  const auto loads = link_loads(plan, topo);
  double seconds = 0;
  for (LinkId l = 0; l < topo.num_links(); ++l) {
    const double bytes = static_cast<double>(loads[l]) + (preload.empty() ? 0.0 : preload[l]);
    if (bytes > 0) seconds = std::max(seconds, bytes / topo.capacity(l));
  }
  return seconds;
}

Metrics compute_metrics(const Plan& plan, const Network& topo) {
  Metrics m;
  std::size_t moving_jobs = 0, hop_sum = 0;
  for (const JobPlan& jp : plan.jobs) {
    m.total_bytes += jp.job.bytes;
    m.paths += jp.paths.size();
    m.paths_per_job_max = std::max(m.paths_per_job_max, jp.paths.size());
    if (!jp.paths.empty()) ++moving_jobs;
    for (const PathShare& p : jp.paths) {
      m.hops_max = std::max(m.hops_max, p.links.size());
      hop_sum += p.links.size();
    }
  }
  m.paths_per_job_avg = moving_jobs ? static_cast<double>(m.paths) / moving_jobs : 0.0;
  m.hops_avg = m.paths ? static_cast<double>(hop_sum) / m.paths : 0.0;

  const auto counts = link_path_counts(plan, topo);
  const auto loads = link_loads(plan, topo);
  std::size_t count_sum = 0;
  for (LinkId l = 0; l < topo.num_links(); ++l) {
    if (counts[l] == 0) continue;
    ++m.links_used;
    count_sum += counts[l];
    m.paths_per_link_max = std::max(m.paths_per_link_max, counts[l]);
    m.link_bytes_max = std::max(m.link_bytes_max, loads[l]);
    m.predicted_seconds = std::max(m.predicted_seconds, static_cast<double>(loads[l]) / topo.capacity(l));
  }
  m.paths_per_link_avg = m.links_used ? static_cast<double>(count_sum) / m.links_used : 0.0;
  m.predicted_throughput = m.predicted_seconds > 0 ? static_cast<double>(m.total_bytes) / m.predicted_seconds : 0.0;
  return m;
}

std::vector<NodeId> relay_vertices(const Network& topo, const LinkPath& links) {
  std::vector<NodeId> out;
  for (std::size_t i = 1; i < links.size(); ++i)
    if (relays_in_software(topo, topo.link_src(links[i]))) out.push_back(topo.link_src(links[i]));
  return out;
}

std::vector<Bytes> relay_loads(const Plan& plan, const Network& topo) {
  std::vector<Bytes> relayed(topo.num_vertices(), 0);
  for (const JobPlan& jp : plan.jobs)
    for (const PathShare& share : jp.paths)
      for (NodeId v : relay_vertices(topo, share.links)) relayed[v] += share.bytes;
  return relayed;
}

std::vector<Bytes> copy_loads(const Plan& plan, const Network& topo) {
  const auto routing = make_routing(plan.routing, topo);
  const Legs legs(topo, *routing);
  std::vector<Bytes> copied(topo.num_vertices(), 0);
  std::vector<std::size_t> junctions;
  for (const JobPlan& jp : plan.jobs)
    for (const PathShare& share : jp.paths) {
      if (share.bytes == 0 || share.links.empty()) continue;
      leg_junctions(legs, jp.job.src, share.links, [&](NodeId v) { return legs.can_proxy(v); }, junctions);
      for (std::size_t j : junctions) copied[topo.link_src(share.links[j])] += share.bytes;
    }
  return copied;
}

}  // namespace optiq
