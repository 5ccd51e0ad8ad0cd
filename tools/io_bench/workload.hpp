// The file patterns of `optiq io-bench`: HACC-IO's particles (nine variables, AoS or SoA) and a
// 1-D array, laid out over the ranks of one file in rank order.
#pragma once

#include <string>
#include <vector>

#include "optiq/io.h"

namespace optiq::iobench {

struct RankData {
  std::vector<std::vector<optiq_io_extent>> vars;  // as optiq_file_declare takes them
  std::vector<std::vector<char>> data;             // per variable, in declared order
  long long bytes() const;
};

// The patterns of a file written by `members` ranks holding `per_rank` bytes each: "hacc"
// (per_rank / 38 particles) in "aos" or "soa", or "array" (one contiguous block per rank).
// Throws std::invalid_argument for an unknown workload or layout.
std::vector<RankData> file_patterns(const std::string& workload, const std::string& layout, int members,
                                    long long per_rank);

// Fills a rank's variables with bytes that depend on rank, variable and position.
void fill(RankData& r, int rank, unsigned long long seed);

}  // namespace optiq::iobench
