// Aggregator placement: greedy, shortest, longest, romio-bgq and topology-aware. Each picks,
// domain by domain, the node that minimises its own cost among the nodes holding bytes of the
// domain (its partition) that serve no other domain yet; flow-aware is in flow_aware.cpp.
#include <algorithm>
#include <functional>
#include <limits>
#include <map>

#include "optiq/core/aggregation.hpp"
#include "optiq/core/error.hpp"

namespace optiq {

AggregatorNodes place_flow_aware(const Network& net, const RoutingModel& routing, const IoGroup& group,
                           const AggregationOptions& options);  // flow_aware.cpp

std::vector<std::string> placement_names() {
  return {"greedy", "shortest", "longest", "romio-bgq", "topology-aware", "flow-aware"};
}

namespace {

std::size_t hops(const RoutingModel& routing, NodeId a, NodeId b) { return a == b ? 0 : routing.route(a, b).size(); }

// The slowest link on the default route: B_{a->b} of tessier2016.
double route_bandwidth(const Network& net, const RoutingModel& routing, NodeId a, NodeId b) {
  double bw = std::numeric_limits<double>::infinity();
  for (LinkId l : routing.route(a, b)) bw = std::min(bw, net.capacity(l));
  return bw;
}

// For each domain in order, the free node of least cost among those holding bytes of it, or
// among all free nodes of the group when every holder already serves a domain. Ties: the
// lowest node id.
AggregatorNodes per_domain(const IoGroup& group, const Domains& d, const std::function<double(int, std::size_t)>& cost) {
  AggregatorNodes p(d.count(), -1);
  std::vector<char> taken(group.nodes.size(), 0);
  for (int k = 0; k < d.count(); ++k) {
    if (d.total[k] == 0) continue;
    for (int pass = 0; pass < 2 && p[k] < 0; ++pass) {
      double best_cost = 0;
      std::size_t best = 0;
      for (std::size_t i = 0; i < group.nodes.size(); ++i) {
        if (taken[i] || (pass == 0 && d.bytes[k][i] == 0)) continue;
        const double c = cost(k, i);
        if (p[k] < 0 || c < best_cost) p[k] = group.nodes[i], best_cost = c, best = i;
      }
      if (p[k] >= 0) taken[best] = 1;
    }
  }
  return p;
}

// Domains go to ROMIO's BG/Q list in its order; when the list is shorter than the domains (sets
// smaller than their share), the rest go round it.
AggregatorNodes place_romio_bgq(const RoutingModel& routing, const IoGroup& group, const Domains& d, int aggregators) {
  const std::vector<NodeId> list = romio_bgq_aggregators(routing, group, aggregators);
  AggregatorNodes p(d.count(), -1);
  for (int k = 0; k < d.count(); ++k)
    if (d.total[k] > 0) p[k] = list[std::size_t(k) % list.size()];
  return p;
}

}  // namespace

// ROMIO's BG/Q rule (ad_gpfs/bg/ad_bg_aggrs.c), on nodes: the nodes of a group split into
// bridge sets by the bridge their route to the I/O node enters through; every bridge is an
// aggregator and each set adds evenly spaced members of its own, the aggregators per set being
// the group's share for that set. The list is in ROMIO's order: bridges first, then each set's
// members.
std::vector<NodeId> romio_bgq_aggregators(const RoutingModel& routing, const IoGroup& group, int aggregators) {
  std::map<NodeId, std::vector<NodeId>> sets;  // bridge -> its nodes, ascending
  for (NodeId node : group.nodes) {
    const LinkPath route = routing.route(node, group.io);
    sets[routing.network().link_src(route.back())].push_back(node);
  }
  const int count = static_cast<int>(sets.size());
  std::vector<NodeId> bridges, members;
  int index = 0;
  for (const auto& [bridge, nodes] : sets) {
    const int share = aggregators / count + (index++ < aggregators % count ? 1 : 0);
    if (share == 0) continue;
    // A bridge that holds no rank of this job cannot aggregate: its set's first node stands in.
    const NodeId head = std::binary_search(nodes.begin(), nodes.end(), bridge) ? bridge : nodes.front();
    bridges.push_back(head);
    std::vector<NodeId> chosen{head};
    const int extra = std::min<int>(share - 1, static_cast<int>(nodes.size()) - 1);
    const std::size_t spacing = extra > 0 ? std::max<std::size_t>(1, nodes.size() / extra) : 1;
    for (int j = 0; j < extra; ++j) {
      NodeId pick = nodes[std::min(nodes.size() - 1, j * spacing)];
      // The bridge is listed once already: ROMIO takes the set's last node instead (and here
      // the last one not yet taken, since nodes, unlike ranks, cannot serve twice).
      for (std::size_t back = nodes.size(); std::find(chosen.begin(), chosen.end(), pick) != chosen.end() && back > 0;)
        pick = nodes[--back];
      chosen.push_back(pick);
      members.push_back(pick);
    }
  }
  std::vector<NodeId> list = bridges;
  list.insert(list.end(), members.begin(), members.end());
  return list;
}

double topology_aware_cost(const Network& net, const RoutingModel& routing, const IoGroup& group,
                           const Domains& domains, int k, int candidate, double hop_latency) {
  const NodeId a = group.nodes[candidate];
  // C1, as in the paper, is the slowest single source (a max, not a sum): sources send at once.
  double c1 = 0;
  for (std::size_t i = 0; i < group.nodes.size(); ++i) {
    const Bytes w = domains.bytes[k][i];
    if (w == 0 || group.nodes[i] == a) continue;
    c1 = std::max(c1, hop_latency * hops(routing, group.nodes[i], a) +
                          static_cast<double>(w) / route_bandwidth(net, routing, group.nodes[i], a));
  }
  const double c2 = hop_latency * hops(routing, a, group.io) +
                    static_cast<double>(domains.total[k]) / route_bandwidth(net, routing, a, group.io);
  return c1 + c2;
}

AggregatorNodes place_aggregators(const std::string& strategy, const Network& net, const RoutingModel& routing,
                            const IoGroup& group, const AggregationOptions& options) {
  const auto names = placement_names();
  if (std::find(names.begin(), names.end(), strategy) == names.end())
    throw Error("unknown placement '" + strategy + "' (known: greedy, shortest, longest, romio-bgq, topology-aware, flow-aware)");
  if (options.aggregators < 1) throw Error("need at least one aggregator, got " + std::to_string(options.aggregators));
  if (options.aggregators > static_cast<int>(group.nodes.size()))
    throw Error(std::to_string(options.aggregators) + " aggregators for I/O node '" + net.vertex_name(group.io) +
                "', whose group has " + std::to_string(group.nodes.size()) + " nodes (at most one aggregator per node)");
  const Domains d = file_domains(group, options.aggregators);
  if (strategy == "greedy") return per_domain(group, d, [&](int, std::size_t i) { return double(group.nodes[i]); });
  if (strategy == "shortest")
    return per_domain(group, d, [&](int, std::size_t i) { return double(hops(routing, group.nodes[i], group.io)); });
  if (strategy == "longest")
    return per_domain(group, d, [&](int, std::size_t i) { return -double(hops(routing, group.nodes[i], group.io)); });
  if (strategy == "topology-aware")
    return per_domain(group, d, [&](int k, std::size_t i) {
      return topology_aware_cost(net, routing, group, d, k, static_cast<int>(i), options.hop_latency);
    });
  if (strategy == "romio-bgq") return place_romio_bgq(routing, group, d, options.aggregators);
  return place_flow_aware(net, routing, group, options);
}

}  // namespace optiq
