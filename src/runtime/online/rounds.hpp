// Gathers and scatters larger than MPI's int counts allow. Planning moves every rank's part
// of the pattern to rank 0 and every rank's schedule back: a dense pattern on P ranks gathers
// 4P^2 numbers (past 2^31 at about 23,000 ranks) and scatters schedules of at least 100P^2
// bytes (past 2^31 below 5,000 ranks). Counts and displacements are therefore 64-bit, and the data
// moves in rounds: round k carries elements [k*limit, (k+1)*limit) of the concatenation of
// every rank's part (rank 0's first), so that each count and displacement within a round fits
// an int. This is the arithmetic, without MPI; gather_scatter.hpp runs the rounds.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

namespace optiq::rt {

constexpr std::int64_t kRoundLimit = INT_MAX;

// Where each part starts in the concatenation; one entry more than parts, the last the total.
inline std::vector<std::int64_t> part_starts(const std::vector<std::int64_t>& counts) {
  std::vector<std::int64_t> starts(counts.size() + 1, 0);
  for (std::size_t r = 0; r < counts.size(); ++r) starts[r + 1] = starts[r] + counts[r];
  return starts;
}

inline std::int64_t round_count(std::int64_t total, std::int64_t limit) { return (total + limit - 1) / limit; }

// The piece of a part [start, start + count) that round k carries: `skip` elements of the
// part come before it, it is `count` long and lands `displ` elements into the round.
struct Piece {
  std::int64_t skip = 0;
  int count = 0;
  int displ = 0;
};

inline Piece piece_in_round(std::int64_t start, std::int64_t count, std::int64_t round, std::int64_t limit) {
  const std::int64_t lo = std::max(start, round * limit), hi = std::min(start + count, (round + 1) * limit);
  if (hi <= lo) return {};
  return {lo - start, static_cast<int>(hi - lo), static_cast<int>(lo - round * limit)};
}

// The root's counts and displacements for round k.
inline void round_layout(const std::vector<std::int64_t>& starts, std::int64_t round, std::int64_t limit,
                         std::vector<int>* counts, std::vector<int>* displs) {
  const std::size_t parts = starts.size() - 1;
  counts->assign(parts, 0);
  displs->assign(parts, 0);
  for (std::size_t r = 0; r < parts; ++r) {
    const Piece p = piece_in_round(starts[r], starts[r + 1] - starts[r], round, limit);
    (*counts)[r] = p.count;
    (*displs)[r] = p.displ;
  }
}

}  // namespace optiq::rt
