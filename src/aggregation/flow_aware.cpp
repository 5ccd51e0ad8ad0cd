// flow-aware placement: the placement whose two phases, both planned by mcf, finish soonest
// (pipelined over the buffer's rounds). The other strategies judge a node by hops and bytes
// alone; this one asks the multi-path planner what each choice would really cost, so it sees
// links that several partitions share and paths a default route would not take.
#include <algorithm>
#include <functional>

#include "optiq/core/aggregation.hpp"
#include "optiq/core/error.hpp"

namespace optiq {

namespace {

constexpr const char* kPlannerInTheLoop = "mcf";
constexpr int kSweeps = 2;

struct Scored {
  AggregatorNodes placement;
  double total = 0;
};

double score(const Network& net, const RoutingModel& routing, const IoGroup& group, const AggregatorNodes& p,
             const AggregationOptions& options) {
  return aggregation_times(kPlannerInTheLoop, net, routing, group, p, options).total;
}

// Every placement of domains onto distinct nodes holding bytes of them, depth first.
void enumerate(const std::vector<std::vector<NodeId>>& holders, std::size_t k, AggregatorNodes& p, std::vector<NodeId>& used,
               const std::function<void(const AggregatorNodes&)>& visit) {
  if (k == holders.size()) return visit(p);
  if (holders[k].empty()) return enumerate(holders, k + 1, p, used, visit);  // an empty domain
  for (NodeId n : holders[k]) {
    if (std::find(used.begin(), used.end(), n) != used.end()) continue;
    p[k] = n;
    used.push_back(n);
    enumerate(holders, k + 1, p, used, visit);
    used.pop_back();
  }
  p[k] = -1;
}

}  // namespace

AggregatorNodes place_flow_aware(const Network& net, const RoutingModel& routing, const IoGroup& group,
                           const AggregationOptions& options) {
  const Domains d = file_domains(group, options.aggregators);
  // Start from the best the other strategies find, so flow-aware is never worse than any of them.
  Scored best;
  bool have = false;
  for (const std::string& name : placement_names()) {
    if (name == "flow-aware") continue;
    AggregatorNodes p = place_aggregators(name, net, routing, group, options);
    const double t = score(net, routing, group, p, options);
    if (!have || t < best.total) best = {std::move(p), t}, have = true;
  }
  std::vector<std::vector<NodeId>> holders(d.count());
  long double combinations = 1;
  for (int k = 0; k < d.count(); ++k) {
    for (std::size_t i = 0; i < group.nodes.size(); ++i)
      if (d.bytes[k][i] > 0) holders[k].push_back(group.nodes[i]);
    if (!holders[k].empty()) combinations *= holders[k].size();
  }
  const auto report = [&](std::size_t done, std::size_t total) {
    if (options.progress) options.progress("flow-aware placements tried", done, total);
  };
  if (combinations <= options.exhaustive_limit) {
    AggregatorNodes p(d.count(), -1);
    std::vector<NodeId> used;
    std::size_t tried = 0;
    enumerate(holders, 0, p, used, [&](const AggregatorNodes& candidate) {
      const double t = score(net, routing, group, candidate, options);
      if (t < best.total) best = {candidate, t};
      report(++tried, static_cast<std::size_t>(combinations));
    });
    return best.placement;
  }
  std::size_t per_sweep = 0, tried = 0;
  for (const auto& h : holders) per_sweep += h.size();
  // Too many to try: move one domain's aggregator at a time to whichever holder of the domain
  // lowers the total most, for a fixed number of sweeps.
  for (int sweep = 0; sweep < kSweeps; ++sweep) {
    bool improved = false;
    for (int k = 0; k < d.count(); ++k) {
      for (NodeId n : holders[k]) {
        if (std::find(best.placement.begin(), best.placement.end(), n) != best.placement.end()) continue;
        AggregatorNodes p = best.placement;
        p[k] = n;
        const double t = score(net, routing, group, p, options);
        if (t < best.total) best = {std::move(p), t}, improved = true;
        report(++tried, kSweeps * per_sweep);
      }
    }
    if (!improved) break;
  }
  return best.placement;
}

}  // namespace optiq
