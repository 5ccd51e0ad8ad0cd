// Legs: which networks plan on the link graph, the next-link tables of the others, and the
// decomposition of a path into default routes that the validator and the runtime share.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "optiq/core/cheapest.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/legs.hpp"
#include "optiq/core/network_routing.hpp"
#include "optiq/core/paths.hpp"
#include "optiq/core/plan.hpp"
#include "optiq/core/planner.hpp"
#include "optiq/core/rng.hpp"
#include "optiq/core/routing.hpp"
#include "paths/fat_tree_chains.hpp"

namespace {

using namespace optiq;

// Endpoints 0..e-1 each on switch i % s; switches in a ring plus `extra` random cables.
Network switched(int s, int e, int extra, std::uint64_t seed) {
  Rng rng(seed);
  Network::Builder b;
  for (int i = 0; i < e; ++i) b.add_vertex(VertexKind::Endpoint);
  for (int i = 0; i < s; ++i) b.add_vertex(VertexKind::Switch);
  auto cable = [&](NodeId x, NodeId y) {
    const double c = 1e9 * (1 + rng.below(4));
    b.add_link(x, y, c);
    b.add_link(y, x, c);
  };
  for (int i = 0; i < s; ++i) cable(e + i, e + (i + 1) % s);
  for (int k = 0; k < extra; ++k) {
    const int x = static_cast<int>(rng.below(s)), y = static_cast<int>(rng.below(s));
    if (x != y) cable(e + x, e + y);
  }
  for (int i = 0; i < e; ++i) cable(i, e + i % s);
  return std::move(b).build("test", "shortest");
}

// A routing that only knows route(): the generic next_links of the base class.
class RouteOnly final : public RoutingModel {
 public:
  explicit RouteOnly(const RoutingModel& inner) : inner_(inner) {}
  std::string name() const override { return "route-only"; }
  const Network& network() const override { return inner_.network(); }
  LinkPath route(NodeId s, NodeId d) const override { return inner_.route(s, d); }

 private:
  const RoutingModel& inner_;
};

TEST(Legs, TheNextLinkTablesOfShortestMatchItsRoutes) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const Network net = switched(5, 9, 4, seed);
    const auto shortest = make_shortest_routing(net);
    const RouteOnly generic(*shortest);
    for (NodeId t : net.endpoints()) ASSERT_EQ(shortest->next_links(t), generic.next_links(t)) << seed << " " << t;
  }
}

TEST(Legs, ARoutingThatDependsOnTheSourceIsRefused) {
  const Network net = switched(4, 6, 2, 3);
  // Endpoint 0's route to endpoint 1 detours through endpoint 4, which hangs off the same
  // switch: at that switch the routes to 1 leave by two different links.
  class Detour final : public RoutingModel {
   public:
    Detour(const Network& n) : net_(n), shortest_(make_shortest_routing(n)) {}
    std::string name() const override { return "detour"; }
    const Network& network() const override { return net_; }
    LinkPath route(NodeId s, NodeId d) const override {
      LinkPath p = shortest_->route(s, d);
      if (s == 0 && d == 1) {  // 0 -> switch -> 4 -> switch -> ... -> 1
        LinkPath q = shortest_->route(0, 4);
        const LinkPath r = shortest_->route(4, 1);
        q.insert(q.end(), r.begin(), r.end());
        return q;
      }
      return p;
    }
    const Network& net_;
    std::unique_ptr<RoutingModel> shortest_;
  };
  const Detour detour(net);
  try {
    Legs legs(net, detour);
    FAIL() << "a source-dependent routing was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("is not destination-based"), std::string::npos) << e.what();
  }
}

TEST(Legs, WhichNetworksPlanOnTheLinkGraph) {
  const Network torus = parse_network("bgq:2x2x2x2x2");
  EXPECT_TRUE(Legs(torus, *make_routing("bgq", torus)).direct());
  EXPECT_TRUE(Legs(torus, *make_routing("shortest", torus)).direct());
  const Network net = switched(3, 5, 1, 1);
  EXPECT_FALSE(Legs(net, *make_routing("shortest", net)).direct());
}

TEST(Legs, AChainOfRoutesSplitsBackAtItsJunctions) {
  Rng rng(11);
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const Network net = switched(6, 10, 5, seed);
    const auto routing = make_shortest_routing(net);
    const Legs legs(net, *routing);
    for (int trial = 0; trial < 40; ++trial) {
      // src, up to three distinct proxies, dst.
      std::vector<NodeId> stops;
      while (stops.size() < 2 + rng.below(4)) {
        const NodeId v = static_cast<NodeId>(rng.below(10));
        if (std::find(stops.begin(), stops.end(), v) == stops.end()) stops.push_back(v);
      }
      LinkPath path;
      std::vector<std::size_t> expected;
      for (std::size_t i = 0; i + 1 < stops.size(); ++i) {
        if (i > 0) expected.push_back(path.size());
        legs.append_leg(stops[i], stops[i + 1], path);
      }
      std::vector<std::size_t> got;
      ASSERT_TRUE(leg_junctions(legs, stops.front(), path, [](NodeId) { return true; }, got));
      // Endpoints are leaves: no route passes one, so the junctions are exactly the proxies.
      EXPECT_EQ(got, expected) << seed << " " << trial;
      // Without a rank at the first proxy the chain stops short of it.
      std::vector<std::size_t> part;
      std::size_t stuck = 99;
      if (!expected.empty()) {
        const NodeId first = stops[1];
        EXPECT_FALSE(leg_junctions(legs, stops.front(), path, [&](NodeId v) { return v != first; }, part, &stuck));
        EXPECT_EQ(stuck, 0u);
      }
    }
  }
}

TEST(Legs, NetworksTooLargeForTheTablesAreRefusedUpFront) {
  Network::Builder b;
  const int e = 6000, s = 6000;
  for (int i = 0; i < e; ++i) b.add_vertex(VertexKind::Endpoint);
  for (int i = 0; i < s; ++i) b.add_vertex(VertexKind::Switch);
  for (int i = 0; i < e; ++i) b.add_link(i, e + i, 1e9), b.add_link(e + i, i, 1e9);
  for (int i = 0; i < s; ++i) b.add_link(e + i, e + (i + 1) % s, 1e9);
  const Network net = std::move(b).build("big", "shortest");
  const auto routing = make_shortest_routing(net);
  try {
    Legs legs(net, *routing);
    FAIL() << "no limit";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("6000 endpoints x 12000 vertices exceeds"), std::string::npos) << e.what();
  }
}

// The same routing without its formula: Legs keeps tables built from its next_links.
class TablesOnly final : public RoutingModel {
 public:
  explicit TablesOnly(const RoutingModel& inner) : inner_(inner) {}
  std::string name() const override { return inner_.name(); }
  const Network& network() const override { return inner_.network(); }
  LinkPath route(NodeId s, NodeId d) const override { return inner_.route(s, d); }
  std::vector<LinkId> next_links(NodeId dst) const override { return inner_.next_links(dst); }

 private:
  const RoutingModel& inner_;
};

TEST(Legs, FatTreesAndDragonfliesAskTheRoutingsFormulaAndKeepNoTables) {
  const std::pair<const char*, const char*> cases[] = {
      {"fattree:2;4,4;1,2;1,1", "dmodk"},       {"fattree:2;4,4;1,2;1,2", "dmodk"},
      {"fattree:3;2,2,3;1,2,2;1,2,1", "dmodk"}, {"fattree:2;4,4;1,2;1,1", "simgrid"},
      {"dragonfly:3,1;2,1;3,1;2", "minimal"},   {"dragonfly:2,2;3,1;4,2;1", "minimal"},
      {"dragonfly:4,1;1,1;4,1;3", "simgrid"},
  };
  for (const auto& [spec, name] : cases) {
    const Network net = parse_network(spec);
    const auto routing = make_routing(name, net);
    ASSERT_TRUE(routing->next_link_is_formula()) << spec << " " << name;
    const TablesOnly tables(*routing);
    const Legs formula(net, *routing), table(net, tables);
    ASSERT_TRUE(formula.formula()) << spec;
    ASSERT_FALSE(table.formula()) << spec;
    ASSERT_EQ(formula.terminals(), table.terminals()) << spec;
    for (int t = 0; t < static_cast<int>(table.terminals().size()); ++t)
      for (NodeId v = 0; v < net.num_vertices(); ++v) {
        ASSERT_EQ(formula.next(t, v), table.next(t, v)) << spec << " " << name << " to " << t << " at " << v;
        ASSERT_EQ(formula.hops(t, v), table.hops(t, v)) << spec << " " << name << " to " << t << " at " << v;
      }
  }
  // SimGrid's own routes where they depend on the source, or are not paths, have no formula.
  EXPECT_FALSE(make_routing("simgrid", parse_network("fattree:2;4,4;1,2;1,2"))->next_link_is_formula());
  EXPECT_FALSE(make_routing("simgrid", parse_network("dragonfly:3,1;2,1;3,1;2"))->next_link_is_formula());
  EXPECT_FALSE(make_routing("shortest", switched(3, 5, 1, 1))->next_link_is_formula());
}

// Costed all at once from or to one host, a route costs what its links weigh one by one.
TEST(Legs, RouteCostsFromAndToOneHostAreTheRoutesWeights) {
  const std::pair<const char*, const char*> cases[] = {
      {"fattree:2;4,4;1,2;1,1", "dmodk"},        {"fattree:2;4,4;1,2;1,2", "dmodk"},
      {"fattree:3;2,2,3;1,2,2;1,2,1", "dmodk"},  {"fattree:3;3,2,2;2,3,2;1,2,2", "dmodk"},
      {"fattree:2;2,2;1,2;2,2", "dmodk"},        {"fattree:3;4,4,4;1,4,4;1,1,1", "simgrid"},
      {"fattree:1;5;1;1", "dmodk"},              {"fattree:4;2,3,2,2;1,2,3,2;1,1,1,1", "dmodk"},
      {"dragonfly:3,1;2,1;3,1;2", "minimal"},    {"dragonfly:2,2;3,1;4,2;1", "minimal"},
      {"dragonfly:4,1;1,1;4,1;3", "simgrid"},
  };
  Rng rng(5);
  for (const auto& [spec, name] : cases) {
    const Network net = parse_network(spec);
    const auto routing = make_routing(name, net);
    std::vector<double> lw(net.num_links());
    for (double& w : lw) w = static_cast<double>(rng.below(1000)) / 64;  // sums exact in any order
    const auto costs = routing->route_costs(lw);
    ASSERT_NE(costs, nullptr) << spec;
    const auto& hosts = net.endpoints();
    std::vector<double> from_cost, to_cost;
    std::vector<int> from_hops, to_hops;
    for (std::size_t a = 0; a < hosts.size(); ++a) {
      costs->from(hosts[a], from_cost, from_hops);
      costs->to(hosts[a], to_cost, to_hops);
      for (std::size_t b = 0; b < hosts.size(); ++b) {
        const auto weigh = [&](const LinkPath& p) {
          double c = 0;
          for (LinkId l : p) c += lw[l];
          return c;
        };
        const LinkPath out = routing->route(hosts[a], hosts[b]), in = routing->route(hosts[b], hosts[a]);
        ASSERT_EQ(from_cost[b], weigh(out)) << spec << " " << a << "->" << b;
        ASSERT_EQ(from_hops[b], static_cast<int>(out.size())) << spec << " " << a << "->" << b;
        ASSERT_EQ(to_cost[b], weigh(in)) << spec << " " << b << "->" << a;
        ASSERT_EQ(to_hops[b], static_cast<int>(in.size())) << spec << " " << b << "->" << a;
      }
    }
  }
  // Where routes cannot be told by formula, nor can their costs.
  const Network parallel = parse_network("fattree:2;4,4;1,2;1,2");
  EXPECT_EQ(make_routing("simgrid", parallel)->route_costs(std::vector<double>(parallel.num_links(), 1.0)), nullptr);
  const Network net = switched(3, 5, 1, 1);
  EXPECT_EQ(make_routing("shortest", net)->route_costs(std::vector<double>(net.num_links(), 1.0)), nullptr);
}

// 9,216 endpoints with 1,536 routers: tables would take 99 million entries.
TEST(Legs, ATenThousandEndpointDragonflyPlansWithoutTables) {
  const Network net = parse_network("dragonfly:16,1;6,1;16,1;6");
  const auto minimal = make_routing("minimal", net);
  const Legs legs(net, *minimal);
  EXPECT_TRUE(legs.formula());
  EXPECT_EQ(legs.terminals().size(), 9216u);
  EXPECT_EQ(legs.hops(legs.terminal_index(9215), 0), 6);  // local, green, blue, green, black, local
  LinkPath leg;
  legs.append_leg(0, 9215, leg);
  EXPECT_EQ(leg, minimal->route(0, 9215));
  // SimGrid's routes, not paths there, are refused for what they are, not for their size.
  const auto simgrid = make_routing("simgrid", net);
  try {
    Legs refused(net, *simgrid);
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--routing minimal"), std::string::npos) << e.what();
  }
}

TEST(Legs, TheValidatorRefusesAWalkNoChainOfRoutesMakes) {
  const Network net = switched(5, 5, 0, 2);  // a ring of five switches, one endpoint each
  const auto routing = make_shortest_routing(net);
  // Endpoint 0 to endpoint 1 the long way round the ring: switch 0 -> 4 -> 3 -> 2 -> 1. No
  // endpoint on the way forwards, and the route from 0 to 1 is the short way.
  const NodeId sw = 5;
  auto link = [&](NodeId a, NodeId b) {
    for (LinkId l = 0; l < net.num_links(); ++l)
      if (net.link_src(l) == a && net.link_dst(l) == b) return l;
    return LinkId{-1};
  };
  const LinkPath longway{link(0, sw),          link(sw, sw + 4),     link(sw + 4, sw + 3),
                         link(sw + 3, sw + 2), link(sw + 2, sw + 1), link(sw + 1, 1)};
  Plan plan{net.spec(), "shortest", "x", {{{0, 1, 10}, {{longway, 10}}}}};
  try {
    validate_plan(plan, net);
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no chain of 'shortest' routes realizes it"), std::string::npos) << e.what();
  }
  // Forwarded at endpoint 3 (on switch 3) the same way round is two routes: 0 to 3 is
  // shorter by switch 4, and 3 to 1 by switch 2.
  const LinkPath via3{link(0, sw),     link(sw, sw + 4),     link(sw + 4, sw + 3), link(sw + 3, 3),
                      link(3, sw + 3), link(sw + 3, sw + 2), link(sw + 2, sw + 1), link(sw + 1, 1)};
  plan.jobs[0].paths[0].links = via3;
  EXPECT_NO_THROW(validate_plan(plan, net));
  std::vector<std::size_t> junctions;
  ASSERT_TRUE(leg_junctions(Legs(net, *routing), 0, via3, [](NodeId) { return true; }, junctions));
  EXPECT_EQ(junctions, std::vector<std::size_t>{4});
}

}  // namespace

namespace {

// heu2 weighs a link's load by its capacity: of two otherwise equal routes, one four times as
// fast gets four fifths of the bytes.
TEST(Heu2, LoadsCountInTimeWhereCapacitiesDiffer) {
  Network::Builder b;
  for (int i = 0; i < 4; ++i) b.add_vertex(VertexKind::Endpoint);  // 0 -> {1 | 2} -> 3
  b.add_link(0, 1, 1e9);
  b.add_link(1, 3, 1e9);
  b.add_link(0, 2, 4e9);
  b.add_link(2, 3, 4e9);
  const Network net = std::move(b).build("diamond", "shortest");
  const auto routing = make_routing("shortest", net);
  const std::vector<Job> jobs{{0, 3, 100 << 20}};
  const Plan plan = plan_heu2(net, *routing, jobs, generate_candidates(net, *routing, jobs, 2), 1 << 20);
  ASSERT_EQ(plan.jobs[0].paths.size(), 2u);
  for (const PathShare& share : plan.jobs[0].paths) {
    const double expected = net.capacity(share.links[0]) == 4e9 ? 0.8 : 0.2;
    EXPECT_NEAR(static_cast<double>(share.bytes) / (100 << 20), expected, 0.011);
  }
}

}  // namespace

namespace {

// The cheapest chain of default routes by brute force: Bellman-Ford over every pair of hosts,
// each leg costed from routing.route() and charging a relay's node weight; (cost, hops) in
// lexicographic order. Multiples of 1/64 keep every sum exact in any order.
struct Brute {
  double cost;
  int hops;
};
Brute brute_chain(const Network& net, const RoutingModel& routing, const std::vector<double>& lw,
                  const std::vector<double>& nw, NodeId src, NodeId dst) {
  const auto& hosts = net.endpoints();
  const std::size_t n = hosts.size();
  std::vector<std::vector<Brute>> leg(n, std::vector<Brute>(n, {0, 0}));
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = 0; b < n; ++b) {
      if (a == b) continue;
      double c = 0;
      const LinkPath p = routing.route(hosts[a], hosts[b]);
      for (LinkId l : p) c += lw[l];
      leg[a][b] = {c, static_cast<int>(p.size())};
    }
  const auto less = [](const Brute& x, const Brute& y) { return x.cost != y.cost ? x.cost < y.cost : x.hops < y.hops; };
  std::vector<Brute> best(n, {INFINITY, 0});
  best[src] = {0, 0};
  for (bool more = true; more;) {
    more = false;
    for (std::size_t a = 0; a < n; ++a) {
      if (std::isinf(best[a].cost) || static_cast<NodeId>(a) == dst) continue;
      if (static_cast<NodeId>(a) != src && !net.may_forward(hosts[a])) continue;
      const double relay = static_cast<NodeId>(a) == src || nw.empty() ? 0.0 : nw[hosts[a]];
      for (std::size_t b = 0; b < n; ++b) {
        if (a == b || static_cast<NodeId>(b) == src) continue;
        const Brute via{best[a].cost + relay + leg[a][b].cost, best[a].hops + leg[a][b].hops};
        if (less(via, best[b])) best[b] = via, more = true;
      }
    }
  }
  return best[dst];
}

}  // namespace

// Exact chain pricing on fat-trees (src/paths/fat_tree_chains.cpp, and the overlay's search
// where it does not apply) against brute force over every pair of hosts: the same cost and hop
// count for every job, a path that is a chain of routes costing what is reported, and chains
// through two proxies or more among the answers (the case the fat-tree search exists for).
// Trial 0: mostly free links with a few dear ones (as an LP's prices); 1: weights everywhere;
// 2: the same with node weights. Multiples of 1/64, so that every sum is exact.
void trial_weights(const Network& net, int trial, Rng& rng, std::vector<double>& lw, std::vector<double>& nw) {
  lw.assign(net.num_links(), 0.0);
  for (double& w : lw) w = trial == 1 || rng.below(4) == 0 ? static_cast<double>(rng.below(640)) / 64 : 0.0;
  nw.clear();
  if (trial == 2) {
    nw.assign(net.num_vertices(), 0.0);
    for (double& w : nw) w = static_cast<double>(rng.below(64)) / 64;
  }
}

TEST(Legs, ExactChainPricingOnFatTreesMatchesBruteForce) {
  const std::pair<const char*, const char*> cases[] = {
      {"fattree:3;4,4,4;1,4,4;1,1,1", "dmodk"},  {"fattree:3;4,4,4;1,4,2;1,1,1", "dmodk"},
      {"fattree:2;8,4;1,4;1,1", "simgrid"},      {"fattree:3;4,4,4;1,4,4;1,1,1", "simgrid"},
      {"fattree:3;2,2,3;1,2,2;1,2,1", "dmodk"},  {"fattree:3;1,4,4;1,1,4;1,1,1", "dmodk"},
  };
  Rng rng(11);
  int multi_proxy = 0;
  for (const auto& [spec, name] : cases) {
    const Network net = parse_network(spec);
    const auto routing = make_routing(name, net);
    const Legs legs(net, *routing);
    const int hosts = static_cast<int>(net.endpoints().size());
    std::vector<Job> jobs;
    for (int i = 0; i < hosts; ++i) jobs.push_back({i, static_cast<NodeId>((i * 7 + 3) % hosts), 1});
    for (int trial = 0; trial < 3; ++trial) {
      std::vector<double> lw, nw;
      trial_weights(net, trial, rng, lw, nw);
      const CheapestPaths got = cheapest_paths(legs, jobs, lw, nw);
      for (std::size_t j = 0; j < jobs.size(); ++j) {
        if (jobs[j].src == jobs[j].dst) continue;
        const Brute want = brute_chain(net, *routing, lw, nw, jobs[j].src, jobs[j].dst);
        ASSERT_EQ(got.cost[j], want.cost) << spec << " " << name << " trial " << trial << " job " << j;
        ASSERT_EQ(static_cast<int>(got.paths[j].size()), want.hops) << spec << " " << name << " job " << j;
        std::vector<std::size_t> junctions;
        ASSERT_TRUE(leg_junctions(legs, jobs[j].src, got.paths[j], [&](NodeId v) { return net.may_forward(v); },
                                  junctions))
            << spec << " job " << j;
        double c = 0;
        for (LinkId l : got.paths[j]) c += lw[l];
        const auto nodes = path_nodes(net, jobs[j].src, got.paths[j]);
        for (std::size_t i : junctions) c += nw.empty() ? 0.0 : nw[nodes[i]];
        ASSERT_EQ(c, got.cost[j]) << spec << " job " << j;
        multi_proxy += junctions.size() >= 2;
      }
    }
  }
  EXPECT_GT(multi_proxy, 0);
}

// The bound's pricing runs one search per first-level switch for all the sources below it
// (and per host where hosts have several parents): each pair's cost must be its own chain's.
TEST(Legs, ChainCostsSearchedPerSwitchMatchBruteForce) {
  const char* specs[] = {"fattree:3;4,4,4;1,4,4;1,1,1", "fattree:3;4,4,4;1,4,2;1,1,1", "fattree:2;4,4;2,4;1,1",
                         "fattree:3;1,4,4;1,1,4;1,1,1"};
  Rng rng(12);
  int checked = 0, cheaper_than_route = 0;
  for (const char* spec : specs) {
    const Network net = parse_network(spec);
    const auto routing = make_routing("dmodk", net);
    const Legs legs(net, *routing);
    const int hosts = static_cast<int>(net.endpoints().size());
    std::vector<std::pair<NodeId, NodeId>> pairs;
    for (int i = 0; i < hosts; ++i)
      for (int d : {1, 5, hosts / 2 + 1})
        if (d % hosts != 0) pairs.emplace_back(i, static_cast<NodeId>((i + d) % hosts));
    for (int trial = 0; trial < 3; ++trial) {
      std::vector<double> lw, nw;
      trial_weights(net, trial, rng, lw, nw);
      const auto tree = detail::FatTreeChains::make(legs, lw, nw);
      ASSERT_NE(tree, nullptr) << spec;
      const std::vector<double> got = tree->cheapest_costs(pairs);
      ASSERT_EQ(got.size(), pairs.size());
      for (std::size_t i = 0; i < pairs.size(); ++i) {
        const auto [src, dst] = pairs[i];
        const Brute want = brute_chain(net, *routing, lw, nw, src, dst);
        ASSERT_EQ(got[i], want.cost) << spec << " trial " << trial << " " << src << " -> " << dst;
        double route = 0;
        for (LinkId l : routing->route(src, dst)) route += lw[l];
        cheaper_than_route += want.cost < route;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 300);
  EXPECT_GT(cheaper_than_route, 50);  // relays matter in these cases, not only direct routes
}

// Where hosts have one parent, a route from host p to x costs p's up-link and then the route
// from its parent, which route_costs_to gives per first-level switch. Weights in 1/64: every
// sum is exact, in any order.
TEST(Legs, RouteCostsToEachSwitchAreTheRoutesWeights) {
  const std::pair<const char*, const char*> cases[] = {
      {"fattree:3;4,4,4;1,4,4;1,1,1", "dmodk"}, {"fattree:3;4,4,4;1,4,2;1,1,1", "dmodk"},
      {"fattree:2;8,4;1,4;1,1", "simgrid"},     {"fattree:3;1,4,4;1,1,4;1,1,1", "dmodk"},
      {"fattree:1;5;1;1", "dmodk"},             {"fattree:4;2,3,2,2;1,2,3,2;1,1,1,1", "dmodk"},
  };
  Rng rng(13);
  int checked = 0;
  for (const auto& [spec, name] : cases) {
    const Network net = parse_network(spec);
    const auto routing = make_routing(name, net);
    const Legs legs(net, *routing);
    std::vector<double> lw(net.num_links()), no_node_weights;
    for (double& w : lw) w = static_cast<double>(rng.below(640)) / 64;
    const auto tree = detail::FatTreeChains::make(legs, lw, no_node_weights);
    ASSERT_NE(tree, nullptr) << spec;
    ASSERT_TRUE(tree->one_parent()) << spec;
    const int hosts = static_cast<int>(net.endpoints().size());
    std::vector<double> by_switch;
    for (NodeId x = 0; x < hosts; ++x) {
      tree->route_costs_to(x, by_switch);
      ASSERT_EQ(static_cast<int>(by_switch.size()), tree->num_switches_above_hosts()) << spec;
      for (NodeId p = 0; p < hosts; ++p) {
        if (p == x) continue;
        double up = 0;
        const NodeId parent = tree->entry(p, up);
        double route = 0;
        for (LinkId l : routing->route(p, x)) route += lw[l];
        ASSERT_EQ(up + by_switch[parent - tree->first_switch()], route) << spec << " " << p << " -> " << x;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 9000);
}
