// Node aggregation without MPI: which jobs join a pair of nodes, who gathers and scatters, and
// that the flows of a pair's plan carry every byte of every member job exactly once.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "optiq/core/legs.hpp"
#include "optiq/core/planner.hpp"
#include "optiq/core/rng.hpp"
#include "optiq/core/schedule.hpp"

using namespace optiq;

namespace {

// Ranks dealt at random over the first `used` endpoints: uneven counts, some nodes empty.
std::vector<NodeId> uneven(const Network& t, int ranks, int used, Rng& rng) {
  std::vector<NodeId> map(ranks);
  for (NodeId& n : map) n = t.endpoints()[rng.below(static_cast<std::uint64_t>(used))];
  return map;
}

std::vector<RankJob> random_jobs(int ranks, Rng& rng) {
  std::vector<RankJob> jobs;
  for (Rank s = 0; s < ranks; ++s)
    for (Rank d = 0; d < ranks; ++d)
      if (rng.below(3) == 0) jobs.push_back({s, d, rng.below(5) == 0 ? 0 : 1 + rng.below(100000), 0});
  return jobs;
}

}  // namespace

TEST(NodeAggregation, PairsLeaveOutSameNodeAndEmptyJobs) {
  const Network t = parse_network("torus:4");
  const RankMap pl(t, 6, 1, {0, 0, 1, 1, 2, 3});
  const std::vector<RankJob> jobs = {{0, 1, 5, 0}, {0, 2, 7, 0}, {1, 3, 11, 0}, {4, 5, 0, 0}, {3, 0, 2, 0}};
  const auto pairs = node_pairs(pl, jobs);
  ASSERT_EQ(pairs.size(), 2u);  // (0,1) from two jobs; (1,0); the same-node and empty jobs are out
  EXPECT_EQ(pairs[0].src, 0);
  EXPECT_EQ(pairs[0].dst, 1);
  EXPECT_EQ(pairs[0].bytes, 18u);
  EXPECT_EQ(pairs[0].members, (std::vector<std::size_t>{1, 2}));
  EXPECT_EQ(pairs[1].src, 1);
  EXPECT_EQ(pairs[1].dst, 0);
  EXPECT_EQ(pairs[1].members, (std::vector<std::size_t>{4}));
}

TEST(NodeAggregation, TheHeaviestSenderGathersAndEqualsSpreadOverTheNodesRanks) {
  const Network t = parse_network("torus:6");
  const RankMap pl(t, 8, 4);  // ranks 0-3 on node 0, 4-7 on node 1
  // Rank 2 sends the most of the pair's bytes, rank 6 receives the most: they gather and scatter.
  const std::vector<RankJob> heavy = {{0, 4, 10, 0}, {2, 5, 30, 0}, {2, 6, 25, 0}, {3, 6, 20, 0}};
  const NodePair pair = node_pairs(pl, heavy).front();
  EXPECT_EQ(gathering_rank(pl, pair, heavy), 2);
  EXPECT_EQ(scattering_rank(pl, pair, heavy), 6);
  // Every rank alike: the pairs to four other nodes are gathered by four different ranks.
  const RankMap wide(t, 24, 4);  // four ranks on each of the six nodes
  std::vector<RankJob> even;
  for (Rank s = 0; s < 4; ++s)
    for (Rank d = 4; d < 20; ++d) even.push_back({s, d, 100, 0});
  std::set<Rank> gathering, scattering;
  for (const NodePair& p : node_pairs(wide, even)) {
    gathering.insert(gathering_rank(wide, p, even));
    scattering.insert(scattering_rank(wide, p, even) % 4);
  }
  EXPECT_EQ(gathering, (std::set<Rank>{0, 1, 2, 3}));
  EXPECT_EQ(scattering, (std::set<Rank>{0}));  // every pair comes from node 0: each node's first from 0 mod 4
}

// Every member job's bytes arrive once, in order-independent pieces that tile the job; each
// piece starts at its source, passes the pair's gathering and scattering ranks, and ends at its
// destination; no rank appears twice on a piece's way.
TEST(NodeAggregation, FlowsTileEveryJobOnRandomLayoutsAndPlans) {
  for (const char* spec : {"torus:4x4", "mesh:3x3", "fattree:2;4,4;1,2;1,1", "dragonfly:2,1;2,1;2,1;1"}) {
    const Network t = parse_network(spec);
    const auto routing = make_routing(t.default_routing(), t);
    const Legs legs(t, *routing);
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
      Rng rng(seed);
      const int ranks = 2 + static_cast<int>(rng.below(14));
      const int used = 1 + static_cast<int>(rng.below(std::min<std::uint64_t>(t.endpoints().size(), ranks)));
      const RankMap pl(t, ranks, 1, uneven(t, ranks, used, rng));
      const auto jobs = random_jobs(ranks, rng);
      const auto pairs = node_pairs(pl, jobs);
      std::vector<Job> node_jobs;
      for (const NodePair& p : pairs) node_jobs.push_back({p.src, p.dst, p.bytes});
      const std::string planner = seed % 2 ? "heu2" : "mcf";
      PlannerOptions po;
      po.k = 6;
      po.heu2_chunk = 4096;
      const Plan plan = make_plan(planner, t, *routing, node_jobs, po).plan;
      std::vector<Flow> flows;
      for (std::size_t k = 0; k < pairs.size(); ++k) append_pair_flows(t, legs, pl, jobs, pairs[k], plan.jobs[k], &flows);

      std::map<std::size_t, std::vector<std::pair<Bytes, Bytes>>> pieces;
      for (const Flow& f : flows) {
        const RankJob& j = jobs[f.job];
        const NodeId a = pl.node_of(j.src), b = pl.node_of(j.dst);
        SCOPED_TRACE(std::string(spec) + " seed " + std::to_string(seed) + " job " + std::to_string(f.job));
        ASSERT_GT(f.bytes, 0u);
        EXPECT_EQ(f.hops.front(), j.src);
        EXPECT_EQ(f.hops.back(), j.dst);
        const NodePair& pair = *std::find_if(pairs.begin(), pairs.end(),
                                             [&](const NodePair& p) { return p.src == a && p.dst == b; });
        const Rank gather = gathering_rank(pl, pair, jobs), scatter = scattering_rank(pl, pair, jobs);
        EXPECT_EQ(f.hops[j.src == gather ? 0 : 1], gather);
        const std::size_t n = f.hops.size();
        EXPECT_EQ(f.hops[j.dst == scatter ? n - 1 : n - 2], scatter);
        EXPECT_EQ(std::set<Rank>(f.hops.begin(), f.hops.end()).size(), n);
        for (std::size_t h = 1; h + 1 < n; ++h) {  // ranks between the two nodes run on neither
          const NodeId v = pl.node_of(f.hops[h]);
          const bool end_node = v == a || v == b;
          EXPECT_TRUE(end_node == (f.hops[h] == gather || f.hops[h] == scatter));
        }
        pieces[f.job].push_back({f.offset, f.bytes});
      }
      for (std::size_t i = 0; i < jobs.size(); ++i) {
        const RankJob& j = jobs[i];
        const bool crosses = j.bytes > 0 && pl.node_of(j.src) != pl.node_of(j.dst);
        auto& p = pieces[i];
        if (!crosses) {
          EXPECT_TRUE(p.empty());
          continue;
        }
        std::sort(p.begin(), p.end());
        Bytes at = j.offset;
        for (const auto& [offset, bytes] : p) {
          EXPECT_EQ(offset, at) << spec << " seed " << seed << " job " << i;
          at = offset + bytes;
        }
        EXPECT_EQ(at, j.offset + j.bytes) << spec << " seed " << seed << " job " << i;
      }
    }
  }
}
