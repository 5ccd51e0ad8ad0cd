// BG/Q with its I/O side: psets, bridge nodes, I/O links, the routes to and from I/O nodes, and
// plans that end at I/O nodes but never pass through one.
#include <gtest/gtest.h>

#include <string>

#include "optiq/core/error.hpp"
#include "optiq/core/legs.hpp"
#include "optiq/core/network.hpp"
#include "optiq/core/paths.hpp"
#include "optiq/core/planner.hpp"
#include "optiq/core/routing.hpp"

namespace {

using namespace optiq;

TEST(IoSide, PsetsOf128NodesEachWithAnIoNodeOnTwoBridges) {
  const Network net = parse_network("mira:1024+io");
  const Network plain = parse_network("mira:1024");
  EXPECT_EQ(net.spec(), "bgq:4x4x4x8x2+io");
  EXPECT_EQ(parse_network("bgq:4x4x4x8x2+io").digest(), net.digest());
  EXPECT_NE(net.digest(), plain.digest());
  ASSERT_EQ(net.num_vertices(), 1024 + 8);
  EXPECT_EQ(net.endpoints().size(), 1024u);
  EXPECT_EQ(net.num_links(), plain.num_links() + 8 * 4);
  EXPECT_EQ(net.torus(), nullptr);  // the torus-only algorithms must not mistake it for a torus
  ASSERT_NE(net.torus_part(), nullptr);
  EXPECT_EQ(net.diameter(), plain.diameter());
  for (LinkId l = 0; l < plain.num_links(); ++l) {  // the torus part keeps its links and names
    ASSERT_EQ(net.link_src(l), plain.link_src(l));
    ASSERT_EQ(net.link_dst(l), plain.link_dst(l));
    ASSERT_EQ(net.link_name(l), plain.link_name(l));
  }
  for (int p = 0; p < 8; ++p) {
    const NodeId io = 1024 + p;
    EXPECT_EQ(net.kind(io), VertexKind::Io);
    EXPECT_EQ(net.vertex_name(io), "io" + std::to_string(p));
    for (int offset : kBridgeOffsets) {
      const NodeId bridge = p * 128 + offset;
      const LinkId up = net.link_named(std::to_string(bridge) + ":IO>"), down = net.link_named(std::to_string(bridge) + ":IO<");
      ASSERT_GE(up, 0);
      ASSERT_GE(down, 0);
      EXPECT_EQ(net.link_src(up), bridge);
      EXPECT_EQ(net.link_dst(up), io);
      EXPECT_EQ(net.link_src(down), io);
      EXPECT_EQ(net.link_dst(down), bridge);
      EXPECT_EQ(net.capacity(up), kBgqLinkBandwidth);
    }
  }
}

TEST(IoSide, PartitionsThatAreNotWholePsetsAreRefused) {
  try {
    parse_network("bgq:2x2x2x2x2+io");
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("whole psets of 128 nodes"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_network("torus:4x4+io"), Error);
}

// Every node's I/O goes through the bridge of its pset's I/O node nearest to it (fewest torus
// hops, then the lower id), along the torus route to that bridge; and back the same way.
TEST(IoSide, IoTravelsThroughTheNearestBridgeOnTheTorusRoute) {
  const Network net = parse_network("mira:512+io");
  const Network plain = parse_network("mira:512");
  const auto routing = make_routing("bgq", net);
  const auto torus = make_routing("bgq", plain);
  for (NodeId c = 0; c < 512; ++c)
    for (int p = 0; p < 4; ++p) {
      const NodeId io = 512 + p, b0 = p * 128 + kBridgeOffsets[0], b1 = p * 128 + kBridgeOffsets[1];
      const int d0 = plain.hop_distance(c, b0), d1 = plain.hop_distance(c, b1);
      const NodeId bridge = d1 < d0 ? b1 : b0;
      LinkPath expect = torus->route(c, bridge);
      expect.push_back(net.link_named(std::to_string(bridge) + ":IO>"));
      ASSERT_EQ(routing->route(c, io), expect) << c << " " << p;
      LinkPath back{net.link_named(std::to_string(bridge) + ":IO<")};
      const LinkPath rest = torus->route(bridge, c);
      back.insert(back.end(), rest.begin(), rest.end());
      ASSERT_EQ(routing->route(io, c), back) << c << " " << p;
      EXPECT_EQ(net.hop_distance(c, io), 1 + std::min(d0, d1));
    }
  // Compute pairs route exactly as without the I/O side.
  for (NodeId a = 0; a < 512; a += 7)
    for (NodeId b = 0; b < 512; b += 5) ASSERT_EQ(routing->route(a, b), torus->route(a, b));
}

TEST(IoSide, PlansEndAtIoNodesButNeverPassOne) {
  const Network net = parse_network("bgq:4x4x2x2x4+io");  // 256 nodes, two psets
  const auto routing = make_routing("bgq", net);
  EXPECT_TRUE(Legs(net, *routing).direct());
  std::vector<Job> jobs;
  for (NodeId c = 0; c < 256; c += 3) jobs.push_back({c, 256 + (c % 2), 1 << 20});  // to either I/O node
  jobs.push_back({256, 257, 4 << 20});                                                // I/O node to I/O node
  jobs.push_back({257, 9, 3 << 20});                                                  // and back to a node
  PlannerOptions o;
  o.k = 8;
  for (const std::string& name : planner_names()) {
    const Plan plan = make_plan(name, net, *routing, jobs, o).plan;
    ASSERT_NO_THROW(validate_plan(plan, net)) << name;
    for (const JobPlan& jp : plan.jobs)
      for (const PathShare& share : jp.paths) {
        const auto nodes = path_nodes(net, jp.job.src, share.links);
        for (std::size_t i = 1; i + 1 < nodes.size(); ++i)
          ASSERT_EQ(net.kind(nodes[i]), VertexKind::Endpoint) << name << ": a path through an I/O node";
      }
  }
}

}  // namespace

TEST(IoSide, BgqSpecsHaveFiveDimensionsAsDocumented) {
  for (const char* spec : {"bgq:4x4x4x4", "bgq:2", "bgq:2x2x2x2x2x2", "bgq:4x4x4x4+io"}) {
    try {
      parse_network(spec);
      ADD_FAILURE() << spec << " accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("five dimensions"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(parse_network("bgq:2x2x2x2x2").endpoints().size(), 32u);
}
