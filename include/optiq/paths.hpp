// Candidate paths: Yen's k shortest loopless paths on the link graph, hop-bounded.
//
// The k paths returned are k shortest simple paths within the hop bound: their hop counts are
// the k smallest of all such paths. Among equally short paths the order is deterministic and
// favours diversity: a path that leaves an earlier one closer to the source comes first. Each
// spur is the lexicographically smallest (by link id) shortest path under Yen's constraints.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "optiq/pattern.hpp"
#include "optiq/network.hpp"

namespace optiq {

// Called now and then during long work: (what is being done, items done, items in total).
using Progress = std::function<void(const std::string& stage, std::size_t done, std::size_t total)>;

// hop_bound < 0 means the topology's diameter. A node paired with itself has one empty path.
std::vector<LinkPath> k_shortest_paths(const Network& topo, NodeId src, NodeId dst, int k, int hop_bound = -1);

struct CandidateSet {
  int k = 0;
  int hop_bound = 0;
  std::vector<std::vector<LinkPath>> per_job;  // candidates for jobs[i], best first
  double seconds = 0.0;                        // wall time spent generating them
};

// Candidates for every job; jobs with the same endpoints share one search.
CandidateSet generate_candidates(const Network& topo, const std::vector<Job>& jobs, int k, int hop_bound = -1,
                                 const Progress& progress = nullptr);

// Nodes visited by a path starting at src: src, then the head of every link.
std::vector<NodeId> path_nodes(const Network& topo, NodeId src, const LinkPath& path);

}  // namespace optiq
