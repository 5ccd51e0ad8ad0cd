// Patterns over a network's endpoints that need the network itself: dragonfly groups, fat-tree
// up-links (fabric_patterns.cpp), seeded permutations and skewed all-to-all.
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <numeric>

#include "optiq/core/error.hpp"
#include "optiq/core/network_pattern.hpp"
#include "optiq/core/rng.hpp"

namespace optiq {

// fabric_patterns.cpp
NetworkPattern dragonfly_pattern(const std::string& name, const Network& network, const NetworkPatternOptions& o);
NetworkPattern dmodk_adversarial(const Network& network);

namespace {

std::string format_number(double x) {
  std::ostringstream out;
  out << x;
  return out.str();
}

void need_two(const std::string& name, int P) {
  if (P < 2) throw Error("pattern '" + name + "' needs at least two endpoints (there are " + std::to_string(P) + ")");
}

// Sattolo's shuffle: a uniformly random cyclic permutation, so no endpoint sends to itself.
NetworkPattern permutation(int P, std::uint64_t seed) {
  need_two("permutation", P);
  std::vector<NodeId> to(P);
  std::iota(to.begin(), to.end(), 0);
  Rng rng(seed);
  for (int i = P - 1; i > 0; --i) std::swap(to[i], to[rng.below(static_cast<std::uint64_t>(i))]);
  NetworkPattern p;
  for (int s = 0; s < P; ++s) p.pairs.emplace_back(s, to[s]), p.weights.push_back(1);
  return p;
}

// Every endpoint to every other; the `hot` destinations a seeded shuffle puts first receive
// `factor` times as much from each sender, as the popular experts of a mixture-of-experts layer.
NetworkPattern moe(int P, const NetworkPatternOptions& o) {
  need_two("moe", P);
  const int hot = o.hot >= 0 ? o.hot : std::max(1, P / 16);
  if (hot < 1 || hot > P)
    throw Error("pattern 'moe' needs between 1 and " + std::to_string(P) + " hot destinations (got " +
                std::to_string(hot) + ")");
  if (!(o.hot_factor > 0) || !std::isfinite(o.hot_factor))
    throw Error("pattern 'moe' needs a positive, finite hot factor (got " + format_number(o.hot_factor) + ")");
  std::vector<NodeId> order(P);
  std::iota(order.begin(), order.end(), 0);
  Rng rng(o.seed);
  for (int i = 0; i < hot; ++i) std::swap(order[i], order[i + rng.below(static_cast<std::uint64_t>(P - i))]);
  std::vector<char> is_hot(P, 0);
  for (int i = 0; i < hot; ++i) is_hot[order[i]] = 1;
  NetworkPattern p;
  for (int s = 0; s < P; ++s)
    for (int d = 0; d < P; ++d)
      if (d != s) p.pairs.emplace_back(s, d), p.weights.push_back(is_hot[d] ? o.hot_factor : 1.0);
  return p;
}

}  // namespace

std::vector<std::string> network_pattern_names() {
  return {"group-to-group", "groups-alltoall", "dmodk-adversarial", "permutation", "moe"};
}

bool is_network_pattern(const std::string& name) {
  const auto names = network_pattern_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

NetworkPattern network_pattern(const std::string& name, const Network& network, const NetworkPatternOptions& o) {
  const int P = static_cast<int>(network.endpoints().size());
  if (name == "permutation") return permutation(P, o.seed);
  if (name == "moe") return moe(P, o);
  if (name == "group-to-group" || name == "groups-alltoall") return dragonfly_pattern(name, network, o);
  if (name == "dmodk-adversarial") return dmodk_adversarial(network);
  throw Error("unknown network pattern '" + name + "' (known: group-to-group, groups-alltoall, dmodk-adversarial, "
              "permutation, moe)");
}

}  // namespace optiq
