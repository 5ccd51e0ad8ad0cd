// Cut bounds: whatever the routing, the bytes that must leave (or enter) a node set cross the
// links leaving (entering) it, so bytes / capacity of those links bounds the transfer time.
#pragma once

#include <vector>

#include "optiq/pattern.hpp"
#include "optiq/topology.hpp"

namespace optiq {

// The best such bound (seconds) over a family of node sets: the sources, the destinations, and
// the hop balls grown around each of them.
double cut_lower_bound(const Topology& topo, const std::vector<Job>& jobs);

}  // namespace optiq
