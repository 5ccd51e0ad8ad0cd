// Dragonflies: SimGrid's numbering (routers, link order, names, bandwidths), the two routing
// models on SimGrid's own routes of a small dragonfly (recorded from SimGrid 3.32), their
// invariants on larger ones, and the specs that are refused.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "optiq/core/dragonfly.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/legs.hpp"
#include "optiq/core/network.hpp"
#include "optiq/core/planner.hpp"
#include "optiq/core/routing.hpp"

#include "fabric_checks.hpp"

namespace {

using namespace optiq;
using namespace optiq::fabric_checks;

TEST(Dragonfly, VerticesLinksNamesAndBandwidthsAreSimGrids) {
  const Network net = parse_network("dragonfly:3,4;2,3;3,2;2", 1e9);
  EXPECT_EQ(net.spec(), "dragonfly:3,4;2,3;3,2;2");
  EXPECT_EQ(net.default_routing(), "minimal");  // plans on every parameter set; "simgrid" is SimGrid's own
  ASSERT_NE(net.dragonfly(), nullptr);
  const DragonflyShape& d = *net.dragonfly();
  // 18 routers of 2 hosts; local 36, green 6 chassis x 3, black 3 groups x 3 blades x 1, blue 3.
  EXPECT_EQ(net.num_vertices(), 36 + 18);
  EXPECT_EQ(net.endpoints().size(), 36u);
  EXPECT_EQ(net.num_links(), 2 * (36 + 18 + 9 + 3));
  EXPECT_EQ(net.vertex_name(36 + 7), "router7");
  EXPECT_EQ(net.link_name(0), "local_link_from_router_0_to_node_0_0_UP");
  EXPECT_EQ(net.link_name(2 * 35 + 1), "local_link_from_router_17_to_node_1_35_DOWN");
  EXPECT_EQ(net.link_name(2 * 36), "green_link_in_chassis_0_between_routers_0_and_1_36_UP");
  EXPECT_EQ(net.link_name(2 * 39), "green_link_in_chassis_1_between_routers_0_and_1_39_UP");
  EXPECT_EQ(net.link_name(2 * 54), "black_link_in_group_0_between_chassis_0_and_1_blade_0_54_UP");
  EXPECT_EQ(net.link_name(2 * 63), "blue_link_between_group_0_and_1_routers_1_and_6_63_UP");
  EXPECT_EQ(net.link_name(2 * 65 + 1), "blue_link_between_group_1_and_2_routers_8_and_13_65_DOWN");
  // UP goes from the lower member: host to router, blade j to k > j, chassis, group.
  EXPECT_EQ(net.link_src(0), 0);
  EXPECT_EQ(net.link_dst(0), 36);
  EXPECT_EQ(net.link_src(2 * 63), d.router(0, 0, 1));
  EXPECT_EQ(net.link_dst(2 * 63), d.router(1, 0, 0));
  EXPECT_EQ(net.link_src(2 * 65 + 1), d.router(2, 0, 1));
  // SimGrid folds parallel cables into one link of that many times the bandwidth.
  EXPECT_EQ(net.capacity(0), 1e9);
  EXPECT_EQ(net.capacity(2 * 36), 2e9);  // green, 2 cables
  EXPECT_EQ(net.capacity(2 * 54), 3e9);  // black, 3
  EXPECT_EQ(net.capacity(2 * 63), 4e9);  // blue, 4
  for (LinkId l = 0; l < net.num_links(); ++l) EXPECT_EQ(net.link_named(net.link_name(l)), l);
  for (NodeId v = 0; v < net.num_vertices(); ++v)
    EXPECT_EQ(net.kind(v), v < 36 ? VertexKind::Endpoint : VertexKind::Switch);
}

TEST(Dragonfly, RoutesAreSimGridsRecordedRoutes) {
  // SimGrid 3.32 on dragonfly 3,1;2,1;3,1;2 (optiq-simroutes), including routes within a group
  // from chassis 1 whose links are not a path.
  const Network net = parse_network("dragonfly:3,1;2,1;3,1;2");
  const auto simgrid = make_routing("simgrid", net);
  const char* const expected[] = {
      "0 1 local_link_from_router_0_to_node_0_0_UP local_link_from_router_0_to_node_1_1_DOWN",
      "0 2 local_link_from_router_0_to_node_0_0_UP green_link_in_chassis_0_between_routers_0_and_1_36_UP local_link_from_router_1_to_node_0_2_DOWN",
      "0 6 local_link_from_router_0_to_node_0_0_UP black_link_in_group_0_between_chassis_0_and_1_blade_0_54_UP local_link_from_router_3_to_node_0_6_DOWN",
      "0 8 local_link_from_router_0_to_node_0_0_UP green_link_in_chassis_0_between_routers_0_and_1_36_UP black_link_in_group_0_between_chassis_0_and_1_blade_1_55_UP local_link_from_router_4_to_node_0_8_DOWN",
      "0 12 local_link_from_router_0_to_node_0_0_UP green_link_in_chassis_0_between_routers_0_and_1_36_UP blue_link_between_group_0_and_1_routers_1_and_6_63_UP local_link_from_router_6_to_node_0_12_DOWN",
      "0 14 local_link_from_router_0_to_node_0_0_UP green_link_in_chassis_0_between_routers_0_and_1_36_UP blue_link_between_group_0_and_1_routers_1_and_6_63_UP green_link_in_chassis_0_between_routers_0_and_1_42_UP local_link_from_router_7_to_node_0_14_DOWN",
      "0 20 local_link_from_router_0_to_node_0_0_UP green_link_in_chassis_0_between_routers_0_and_1_36_UP blue_link_between_group_0_and_1_routers_1_and_6_63_UP green_link_in_chassis_0_between_routers_0_and_1_42_UP black_link_in_group_1_between_chassis_0_and_1_blade_1_58_UP local_link_from_router_10_to_node_0_20_DOWN",
      "0 35 local_link_from_router_0_to_node_0_0_UP green_link_in_chassis_0_between_routers_0_and_2_37_UP blue_link_between_group_0_and_2_routers_2_and_12_64_UP green_link_in_chassis_0_between_routers_0_and_2_49_UP black_link_in_group_2_between_chassis_0_and_1_blade_2_62_UP local_link_from_router_17_to_node_1_35_DOWN",
      "14 0 local_link_from_router_7_to_node_0_14_UP green_link_in_chassis_0_between_routers_0_and_1_42_DOWN blue_link_between_group_0_and_1_routers_1_and_6_63_DOWN green_link_in_chassis_0_between_routers_0_and_1_36_DOWN local_link_from_router_0_to_node_0_0_DOWN",
      "35 0 local_link_from_router_17_to_node_1_35_UP green_link_in_chassis_1_between_routers_0_and_2_52_DOWN black_link_in_group_2_between_chassis_0_and_1_blade_0_60_DOWN blue_link_between_group_0_and_2_routers_2_and_12_64_DOWN green_link_in_chassis_0_between_routers_0_and_2_37_DOWN local_link_from_router_0_to_node_0_0_DOWN",
      "35 34 local_link_from_router_17_to_node_1_35_UP local_link_from_router_17_to_node_0_34_DOWN",
      "2 6 local_link_from_router_1_to_node_0_2_UP green_link_in_chassis_0_between_routers_0_and_1_36_DOWN black_link_in_group_0_between_chassis_0_and_1_blade_0_54_UP local_link_from_router_3_to_node_0_6_DOWN",
      "6 2 local_link_from_router_3_to_node_0_6_UP green_link_in_chassis_1_between_routers_0_and_1_39_UP local_link_from_router_1_to_node_0_2_DOWN",
      "10 3 local_link_from_router_5_to_node_0_10_UP green_link_in_chassis_1_between_routers_1_and_2_41_DOWN local_link_from_router_1_to_node_1_3_DOWN",
      "6 8 local_link_from_router_3_to_node_0_6_UP green_link_in_chassis_1_between_routers_0_and_1_39_UP black_link_in_group_0_between_chassis_0_and_1_blade_1_55_UP local_link_from_router_4_to_node_0_8_DOWN",
      "9 11 local_link_from_router_4_to_node_1_9_UP green_link_in_chassis_1_between_routers_1_and_2_41_UP black_link_in_group_0_between_chassis_0_and_1_blade_2_56_UP local_link_from_router_5_to_node_1_11_DOWN",
      "6 12 local_link_from_router_3_to_node_0_6_UP green_link_in_chassis_1_between_routers_0_and_1_39_UP black_link_in_group_0_between_chassis_0_and_1_blade_1_55_DOWN blue_link_between_group_0_and_1_routers_1_and_6_63_UP local_link_from_router_6_to_node_0_12_DOWN",
      "12 6 local_link_from_router_6_to_node_0_12_UP blue_link_between_group_0_and_1_routers_1_and_6_63_DOWN green_link_in_chassis_0_between_routers_0_and_1_36_DOWN black_link_in_group_0_between_chassis_0_and_1_blade_0_54_UP local_link_from_router_3_to_node_0_6_DOWN",
      "6 24 local_link_from_router_3_to_node_0_6_UP green_link_in_chassis_1_between_routers_0_and_2_40_UP black_link_in_group_0_between_chassis_0_and_1_blade_2_56_DOWN blue_link_between_group_0_and_2_routers_2_and_12_64_UP local_link_from_router_12_to_node_0_24_DOWN",
      "24 6 local_link_from_router_12_to_node_0_24_UP blue_link_between_group_0_and_2_routers_2_and_12_64_DOWN green_link_in_chassis_0_between_routers_0_and_2_37_DOWN black_link_in_group_0_between_chassis_0_and_1_blade_0_54_UP local_link_from_router_3_to_node_0_6_DOWN",
      "8 30 local_link_from_router_4_to_node_0_8_UP green_link_in_chassis_1_between_routers_1_and_2_41_UP black_link_in_group_0_between_chassis_0_and_1_blade_2_56_DOWN blue_link_between_group_0_and_2_routers_2_and_12_64_UP black_link_in_group_2_between_chassis_0_and_1_blade_0_60_UP local_link_from_router_15_to_node_0_30_DOWN",
      "30 8 local_link_from_router_15_to_node_0_30_UP black_link_in_group_2_between_chassis_0_and_1_blade_0_60_DOWN blue_link_between_group_0_and_2_routers_2_and_12_64_DOWN green_link_in_chassis_0_between_routers_1_and_2_38_DOWN black_link_in_group_0_between_chassis_0_and_1_blade_1_55_UP local_link_from_router_4_to_node_0_8_DOWN",
  };
  for (const char* line : expected) {
    const auto w = words(line);
    const std::vector<std::string> links(w.begin() + 2, w.end());
    EXPECT_EQ(names(net, simgrid->route(std::stoi(w[0]), std::stoi(w[1]))), links) << line;
  }
}

// SimGrid's route is a path exactly where the minimal route is its own: everywhere but within a
// group from a chassis other than 0 to another blade. There it takes the minimal route's green
// hop and, if the target is not in chassis 0, a black link from chassis 0 instead of its own.
TEST(Dragonfly, SimGridDepartsFromMinimalRoutesOnlyWithinAGroupFromAChassisOtherThanZero) {
  for (const char* spec : {"dragonfly:3,1;2,1;3,1;2", "dragonfly:2,2;3,1;4,2;1", "dragonfly:4,1;3,2;4,1;2"}) {
    const Network net = parse_network(spec);
    const DragonflyShape& d = *net.dragonfly();
    const auto simgrid = make_routing("simgrid", net), minimal = make_routing("minimal", net);
    int departures = 0;
    for (NodeId dst = 0; dst < d.num_hosts(); ++dst) {
      const std::vector<LinkId> next = minimal->next_links(dst);
      for (NodeId src = 0; src < d.num_hosts(); ++src) {
        const std::string what = std::string(spec) + " " + std::to_string(src) + "->" + std::to_string(dst);
        const LinkPath s = simgrid->route(src, dst), m = minimal->route(src, dst);
        ASSERT_TRUE(is_walk(net, src, dst, m)) << what;
        if (src != dst) ASSERT_EQ(static_cast<int>(m.size()), net.hop_distance(src, dst)) << what;
        NodeId at = src;
        for (LinkId l : m) {  // minimal is its own forwarding table
          ASSERT_EQ(next[at], l) << what;
          at = net.link_dst(l);
        }
        const auto a = d.place(src), b = d.place(dst);
        const bool departs = a.group == b.group && a.chassis != 0 && a.blade != b.blade;
        if (!departs) {
          ASSERT_EQ(s, m) << what;
          continue;
        }
        ++departures;
        ASSERT_FALSE(is_walk(net, src, dst, s)) << what;
        ASSERT_EQ(s[1], m[1]) << what;  // the green hop in the source's chassis
        LinkPath want{m[0], m[1]};
        if (b.chassis != 0) want.push_back(d.black(b.group, 0, b.chassis, b.blade));
        want.push_back(m.back());
        ASSERT_EQ(s, want) << what;
      }
    }
    EXPECT_GT(departures, 0) << spec;
  }
}

TEST(Dragonfly, PlanningRefusesSimGridsBrokenRoutesAndNamesTheWayOut) {
  const Network net = parse_network("dragonfly:3,1;2,1;3,1;2");
  const auto simgrid = make_routing("simgrid", net);
  try {
    const Legs legs(net, *simgrid);
    FAIL() << "accepted";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("not paths (e.g. host 6 to host 2"), std::string::npos) << m;
    EXPECT_NE(m.find("--routing minimal"), std::string::npos) << m;
  }
  try {
    plan_default(net, *simgrid, {{6, 2, 1000}});
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("the route from 6 to 2 is not a path"), std::string::npos) << e.what();
  }
  const auto minimal = make_routing("minimal", net);
  const std::vector<Job> jobs{{6, 2, 1 << 20}, {0, 35, 1 << 20}, {12, 6, 1 << 20}, {9, 11, 1 << 20}};
  for (const char* planner : {"default", "heu2", "mcf"}) {
    const Plan plan = make_plan(planner, net, *minimal, jobs, PlannerOptions{}).plan;
    validate_plan(plan, net);
  }
  // One chassis per group (or one router per chassis): SimGrid's routes are the minimal ones.
  for (const char* spec : {"dragonfly:4,1;1,1;4,1;3", "dragonfly:1,1;4,1;1,1;2"}) {
    const Network flat = parse_network(spec);
    const auto r = make_routing("simgrid", flat);
    const Legs legs(flat, *r);
    EXPECT_EQ(r->next_links(0), make_routing("minimal", flat)->next_links(0));
  }
}

TEST(Dragonfly, GraphFilesKeepTheMinimalRoutesAndRefuseSimGridsBrokenOnes) {
  const Network net = parse_network("dragonfly:3,1;2,1;3,1;2");
  const auto minimal = make_routing("minimal", net);
  const Network back = parse_graph_network(network_to_graph_json(net, minimal.get()), "df.json", "graph:df.json");
  EXPECT_EQ(back.digest(), net.digest());
  const auto table = make_routing(back.default_routing(), back);
  for (NodeId s : net.endpoints())
    for (NodeId t : net.endpoints()) ASSERT_EQ(table->route(s, t), minimal->route(s, t)) << s << "->" << t;
  try {
    network_to_graph_json(net, make_routing("simgrid", net).get());
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("is not a table: its route from 8 to 0 is not a path"), std::string::npos) << e.what();
  }
}

TEST(Dragonfly, LargerDragonfliesRouteMinimally) {
  const Network net = parse_network("dragonfly:6,2;4,3;6,2;3");
  const DragonflyShape& d = *net.dragonfly();
  const auto minimal = make_routing("minimal", net), simgrid = make_routing("simgrid", net);
  for (NodeId src = 0; src < d.num_hosts(); src += 7)
    for (NodeId dst = 1; dst < d.num_hosts(); dst += 5) {
      if (src == dst) continue;
      const LinkPath m = minimal->route(src, dst);
      ASSERT_TRUE(is_walk(net, src, dst, m)) << src << "->" << dst;
      ASSERT_EQ(static_cast<int>(m.size()), net.hop_distance(src, dst)) << src << "->" << dst;
      ASSERT_LE(m.size(), 7u);  // local, green, black, blue, green, black, local
      const LinkPath s = simgrid->route(src, dst);
      ASSERT_EQ(s.front(), m.front());
      ASSERT_EQ(s.back(), m.back());
    }
  EXPECT_EQ(net.diameter(), 7);
}

// How long this takes is measured by bench/network_build.py.
TEST(Dragonfly, TenThousandHostsBuild) {
  const Network net = parse_network("dragonfly:74,1;2,1;74,1;1");
  EXPECT_EQ(net.endpoints().size(), 74u * 2 * 74);
  EXPECT_EQ(net.num_links(), 2 * (10952 + 148 * (74 * 73 / 2) + 74 * 74 + 74 * 73 / 2));
  const auto r = make_routing("minimal", net);
  EXPECT_EQ(r->route(74, 10951).size(), 7u);  // from chassis 1, blade 0 to chassis 1, blade 73
  EXPECT_EQ(r->next_links(10951).size(), static_cast<std::size_t>(net.num_vertices()));
}

TEST(Dragonfly, BadSpecsAreRefusedWithTheirProblem) {
  const std::pair<const char*, const char*> cases[] = {
      {"dragonfly:3,1;2,1;3,1", "needs 4 fields"},
      {"dragonfly:3,1;2,1;3,1;2;1", "needs 4 fields"},
      {"dragonfly:3;2,1;3,1;2", "field 1 ('3') needs two numbers"},
      {"dragonfly:3,1;2,1,1;3,1;2", "field 2 ('2,1,1') needs two numbers"},
      {"dragonfly:0,1;2,1;3,1;2", "groups must be at least 1, got 0"},
      {"dragonfly:3,0;2,1;3,1;2", "blue cables must be at least 1"},
      {"dragonfly:3,1;2,-2;3,1;2", "black cables must be at least 1, got -2"},
      {"dragonfly:3,1;2,1;3,1;0", "hosts per router must be at least 1"},
      {"dragonfly:3,1;2,1;3,1;2,1", "bad hosts per router '2,1'"},
      {"dragonfly:3,1;2,1;x,1;2", "bad router count 'x'"},
      {"dragonfly:3,1;2,1;2,1;2", "3 groups but 2 routers per chassis"},
      {"dragonfly:2048,1;1,1;2048,1;2", "too large"},
      {"dragonfly:1,1;1,1;1,1;5000000", "too large"},
      {"dragonfly:1,1;64,1;1,1;1", "accepted"},
  };
  for (const auto& [spec, message] : cases) {
    const std::string e = error_of(spec);
    EXPECT_NE(e.find(message), std::string::npos) << spec << ": " << e;
  }
  const Network net = parse_network("dragonfly:3,1;2,1;3,1;2");
  for (const char* name : {"bgq", "dor", "dmodk"}) EXPECT_THROW(make_routing(name, net), Error) << name;
  EXPECT_THROW(make_routing("minimal", parse_network("fattree:1;2;1;1")), Error);
  EXPECT_THROW(make_routing("minimal", net)->route(0, 36), Error);  // a router
}

}  // namespace
