// Gathers and scatters in rounds, with limits small enough that every call takes many rounds
// and pieces cut through ranks' parts: every element arrives once, in place.
#include "common.hpp"
#include "runtime/online/gather_scatter.hpp"

using namespace mpitest;

namespace {

std::int64_t value(int rank, std::int64_t i) { return (static_cast<std::int64_t>(rank) << 32) + i * 7 + 1; }

void rounds(std::int64_t limit, std::uint64_t seed, Checker& ck) {
  const int rank = world_rank(), size = world_size();
  optiq::Rng rng(seed);
  std::vector<std::int64_t> counts(size);
  for (auto& c : counts) c = rng.below(4) == 0 ? 0 : static_cast<std::int64_t>(rng.below(40));

  std::vector<std::int64_t> mine(counts[rank]);
  for (std::int64_t i = 0; i < counts[rank]; ++i) mine[i] = value(rank, i);
  const auto starts = optiq::rt::part_starts(counts);
  std::vector<std::int64_t> all(rank == 0 ? starts.back() : 0, -1);
  optiq::rt::gather_in_rounds(mine.data(), counts, MPI_INT64_T, all.data(), MPI_COMM_WORLD, limit);
  if (rank == 0)
    for (int r = 0; r < size; ++r)
      for (std::int64_t i = 0; i < counts[r]; ++i)
        if (!ck.expect(all[starts[r] + i] == value(r, i), "gather limit %lld: rank %d element %lld",
                       static_cast<long long>(limit), r, static_cast<long long>(i)))
          return;

  std::string packed;
  std::vector<std::int64_t> sizes;
  if (rank == 0)
    for (int r = 0; r < size; ++r) {
      sizes.push_back(counts[r]);
      for (std::int64_t i = 0; i < counts[r]; ++i) packed += static_cast<char>('a' + (r + i) % 26);
    }
  const std::string got = optiq::rt::scatter_in_rounds(packed, sizes, MPI_COMM_WORLD, limit);
  std::string want;
  for (std::int64_t i = 0; i < counts[rank]; ++i) want += static_cast<char>('a' + (rank + i) % 26);
  ck.expect(got == want, "scatter limit %lld: rank %d got '%s', wants '%s'", static_cast<long long>(limit), rank,
            got.c_str(), want.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Checker ck;
  std::uint64_t seed = 1;
  for (std::int64_t limit : std::vector<std::int64_t>{1, 2, 3, 7, 40, 1000, optiq::rt::kRoundLimit})
    for (int k = 0; k < 5; ++k) rounds(limit, seed++, ck);
  const int failures = ck.total();
  if (world_rank() == 0) std::printf("%s: %d failures at %d ranks\n", failures ? "FAILED" : "passed", failures, world_size());
  MPI_Finalize();
  return failures ? 1 : 0;
}
