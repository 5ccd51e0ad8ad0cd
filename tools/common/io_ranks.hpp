// Ranks for simulations of I/O: the compute ranks on the endpoints, then one rank on each I/O
// node (runtime/api/io_rank_layout.hpp), for the tools' --io-ranks.
#pragma once

#include <string>
#include <vector>

namespace optiq::tools {

// World rank -> the vertex it sits on, for `size` ranks on `topology`.
std::vector<int> io_rank_map(const std::string& topology, int ranks_per_node, int size);

}  // namespace optiq::tools
