// File domains, the jobs a placement implies, and the time of both phases pipelined.
#include <algorithm>
#include <map>

#include "optiq/core/aggregation.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/metrics.hpp"

namespace optiq {

Domains file_domains(const IoGroup& group, int aggregators) {
  if (aggregators < 1) throw Error("need at least one aggregator, got " + std::to_string(aggregators));
  Domains d;
  const Bytes size = group.file_bytes();
  if (size == 0) return d;
  d.span = (size + aggregators - 1) / aggregators;
  const int count = static_cast<int>((size + d.span - 1) / d.span);
  d.total.assign(count, 0);
  d.bytes.assign(count, std::vector<Bytes>(group.nodes.size(), 0));
  for (std::size_t i = 0; i < group.nodes.size(); ++i) {
    for (const Extent& e : group.extents[i]) {
      Bytes at = e.offset;
      const Bytes end = e.offset + e.bytes;
      while (at < end) {
        const std::size_t k = at / d.span;
        const Bytes piece = std::min(end, (k + 1) * d.span) - at;
        d.bytes[k][i] += piece;
        d.total[k] += piece;
        at += piece;
      }
    }
  }
  return d;
}

namespace {

void add_group_jobs(const IoGroup& group, const Domains& domains, const AggregatorNodes& placement,
                    std::map<std::pair<NodeId, NodeId>, Bytes>& to_aggregators, std::vector<Job>& io) {
  if (static_cast<int>(placement.size()) != domains.count())
    throw Error("a placement for I/O node " + std::to_string(group.io) + " names " + std::to_string(placement.size()) +
                " aggregators for " + std::to_string(domains.count()) + " domains");
  for (int k = 0; k < domains.count(); ++k) {
    if (domains.total[k] == 0) continue;
    const NodeId a = placement[k];
    if (a < 0) throw Error("domain " + std::to_string(k) + " of I/O node " + std::to_string(group.io) + " has no aggregator");
    for (std::size_t i = 0; i < group.nodes.size(); ++i)
      if (domains.bytes[k][i] > 0 && group.nodes[i] != a) to_aggregators[{group.nodes[i], a}] += domains.bytes[k][i];
    io.push_back({a, group.io, domains.total[k]});
  }
}

// Past a billion rounds the pipelined time no longer changes; the cap keeps the count an int.
int rounds_of(const Domains& d, Bytes buffer) {
  constexpr Bytes kMaxRounds = 1000000000;
  return d.count() == 0 ? 0 : static_cast<int>(std::min(kMaxRounds, d.span / buffer + (d.span % buffer != 0)));
}

double predicted(const std::string& planner, const Network& net, const RoutingModel& routing,
                 const std::vector<Job>& jobs, const PlannerOptions& options) {
  if (jobs.empty()) return 0;
  PlannerOptions plan_only = options;
  plan_only.prove_bound = false;  // the plan's time is all this needs
  return compute_metrics(make_plan(planner, net, routing, jobs, plan_only).plan, net).predicted_seconds;
}

}  // namespace

AggregationJobs aggregation_jobs(const std::vector<IoGroup>& groups, const std::vector<AggregatorNodes>& placements,
                                 const AggregationOptions& options) {
  if (groups.size() != placements.size()) throw Error("one placement per I/O group is needed");
  if (options.buffer == 0) throw Error("the aggregation buffer must hold at least one byte");
  AggregationJobs out;
  std::map<std::pair<NodeId, NodeId>, Bytes> to_aggregators;  // ordered: the same jobs in the same order every time
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const Domains d = file_domains(groups[g], options.aggregators);
    add_group_jobs(groups[g], d, placements[g], to_aggregators, out.io);
    out.rounds = std::max(out.rounds, rounds_of(d, options.buffer));
  }
  for (const auto& [pair, bytes] : to_aggregators) out.aggregation.push_back({pair.first, pair.second, bytes});
  return out;
}

double pipelined_seconds(double aggregation_seconds, double io_seconds, int rounds) {
  if (rounds <= 1) return aggregation_seconds + io_seconds;
  const double n = rounds;
  return (aggregation_seconds + io_seconds) / n + (n - 1) / n * std::max(aggregation_seconds, io_seconds);
}

AggregationTimes aggregation_times(const std::string& planner, const Network& net, const RoutingModel& routing,
                                   const IoGroup& group, const AggregatorNodes& placement,
                                   const AggregationOptions& options) {
  const AggregationJobs jobs = aggregation_jobs({group}, {placement}, options);
  AggregationTimes t;
  t.aggregation = predicted(planner, net, routing, jobs.aggregation, options.planner);
  t.io = predicted(planner, net, routing, jobs.io, options.planner);
  t.total = pipelined_seconds(t.aggregation, t.io, jobs.rounds);
  return t;
}

}  // namespace optiq
