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

TEST(NodeAggregation, GatheringSpreadsOverTheNodesRanks) {
  const Network t = parse_network("torus:6");
  const RankMap pl(t, 8, 4);  // ranks 0-3 on node 0, 4-7 on node 1
  std::set<Rank> gathering, scattering;
  for (NodeId d = 1; d < 5; ++d) gathering.insert(gathering_rank(pl, 0, d));
  EXPECT_EQ(gathering, (std::set<Rank>{0, 1, 2, 3}));
  for (NodeId s : {2, 3, 4, 5}) scattering.insert(scattering_rank(pl, s, 1));
  EXPECT_EQ(scattering, (std::set<Rank>{4, 5, 6, 7}));
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
        EXPECT_EQ(f.hops[j.src == gathering_rank(pl, a, b) ? 0 : 1], gathering_rank(pl, a, b));
        const std::size_t n = f.hops.size();
        EXPECT_EQ(f.hops[j.dst == scattering_rank(pl, a, b) ? n - 1 : n - 2], scattering_rank(pl, a, b));
        EXPECT_EQ(std::set<Rank>(f.hops.begin(), f.hops.end()).size(), n);
        for (std::size_t h = 1; h + 1 < n; ++h) {  // ranks between the two nodes run on neither
          const NodeId v = pl.node_of(f.hops[h]);
          const bool end_node = v == a || v == b;
          EXPECT_TRUE(end_node == (f.hops[h] == gathering_rank(pl, a, b) || f.hops[h] == scattering_rank(pl, a, b)));
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
