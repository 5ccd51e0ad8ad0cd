// The network model: builder checks, names, digests, and the torus generator against an
// enumeration of the ports it numbers.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <set>

#include "optiq/core/error.hpp"
#include "optiq/core/network.hpp"
#include "optiq/core/network_routing.hpp"
#include "oracle.hpp"

namespace {

using namespace optiq;

// Link ids are the ports in order (node, dimension, + before -) that lead somewhere, names are
// "NODE:PORT", every link carries the bandwidth given.
TEST(Network, TorusGeneratorKeepsThePortOrderOfEveryLink) {
  struct Case {
    const char* spec;
    std::vector<int> sizes;
    std::vector<bool> wrap;
    int diameter;
  };
  for (const Case& c : {Case{"bgq:4x4x4x8x2", {4, 4, 4, 8, 2}, std::vector<bool>(5, true), 2 + 2 + 2 + 4 + 1},
                        Case{"torus:3x2x1", {3, 2, 1}, {true, true, true}, 1 + 1 + 0},
                        Case{"torus:8x8x4m", {8, 8, 4}, {true, true, false}, 4 + 4 + 3},
                        Case{"mesh:4tx4", {4, 4}, {true, false}, 2 + 3}}) {
    for (const double bw : {kBgqLinkBandwidth, 3.5e9}) {
      const Network n = make_torus_network(c.sizes, c.wrap, bw, c.spec, "dor");
      const Network parsed = parse_network(c.spec, bw);
      EXPECT_EQ(parsed.digest(), n.digest()) << c.spec;
      EXPECT_EQ(parsed.num_links(), n.num_links()) << c.spec;
      ASSERT_NE(n.torus(), nullptr);
      EXPECT_EQ(n.torus()->sizes(), c.sizes) << c.spec;
      const auto ports = oracle::torus_ports(c.sizes, c.wrap);
      const int num_nodes = static_cast<int>(ports.size() / (2 * c.sizes.size()));
      ASSERT_EQ(n.num_vertices(), num_nodes) << c.spec;
      LinkId dense = 0;
      std::set<std::string> names;
      for (const oracle::Port& p : ports) {
        const std::string port = std::string(1, static_cast<char>('A' + p.dim)) + (p.dir > 0 ? "+" : "-");
        const std::string name = std::to_string(p.node) + ":" + port;
        if (p.to < 0) {  // a port that leads nowhere has no link and no name
          EXPECT_EQ(n.torus()->link(p.node, p.dim, p.dir), -1) << c.spec << " " << name;
          EXPECT_EQ(n.link_named(name), -1) << c.spec << " " << name;
          continue;
        }
        const LinkId l = dense++;
        ASSERT_TRUE(n.has_link(l)) << c.spec << " " << name;
        EXPECT_EQ(n.link_src(l), p.node);
        EXPECT_EQ(n.link_dst(l), p.to);
        EXPECT_EQ(n.torus()->link(p.node, p.dim, p.dir), l);
        EXPECT_EQ(n.torus()->port_label(l), port);
        EXPECT_EQ(n.link_name(l), name);
        EXPECT_EQ(n.link_named(name), l);
        EXPECT_EQ(n.link_named(name + "x"), -1);
        EXPECT_EQ(n.capacity(l), bw);
        names.insert(n.link_name(l));
      }
      EXPECT_EQ(n.num_links(), dense) << c.spec;
      EXPECT_EQ(names.size(), static_cast<std::size_t>(dense)) << c.spec;
      EXPECT_EQ(n.link_named("0" + n.link_name(0)), -1);
      EXPECT_EQ(n.diameter(), c.diameter) << c.spec;
      std::vector<NodeId> all(num_nodes);
      for (NodeId v = 0; v < num_nodes; ++v) all[v] = v;
      EXPECT_EQ(n.endpoints(), all) << c.spec;
    }
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

TEST(Network, DefaultNamesNumberParallelLinksAndTheDigestSeesTheWiring) {
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
  EXPECT_FALSE(n.is_terminal(1));
  EXPECT_EQ(n.diameter(), 2);
  EXPECT_EQ(n.hop_distance(0, 2), 2);
  EXPECT_EQ(n.digest().size(), 16u);
  EXPECT_EQ(n.digest(), make(1e9, VertexKind::Switch).digest());
  EXPECT_EQ(n.digest(), make(2e9, VertexKind::Switch).digest());  // capacities are not wiring
  EXPECT_NE(n.digest(), make(1e9, VertexKind::Endpoint).digest());
  EXPECT_EQ(n.graph().out_end(0) - n.graph().out_begin(0), 2);
}

}  // namespace

namespace {

using namespace optiq;

// A random strongly connected network: a ring both ways plus random extra links, some
// vertices switches (unless `switches` is false).
Network::Builder random_builder(std::uint64_t seed, int n, int extra, bool switches = true) {
  std::uint64_t x = seed;
  auto below = [&](int bound) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int>((x >> 33) % static_cast<std::uint64_t>(bound));
  };
  Network::Builder b;
  for (int v = 0; v < n; ++v) b.add_vertex(switches && v % 3 == 2 ? VertexKind::Switch : VertexKind::Endpoint);
  for (int v = 0; v < n; ++v) b.add_link(v, (v + 1) % n, 1e9), b.add_link((v + 1) % n, v, 2e9);
  for (int i = 0; i < extra; ++i) {
    const int u = below(n), v = below(n);
    if (u != v) b.add_link(u, v, 1e9 * (1 + below(4)));
  }
  return b;
}

Network random_network(std::uint64_t seed, int n, int extra, bool switches = true) {
  return random_builder(seed, n, extra, switches).build("random", "shortest");
}

// Every simple path from s to t, by depth-first enumeration.
void simple_paths(const Network& net, NodeId v, NodeId t, std::vector<char>& on, LinkPath& path,
                  std::vector<LinkPath>& out) {
  if (v == t) return out.push_back(path);
  on[v] = 1;
  for (LinkId l = 0; l < net.num_links(); ++l)
    if (net.link_src(l) == v && !on[net.link_dst(l)]) {
      path.push_back(l);
      simple_paths(net, net.link_dst(l), t, on, path, out);
      path.pop_back();
    }
  on[v] = 0;
}

// Where there are switches, routes pass through switches only: hosts do not forward in hardware.
TEST(ShortestRouting, FewestLinksThenSmallestLinkIdsAgainstEnumeration) {
  int unroutable = 0;
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    const Network net = random_network(seed, 4 + static_cast<int>(seed % 4), 6, seed <= 25);
    const auto routing = make_shortest_routing(net);
    for (NodeId s = 0; s < net.num_vertices(); ++s)
      for (NodeId t = 0; t < net.num_vertices(); ++t) {
        std::vector<LinkPath> all, through_switches;
        std::vector<char> on(net.num_vertices(), 0);
        LinkPath path;
        simple_paths(net, s, t, on, path, all);
        for (const LinkPath& p : all) {
          bool ok = true;
          for (std::size_t i = 0; i + 1 < p.size(); ++i) ok &= net.kind(net.link_dst(p[i])) == VertexKind::Switch;
          if (ok || seed > 25) through_switches.push_back(p);
        }
        all = through_switches;
        if (all.empty()) {
          EXPECT_THROW(routing->route(s, t), Error) << "seed " << seed << " " << s << "->" << t;
          ++unroutable;
          continue;
        }
        std::sort(all.begin(), all.end(), [](const LinkPath& a, const LinkPath& b) {
          return a.size() != b.size() ? a.size() < b.size() : a < b;
        });
        const LinkPath r = routing->route(s, t);
        EXPECT_EQ(r, all.front()) << "seed " << seed << " " << s << "->" << t;
        // Destination-based: from every vertex on the way, the rest of the route is its route.
        NodeId v = s;
        for (std::size_t i = 0; i < r.size(); ++i) {
          EXPECT_EQ(routing->route(v, t), LinkPath(r.begin() + i, r.end()));
          v = net.link_dst(r[i]);
        }
      }
  }
  EXPECT_GT(unroutable, 0);  // some pairs are joined only through a host: the rule bites
}

TEST(TableRouting, FollowsItsTableAndNamesEveryDefect) {
  using Rows = std::vector<std::vector<std::pair<NodeId, LinkId>>>;
  const Network plain = random_network(3, 6, 5, false);
  const auto shortest = make_shortest_routing(plain);
  Rows next(plain.num_vertices());
  for (NodeId v = 0; v < plain.num_vertices(); ++v)
    for (NodeId t = 0; t < plain.num_vertices(); ++t)
      if (v != t) next[v].push_back({t, shortest->route(v, t).front()});
  auto with = [](const Rows& rows) {
    auto b = random_builder(3, 6, 5, false);
    b.set_forwarding_table(rows);
    return std::move(b).build("random", "table");
  };
  const Network net = with(next);
  const auto table = make_table_routing(net);
  for (NodeId s = 0; s < net.num_vertices(); ++s)
    for (NodeId t = 0; t < net.num_vertices(); ++t) EXPECT_EQ(table->route(s, t), shortest->route(s, t));

  Rows missing = next;
  missing[1].erase(missing[1].begin() + 3);  // vertex 1 forgets destination 4
  const Network m = with(missing);
  EXPECT_THROW(make_table_routing(m)->route(1, 4), Error);
  Rows looping = next;
  looping[0][2].second = 0;  // destination 3: 0 -> 1 (ring link 0) ...
  looping[1][2].second = 1;  // ... and 1 -> 0 (ring link 1)
  const Network l = with(looping);
  EXPECT_THROW(make_table_routing(l)->route(0, 3), Error);
  Rows foreign = next;
  foreign[2][0].second = 0;  // link 0 leaves vertex 0, not 2
  const Network f = with(foreign);
  EXPECT_THROW(make_table_routing(f), Error);
  Rows unsorted = next;
  std::swap(unsorted[0][0], unsorted[0][1]);
  const Network u = with(unsorted);
  EXPECT_THROW(make_table_routing(u), Error);
  EXPECT_THROW(make_table_routing(plain), Error);  // no table at all
}

}  // namespace
