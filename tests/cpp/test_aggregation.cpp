// Two-phase I/O aggregation: I/O groups and file layouts, file domains, the jobs a placement
// implies, and every placement strategy against a brute-force search of its own stated cost.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <set>

#include "optiq/core/aggregation.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/routing.hpp"

namespace {

using namespace optiq;

// One pset of BG/Q with its I/O node: 128 nodes, bridges 0 and 64.
const char* kPset = "bgq:2x4x4x4x1+io";

struct Fixture {
  Network net;
  std::unique_ptr<RoutingModel> routing;
  explicit Fixture(const char* spec) : net(parse_network(spec)), routing(make_routing("bgq", net)) {}
};

std::vector<IoGroup> groups_of(const Fixture& f, const std::vector<Bytes>& rank_bytes, int ranks_per_node = 1,
                               FileLayout layout = FileLayout::Aos) {
  return make_io_groups(f.net, *f.routing, ranks_per_node, rank_bytes, {1}, layout);
}

TEST(Aggregation, EveryNodeWritesThroughItsPsetsIoNode) {
  const Fixture f("mira:1024+io");
  const auto of = io_nodes_of_endpoints(f.net, *f.routing);
  ASSERT_EQ(of.size(), 1024u);
  for (NodeId v = 0; v < 1024; ++v) ASSERT_EQ(of[v], 1024 + v / kPsetNodes) << "node " << v;
  EXPECT_THROW(io_nodes_of_endpoints(parse_network("mira:512"), *make_routing("bgq", parse_network("mira:512"))),
               Error);
}

TEST(Aggregation, OneEndpointsIoNodeIsTheOneTheWholeMappingGives) {
  const Fixture f("mira:1024+io");
  const auto of = io_nodes_of_endpoints(f.net, *f.routing);
  for (NodeId v = 0; v < 1024; ++v) ASSERT_EQ(io_node_of_endpoint(f.net, *f.routing, v), of[v]) << "node " << v;
  EXPECT_THROW(io_node_of_endpoint(f.net, *f.routing, 1024), Error);  // an I/O node, not an endpoint
  EXPECT_THROW(io_node_of_endpoint(f.net, *f.routing, -1), Error);
  EXPECT_THROW(io_node_of_endpoint(f.net, *f.routing, f.net.num_vertices()), Error);
  const Network plain = parse_network("mira:512");
  EXPECT_THROW(io_node_of_endpoint(plain, *make_routing("bgq", plain), 0), Error);
}

TEST(Aggregation, AosKeepsEachRanksBytesTogetherInRankOrder) {
  const Fixture f(kPset);
  // Two ranks per node; rank 3 holds nothing.
  const std::vector<Bytes> items = {5, 7, 2, 0, 4};
  const auto groups = make_io_groups(f.net, *f.routing, 2, items, {3}, FileLayout::Aos);
  ASSERT_EQ(groups.size(), 1u);
  const IoGroup& g = groups[0];
  EXPECT_EQ(g.io, 128);
  EXPECT_EQ(g.nodes, (std::vector<NodeId>{0, 1, 2}));
  EXPECT_EQ(g.file_bytes(), 3u * 18);
  ASSERT_EQ(g.extents[0].size(), 1u);  // ranks 0 and 1 touch: one extent
  EXPECT_EQ(g.extents[0][0].offset, 0u);
  EXPECT_EQ(g.extents[0][0].bytes, 36u);
  EXPECT_EQ(g.extents[1][0].offset, 36u);
  EXPECT_EQ(g.extents[1][0].bytes, 6u);
  EXPECT_EQ(g.extents[2][0].offset, 42u);
  EXPECT_EQ(g.extents[2][0].bytes, 12u);
}

TEST(Aggregation, SoaGivesEachVariableASectionInRankOrder) {
  const Fixture f(kPset);
  const std::vector<int> hacc(std::begin(kHaccVariableBytes), std::end(kHaccVariableBytes));
  EXPECT_EQ(std::accumulate(hacc.begin(), hacc.end(), 0), kHaccParticleBytes);
  const std::vector<Bytes> particles = {10, 20, 30};
  const auto g = make_io_groups(f.net, *f.routing, 1, particles, hacc, FileLayout::Soa)[0];
  EXPECT_EQ(g.file_bytes(), 60u * kHaccParticleBytes);
  // Node 1 holds particles 10..29 of every variable: 9 extents, one per section.
  ASSERT_EQ(g.extents[1].size(), 9u);
  Bytes section = 0;
  for (int v = 0; v < 9; ++v) {
    EXPECT_EQ(g.extents[1][v].offset, section + 10u * hacc[v]) << "variable " << v;
    EXPECT_EQ(g.extents[1][v].bytes, 20u * hacc[v]);
    section += 60u * hacc[v];
  }
}

TEST(Aggregation, DomainsCoverTheFileOnceAndJobsConserveEveryByte) {
  const Fixture f("mira:512+io");
  const auto rank_bytes = sparse_rank_amounts(512, 4, "uniform:0:2MiB", 0.3, 7);
  const auto groups = groups_of(f, rank_bytes, 4);
  ASSERT_EQ(groups.size(), 4u);
  AggregationOptions o;
  std::vector<AggregatorNodes> placements;
  Bytes file = 0;
  for (const IoGroup& g : groups) {
    const Domains d = file_domains(g, o.aggregators);
    EXPECT_LE(d.count(), o.aggregators);
    Bytes sum = 0;
    for (int k = 0; k < d.count(); ++k) {
      EXPECT_LE(d.total[k], d.span);
      EXPECT_EQ(std::accumulate(d.bytes[k].begin(), d.bytes[k].end(), Bytes(0)), d.total[k]);
      sum += d.total[k];
    }
    EXPECT_EQ(sum, g.file_bytes());
    file += sum;
    placements.push_back(place_aggregators("greedy", f.net, *f.routing, g, o));
  }
  EXPECT_EQ(file, std::accumulate(rank_bytes.begin(), rank_bytes.end(), Bytes(0)));
  const AggregationJobs jobs = aggregation_jobs(groups, placements, o);
  Bytes to_io = 0, moved = 0;
  for (const Job& j : jobs.io) to_io += j.bytes;
  EXPECT_EQ(to_io, file);
  for (const Job& j : jobs.aggregation) {
    EXPECT_NE(j.src, j.dst);
    moved += j.bytes;
  }
  // What does not move is exactly what aggregators hold of their own domains.
  Bytes kept = 0;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const Domains d = file_domains(groups[g], o.aggregators);
    for (int k = 0; k < d.count(); ++k)
      for (std::size_t i = 0; i < groups[g].nodes.size(); ++i)
        if (groups[g].nodes[i] == placements[g][k]) kept += d.bytes[k][i];
  }
  EXPECT_EQ(moved + kept, file);
}

TEST(Aggregation, PipeliningOverlapsAllButOneRoundOfTheShorterPhase) {
  EXPECT_DOUBLE_EQ(pipelined_seconds(3, 2, 1), 5);
  EXPECT_DOUBLE_EQ(pipelined_seconds(3, 2, 2), 2.5 + 1.5);
  EXPECT_NEAR(pipelined_seconds(3, 2, 1000000), 3, 1e-5);
  EXPECT_DOUBLE_EQ(pipelined_seconds(0, 2, 4), 2);
  // A terabyte domain through a one-byte buffer: the round count saturates instead of wrapping.
  const Fixture f(kPset);
  const auto groups = groups_of(f, {Bytes(1) << 40});
  AggregationOptions o;
  o.aggregators = 1;
  o.buffer = 1;
  const AggregationJobs jobs = aggregation_jobs(groups, {place_aggregators("greedy", f.net, *f.routing, groups[0], o)}, o);
  EXPECT_EQ(jobs.rounds, 1000000000);
  o.buffer = Bytes(1) << 30;
  EXPECT_EQ(aggregation_jobs(groups, {{0}}, o).rounds, 1024);
}

// The independent oracle for hop-based costs: Network::hop_distance (the torus distance, and to
// an I/O node the nearer bridge plus its I/O link), not the routing's routes.
double hops_to_io(const Network& net, NodeId node, NodeId io) { return net.hop_distance(node, io); }

// Brute force of the sequential rule: for each domain in order, the minimum of `cost` over the
// nodes holding bytes of it that no earlier domain took (then over all free nodes), lowest id
// first on ties.
AggregatorNodes brute_force(const IoGroup& g, const Domains& d, const std::function<double(int, NodeId)>& cost) {
  AggregatorNodes p(d.count(), -1);
  std::set<NodeId> used;
  for (int k = 0; k < d.count(); ++k) {
    if (d.total[k] == 0) continue;
    std::vector<NodeId> pool;
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
      if (d.bytes[k][i] > 0 && !used.count(g.nodes[i])) pool.push_back(g.nodes[i]);
    if (pool.empty())
      for (NodeId n : g.nodes)
        if (!used.count(n)) pool.push_back(n);
    std::vector<std::pair<double, NodeId>> scored;
    for (NodeId n : pool) scored.push_back({cost(k, n), n});
    p[k] = std::min_element(scored.begin(), scored.end())->second;
    used.insert(p[k]);
  }
  return p;
}

TEST(Aggregation, HopAndRankStrategiesMinimiseTheirOwnCost) {
  const Fixture f(kPset);
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const auto rank_bytes = sparse_rank_amounts(40, 1, "uniform:1:1MiB", seed % 2 ? 1.0 : 0.4, seed);
    const IoGroup g = groups_of(f, rank_bytes)[0];
    AggregationOptions o;
    o.aggregators = 5;
    const Domains d = file_domains(g, o.aggregators);
    const auto index_of = [&](NodeId n) { return std::find(g.nodes.begin(), g.nodes.end(), n) - g.nodes.begin(); };
    EXPECT_EQ(place_aggregators("greedy", f.net, *f.routing, g, o),
              brute_force(g, d, [](int, NodeId n) { return double(n); }));
    EXPECT_EQ(place_aggregators("shortest", f.net, *f.routing, g, o),
              brute_force(g, d, [&](int, NodeId n) { return hops_to_io(f.net, n, g.io); }));
    EXPECT_EQ(place_aggregators("longest", f.net, *f.routing, g, o),
              brute_force(g, d, [&](int, NodeId n) { return -hops_to_io(f.net, n, g.io); }));
    // tessier2016's C1 + C2 with hop distances and the one link bandwidth of this network.
    const double bw = f.net.capacity(0);
    const auto c = [&](int k, NodeId a) {
      double c1 = 0;
      for (std::size_t i = 0; i < g.nodes.size(); ++i)
        if (d.bytes[k][i] > 0 && g.nodes[i] != a)
          c1 = std::max(c1, kHopLatency * f.net.hop_distance(g.nodes[i], a) + double(d.bytes[k][i]) / bw);
      return c1 + kHopLatency * hops_to_io(f.net, a, g.io) + double(d.total[k]) / bw;
    };
    const AggregatorNodes topo = place_aggregators("topology-aware", f.net, *f.routing, g, o);
    EXPECT_EQ(topo, brute_force(g, d, c)) << "seed " << seed;
    for (int k = 0; k < d.count(); ++k)
      EXPECT_NEAR(topology_aware_cost(f.net, *f.routing, g, d, k, static_cast<int>(index_of(topo[k])), kHopLatency),
                  c(k, topo[k]), 1e-12);
  }
}

TEST(Aggregation, RomioBgqListsTheBridgesFirstThenEvenlySpacedMembers) {
  const Fixture f(kPset);
  const IoGroup g = groups_of(f, std::vector<Bytes>(128, 1 << 20))[0];
  AggregationOptions o;  // 16 aggregators: 8 per bridge set
  const AggregatorNodes p = place_aggregators("romio-bgq", f.net, *f.routing, g, o);
  ASSERT_EQ(p.size(), 16u);
  EXPECT_EQ(p[0], 0);   // the bridges, ascending
  EXPECT_EQ(p[1], 64);
  EXPECT_EQ(std::set<NodeId>(p.begin(), p.end()).size(), 16u);
  // Every other aggregator belongs to the set of the bridge it is listed after, 7 per set.
  std::vector<int> per_bridge(2, 0);
  for (std::size_t k = 2; k < p.size(); ++k) {
    const LinkPath route = f.routing->route(p[k], g.io);
    per_bridge[f.net.link_src(route.back()) == 0 ? 0 : 1]++;
  }
  EXPECT_EQ(per_bridge, (std::vector<int>{7, 7}));
}

TEST(Aggregation, FlowAwareIsTheBestOfEveryPlacementItCanReach) {
  const Fixture f(kPset);
  for (std::uint64_t seed = 1; seed <= 2; ++seed) {
    // Nine nodes, three domains: every placement onto holders can be listed and timed.
    const auto rank_bytes = sparse_rank_amounts(9, 1, "uniform:256KiB:4MiB", 1.0, seed);
    const IoGroup g = groups_of(f, rank_bytes)[0];
    AggregationOptions o;
    o.aggregators = 3;
    o.buffer = 1 << 20;
    const Domains d = file_domains(g, o.aggregators);
    const auto total = [&](const AggregatorNodes& p) { return aggregation_times("mcf", f.net, *f.routing, g, p, o).total; };
    double best = 1e300;
    for (const std::string& name : placement_names())
      if (name != "flow-aware") best = std::min(best, total(place_aggregators(name, f.net, *f.routing, g, o)));
    // Brute force: every assignment of distinct holders to the domains.
    std::vector<std::vector<NodeId>> holders(d.count());
    for (int k = 0; k < d.count(); ++k)
      for (std::size_t i = 0; i < g.nodes.size(); ++i)
        if (d.bytes[k][i] > 0) holders[k].push_back(g.nodes[i]);
    ASSERT_EQ(d.count(), 3);
    for (NodeId a : holders[0])
      for (NodeId b : holders[1])
        for (NodeId c : holders[2])
          if (a != b && b != c && a != c) best = std::min(best, total({a, b, c}));
    const AggregatorNodes chosen = place_aggregators("flow-aware", f.net, *f.routing, g, o);
    EXPECT_NEAR(total(chosen), best, 1e-12 * best) << "seed " << seed;
    EXPECT_EQ(chosen, place_aggregators("flow-aware", f.net, *f.routing, g, o));  // deterministic
  }
}

TEST(Aggregation, BadInputIsRefusedInOneLine) {
  const Fixture f(kPset);
  const IoGroup g = groups_of(f, std::vector<Bytes>(10, 1000))[0];
  AggregationOptions o;
  o.aggregators = 0;
  EXPECT_THROW(place_aggregators("greedy", f.net, *f.routing, g, o), Error);
  o.aggregators = 11;
  try {
    place_aggregators("greedy", f.net, *f.routing, g, o);
    FAIL() << "more aggregators than nodes accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("at most one aggregator per node"), std::string::npos);
  }
  o.aggregators = 2;
  EXPECT_THROW(place_aggregators("nearest", f.net, *f.routing, g, o), Error);
  EXPECT_THROW(sparse_rank_amounts(10, 1, "1MiB", 0.0, 1), Error);
  EXPECT_THROW(sparse_rank_amounts(10, 1, "1MiB", 1.5, 1), Error);
  EXPECT_THROW(groups_of(f, std::vector<Bytes>(129, 1)), Error);  // more ranks than nodes
}

}  // namespace
