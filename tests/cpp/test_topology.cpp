#include <gtest/gtest.h>

#include "optiq/error.hpp"
#include "optiq/topology.hpp"
#include "oracle.hpp"

using namespace optiq;

TEST(Topology, LinkIdsFollowThePortFormula) {
  const Topology t = parse_topology("bgq:4x4x4x8x2");
  ASSERT_EQ(t.num_nodes(), 1024);
  const NodeId node = t.node_at({1, 2, 3, 4, 1});
  EXPECT_EQ(node, (((1 * 4 + 2) * 4 + 3) * 8 + 4) * 2 + 1);
  for (int dim = 0; dim < 5; ++dim) {
    EXPECT_EQ(t.link(node, dim, +1), node * 10 + 2 * dim);
    EXPECT_EQ(t.link(node, dim, -1), node * 10 + 2 * dim + 1);
  }
  EXPECT_EQ(t.port_label(t.link(node, 3, +1)), "D+");
  EXPECT_EQ(t.port_label(t.link(node, 4, -1)), "E-");
  EXPECT_EQ(t.link_from_label(node, "D+"), t.link(node, 3, +1));
  EXPECT_EQ(t.link_from_label(node, "Z+"), -1);
  EXPECT_EQ(t.num_links(), 10240);
}

TEST(Topology, SizeTwoTorusDimensionHasTwoLinksToOneNeighbour) {
  const Topology t = parse_topology("bgq:2x2x2x2x2");
  const NodeId a = 0;
  const LinkId plus = t.link(a, 4, +1), minus = t.link(a, 4, -1);
  EXPECT_NE(plus, minus);
  EXPECT_TRUE(t.link_exists(plus));
  EXPECT_TRUE(t.link_exists(minus));
  EXPECT_EQ(t.link_dst(plus), t.link_dst(minus));
  EXPECT_EQ(t.link_dst(plus), 1);
  EXPECT_EQ(t.out_links(a).size(), 10u);
  EXPECT_EQ(t.neighbors(a).size(), 5u);
}

TEST(Topology, SizeOneDimensionsAndMeshEdgesHaveNoLinks) {
  const Topology t = parse_topology("torus:4x1x3");
  for (NodeId v = 0; v < t.num_nodes(); ++v) {
    EXPECT_FALSE(t.link_exists(t.link(v, 1, +1)));
    EXPECT_FALSE(t.link_exists(t.link(v, 1, -1)));
  }
  const Topology m = parse_topology("mesh:3x3");
  EXPECT_FALSE(m.link_exists(m.link(m.node_at({0, 0}), 0, -1)));
  EXPECT_TRUE(m.link_exists(m.link(m.node_at({0, 0}), 0, +1)));
  EXPECT_FALSE(m.link_exists(m.link(m.node_at({2, 1}), 0, +1)));
  EXPECT_EQ(m.num_links(), 24);
}

TEST(Topology, NumLinksCountsExistingSlots) {
  for (const char* spec : {"torus:4x4", "mesh:4x3", "torus:2x3x1", "torus:5x2m", "bgq:2x2x2x2x2", "mesh:1"}) {
    const Topology t = parse_topology(spec);
    int count = 0;
    for (LinkId l = 0; l < t.num_link_slots(); ++l) count += t.link_exists(l);
    EXPECT_EQ(t.num_links(), count) << spec;
  }
}

TEST(Topology, HopDistanceAndDiameterMatchBreadthFirstSearch) {
  for (const char* spec : {"torus:4x4", "torus:5x3", "mesh:4x3", "torus:4x3m", "bgq:2x2x2x2x2", "torus:6"}) {
    const Topology t = parse_topology(spec);
    int diameter = 0;
    for (NodeId a = 0; a < t.num_nodes(); ++a)
      for (NodeId b = 0; b < t.num_nodes(); ++b) {
        const int d = oracle::bfs_distance(t, a, b);
        ASSERT_EQ(t.hop_distance(a, b), d) << spec << " " << a << "->" << b;
        diameter = std::max(diameter, d);
      }
    EXPECT_EQ(t.diameter(), diameter) << spec;
  }
}

TEST(TopologySpec, MiraShapes) {
  EXPECT_EQ(parse_topology("mira:512").sizes(), (std::vector<int>{4, 4, 4, 4, 2}));
  EXPECT_EQ(parse_topology("mira:1024").sizes(), (std::vector<int>{4, 4, 4, 8, 2}));
  EXPECT_EQ(parse_topology("mira:2048").sizes(), (std::vector<int>{4, 4, 8, 8, 2}));
  EXPECT_EQ(parse_topology("mira:4096").sizes(), (std::vector<int>{4, 8, 8, 8, 2}));
  EXPECT_EQ(parse_topology("mira:49152").sizes(), (std::vector<int>{8, 12, 16, 16, 2}));
  EXPECT_EQ(parse_topology("mira:1024").spec(), "bgq:4x4x4x8x2");
  EXPECT_EQ(parse_topology("mira:1024").default_routing(), "bgq");
  EXPECT_EQ(parse_topology("torus:8x8x8").default_routing(), "dor");
  EXPECT_DOUBLE_EQ(parse_topology("mira:512").link_bandwidth(), 1.8e9);
  EXPECT_DOUBLE_EQ(parse_topology("mira:512", 2e9).capacity(0), 2e9);
}

TEST(TopologySpec, MixedWrapSuffixes) {
  const Topology t = parse_topology("torus:8x8x4m");
  EXPECT_TRUE(t.wraps(0));
  EXPECT_FALSE(t.wraps(2));
  EXPECT_EQ(t.spec(), "torus:8x8x4m");
  EXPECT_EQ(parse_topology("mesh:4tx4").spec(), "mesh:4tx4");
  EXPECT_EQ(parse_topology("torus:4tx4").spec(), "torus:4x4");
}

TEST(TopologySpec, BadSpecsNameTheProblem) {
  for (const char* spec : {"", "bgq", "cube:4x4", "mira:1000", "torus:4x0", "torus:4xx4", "torus:-4", "bgq:4x4m",
                           "torus:abc", "mesh:"}) {
    try {
      parse_topology(spec);
      FAIL() << "accepted " << spec;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(spec), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(parse_topology("torus:4x4", 0.0), Error);
  EXPECT_THROW(parse_topology("torus:65536x65536"), Error);
}
