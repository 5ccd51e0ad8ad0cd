// The arithmetic of gathers and scatters in rounds, at sizes no test machine can run: every
// count and displacement an MPI call receives fits an int, and the rounds move every element
// of every rank exactly once, in order.
#include <gtest/gtest.h>

#include <climits>

#include "runtime/online/rounds.hpp"

using namespace optiq::rt;

namespace {

// Walks every round as the root and as each rank sees it; checks the pieces tile the data.
void check_rounds(const std::vector<std::int64_t>& counts, std::int64_t limit) {
  const auto starts = part_starts(counts);
  const std::int64_t total = starts.back(), rounds = round_count(total, limit);
  ASSERT_EQ(rounds, (total + limit - 1) / limit);
  std::vector<std::int64_t> moved(counts.size(), 0);  // elements of each part moved so far
  std::vector<int> rc, rd;
  for (std::int64_t k = 0; k < rounds; ++k) {
    round_layout(starts, k, limit, &rc, &rd);
    std::int64_t filled = 0;  // the round's pieces lie back to back from its start
    for (std::size_t r = 0; r < counts.size(); ++r) {
      const Piece p = piece_in_round(starts[r], counts[r], k, limit);
      ASSERT_EQ(p.count, rc[r]);
      ASSERT_EQ(p.displ, rd[r]);
      ASSERT_GE(p.count, 0);
      ASSERT_LE(p.count, limit);
      if (p.count == 0) continue;
      ASSERT_EQ(p.skip, moved[r]) << "part " << r << " round " << k;
      ASSERT_EQ(p.displ, filled);
      ASSERT_LE(static_cast<std::int64_t>(p.displ) + p.count, limit);
      moved[r] += p.count;
      filled += p.count;
    }
    ASSERT_EQ(filled, std::min(limit, total - k * limit));
  }
  for (std::size_t r = 0; r < counts.size(); ++r) ASSERT_EQ(moved[r], counts[r]) << "part " << r;
}

}  // namespace

// A dense pattern on 30,000 ranks: each contributes 2 numbers per send and receive, 4P in all,
// 3.6 billion numbers: past the int counts of one MPI_Gatherv.
TEST(Rounds, DensePatternOnThirtyThousandRanks) {
  const std::int64_t P = 30000;
  const std::vector<std::int64_t> counts(P, 4 * P);
  const auto starts = part_starts(counts);
  EXPECT_EQ(starts.back(), 4 * P * P);
  EXPECT_GT(starts.back(), INT_MAX);
  EXPECT_EQ(round_count(starts.back(), kRoundLimit), 2);
  check_rounds(counts, kRoundLimit);
}

// Schedules of 100P^2 bytes on 5,000 ranks, with uneven sizes.
TEST(Rounds, SchedulesOfUnevenSizes) {
  std::vector<std::int64_t> sizes;
  for (std::int64_t r = 0; r < 5000; ++r) sizes.push_back(100 * 5000 + (r * 7919) % 3000);
  check_rounds(sizes, kRoundLimit);
}

TEST(Rounds, SmallLimitsEmptyPartsAndNothingAtAll) {
  check_rounds({5, 0, 3, 0, 0, 9, 1}, 1);
  check_rounds({5, 0, 3, 0, 0, 9, 1}, 4);
  check_rounds({5, 0, 3, 0, 0, 9, 1}, 18);
  check_rounds({5, 0, 3, 0, 0, 9, 1}, 1000);
  check_rounds({0, 0, 0}, 7);
  EXPECT_EQ(round_count(0, 7), 0);
  check_rounds({INT_MAX, INT_MAX, 1}, kRoundLimit);  // parts as large as one round
}
