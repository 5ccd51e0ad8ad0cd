// Patterns that need to know the network, not just its endpoint count: dragonfly groups,
// fat-tree up-links, and all-to-all or permutation traffic over every endpoint.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "optiq/core/network.hpp"
#include "optiq/core/pattern.hpp"

namespace optiq {

// moe: how many times as many bytes a hot destination receives from each sender as the others
// do, unless NetworkPatternOptions::hot_factor says otherwise (`--hot-factor`).
constexpr double kMoeHotFactor = 8.0;

struct NetworkPatternOptions {
  int group_src = -1;                  // group-to-group: the sending group (default 0)
  int group_dst = -1;                  // group-to-group: the receiving group (default 1)
  int hot = -1;                        // moe: hot destinations (default max(1, P/16))
  double hot_factor = kMoeHotFactor;   // moe: positive and finite (else an optiq::Error)
  std::uint64_t seed = 0;              // permutation, moe
};

// Pairs over endpoint indices 0..P-1 (the i-th endpoint in ascending vertex order, as for
// named_pattern), each with a weight: the job's size is its weight times the pattern's bytes,
// rounded to whole bytes.
struct NetworkPattern {
  std::vector<Pair> pairs;
  std::vector<double> weights;  // one per pair
};

// "group-to-group", "groups-alltoall" (dragonflies), "dmodk-adversarial" (fat-trees of two or
// more levels), "permutation", "moe" (any network); docs/model.md, "Patterns", gives each law.
// Throws optiq::Error in one line naming why a pattern does not apply to the network.
NetworkPattern network_pattern(const std::string& name, const Network& network, const NetworkPatternOptions& options);
std::vector<std::string> network_pattern_names();
bool is_network_pattern(const std::string& name);

}  // namespace optiq
