// Tori and meshes as networks: the port numbering of their links, the shape hint beside the
// graph, hop distances, and the spec parser.
#include <gtest/gtest.h>

#include <set>

#include "optiq/core/error.hpp"
#include "optiq/core/network.hpp"
#include "oracle.hpp"

using namespace optiq;

namespace {

std::vector<bool> wraps_of(const TorusShape& s) {
  std::vector<bool> w;
  for (int d = 0; d < s.dims(); ++d) w.push_back(s.wraps(d));
  return w;
}

}  // namespace

TEST(TorusNetwork, LinkIdsFollowThePortFormula) {
  // Every port of a full BG/Q torus leads somewhere, so no id is skipped and the dense ids are
  // the port formula node * 2n + 2 * dim + (0 for +, 1 for -).
  const Network t = parse_network("bgq:4x4x4x8x2");
  ASSERT_EQ(t.num_vertices(), 1024);
  ASSERT_NE(t.torus(), nullptr);
  const TorusShape& s = *t.torus();
  const NodeId node = s.node_at({1, 2, 3, 4, 1});
  EXPECT_EQ(node, (((1 * 4 + 2) * 4 + 3) * 8 + 4) * 2 + 1);
  for (int dim = 0; dim < 5; ++dim) {
    EXPECT_EQ(s.link(node, dim, +1), node * 10 + 2 * dim);
    EXPECT_EQ(s.link(node, dim, -1), node * 10 + 2 * dim + 1);
  }
  EXPECT_EQ(s.port_label(s.link(node, 3, +1)), "D+");
  EXPECT_EQ(s.port_label(s.link(node, 4, -1)), "E-");
  EXPECT_EQ(t.link_name(s.link(node, 3, +1)), std::to_string(node) + ":D+");
  EXPECT_EQ(t.link_named(std::to_string(node) + ":D+"), s.link(node, 3, +1));
  EXPECT_EQ(t.link_named(std::to_string(node) + ":Z+"), -1);
  EXPECT_EQ(t.num_links(), 10240);
  for (LinkId l = 0; l < t.num_links(); ++l) {  // and read backwards
    ASSERT_EQ(t.link_src(l), l / 10) << l;
    ASSERT_EQ(s.link_dim(l), l % 10 / 2) << l;
    ASSERT_EQ(s.link_direction(l), l % 2 ? -1 : +1) << l;
  }
}

TEST(TorusNetwork, SizeTwoTorusDimensionHasTwoLinksToOneNeighbour) {
  const Network t = parse_network("bgq:2x2x2x2x2");
  const NodeId a = 0;
  const LinkId plus = t.torus()->link(a, 4, +1), minus = t.torus()->link(a, 4, -1);
  EXPECT_NE(plus, minus);
  EXPECT_TRUE(t.has_link(plus));
  EXPECT_TRUE(t.has_link(minus));
  EXPECT_EQ(t.link_src(plus), a);
  EXPECT_EQ(t.link_src(minus), a);
  EXPECT_EQ(t.link_dst(plus), t.link_dst(minus));
  EXPECT_EQ(t.link_dst(plus), 1);
  std::vector<LinkId> out;
  std::set<NodeId> neighbours;
  for (LinkId l = 0; l < t.num_links(); ++l)
    if (t.link_src(l) == a) out.push_back(l), neighbours.insert(t.link_dst(l));
  EXPECT_EQ(out.size(), 10u);
  EXPECT_EQ(neighbours.size(), 5u);
  const graph::Csr& g = t.graph();
  ASSERT_EQ(g.out_end(a) - g.out_begin(a), 10);
  for (int i = g.out_begin(a); i < g.out_end(a); ++i) EXPECT_EQ(g.arc_at(i), out[i - g.out_begin(a)]);
}

TEST(TorusNetwork, SizeOneDimensionsAndMeshEdgesHaveNoLinks) {
  const Network t = parse_network("torus:4x1x3");
  for (NodeId v = 0; v < t.num_vertices(); ++v) {
    EXPECT_EQ(t.torus()->link(v, 1, +1), -1);
    EXPECT_EQ(t.torus()->link(v, 1, -1), -1);
  }
  for (LinkId l = 0; l < t.num_links(); ++l) EXPECT_NE(t.torus()->link_dim(l), 1) << l;
  EXPECT_EQ(t.num_links(), 12 * 4);
  const Network m = parse_network("mesh:3x3");
  const TorusShape& s = *m.torus();
  EXPECT_EQ(s.link(s.node_at({0, 0}), 0, -1), -1);
  const LinkId inward = s.link(s.node_at({0, 0}), 0, +1);
  ASSERT_TRUE(m.has_link(inward));
  EXPECT_EQ(m.link_dst(inward), s.node_at({1, 0}));
  EXPECT_EQ(s.link(s.node_at({2, 1}), 0, +1), -1);
  EXPECT_EQ(m.num_links(), 24);
}

// The dense ids are the ports in order (node, dimension, + before -) with the ports that lead
// nowhere skipped: checked against an enumeration of the ports from coordinates.
TEST(TorusNetwork, DenseIdsFollowThePortOrderAndSkipPortsThatLeadNowhere) {
  struct Case {
    const char* spec;
    std::vector<int> sizes;
    std::vector<bool> wrap;
  };
  for (const Case& c : {Case{"torus:4x4", {4, 4}, {true, true}}, Case{"mesh:4x3", {4, 3}, {false, false}},
                        Case{"torus:2x3x1", {2, 3, 1}, {true, true, true}}, Case{"torus:5x2m", {5, 2}, {true, false}},
                        Case{"bgq:2x2x2x2x2", {2, 2, 2, 2, 2}, std::vector<bool>(5, true)},
                        Case{"mesh:1", {1}, {false}}}) {
    const Network t = parse_network(c.spec);
    ASSERT_NE(t.torus(), nullptr) << c.spec;
    const TorusShape& s = *t.torus();
    ASSERT_EQ(s.sizes(), c.sizes) << c.spec;
    ASSERT_EQ(wraps_of(s), c.wrap) << c.spec;
    LinkId next = 0;
    for (const oracle::Port& p : oracle::torus_ports(c.sizes, c.wrap)) {
      const LinkId l = s.link(p.node, p.dim, p.dir);
      EXPECT_EQ(s.step(p.node, p.dim, p.dir), p.to) << c.spec << " node " << p.node;
      if (p.to < 0) {
        EXPECT_EQ(l, -1) << c.spec << " node " << p.node << " dim " << p.dim << " dir " << p.dir;
        continue;
      }
      ASSERT_EQ(l, next) << c.spec << " node " << p.node << " dim " << p.dim << " dir " << p.dir;
      ++next;
      EXPECT_EQ(t.link_src(l), p.node) << c.spec;
      EXPECT_EQ(t.link_dst(l), p.to) << c.spec;
      EXPECT_EQ(s.link_dim(l), p.dim) << c.spec;
      EXPECT_EQ(s.link_direction(l), p.dir) << c.spec;
    }
    EXPECT_EQ(t.num_links(), next) << c.spec;
    EXPECT_EQ(s.num_links(), next) << c.spec;
    EXPECT_FALSE(t.has_link(next)) << c.spec;
    EXPECT_FALSE(t.has_link(-1)) << c.spec;
  }
}

TEST(TorusNetwork, HopDistanceAndDiameterMatchBreadthFirstSearch) {
  for (const char* spec : {"torus:4x4", "torus:5x3", "mesh:4x3", "torus:4x3m", "bgq:2x2x2x2x2", "torus:6"}) {
    const Network t = parse_network(spec);
    int diameter = 0;
    for (NodeId a = 0; a < t.num_vertices(); ++a)
      for (NodeId b = 0; b < t.num_vertices(); ++b) {
        const int d = oracle::bfs_distance(t, a, b);
        ASSERT_EQ(t.hop_distance(a, b), d) << spec << " " << a << "->" << b;
        ASSERT_EQ(t.torus()->hop_distance(a, b), d) << spec << " " << a << "->" << b;
        diameter = std::max(diameter, d);
      }
    EXPECT_EQ(t.diameter(), diameter) << spec;
    EXPECT_EQ(t.torus()->diameter(), diameter) << spec;
  }
}

TEST(TorusSpec, MiraShapes) {
  EXPECT_EQ(parse_network("mira:512").torus()->sizes(), (std::vector<int>{4, 4, 4, 4, 2}));
  EXPECT_EQ(parse_network("mira:1024").torus()->sizes(), (std::vector<int>{4, 4, 4, 8, 2}));
  EXPECT_EQ(parse_network("mira:2048").torus()->sizes(), (std::vector<int>{4, 4, 8, 8, 2}));
  EXPECT_EQ(parse_network("mira:4096").torus()->sizes(), (std::vector<int>{4, 8, 8, 8, 2}));
  EXPECT_EQ(parse_network("mira:49152").torus()->sizes(), (std::vector<int>{8, 12, 16, 16, 2}));
  EXPECT_EQ(parse_network("mira:1024").spec(), "bgq:4x4x4x8x2");
  EXPECT_EQ(parse_network("mira:1024").default_routing(), "bgq");
  EXPECT_EQ(parse_network("torus:8x8x8").default_routing(), "dor");
  const Network mira = parse_network("mira:512");
  for (LinkId l = 0; l < mira.num_links(); ++l) ASSERT_DOUBLE_EQ(mira.capacity(l), 1.8e9) << l;
  const Network faster = parse_network("mira:512", 2e9);
  for (LinkId l = 0; l < faster.num_links(); ++l) ASSERT_DOUBLE_EQ(faster.capacity(l), 2e9) << l;
}

TEST(TorusSpec, MixedWrapSuffixes) {
  const Network t = parse_network("torus:8x8x4m");
  EXPECT_TRUE(t.torus()->wraps(0));
  EXPECT_TRUE(t.torus()->wraps(1));
  EXPECT_FALSE(t.torus()->wraps(2));
  EXPECT_EQ(t.spec(), "torus:8x8x4m");
  EXPECT_EQ(parse_network("mesh:4tx4").spec(), "mesh:4tx4");
  EXPECT_EQ(parse_network("torus:4tx4").spec(), "torus:4x4");
}

TEST(TorusSpec, BadSpecsNameTheProblem) {
  for (const char* spec : {"", "bgq", "cube:4x4", "mira:1000", "torus:4x0", "torus:4xx4", "torus:-4", "bgq:4x4m",
                           "torus:abc", "mesh:"}) {
    try {
      parse_network(spec);
      FAIL() << "accepted " << spec;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(spec), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(parse_network("torus:4x4", 0.0), Error);
  EXPECT_THROW(parse_network("torus:65536x65536"), Error);
}
