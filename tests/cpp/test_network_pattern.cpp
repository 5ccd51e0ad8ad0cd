#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "optiq/core/error.hpp"
#include "optiq/core/fat_tree.hpp"
#include "optiq/core/network.hpp"
#include "optiq/core/network_pattern.hpp"
#include "optiq/core/routing.hpp"

using namespace optiq;

namespace {

// Flows on the busiest link of the default routes (each pair one flow).
int busiest_flows(const Network& net, const std::string& routing, const std::vector<Pair>& pairs) {
  const auto model = make_routing(routing, net);
  std::map<LinkId, int> flows;
  for (const auto& [s, d] : pairs)
    for (LinkId l : model->route(net.endpoints()[s], net.endpoints()[d])) ++flows[l];
  int most = 0;
  for (const auto& [l, f] : flows) most = std::max(most, f);
  return most;
}

bool is_permutation(const std::vector<Pair>& pairs, int P) {
  std::set<NodeId> src, dst;
  for (const auto& [s, d] : pairs) src.insert(s), dst.insert(d);
  return static_cast<int>(pairs.size()) == P && static_cast<int>(src.size()) == P && static_cast<int>(dst.size()) == P;
}

}  // namespace

TEST(NetworkPattern, GroupToGroupPairsSameIndexHosts) {
  const Network net = parse_network("dragonfly:3,1;2,1;3,1;2");  // 12 hosts per group
  const auto p = network_pattern("group-to-group", net, {});
  ASSERT_EQ(p.pairs.size(), 12u);
  for (int i = 0; i < 12; ++i) EXPECT_EQ(p.pairs[i], Pair(i, 12 + i));
  // Every default route takes the one blue link from group 0 to group 1.
  EXPECT_EQ(busiest_flows(net, "minimal", p.pairs), 12);
  EXPECT_EQ(busiest_flows(net, "minimal", network_pattern("groups-alltoall", net, {}).pairs), 12);
  NetworkPatternOptions o;
  o.group_src = 2, o.group_dst = 0;
  EXPECT_EQ(network_pattern("group-to-group", net, o).pairs[5], Pair(29, 5));
  o.group_dst = 2;
  EXPECT_THROW(network_pattern("group-to-group", net, o), Error);
  o.group_dst = 3;
  EXPECT_THROW(network_pattern("group-to-group", net, o), Error);
}

TEST(NetworkPattern, GroupsAllToAllCoversEveryOrderedGroupPair) {
  const Network net = parse_network("dragonfly:3,1;2,1;3,1;2");
  const auto p = network_pattern("groups-alltoall", net, {});
  EXPECT_EQ(p.pairs.size(), 3u * 2 * 12);
  for (const auto& [s, d] : p.pairs) {
    EXPECT_EQ(s % 12, d % 12);
    EXPECT_NE(s / 12, d / 12);
  }
}

TEST(NetworkPattern, DragonflyPatternsNeedADragonflyOfSeveralGroups) {
  EXPECT_THROW(network_pattern("group-to-group", parse_network("torus:4x4"), {}), Error);
  EXPECT_THROW(network_pattern("groups-alltoall", parse_network("dragonfly:1,1;2,1;2,1;2"), {}), Error);
}

TEST(NetworkPattern, PermutationIsSeededAndHasNoFixedPoint) {
  const Network net = parse_network("fattree:2;4,4;1,2;1,1");
  NetworkPatternOptions o;
  o.seed = 7;
  const auto a = network_pattern("permutation", net, o), b = network_pattern("permutation", net, o);
  EXPECT_EQ(a.pairs, b.pairs);
  EXPECT_TRUE(is_permutation(a.pairs, 16));
  for (const auto& [s, d] : a.pairs) EXPECT_NE(s, d);
  o.seed = 8;
  EXPECT_NE(network_pattern("permutation", net, o).pairs, a.pairs);
  EXPECT_THROW(network_pattern("permutation", parse_network("torus:1"), {}), Error);
}

TEST(NetworkPattern, MoeWeighsAFewSeededHotDestinations) {
  const Network net = parse_network("torus:4x8");  // 32 endpoints: 2 hot by default
  NetworkPatternOptions o;
  o.seed = 3;
  const auto p = network_pattern("moe", net, o);
  ASSERT_EQ(p.pairs.size(), 32u * 31);
  std::set<NodeId> hot;
  for (size_t i = 0; i < p.pairs.size(); ++i) {
    EXPECT_NE(p.pairs[i].first, p.pairs[i].second);
    EXPECT_TRUE(p.weights[i] == 1 || p.weights[i] == 8);
    if (p.weights[i] == 8) hot.insert(p.pairs[i].second);
  }
  EXPECT_EQ(hot.size(), 2u);
  EXPECT_EQ(network_pattern("moe", net, o).weights, p.weights);
  o.seed = 4;
  EXPECT_NE(network_pattern("moe", net, o).weights, p.weights);
  o.hot = 33;
  EXPECT_THROW(network_pattern("moe", net, o), Error);
}

TEST(NetworkPattern, MoesHotFactorIsEightUnlessGivenAndMustBePositive) {
  const Network net = parse_network("torus:4x8");
  NetworkPatternOptions o;
  EXPECT_EQ(o.hot_factor, kMoeHotFactor);
  EXPECT_EQ(kMoeHotFactor, 8.0);
  const auto eight = network_pattern("moe", net, o);
  o.hot_factor = 2.5;
  const auto p = network_pattern("moe", net, o);
  ASSERT_EQ(p.pairs, eight.pairs);  // the same hot destinations, weighed less
  for (std::size_t i = 0; i < p.pairs.size(); ++i) EXPECT_EQ(p.weights[i], eight.weights[i] == 8 ? 2.5 : 1.0);
  for (double bad : {0.0, -1.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
    o.hot_factor = bad;
    try {
      network_pattern("moe", net, o);
      FAIL() << bad;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("positive, finite hot factor"), std::string::npos) << e.what();
    }
  }
}

// Every block of m_0 hosts below a level-1 switch sends to destinations of one class of
// d mod k, so destination-mod-k takes them all up one link: m_0 flows where a permutation can
// keep every link at one.
TEST(NetworkPattern, DmodkAdversarialSharesTheFirstUpLink) {
  for (const char* spec : {"fattree:2;4,4;1,2;1,1", "fattree:2;8,8;1,8;1,1", "fattree:3;4,4,4;1,2,2;1,1,1",
                           "fattree:2;4,4;1,2;1,2"}) {
    const Network net = parse_network(spec);
    const auto p = network_pattern("dmodk-adversarial", net, {});
    EXPECT_TRUE(is_permutation(p.pairs, net.fat_tree()->num_hosts())) << spec;
    for (const auto& [s, d] : p.pairs) EXPECT_NE(s, d) << spec;
    const int m0 = net.fat_tree()->down(0);
    EXPECT_GE(busiest_flows(net, "dmodk", p.pairs), m0 - 1) << spec;
    EXPECT_EQ(busiest_flows(net, "simgrid", p.pairs) >= m0 - 1, true) << spec;
  }
  // No seeded permutation loads a link more.
  for (const char* spec : {"fattree:2;4,4;1,2;1,1", "fattree:2;8,8;1,8;1,1", "fattree:2;4,4;1,4;1,1",
                           "fattree:3;4,4,4;1,2,2;1,1,1", "fattree:3;4,4,2;1,4,2;1,1,2"}) {
    const Network net = parse_network(spec);
    const int adversarial = busiest_flows(net, "dmodk", network_pattern("dmodk-adversarial", net, {}).pairs);
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
      NetworkPatternOptions o;
      o.seed = seed;
      EXPECT_GE(adversarial, busiest_flows(net, "dmodk", network_pattern("permutation", net, o).pairs)) << spec;
    }
  }
  // Aimed at level 2 on a three-level tree: the 16 hosts below a level-2 switch send 12 flows
  // (the other 4 of their class are below it) up one link.
  const Network deep = parse_network("fattree:3;4,4,4;1,2,2;1,1,1");
  EXPECT_EQ(busiest_flows(deep, "dmodk", network_pattern("dmodk-adversarial", deep, {}).pairs), 12);
  // Where the classes split evenly, every block shares one link: m_0 flows.
  const Network net = parse_network("fattree:2;4,4;1,2;1,1");
  EXPECT_EQ(busiest_flows(net, "dmodk", network_pattern("dmodk-adversarial", net, {}).pairs), 4);
}

TEST(NetworkPattern, DmodkAdversarialNeedsATwoLevelFatTree) {
  EXPECT_THROW(network_pattern("dmodk-adversarial", parse_network("torus:4x4"), {}), Error);
  EXPECT_THROW(network_pattern("dmodk-adversarial", parse_network("fattree:1;4;1;1"), {}), Error);
  EXPECT_THROW(network_pattern("ring", parse_network("torus:4x4"), {}), Error);
}
