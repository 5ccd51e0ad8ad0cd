// Patterns that need to know the network, not just its endpoint count: dragonfly groups,
// fat-tree up-links, and all-to-all or permutation traffic over every endpoint.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "optiq/network.hpp"
#include "optiq/pattern.hpp"

namespace optiq {

struct NetworkPatternOptions {
  int group_src = -1;      // group-to-group: the sending group (default 0)
  int group_dst = -1;      // group-to-group: the receiving group (default 1)
  int hot = -1;            // moe: hot destinations (default max(1, P/16))
  int hot_factor = 8;      // moe: how many times more a hot destination receives
  std::uint64_t seed = 0;  // permutation, moe
};

// Pairs over endpoint indices 0..P-1 (the i-th endpoint in ascending vertex order, as for
// named_pattern), each with a weight: the job's size is its weight times the pattern's bytes.
struct NetworkPattern {
  std::vector<Pair> pairs;
  std::vector<int> weights;  // one per pair
};

// "group-to-group", "groups-alltoall" (dragonflies), "dmodk-adversarial" (fat-trees of two or
// more levels), "permutation", "moe" (any network); docs/model.md, "Patterns", gives each law.
// Throws optiq::Error in one line naming why a pattern does not apply to the network.
NetworkPattern network_pattern(const std::string& name, const Network& network, const NetworkPatternOptions& options);
std::vector<std::string> network_pattern_names();
bool is_network_pattern(const std::string& name);

}  // namespace optiq
