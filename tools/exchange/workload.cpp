#include "tools/exchange/workload.hpp"

#include <algorithm>
#include <set>

#include "optiq/core/rng.hpp"
#include "tools/common/message_bytes.hpp"

namespace optiq::sxdriver {

std::vector<int> neighbours(std::uint64_t seed, std::uint64_t call, int rank, int size, int k) {
  // A hash of (seed, call, rank) as the generator's seed: nearby triples give unrelated draws.
  Rng rng(data::word(rank, static_cast<int>(call & 0xFFFFF), call >> 20, seed));
  // Floyd's sampling: k distinct of the n = size - 1 other ranks in O(k log k), whatever size is.
  const int n = size - 1;
  std::set<int> chosen;
  for (int j = n - k; j < n; ++j) {
    const int t = static_cast<int>(rng.below(static_cast<std::uint64_t>(j) + 1));
    chosen.insert(chosen.count(t) ? j : t);
  }
  std::vector<int> out;
  out.reserve(k);
  for (int c : chosen) out.push_back(c < rank ? c : c + 1);  // skip the rank itself
  return out;  // ascending: the map c -> c or c + 1 keeps the order
}

void fill(unsigned char* p, int src, int dst, std::uint64_t call, std::uint64_t bytes) {
  data::fill(p, src, dst, bytes, call);
}

bool intact(const unsigned char* p, int src, int dst, std::uint64_t call, std::uint64_t bytes) {
  return data::first_wrong(p, src, dst, bytes, call) == bytes;
}

}  // namespace optiq::sxdriver
