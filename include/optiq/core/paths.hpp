// Candidate paths: realizable paths (include/optiq/core/legs.hpp), hop-bounded.
//
// Where every link is a leg (a torus) Yen's k shortest simple paths on the link graph whose
// inner vertices are endpoints: their hop counts are the k smallest of all such paths within
// the hop bound. Among equally short paths the order is deterministic and favours diversity:
// a path that leaves an earlier one closer to the source comes first. Each spur is the
// lexicographically smallest (by link id) shortest path under Yen's constraints. Elsewhere
// the default route and the shortest undominated chains through one proxy (chains.hpp).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "optiq/core/pattern.hpp"
#include "optiq/core/network.hpp"

namespace optiq {


// hop_bound < 0 means default_hop_bound. A node paired with itself has one empty path.
class RoutingModel;
std::vector<LinkPath> k_shortest_paths(const Network& topo, const RoutingModel& routing, NodeId src, NodeId dst, int k,
                                       int hop_bound = -1);

// The network's diameter where every link is a leg; twice that elsewhere, so that a chain may
// forward once anywhere (a leg out to any endpoint and one back).
class Legs;
int default_hop_bound(const Legs& legs);

struct CandidateSet {
  int k = 0;
  int hop_bound = 0;
  std::vector<std::vector<LinkPath>> per_job;  // candidates for jobs[i], best first
  double seconds = 0.0;                        // wall time spent generating them
};

// Candidates for every job; jobs with the same endpoints share one search.
CandidateSet generate_candidates(const Network& topo, const RoutingModel& routing, const std::vector<Job>& jobs, int k,
                                 int hop_bound = -1, const Progress& progress = nullptr);

// Nodes visited by a path starting at src: src, then the head of every link.
std::vector<NodeId> path_nodes(const Network& topo, NodeId src, const LinkPath& path);

}  // namespace optiq
