// graph:FILE networks: reading node-link JSON, writing any network as one, and a torus that
// goes through a file and comes back planning exactly as the generator's.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "optiq/core/error.hpp"
#include "optiq/core/metrics.hpp"
#include "optiq/core/network.hpp"
#include "optiq/core/network_routing.hpp"
#include "optiq/core/pattern.hpp"
#include "optiq/core/planner.hpp"
#include "optiq/core/routing.hpp"

namespace {

using namespace optiq;

TEST(GraphFile, ATorusThroughAFilePlansAsTheGenerator) {
  const Network torus = parse_network("bgq:2x2x2x4x2");
  const auto bgq = make_routing("bgq", torus);
  const Network back = parse_graph_network(network_to_graph_json(torus, bgq.get()), "t.json", "graph:t.json");
  ASSERT_EQ(back.num_vertices(), torus.num_vertices());
  ASSERT_EQ(back.num_links(), torus.num_links());
  ASSERT_NE(back.torus(), nullptr);  // the file carries the torus hint
  EXPECT_EQ(back.torus()->sizes(), torus.torus()->sizes());
  EXPECT_EQ(back.default_routing(), "table");
  EXPECT_EQ(back.digest(), torus.digest());  // same wiring, same names
  for (LinkId l = 0; l < torus.num_links(); ++l) {
    EXPECT_EQ(back.link_src(l), torus.link_src(l));
    EXPECT_EQ(back.link_dst(l), torus.link_dst(l));
    EXPECT_EQ(back.capacity(l), torus.capacity(l));
    EXPECT_EQ(back.link_name(l), torus.link_name(l));
  }
  const auto table = make_routing("table", back);
  for (NodeId s = 0; s < torus.num_vertices(); ++s)
    for (NodeId t = 0; t < torus.num_vertices(); ++t) ASSERT_EQ(table->route(s, t), bgq->route(s, t));

  PatternOptions po;
  po.num_nodes = torus.num_vertices();
  for (const char* pattern : {"disjoint", "overlap", "subset", "random"}) {
    const auto jobs = assign_sizes(named_pattern(pattern, po), "1MiB", 0);
    for (const char* planner : {"default", "heu1", "heu2", "mcf"}) {
      const Plan a = make_plan(planner, torus, *bgq, jobs, {}).plan;
      const Plan b = make_plan(planner, back, *table, jobs, {}).plan;
      EXPECT_EQ(compute_metrics(b, back).link_bytes_max, compute_metrics(a, torus).link_bytes_max)
          << planner << " on " << pattern;
    }
  }
}

// Without the hint a torus is just a graph: the candidate paths are the same (the spur search
// finds the same smallest shortest paths breadth-first), so the heuristics plan exactly as
// before; mcf's pricing loses its coordinate potential, which changes which of equally cheap
// paths it takes, not how good its plan is.
TEST(GraphFile, ATorusWithoutItsHintPlansAsWell) {
  const Network torus = parse_network("torus:4x4x3");
  const auto dor = make_routing("dor", torus);
  std::string text = network_to_graph_json(torus, dor.get());
  const auto at = text.find("\"torus\"");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 5 + 2, "\"hint_dropped\"");
  const Network plain = parse_graph_network(text, "plain.json", "graph:plain.json");
  ASSERT_EQ(plain.torus(), nullptr);
  const auto table = make_routing("table", plain);
  PatternOptions po;
  po.num_nodes = torus.num_vertices();
  for (const char* pattern : {"disjoint", "subset", "random"}) {
    const auto jobs = assign_sizes(named_pattern(pattern, po), "1MiB", 0);
    for (const char* planner : {"default", "heu1", "heu2"}) {
      const Plan a = make_plan(planner, torus, *dor, jobs, {}).plan;
      const Plan b = make_plan(planner, plain, *table, jobs, {}).plan;
      EXPECT_EQ(compute_metrics(b, plain).link_bytes_max, compute_metrics(a, torus).link_bytes_max)
          << planner << " on " << pattern;
    }
    const double with = compute_metrics(make_plan("mcf", torus, *dor, jobs, {}).plan, torus).link_bytes_max;
    const double without = compute_metrics(make_plan("mcf", plain, *table, jobs, {}).plan, plain).link_bytes_max;
    EXPECT_NEAR(without, with, 0.01 * with) << "mcf on " << pattern;
  }
}

const char* kSmall = R"({"directed": false, "multigraph": true,
  "nodes": [{"id": "h0"}, {"id": "h1", "kind": "endpoint"}, {"id": "sw", "kind": "switch"}, {"id": 7, "kind": "io"}],
  "links": [{"source": "h0", "target": "sw", "capacity": 2e9, "name": "a"},
            {"source": "h1", "target": "sw", "capacity": 1e9},
            {"source": 7, "target": "sw", "capacity": 4e9, "name": "io"}]})";

TEST(GraphFile, UndirectedLinksGoBothWaysAndKindsAreKept) {
  const Network n = parse_graph_network(kSmall, "small.json", "graph:small.json");
  EXPECT_EQ(n.num_vertices(), 4);
  EXPECT_EQ(n.num_links(), 6);
  EXPECT_EQ(n.endpoints(), (std::vector<NodeId>{0, 1}));
  EXPECT_EQ(n.kind(2), VertexKind::Switch);
  EXPECT_EQ(n.kind(3), VertexKind::Io);
  EXPECT_EQ(n.vertex_name(3), "7");
  EXPECT_EQ(n.link_name(0), "a>");
  EXPECT_EQ(n.link_name(1), "a<");
  EXPECT_EQ(n.link_name(2), "1-2");  // unnamed: by vertex numbers
  EXPECT_EQ(n.link_src(1), 2);
  EXPECT_EQ(n.capacity(5), 4e9);
  EXPECT_EQ(n.default_routing(), "shortest");
  EXPECT_EQ(make_routing("shortest", n)->route(0, 1), (LinkPath{0, 3}));
  EXPECT_THROW(make_routing("bgq", n), Error);

  // The same network written out and read back.
  const Network again = parse_graph_network(network_to_graph_json(n), "again.json", "graph:again.json");
  EXPECT_EQ(again.digest(), n.digest());
  for (LinkId l = 0; l < n.num_links(); ++l) EXPECT_EQ(again.capacity(l), n.capacity(l));
}

TEST(GraphFile, TablesAreReadByLinkName) {
  const std::string doc = R"({"nodes": [{"id": 0}, {"id": 1}, {"id": 2}],
    "links": [{"source": 0, "target": 1, "capacity": 1e9, "name": "01"}, {"source": 1, "target": 2, "capacity": 1e9},
              {"source": 0, "target": 2, "capacity": 1e9, "name": "02"}, {"source": 2, "target": 0, "capacity": 1e9}],
    "routing": {"table": {"0": {"2": "01"}, "1": {"2": "1-2"}, "2": {"0": "2-0"}}}})";
  const Network n = parse_graph_network(doc, "t.json", "graph:t.json");
  EXPECT_EQ(n.default_routing(), "table");
  const auto r = make_routing("table", n);
  EXPECT_EQ(r->route(0, 2), (LinkPath{0, 1}));  // the table's detour, not the direct link
  EXPECT_EQ(r->route(2, 0), (LinkPath{3}));
  EXPECT_THROW(r->route(1, 0), Error);  // vertex 1 has no entry for 0
}

void expect_refused(const std::string& doc, const std::string& needle) {
  try {
    parse_graph_network(doc, "bad.json", "graph:bad.json");
    ADD_FAILURE() << "accepted: " << doc;
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("bad.json"), std::string::npos) << what;
    EXPECT_NE(what.find(needle), std::string::npos) << "wanted '" << needle << "' in: " << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

TEST(GraphFile, EveryDefectIsOneLineNamingIt) {
  const std::string two = R"("nodes": [{"id": 0}, {"id": 1}])";
  expect_refused("[]", "expected a JSON object");
  expect_refused(R"({"links": []})", "missing \"nodes\"");
  expect_refused(R"({"nodes": [], "links": []})", "at least one vertex");
  expect_refused("{" + two + "}", "missing \"links\"");
  expect_refused(R"({"nodes": [{"id": 0, "kind": "router"}], "links": []})", "unknown kind 'router'");
  expect_refused(R"({"nodes": [{"id": 0}, {"id": 0}], "links": []})", "listed twice");
  expect_refused(R"({"nodes": [{"id": null}], "links": []})", "whole number or a string");
  expect_refused("{" + two + R"(, "links": [{"source": 0, "target": 5, "capacity": 1}]})", "no node has the id 5");
  expect_refused("{" + two + R"(, "links": [{"source": 0, "target": 1, "capacity": 0}]})", "positive number");
  expect_refused("{" + two + R"(, "links": [{"source": 0, "target": 1, "capacity": "fast"}]})", "positive number");
  expect_refused("{" + two + R"(, "links": [{"source": 0, "target": 1}]})", "missing \"capacity\"");
  expect_refused("{" + two + R"(, "links": [{"source": 0, "target": 0, "capacity": 1}]})", "loop");
  expect_refused("{" + two + R"(, "links": [{"source": 0, "target": 1, "capacity": 1, "name": "x"},
                                            {"source": 1, "target": 0, "capacity": 1, "name": "x"}]})",
                 "is taken");
  expect_refused("{" + two + R"(, "links": [], "routing": "ecmp"})", "unknown routing 'ecmp'");
  expect_refused("{" + two + R"(, "links": [], "routing": "bgq"})", "needs a torus");
  expect_refused("{" + two + R"(, "links": [], "graph": {"torus": {"sizes": [3], "wrap": [true]}}})", "torus hint");
  expect_refused("{" + two + R"(, "links": [{"source": 0, "target": 1, "capacity": 1, "name": "x"},
                                            {"source": 1, "target": 0, "capacity": 1}],
                  "graph": {"torus": {"sizes": [2], "wrap": [false]}}})",
                 "named 'x', not '0:A+'");
  expect_refused("{" + two + R"(, "links": [{"source": 0, "target": 1, "capacity": 1, "name": "x"}],
                  "routing": {"table": {"1": {"0": "x"}}}})",
                 "does not leave node 1");
  expect_refused("{" + two + R"(, "links": [], "routing": {"table": {"0": {"1": "y"}}}})", "no link is named 'y'");
  expect_refused("{" + two + R"(, "links": [], "routing": {"table": {"9": {}}}})", "no node has the id 9");
  expect_refused("{" + two + R"(, "links": [], "directed": "yes"})", "true or false");
  expect_refused(R"({"nodes": [{"id": 0}], "links": [], "nodes": []})", "appears twice");
}

TEST(GraphFile, GraphSpecsReadTheFile) {
  const std::string path = testing::TempDir() + "optiq-graph-spec.json";
  std::ofstream(path) << kSmall;
  const Network n = parse_network("graph:" + path);
  EXPECT_EQ(n.spec(), "graph:" + path);
  EXPECT_EQ(n.num_links(), 6);
  std::remove(path.c_str());
  EXPECT_THROW(parse_network("graph:" + path), Error);  // gone
  EXPECT_THROW(parse_network("graph:"), Error);
}

}  // namespace

TEST(GraphFile, ATableWhoseRoutesLoopIsRefusedWhenRead) {
  // To node 3: 0 -> 1 -> 2 -> 0 -> ... never arrives. Every command reads the file this way, so
  // `optiq platform` refuses it as `optiq plan` does.
  const std::string loop = R"({"nodes": [{"id": 0}, {"id": 1}, {"id": 2}, {"id": 3}],
    "links": [{"source": 0, "target": 1, "capacity": 1e9}, {"source": 1, "target": 2, "capacity": 1e9},
              {"source": 2, "target": 0, "capacity": 1e9}, {"source": 2, "target": 3, "capacity": 1e9}],
    "routing": {"table": {"0": {"3": "0-1"}, "1": {"3": "1-2"}, "2": {"3": "2-0"}}}})";
  expect_refused(loop, "routes to node 3 loop through node 0");
  // The same walk ending at 3 (and a vertex without an entry, refused only when a route needs it).
  std::string fine = loop;
  fine.replace(fine.find(R"("2": {"3": "2-0"})"), 17, R"("2": {"3": "2-3"})");
  const Network n = parse_graph_network(fine, "fine.json", "graph:fine.json");
  EXPECT_EQ(make_routing("table", n)->route(0, 3).size(), 3u);
}
