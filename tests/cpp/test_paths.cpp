#include <gtest/gtest.h>

#include <set>

#include "optiq/core/legs.hpp"
#include "optiq/core/routing.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/paths.hpp"
#include "optiq/core/rng.hpp"
#include "oracle.hpp"

using namespace optiq;

namespace {

// A returned path set is correct when its paths are distinct, simple, valid and within the
// bound, and their hop counts are exactly the k smallest of all simple paths (the brute force).
void expect_k_shortest(const Network& t, NodeId s, NodeId d, int k, int bound) {
  const auto got = k_shortest_paths(t, *make_routing(t.default_routing(), t), s, d, k, bound);
  const auto all = oracle::all_simple_paths(t, s, d, bound);
  const std::size_t want = std::min<std::size_t>(k, all.size());
  ASSERT_EQ(got.size(), want) << t.spec() << " " << s << "->" << d << " k=" << k << " bound=" << bound;
  std::set<LinkPath> distinct(got.begin(), got.end());
  EXPECT_EQ(distinct.size(), got.size());
  const std::set<LinkPath> every(all.begin(), all.end());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_TRUE(every.count(got[i])) << "not a simple path within the bound";
    EXPECT_EQ(got[i].size(), all[i].size()) << "hop count of path " << i;
    if (i) EXPECT_LE(got[i - 1].size(), got[i].size()) << "hops must not decrease";
  }
  if (!got.empty()) EXPECT_EQ(got[0], all[0]) << "first path is the lexicographically smallest shortest path";
}

}  // namespace

TEST(Yen, MatchesBruteForceOnSmallTopologies) {
  struct Case {
    const char* spec;
    int extra_hops;  // bound = diameter + extra
  };
  for (const Case c : {Case{"torus:3x3", 0}, Case{"torus:3x3", 2}, Case{"torus:4x4", 0}, Case{"torus:4x4", 1},
                       Case{"mesh:3x3", 2}, Case{"mesh:2x4", 3}, Case{"torus:4x3m", 1}, Case{"torus:2x2x2", 1},
                       Case{"bgq:2x2x2x2x1", 0}, Case{"torus:5", 0}, Case{"torus:2x3x1", 2}}) {
    const Network t = parse_network(c.spec);
    const int bound = t.diameter() + c.extra_hops;
    for (NodeId s = 0; s < t.num_vertices(); ++s)
      for (NodeId d = 0; d < t.num_vertices(); ++d)
        for (int k : {1, 3, 10, 60}) expect_k_shortest(t, s, d, k, bound);
  }
}

TEST(Yen, RandomPairsOnLargerTopologiesAgainstBruteForce) {
  Rng rng(11);
  for (const char* spec : {"bgq:2x2x2x2x2", "torus:4x4x2", "mesh:4x4"}) {
    const Network t = parse_network(spec);
    for (int trial = 0; trial < 25; ++trial) {
      const NodeId s = static_cast<NodeId>(rng.below(t.num_vertices()));
      const NodeId d = static_cast<NodeId>(rng.below(t.num_vertices()));
      const int bound = t.hop_distance(s, d) + static_cast<int>(rng.below(3));
      expect_k_shortest(t, s, d, 1 + static_cast<int>(rng.below(80)), bound);
    }
  }
}

TEST(Yen, HopBoundTooSmallGivesNoPath) {
  const Network t = parse_network("torus:4x4");
  EXPECT_TRUE(k_shortest_paths(t, *make_routing(t.default_routing(), t), 0, 10, 5, 3).empty());
  EXPECT_EQ(k_shortest_paths(t, *make_routing(t.default_routing(), t), 0, 10, 5, 4).front().size(), 4u);
}

TEST(Yen, SelfPairHasOneEmptyPath) {
  const Network t = parse_network("torus:4x4");
  const auto p = k_shortest_paths(t, *make_routing(t.default_routing(), t), 5, 5, 10);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_TRUE(p[0].empty());
}

TEST(Yen, BadArguments) {
  const Network t = parse_network("torus:4x4");
  EXPECT_THROW(k_shortest_paths(t, *make_routing(t.default_routing(), t), 0, 16, 5), Error);
  EXPECT_THROW(k_shortest_paths(t, *make_routing(t.default_routing(), t), -1, 3, 5), Error);
  EXPECT_THROW(k_shortest_paths(t, *make_routing(t.default_routing(), t), 0, 3, 0), Error);
}

TEST(Candidates, SharedAndThreadedGenerationEqualsPerPairSearch) {
  const Network t = parse_network("bgq:4x4x4x4x2");
  std::vector<Job> jobs;
  Rng rng(5);
  for (int i = 0; i < 200; ++i)  // enough pairs to use worker threads, with repeats
    jobs.push_back({static_cast<NodeId>(rng.below(64)), static_cast<NodeId>(rng.below(512)), 1});
  jobs.push_back(jobs[3]);
  std::size_t reports = 0;
  const CandidateSet set = generate_candidates(t, *make_routing(t.default_routing(), t), jobs, 20, -1, [&](const std::string&, std::size_t done,
                                                                    std::size_t total) {
    EXPECT_LE(done, total);
    ++reports;
  });
  EXPECT_GT(reports, 0u);
  ASSERT_EQ(set.per_job.size(), jobs.size());
  EXPECT_EQ(set.hop_bound, t.diameter());
  for (std::size_t i = 0; i < jobs.size(); i += 7)
    EXPECT_EQ(set.per_job[i], k_shortest_paths(t, *make_routing(t.default_routing(), t), jobs[i].src, jobs[i].dst, 20)) << i;
  EXPECT_EQ(set.per_job.back(), set.per_job[3]);
  EXPECT_EQ(generate_candidates(t, *make_routing(t.default_routing(), t), jobs, 20).per_job, set.per_job);
}

TEST(Candidates, SpreadOverTheSourcesLinks) {
  // On Mira 1024 a 6-hop pair has hundreds of shortest paths; the first 50 should leave the
  // source through several ports, not all through the lexicographically smallest one.
  const Network t = parse_network("mira:1024");
  const auto paths = k_shortest_paths(t, *make_routing(t.default_routing(), t), 0, 512 + 7, 50);
  std::set<LinkId> first_links;
  for (const auto& p : paths) first_links.insert(p.front());
  EXPECT_GE(first_links.size(), 4u);
}
