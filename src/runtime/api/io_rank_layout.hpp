// Where the ranks of a simulated I/O job sit: the first ones on the network's endpoints,
// ranks_per_node each, then one on each I/O node in vertex order, which stores (or serves) the
// bytes of the nodes that I/O node serves. optiq-driver and optiq-io-bench both lay jobs out so.
#pragma once

#include <string>
#include <vector>

#include "optiq/core/network.hpp"

namespace optiq::rt {

struct IoRankLayout {
  std::vector<NodeId> io_nodes;  // in vertex order; rank compute + i sits on io_nodes[i]
  long long compute = 0;         // ranks on endpoints: 0 .. compute - 1
};

// Throws optiq::Error naming `topology` when `size` ranks do not fit its endpoints at
// ranks_per_node each plus one per I/O node, or when it has no I/O nodes.
IoRankLayout io_rank_layout(const Network& net, const std::string& topology, int ranks_per_node, long long size);

}  // namespace optiq::rt
