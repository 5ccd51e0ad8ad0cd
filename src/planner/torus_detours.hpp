// Cheaper paths close to a given one on a torus, for mcf's pricing between exact rounds.
//
// A detour leaves the path one step aside along some port (dimension and direction), follows
// a stretch of the path displaced by that step, and steps back: the path's nodes n_i..n_j
// become n_i, n_i + e, ..., n_j + e, n_j. For each of the 2 * dims ports the cheapest stretch
// is one pass over the path (the best start before each end), so a job's best detour costs
// about 2 * dims * hops reads of link weights, where an exact search settles thousands of
// nodes. Repeated over iterations, detours move flow sideways off loaded links one step at a
// time; exact rounds are still needed for what one step cannot reach (the other way around a
// ring, another order of dimensions).
#pragma once

#include <vector>

#include "optiq/core/network.hpp"

namespace optiq::detail {

class TorusDetours {
 public:
  // Whether detours apply: a torus (or mesh) that is the whole network.
  static bool applies(const Network& topo);

  explicit TorusDetours(const Network& topo);

  struct Port {
    int dim, dir;
  };
  struct Scratch {
    std::vector<NodeId> nodes, seen;
    std::vector<Port> ports;  // per hop of the path
  };

  // The cheapest simple detour of `path` under per-link weights w, if it costs less than the
  // path by more than `min_gain`; then `out` holds it.
  bool cheaper(const LinkPath& path, const std::vector<double>& w, double min_gain, Scratch& scratch,
               LinkPath& out) const;

 private:
  const Network& topo_;
  const TorusShape& torus_;
};

}  // namespace optiq::detail
