#include <gtest/gtest.h>

#include <map>

#include "optiq/core/legs.hpp"
#include "optiq/core/routing.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/metrics.hpp"
#include "optiq/core/plan_io.hpp"
#include "optiq/core/planner.hpp"
#include "optiq/core/rng.hpp"

using namespace optiq;

namespace {

std::vector<Job> random_jobs(const Network& t, Rng& rng, int count, Bytes max_bytes) {
  std::vector<Job> jobs;
  for (int i = 0; i < count; ++i) {
    Job j;
    j.src = static_cast<NodeId>(rng.below(t.num_vertices()));
    j.dst = static_cast<NodeId>(rng.below(t.num_vertices()));
    j.bytes = rng.below(max_bytes + 1);  // includes zero-byte jobs
    jobs.push_back(j);
  }
  return jobs;
}

}  // namespace

// Property test: every planner on random patterns gives valid plans (adjacent links from src to
// dst, bytes conserved) and the same plan for the same input.
TEST(Planners, RandomPatternsGiveValidDeterministicPlans) {
  Rng rng(2024);
  for (const char* spec : {"torus:4x4", "mesh:3x5", "bgq:2x2x2x2x2", "torus:4x4x2m", "torus:6"}) {
    const Network t = parse_network(spec);
    const auto routing = make_routing(t.default_routing(), t);
    for (int trial = 0; trial < 6; ++trial) {
      const auto jobs = random_jobs(t, rng, 1 + static_cast<int>(rng.below(40)), 1 + rng.below(1 << 20));
      PlannerOptions o;
      o.k = 1 + static_cast<int>(rng.below(12));
      o.maxload = 1 + static_cast<int>(rng.below(6));
      o.heu2_chunk = 1 + rng.below(50000);
      for (const auto& name : planner_names()) {
        const Plan a = make_plan(name, t, *routing, jobs, o).plan;
        ASSERT_NO_THROW(validate_plan(a, t)) << spec << " " << name;
        const Plan b = make_plan(name, t, *routing, jobs, o).plan;
        EXPECT_EQ(plan_to_json(a, t), plan_to_json(b, t)) << "not deterministic: " << name;
        for (std::size_t j = 0; j < jobs.size(); ++j) {
          EXPECT_EQ(a.jobs[j].paths.empty(), jobs[j].bytes == 0) << name;
          for (const PathShare& p : a.jobs[j].paths) EXPECT_GT(p.bytes, 0u) << name;
        }
        const Metrics m = compute_metrics(a, t);
        Bytes total = 0;
        for (const Job& j : jobs) total += j.bytes;
        EXPECT_EQ(m.total_bytes, total);
      }
    }
  }
}

TEST(Heu1, SplitsBytesEquallyAndRespectsMaxloadWhenItCan) {
  const Network t = parse_network("mira:512");
  const auto routing = make_routing("bgq", t);
  PatternOptions po;
  po.num_nodes = t.num_vertices();
  const auto jobs = assign_sizes(named_pattern("disjoint", po), "1000003", 0);
  const CandidateSet cs = generate_candidates(t, *make_routing(t.default_routing(), t), jobs, 50);
  const Plan p = plan_heu1(t, *routing, jobs, cs, 8);
  validate_plan(p, t);
  for (const JobPlan& jp : p.jobs) {
    Bytes lo = UINT64_MAX, hi = 0;
    for (const PathShare& s : jp.paths) lo = std::min(lo, s.bytes), hi = std::max(hi, s.bytes);
    EXPECT_LE(hi - lo, 1u);
  }
  EXPECT_LE(compute_metrics(p, t).paths_per_link_max, 8u);
}

TEST(Heu1, RaisesTheLimitInsteadOfStarvingAJob) {
  // Eight jobs share one 2-node ring segment; with maxload 1 only one path per link fits, so
  // the limit must rise until every job has a path.
  const Network t = parse_network("mesh:2");
  const auto routing = make_routing("dor", t);
  const std::vector<Job> jobs(8, Job{0, 1, 100});
  const Plan p = plan_heu1(t, *routing, jobs, generate_candidates(t, *make_routing(t.default_routing(), t), jobs, 5), 1);
  validate_plan(p, t);
  for (const JobPlan& jp : p.jobs) EXPECT_EQ(jp.paths.size(), 1u);
  EXPECT_THROW(plan_heu1(t, *routing, jobs, generate_candidates(t, *make_routing(t.default_routing(), t), jobs, 5), 0), Error);
}

TEST(Planners, JobWithoutCandidatesFailsInsteadOfLooping) {
  const Network t = parse_network("torus:4x4");
  const auto routing = make_routing("dor", t);
  const std::vector<Job> jobs = {{0, 1, 10}, {0, 10, 10}};
  PlannerOptions o;
  o.hop_bound = 2;  // node 10 is 4 hops from node 0
  for (const char* name : {"heu1", "heu2"}) {
    try {
      make_plan(name, t, *routing, jobs, o).plan;
      FAIL() << name;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("job 1 (0->10)"), std::string::npos) << e.what();
    }
  }
}

TEST(Heu2, ChunkStaysConstantAndOnlyTheLastPieceIsSmaller) {
  const Network t = parse_network("torus:8");
  const auto routing = make_routing("dor", t);
  // Job 0 ends with a short remainder first; job 1 must still move in full chunks afterwards.
  const std::vector<Job> jobs = {{0, 4, 1000 * 3 + 1}, {1, 5, 1000 * 3}};
  const Plan p = plan_heu2(t, *routing, jobs, generate_candidates(t, *make_routing(t.default_routing(), t), jobs, 4), 1000);
  validate_plan(p, t);
  for (const JobPlan& jp : p.jobs)
    for (const PathShare& s : jp.paths) EXPECT_TRUE(s.bytes % 1000 == 0 || s.bytes % 1000 == 1) << s.bytes;
  EXPECT_THROW(plan_heu2(t, *routing, jobs, generate_candidates(t, *make_routing(t.default_routing(), t), jobs, 4), 0), Error);
}

TEST(Heu2, BalancesTwoEqualPathsExactly) {
  // On a 4-ring, 0 -> 2 has two 2-hop paths; heu2 must split evenly.
  const Network t = parse_network("torus:4");
  const auto routing = make_routing("dor", t);
  const std::vector<Job> jobs = {{0, 2, 64 * 1024}};
  const Plan p = plan_heu2(t, *routing, jobs, generate_candidates(t, *make_routing(t.default_routing(), t), jobs, 10), 1024);
  ASSERT_EQ(p.jobs[0].paths.size(), 2u);
  EXPECT_EQ(p.jobs[0].paths[0].bytes, 32u * 1024);
  EXPECT_EQ(compute_metrics(p, t).link_bytes_max, 32u * 1024);
}

TEST(Planners, UnknownPlannerAndNodesAreErrors) {
  const Network t = parse_network("torus:4x4");
  const auto routing = make_routing("dor", t);
  EXPECT_THROW(make_plan("opt9", t, *routing, {{0, 1, 1}}, PlannerOptions{}).plan, Error);
  EXPECT_THROW(make_plan("default", t, *routing, {{0, 16, 1}}, PlannerOptions{}).plan, Error);
  PlannerOptions o;
  o.k = 0;
  EXPECT_THROW(make_plan("heu1", t, *routing, {{0, 1, 1}}, o).plan, Error);
}

// The thesis' 1024-node 1:8 cases: both heuristics must relieve the busiest link.
TEST(PublishedAnchors, HeuristicsBeatDefaultRoutingOnMira1024) {
  const Network t = parse_network("mira:1024");
  const auto routing = make_routing("bgq", t);
  for (const char* pattern : {"disjoint", "overlap", "subset"}) {
    PatternOptions po;
    po.num_nodes = t.num_vertices();
    const auto jobs = assign_sizes(named_pattern(pattern, po), "8MiB", 0);
    const CandidateSet cs = generate_candidates(t, *make_routing(t.default_routing(), t), jobs, 50);
    const Bytes base = compute_metrics(plan_default(t, *routing, jobs), t).link_bytes_max;
    const Plan h1 = plan_heu1(t, *routing, jobs, cs, 16);
    const Plan h2 = plan_heu2(t, *routing, jobs, cs, 64 * 1024);
    validate_plan(h1, t);
    validate_plan(h2, t);
    EXPECT_LT(compute_metrics(h1, t).link_bytes_max, base) << pattern;
    EXPECT_LT(compute_metrics(h2, t).link_bytes_max, base) << pattern;
    EXPECT_LE(compute_metrics(h1, t).paths_per_link_max, 16u) << pattern;
  }
}

TEST(Metrics, CountsPathsLinksHopsAndTime) {
  const Network t = parse_network("torus:4", 1000.0);
  Plan p{t.spec(), "dor", "hand", {}};
  const TorusShape& s = *t.torus();
  const LinkId a = s.link(0, 0, +1), b = s.link(1, 0, +1), c = s.link(0, 0, -1), d = s.link(3, 0, -1);
  p.jobs.push_back({{0, 2, 300}, {{{a, b}, 200}, {{c, d}, 100}}});
  p.jobs.push_back({{1, 2, 50}, {{{b}, 50}}});
  p.jobs.push_back({{3, 3, 5}, {{{}, 5}}});
  p.jobs.push_back({{2, 1, 0}, {}});
  validate_plan(p, t);
  const Metrics m = compute_metrics(p, t);
  EXPECT_EQ(m.paths, 4u);
  EXPECT_EQ(m.paths_per_job_max, 2u);
  EXPECT_DOUBLE_EQ(m.paths_per_job_avg, 4.0 / 3.0);
  EXPECT_EQ(m.links_used, 4u);
  EXPECT_EQ(m.paths_per_link_max, 2u);  // link b
  EXPECT_DOUBLE_EQ(m.paths_per_link_avg, 5.0 / 4.0);
  EXPECT_EQ(m.link_bytes_max, 250u);
  EXPECT_EQ(m.hops_max, 2u);
  EXPECT_DOUBLE_EQ(m.hops_avg, 5.0 / 4.0);
  EXPECT_EQ(m.total_bytes, 355u);
  EXPECT_DOUBLE_EQ(m.predicted_seconds, 0.25);
  EXPECT_DOUBLE_EQ(m.predicted_throughput, 355 / 0.25);
}
