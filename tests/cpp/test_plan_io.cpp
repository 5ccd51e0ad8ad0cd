#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "optiq/error.hpp"
#include "optiq/plan_io.hpp"
#include "optiq/planner.hpp"
#include "optiq/rng.hpp"

using namespace optiq;

namespace {

Plan sample_plan(const Topology& t) {
  const auto routing = make_routing(t.default_routing(), t);
  const std::vector<Job> jobs = {{0, 5, 1000}, {3, 3, 10}, {2, 7, 0}, {6, 1, 77777}};
  PlannerOptions o;
  o.k = 6;
  o.chunk = 100;
  return make_plan("heu2", t, *routing, jobs, o);
}

std::string expect_error(const std::string& text) {
  try {
    plan_from_json(text, "p.json");
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "accepted: " << text;
  return "";
}

}  // namespace

TEST(PlanJson, RoundTripsExactly) {
  const Topology t = parse_topology("bgq:2x2x2x2x2");
  const Plan p = sample_plan(t);
  const std::string text = plan_to_json(p, t);
  const Plan q = plan_from_json(text);
  EXPECT_EQ(q.topology, "bgq:2x2x2x2x2");
  EXPECT_EQ(q.routing, "bgq");
  EXPECT_EQ(q.planner, "heu2");
  ASSERT_EQ(q.jobs.size(), p.jobs.size());
  for (std::size_t j = 0; j < p.jobs.size(); ++j) {
    EXPECT_EQ(q.jobs[j].job.bytes, p.jobs[j].job.bytes);
    ASSERT_EQ(q.jobs[j].paths.size(), p.jobs[j].paths.size());
    for (std::size_t i = 0; i < p.jobs[j].paths.size(); ++i) {
      EXPECT_EQ(q.jobs[j].paths[i].links, p.jobs[j].paths[i].links);
      EXPECT_EQ(q.jobs[j].paths[i].bytes, p.jobs[j].paths[i].bytes);
    }
  }
  EXPECT_EQ(plan_to_json(q, t), text);
}

// The writer's layout is part of the format's look: one job per line, compact members.
TEST(PlanJson, WritesTheDocumentedLayout) {
  const Topology t = parse_topology("torus:4x4");
  const auto routing = make_routing("dor", t);
  const Plan p = make_plan("default", t, *routing, {{0, 5, 1000}, {3, 3, 0}}, {});
  EXPECT_EQ(plan_to_json(p, t),
            "{\"format\":\"optiq-plan\",\"version\":1,\n"
            " \"topology\":\"torus:4x4\",\"routing\":\"dor\",\"planner\":\"default\",\n"
            " \"jobs\":[\n"
            "  {\"src\":0,\"dst\":5,\"bytes\":1000,\"paths\":[{\"bytes\":1000,\"nodes\":[0,4,5],\"ports\":[\"A+\",\"B+\"]}]},\n"
            "  {\"src\":3,\"dst\":3,\"bytes\":0,\"paths\":[]}\n"
            "]}\n");
  Plan named = p;
  named.planner = "q\"\\\n\x01";
  EXPECT_NE(plan_to_json(named, t).find(R"("planner":"q\"\\\n\u0001")"), std::string::npos);
  EXPECT_EQ(plan_from_json(plan_to_json(named, t)).planner, named.planner);
  named.planner = "\xff";
  EXPECT_THROW(plan_to_json(named, t), Error);
}

TEST(PlanJson, FileRoundTripAndMissingFile) {
  const Topology t = parse_topology("torus:4x4");
  const Plan p = sample_plan(t);
  const std::string path = ::testing::TempDir() + "/optiq_plan_test.json";
  save_plan(p, t, path);
  EXPECT_EQ(plan_to_json(load_plan(path), t), plan_to_json(p, t));
  std::remove(path.c_str());
  EXPECT_THROW(load_plan(path), Error);
  EXPECT_THROW(save_plan(p, t, "/nonexistent-dir/x.json"), Error);
}

TEST(PlanJson, RejectsCorruptAndInconsistentFiles) {
  const std::string head = R"({"format":"optiq-plan","version":1,"topology":"torus:4x4","routing":"dor","planner":"x",)";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "invalid JSON at line 1, column 1"},
      {"{\"format\":", "invalid JSON"},
      {R"({"format":"other","version":1})", "not an optiq plan"},
      {R"({"format":"optiq-plan","version":2})", "version 2"},
      {R"({"format":"optiq-plan","version":1,"topology":"cube:3","routing":"dor","planner":"x","jobs":[]})",
       "unknown topology"},
      {R"({"format":"optiq-plan","version":1,"topology":"torus:4x4","routing":"zz","planner":"x","jobs":[]})",
       "unknown routing"},
      {head + R"("jobs":[{"src":0,"dst":1,"bytes":5,"paths":[{"bytes":4,"nodes":[0,4],"ports":["A+"]}]}]})",
       "ends at node 4"},
      {head + R"("jobs":[{"src":0,"dst":1,"bytes":5,"paths":[{"bytes":4,"nodes":[0,1],"ports":["B+"]}]}]})",
       "bytes"},
      {head + R"("jobs":[{"src":0,"dst":1,"bytes":5,"paths":[{"bytes":5,"nodes":[0,1],"ports":["A+"]}]}]})",
       "leads to node 4, not 1"},
      {head + R"("jobs":[{"src":0,"dst":1,"bytes":5,"paths":[{"bytes":5,"nodes":[0,1],"ports":["Q+"]}]}]})",
       "no port 'Q+'"},
      {head + R"("jobs":[{"src":0,"dst":99,"bytes":5,"paths":[]}]})", "node 99 is outside"},
      {head + R"("jobs":[{"src":0,"dst":1,"bytes":-5,"paths":[]}]})", "non-negative whole number"},
      {head + R"("jobs":[{"src":0,"dst":1,"bytes":5,"paths":[{"bytes":5,"nodes":[1,0],"ports":["B-"]}]}]})",
       "starts at node 1"},
      {head + R"("jobs":[{"src":0,"dst":1,"bytes":5}]})", "missing \"paths\""},
      {head + R"("jobs":[]} trailing)", "expected end of input"},
      {head + R"("jobs":[{"src":0,"dst":01,"bytes":5,"paths":[]}]})", "unexpected number literal"},  // a leading zero
      {head + R"("jobs":[{"src":0,"dst":1,"bytes":5,"bytes":5,"paths":[]}]})", "\"bytes\" appears twice"},
      {head + R"("jobs":[{"src":0,"dst":1,"bytes":18446744073709551616,"paths":[]}]})", "whole number"},
      {head + R"("jobs":[{"src":0,"dst":1,"bytes":5.0,"paths":[]}]})", "whole number"},
      {head + R"("jobs":[{"src":-0,"dst":1,"bytes":-0,"paths":[]}]})", "non-negative whole number"},
      {head + R"("jobs":[{"src":0,"dst":1,"bytes":1e999,"paths":[]}]})", "invalid JSON"},
      {head + "\"jobs\":[], \"x\":\"\xff\"}", "UTF-8"},
      {head + R"("jobs":[], "x":)" + std::string(200, '[') + std::string(200, ']') + "}", "nesting deeper"},
  };
  for (const auto& [text, needle] : cases) {
    const std::string message = expect_error(text);
    EXPECT_NE(message.find(needle), std::string::npos) << "message: " << message << "\nwanted: " << needle;
    EXPECT_EQ(message.rfind("p.json", 0), 0u) << message;
  }
}

// Mutated and truncated plan files must be rejected with optiq::Error or accepted as valid
// plans; nothing else (no crash, no other exception type, no invalid plan) is allowed.
TEST(PlanJson, MutatedFilesAreRejectedCleanly) {
  const Topology t = parse_topology("bgq:2x2x2x2x2");
  const std::string good = plan_to_json(sample_plan(t), t);
  Rng rng(99);
  const std::string alphabet = "{}[]\":,0123456789-+.eE ABCDtrufalsn\\";
  int accepted = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::string text = good;
    const int edits = 1 + static_cast<int>(rng.below(4));
    for (int e = 0; e < edits && !text.empty(); ++e) {
      const std::size_t at = rng.below(text.size());
      switch (rng.below(3)) {
        case 0: text[at] = alphabet[rng.below(alphabet.size())]; break;
        case 1: text.erase(at, 1 + rng.below(8)); break;
        default: text.resize(at); break;
      }
    }
    try {
      const Plan p = plan_from_json(text, "fuzz");
      validate_plan(p, parse_topology(p.topology));
      ++accepted;
    } catch (const Error&) {
    }
  }
  EXPECT_LT(accepted, 3000);
}
