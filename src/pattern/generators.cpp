// The published m-to-n patterns and seeded random pairings.
#include <algorithm>

#include "optiq/core/error.hpp"
#include "optiq/core/pattern.hpp"
#include "optiq/core/rng.hpp"

namespace optiq {

std::vector<Pair> m_to_n(int m, int startm, int n, int startn) {
  if (m < 1 || n < 1) throw Error("m_to_n needs at least one source and one destination (m=" + std::to_string(m) +
                                  ", n=" + std::to_string(n) + ")");
  if (startm < 0 || startn < 0) throw Error("m_to_n start positions must be non-negative");
  std::vector<Pair> pairs;
  if (m > n) {
    if (m % n != 0) throw Error("m_to_n needs m divisible by n when m > n (m=" + std::to_string(m) +
                                ", n=" + std::to_string(n) + ")");
    const int block = m / n;
    for (int i = 0; i < m; ++i) pairs.emplace_back(startm + i, startn + i / block);
  } else {
    if (n % m != 0) throw Error("m_to_n needs n divisible by m (m=" + std::to_string(m) + ", n=" +
                                std::to_string(n) + ")");
    const int fan = n / m;
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < fan; ++j) pairs.emplace_back(startm + i, startn + i * fan + j);
  }
  return pairs;
}

std::vector<std::string> pattern_names() { return {"disjoint", "overlap", "subset", "random"}; }

std::vector<Pair> named_pattern(const std::string& name, const PatternOptions& o) {
  const int P = o.num_nodes;
  const auto known = pattern_names();
  if (std::find(known.begin(), known.end(), name) == known.end())
    throw Error("unknown pattern '" + name + "' (known: disjoint, overlap, subset, random)");
  const int m = o.sources >= 0 ? o.sources : P / 16;
  const int n = o.dests >= 0 ? o.dests : P / 2;
  if (m < 1 || n < 1)
    throw Error("pattern '" + name + "' needs at least one source and one destination on " + std::to_string(P) +
                " nodes (sources=" + std::to_string(m) + ", dests=" + std::to_string(n) + ")");
  int startm = 0, startn = P - n;
  if (name == "overlap") startn = m / 2;
  if (name == "subset") startm = n / 4, startn = 0;
  if (o.start_src >= 0) startm = o.start_src;
  if (o.start_dst >= 0) startn = o.start_dst;
  if (startm + m > P || startn + n > P)
    throw Error("pattern '" + name + "' does not fit in " + std::to_string(P) + " nodes (sources " +
                std::to_string(startm) + ".." + std::to_string(startm + m - 1) + ", destinations " +
                std::to_string(startn) + ".." + std::to_string(startn + n - 1) + ")");
  auto pairs = m_to_n(m, startm, n, startn);
  if (name == "random") {
    Rng rng(o.seed);
    for (size_t i = pairs.size(); i > 1; --i) std::swap(pairs[i - 1].second, pairs[rng.below(i)].second);
  }
  return pairs;
}

}  // namespace optiq
