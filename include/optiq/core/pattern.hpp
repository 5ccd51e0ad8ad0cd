// Communication patterns: who sends how many bytes to whom.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "optiq/core/types.hpp"

namespace optiq {

// Traffic classes: 0 is the most urgent; a job's class decides which bytes go first when
// classes share links (docs/qos.md). Sixteen, as InfiniBand's service levels.
constexpr int kMaxPriority = 15;

struct Job {
  NodeId src = 0;
  NodeId dst = 0;
  Bytes bytes = 0;
  int priority = 0;  // 0..kMaxPriority
};

// The bytes of all jobs together; optiq::Error when they add up to more than kMaxBytes.
Bytes total_bytes(const std::vector<Job>& jobs);

using Pair = std::pair<NodeId, NodeId>;

// Parses "8MiB", "64KiB", "1.5GB", "1000000" (binary Ki/Mi/Gi/Ti, decimal k/K/M/G/T, optional B);
// at most kMaxBytes (optiq/bytes.hpp).
Bytes parse_bytes(const std::string& text);
std::string format_bytes(Bytes bytes);  // "8MiB" where exact, else plain digits

// m sources starting at startm talk to n destinations starting at startn (DESIGN §2).
std::vector<Pair> m_to_n(int m, int startm, int n, int startn);

struct PatternOptions {
  int num_nodes = 0;
  int sources = -1;    // default P/16
  int dests = -1;      // default P/2
  int start_src = -1;  // default depends on the pattern
  int start_dst = -1;
  std::uint64_t seed = 0;  // for "random"
};

// "disjoint", "overlap", "subset" (the thesis' 1:8 cases) or "random" (the disjoint node sets
// with a seeded uniform shuffle of the destinations).
// Patterns that need the network itself (dragonfly groups, fat-tree up-links, weighted
// all-to-all) are in optiq/network_pattern.hpp.
std::vector<Pair> named_pattern(const std::string& name, const PatternOptions& options);
std::vector<std::string> pattern_names();

// Per-job sizes: "8MiB" (fixed), "uniform:LO:HI", "pareto:ALPHA:MIN[:MAX]". Seeded.
std::vector<Job> assign_sizes(const std::vector<Pair>& pairs, const std::string& sizes, std::uint64_t seed);

// The most jobs a request or plan file may hold: every job costs the planners and schedules
// memory and time of its own; 2^25 (33.5 million) is twice an all-to-all of 4,096 nodes.
constexpr std::size_t kMaxFileJobs = std::size_t(1) << 25;

// One "src dst bytes [priority]" line per job; '#' starts a comment. Nodes are checked against
// num_nodes, the count against max_jobs; a missing priority is 0 (the most urgent class).
std::vector<Job> parse_requests(const std::string& text, int num_nodes, const std::string& origin,
                                std::size_t max_jobs = kMaxFileJobs);
std::vector<Job> read_requests(const std::string& path, int num_nodes);

}  // namespace optiq
