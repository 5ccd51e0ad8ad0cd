// Fat-trees: SimGrid's numbering (switch ids, cable order, link names), the two routing models
// on SimGrid's own routes of small trees (recorded from SimGrid 3.32), their invariants on
// larger trees, and the specs that are refused.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "optiq/core/error.hpp"
#include "optiq/core/fat_tree.hpp"
#include "optiq/core/legs.hpp"
#include "optiq/core/network.hpp"
#include "optiq/core/planner.hpp"
#include "optiq/core/routing.hpp"

#include "fabric_checks.hpp"

namespace {

using namespace optiq;
using namespace optiq::fabric_checks;

TEST(FatTree, DocumentationExampleHasSimGridsVerticesLinksAndNames) {
  const Network net = parse_network("fattree:2;4,4;1,2;1,2");
  EXPECT_EQ(net.spec(), "fattree:2;4,4;1,2;1,2");
  EXPECT_EQ(net.default_routing(), "dmodk");  // plans on every parameter set; "simgrid" is SimGrid's own
  ASSERT_NE(net.fat_tree(), nullptr);
  EXPECT_EQ(net.torus(), nullptr);
  const FatTreeShape& t = *net.fat_tree();
  // 16 hosts, 4 leaves, 2 tops; 16 host cables and 4 leaves x 2 tops x 2 cables, two links each.
  EXPECT_EQ(net.num_vertices(), 22);
  EXPECT_EQ(net.endpoints().size(), 16u);
  EXPECT_EQ(net.num_links(), 2 * (16 + 16));
  for (NodeId v = 0; v < 22; ++v) EXPECT_EQ(net.kind(v), v < 16 ? VertexKind::Endpoint : VertexKind::Switch);
  EXPECT_EQ(t.level_size(1), 4);
  EXPECT_EQ(t.level_size(2), 2);
  // Switch ids count down from 2N-1: leaves 31..28, tops 27 and 26.
  EXPECT_EQ(t.simgrid_id(16), 31);
  EXPECT_EQ(t.simgrid_id(21), 26);
  EXPECT_EQ(net.vertex_name(16), "switch31");
  // Host 4's cable to leaf 30, then leaf 31's cables 16..19: two to switch 27, two to 26.
  EXPECT_EQ(net.link_name(8), "link_from_4_30_4_UP");
  EXPECT_EQ(net.link_name(9), "link_from_4_30_4_DOWN");
  EXPECT_EQ(net.link_name(2 * 16), "link_from_31_27_16_UP");
  EXPECT_EQ(net.link_name(2 * 17), "link_from_31_27_17_UP");
  EXPECT_EQ(net.link_name(2 * 18), "link_from_31_26_18_UP");
  EXPECT_EQ(net.link_name(2 * 31 + 1), "link_from_28_26_31_DOWN");
  for (LinkId l = 0; l < net.num_links(); ++l) {
    EXPECT_EQ(net.capacity(l), kBgqLinkBandwidth);
    EXPECT_EQ(net.link_named(net.link_name(l)), l);
    // UP halves go from the child (the lower switch id or a host) to the parent.
    const bool up = l % 2 == 0;
    EXPECT_EQ(t.level(net.link_dst(l)) - t.level(net.link_src(l)), up ? 1 : -1) << net.link_name(l);
  }
  EXPECT_EQ(parse_network("fattree:2;4,4;1,2;1,2", 5e9).capacity(7), 5e9);
  EXPECT_EQ(net.diameter(), 4);
}

TEST(FatTree, SpecsAreReadLikeSimGridsAndWrittenWithoutBlanks) {
  const Network net = parse_network("fattree: 2 ; 4, 4;1 ,2; 1,2 ");
  EXPECT_EQ(net.spec(), "fattree:2;4,4;1,2;1,2");
  EXPECT_EQ(net.digest(), parse_network(net.spec()).digest());
  EXPECT_EQ(net.fat_tree()->topo_parameters(), "2;4,4;1,2;1,2");
  EXPECT_NE(net.digest(), parse_network("fattree:2;4,4;1,2;1,1").digest());
}

TEST(FatTree, RoutesFromTwoHostsAreSimGridsRecordedRoutes) {
  // SimGrid 3.32 on fattree 2;4,4;1,2;1,2 (optiq-simroutes), every route from node-0 and node-5.
  const Network net = parse_network("fattree:2;4,4;1,2;1,2");
  const auto simgrid = make_routing("simgrid", net);
  const char* const expected[] = {
      "0 1 link_from_0_31_0_UP link_from_1_31_1_DOWN",
      "0 4 link_from_0_31_0_UP link_from_31_27_16_UP link_from_30_27_20_DOWN link_from_4_30_4_DOWN",
      "0 5 link_from_0_31_0_UP link_from_31_26_18_UP link_from_30_26_22_DOWN link_from_5_30_5_DOWN",
      "0 10 link_from_0_31_0_UP link_from_31_27_17_UP link_from_29_27_24_DOWN link_from_10_29_10_DOWN",
      "0 15 link_from_0_31_0_UP link_from_31_26_19_UP link_from_28_26_30_DOWN link_from_15_28_15_DOWN",
      "5 0 link_from_5_30_5_UP link_from_30_27_20_UP link_from_31_27_17_DOWN link_from_0_31_0_DOWN",
      "5 3 link_from_5_30_5_UP link_from_30_26_23_UP link_from_31_26_19_DOWN link_from_3_31_3_DOWN",
      "5 4 link_from_5_30_5_UP link_from_4_30_4_DOWN",
      "5 13 link_from_5_30_5_UP link_from_30_26_22_UP link_from_28_26_31_DOWN link_from_13_28_13_DOWN",
  };
  for (const char* line : expected) {
    const auto w = words(line);
    const std::vector<std::string> links(w.begin() + 2, w.end());
    EXPECT_EQ(names(net, simgrid->route(std::stoi(w[0]), std::stoi(w[1]))), links) << line;
  }
  // The closed form of SimGrid's routes on this tree, for all 240 pairs.
  for (NodeId a = 0; a < 16; ++a)
    for (NodeId b = 0; b < 16; ++b) {
      if (a == b) continue;
      const std::string A = std::to_string(a), B = std::to_string(b);
      auto leaf = [](NodeId h) { return std::to_string(31 - h / 4); };
      std::vector<std::string> want{"link_from_" + A + "_" + leaf(a) + "_" + A + "_UP"};
      if (a / 4 != b / 4) {
        const int off = b % 2 == 0 ? 0 : 2;
        const std::string top = b % 2 == 0 ? "27" : "26";
        want.push_back("link_from_" + leaf(a) + "_" + top + "_" + std::to_string(16 + 4 * (a / 4) + off + (b % 4) / 2) + "_UP");
        want.push_back("link_from_" + leaf(b) + "_" + top + "_" + std::to_string(16 + 4 * (b / 4) + off + a % 2) + "_DOWN");
      }
      want.push_back("link_from_" + B + "_" + leaf(b) + "_" + B + "_DOWN");
      ASSERT_EQ(names(net, simgrid->route(a, b)), want) << a << "->" << b;
    }
}

TEST(FatTree, SimGridsDownScanGoesOnOverTheChildsPorts) {
  // SimGrid 3.32 on fattree 2;2,2;1,2;2,2, every pair: below the turning switch the scan goes on
  // from the port after the one it took, so 0->3 ends on host 3's second cable.
  const Network net = parse_network("fattree:2;2,2;1,2;2,2");
  const auto simgrid = make_routing("simgrid", net);
  const char* const expected[] = {
      "0 1 link_from_0_7_1_UP link_from_1_7_2_DOWN",
      "0 2 link_from_0_7_0_UP link_from_7_5_9_UP link_from_6_5_12_DOWN link_from_2_6_5_DOWN",
      "0 3 link_from_0_7_1_UP link_from_7_4_11_UP link_from_6_4_14_DOWN link_from_3_6_7_DOWN",
      "1 0 link_from_1_7_2_UP link_from_0_7_1_DOWN",
      "1 2 link_from_1_7_2_UP link_from_7_5_9_UP link_from_6_5_13_DOWN link_from_2_6_5_DOWN",
      "1 3 link_from_1_7_3_UP link_from_7_4_11_UP link_from_6_4_15_DOWN link_from_3_6_7_DOWN",
      "2 0 link_from_2_6_4_UP link_from_6_5_12_UP link_from_7_5_8_DOWN link_from_0_7_1_DOWN",
      "2 1 link_from_2_6_5_UP link_from_6_4_14_UP link_from_7_4_10_DOWN link_from_1_7_2_DOWN",
      "2 3 link_from_2_6_5_UP link_from_3_6_6_DOWN",
      "3 0 link_from_3_6_6_UP link_from_6_5_12_UP link_from_7_5_9_DOWN link_from_0_7_1_DOWN",
      "3 1 link_from_3_6_7_UP link_from_6_4_14_UP link_from_7_4_11_DOWN link_from_1_7_3_DOWN",
      "3 2 link_from_3_6_6_UP link_from_2_6_5_DOWN",
  };
  for (const char* line : expected) {
    const auto w = words(line);
    const std::vector<std::string> links(w.begin() + 2, w.end());
    EXPECT_EQ(names(net, simgrid->route(std::stoi(w[0]), std::stoi(w[1]))), links) << line;
  }
}

TEST(FatTree, DmodkTakesSimGridsSwitchesWithCablesChosenByTheDestination) {
  for (const char* spec : {"fattree:2;4,4;1,2;1,2", "fattree:2;2,2;1,2;2,2", "fattree:3;2,3,2;2,2,1;2,1,3",
                           "fattree:3;4,2,3;1,3,2;1,2,2"}) {
    const Network net = parse_network(spec);
    const auto simgrid = make_routing("simgrid", net), dmodk = make_routing("dmodk", net);
    const FatTreeShape& t = *net.fat_tree();
    for (NodeId dst = 0; dst < t.num_hosts(); ++dst) {
      const std::vector<LinkId> next = dmodk->next_links(dst);
      for (NodeId src = 0; src < t.num_hosts(); ++src) {
        const std::string what = std::string(spec) + " " + std::to_string(src) + "->" + std::to_string(dst);
        const LinkPath a = simgrid->route(src, dst), b = dmodk->route(src, dst);
        ASSERT_TRUE(is_walk(net, src, dst, a)) << what;
        ASSERT_TRUE(is_walk(net, src, dst, b)) << what;
        ASSERT_EQ(static_cast<int>(b.size()), t.hop_distance(src, dst)) << what;
        ASSERT_EQ(a.size(), b.size()) << what;
        for (std::size_t i = 0; i < a.size(); ++i) {
          ASSERT_EQ(net.link_dst(a[i]), net.link_dst(b[i])) << what;  // the same switches
          if (i < a.size() / 2) ASSERT_EQ(a[i], b[i]) << what;        // the same way up
        }
        // dmodk is its own forwarding table.
        NodeId at = src;
        for (LinkId l : b) {
          ASSERT_EQ(next[at], l) << what;
          at = net.link_dst(l);
        }
      }
    }
  }
}

TEST(FatTree, WithoutParallelCablesBothModelsAreOneForwardingTable) {
  const Network net = parse_network("fattree:3;3,2,2;1,2,3;1,1,1");
  const auto simgrid = make_routing("simgrid", net), dmodk = make_routing("dmodk", net);
  for (NodeId dst = 0; dst < net.fat_tree()->num_hosts(); ++dst) {
    EXPECT_EQ(simgrid->next_links(dst), dmodk->next_links(dst));
    for (NodeId src = 0; src < net.fat_tree()->num_hosts(); ++src)
      ASSERT_EQ(simgrid->route(src, dst), dmodk->route(src, dst));
  }
  const Legs legs(net, *simgrid);  // plans can use SimGrid's routes there
  EXPECT_FALSE(legs.direct());
}

TEST(FatTree, SimGridsSourceDependentCablesAreRefusedForPlanningWithAHint) {
  const Network net = parse_network("fattree:2;4,4;1,2;1,2");
  const auto simgrid = make_routing("simgrid", net);
  try {
    const Legs legs(net, *simgrid);
    FAIL() << "accepted";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("not destination-based"), std::string::npos) << m;
    EXPECT_NE(m.find("--routing dmodk"), std::string::npos) << m;
  }
  const auto dmodk = make_routing("dmodk", net);
  const std::vector<Job> jobs{{0, 5, 1 << 20}, {3, 12, 1 << 20}, {7, 6, 1 << 20}};
  for (const char* planner : {"default", "heu2", "mcf"}) {
    const Plan plan = make_plan(planner, net, *dmodk, jobs, PlannerOptions{}).plan;
    validate_plan(plan, net);
  }
}

TEST(FatTree, GraphFilesKeepDmodksRoutes) {
  const Network net = parse_network("fattree:3;2,3,2;2,2,2;2,1,3");
  const auto dmodk = make_routing("dmodk", net);
  const Network back = parse_graph_network(network_to_graph_json(net, dmodk.get()), "ft.json", "graph:ft.json");
  EXPECT_EQ(back.digest(), net.digest());
  const auto table = make_routing(back.default_routing(), back);
  for (NodeId s : net.endpoints())
    for (NodeId t : net.endpoints()) ASSERT_EQ(table->route(s, t), dmodk->route(s, t)) << s << "->" << t;
  EXPECT_THROW(network_to_graph_json(net, make_routing("simgrid", net).get()), Error);  // not a table
}

TEST(FatTree, LargerTreesRouteMinimallyThroughTheirDestinationsAncestors) {
  for (const char* spec : {"fattree:3;8,6,4;1,4,6;1,2,1", "fattree:3;16,16,16;1,16,16;1,1,1"}) {
    const Network net = parse_network(spec);
    const FatTreeShape& t = *net.fat_tree();
    const int n = t.num_hosts();
    for (const char* name : {"simgrid", "dmodk"}) {
      const auto r = make_routing(name, net);
      for (NodeId src = 0; src < n; src += 37)
        for (NodeId dst = 0; dst < n; dst += 11) {
          const std::string what = std::string(spec) + " " + name + " " + std::to_string(src) + "->" + std::to_string(dst);
          const LinkPath p = r->route(src, dst);
          ASSERT_TRUE(is_walk(net, src, dst, p)) << what;
          ASSERT_EQ(static_cast<int>(p.size()), t.hop_distance(src, dst)) << what;
          for (std::size_t i = p.size() / 2; i + 1 < p.size(); ++i)  // downwards: only ancestors
            ASSERT_TRUE(t.is_ancestor(net.link_dst(p[i]), dst)) << what;
        }
      EXPECT_EQ(net.hop_distance(0, n - 1), 6);
    }
    EXPECT_EQ(net.diameter(), 6);
  }
}

// How long this takes is measured by bench/network_build.py.
TEST(FatTree, TenThousandHostsBuild) {
  const Network net = parse_network("fattree:3;24,24,18;1,24,24;1,1,1");
  EXPECT_EQ(net.endpoints().size(), 10368u);
  EXPECT_EQ(net.num_vertices(), 10368 + 432 + 432 + 576);
  EXPECT_EQ(net.num_links(), 2 * (10368 + 432 * 24 + 432 * 24));
  const auto r = make_routing("simgrid", net);
  EXPECT_EQ(r->route(0, 10367).size(), 6u);
  EXPECT_EQ(r->next_links(10367).size(), static_cast<std::size_t>(net.num_vertices()));
}

TEST(FatTree, BadSpecsAreRefusedWithTheirProblem) {
  const std::pair<const char*, const char*> cases[] = {
      {"fattree:2;4,4;1,2", "needs 4 fields"},
      {"fattree:2;4,4;1,2;1,2;1", "needs 4 fields"},
      {"fattree:0;;;", "at least 1 level"},
      {"fattree:2;4;1,2;1,2", "2 levels but 1 children count"},
      {"fattree:2;4,4;1,2,3;1,2", "2 levels but 3 parents count"},
      {"fattree:2;4,0;1,2;1,2", "children counts must be at least 1, got 0"},
      {"fattree:2;4,4;-1,2;1,2", "parents counts must be at least 1, got -1"},
      {"fattree:2;4,4;1,2;1,0", "parallel cables counts must be at least 1"},
      {"fattree:2;4,x;1,2;1,2", "bad children count 'x'"},
      {"fattree:2;4,4;1,2;1,2x", "bad parallel cable count '2x'"},
      {"fattree:2;4,4;1,2;1,", "bad parallel cable count ''"},
      {"fattree:2;4,4;1,2;1,9999999999", "bad parallel cable count"},
      {"fattree:33;1;1;1", "more than 32 levels"},
      {"fattree:2;4096,2048;1,1;1,1", "too large"},
      {"fattree:1;2;1;9000000", "too large"},
      {"fattree:3;64,64,2;64,64,64;64,64,64", "too large"},
      {"fatree:2;4,4;1,2;1,2", "unknown topology kind"},
  };
  for (const auto& [spec, message] : cases) {
    const std::string e = error_of(spec);
    EXPECT_NE(e.find(message), std::string::npos) << spec << ": " << e;
  }
  const Network net = parse_network("fattree:2;4,4;1,2;1,2");
  for (const char* name : {"bgq", "dor", "minimal"}) EXPECT_THROW(make_routing(name, net), Error) << name;
  EXPECT_THROW(make_routing("dmodk", parse_network("torus:4x4")), Error);
  EXPECT_THROW(make_routing("simgrid", net)->route(0, 16), Error);  // a switch
}

}  // namespace
