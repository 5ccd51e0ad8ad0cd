// Input that would make optiq overflow, loop or allocate without bound is refused up front:
// byte counts and their sums beyond signed 64 bits, paths that revisit nodes, topologies too
// large to hold, link bandwidths that are not positive finite numbers.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "optiq/core/bytes.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/plan_io.hpp"
#include "optiq/core/planner.hpp"

using namespace optiq;

namespace {

std::string plan_text(const std::string& topology, const std::string& jobs) {
  return R"({"format":"optiq-plan","version":1,"topology":")" + topology +
         R"(","routing":"dor","planner":"x","jobs":[)" + jobs + "]}";
}

// A job from node 0 to itself: one path of one node.
std::string self_job(Bytes bytes) {
  const std::string b = std::to_string(bytes);
  return R"({"src":0,"dst":0,"bytes":)" + b + R"(,"paths":[{"bytes":)" + b + R"(,"nodes":[0],"ports":[]}]})";
}

std::string error_of(const std::string& text) {
  try {
    plan_from_json(text, "p.json");
  } catch (const Error& e) {
    return e.what();
  }
  return "accepted";
}

// A walk of `hops` steps: `ring` steps around dimension A, then back, alternating.
std::string walk_job(int hops, int ring) {
  std::string nodes = "0", ports;
  int at = 0;
  for (int h = 0; h < hops; ++h) {
    at = (at + 1) % ring;
    nodes += "," + std::to_string(at * ring);  // torus:RxR, A is the slow dimension
    ports += std::string(h ? "," : "") + "\"A+\"";
  }
  return R"({"src":0,"dst":)" + std::to_string(at * ring) + R"(,"bytes":1,"paths":[{"bytes":1,"nodes":[)" + nodes +
         R"(],"ports":[)" + ports + "]}]}";
}

}  // namespace

TEST(Limits, PlanBytesMustFitSignedSixtyFourBits) {
  const Bytes quarter = Bytes(1) << 62;
  // Jobs of 2^63 bytes or more would be negative counts to the runtime.
  EXPECT_NE(error_of(plan_text("torus:4", self_job(kMaxBytes + 1))).find("more than optiq handles"), std::string::npos);
  EXPECT_NE(error_of(plan_text("torus:4", self_job(UINT64_MAX))).find("more than optiq handles"), std::string::npos);
  EXPECT_EQ(error_of(plan_text("torus:4", self_job(kMaxBytes))), "accepted");
  // Sums over jobs: two quarters of 2^64 fit 64 bits but not 63; five wrap 64 bits to 2^62.
  for (int n : {2, 5}) {
    std::string jobs;
    for (int i = 0; i < n; ++i) jobs += (i ? "," : "") + self_job(quarter);
    const std::string message = error_of(plan_text("torus:4", jobs));
    EXPECT_NE(message.find("the plan's bytes add up to more"), std::string::npos) << message;
    EXPECT_EQ(message.rfind("p.json: job 1", 0), 0u) << message;
  }
  // Path shares too: two paths of 2^63 bytes carry a wrapped 0 for a job of 0 bytes.
  const std::string two_paths = R"({"src":0,"dst":0,"bytes":0,"paths":[{"bytes":9223372036854775808,"nodes":[0],)"
                                R"("ports":[]},{"bytes":9223372036854775808,"nodes":[0],"ports":[]}]})";
  EXPECT_NE(error_of(plan_text("torus:4", two_paths)).find("paths' bytes add up to more"), std::string::npos);
}

TEST(Limits, PatternsWhoseBytesOverflowAreRefused) {
  const Network t = parse_network("torus:4");
  const auto routing = make_routing("dor", t);
  const std::vector<Job> wrapping(5, Job{0, 1, Bytes(1) << 62});
  for (const auto& name : planner_names()) EXPECT_THROW(make_plan(name, t, *routing, wrapping, {}).plan, Error) << name;
  try {
    parse_requests("0 1 4611686018427387904\n1 2 4611686018427387904\n", 4, "r.txt");
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("r.txt:2: the requests' bytes add up to more", 0), 0u) << e.what();
  }
}

TEST(Limits, PathsForwardAtDistinctNodesAndAreCheckedInLinearTime) {
  // Back and forth: a copy at node 1, where the job ends, and one at node 0, where it starts.
  const std::string back = R"({"src":0,"dst":1,"bytes":1,"paths":[{"bytes":1,"nodes":[0,1,0,1],"ports":["A+","A-","A+"]}]})";
  EXPECT_NE(error_of(plan_text("torus:4", back)).find("forwards at node 1 twice, or at an end"), std::string::npos);
  // Round a ring of 40 and beyond: the legs meet at node 0 again.
  EXPECT_NE(error_of(plan_text("torus:40x40", walk_job(45, 40))).find("forwards at node 0"), std::string::npos);
  // More hops than links is refused before the path is followed.
  EXPECT_NE(error_of(plan_text("torus:40x40", walk_job(100000, 40))).find("more than the network's 6400 links"),
            std::string::npos);
  // A 100,000-hop cyclic walk where the topology has more links than that.
  EXPECT_NE(error_of(plan_text("torus:400x400", walk_job(100000, 400))).find("forwards at node"),
            std::string::npos);

  // The longest simple path there is: a snake through all of torus:300x300.
  const Network t = parse_network("torus:300x300");
  Plan p{t.spec(), "dor", "x", {}};
  JobPlan jp{{0, 0, 7}, {{{}, 7}}};
  LinkPath& snake = jp.paths[0].links;
  NodeId at = 0;
  auto step = [&](int dim, int dir) {
    snake.push_back(t.torus()->link(at, dim, dir));
    at = t.link_dst(snake.back());
  };
  for (int row = 0; row < 300; ++row) {
    for (int k = 0; k < 299; ++k) step(1, row % 2 ? -1 : +1);
    if (row < 299) step(0, +1);
  }
  jp.job.dst = at;
  p.jobs.push_back(jp);
  ASSERT_EQ(p.jobs[0].paths[0].links.size(), 89999u);
  validate_plan(p, t);
  EXPECT_EQ(plan_from_json(plan_to_json(p, t)).jobs[0].paths[0].links, p.jobs[0].paths[0].links);
}

TEST(Limits, TopologiesTooLargeToHoldAreRefusedWhileReadingTheSpec) {
  EXPECT_EQ(parse_network("torus:4194304").num_vertices(), 1 << 22);
  EXPECT_EQ(parse_network("torus:2048x2048").num_links(), 1 << 24);
  for (const char* spec : {"torus:4194305", "torus:2048x2049", "mesh:9999999x9999999x9999999", "torus:64x64x64x64"}) {
    try {
      parse_network(spec);
      ADD_FAILURE() << "accepted " << spec;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("too large"), std::string::npos) << e.what();
    }
  }
  // 26 dimensions hold, 27 do not; a spec of a million dimensions stops at the 27th.
  std::string dims = "torus:2";
  for (int i = 1; i < 26; ++i) dims += "x1";
  EXPECT_EQ(parse_network(dims).torus()->dims(), 26);
  EXPECT_THROW(parse_network(dims + "x1"), Error);
  std::string huge = "mesh:1";
  for (int i = 0; i < 1000000; ++i) huge += "x1";
  EXPECT_THROW(parse_network(huge), Error);
  EXPECT_THROW(make_torus_network(std::vector<int>(27, 1), std::vector<bool>(27, false), kBgqLinkBandwidth, "", "dor"),
               Error);
  EXPECT_THROW(make_torus_network({4096, 4096}, {true, true}, kBgqLinkBandwidth, "", "dor"), Error);
  EXPECT_THROW(TorusShape(std::vector<int>(27, 1), std::vector<bool>(27, false)), Error);
  EXPECT_THROW(TorusShape({4096, 4096}, {true, true}), Error);
}

TEST(Limits, LinkBandwidthIsPositiveAndFinite) {
  for (double bw : {0.0, -1.0, std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                    std::numeric_limits<double>::quiet_NaN(), -0.0}) {
    EXPECT_THROW(parse_network("torus:4x4", bw), Error) << bw;
    EXPECT_THROW(make_torus_network({4}, {true}, bw, "torus:4", "dor"), Error) << bw;
  }
  const Network slow = parse_network("torus:4", 1e-300);
  for (LinkId l = 0; l < slow.num_links(); ++l) EXPECT_DOUBLE_EQ(slow.capacity(l), 1e-300) << l;
  const Network t = parse_network("torus:4");
  const auto routing = make_routing("dor", t);
  PlannerOptions o;
  for (double fwd : {-1.0, std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
    o.forward_bandwidth = fwd;
    EXPECT_THROW(make_plan("mcf", t, *routing, {{0, 2, 1 << 20}}, o).plan, Error) << fwd;
  }
}
