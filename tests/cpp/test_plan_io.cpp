#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "optiq/core/error.hpp"
#include "optiq/core/plan_io.hpp"
#include "optiq/core/planner.hpp"
#include "optiq/core/rng.hpp"

using namespace optiq;

namespace {

Plan sample_plan(const Network& t) {
  const auto routing = make_routing(t.default_routing(), t);
  const std::vector<Job> jobs = {{0, 5, 1000}, {3, 3, 10}, {2, 7, 0}, {6, 1, 77777}};
  PlannerOptions o;
  o.k = 6;
  o.heu2_chunk = 100;
  return make_plan("heu2", t, *routing, jobs, o).plan;
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
  const Network t = parse_network("bgq:2x2x2x2x2");
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
  EXPECT_EQ(q.seconds, 0) << "a plan that states no time";
  EXPECT_EQ(text.find("seconds"), std::string::npos);

  Plan timed = p;
  timed.seconds = 0.0093210661111111;  // any double comes back bit for bit
  const Plan back = plan_from_json(plan_to_json(timed, t));
  EXPECT_EQ(back.seconds, timed.seconds);
  EXPECT_EQ(plan_to_json(back, t), plan_to_json(timed, t));
}

// The writer's layout is part of the format's look: one job per line, compact members.
TEST(PlanJson, WritesTheDocumentedLayout) {
  const Network t = parse_network("torus:4x4");
  const auto routing = make_routing("dor", t);
  const Plan p = make_plan("default", t, *routing, {{0, 5, 1000}, {3, 3, 0}}, {}).plan;
  ASSERT_EQ(t.digest().size(), 16u);
  EXPECT_EQ(t.digest().find_first_not_of("0123456789abcdef"), std::string::npos) << t.digest();
  EXPECT_EQ(plan_to_json(p, t),
            "{\"format\":\"optiq-plan\",\"version\":2,\n"
            " \"topology\":\"torus:4x4\",\"network\":\"" + t.digest() +
                "\",\"routing\":\"dor\",\"planner\":\"default\",\n"
                " \"jobs\":[\n"
                "  {\"src\":0,\"dst\":5,\"bytes\":1000,\"paths\":[{\"bytes\":1000,\"nodes\":[0,4,5],\"links\":[\"0:A+\",\"4:B+\"]}]},\n"
                "  {\"src\":3,\"dst\":3,\"bytes\":0,\"paths\":[]}\n"
                "]}\n");
  Plan named = p;
  named.planner = "q\"\\\n\x01";
  EXPECT_NE(plan_to_json(named, t).find(R"("planner":"q\"\\\n\u0001")"), std::string::npos);
  EXPECT_EQ(plan_from_json(plan_to_json(named, t)).planner, named.planner);
  named.planner = "\xff";
  EXPECT_THROW(plan_to_json(named, t), Error);
}

// Version 1 files name ports instead of links and carry no digest; on a torus or mesh they
// still load, to the same plan the version 2 file of the same paths gives.
TEST(PlanJson, VersionOneFilesStillLoadOnTori) {
  // The documented version 1 layout, as the writer produced it before links had names.
  const Network t = parse_network("torus:4x4");
  const auto routing = make_routing("dor", t);
  const Plan p = make_plan("default", t, *routing, {{0, 5, 1000}, {3, 3, 0}}, {}).plan;
  const Plan q = plan_from_json(
      "{\"format\":\"optiq-plan\",\"version\":1,\n"
      " \"topology\":\"torus:4x4\",\"routing\":\"dor\",\"planner\":\"default\",\n"
      " \"jobs\":[\n"
      "  {\"src\":0,\"dst\":5,\"bytes\":1000,\"paths\":[{\"bytes\":1000,\"nodes\":[0,4,5],\"ports\":[\"A+\",\"B+\"]}]},\n"
      "  {\"src\":3,\"dst\":3,\"bytes\":0,\"paths\":[]}\n"
      "]}\n");
  EXPECT_EQ(plan_to_json(q, t), plan_to_json(p, t));

  // Every plan of a BG/Q torus with size-2 dimensions (two ports to one neighbour), rewritten
  // as version 1 with the port each hop leaves by.
  for (const char* spec : {"bgq:2x2x2x2x2", "torus:4x3m"}) {
    const Network n = parse_network(spec);
    const Plan plan = sample_plan(n);
    std::string v1 = R"({"format":"optiq-plan","version":1,"topology":")" + plan.topology + R"(","routing":")" +
                     plan.routing + R"(","planner":")" + plan.planner + R"(","jobs":[)";
    for (std::size_t j = 0; j < plan.jobs.size(); ++j) {
      const JobPlan& jp = plan.jobs[j];
      v1 += (j ? "," : "") + std::string(R"({"src":)") + std::to_string(jp.job.src) + R"(,"dst":)" +
            std::to_string(jp.job.dst) + R"(,"bytes":)" + std::to_string(jp.job.bytes) + R"(,"paths":[)";
      for (std::size_t i = 0; i < jp.paths.size(); ++i) {
        std::string nodes = std::to_string(jp.job.src), ports;
        for (std::size_t h = 0; h < jp.paths[i].links.size(); ++h) {
          const LinkId l = jp.paths[i].links[h];
          nodes += "," + std::to_string(n.link_dst(l));
          const std::string label = std::string(1, static_cast<char>('A' + n.torus()->link_dim(l))) +
                                    (n.torus()->link_direction(l) > 0 ? "+" : "-");
          ports += (h ? ",\"" : "\"") + label + "\"";
        }
        v1 += (i ? "," : "") + std::string(R"({"bytes":)") + std::to_string(jp.paths[i].bytes) + R"(,"nodes":[)" +
              nodes + R"(],"ports":[)" + ports + "]}";
      }
      v1 += "]}";
    }
    v1 += "]}";
    const Plan loaded = plan_from_json(v1, "v1.json");
    EXPECT_EQ(loaded.topology, plan.topology);
    ASSERT_EQ(loaded.jobs.size(), plan.jobs.size()) << spec;
    bool size_two_ports = false;
    for (std::size_t j = 0; j < plan.jobs.size(); ++j) {
      EXPECT_EQ(loaded.jobs[j].job.src, plan.jobs[j].job.src);
      EXPECT_EQ(loaded.jobs[j].job.dst, plan.jobs[j].job.dst);
      EXPECT_EQ(loaded.jobs[j].job.bytes, plan.jobs[j].job.bytes);
      ASSERT_EQ(loaded.jobs[j].paths.size(), plan.jobs[j].paths.size()) << spec << " job " << j;
      for (std::size_t i = 0; i < plan.jobs[j].paths.size(); ++i) {
        EXPECT_EQ(loaded.jobs[j].paths[i].links, plan.jobs[j].paths[i].links) << spec << " job " << j;
        EXPECT_EQ(loaded.jobs[j].paths[i].bytes, plan.jobs[j].paths[i].bytes);
        for (LinkId l : plan.jobs[j].paths[i].links)
          size_two_ports |= n.torus()->size(n.torus()->link_dim(l)) == 2 && n.torus()->link_direction(l) < 0;
      }
    }
    EXPECT_EQ(plan_to_json(loaded, n), plan_to_json(plan, n)) << spec;
    if (std::string(spec).rfind("bgq", 0) == 0) EXPECT_TRUE(size_two_ports) << "no - port of a size-2 ring was used";
  }
}

// A plan names the network it was made for; a different network under any spec is refused.
TEST(PlanJson, PlansForAnotherNetworkAreRefused) {
  const Network t = parse_network("torus:4x4");
  const std::string good = plan_to_json(sample_plan(t), t);
  const std::string digest = R"("network":")" + t.digest() + "\"";
  ASSERT_NE(good.find(digest), std::string::npos);
  EXPECT_NO_THROW(plan_from_json(good, "p.json"));

  std::string forged = good;
  forged.replace(forged.find(digest), digest.size(), R"("network":"0123456789abcdef")");
  ASSERT_NE(t.digest(), "0123456789abcdef");
  std::string message = expect_error(forged);
  EXPECT_NE(message.find("another network"), std::string::npos) << message;
  EXPECT_EQ(message.rfind("p.json", 0), 0u) << message;

  // The same spec's shape as a mesh: the same node count and (for these paths) the same link
  // names, but other wiring.
  const Network mesh = parse_network("mesh:4x4");
  ASSERT_NE(mesh.digest(), t.digest());
  std::string moved = good;
  moved.replace(moved.find("\"torus:4x4\""), 11, "\"mesh:4x4\"");
  message = expect_error(moved);
  EXPECT_NE(message.find("another network"), std::string::npos) << message;

  std::string unnamed = good;
  unnamed.erase(unnamed.find(digest), digest.size() + 1);  // the member and its comma
  message = expect_error(unnamed);
  EXPECT_NE(message.find("missing \"network\""), std::string::npos) << message;
}

TEST(PlanJson, FileRoundTripAndMissingFile) {
  const Network t = parse_network("torus:4x4");
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
  const std::string head2 = R"({"format":"optiq-plan","version":2,"topology":"torus:4x4","network":")" +
                            parse_network("torus:4x4").digest() + R"(","routing":"dor","planner":"x",)";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "invalid JSON at line 1, column 1"},
      {"{\"format\":", "invalid JSON"},
      {R"({"format":"other","version":1})", "not an optiq plan"},
      {R"({"format":"optiq-plan","version":3})", "version 3"},
      {R"({"format":"optiq-plan","version":0})", "version 0"},
      {head2 + R"("seconds":"1","jobs":[]})", "seconds: expected a number"},
      {head2 + R"("seconds":-0.5,"jobs":[]})", "seconds must be a finite number"},
      {head2 + R"("seconds":1e308,"jobs":[]})", "is more than a plan may state"},
      {head2 + R"("seconds":1.5,"jobs":[]})", "1000 times its predicted 0.0 s on its links or 1 s"},
      {R"({"format":"optiq-plan","version":1,"topology":"cube:3","routing":"dor","planner":"x","jobs":[]})",
       "unknown topology"},
      {R"({"format":"optiq-plan","version":1,"topology":"torus:4x4","routing":"zz","planner":"x","jobs":[]})",
       "unknown routing"},
      // Version 1: hops are ports.
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
      // Version 1 hops read as ports only: a version 1 file naming links is refused.
      {head + R"("jobs":[{"src":0,"dst":4,"bytes":5,"paths":[{"bytes":5,"nodes":[0,4],"links":["0:A+"]}]}]})",
       "missing \"ports\""},
      // Version 2: hops are link names.
      {head2 + R"("jobs":[{"src":0,"dst":4,"bytes":5,"paths":[{"bytes":5,"nodes":[0,4],"ports":["A+"]}]}]})",
       "missing \"links\""},
      {head2 + R"("jobs":[{"src":0,"dst":4,"bytes":5,"paths":[{"bytes":5,"nodes":[0,4],"links":["Q"]}]}]})",
       "no link named 'Q'"},
      {head2 + R"("jobs":[{"src":0,"dst":4,"bytes":5,"paths":[{"bytes":5,"nodes":[0,4],"links":["0:Q+"]}]}]})",
       "no link named '0:Q+'"},
      {head2 + R"("jobs":[{"src":0,"dst":4,"bytes":5,"paths":[{"bytes":5,"nodes":[0,4],"links":["1:A+"]}]}]})",
       "link 1:A+ leaves node 1, not 0"},
      {head2 + R"("jobs":[{"src":0,"dst":1,"bytes":5,"paths":[{"bytes":5,"nodes":[0,1],"links":["0:A+"]}]}]})",
       "link 0:A+ of node 0 leads to node 4, not 1"},
      {head2 + R"("jobs":[{"src":0,"dst":1,"bytes":5,"paths":[{"bytes":5,"nodes":[0,4],"links":["0:A+"]}]}]})",
       "ends at node 4"},
      {head2 + R"("jobs":[{"src":0,"dst":4,"bytes":5,"paths":[{"bytes":5,"nodes":[0,4,5],"links":["0:A+"]}]}]})",
       "one more node than links"},
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
  const Network t = parse_network("bgq:2x2x2x2x2");
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
      validate_plan(p, parse_network(p.topology));
      ++accepted;
    } catch (const Error&) {
    }
  }
  EXPECT_LT(accepted, 3000);
}
