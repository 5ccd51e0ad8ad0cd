// The maxflow planner: valid plans, the single-sink optimum against enumerated cuts, I/O sinks,
// refusal on switched networks, determinism.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "optiq/core/bounds.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/mcf.hpp"
#include "optiq/core/metrics.hpp"
#include "optiq/core/paths.hpp"
#include "optiq/core/plan_io.hpp"
#include "optiq/core/planner.hpp"
#include "optiq/core/rng.hpp"
#include "planner/sink_flow.hpp"

using namespace optiq;

namespace {

PlannerOptions min_bytes(Bytes min_path_bytes, int max_paths = 0) {
  PlannerOptions o;
  o.min_path_bytes = min_path_bytes;
  o.max_paths = max_paths;
  return o;
}

double seconds_of(const Plan& plan, const Network& net) { return compute_metrics(plan, net).predicted_seconds; }

// The fluid optimum of sources sending into one sink over any paths: by max-flow min-cut, the
// largest ratio over vertex sets S without the sink of the bytes starting in S to the capacity
// leaving S. Enumerated, so only for small networks.
double single_sink_optimum(const Network& net, const std::vector<Job>& jobs, NodeId sink) {
  const int n = net.num_vertices();
  double best = 0;
  for (unsigned set = 1; set < (1u << n); ++set) {
    if (set >> sink & 1) continue;
    double bytes = 0, capacity = 0;
    for (const Job& j : jobs)
      if (set >> j.src & 1) bytes += static_cast<double>(j.bytes);
    for (LinkId l = 0; l < net.num_links(); ++l)
      if ((set >> net.link_src(l) & 1) && !(set >> net.link_dst(l) & 1)) capacity += net.capacity(l);
    if (bytes > 0) best = std::max(best, bytes / capacity);
  }
  return best;
}

// Every byte on exactly one path; paths simple, from the source to the destination, forwarding
// at endpoints only; the plan valid.
void expect_sound(const Plan& plan, const Network& net, const std::vector<Job>& jobs) {
  ASSERT_NO_THROW(validate_plan(plan, net));
  ASSERT_EQ(plan.jobs.size(), jobs.size());
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const JobPlan& jp = plan.jobs[j];
    EXPECT_EQ(jp.job.src, jobs[j].src);
    EXPECT_EQ(jp.job.dst, jobs[j].dst);
    Bytes sum = 0;
    for (const PathShare& share : jp.paths) {
      EXPECT_GT(share.bytes, 0u);
      sum += share.bytes;
      const auto nodes = path_nodes(net, jp.job.src, share.links);
      EXPECT_EQ(nodes.back(), jp.job.dst);
      EXPECT_EQ(std::set<NodeId>(nodes.begin(), nodes.end()).size(), nodes.size()) << "a path repeats a vertex";
      for (std::size_t i = 1; i + 1 < nodes.size(); ++i)
        EXPECT_EQ(net.kind(nodes[i]), VertexKind::Endpoint) << "forwards at " << net.vertex_name(nodes[i]);
    }
    EXPECT_EQ(sum, jobs[j].bytes) << "job " << j;
    EXPECT_EQ(jp.paths.empty(), jobs[j].bytes == 0) << "job " << j;
  }
}

TEST(Maxflow, OneSinkReachesTheOptimumOfEnumeratedCuts) {
  Rng rng(14);
  for (const char* spec : {"torus:3x3", "mesh:2x4", "torus:2x2x2", "bgq:1x1x2x2x2", "torus:9", "mesh:3x3"}) {
    const Network uniform = parse_network(spec);
    const auto routing = make_routing(uniform.default_routing(), uniform);
    for (int trial = 0; trial < 12; ++trial) {
      // Capacities from 0.5 to 2 GB/s, so the bottleneck is not always the sink's own links.
      std::vector<double> capacity(uniform.num_links());
      for (double& c : capacity) c = 5e8 + 1.5e9 * rng.unit();
      const Network net = uniform.with_capacities(capacity);
      const NodeId sink = static_cast<NodeId>(rng.below(net.num_vertices()));
      std::vector<Job> jobs;
      for (int i = 1 + static_cast<int>(rng.below(12)); i > 0; --i)
        jobs.push_back({static_cast<NodeId>(rng.below(net.num_vertices())), sink, 1 + rng.below(8 << 20)});
      const Plan plan = plan_maxflow(net, *routing, jobs, min_bytes(1));
      expect_sound(plan, net, jobs);
      const double optimum = single_sink_optimum(net, jobs, sink);
      const double got = seconds_of(plan, net);
      EXPECT_GE(got, optimum * (1 - 1e-9)) << spec << " trial " << trial;
      EXPECT_LE(got, optimum * (1 + 1e-5)) << spec << " trial " << trial;  // whole bytes cost a few
      EXPECT_DOUBLE_EQ(plan.seconds, got);
    }
  }
}

// The step repeated per destination, on links already loaded: its T is the largest over vertex
// sets S holding sources but not the sink of the smallest T at which the links leaving S take
// the bytes starting in S (link l taking capacity_l * T - load_l once positive), found here
// by bisection on every enumerated set.
TEST(Maxflow, EachSinkFinishesSoonestOverTheLoadsBeforeIt) {
  Rng rng(2015);
  for (const char* spec : {"torus:3x3", "mesh:2x4", "torus:2x2x2", "torus:9"}) {
    const Network net = parse_network(spec, 1e9);
    for (int trial = 0; trial < 15; ++trial) {
      std::vector<double> load(net.num_links());
      for (double& l : load) l = rng.below(3) == 0 ? 0.0 : 4e6 * rng.unit();
      const NodeId sink = static_cast<NodeId>(rng.below(net.num_vertices()));
      std::vector<detail::SourceDemand> sources;
      for (NodeId v = 0; v < net.num_vertices(); ++v)
        if (v != sink && rng.below(2)) sources.push_back({v, 1e5 + 4e6 * rng.unit()});
      if (sources.empty()) continue;
      double oracle = 0;
      for (unsigned set = 1; set < (1u << net.num_vertices()); ++set) {
        if (set >> sink & 1) continue;
        double bytes = 0;
        for (const auto& s : sources)
          if (set >> s.node & 1) bytes += s.bytes;
        if (bytes == 0) continue;
        auto fits = [&](double t) {
          double room = 0;
          for (LinkId l = 0; l < net.num_links(); ++l)
            if ((set >> net.link_src(l) & 1) && !(set >> net.link_dst(l) & 1))
              room += std::max(0.0, net.capacity(l) * t - load[l]);
          return room >= bytes;
        };
        double lo = 0, hi = 1;
        while (!fits(hi)) hi *= 2;
        for (int i = 0; i < 200; ++i) (fits((lo + hi) / 2) ? hi : lo) = (lo + hi) / 2;
        oracle = std::max(oracle, hi);
      }
      const detail::SinkFlow flow = detail::soonest_sink_flow(net, sink, sources, load);
      EXPECT_NEAR(flow.seconds, oracle, oracle * 1e-9) << spec << " trial " << trial;
      std::vector<double> after = load;
      for (std::size_t i = 0; i < sources.size(); ++i) {
        double carried = 0;
        for (const auto& p : flow.paths[i]) {
          carried += p.bytes;
          EXPECT_EQ(path_nodes(net, sources[i].node, p.links).back(), sink);
          for (LinkId l : p.links) after[l] += p.bytes;
        }
        EXPECT_NEAR(carried, sources[i].bytes, sources[i].bytes * 1e-6);
      }
      for (LinkId l = 0; l < net.num_links(); ++l)
        if (after[l] > load[l]) EXPECT_LE(after[l], net.capacity(l) * flow.seconds * (1 + 1e-9));
    }
  }
}

TEST(Maxflow, ManySourcesToOneSinkBeatTheDefaultRouteNearTheBound) {
  const Network net = parse_network("torus:4x4x4");
  const auto routing = make_routing("dor", net);
  Rng rng(9);
  for (int trial = 0; trial < 5; ++trial) {
    const NodeId sink = static_cast<NodeId>(rng.below(64));
    std::vector<Job> jobs;
    for (NodeId s = 0; s < 64; ++s)
      if (s != sink && rng.below(2)) jobs.push_back({s, sink, (1 + rng.below(8)) << 20});
    const Plan plan = make_plan("maxflow", net, *routing, jobs, PlannerOptions{}).plan;
    expect_sound(plan, net, jobs);
    const double got = seconds_of(plan, net);
    EXPECT_LE(got, seconds_of(plan_default(net, *routing, jobs), net));
    // One sink: the flow is the fluid optimum; only merging paths below 64 KiB may cost, and
    // never more than 1% here. mcf's certified bound is below the optimum.
    PlannerOptions o;
    o.epsilon = 0.01;
    const double bound = plan_mcf(net, *routing, jobs, o).bound_seconds;
    EXPECT_GE(got, bound * (1 - 1e-9));
    EXPECT_LE(got, bound * 1.02) << "trial " << trial;
    EXPECT_GE(got, cut_lower_bound(net, jobs) * (1 - 1e-9));
  }
}

TEST(Maxflow, RandomPatternsGiveSoundPlansNoSlowerThanTheDefaultRoute) {
  Rng rng(2014);
  for (const char* spec : {"torus:4x4", "mesh:3x5", "bgq:2x2x2x2x2", "torus:4x4x2m", "torus:6"}) {
    const Network net = parse_network(spec);
    const auto routing = make_routing(net.default_routing(), net);
    for (int trial = 0; trial < 20; ++trial) {
      const int sinks = 1 + static_cast<int>(rng.below(4));
      std::vector<Job> jobs;
      for (int i = 1 + static_cast<int>(rng.below(40)); i > 0; --i)
        jobs.push_back({static_cast<NodeId>(rng.below(net.num_vertices())),
                        static_cast<NodeId>(rng.below(sinks) * 5 % net.num_vertices()),
                        rng.below(5) == 0 ? 0 : 1 + rng.below(4 << 20)});
      const Bytes min_path = 1 + rng.below(256 << 10);
      const int max_paths = static_cast<int>(rng.below(4));
      const Plan plan = plan_maxflow(net, *routing, jobs, min_bytes(min_path, max_paths));
      expect_sound(plan, net, jobs);
      for (const JobPlan& jp : plan.jobs) {
        if (max_paths > 0) EXPECT_LE(jp.paths.size(), static_cast<std::size_t>(max_paths));
        if (jp.paths.size() > 1)
          for (const PathShare& share : jp.paths) EXPECT_GE(share.bytes, min_path);
      }
      EXPECT_LE(seconds_of(plan, net), seconds_of(plan_default(net, *routing, jobs), net) * (1 + 1e-12));
    }
  }
}

TEST(Maxflow, IoNodesAreSinksButNeverForward) {
  // 128 compute nodes and their I/O node 128: its two bridge links are the only way in.
  const Network net = parse_network("bgq:2x2x4x4x2+io");
  const auto routing = make_routing("bgq", net);
  std::vector<Job> jobs;
  for (NodeId c = 3; c < 128; c += 5) jobs.push_back({c, 128, 4 << 20});
  const Plan plan = make_plan("maxflow", net, *routing, jobs, PlannerOptions{}).plan;
  expect_sound(plan, net, jobs);
  double total = 0;
  for (const Job& j : jobs) total += static_cast<double>(j.bytes);
  const double bridges = total / (2 * kBgqLinkBandwidth);  // the cut around the I/O node
  EXPECT_LE(seconds_of(plan, net), bridges * (1 + 1e-3));
  EXPECT_LT(seconds_of(plan, net), seconds_of(plan_default(net, *routing, jobs), net));

  // Two psets: jobs into both I/O nodes, out of one and between them; no path passes one.
  const Network two = parse_network("bgq:4x4x2x2x4+io");
  const auto two_routing = make_routing("bgq", two);
  std::vector<Job> mixed;
  for (NodeId c = 0; c < 256; c += 3) mixed.push_back({c, 256 + (c % 2), 1 << 20});
  mixed.push_back({256, 257, 4 << 20});
  mixed.push_back({257, 9, 3 << 20});
  const Plan p = make_plan("maxflow", two, *two_routing, mixed, PlannerOptions{}).plan;
  expect_sound(p, two, mixed);
  EXPECT_LE(seconds_of(p, two), seconds_of(plan_default(two, *two_routing, mixed), two));
}

TEST(Maxflow, SwitchedNetworksAreRefusedInOneLine) {
  for (const char* spec : {"fattree:2;4,4;1,2;1,2", "dragonfly:2,1;2,1;2,1;2"}) {
    const Network net = parse_network(spec);
    const auto routing = make_routing(net.default_routing(), net);
    try {
      make_plan("maxflow", net, *routing, {{0, 1, 1 << 20}}, PlannerOptions{}).plan;
      FAIL() << spec << " accepted";
    } catch (const Error& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind("maxflow needs a network without switches", 0), 0u) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  }
}

TEST(Maxflow, SwitchlessNetworksWhoseRoutesAvoidALinkAreRefused) {
  // A triangle whose table sends 0 -> 1 round by 2: the link 0 -> 1 is no default route, so a
  // path over it could not be forwarded.
  const Network net = parse_graph_network(
      R"({"nodes": [{"id": 0}, {"id": 1}, {"id": 2}],
          "links": [{"source": 0, "target": 1, "capacity": 1e9, "name": "a"},
                    {"source": 1, "target": 0, "capacity": 1e9, "name": "b"},
                    {"source": 0, "target": 2, "capacity": 1e9, "name": "c"},
                    {"source": 2, "target": 0, "capacity": 1e9, "name": "d"},
                    {"source": 1, "target": 2, "capacity": 1e9, "name": "e"},
                    {"source": 2, "target": 1, "capacity": 1e9, "name": "f"}],
          "routing": {"table": {"0": {"1": "c", "2": "c"}, "1": {"0": "b", "2": "e"}, "2": {"0": "d", "1": "f"}}}})",
      "triangle.json", "graph:triangle.json");
  const auto routing = make_routing(net.default_routing(), net);
  try {
    make_plan("maxflow", net, *routing, {{0, 1, 1 << 20}}, PlannerOptions{}).plan;
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("maxflow needs every link to be the default route", 0), 0u) << e.what();
  }
}

TEST(Maxflow, SameInputsGiveTheSamePlan) {
  const Network net = parse_network("mira:512+io");
  const auto routing = make_routing("bgq", net);
  Rng rng(64);
  std::vector<Job> jobs;
  for (int i = 0; i < 64; ++i)
    jobs.push_back({static_cast<NodeId>(rng.below(512)), static_cast<NodeId>(512 + i % 4), 1 + rng.below(4 << 20)});
  jobs.push_back(jobs.front());  // a repeated pair shares its paths
  const Plan a = make_plan("maxflow", net, *routing, jobs, PlannerOptions{}).plan;
  expect_sound(a, net, jobs);
  EXPECT_EQ(plan_to_json(a, net), plan_to_json(make_plan("maxflow", net, *routing, jobs, PlannerOptions{}).plan, net));
  EXPECT_THROW(plan_maxflow(net, *routing, jobs, min_bytes(1, -1)), Error);
}

}  // namespace
