// Schedules without MPI: where paths are copied, how flows become per-rank work, and that the
// slots lent never exceed the budget.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "optiq/core/legs.hpp"
#include "optiq/core/error.hpp"
#include "optiq/core/paths.hpp"
#include "optiq/core/planner.hpp"
#include "optiq/core/rng.hpp"
#include "optiq/core/schedule.hpp"

using namespace optiq;

namespace {

LinkPath by_ports(const Network& t, NodeId src, const std::vector<std::string>& ports) {
  LinkPath p;
  for (const auto& label : ports) {
    const LinkId l = t.link_named(std::to_string(src) + ":" + label);
    EXPECT_GE(l, 0) << label;
    p.push_back(l);
    src = t.link_dst(l);
  }
  return p;
}

std::vector<std::size_t> points(const Network& t, NodeId src, const std::vector<std::string>& ports,
                                const RankMap& pl, bool* off_plan) {
  const auto routing = make_routing("dor", t);
  return forwarding_points(Legs(t, *routing), src, by_ports(t, src, ports), pl, off_plan);
}

}  // namespace

TEST(ForwardingPoints, DefaultRouteIsNeverCopied) {
  const Network t = parse_network("torus:4x4");
  const RankMap pl(t, 16, 1);
  const auto routing = make_routing("dor", t);
  for (NodeId a = 0; a < 16; ++a)
    for (NodeId b = 0; b < 16; ++b) {
      bool off = true;
      EXPECT_TRUE(forwarding_points(Legs(t, *routing), a, routing->route(a, b), pl, &off).empty());
      EXPECT_FALSE(off);
    }
}

TEST(ForwardingPoints, CopiesAtEveryTurnAgainstTheDimensionOrder) {
  const Network t = parse_network("torus:2x2x2");  // dor goes A, then B, then C
  const RankMap pl(t, 8, 1);
  bool off = true;
  // C, B, A: both turns go against the order -> copies at nodes 1 and 3 (path indices 1, 2).
  EXPECT_EQ(points(t, 0, {"C+", "B+", "A+"}, pl, &off), (std::vector<std::size_t>{1, 2}));
  EXPECT_FALSE(off);
  // B, C is in order (the default route 0 -> 3); the turn to A is not -> one copy, at node 3.
  EXPECT_EQ(points(t, 0, {"B+", "C+", "A+"}, pl, &off), (std::vector<std::size_t>{2}));
}

TEST(ForwardingPoints, OnlyNodesMatterNotWhichPortReachesThem) {
  // In a size-2 dimension both ports reach the same neighbour; the network picks the port.
  const Network t = parse_network("torus:4x2");
  const RankMap pl(t, 8, 1);
  bool off = true;
  EXPECT_TRUE(points(t, 0, {"B-"}, pl, &off).empty());
  EXPECT_TRUE(points(t, 0, {"A+", "B-"}, pl, &off).empty());
  EXPECT_FALSE(off);
}

TEST(ForwardingPoints, ATurnAtAnEmptyNodeLeavesThePlan) {
  const Network t = parse_network("torus:2x2x2");
  bool off = false;
  // Ranks on nodes 0, 3, 7 only: the first turn (node 1) has no rank -> straight to node 7.
  const RankMap no_first(t, 3, 1, {0, 3, 7});
  EXPECT_TRUE(points(t, 0, {"C+", "B+", "A+"}, no_first, &off).empty());
  EXPECT_TRUE(off);
  // Ranks on 0, 1, 7: copy at node 1, then the turn at node 3 is empty -> straight on.
  const RankMap no_second(t, 3, 1, {0, 1, 7});
  EXPECT_EQ(points(t, 0, {"C+", "B+", "A+"}, no_second, &off), (std::vector<std::size_t>{1}));
  EXPECT_TRUE(off);
}

namespace {

// The definition: from each copy, the farthest occupied node (or the end) that the default
// route reaches along the path, trying every candidate. Quadratic in the path's length.
std::vector<std::size_t> reference_points(const Network& t, const RoutingModel& r, NodeId src, const LinkPath& path,
                                          const RankMap& pl, bool* off_plan) {
  const std::vector<NodeId> nodes = path_nodes(t, src, path);
  auto follows = [&](std::size_t i, std::size_t j) {
    const LinkPath route = r.route(nodes[i], nodes[j]);
    if (route.size() != j - i) return false;
    for (std::size_t k = 0; k < route.size(); ++k)
      if (t.link_dst(route[k]) != nodes[i + k + 1]) return false;
    return true;
  };
  std::vector<std::size_t> points;
  *off_plan = false;
  for (std::size_t i = 0, h = path.size(); i < h;) {
    std::size_t reach = 0;
    for (std::size_t j = h; j > i && reach == 0; --j)
      if ((j == h || pl.occupied(nodes[j])) && (j == i + 1 || follows(i, j))) reach = j;
    if (reach == 0) {
      *off_plan = true;
      break;
    }
    if (reach < h) points.push_back(reach);
    i = reach;
  }
  return points;
}

// A random simple path from src: each step to a random unvisited neighbour.
LinkPath random_simple_path(const Network& t, NodeId src, std::size_t hops, Rng& rng) {
  LinkPath path;
  std::set<NodeId> seen{src};
  for (NodeId at = src; path.size() < hops;) {
    std::vector<LinkId> open;
    for (int i = t.graph().out_begin(at); i < t.graph().out_end(at); ++i)
      if (!seen.count(t.graph().head_at(i))) open.push_back(t.graph().arc_at(i));
    if (open.empty()) break;
    const LinkId l = open[rng.below(open.size())];
    path.push_back(l);
    at = t.link_dst(l);
    seen.insert(at);
  }
  return path;
}

}  // namespace

TEST(ForwardingPoints, AgreeWithTheDefinitionOnRandomPaths) {
  Rng rng(5);
  for (const char* spec : {"torus:4x4", "torus:2x2x2x2", "mesh:3x5", "bgq:2x2x4x2x2", "torus:8x3m", "torus:7x6"})
    for (const std::string& model : routing_names()) {
      // A generated torus has no forwarding table; the fat-tree and dragonfly models need theirs.
      if (model == "table" || model == "dmodk" || model == "minimal") continue;
      const Network t = parse_network(spec);
      const auto routing = make_routing(model, t);
      for (int trial = 0; trial < 40; ++trial) {
        std::vector<NodeId> map;  // some nodes without a rank
        for (NodeId n = 0; n < t.num_vertices(); ++n)
          if (trial % 2 == 0 || rng.below(3) > 0) map.push_back(n);
        const RankMap pl(t, static_cast<int>(map.size()), 1, map);
        const NodeId src = map[rng.below(map.size())];
        const LinkPath path = random_simple_path(t, src, 1 + rng.below(t.num_vertices()), rng);
        bool off = false, ref_off = false;
        EXPECT_EQ(forwarding_points(Legs(t, *routing), src, path, pl, &off),
                  reference_points(t, *routing, src, path, pl, &ref_off))
            << spec << " " << model << " trial " << trial;
        EXPECT_EQ(off, ref_off);
      }
    }
}

// A snake through every node of torus:300x300: 89,999 hops, scheduled in well under a second
// (the definition, quadratic in the length, takes about three minutes).
TEST(ForwardingPoints, LongSimplePathsTakeLinearTime) {
  const Network t = parse_network("torus:300x300");
  const RankMap pl(t, t.num_vertices(), 1);
  const auto routing = make_routing("dor", t);
  LinkPath snake;
  NodeId at = 0;
  for (int row = 0; row < 300; ++row)
    for (int k = 0; k < 300; ++k) {
      if (k == 299 && row == 299) break;
      snake.push_back(k < 299 ? t.torus()->link(at, 1, row % 2 ? -1 : +1) : t.torus()->link(at, 0, +1));
      at = t.link_dst(snake.back());
    }
  bool off = true;
  const auto copies = forwarding_points(Legs(t, *routing), 0, snake, pl, &off);
  EXPECT_FALSE(off);
  EXPECT_GT(copies.size(), 300u);  // at least one per row
  for (std::size_t k = 1; k < copies.size(); ++k) EXPECT_LT(copies[k - 1], copies[k]);
}

TEST(RankMap, BlocksMapsAndErrors) {
  const Network t = parse_network("torus:2x2");
  const RankMap blocks(t, 8, 2);
  EXPECT_EQ(blocks.node_of(5), 2);
  EXPECT_EQ(blocks.ranks_on(3), (std::vector<Rank>{6, 7}));
  EXPECT_EQ(blocks.leader(1), 2);
  const RankMap mapped(t, 3, 1, {3, 3, 0});
  EXPECT_EQ(mapped.ranks_on(3), (std::vector<Rank>{0, 1}));
  EXPECT_FALSE(mapped.occupied(1));
  EXPECT_EQ(mapped.leader(1), -1);
  EXPECT_THROW(RankMap(t, 5, 1), Error);             // rank 4 on node 4 of 4
  EXPECT_THROW(RankMap(t, 2, 1, {0}), Error);        // map too short
  EXPECT_THROW(RankMap(t, 2, 0), Error);
}

namespace {

struct Scenario {
  Network topo;
  RankMap placement;
  std::vector<RankJob> jobs;
  std::vector<Flow> flows;
};

// A random pattern on a machine, planned with `planner`, as flows.
Scenario scenario(const std::string& spec, int ranks, int rpn, const std::string& planner, std::uint64_t seed,
                  Bytes max_bytes) {
  Network t = parse_network(spec);
  RankMap pl(t, ranks, rpn);
  Rng rng(seed);
  std::vector<RankJob> jobs;
  for (Rank s = 0; s < ranks; ++s)
    for (Rank d = 0; d < ranks; ++d)
      if (rng.below(3) == 0) jobs.push_back({s, d, rng.below(max_bytes + 1), 0});
  std::vector<Job> node_jobs;
  for (const RankJob& j : jobs) node_jobs.push_back({pl.node_of(j.src), pl.node_of(j.dst), j.bytes});
  const auto routing = make_routing(t.default_routing(), t);
  PlannerOptions po;
  po.k = 6;
  po.heu2_chunk = 16;
  const Plan plan = make_plan(planner, t, *routing, node_jobs, po).plan;
  auto flows = make_flows(t, *routing, pl, jobs, plan, std::vector<bool>(jobs.size(), true));
  return {std::move(t), std::move(pl), std::move(jobs), std::move(flows)};
}

void check_schedules(const Scenario& sc, const std::vector<RankSchedule>& all, const ScheduleOptions& o) {
  // Flows cover every job exactly.
  std::map<std::size_t, Bytes> covered;
  for (const Flow& f : sc.flows) covered[f.job] += f.bytes;
  for (std::size_t i = 0; i < sc.jobs.size(); ++i) EXPECT_EQ(covered[i], sc.jobs[i].bytes) << "job " << i;

  std::set<std::tuple<Rank, Rank, int>> tags;
  std::map<std::tuple<Rank, Rank, int>, std::uint64_t> forwarded;  // (at, upstream, class) -> chunks
  Bytes sent = 0, received = 0, copied = 0;
  for (const RankSchedule& s : all) {
    EXPECT_LE(s.slot_bytes * s.num_slots, o.budget) << "rank " << s.rank;
    for (const SendFlow& f : s.sends) {
      EXPECT_TRUE(tags.insert({s.rank, f.next, f.tag}).second);
      EXPECT_GE(f.tag, kDataTagBase);
      if (o.chunk) EXPECT_LE(f.chunk, o.chunk);
      sent += f.bytes;
    }
    for (const ForwardEntry& f : s.forwards) {
      EXPECT_TRUE(tags.insert({s.rank, f.next, f.tag_out}).second);
      EXPECT_GE(f.in_class, 1);
      EXPECT_TRUE(f.next_class == 0 || f.next_class == f.in_class + 1);
      EXPECT_LE(f.chunk, s.slot_bytes);
      forwarded[{s.rank, f.upstream, f.in_class}] += (f.bytes + f.chunk - 1) / f.chunk;
    }
    for (const RecvFlow& r : s.recvs) received += r.bytes;
    for (const SelfCopy& c : s.self) copied += c.bytes;
    // Streams: one per (upstream, class) forwarded, each with at least one slot, slots disjoint.
    std::uint32_t next_slot = 0;
    for (const Stream& in : s.in_streams) {
      EXPECT_EQ(in.chunks, (forwarded[{s.rank, in.peer, in.cls}])) << "rank " << s.rank;
      EXPECT_GE(in.initial, 1u);
      EXPECT_LE(in.initial, in.chunks);
      EXPECT_EQ(in.first_slot, next_slot);
      next_slot += in.initial;
      // The upstream rank holds the mirror image.
      const auto& outs = all[in.peer].out_streams;
      const bool mirrored = std::any_of(outs.begin(), outs.end(), [&](const Stream& o) {
        return o.peer == s.rank && o.cls == in.cls && o.chunks == in.chunks && o.initial == in.initial &&
               o.first_slot == in.first_slot && o.slot_bytes == s.slot_bytes;
      });
      EXPECT_TRUE(mirrored) << "rank " << s.rank << " stream from " << in.peer;
    }
    EXPECT_EQ(next_slot, s.num_slots);
  }
  Bytes total = 0;
  for (const RankJob& j : sc.jobs) total += j.bytes;
  EXPECT_EQ(sent + copied, total);
  EXPECT_EQ(received + copied, total);
}

}  // namespace

TEST(Schedules, ConsistentAcrossRanksForRandomPlans) {
  int forwarders_seen = 0, second_hops_seen = 0;
  for (const auto& [spec, ranks, rpn] : std::vector<std::tuple<std::string, int, int>>{
           {"torus:2x2x2", 8, 1}, {"torus:4x4", 16, 1}, {"bgq:2x2x2x1x1", 16, 2}, {"mesh:3x3", 9, 1}})
    for (const std::string planner : {"default", "heu1", "heu2"})
      for (std::uint64_t seed = 1; seed <= 4; ++seed)
        for (Bytes chunk : {Bytes(0), Bytes(1), Bytes(7), Bytes(100)}) {
          const Scenario sc = scenario(spec, ranks, rpn, planner, seed, 500);
          ScheduleOptions o;
          o.chunk = chunk;
          o.budget = 1 << 16;
          const auto all = build_schedules(sc.jobs, sc.flows, ranks, o);
          check_schedules(sc, all, o);
          for (const auto& s : all) {
            forwarders_seen += !s.forwards.empty();
            for (const ForwardEntry& f : s.forwards) second_hops_seen += f.in_class >= 2;
          }
        }
  EXPECT_GT(forwarders_seen, 0);   // the multi-path planners do make ranks forward,
  EXPECT_GT(second_hops_seen, 0);  // and some chunks cross two forwarders (class 2 slots)
}

// Automatic chunks: without forwarding every flow goes whole; with it every flow, direct ones
// too, is cut to one power-of-two size, an eighth of the largest forwarded flow within 4-32 KiB,
// smaller only where the budget needs it.
TEST(Schedules, AutomaticChunks) {
  const Scenario direct = scenario("torus:4x4", 16, 1, "default", 3, 1 << 20);
  const auto whole = choose_chunks(direct.flows, 16, ScheduleOptions{});
  for (std::size_t f = 0; f < direct.flows.size(); ++f) EXPECT_EQ(whole[f], direct.flows[f].bytes);

  for (Bytes job : {Bytes(48) << 10, Bytes(1) << 20, Bytes(8) << 20}) {
    const Scenario sc = scenario("torus:4x4", 16, 1, "heu1", 3, job);
    Bytes largest = 0;
    for (const Flow& f : sc.flows)
      if (f.hops.size() > 2) largest = std::max(largest, f.bytes);
    ASSERT_GT(largest, 0) << "heu1 forwards on this pattern";
    Bytes expected = 4 << 10;
    while (expected * 2 <= std::min<Bytes>(largest / 8, 32 << 10)) expected *= 2;
    for (Bytes budget : {Bytes(1) << 30, Bytes(1) << 18}) {
      ScheduleOptions o;
      o.budget = budget;
      const auto chunks = choose_chunks(sc.flows, 16, o);
      const Bytes c = *std::max_element(chunks.begin(), chunks.end());
      if (budget == Bytes(1) << 30) EXPECT_EQ(c, expected) << "job " << job;
      else EXPECT_LE(c, expected);
      EXPECT_EQ(c & (c - 1), 0u) << c;
      for (std::size_t f = 0; f < sc.flows.size(); ++f) EXPECT_EQ(chunks[f], std::min(c, sc.flows[f].bytes));
      check_schedules(sc, build_schedules(sc.jobs, sc.flows, 16, o), o);
    }
  }
}

TEST(Schedules, TooSmallABudgetIsAnErrorNamingTheRank) {
  const Scenario sc = scenario("torus:4x4", 16, 1, "heu1", 5, 1000);
  ScheduleOptions o;
  o.chunk = 64;
  o.budget = 64;  // one slot: not enough for a rank that forwards several streams
  try {
    build_schedules(sc.jobs, sc.flows, 16, o);
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("forwarding budget"), std::string::npos) << e.what();
  }
  o.chunk = Bytes(2) << 30;
  EXPECT_THROW(choose_chunks(sc.flows, 16, o), Error);
}

TEST(Schedules, TightBudgetsLendAtLeastOneSlotPerStream) {
  const Scenario sc = scenario("torus:4x4", 16, 1, "heu2", 9, 300);
  for (Bytes budget : {Bytes(40), Bytes(100), Bytes(1000)}) {
    ScheduleOptions o;
    o.chunk = 4;
    o.budget = budget;
    try {
      check_schedules(sc, build_schedules(sc.jobs, sc.flows, 16, o), o);
    } catch (const Error&) {
      // Legitimately too small; the error case is tested above.
    }
  }
}

TEST(Schedules, SerialiseRoundTripAndRejectGarbage) {
  const Scenario sc = scenario("torus:2x2x2", 8, 1, "heu1", 2, 2000);
  ScheduleOptions o;
  o.chunk = 9;
  for (const RankSchedule& s : build_schedules(sc.jobs, sc.flows, 8, o)) {
    RankSchedule paced = s;
    paced.planned_seconds = 0.125;
    EXPECT_EQ(deserialize_schedule(serialize(paced)).planned_seconds, 0.125);
    paced.planned_seconds = -1;
    EXPECT_THROW(deserialize_schedule(serialize(paced)), Error);
    const std::string bytes = serialize(s);
    EXPECT_EQ(serialize(deserialize_schedule(bytes)), bytes);
    EXPECT_THROW(deserialize_schedule(bytes.substr(0, bytes.size() - 1)), Error);
    EXPECT_THROW(deserialize_schedule(bytes + "x"), Error);
    std::string bad = bytes;
    bad[0] ^= 1;
    EXPECT_THROW(deserialize_schedule(bad), Error);
  }
}

TEST(Flows, SelfSameNodeAndUnplannedJobsGoDirect) {
  const Network t = parse_network("torus:2x2");
  const RankMap pl(t, 8, 2);
  const auto routing = make_routing("dor", t);
  const std::vector<RankJob> jobs = {{0, 0, 10, 0}, {0, 1, 20, 0}, {0, 7, 30, 0}, {2, 5, 0, 0}};
  Plan plan{t.spec(), "dor", "none", {}};
  for (const RankJob& j : jobs) plan.jobs.push_back({{pl.node_of(j.src), pl.node_of(j.dst), j.bytes}, {}});
  const auto flows = make_flows(t, *routing, pl, jobs, plan, {false, false, false, false});
  ASSERT_EQ(flows.size(), 3u);  // the zero-byte job has no flow
  EXPECT_EQ(flows[0].hops, (std::vector<Rank>{0}));
  EXPECT_EQ(flows[1].hops, (std::vector<Rank>{0, 1}));
  EXPECT_EQ(flows[2].hops, (std::vector<Rank>{0, 7}));
}
