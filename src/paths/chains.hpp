// Searches over chains of legs, for networks whose links are not all legs (include/optiq/legs.hpp):
// the overlay graph has one arc per pair of terminals with a default route between them, and
// its arcs are read from the leg tables rather than stored.
#pragma once

#include <vector>

#include "optiq/cheapest.hpp"
#include "optiq/legs.hpp"

namespace optiq::detail {

// The k shortest chains from src to dst by links, of at most `bound` links, as link paths;
// Yen's algorithm over the overlay (each spur a goal-directed Dijkstra whose bound is the hop
// distance). Ties: fewer links, then the earlier deviation, then the order found.
std::vector<LinkPath> k_shortest_chains(const Legs& legs, NodeId src, NodeId dst, int k, int bound);

// cheapest_paths on the overlay: per job, the chain minimising the link weights along its legs
// plus the node weights of every endpoint it passes or forwards at (neither end). Unbounded: A*
// whose heuristic is the cheapest unrestricted path in the link graph (one backward search per
// destination). With a hop bound, or a bound on proxies (max_proxies >= 0), dynamic programming
// over the number of links or of legs (not both at once: an optiq::Error).
CheapestPaths cheapest_chains(const Legs& legs, const std::vector<Job>& jobs, const std::vector<double>& link_weight,
                              const std::vector<double>& node_weight, int hop_bound, int max_proxies = -1);

}  // namespace optiq::detail
