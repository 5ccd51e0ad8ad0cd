// What a plan does to the network, computed from the plan and the topology alone (DESIGN §2).
#pragma once

#include <cstddef>
#include <vector>

#include "optiq/core/plan.hpp"

namespace optiq {

struct Metrics {
  std::size_t paths = 0;
  std::size_t paths_per_job_max = 0;
  double paths_per_job_avg = 0;   // over jobs that move bytes
  std::size_t paths_per_link_max = 0;
  double paths_per_link_avg = 0;  // over links that carry at least one path
  std::size_t links_used = 0;
  Bytes link_bytes_max = 0;
  std::size_t hops_max = 0;
  double hops_avg = 0;  // over paths
  Bytes total_bytes = 0;
  double predicted_seconds = 0;     // max over links of bytes / capacity (the fluid bound)
  double predicted_throughput = 0;  // total bytes / predicted seconds; 0 when nothing crosses a link
};

// Bytes crossing every link (index = link id).
std::vector<Bytes> link_loads(const Plan& plan, const Network& topo);
// Number of paths crossing every link.
std::vector<std::size_t> link_path_counts(const Plan& plan, const Network& topo);

Metrics compute_metrics(const Plan& plan, const Network& topo);

// The plan's fluid time behind bytes already committed to the links: max over links of
// (preload[l] + the plan's bytes on l) / capacity. An empty preload is none.
double preloaded_seconds(const Plan& plan, const Network& topo, const std::vector<double>& preload);

// The relaying rule of the planners that model forwarding capacity (mcf, opt, optimal): every
// vertex a path passes through (not its ends) relays its bytes, but switches, which forward in
// hardware. The vertices of one path that relay, in order:
std::vector<NodeId> relay_vertices(const Network& topo, const LinkPath& links);
// Bytes every vertex relays under that rule (index = vertex id).
std::vector<Bytes> relay_loads(const Plan& plan, const Network& topo);
inline bool relays_in_software(const Network& topo, NodeId v) { return topo.is_terminal(v); }

// Bytes every vertex copies when the runtime executes the plan with a rank on every endpoint:
// each path's bytes at each of its junctions (include/optiq/core/legs.hpp), where software forwards;
// not at the vertices a leg crosses in hardware. Index = vertex id.
std::vector<Bytes> copy_loads(const Plan& plan, const Network& topo);

}  // namespace optiq
