// The graph kernel against brute force on small random multigraphs.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <vector>

#include "optiq/core/error.hpp"
#include "optiq/core/graph/contract.hpp"
#include "optiq/core/graph/dijkstra.hpp"
#include "optiq/core/graph/heaps.hpp"
#include "optiq/core/graph/parallel.hpp"
#include "optiq/core/rng.hpp"

namespace {

using optiq::Rng;
using namespace optiq::graph;

struct Random {
  int n;
  std::vector<int> tails, heads;
  std::vector<double> w;
};

// Parallel arcs, self loops and absent ids included; weights are small integers so that ties
// are common.
Random random_graph(std::uint64_t seed, int n, int m) {
  Rng rng(seed);
  Random g{n, {}, {}, {}};
  for (int a = 0; a < m; ++a) {
    const bool absent = rng.below(10) == 0;
    g.tails.push_back(absent ? -1 : static_cast<int>(rng.below(n)));
    g.heads.push_back(absent ? -1 : static_cast<int>(rng.below(n)));
    g.w.push_back(static_cast<double>(rng.below(4)));
  }
  return g;
}

TEST(Csr, ArcsLeaveTheirTailInAscendingIdAndAbsentIdsAreSkipped) {
  const Csr g(4, {0, -1, 2, 0, 3, 0}, {1, 2, 2, 3, 0, 1});
  EXPECT_EQ(g.vertices(), 4);
  EXPECT_EQ(g.arc_ids(), 6);
  EXPECT_EQ(g.arcs(), 5);
  EXPECT_FALSE(g.present(1));
  std::vector<int> out0, heads0;
  for (int i = g.out_begin(0); i < g.out_end(0); ++i) out0.push_back(g.arc_at(i)), heads0.push_back(g.head_at(i));
  EXPECT_EQ(out0, (std::vector<int>{0, 3, 5}));
  EXPECT_EQ(heads0, (std::vector<int>{1, 3, 1}));
  EXPECT_EQ(g.out_end(1) - g.out_begin(1), 0);
  const Csr r = g.reversed();
  EXPECT_EQ(r.tail(4), 0);
  EXPECT_EQ(r.head(4), 3);
  EXPECT_EQ(r.out_end(1) - r.out_begin(1), 2);  // arcs 0 and 5 now leave vertex 1
  EXPECT_THROW(Csr(2, {0}, {2}), optiq::Error);
}

// Bellman-Ford over (weight, hops): the oracle for Dijkstra.
std::vector<std::pair<double, int>> bellman_ford(const Random& g, const std::vector<int>& sources) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<std::pair<double, int>> d(g.n, {inf, 0});
  for (int s : sources) d[s] = {0.0, 0};
  for (int round = 0; round < g.n; ++round)
    for (std::size_t a = 0; a < g.tails.size(); ++a) {
      if (g.tails[a] < 0 || d[g.tails[a]].first == inf) continue;
      const std::pair<double, int> c{d[g.tails[a]].first + g.w[a], d[g.tails[a]].second + 1};
      if (c < d[g.heads[a]]) d[g.heads[a]] = c;
    }
  return d;
}

struct Cost {
  double w;
  int h;
  bool operator<(const Cost& o) const { return w != o.w ? w < o.w : h < o.h; }
};

TEST(Dijkstra, MatchesBellmanFordAndItsPathsCostWhatItSays) {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const Random r = random_graph(seed, 3 + static_cast<int>(seed % 9), static_cast<int>(5 + seed % 30));
    const Csr g(r.n, r.tails, r.heads);
    Dijkstra<Cost> search(r.n);
    for (int round = 0; round < 3; ++round) {  // one object, several searches
      const std::vector<int> sources =
          round < 2 ? std::vector<int>{round % r.n} : std::vector<int>{0, r.n - 1};  // last: multi-source
      search.start();
      for (int s : sources) search.seed(s, Cost{0.0, 0});
      Cost last{-1.0, 0};
      int last_v = -1;
      for (int v; (v = search.settle_next()) >= 0;) {
        const Cost c = search.key(v);
        ASSERT_FALSE(c < last) << "settled out of order";
        ASSERT_TRUE(last < c || v > last_v) << "equal keys settle in vertex order";
        last = c, last_v = v;
        for (int i = g.out_begin(v); i < g.out_end(v); ++i)
          search.offer(g.head_at(i), Cost{c.w + r.w[g.arc_at(i)], c.h + 1}, g.arc_at(i));
      }
      const auto oracle = bellman_ford(r, sources);
      for (int v = 0; v < r.n; ++v) {
        ASSERT_EQ(search.settled(v), oracle[v].first != std::numeric_limits<double>::infinity()) << "seed " << seed;
        if (!search.settled(v)) continue;
        EXPECT_EQ(search.key(v).w, oracle[v].first) << "seed " << seed << " vertex " << v;
        EXPECT_EQ(search.key(v).h, oracle[v].second) << "seed " << seed << " vertex " << v;
        std::vector<int> path;
        search.path_to(v, g, path);
        double w = 0;
        for (std::size_t k = 0; k < path.size(); ++k) {
          w += r.w[path[k]];
          if (k > 0) ASSERT_EQ(g.tail(path[k]), g.head(path[k - 1]));
        }
        EXPECT_EQ(w, search.key(v).w);
        EXPECT_EQ(static_cast<int>(path.size()), search.key(v).h);
        EXPECT_TRUE(path.empty() ? std::count(sources.begin(), sources.end(), v) == 1
                                 : std::count(sources.begin(), sources.end(), g.tail(path[0])) == 1);
      }
    }
  }
}

TEST(Heaps, IndexedHeapPopsByKeyThenVertexWithDecreases) {
  Rng rng(7);
  std::vector<int> keys(50);
  IndexedHeap<int> heap(keys, 50);
  for (int v = 0; v < 50; ++v) keys[v] = static_cast<int>(rng.below(10) + 10), heap.push_or_decrease(v);
  for (int v = 0; v < 50; v += 3) keys[v] -= static_cast<int>(rng.below(10)), heap.push_or_decrease(v);
  std::vector<std::pair<int, int>> popped, expected;
  for (int v = 0; v < 50; ++v) expected.push_back({keys[v], v});
  std::sort(expected.begin(), expected.end());
  while (!heap.empty()) {
    const int v = heap.pop();
    popped.push_back({keys[v], v});
  }
  EXPECT_EQ(popped, expected);
}

TEST(Heaps, RadixHeapPopsEveryPushInNonDecreasingOrder) {
  Rng rng(11);
  RadixHeap heap;
  std::multiset<std::uint64_t> open;
  std::uint64_t floor = 0;
  for (int step = 0; step < 5000; ++step) {
    if (open.empty() || rng.below(3) != 0) {
      const std::uint64_t k = floor + rng.below(1000) * (rng.below(2) ? 1 : 1ULL << 30);  // monotone use only
      heap.push(k, step);
      open.insert(k);
    } else {
      const auto [k, item] = heap.pop();
      ASSERT_EQ(k, *open.begin());
      open.erase(open.begin());
      floor = k;
    }
  }
}

// Components of "joined both ways by an arc lighter than t", found by brute force.
std::vector<int> brute_components(const Random& r, double t) {
  std::vector<int> label(r.n);
  for (int v = 0; v < r.n; ++v) label[v] = v;
  auto light = [&](int u, int v) {
    for (std::size_t a = 0; a < r.tails.size(); ++a)
      if (r.tails[a] == u && r.heads[a] == v && r.w[a] < t) return true;
    return false;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (int u = 0; u < r.n; ++u)
      for (int v = 0; v < r.n; ++v)
        if (u != v && light(u, v) && light(v, u) && label[u] != label[v]) {
          const int from = std::max(label[u], label[v]), to = std::min(label[u], label[v]);
          for (int& l : label)
            if (l == from) l = to;
          changed = true;
        }
  }
  return label;
}

// True when the two labellings describe the same partition and `c` numbers its components in
// order of their lowest vertex.
void expect_partition(const Components& c, const std::vector<int>& label) {
  std::map<int, int> seen;
  int next = 0;
  for (std::size_t v = 0; v < label.size(); ++v) {
    auto [it, fresh] = seen.emplace(label[v], next);
    if (fresh) ++next;
    EXPECT_EQ(c.of[v], it->second) << "vertex " << v;
  }
  EXPECT_EQ(c.count, next);
}

TEST(Contract, MergeBelowMatchesBruteForce) {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const Random r = random_graph(seed, 2 + static_cast<int>(seed % 8), static_cast<int>(10 + seed % 40));
    const Csr g(r.n, r.tails, r.heads);
    for (double t : {0.5, 1.5, 2.5, 9.0}) expect_partition(merge_below(g, r.w, t), brute_components(r, t));
  }
}

TEST(Contract, MergeUntilStopsAtTheSmallestSufficientThreshold) {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const Random r = random_graph(seed, 2 + static_cast<int>(seed % 8), static_cast<int>(10 + seed % 40));
    const Csr g(r.n, r.tails, r.heads);
    for (int max = 1; max <= r.n; ++max) {
      // The oracle: the first weight class t whose merge (weights <= t) leaves at most max.
      std::vector<int> expected(r.n);
      for (int v = 0; v < r.n; ++v) expected[v] = v;
      for (double t : {0.0, 1.0, 2.0, 3.0}) {
        if (std::set<int>(expected.begin(), expected.end()).size() <= static_cast<std::size_t>(max)) break;
        expected = brute_components(r, t + 0.5);
      }
      expect_partition(merge_until(g, r.w, max), expected);
    }
  }
}

TEST(Contract, QuotientGroupsEveryArcBetweenComponentsOnce) {
  const Random r = random_graph(5, 9, 60);
  const Csr g(r.n, r.tails, r.heads);
  const Components c = merge_below(g, r.w, 2.0);
  const Quotient q = quotient(g, c);
  std::vector<int> seen(r.tails.size(), 0);
  for (int x = 0; x < q.groups(); ++x) {
    if (x > 0) EXPECT_LT(std::make_pair(q.from[x - 1], q.to[x - 1]), std::make_pair(q.from[x], q.to[x]));
    for (int i = q.begin[x]; i < q.begin[x + 1]; ++i) {
      const int a = q.arcs[i];
      if (i > q.begin[x]) EXPECT_LT(q.arcs[i - 1], a);
      EXPECT_EQ(c.of[r.tails[a]], q.from[x]);
      EXPECT_EQ(c.of[r.heads[a]], q.to[x]);
      ++seen[a];
    }
  }
  for (std::size_t a = 0; a < r.tails.size(); ++a) {
    const bool crosses = r.tails[a] >= 0 && c.of[r.tails[a]] != c.of[r.heads[a]];
    EXPECT_EQ(seen[a], crosses ? 1 : 0) << "arc " << a;
  }
}

TEST(Parallel, EveryItemRunsOnceAndTheFirstFailureIsRethrown) {
  std::vector<std::atomic<int>> runs(1000);
  std::atomic<int> callers{0};
  parallel_for(
      runs.size(), 8, [&](bool caller) { return callers += caller, 0; },
      [&](int&, std::size_t i) { ++runs[i]; });
  for (const auto& r : runs) EXPECT_EQ(r.load(), 1);
  EXPECT_EQ(callers.load(), 1);

  std::atomic<int> after{0};
  EXPECT_THROW(parallel_for(
                   1000, 8, [](bool) { return 0; },
                   [&](int&, std::size_t i) {
                     if (i == 10) throw std::runtime_error("item 10");
                     std::this_thread::sleep_for(std::chrono::microseconds(200));  // item 10 comes early
                     if (i > 500) ++after;
                   }),
               std::runtime_error);
  EXPECT_LT(after.load(), 490);  // the failure stops the items not yet taken
}

// Each thread makes one state: their count is the number of threads the limit allowed.
int threads_used(std::size_t items) {
  std::atomic<int> states{0};
  parallel_for(
      items, 1, [&](bool) { return ++states, 0; }, [](int&, std::size_t) {});
  return states.load();
}

TEST(Parallel, OptiqThreadsSetsTheThreadCountAndIsChecked) {
  const char* saved = std::getenv("OPTIQ_THREADS");
  const std::string before = saved ? saved : "";
  setenv("OPTIQ_THREADS", "1", 1);
  EXPECT_EQ(threads_used(100), 1);
  setenv("OPTIQ_THREADS", "3", 1);
  EXPECT_EQ(threads_used(100), 3);
  EXPECT_EQ(threads_used(2), 2);  // never more threads than items
  for (const char* bad : {"0", "-2", "two", "4x", "257"}) {
    setenv("OPTIQ_THREADS", bad, 1);
    try {
      threads_used(100);
      ADD_FAILURE() << "OPTIQ_THREADS=" << bad << " was accepted";
    } catch (const optiq::Error& e) {
      EXPECT_NE(std::string(e.what()).find("OPTIQ_THREADS"), std::string::npos) << e.what();
    }
  }
  if (saved) {
    setenv("OPTIQ_THREADS", before.c_str(), 1);
  } else {
    unsetenv("OPTIQ_THREADS");
  }
  EXPECT_GE(threads_used(100), 1);
  EXPECT_LE(threads_used(100), static_cast<int>(kDefaultMaxThreads));
}

}  // namespace
