// maxflow: many sources into a few sinks (bui2014), one destination at a time, heaviest first.
// Each destination's jobs get the flow that finishes soonest over what earlier destinations
// left on the links (sink_flow.hpp); the flow is cut into paths per source and each job's
// bytes split across them in proportion. Greedy across destinations: an earlier destination
// never gives capacity back to a later one (docs/planners.md, "maxflow").
#include <algorithm>
#include <map>

#include "planner/common.hpp"
#include "optiq/core/legs.hpp"
#include "optiq/core/metrics.hpp"
#include "optiq/core/planner.hpp"
#include "planner/sink_flow.hpp"

namespace optiq {

namespace {

// The paths a job keeps: the heaviest, at most `max_paths` (0: any number), dropping the
// lightest while its share of `bytes` would fall below `min_path_bytes`; the survivors split
// the bytes in proportion to their flow. One path is always kept.
std::vector<PathShare> share_bytes(Bytes bytes, const std::vector<detail::FlowPath>& paths, Bytes min_path_bytes,
                                   int max_paths) {
  std::size_t keep = paths.size();
  if (max_paths > 0) keep = std::min(keep, static_cast<std::size_t>(max_paths));
  double kept = 0;
  for (std::size_t p = 0; p < keep; ++p) kept += paths[p].bytes;
  while (keep > 1 && static_cast<double>(bytes) * (paths[keep - 1].bytes / kept) < static_cast<double>(min_path_bytes))
    kept -= paths[--keep].bytes;
  std::vector<double> shares;
  for (std::size_t p = 0; p < keep; ++p) shares.push_back(paths[p].bytes);
  // The merge only catches what whole-byte rounding pushed below the minimum.
  const auto split = merge_small_parts(split_by_shares(bytes, shares), min_path_bytes);
  std::vector<PathShare> out;
  for (std::size_t p = 0; p < keep; ++p)
    if (split[p] > 0) out.push_back({paths[p].links, split[p]});
  return out;
}

void add_load(const PathShare& share, std::vector<double>& load) {
  for (LinkId l : share.links) load[l] += static_cast<double>(share.bytes);
}

}  // namespace

Plan plan_maxflow(const Network& topo, const RoutingModel& routing, const std::vector<Job>& jobs,
                  const PlannerOptions& options) {
  const Bytes min_path_bytes = options.min_path_bytes;
  const int max_paths = options.max_paths;
  const Progress& progress = options.progress;
  check_planner_options(options);
  // Asked of the network directly: Legs would build an overlay's tables to find out.
  bool switched = false;
  for (NodeId v = 0; v < topo.num_vertices(); ++v) switched = switched || topo.kind(v) == VertexKind::Switch;
  if (switched)
    throw Error("maxflow needs a network without switches (a torus, BG/Q with its I/O side, a switchless graph): '" +
                topo.spec() + "' has switches; plan it with mcf or heu2");
  if (!links_are_legs(topo, routing))
    throw Error("maxflow needs every link to be the default route between its two ends: routing '" + routing.name() +
                "' on '" + topo.spec() + "' routes around some; plan it with mcf or heu2");
  Plan plan = detail::empty_plan(topo, routing, "maxflow", jobs);

  // One commodity per destination; within it, one source per sending vertex (jobs repeating a
  // pair share its paths).
  std::map<NodeId, std::map<NodeId, std::vector<std::size_t>>> by_sink;
  std::map<NodeId, Bytes> sink_bytes;
  std::vector<double> load(topo.num_links(), 0.0);
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const Job& job = jobs[j];
    if (job.bytes == 0) continue;
    if (job.src == job.dst) {  // no link to share: the default (empty) route
      plan.jobs[j].paths.push_back({routing.route(job.src, job.dst), job.bytes});
      continue;
    }
    by_sink[job.dst][job.src].push_back(j);
    sink_bytes[job.dst] += job.bytes;
  }
  std::vector<NodeId> order;
  for (const auto& [sink, bytes] : sink_bytes) order.push_back(sink);
  std::stable_sort(order.begin(), order.end(), [&](NodeId a, NodeId b) { return sink_bytes.at(a) > sink_bytes.at(b); });

  std::size_t done = 0;
  for (NodeId sink : order) {
    const auto& senders = by_sink[sink];
    std::vector<detail::SourceDemand> sources;
    for (const auto& [src, members] : senders) {
      Bytes bytes = 0;
      for (std::size_t j : members) bytes += jobs[j].bytes;
      sources.push_back({src, static_cast<double>(bytes)});
    }
    const detail::SinkFlow flow = detail::soonest_sink_flow(topo, sink, sources, load);
    std::size_t s = 0;
    for (const auto& [src, members] : senders) {
      for (std::size_t j : members) {
        auto& paths = plan.jobs[j].paths;
        if (flow.paths[s].empty())  // no path of endpoints reaches the sink: what the network does
          paths.push_back({routing.route(src, sink), jobs[j].bytes});
        else
          paths = share_bytes(jobs[j].bytes, flow.paths[s], min_path_bytes, max_paths);
        for (const PathShare& share : paths) add_load(share, load);
      }
      ++s;
    }
    if (progress) progress("maxflow destinations", ++done, order.size());
  }
  // Greedy across destinations can, rarely, end above the network's own routes (1.5% on one of
  // 240 random patterns on small tori): then the plan is those routes.
  plan.seconds = compute_metrics(plan, topo).predicted_seconds;
  Plan routes = plan_default(topo, routing, jobs);
  routes.seconds = compute_metrics(routes, topo).predicted_seconds;
  if (routes.seconds < plan.seconds) {
    routes.planner = plan.planner;
    return routes;
  }
  return plan;
}

}  // namespace optiq
