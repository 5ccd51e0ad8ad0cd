// The levels of a switched network and the parts it falls into below each level: shared by
// the cut bound (a part's uplinks) and the cover bound (a part's entry links).
#pragma once

#include <vector>

#include "optiq/core/network.hpp"

namespace optiq::bounds {

// Terminals 0, every switch one more than its nearest terminal (breadth first). Empty for a
// network without switches.
std::vector<int> switch_levels(const Network& topo);

// The parts below level k: connected components of the vertices of level < k, numbered from
// 0; -1 for the vertices at or above k.
struct LevelParts {
  std::vector<int> part;
  int count = 0;
};
LevelParts parts_below(const Network& topo, const std::vector<int>& level, int k);

}  // namespace optiq::bounds
