// Ranks onto nodes: the default block layout over the network's endpoints (switches host no
// rank) or an explicit map.
#include <string>

#include "optiq/core/error.hpp"
#include "optiq/core/schedule.hpp"

namespace optiq {

RankMap::RankMap(const Network& topo, int num_ranks, int ranks_per_node, std::vector<NodeId> rank_to_node)
    : ranks_on_(topo.num_vertices()) {
  if (num_ranks < 1) throw Error("a communicator needs at least one rank");
  if (rank_to_node.empty()) {
    if (ranks_per_node < 1) throw Error("ranks per node must be at least 1, got " + std::to_string(ranks_per_node));
    const auto& hosts = topo.endpoints();
    for (int r = 0; r < num_ranks; ++r) {
      const std::size_t i = static_cast<std::size_t>(r / ranks_per_node);
      if (i >= hosts.size())
        throw Error(std::to_string(num_ranks) + " ranks at " + std::to_string(ranks_per_node) + " per node need " +
                    std::to_string((num_ranks + ranks_per_node - 1) / ranks_per_node) + " endpoints; " + topo.spec() +
                    " has " + std::to_string(hosts.size()));
      rank_to_node.push_back(hosts[i]);
    }
  }
  if (static_cast<int>(rank_to_node.size()) != num_ranks)
    throw Error("the rank-to-node map has " + std::to_string(rank_to_node.size()) + " entries for " +
                std::to_string(num_ranks) + " ranks");
  for (int r = 0; r < num_ranks; ++r) {
    const NodeId n = rank_to_node[r];
    if (!topo.contains(n))
      throw Error("rank " + std::to_string(r) + " is placed on node " + std::to_string(n) + ", outside " +
                  topo.spec() + " (nodes 0.." + std::to_string(topo.num_vertices() - 1) + ")");
    if (topo.kind(n) == VertexKind::Switch)
      throw Error("rank " + std::to_string(r) + " is placed on vertex " + std::to_string(n) + ", a switch");
    ranks_on_[n].push_back(r);  // ascending: r grows
  }
  node_of_ = std::move(rank_to_node);
}

}  // namespace optiq
