#include <gtest/gtest.h>

#include "optiq/core/error.hpp"
#include "optiq/core/metrics.hpp"
#include "optiq/core/planner.hpp"
#include "optiq/core/routing.hpp"

using namespace optiq;

namespace {

std::string order_letters(const std::vector<int>& order) {
  std::string s;
  for (int d : order) s += TorusShape::dim_label(d);
  return s;
}

// The dims visited by a route, with repeats collapsed.
std::vector<int> dims_in_order(const Network& t, const LinkPath& route) {
  std::vector<int> dims;
  for (LinkId l : route)
    if (dims.empty() || dims.back() != t.torus()->link_dim(l)) dims.push_back(t.torus()->link_dim(l));
  return dims;
}

}  // namespace

TEST(BgqRouting, DimensionOrderForEveryMiraShape) {
  EXPECT_EQ(order_letters(bgq_dimension_order({4, 4, 4, 4, 2})), "ABCDE");
  EXPECT_EQ(order_letters(bgq_dimension_order({4, 4, 4, 8, 2})), "DBCAE");
  EXPECT_EQ(order_letters(bgq_dimension_order({4, 4, 8, 8, 2})), "CDABE");
  EXPECT_EQ(order_letters(bgq_dimension_order({4, 8, 8, 8, 2})), "BCDAE");
  EXPECT_EQ(order_letters(bgq_dimension_order({8, 12, 16, 16, 2})), "CDBAE");
}

TEST(BgqRouting, TieBreakOnSmallPartitions) {
  // 128 and 256 nodes with A == B longest: B goes first.
  EXPECT_EQ(order_letters(bgq_dimension_order({4, 4, 2, 2, 2})), "BACDE");
  EXPECT_EQ(order_letters(bgq_dimension_order({4, 4, 4, 2, 2})), "BACDE");
  EXPECT_EQ(order_letters(bgq_dimension_order({4, 4, 4, 4, 2})), "ABCDE");  // 512: no tie-break
}

class DimensionOrdered : public ::testing::TestWithParam<const char*> {};

TEST_P(DimensionOrdered, RoutesAreMinimalAndFollowTheBgqDimensionOrder) {
  for (const char* spec : {"bgq:4x4x4x8x2", "bgq:2x2x2x2x2", "bgq:3x5x4x2x1", "bgq:4x4x2x2x2", "torus:5x6x3"}) {
    const Network t = parse_network(spec);
    const auto routing = make_routing(GetParam(), t);
    const auto order = bgq_dimension_order(t.torus()->sizes());
    const int stride = t.num_vertices() > 300 ? 7 : 1;
    for (NodeId a = 0; a < t.num_vertices(); a += stride)
      for (NodeId b = 0; b < t.num_vertices(); ++b) {
        const LinkPath r = routing->route(a, b);
        ASSERT_EQ(static_cast<int>(r.size()), t.hop_distance(a, b)) << spec << " " << a << "->" << b;
        NodeId at = a;
        for (LinkId l : r) {
          ASSERT_TRUE(t.has_link(l)) << spec << " " << a << "->" << b;
          ASSERT_EQ(t.link_src(l), at);
          at = t.link_dst(l);
        }
        ASSERT_EQ(at, b);
        std::size_t pos = 0;
        for (int d : dims_in_order(t, r)) {
          while (pos < order.size() && order[pos] != d) ++pos;
          ASSERT_LT(pos, order.size()) << "dimension out of order in " << spec;
        }
      }
  }
}

INSTANTIATE_TEST_SUITE_P(Models, DimensionOrdered, ::testing::Values("bgq", "simgrid"));

TEST(BgqRouting, HalfRingGoesDirectFromEvenAndWrapsFromOdd) {
  const Network t = parse_network("bgq:4x1x1x1x1");
  const auto r = make_routing("bgq", t);
  EXPECT_EQ(t.torus()->link_direction(r->route(0, 2)[0]), +1);  // even source: direct way
  EXPECT_EQ(t.torus()->link_direction(r->route(2, 0)[0]), -1);
  EXPECT_EQ(t.torus()->link_direction(r->route(1, 3)[0]), -1);  // odd source: wrap
  EXPECT_EQ(t.torus()->link_direction(r->route(3, 1)[0]), +1);
  EXPECT_EQ(t.torus()->link_direction(r->route(0, 3)[0]), -1);  // shorter way round
}

TEST(BgqRouting, SizeTwoDimensionUsesThePlusPortBothWays) {
  const Network t = parse_network("bgq:2x2x2x2x2");
  const auto r = make_routing("bgq", t);
  EXPECT_EQ(t.torus()->port_label(r->route(0, 1)[0]), "E+");
  EXPECT_EQ(t.torus()->port_label(r->route(1, 0)[0]), "E+");
}

TEST(SimgridRouting, HalfRingGoesPlusExceptFromTheMiddle) {
  for (int ring : {4, 6, 8}) {
    const Network t = parse_network("torus:" + std::to_string(ring));
    const auto r = make_routing("simgrid", t);
    for (int s = 0; s < ring; ++s) {
      const int expected = s == ring / 2 ? -1 : +1;
      EXPECT_EQ(t.torus()->link_direction(r->route(s, (s + ring / 2) % ring)[0]), expected) << ring << ": " << s;
    }
  }
}

TEST(SimgridRouting, SizeTwoDimensionUsesOneCableBothWays) {
  // SimGrid's torus never routes over the wrap cable of a size-2 ring: 1 -> 0 comes back
  // over the cable 0 -> 1 went out on, which is port E- of node 1.
  const Network t = parse_network("bgq:2x2x2x2x2");
  const auto r = make_routing("simgrid", t);
  EXPECT_EQ(t.torus()->port_label(r->route(0, 1)[0]), "E+");
  EXPECT_EQ(t.torus()->port_label(r->route(1, 0)[0]), "E-");
}

TEST(DorRouting, DimensionZeroFirstShorterWayPlusOnTies) {
  const Network t = parse_network("torus:4x6");
  const TorusShape& s = *t.torus();
  const auto r = make_routing("dor", t);
  const LinkPath p = r->route(s.node_at({0, 0}), s.node_at({2, 3}));
  ASSERT_EQ(p.size(), 5u);
  for (int i = 0; i < 2; ++i) EXPECT_EQ(s.port_label(p[i]), "A+");
  for (int i = 2; i < 5; ++i) EXPECT_EQ(s.port_label(p[i]), "B+");
  EXPECT_EQ(s.port_label(r->route(s.node_at({3, 0}), s.node_at({1, 0}))[0]), "A+");  // tie from odd: still +
  EXPECT_EQ(s.port_label(r->route(s.node_at({0, 0}), s.node_at({0, 5}))[0]), "B-");
  const Network m = parse_network("mesh:4x4");
  EXPECT_EQ(make_routing("dor", m)->route(0, 3).size(), 3u);
}

TEST(Routing, TorusModelsNeedTheTorusHintAndShortestRunsAnywhere) {
  Network::Builder b;
  for (int v = 0; v < 4; ++v) b.add_vertex(VertexKind::Endpoint);
  for (int v = 0; v < 4; ++v) b.add_link(v, (v + 1) % 4, 1e9), b.add_link((v + 1) % 4, v, 1e9);
  const Network ring = std::move(b).build("ring", "shortest");
  ASSERT_EQ(ring.torus(), nullptr);
  for (const char* name : {"bgq", "dor", "simgrid"}) EXPECT_THROW(make_routing(name, ring), Error) << name;
  EXPECT_EQ(make_routing("shortest", ring)->route(0, 2).size(), 2u);
  const Network t = parse_network("torus:4x3m");
  const auto shortest = make_routing("shortest", t);
  for (NodeId a = 0; a < t.num_vertices(); ++a)
    for (NodeId z = 0; z < t.num_vertices(); ++z)
      EXPECT_EQ(static_cast<int>(shortest->route(a, z).size()), t.hop_distance(a, z)) << a << "->" << z;
}

TEST(Routing, UnknownNameIsAnError) {
  const Network t = parse_network("torus:4x4");
  EXPECT_THROW(make_routing("ecube", t), Error);
  EXPECT_THROW(make_routing("dor", t)->route(0, 99), Error);
}

// Thesis Table VII, MPI rows: the default routing on Mira 1024 for the three 1:8 patterns.
TEST(PublishedAnchors, DefaultRoutingOnMira1024) {
  const Network t = parse_network("mira:1024");
  const auto routing = make_routing("bgq", t);
  const std::vector<std::pair<std::string, double>> expected = {
      {"disjoint", 3.07}, {"overlap", 3.38}, {"subset", 3.52}};
  for (const auto& [pattern, ppl_avg] : expected) {
    PatternOptions o;
    o.num_nodes = t.num_vertices();
    const auto jobs = assign_sizes(named_pattern(pattern, o), "8MiB", 0);
    const Metrics m = compute_metrics(plan_default(t, *routing, jobs), t);
    EXPECT_EQ(m.paths, 512u) << pattern;
    EXPECT_EQ(m.paths_per_link_max, 16u) << pattern;
    EXPECT_NEAR(m.paths_per_link_avg, ppl_avg, 0.005) << pattern;
    EXPECT_EQ(m.link_bytes_max, 134217728u) << pattern;
  }
}
