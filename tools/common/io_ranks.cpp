#include "tools/common/io_ranks.hpp"

#include <memory>

#include "optiq/core/network.hpp"
#include "runtime/api/io_rank_layout.hpp"
#include "runtime/api/shared_network.hpp"

namespace optiq::tools {

std::vector<int> io_rank_map(const std::string& topology, int ranks_per_node, int size) {
  const std::shared_ptr<const Network> shared = rt::shared_network(topology);  // one parse for all simulated ranks
  const Network& net = *shared;
  const rt::IoRankLayout layout = rt::io_rank_layout(net, topology, ranks_per_node, size);
  std::vector<int> map;
  for (long long r = 0; r < layout.compute; ++r) map.push_back(net.endpoints()[r / ranks_per_node]);
  map.insert(map.end(), layout.io_nodes.begin(), layout.io_nodes.end());
  return map;
}

}  // namespace optiq::tools
