// The flow of many sources into one sink that finishes soonest on top of the loads earlier
// sinks left on the links: the step the maxflow planner repeats per destination.
//
// For a time T, link l can still take capacity_l * T - load_l bytes (none when that is
// negative); the smallest T at which the sources' bytes fit is found by a parametric search
// on maximum flows (each failing T yields a minimum cut, whose own smallest feasible T is a
// lower bound on the answer and the next T to try), then the flow is cut into simple paths per
// source. Paths run on the link graph of a direct network: their inner vertices are
// endpoints, never an I/O vertex or a switch.
#pragma once

#include <vector>

#include "optiq/core/network.hpp"

namespace optiq::detail {

struct SourceDemand {
  NodeId node;
  double bytes;  // positive
};

struct FlowPath {
  LinkPath links;
  double bytes;
};

struct SinkFlow {
  // Per source, in the order given: simple paths to the sink, heaviest first (ties: the one
  // found first). Empty for a source no path reaches the sink from.
  std::vector<std::vector<FlowPath>> paths;
  double seconds = 0;  // the T found: no link the flow uses ends above capacity * T
};

// `load` holds the bytes already on every link. Sources are distinct and none is the sink.
SinkFlow soonest_sink_flow(const Network& net, NodeId sink, const std::vector<SourceDemand>& sources,
                           const std::vector<double>& load);

}  // namespace optiq::detail
