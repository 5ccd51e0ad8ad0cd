#include <gtest/gtest.h>

#include <cmath>

#include "optiq/core/legs.hpp"
#include "optiq/core/routing.hpp"
#include "optiq/core/cheapest.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/rng.hpp"
#include "oracle.hpp"

using namespace optiq;

namespace {

double path_cost(const Network& t, NodeId src, const LinkPath& p, const std::vector<double>& lw,
                 const std::vector<double>& nw) {
  double c = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    c += lw[p[i]];
    if (i > 0 && !nw.empty()) c += nw[t.link_src(p[i])];
  }
  (void)src;
  return c;
}

}  // namespace

// Against every simple path: the cheapest cost, and the fewest hops among the cheapest.
TEST(CheapestPaths, MatchBruteForceWithRandomWeights) {
  Rng rng(17);
  for (const char* spec : {"torus:3x3", "torus:4x4", "mesh:3x3", "mesh:3x4", "bgq:2x2x2x1x1", "torus:5"}) {
    const Network t = parse_network(spec);
    for (int trial = 0; trial < 6; ++trial) {
      std::vector<double> lw(t.num_links()), nw;
      for (double& w : lw) w = rng.below(4) == 0 ? 0.0 : static_cast<double>(rng.below(5));  // ties and zeros
      if (trial % 2) {
        nw.resize(t.num_vertices());
        for (double& w : nw) w = static_cast<double>(rng.below(3));
      }
      std::vector<Job> jobs;
      for (NodeId s = 0; s < t.num_vertices(); ++s)
        for (NodeId d = 0; d < t.num_vertices(); ++d) jobs.push_back({s, d, 1});
      for (int bound : {-1, t.diameter(), t.diameter() + 2}) {
        if (bound < 0 && t.num_vertices() > 9) continue;  // all simple paths of a larger graph: too many
        const CheapestPaths got = cheapest_paths(Legs(t, *make_routing(t.default_routing(), t)), jobs, lw, nw, bound);
        for (std::size_t i = 0; i < jobs.size(); ++i) {
          const auto all = oracle::all_simple_paths(t, jobs[i].src, jobs[i].dst, bound < 0 ? t.num_vertices() : bound);
          double best = INFINITY;
          std::size_t hops = 0;
          for (const auto& p : all) {
            const double c = path_cost(t, jobs[i].src, p, lw, nw);
            if (c < best || (c == best && p.size() < hops)) best = c, hops = p.size();
          }
          ASSERT_EQ(got.cost[i], best) << spec << " job " << i << " bound " << bound;
          ASSERT_EQ(path_cost(t, jobs[i].src, got.paths[i], lw, nw), best);
          ASSERT_EQ(got.paths[i].size(), hops);
          NodeId at = jobs[i].src;
          for (LinkId l : got.paths[i]) {
            ASSERT_EQ(t.link_src(l), at);
            at = t.link_dst(l);
          }
          ASSERT_EQ(at, jobs[i].dst);
        }
      }
    }
  }
}

TEST(CheapestPaths, UnreachableWithinBoundIsInfinite) {
  const Network t = parse_network("torus:6");
  const std::vector<double> lw(t.num_links(), 1.0);
  const CheapestPaths got = cheapest_paths(Legs(t, *make_routing(t.default_routing(), t)), {{0, 3, 1}}, lw, {}, 2);
  EXPECT_TRUE(std::isinf(got.cost[0]));
  EXPECT_TRUE(got.paths[0].empty());
}

TEST(CheapestPaths, RejectsBadWeights) {
  const Network t = parse_network("torus:4");
  EXPECT_THROW(cheapest_paths(Legs(t, *make_routing(t.default_routing(), t)), {{0, 1, 1}}, std::vector<double>(3, 1.0)), Error);
  std::vector<double> lw(t.num_links(), 1.0);
  lw[0] = -1;
  EXPECT_THROW(cheapest_paths(Legs(t, *make_routing(t.default_routing(), t)), {{0, 1, 1}}, lw), Error);
  lw[0] = NAN;
  EXPECT_THROW(cheapest_paths(Legs(t, *make_routing(t.default_routing(), t)), {{0, 1, 1}}, lw), Error);
}

TEST(CheapestPaths, ContractedBoundsNeverExceedExactCosts) {
  Rng rng(23);
  for (const char* spec : {"torus:4x4", "mesh:3x5", "bgq:2x2x2x2x2", "torus:6x4"}) {
    const Network t = parse_network(spec);
    std::vector<Job> jobs;
    for (int i = 0; i < 40; ++i)
      jobs.push_back({static_cast<NodeId>(rng.below(t.num_vertices())), static_cast<NodeId>(rng.below(t.num_vertices())), 1});
    for (int trial = 0; trial < 8; ++trial) {
      std::vector<double> lw(t.num_links());
      for (double& w : lw) w = rng.below(3) == 0 ? 1.0 + static_cast<double>(rng.below(9)) : 1e-3 * rng.unit();
      const CheapestPaths exact = cheapest_paths(Legs(t, *make_routing(t.default_routing(), t)), jobs, lw);
      for (double threshold : {0.0, 1e-3, 0.5, 5.0}) {
        const auto lower = cheapest_cost_lower_bounds(t, jobs, lw, threshold, t.num_vertices());
        ASSERT_EQ(lower.size(), jobs.size());
        for (std::size_t j = 0; j < jobs.size(); ++j) {
          EXPECT_LE(lower[j], exact.cost[j] + 1e-12) << spec << " threshold " << threshold;
          if (threshold == 0.0) EXPECT_NEAR(lower[j], exact.cost[j], 1e-12);
        }
      }
      EXPECT_TRUE(cheapest_cost_lower_bounds(t, jobs, lw, 0.0, 1).empty() || t.num_vertices() <= 1);
    }
  }
}

// The goal-directed search in whole units finds the same costs and hop counts as Dijkstra,
// whatever the contraction (one component, some, or none merged), and where the weights are
// even enough that it builds none (the last trials: every link within 1/32 of the heaviest).
TEST(CheapestPaths, UnitSearchMatchesDijkstra) {
  Rng rng(41);
  for (const char* spec : {"torus:4x4", "mesh:3x5", "bgq:2x2x2x2x2", "torus:6x4", "torus:3x4x5", "mesh:4x4x3"}) {
    const Network t = parse_network(spec);
    std::vector<Job> jobs;
    for (int i = 0; i < 60; ++i)
      jobs.push_back({static_cast<NodeId>(rng.below(t.num_vertices())), static_cast<NodeId>(rng.below(t.num_vertices())), 1});
    for (int trial = 0; trial < 14; ++trial) {
      const double unit = 0.25;
      std::vector<std::uint32_t> units(t.num_links(), 0);
      std::vector<double> lw(t.num_links(), 0.0);
      const int zeros = static_cast<int>(rng.below(4));  // from none to most links free
      for (LinkId l = 0; l < t.num_links(); ++l) {
        if (trial >= 10) {
          units[l] = 40 + static_cast<std::uint32_t>(rng.below(trial % 2 ? 3 : 1241));
        } else {
          units[l] = static_cast<int>(rng.below(4)) < zeros ? 0 : static_cast<std::uint32_t>(rng.below(trial % 2 ? 3 : 1000));
        }
        lw[l] = units[l] * unit;
      }
      const CheapestPaths exact = cheapest_paths(Legs(t, *make_routing(t.default_routing(), t)), jobs, lw);
      for (int components : {1, 4, t.num_vertices()}) {
        const CheapestPaths got = cheapest_paths_units(t, jobs, units, unit, components);
        for (std::size_t j = 0; j < jobs.size(); ++j) {
          ASSERT_EQ(got.cost[j], exact.cost[j]) << spec << " job " << j << " components " << components;
          ASSERT_EQ(got.paths[j].size(), exact.paths[j].size()) << spec << " job " << j;
          double c = 0;
          NodeId at = jobs[j].src;
          for (LinkId l : got.paths[j]) {
            ASSERT_EQ(t.link_src(l), at);
            at = t.link_dst(l);
            c += lw[l];
          }
          ASSERT_EQ(at, jobs[j].dst);
          ASSERT_EQ(c, exact.cost[j]);
        }
      }
    }
  }
}

// Known paths only spare the search nodes it would never settle: with the costs of the default
// routes, or of the cheapest paths themselves (the tightest), every cost and path is the same.
TEST(CheapestPaths, UnitSearchGivesTheSameWithKnownPaths) {
  Rng rng(43);
  for (const char* spec : {"torus:4x4", "bgq:2x2x2x2x2", "torus:3x4x5", "mesh:4x4x3"}) {
    const Network t = parse_network(spec);
    const auto routing = make_routing(t.default_routing(), t);
    std::vector<Job> jobs;
    for (int i = 0; i < 60; ++i)
      jobs.push_back({static_cast<NodeId>(rng.below(t.num_vertices())), static_cast<NodeId>(rng.below(t.num_vertices())), 1});
    for (int trial = 0; trial < 10; ++trial) {
      std::vector<std::uint32_t> units(t.num_links(), 0);
      for (LinkId l = 0; l < t.num_links(); ++l)
        units[l] = rng.below(3) == 0 ? 0 : static_cast<std::uint32_t>(rng.below(trial % 2 ? 3 : 1000));
      const CheapestPaths plain = cheapest_paths_units(t, jobs, units, 1.0);
      std::vector<std::uint64_t> routes, tightest;
      for (std::size_t j = 0; j < jobs.size(); ++j) {
        std::uint64_t c = 0;
        for (LinkId l : routing->route(jobs[j].src, jobs[j].dst)) c += units[l];
        routes.push_back(c);
        tightest.push_back(static_cast<std::uint64_t>(plain.cost[j]));
      }
      for (const auto* known : {&routes, &tightest}) {
        const CheapestPaths got = cheapest_paths_units(t, jobs, units, 1.0, 1024, nullptr, known);
        for (std::size_t j = 0; j < jobs.size(); ++j) {
          ASSERT_EQ(got.cost[j], plain.cost[j]) << spec << " job " << j;
          ASSERT_EQ(got.paths[j], plain.paths[j]) << spec << " job " << j;
        }
      }
    }
  }
  const Network t = parse_network("torus:4");
  const std::vector<std::uint32_t> units(t.num_links(), 1);
  const std::vector<std::uint64_t> short_list;
  EXPECT_THROW(cheapest_paths_units(t, {{0, 1, 1}}, units, 1.0, 1024, nullptr, &short_list), Error);
}

TEST(CheapestPaths, UnitSearchRejectsBadInput) {
  const Network t = parse_network("torus:4");
  EXPECT_THROW(cheapest_paths_units(t, {{0, 1, 1}}, std::vector<std::uint32_t>(3, 1), 1.0), Error);
  const std::vector<std::uint32_t> units(t.num_links(), 1);
  EXPECT_THROW(cheapest_paths_units(t, {{0, 1, 1}}, units, 0.0), Error);
  EXPECT_THROW(cheapest_paths_units(t, {{0, 9, 1}}, units, 1.0), Error);
  std::vector<std::uint32_t> heavy = units;
  heavy[0] = (1u << 24) + 1;
  EXPECT_THROW(cheapest_paths_units(t, {{0, 1, 1}}, heavy, 1.0), Error);
}
