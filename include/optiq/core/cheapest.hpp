// Cheapest paths under link (and node) weights: the pricing step of the optimising planners.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "optiq/core/pattern.hpp"
#include "optiq/core/network.hpp"

namespace optiq {

struct CheapestPaths {
  std::vector<double> cost;     // per job; +inf when no path within the hop bound
  std::vector<LinkPath> paths;  // per job
  // Per job, a proven lower bound on the cheapest cost where a search with a settle limit may
  // have stopped short of the cheapest path (cheapest_paths' settle_limit); empty when every
  // cost is the cheapest.
  std::vector<double> lower;
};

// For every job, a realizable path (include/optiq/core/legs.hpp) from src to dst minimising the sum
// of link_weight over its links plus node_weight over the endpoints it passes through (neither
// end; switches carry no weight); among equally cheap paths the one with fewest hops. Weights
// must be non-negative; link_weight has one entry per link (link id), node_weight one per node
// or none at all. hop_bound < 0: no bound; max_proxies >= 0 bounds the junctions per path (the
// legs must then be an overlay, see Legs). Where every link is a leg, jobs sharing a source
// share one search on the link graph; elsewhere jobs sharing a destination share the
// heuristic of a search over chains (chains.hpp). Searches run in parallel.
//
// settle_limit > 0 (overlays without a hop bound or a bound on proxies; elsewhere ignored):
// each job's search over chains expands at most that many terminals beyond its source, then
// keeps the cheapest chain found (the cheapest through at most one proxy at least) and puts a
// lower bound in `lower`. An exact search costs a scan of the terminals per terminal it
// expands, and on large symmetric fabrics a few jobs expand nearly all of them.
class Legs;
CheapestPaths cheapest_paths(const Legs& legs, const std::vector<Job>& jobs, const std::vector<double>& link_weight,
                             const std::vector<double>& node_weight = {}, int hop_bound = -1, int max_proxies = -1,
                             std::size_t settle_limit = 0);

// Per job, a lower bound on its cheapest path cost under link_weight, computed fast on a
// contracted graph: node pairs joined both ways by links cheaper than `threshold` merge, and
// those links count as free. Returns an empty vector when too little contracts for the bound
// to be cheap (more than `max_components` components remain).
std::vector<double> cheapest_cost_lower_bounds(const Network& topo, const std::vector<Job>& jobs,
                                               const std::vector<double>& link_weight, double threshold,
                                               int max_components);

// cheapest_paths for weights that are whole multiples of one unit (link l weighs
// units[l] * unit, units[l] <= 2^24), without node weights or a hop bound: the same costs and
// hop counts, found by a goal-directed search whose lower bounds come from a contracted graph
// of at most `max_components` components (on a torus built only where some link weighs less
// than 1/32 of the heaviest; otherwise the hop part of the bound is as good). When the
// weights leave most links free it settles a small part of the network per source. `settled`, when given, receives the number of
// nodes settled over all searches. `known`, when given, holds per job the units of some path
// it has (~0: none): a search then keeps no node whose route to a target would cost more than
// the dearest known path of its source, which changes no result and spares the heap.
CheapestPaths cheapest_paths_units(const Network& topo, const std::vector<Job>& jobs,
                                   const std::vector<std::uint32_t>& units, double unit, int max_components = 1024,
                                   std::size_t* settled = nullptr, const std::vector<std::uint64_t>* known = nullptr);

}  // namespace optiq
