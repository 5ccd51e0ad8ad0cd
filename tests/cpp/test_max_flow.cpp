// Maximum flow against an independent oracle: the cheapest of all s-t cuts, enumerated.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "optiq/core/error.hpp"
#include "optiq/core/graph/max_flow.hpp"
#include "optiq/core/rng.hpp"

namespace {

using optiq::Rng;
using optiq::graph::MaxFlow;

struct Arc {
  int tail, head;
  double capacity;
};

// Max-flow min-cut: the minimum over vertex sets holding s but not t of the capacity leaving them.
double cheapest_cut(int n, const std::vector<Arc>& arcs, int s, int t) {
  double best = INFINITY;
  for (unsigned set = 0; set < (1u << n); ++set) {
    if (!(set >> s & 1) || (set >> t & 1)) continue;
    double cut = 0;
    for (const Arc& a : arcs)
      if ((set >> a.tail & 1) && !(set >> a.head & 1)) cut += a.capacity;
    best = std::min(best, cut);
  }
  return best;
}

// Parallel arcs, self loops, zero capacities, and capacities over six orders of magnitude.
std::vector<Arc> random_arcs(Rng& rng, int n, int m) {
  std::vector<Arc> arcs;
  for (int i = 0; i < m; ++i) {
    const double scale = std::pow(10.0, static_cast<double>(rng.below(7)) - 3);
    const double capacity = rng.below(8) == 0 ? 0.0 : scale * (0.5 + rng.unit());
    arcs.push_back({static_cast<int>(rng.below(n)), static_cast<int>(rng.below(n)), capacity});
  }
  return arcs;
}

TEST(MaxFlow, EqualsTheCheapestCutOnSmallRandomGraphs) {
  Rng rng(2014);
  for (int trial = 0; trial < 400; ++trial) {
    const int n = 2 + static_cast<int>(rng.below(9));  // 2 .. 10 vertices
    const auto arcs = random_arcs(rng, n, static_cast<int>(rng.below(4 * n * n / 3 + 1)));
    const int s = static_cast<int>(rng.below(n));
    int t = static_cast<int>(rng.below(n - 1));
    if (t >= s) ++t;
    MaxFlow g(n);
    double widest = 0;
    for (const Arc& a : arcs) g.add_arc(a.tail, a.head, a.capacity), widest = std::max(widest, a.capacity);
    const double value = g.solve(s, t);
    const double oracle = cheapest_cut(n, arcs, s, t);
    const double slack = 1e-9 * std::max(1.0, widest);
    ASSERT_NEAR(value, oracle, slack) << "trial " << trial;

    // A flow: within capacities, conserved everywhere but at s and t, of the value reported.
    std::vector<double> net(n, 0.0);
    for (int a = 0; a < g.arcs(); ++a) {
      ASSERT_GE(g.flow(a), 0.0);
      ASSERT_LE(g.flow(a), arcs[a].capacity);
      net[arcs[a].tail] -= g.flow(a);
      net[arcs[a].head] += g.flow(a);
    }
    for (int v = 0; v < n; ++v)
      if (v != s && v != t) ASSERT_NEAR(net[v], 0.0, slack) << "trial " << trial << " vertex " << v;
    ASSERT_NEAR(net[t], value, slack);

    // The source side it reports is a minimum cut.
    ASSERT_TRUE(g.source_side(s));
    ASSERT_FALSE(g.source_side(t));
    double cut = 0;
    for (const Arc& a : arcs)
      if (g.source_side(a.tail) && !g.source_side(a.head)) cut += a.capacity;
    ASSERT_NEAR(cut, oracle, slack) << "trial " << trial;
  }
}

TEST(MaxFlow, NewCapacitiesReplaceTheEarlierFlow) {
  // Two routes 0 -> 3, through 1 and through 2; the second one's first arc changes.
  MaxFlow g(4);
  g.add_arc(0, 1, 3);
  const int variable = g.add_arc(0, 2, 1);
  g.add_arc(1, 3, 2);
  g.add_arc(2, 3, 5);
  EXPECT_DOUBLE_EQ(g.solve(0, 3), 3);
  g.set_capacity(variable, 4);
  EXPECT_DOUBLE_EQ(g.solve(0, 3), 6);
  EXPECT_DOUBLE_EQ(g.flow(variable), 4);
  EXPECT_TRUE(g.source_side(1));  // 0 -> 1 keeps a residual, 1 -> 3 is full
  EXPECT_FALSE(g.source_side(2));
  EXPECT_THROW(g.set_capacity(variable, -1), optiq::Error);
  EXPECT_THROW(g.add_arc(0, 1, INFINITY), optiq::Error);
}

TEST(MaxFlow, LongChainsNeedNoDeepRecursion) {
  // One path through 200,000 vertices: a recursive search would overflow the stack.
  const int n = 200000;
  MaxFlow g(n);
  for (int v = 0; v + 1 < n; ++v) g.add_arc(v, v + 1, 1.0 + (v % 7));
  EXPECT_DOUBLE_EQ(g.solve(0, n - 1), 1.0);
}

}  // namespace
