#include "runtime/api/io_rank_layout.hpp"

#include "optiq/core/error.hpp"

namespace optiq::rt {

IoRankLayout io_rank_layout(const Network& net, const std::string& topology, int ranks_per_node, long long size) {
  IoRankLayout out;
  for (NodeId v = 0; v < net.num_vertices(); ++v)
    if (net.kind(v) == VertexKind::Io) out.io_nodes.push_back(v);
  out.compute = size - static_cast<long long>(out.io_nodes.size());
  const long long capacity = static_cast<long long>(net.endpoints().size()) * ranks_per_node;
  if (out.io_nodes.empty() || ranks_per_node < 1 || out.compute < 1 || out.compute > capacity)
    throw Error("--io-ranks: " + std::to_string(size) + " ranks do not fit " + topology + "'s " +
                std::to_string(net.endpoints().size()) + " endpoints at " + std::to_string(ranks_per_node) +
                " per node plus its " + std::to_string(out.io_nodes.size()) + " I/O nodes");
  return out;
}

}  // namespace optiq::rt
