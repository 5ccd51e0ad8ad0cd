// Cheapest paths under link (and node) weights: the pricing step of the optimising planners.
#pragma once

#include <vector>

#include "optiq/pattern.hpp"
#include "optiq/topology.hpp"

namespace optiq {

struct CheapestPaths {
  std::vector<double> cost;     // per job; +inf when no path within the hop bound
  std::vector<LinkPath> paths;  // per job
};

// For every job, a path from src to dst minimising the sum of link_weight over its links plus
// node_weight over the nodes it passes through (neither endpoint); among equally cheap paths
// the one with fewest hops. Weights must be non-negative; link_weight has one entry per link
// slot, node_weight one per node or none at all. hop_bound < 0: no bound. Jobs sharing a
// source share one search, and sources are searched in parallel.
CheapestPaths cheapest_paths(const Topology& topo, const std::vector<Job>& jobs, const std::vector<double>& link_weight,
                             const std::vector<double>& node_weight = {}, int hop_bound = -1);

// Per job, a lower bound on its cheapest path cost under link_weight, computed fast on a
// contracted graph: node pairs joined both ways by links cheaper than `threshold` merge, and
// those links count as free. Returns an empty vector when too little contracts for the bound
// to be cheap (more than `max_components` components remain).
std::vector<double> cheapest_cost_lower_bounds(const Topology& topo, const std::vector<Job>& jobs,
                                               const std::vector<double>& link_weight, double threshold,
                                               int max_components);

}  // namespace optiq
