// The network model: builder checks, names, digests, and the torus generator against the
// port formula it replaces.
#include <gtest/gtest.h>

#include <limits>

#include "optiq/error.hpp"
#include "optiq/network.hpp"
#include "optiq/topology.hpp"

namespace {

using namespace optiq;

TEST(Network, TorusGeneratorKeepsThePortOrderOfEveryLink) {
  for (const char* spec : {"bgq:4x4x4x8x2", "torus:3x2x1", "torus:8x8x4m", "mesh:4tx4"}) {
    const Topology old = parse_topology(spec);
    std::vector<bool> wrap;
    for (int d = 0; d < old.dims(); ++d) wrap.push_back(old.wraps(d));
    const Network n = make_torus_network(old.sizes(), wrap, old.link_bandwidth(), old.spec(), old.default_routing());
    ASSERT_EQ(n.num_vertices(), old.num_nodes()) << spec;
    ASSERT_EQ(n.num_links(), old.num_links()) << spec;
    ASSERT_NE(n.torus(), nullptr);
    LinkId dense = 0;
    for (LinkId slot = 0; slot < old.num_link_slots(); ++slot) {
      if (!old.link_exists(slot)) continue;
      const LinkId l = dense++;
      EXPECT_EQ(n.link_src(l), old.link_src(slot));
      EXPECT_EQ(n.link_dst(l), old.link_dst(slot));
      EXPECT_EQ(n.torus()->link(old.link_src(slot), old.link_dim(slot), old.link_direction(slot)), l);
      EXPECT_EQ(n.torus()->port_label(l), old.port_label(slot));
      EXPECT_EQ(n.link_name(l), std::to_string(old.link_src(slot)) + ":" + old.port_label(slot));
      EXPECT_EQ(n.link_named(n.link_name(l)), l);
      EXPECT_EQ(n.link_named(std::to_string(old.link_src(slot)) + ":" + old.port_label(slot) + "x"), -1);
      EXPECT_EQ(n.capacity(l), old.link_bandwidth());
    }
    EXPECT_EQ(n.link_named("0" + n.link_name(0)), -1);
    EXPECT_EQ(n.diameter(), old.diameter());
    EXPECT_EQ(n.endpoints().size(), static_cast<std::size_t>(old.num_nodes()));
  }
}

TEST(Network, BuilderRefusesBadLinksWithOneLine) {
  auto two = [] {
    Network::Builder b;
    b.add_vertex(VertexKind::Endpoint);
    b.add_vertex(VertexKind::Switch);
    return b;
  };
  EXPECT_THROW(two().add_link(0, 2, 1e9), Error);
  EXPECT_THROW(two().add_link(1, 1, 1e9), Error);
  EXPECT_THROW(two().add_link(0, 1, 0), Error);
  EXPECT_THROW(two().add_link(0, 1, std::numeric_limits<double>::infinity()), Error);
  auto b = two();
  b.add_link(0, 1, 1e9, "up");
  b.add_link(1, 0, 1e9, "up");
  EXPECT_THROW(std::move(b).build("g", "shortest"), Error);
  EXPECT_THROW(Network::Builder().build("g", "shortest"), Error);
}

TEST(Network, DefaultNamesNumberParallelLinksAndTheDigestSeesEveryChange) {
  auto make = [](double cap, VertexKind k) {
    Network::Builder b;
    b.add_vertex(VertexKind::Endpoint);
    b.add_vertex(k);
    b.add_vertex(VertexKind::Endpoint);
    b.add_link(0, 1, 1e9);
    b.add_link(0, 1, cap);
    b.add_link(1, 2, 1e9);
    b.add_link(2, 1, 1e9);
    b.add_link(1, 0, 1e9);
    return std::move(b).build("g", "shortest");
  };
  const Network n = make(1e9, VertexKind::Switch);
  EXPECT_EQ(n.link_name(0), "0-1");
  EXPECT_EQ(n.link_name(1), "0-1#1");
  EXPECT_EQ(n.link_named("0-1#1"), 1);
  EXPECT_EQ(n.link_named("1-0#1"), -1);
  EXPECT_EQ(n.endpoints(), (std::vector<NodeId>{0, 2}));
  EXPECT_FALSE(n.forwards_in_software(1));
  EXPECT_EQ(n.diameter(), 2);
  EXPECT_EQ(n.hop_distance(0, 2), 2);
  EXPECT_EQ(n.digest().size(), 16u);
  EXPECT_EQ(n.digest(), make(1e9, VertexKind::Switch).digest());
  EXPECT_NE(n.digest(), make(2e9, VertexKind::Switch).digest());
  EXPECT_NE(n.digest(), make(1e9, VertexKind::Endpoint).digest());
  EXPECT_EQ(n.graph().out_end(0) - n.graph().out_begin(0), 2);
}

}  // namespace
