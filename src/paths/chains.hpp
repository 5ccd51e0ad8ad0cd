// Searches over chains of legs, for networks whose links are not all legs (include/optiq/core/legs.hpp):
// the overlay graph has one arc per pair of terminals with a default route between them, and
// its arcs are read from the leg tables rather than stored.
#pragma once

#include <vector>

#include "optiq/core/cheapest.hpp"
#include "optiq/core/legs.hpp"

namespace optiq::detail {

// Candidate paths on the overlay: the default route and the chains through one endpoint, of at
// most `bound` links, in order of links (ties: the lower proxy id, the default route first),
// keeping k that are not dominated: a path is left out when one kept before it (as short or
// shorter) uses a subset of its links, since it could carry nothing its dominator could not.
// On a network with switches most short chains are dominated (a detour to an endpoint on the
// source's own switch and back onto the same route), and k shortest chains over any number
// of proxies (Yen) had to wade through all their combinations first: minutes for 512 jobs of
// 512 endpoints. Time per pair: terminals x leg length. Paths through more proxies are left to
// the planners that price chains (mcf, opt's pricing, optimal).
std::vector<LinkPath> candidate_chains(const Legs& legs, NodeId src, NodeId dst, int k, int bound);

// cheapest_paths on the overlay: per job, the chain minimising the link weights along its legs
// plus the node weights of every endpoint it passes or forwards at (neither end). Unbounded: A*
// whose heuristic is the cheapest unrestricted path in the link graph (one backward search per
// destination), after a scan of the chains through at most one proxy, which settles most jobs
// on its own; on fat-trees with one cable per parent an exact search over the tree's climbs
// instead (fat_tree_chains.hpp). With a hop bound, or a bound on proxies (max_proxies >= 0), dynamic programming
// over the number of links or of legs (not both at once: an optiq::Error). settle_limit > 0
// stops each A* after that many terminals beyond its source (cheapest_paths).
CheapestPaths cheapest_chains(const Legs& legs, const std::vector<Job>& jobs, const std::vector<double>& link_weight,
                              const std::vector<double>& node_weight, int hop_bound, int max_proxies = -1,
                              std::size_t settle_limit = 0);

}  // namespace optiq::detail
